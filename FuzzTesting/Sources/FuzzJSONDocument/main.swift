import Cartograph
import FuzzSupport

/// JSON into a Document: any input gives a Document or a CartographError; the Document is walked fully.
@_cdecl("FuzzJSONDocument_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    if let document = try? Document(parsing: input.bytes, options: input.options) {
        for value in document.values {
            _ = try? value.jsonValue()
            _ = try? value.double()
            _ = try? value.int64()
            _ = try? value.decimal()
        }
    }
    return 0
}
