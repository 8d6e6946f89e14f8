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

    @Test func theSwitchFollowsTheEnvironment() {
        let asked = ProcessInfo.processInfo.environment["CARTOGRAPH_PORTABLE_LAYOUT"] == "1"
        #expect(LayoutAssumptions.enabled == !asked)
        #expect(ContainerLayout.keyedDecoding == !asked)
        #expect(ContainerLayout.keyedEncoding == !asked)
    }
}
