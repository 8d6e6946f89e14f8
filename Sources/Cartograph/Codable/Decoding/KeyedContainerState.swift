/// What a keyed container reads (its object, coding path, key hint and how
/// it reads keys), apart from its key type, so that ``DocumentDecoder`` can
/// point a container it made for one object at the next object of the same
/// type (``RecycledContainers``).
///
/// A container is pointed elsewhere only when nothing but the decoder holds
/// it, so no container a caller holds ever changes.
class KeyedContainerState {
    let decoder: DocumentDecoder
    private(set) var object = 0
    private(set) var trail: PathTrail?
    /// The container's depth: its key hint's slot (``KeyHints``).
    private(set) var hint = -1
    /// How this object's keys are read (a dictionary's keys are kept as they are).
    private(set) var keys = ObjectKeys.byStrategy
    /// Whether keys are found by their own names (``DocumentDecoder/comparesNames(_:)``):
    /// a flag read per key where `keys`, an enum with payloads, was copied.
    private(set) var comparesNames = true
    /// Under snake_case reading, this object's keys converted
    /// (``ObjectKeys/snakeCased``; reused from object to object) and where
    /// the next lookup starts in them.
    private var snakeCased: [SnakeCaseKeyTable.Listed] = []
    private var snakeCasedHint = 0
    /// Whether this object's keys are listed in `snakeCased` (the decoder's
    /// ``SnakeCaseKeyTable`` was not full).
    private var listsSnakeCased = false
    /// Lookups in this object that missed the key the hint pointed at, and
    /// where the misses of the last object were found (``LearnedKeyOrder``,
    /// made on the first miss and kept from object to object). It is lent
    /// unretained per miss: loaded from the container and passed on, it
    /// was retained and released around every call.
    private var misses = 0
    private var order: LearnedKeyOrder?
    private var lentOrder: Unretained<LearnedKeyOrder>?

    init(decoder: DocumentDecoder, object: Int, trail: PathTrail?, depth: Int, keepsKeys: Bool) {
        self.decoder = decoder
        reset(object: object, trail: trail, depth: depth, keepsKeys: keepsKeys)
    }

    /// Points the container at another object of the same decode.
    final func reset(object: Int, trail: PathTrail?, depth: Int, keepsKeys: Bool) {
        self.object = object
        self.trail = trail
        hint = depth
        misses = 0
        decoder.hints.set(depth, object: object, next: object + 1)
        if decoder.usesDefaultKeys {
            // Keys as they are (the common case): no strategy to consult, and
            // the enum (with payloads) written only if it changes.
            if case .byStrategy = keys {} else { keys = .byStrategy }
            comparesNames = true
        } else {
            keys = decoder.objectKeys(of: object, keepsKeys: keepsKeys, trail: trail)
            comparesNames = decoder.comparesNames(keys)
            listsSnakeCased = false
            if case .snakeCased = keys, let table = decoder.snakeCaseKeys {
                if table.list(object, tape: decoder.tape, into: &snakeCased) {
                    snakeCasedHint = 0
                    listsSnakeCased = true
                } else {
                    // The table is full: this object's keys one by one.
                    keys = decoder.convertedKeys(of: object, by: SnakeCaseKeys.fromSnakeCase)
                }
            }
        }
    }

    /// The tape index of the value for the key `name` (compared as it is):
    /// the hint's key, else where the last object's lookup in the same turn
    /// found it, else this object's keys in order (``LearnedKeyOrder``).
    @inline(__always)
    private final func find(_ name: consuming String) -> Int? {
        let key = name.utf8.span
        if let found = decoder.probeHint(key, in: object, hint: hint) { return found }
        let miss = misses
        misses = miss + 1
        guard let lentOrder else { return firstOutOfOrder(key, miss: miss) }
        return lentOrder.with { decoder.findOutOfOrder(key, in: object, hint: hint, miss: miss, order: $0) }
    }

    /// The container's first miss: its ``LearnedKeyOrder`` is made.
    @inline(never)
    private final func firstOutOfOrder(_ key: Span<UInt8>, miss: Int) -> Int? {
        let made = LearnedKeyOrder()
        order = made
        lentOrder = Unretained(made)
        return decoder.findOutOfOrder(key, in: object, hint: hint, miss: miss, order: made)
    }

    /// The object's keys as coding-key names (a container's `allKeys`).
    final var keyNames: [String] {
        if listsSnakeCased, let table = decoder.snakeCaseKeys { return table.names(snakeCased) }
        return decoder.keyNames(in: object, keys: keys)
    }

    /// The tape index of the value for `key` in the object, or nil.
    @inline(__always)
    final func index(of key: some CodingKey) -> Int? {
        if comparesNames { return find(key.stringValue) }
        if listsSnakeCased, let table = decoder.snakeCaseKeys {
            // The hint is copied in and out rather than passed `inout`: an
            // access to a class's property held across a call is checked
            // at run time on every key, a read and a store are not.
            var hint = snakeCasedHint
            let found = table.find(key.stringValue, in: snakeCased, hint: &hint)
            snakeCasedHint = hint
            return found
        }
        return decoder.find(key, in: object, hint: hint, keys: keys)
    }
}
