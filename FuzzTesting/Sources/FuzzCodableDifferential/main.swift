import FuzzSupport

/// Random JSON and random container-access plans (CodableProbe.swift, shared
/// with the test suite through a symbolic link), decoded by Foundation's
/// `JSONDecoder` and by Cartograph: the same values in the same order, or the
/// same error case at the same path.
@_cdecl("FuzzCodableDifferential_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    var choices = ProbeChoices(bytes: Array(UnsafeRawBufferPointer(start: start, count: count)))
    let probe = ProbeCase(&choices)
    if let difference = probe.disagreement() { FuzzInput.fail("Cartograph and Foundation disagree:\n\(difference)") }
    return 0
}
