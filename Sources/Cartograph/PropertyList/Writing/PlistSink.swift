import Foundation

/// Where ``PlistTreeWalker`` sends a value, in document order: one writer
/// per output (binary, XML, libplist's tree). Members arrive between a
/// container's begin and end (a dict's as key, value, key, value …), with
/// nulls already left out or spelled `$null`, so the walker needs no
/// counting pass. A sink only
/// checks what its own format cannot hold; the walker has already refused
/// what no plist can.
protocol PlistSink {
    mutating func beginArray() throws
    mutating func endArray() throws
    mutating func beginDict() throws
    mutating func key(_ key: String) throws
    mutating func endDict() throws
    mutating func bool(_ value: Bool) throws
    mutating func integer(_ value: Int64) throws
    /// An unsigned integer above `Int64.max`.
    mutating func unsigned(_ value: UInt64) throws
    mutating func real(_ value: Double) throws
    mutating func string(_ value: String) throws
    mutating func date(_ value: Date) throws
    mutating func data(_ value: Data) throws
    /// A scalar the `Codable` encoder already wrote into this sink, by its
    /// object number (``EncodingNode/written(_:)``: only the binary sink
    /// takes writes ahead of the walk).
    mutating func written(_ object: Int) throws
}

extension PlistSink {
    mutating func written(_ object: Int) throws {
        throw CartographError(.encodingFailed, "internal: a value written ahead reached \(Self.self), which takes none")
    }
}
