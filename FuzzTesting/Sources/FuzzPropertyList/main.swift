import Cartograph
import FuzzSupport

/// Binary and XML plists through Cartograph's readers or libplist's (flag bit 2): a Document or a typed error; what parses re-encodes and parses back.
@_cdecl("FuzzPropertyList_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    var options = PropertyListOptions()
    options.maxDepth = input.flags & 1 != 0 ? 8 : 512
    options.maxValues = 100_000
    options.reader = input.flags & 2 != 0 ? .libplist : .native
    // Plists have no null but the binary null marker reads as one: refuse
    // to write it rather than omit it, so the round trip stays exact.
    options.nulls = .reject
    let mapper = PropertyListMapper(options: options)
    guard let document = try? mapper.document(from: input.bytes) else { return 0 }
    guard let value = try? document.root.jsonValue() else { return 0 }
    for format in PropertyListFormat.allCases {
        guard let bytes = try? mapper.encode(document, format: format) else { continue }
        guard let again = try? mapper.document(from: bytes) else { FuzzInput.fail("Cartograph's \(format) plist did not read back") }
        if format == .binary, (try? again.root.jsonValue()) != value { FuzzInput.fail("binary plist round trip changed the value") }
    }
    return 0
}
