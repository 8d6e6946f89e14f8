/// Whether the standard library's keyed containers are laid out as
/// ``RecycledContainers`` expects: one reference to the box around the
/// concrete container, which a bit cast can take out and put back. Checked
/// once per process (size, box type, a round trip); where it fails, no
/// container is kept and each is made anew.
enum ContainerLayout {
    /// `KeyedDecodingContainer` is one reference to its box.
    static let keyedDecoding: Bool = {
        guard LayoutAssumptions.enabled,
            MemoryLayout<KeyedDecodingContainer<StringKey>>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<KeyedDecodingContainer<StringKey>>.alignment == MemoryLayout<AnyObject>.alignment
        else { return false }
        let probe = KeyedDecodingContainer(DecodingProbe())
        let box = unsafe unsafeBitCast(probe, to: AnyObject.self)
        guard String(describing: type(of: box)).contains("KeyedDecodingContainerBox") else { return false }
        let back = unsafe unsafeBitCast(box, to: KeyedDecodingContainer<StringKey>.self)
        return back.codingPath.map(\.stringValue) == [mark]
    }()

    /// `KeyedEncodingContainer` is one reference to its box: checked on the
    /// encoder's own container, through which a value must land in its object.
    static let keyedEncoding: Bool = {
        guard LayoutAssumptions.enabled,
            MemoryLayout<KeyedEncodingContainer<StringKey>>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<KeyedEncodingContainer<StringKey>>.alignment == MemoryLayout<AnyObject>.alignment
        else { return false }
        // A run that keeps no containers: one that may keep them asks this.
        let run = EncodingRun(options: CodableOptions(), registry: ModelRegistry(), propertyList: false, recyclesContainers: false)
        let encoder = TreeEncoder(run: run, trail: nil, depth: 0)
        let object = EncodingObject()
        let probe = KeyedEncodingContainer(TreeKeyedContainer<StringKey>(encoder: encoder, object: object))
        let box = unsafe unsafeBitCast(probe, to: AnyObject.self)
        guard String(describing: type(of: box)).contains("KeyedEncodingContainerBox") else { return false }
        var back = unsafe unsafeBitCast(box, to: KeyedEncodingContainer<StringKey>.self)
        guard (try? back.encode(true, forKey: StringKey(mark))) != nil, case .value(.bool(true))? = object.node(mark) else { return false }
        return true
    }()

    /// The decoding probe's coding path, the encoding probe's key.
    private static let mark = "cartograph.layout-probe"

    private struct DecodingProbe: KeyedDecodingContainerProtocol {
        var codingPath: [any CodingKey] { [StringKey(mark)] }
        var allKeys: [StringKey] { [] }
        func contains(_ key: StringKey) -> Bool { false }
        func decodeNil(forKey key: StringKey) throws -> Bool { throw failure }
        func decode<T: Decodable>(_ type: T.Type, forKey key: StringKey) throws -> T { throw failure }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: StringKey) throws -> KeyedDecodingContainer<NestedKey> {
            throw failure
        }
        func nestedUnkeyedContainer(forKey key: StringKey) throws -> any UnkeyedDecodingContainer { throw failure }
        func superDecoder() throws -> any Decoder { throw failure }
        func superDecoder(forKey key: StringKey) throws -> any Decoder { throw failure }
        private var failure: DecodingError { .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: "a layout probe")) }
    }
}
