import Cartograph

/// Splits a fuzz input into options (from its first byte) and the document bytes.
public struct FuzzInput {
    public let options: ParseOptions
    public let flags: UInt8
    public let bytes: [UInt8]

    public init(_ start: UnsafeRawPointer, _ count: Int) {
        let all = Array(UnsafeRawBufferPointer(start: start, count: count))
        flags = all.first ?? 0
        bytes = Array(all.dropFirst())
        var options = ParseOptions()
        options.allowComments = flags & 1 != 0
        options.allowMultipleValues = flags & 2 != 0
        options.duplicateKeys = flags & 4 != 0 ? .firstWins : (flags & 8 != 0 ? .reject : .lastWins)
        options.byteOrderMark = flags & 16 != 0 ? .reject : .skip
        options.maxDepth = flags & 32 != 0 ? 16 : 512
        options.maxStringBytes = flags & 64 != 0 ? 8 : options.maxStringBytes
        // JSON5 (its own reader), with braces optional when bit 2 is set too.
        options.allowsJSON5 = flags & 128 != 0
        options.assumesTopLevelObject = flags & 128 != 0 && flags & 2 != 0
        self.options = options
    }

    /// A crash the fuzzer should report (an invariant broke).
    public static func fail(_ message: String) -> Never {
        fatalError("fuzz invariant broken: \(message)")
    }
}

/// libFuzzer's driver, for a `main` of our own: SwiftPM links executables
/// with their entry point renamed to `<Target>_main`, so each target defines
/// that symbol and hands control to libFuzzer from it.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the process arguments and a test-one-input function.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, body)
}
