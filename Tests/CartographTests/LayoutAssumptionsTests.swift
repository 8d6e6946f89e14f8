import Foundation
import Testing

@testable import Cartograph

/// The portable paths behind `CARTOGRAPH_PORTABLE_LAYOUT` answer as the
/// layout tricks do (scripts/test also runs the whole suite both ways).
@Suite struct LayoutAssumptionsTests {
    protocol Shape {}
    struct Square: Shape {}
    class Node<T>: Shape {}
    enum `Protocol` {}

    static let types: [(Any.Type, Bool)] = [
        (Square.self, false), (Node<Int>.self, false), ((any Shape).self, true), (Any.self, true), (AnyObject.self, true),
        ((any Shape & AnyObject).self, true), (Optional<Square>.self, false), ((Int, String).self, false), (((Int) -> Int).self, false),
        ((any Shape.Type).self, false), (`Protocol`.self, false), ([any Shape].self, false), ((any Error).self, true),
        ((any Sendable).self, true), (Any.Type.self, false), ((Node<Int> & Shape).self, true), (Int.self, false)
    ]

    @Test func existentialsAreFoundTheSameWayByTheKindWordAndByTheMetatypesName() {
        for (type, existential) in Self.types {
            #expect(MetadataKind.describesExistential(type) == existential, "\(type), portable")
            if LayoutAssumptions.enabled {
                #expect(MetadataKind.isExistential(type) == existential, "\(type), kind word")
            }
        }
    }

    /// ``LentValue/withWrapped(_:_:)`` lends an optional's value from the
    /// optional's own address: the payload must sit at offset 0, for
    /// payloads with spare bits (a reference), without (an `Int`) and
    /// padded ones, and the value lent must be the one wrapped.
    @Test func anOptionalKeepsItsValueAtOffsetZero() {
        final class Box { let id = 7 }
        struct Padded { var flag = true; var box = Box(); var small: UInt8 = 9 }
        let number: Int? = 0x1234_5678
        withUnsafeBytes(of: number) { #expect($0.load(as: Int.self) == 0x1234_5678) }
        let padded: Padded? = Padded()
        withUnsafeBytes(of: padded) { bytes in
            #expect(bytes.load(as: Bool.self) && bytes.load(fromByteOffset: MemoryLayout<Padded>.offset(of: \.small)!, as: UInt8.self) == 9)
        }
        var seen: [Int] = []
        for value in [Padded(), nil, Padded()] as [Padded?] {
            let wrapped = LentValue.withWrapped(value) { seen.append($0.box.id) }
            #expect(wrapped == (value != nil))
        }
        #expect(seen == [7, 7])
    }

    @Test func theSwitchFollowsTheEnvironment() {
        let asked = ProcessInfo.processInfo.environment["CARTOGRAPH_PORTABLE_LAYOUT"] == "1"
        #expect(LayoutAssumptions.enabled == !asked)
        #expect(ContainerLayout.keyedDecoding == !asked)
        #expect(ContainerLayout.keyedEncoding == !asked)
    }
}
