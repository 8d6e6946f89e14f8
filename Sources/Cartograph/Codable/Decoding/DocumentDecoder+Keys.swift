import Foundation

// DocumentDecoder: keys.
extension DocumentDecoder {
    /// The tape index of the value for `key` in the object at `object`, or nil.
    /// `keys` is how the container reads its object's keys (``ObjectKeys``);
    /// `hint` is the container's depth, whose slot in ``hints`` says where
    /// to look first.
    ///
    /// Hint slots are a speed-up only: containers that share one (a nested
    /// container, a custom strategy's decoder) overwrite each other's hint,
    /// and ``KeyHint/object`` makes `find` ignore a hint left by another
    /// object, so sharing costs a scan from the object's first key, never a
    /// key read from the wrong object.
    func find(_ key: some CodingKey, in object: Int, hint: Int, keys: ObjectKeys = .byStrategy) -> Int? {
        if comparesNames(keys) { return findExact(key.stringValue, in: object, hint: hint) }
        if case .converted(let values, _) = keys { return values[key.stringValue] }
        if case .fuzzy = options.keys { return fuzzyFind(key.stringValue, in: object) }
        // .snakeCaseRoundTrip, .custom: the key converted once, then compared.
        let converted = convertedKey(key.stringValue)
        return find(converted.span, in: object, hint: hint)
    }

    /// Whether a container reading its object's keys as `keys` finds each
    /// key by its own name (the one place that decides it: ``find(_:in:hint:keys:)``
    /// and a container's per-key flag both ask here).
    func comparesNames(_ keys: ObjectKeys) -> Bool {
        switch keys {
        case .asGiven: return true
        case .converted, .snakeCased: return false
        case .byStrategy:
            switch options.keys {
            // Under .snakeCase a container whose keys have no underscores
            // compares them as they are (each converts to itself);
            // .codingPath containers always read `.converted` keys.
            case .useDefaultKeys, .snakeCase, .codingPath: return true
            case .snakeCaseRoundTrip, .custom, .fuzzy: return false
            }
        }
    }

    func findExact(_ name: consuming String, in object: Int, hint: Int) -> Int? {
        // Owned and read in place (a key's name is a literal or a small
        // string: no copy).
        find(name.utf8.span, in: object, hint: hint)
    }

    /// How a keyed container over `object` reads its keys: as given for a
    /// dictionary's container (`keepsKeys`) or without a key strategy; under
    /// ``CodableOptions/KeyStrategy/snakeCase``, when a key has an
    /// underscore, each JSON key converted to camelCase, the first of equal
    /// conversions winning — Foundation's rule — listed once per container
    /// by ``snakeCaseKeys`` (``ObjectKeys/snakeCased``; an object whose keys
    /// have no underscore is read as it is: a scan for one costs less than
    /// the listing); under
    /// ``CodableOptions/KeyStrategy/codingPath(_:)`` each JSON key converted
    /// by the closure, given the container's path (`trail`) and the key.
    func objectKeys(of object: Int, keepsKeys: Bool, trail: PathTrail?) -> ObjectKeys {
        if keepsKeys, options.keys.convertsKeys { return .asGiven }
        if case .codingPath(let convert) = options.keys {
            let path = PathTrail.codingKeys(trail)
            return convertedKeys(of: object) { convert(path + [StringKey($0)]).stringValue }
        }
        guard case .snakeCase = options.keys else { return .byStrategy }
        let end = tape[object].payload
        var position = object + 1
        while position < end {
            let entry = tape[position]
            if entry.flags & TapeFlags.shadowed == 0, tape.text(of: entry, contains: 0x5F) {
                return .snakeCased
            }
            let valueEntry = tape[position + 1]
            position = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : position + 2
        }
        return .byStrategy
    }

    /// The object's keys, each converted once in document order, to their
    /// value's tape index; the first of equal conversions wins.
    func convertedKeys(of object: Int, by convert: (String) -> String) -> ObjectKeys {
        let end = tape[object].payload
        var values: [String: Int] = [:]
        var names: [String] = []
        var position = object + 1
        while position < end {
            let entry = tape[position]
            let valueEntry = tape[position + 1]
            if entry.flags & TapeFlags.shadowed == 0 {
                let name = tape.string(entry)
                let converted = convert(name)
                if values[converted] == nil {
                    values[converted] = position + 1
                    names.append(converted)
                }
            }
            position = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : position + 2
        }
        return .converted(values, names: names)
    }

    /// Marks the next keyed container as a `[String: Value]` dictionary's
    /// when the key strategy changes keys.
    func keepDictionaryKeys<T>(_: T.Type) {
        if options.keys.convertsKeys, T.self is any StringDictionaryMarker.Type { nextContainerKeepsKeys = true }
    }

    private func convertedKey(_ name: String) -> [UInt8] {
        if let cached = convertedKeyBytes[name] { return cached }
        let converted: String
        switch options.keys {
        case .snakeCaseRoundTrip: converted = NamingStrategy.snakeCase.outputKey(for: name)
        case .custom(let transform): converted = transform(name)
        default: converted = name
        }
        let bytes = Array(converted.utf8)
        convertedKeyBytes[name] = bytes
        return bytes
    }

    /// Walks the object's keys once, cyclically from the hint: each step
    /// goes from a key to the next key of the same object (past the value's
    /// subtree), so the walk visits only this object's keys and ends where
    /// it began.
    private func find(_ key: Span<UInt8>, in object: Int, hint: Int) -> Int? {
        probeHint(key, in: object, hint: hint) ?? walk(key, in: object, hint: hint)
    }

    /// The tape index of `key`'s value if the hint points at it, nil
    /// otherwise. Tried first, with nothing else set up: synthesized
    /// `Codable` asks for keys in declaration order, which is usually
    /// document order, so this answers most lookups without the walk.
    @inline(__always)
    func probeHint(_ key: Span<UInt8>, in object: Int, hint: Int) -> Int? {
        guard let probe = hints.next(at: hint, in: object), probe < tape[object].payload else { return nil }
        let entry = tape[probe]
        guard entry.kind == .key, entry.flags & TapeFlags.shadowed == 0, tape.textEquals(entry, key) else { return nil }
        let value = tape[probe + 1]
        hints.set(hint, object: object, next: value.kind == .array || value.kind == .object ? value.payload : probe + 2)
        return probe + 1
    }

    /// The tape index of `key`'s value in `object` after the hint missed
    /// (the container's `miss`th miss there), found through `order`; the
    /// hint is left after it. A key not there in bytes may still be there
    /// canonically equal (``TapeReader/canonicalValue(forKey:inObject:)``).
    @inline(__always)
    func findOutOfOrder(_ key: Span<UInt8>, in object: Int, hint: Int, miss: Int, order: LearnedKeyOrder) -> Int? {
        guard let position = order.keyPosition(of: key, miss: miss, in: object, tape: tape) else {
            return tape.canonicalValue(forKey: ObjectView.string(key), inObject: object)
        }
        hints.set(hint, object: object, next: tape.next(after: position + 1))
        return position + 1
    }

    /// ``find(_:in:hint:)`` past the hint's key.
    @inline(never)
    private func walk(_ key: Span<UInt8>, in object: Int, hint: Int) -> Int? {
        let end = tape[object].payload
        let start = object + 1
        guard start < end else { return nil }
        var probe = start
        // Only a hint this object left is a key of this object.
        if let next = hints.next(at: hint, in: object) {
            if next > start, next < end, tape[next].kind == .key { probe = next }
        }
        let first = probe
        repeat {
            let entry = tape[probe]
            let valueEntry = tape[probe + 1]
            let next = valueEntry.kind == .array || valueEntry.kind == .object ? valueEntry.payload : probe + 2
            if entry.flags & TapeFlags.shadowed == 0, tape.textEquals(entry, key) {
                hints.set(hint, object: object, next: next)
                return probe + 1
            }
            probe = next < end ? next : start
        } while probe != first
        return tape.canonicalValue(forKey: ObjectView.string(key), inObject: object)
    }

    private func fuzzyFind(_ name: String, in object: Int) -> Int? {
        var best: (rank: Int, index: Int)?
        var iterator = ObjectView(document: document, index: object).makeIterator()
        while let (keyNode, value) = iterator.nextNodes() {
            guard let key = try? keyNode.string(), let rank = NamingStrategy.fuzzy.rank(key: key, property: name) else { continue }
            if best == nil || rank > best!.rank { best = (rank, value.index) }
        }
        return best?.index
    }

    /// The keys of an object as coding-key names: converted by the key
    /// strategy (each once, in document order) unless `keys` keeps them.
    func keyNames(in object: Int, keys: ObjectKeys = .byStrategy) -> [String] {
        if case .converted(_, let converted) = keys { return converted }
        var names: [String] = []
        var seen: Set<String> = []
        var iterator = ObjectView(document: document, index: object).makeIterator()
        while let (keyNode, _) = iterator.nextNodes() {
            let name = (try? keyNode.string()) ?? ""
            if case .asGiven = keys {
                names.append(name)
                continue
            }
            switch options.keys {
            case .snakeCase:
                let converted = SnakeCaseKeys.fromSnakeCase(name)
                if seen.insert(converted).inserted { names.append(converted) }
            case .snakeCaseRoundTrip: names.append(Self.camelCase(name))
            default: names.append(name)
            }
        }
        return names
    }

    static func camelCase(_ snake: String) -> String {
        let parts = snake.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return snake }
        return parts.enumerated().map { $0 == 0 ? String($1) : $1.prefix(1).uppercased() + $1.dropFirst() }.joined()
    }
}
