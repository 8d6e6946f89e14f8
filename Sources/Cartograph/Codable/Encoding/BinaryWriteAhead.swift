import Foundation

/// The binary plist sink of a `Codable` encode, which scalars are written
/// into as they are encoded: the encoder's tree then keeps only their
/// object numbers (``EncodingNode/written(_:)``) and its containers, and
/// the walk that follows files those numbers under the containers.
///
/// Building the tree of values, walking it and releasing it (reference
/// counting of the strings it holds included) was most of a binary encode
/// of short records. A scalar written ahead is never held, walked
/// or released. Containers still wait for the walk: a nested container may
/// be added to until the root's `encode(to:)` returns, and a key encoded
/// twice keeps the last value in the first key's place (the first value's
/// object then stays in the file unreferenced, which readers skip).
///
/// Only the binary format with Cartograph's own writer takes writes ahead:
/// XML is written in document order, and libplist builds its own tree.
///
/// The sink is an ``ExclusiveState``: it is written once per scalar, and a
/// class's stored property would pay the runtime's exclusivity check each time.
final class BinaryWriteAhead: ExclusiveState<BinaryWriteAhead.Sink> {
    /// The sink, nil once ``take()`` has handed it to the walk.
    struct Sink {
        var sink: BinaryPlistSink? = BinaryPlistSink()

        mutating func node(_ value: JSONValue) -> EncodingNode? {
            guard sink != nil else { return nil }
            switch value {
            case .string(let text): return .written(sink!.stringObject(text))
            case .bool(let flag): return .written(sink!.boolObject(flag))
            case .number(let number):
                switch number.storage {
                case .int(let integer): return .written(sink!.integerObject(integer))
                case .uint(let integer): return .written(sink!.unsignedObject(integer))
                case .double(let real): return .written(sink!.realObject(real))
                case .text: return nil
                }
            case .null, .array, .object: return nil
            }
        }

        mutating func node(_ value: EncodedValue) -> EncodingNode? {
            guard sink != nil else { return nil }
            switch value {
            case .date(let date): return (try? sink!.dateObject(date)).map { .written($0) }
            case .data(let data): return .written(sink!.dataObject(data))
            default: return nil
            }
        }
    }

    init() { super.init(state: Sink()) }

    /// The node of a scalar written now; nil for a value that waits for the
    /// walk (null, which the walker leaves out or refuses by option; integers
    /// beyond 64 bits, which it refuses with the value's path; containers).
    @inline(__always)
    func node(_ value: JSONValue) -> EncodingNode? { state.node(value) }

    /// The node of a date or data written now; nil for a date the format
    /// cannot hold (the walk refuses it with its path).
    func node(_ value: EncodedValue) -> EncodingNode? { state.node(value) }

    /// The sink, for the walk (none is left behind: the walk's writes then
    /// do not copy its buffers).
    func take() -> BinaryPlistSink {
        defer { state.sink = nil }
        return state.sink!
    }
}
