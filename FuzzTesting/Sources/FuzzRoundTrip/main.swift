import Cartograph
import FuzzSupport

/// parse → encode → parse gives an equal value, for both writers.
@_cdecl("FuzzRoundTrip_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { start, count in testOneInput(UnsafeRawPointer(start!), count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    var options = input.options
    options.allowMultipleValues = false
    guard let document = try? Document(parsing: input.bytes, options: options) else { return 0 }
    guard let value = try? document.root.jsonValue() else { return 0 }
    let writes: [WriteOptions] = [
        WriteOptions(), .pretty,
        WriteOptions {
            $0.sortedKeys = true; $0.asciiOnly = true; $0.escapeSlashes = true
        }
    ]
    for write in writes {
        let bytes: [UInt8]
        do {
            bytes = try document.encoded(options: write)
        } catch let error as CartographError where error.kind == .nonFiniteNumber && options.allowsJSON5 {
            // JSON5 reads Infinity and NaN, which JSON cannot hold: refusing them is the documented answer.
            return 0
        } catch {
            FuzzInput.fail("a parsed document could not be encoded: \(error)")
        }
        guard let again = try? JSONValue(parsing: bytes, options: options) else { FuzzInput.fail("encoded output did not parse: \(bytes)") }
        if again != value { FuzzInput.fail("round trip changed the value") }
        if let fromValue = try? value.encoded(options: write), (try? JSONValue(parsing: fromValue, options: options)) != value {
            FuzzInput.fail("JSONValue round trip changed the value")
        }
    }
    if document.compactLine() != (try? document.encoded()) { FuzzInput.fail("the two writers disagree") }
    return 0
}
