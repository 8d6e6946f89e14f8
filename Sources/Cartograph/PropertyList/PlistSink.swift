import Foundation

/// Where ``PlistTreeWalker`` sends a value, in document order: one writer
/// per output (binary, XML, libplist's tree). Containers announce how many
/// members they will hold (nulls already left out), which the binary format
/// needs up front and XML uses for `<dict/>`. A sink only checks what its
/// own format cannot hold; the walker has already refused what no plist can.
protocol PlistSink {
    mutating func beginArray(count: Int) throws
    mutating func endArray(count: Int) throws
    mutating func beginDict(count: Int) throws
    mutating func key(_ key: String) throws
    mutating func endDict(count: Int) throws
    mutating func bool(_ value: Bool) throws
    mutating func integer(_ value: Int64) throws
    /// An unsigned integer above `Int64.max`.
    mutating func unsigned(_ value: UInt64) throws
    mutating func real(_ value: Double) throws
    mutating func string(_ value: String) throws
    mutating func date(_ value: Date) throws
    mutating func data(_ value: Data) throws
}
