import Foundation

// DocumentDecoder: any decodable.
extension DocumentDecoder {
    /// The registered entry of `T`, if any (the last answer kept).
    @inline(__always)
    private func registeredEntry<T>(for _: T.Type) -> ModelEntry? {
        if registryIsEmpty { return nil }
        let id = ObjectIdentifier(T.self)
        if id == lastAsked { return lastAnswer }
        let entry = registry.registeredEntry(for: T.self)
        lastAsked = id
        lastAnswer = entry
        return entry
    }

    /// Decodes the value at `index` as `T` under `key` (nil for array
    /// elements and single values, which pass their own key).
    ///
    /// `key` and `parent` are consumed: the trail made for a nested value
    /// takes them over instead of copying them (the key's existential and
    /// the parent's retain were ~2 reference-count operations per value).
    func decodeValue<T: Decodable>(_ type: T.Type, at index: Int, key: consuming any CodingKey, parent: consuming PathTrail?) throws -> T {
        // Kinds are asked for first, as plain enums: a function returning
        // `T?` makes the caller look `Optional<T>`'s metadata up on every call.
        if tape[index].kind == .array, let kind = ScalarArrayKind(T.self) {
            return try decodeScalarArray(kind, type, at: index, key: key, parent: parent)
        }
        if let special = specialKind(T.self, at: index) { return try decodeSpecial(special, type, at: index, key: key, trail: parent) }
        if let entry = registeredEntry(for: T.self) { return try decodeRegistered(entry, T.self, at: index, key: key, parent: parent) }
        // Any other array of Decodable elements (``TapeDecodedArray``).
        if tape[index].kind == .array, let array = arrayReader(for: T.self) {
            return try array.decode(self, at: index, key: key, parent: parent, as: T.self)
        }
        // The first levels cannot exhaust the stack's reserve: no check there.
        guard depth < StackGuard.uncheckedLevels || StackGuard.hasRoom else { throw stackExhausted(at: index, key: key, trail: parent) }
        let savedIndex = self.index
        // Swapped in and out: no reference counting on the saved trail.
        // The last uses of `parent` and `key`: moved into the trail.
        var other: PathTrail? = PathTrail(parent: parent, key: key)
        swap(&trail, &other)
        self.index = index
        depth += 1
        defer {
            self.index = savedIndex
            swap(&trail, &other)
            depth -= 1
        }
        keepDictionaryKeys(T.self)
        return try type.init(from: self)
    }

    /// A registered model, read by its mapping; its errors are given its place.
    private func decodeRegistered<T>(_ entry: ModelEntry, _: T.Type, at index: Int, key: any CodingKey, parent: PathTrail?) throws -> T {
        do {
            // In a lossy decode the model's mapping records the elements it
            // skips with paths from the model: they are put under its place.
            return try IssueCollector.placing(issues, under: { PathTrail.render(codingKeys: pathFor(trail: parent, key: key)) }) {
                try entry.decode(Node(document: document, index: index), mappingContext, as: T.self)
            }
        } catch let error as CartographError {
            throw registeredModelError(error, at: index, keys: pathFor(trail: parent, key: key))
        }
    }

    /// `type` as a ``TapeDecodedArray`` (an `Array` of `Decodable`
    /// elements), or nil; the last few answers are kept, because the
    /// runtime's conformance lookup is dear to pay per array.
    private func arrayReader(for type: Any.Type) -> (any TapeDecodedArray.Type)? {
        arrayReaders.state.answer(for: ObjectIdentifier(type)) { type as? any TapeDecodedArray.Type }
    }

    /// The elements of the array at `index` as `[E]`, as `Array.init(from:)`
    /// reads them (``TapeDecodedArray``): each decoded under its index, in
    /// order, the first failure thrown; an empty array needs no coding path.
    func decodeElements<E: Decodable>(_: E.Type, at index: Int, key: (any CodingKey)?, parent: PathTrail?) throws -> [E] {
        let count = Int(tape[index].length)
        guard count > 0 else { return [] }
        guard depth < StackGuard.uncheckedLevels || StackGuard.hasRoom else { throw stackExhausted(at: index, key: key, trail: parent) }
        let arrayTrail = key.map { PathTrail(parent: parent, key: $0) } ?? parent
        let end = tape[index].payload
        depth += 1
        defer { depth -= 1 }
        if let issues, registeredEntry(for: E.self) != nil {
            return try decodeElementsLossily(E.self, from: index + 1, to: end, count: count, trail: arrayTrail, issues: issues)
        }
        return unsafe try [E](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            while initialized < count, position < end {
                // Decoded into its place (through a local, the element was
                // copied and destroyed: a third of a twitter.json status's cost).
                unsafe (buffer.baseAddress! + initialized).initialize(
                    to: try decodeValue(E.self, at: position, key: IndexKey(initialized), parent: arrayTrail))
                initialized += 1
                let entry = tape[position]
                position = entry.kind == .array || entry.kind == .object ? entry.payload : position + 1
            }
        }
    }

    /// A lossy decode's array of registered models (``JSONMapper/decodeLossy(_:from:)-(T.Type,_)``):
    /// an element that fails is left out and its error kept, as the mapping
    /// layer's own lossy decode does with the same models, wherever the
    /// array is (at the top, or inside a plain `Decodable` value). Arrays of
    /// other `Decodable` elements keep `Array.init(from:)`'s rule (the first
    /// failure fails the array) unless they are a ``LossyArray``.
    private func decodeElementsLossily<E: Decodable>(
        _: E.Type, from start: Int, to end: Int, count: Int, trail: PathTrail?, issues: IssueCollector
    ) throws -> [E] {
        var result: [E] = []
        result.reserveCapacity(count)
        var position = start
        var ordinal = 0
        while position < end {
            do {
                result.append(try decodeValue(E.self, at: position, key: IndexKey(ordinal), parent: trail))
            } catch let error as DecodingError {
                // Only the library's own errors are issues; another (thrown by
                // user code) ends the decode, as in the mapping layer.
                guard let issue = DecodingErrors.cartographError(error) else { throw error }
                issues.record(issue)
            }
            let entry = tape[position]
            position = entry.kind == .array || entry.kind == .object ? entry.payload : position + 1
            ordinal += 1
        }
        return result
    }

    /// Decodes the current value as the root.
    func decodeRoot<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = specialKind(T.self, at: index) { return try decodeSpecial(special, type, at: index, key: nil, trail: trail) }
        if let entry = registeredEntry(for: T.self) {
            return try entry.decode(Node(document: document, index: index), mappingContext, as: T.self)
        }
        if tape[index].kind == .array, let array = arrayReader(for: T.self) {
            return try array.decode(self, at: index, key: nil, parent: trail, as: T.self)
        }
        keepDictionaryKeys(T.self)
        return try type.init(from: self)
    }

    /// Arrays of the common scalars, and arrays of those arrays (two and
    /// three levels), read straight off the tape: no nested decoder state,
    /// container or coding path per array (canada.json has 55,000 `[Double]`
    /// pairs in `[[[Double]]]` rings). The outer levels were read by the
    /// standard library's `Array.init(from:)`, which is not specialised and
    /// looked `Array<Element>`'s metadata up per array.
    private func decodeScalarArray<T>(_ kind: ScalarArrayKind, _ type: T.Type, at index: Int, key: any CodingKey, parent: PathTrail?) throws -> T {
        // Each row through decodeValue: an array row comes back here a level
        // down; anything else (null, a number, an object) takes the general
        // path and fails as `Array.init(from:)` would.
        @inline(__always)
        func rows<R: Decodable>(_ row: R.Type) throws -> [R] {
            try scalarElements(at: index, key: key, parent: parent, nested: true) { try decodeValue(R.self, at: $0, key: $1, parent: $2) }
        }
        // `kind` names T's own array type (``ScalarArrayKind/init(_:)``):
        // `sameType` checks that and reinterprets the array, where `as! T`
        // asked the runtime for a dynamic cast per array.
        // One case per element type and depth, each with its own closure
        // literal: a generic local function taking the element reader and
        // switching on the depth (tried) made the compiler box a closure
        // context per array: a malloc per coordinate pair.
        switch (kind.element, kind.depth) {
        case (.double, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeDouble(at: $0, key: $1, trail: $2) }, as: T.self)
        case (.int, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeInteger(Int.self, at: $0, key: $1, trail: $2) },
                as: T.self)
        case (.string, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeString(at: $0, key: $1, trail: $2) }, as: T.self)
        case (.float, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeFloat(at: $0, key: $1, trail: $2) }, as: T.self)
        case (.int64, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeInteger(Int64.self, at: $0, key: $1, trail: $2) },
                as: T.self)
        case (.bool, 1):
            return sameType(
                try scalarElements(at: index, key: key, parent: parent, nested: false) { try decodeBool(at: $0, key: $1, trail: $2) }, as: T.self)
        case (.double, 2): return sameType(try rows([Double].self), as: T.self)
        case (.int, 2): return sameType(try rows([Int].self), as: T.self)
        case (.string, 2): return sameType(try rows([String].self), as: T.self)
        case (.float, 2): return sameType(try rows([Float].self), as: T.self)
        case (.int64, 2): return sameType(try rows([Int64].self), as: T.self)
        case (.bool, 2): return sameType(try rows([Bool].self), as: T.self)
        case (.double, _): return sameType(try rows([[Double]].self), as: T.self)
        case (.int, _): return sameType(try rows([[Int]].self), as: T.self)
        case (.string, _): return sameType(try rows([[String]].self), as: T.self)
        case (.float, _): return sameType(try rows([[Float]].self), as: T.self)
        case (.int64, _): return sameType(try rows([[Int64]].self), as: T.self)
        case (.bool, _): return sameType(try rows([[Bool]].self), as: T.self)
        }
    }

    /// The elements of the array at `index` (scalars, or with `nested`
    /// arrays read through `read`), for ``decodeScalarArray(_:_:at:key:parent:)``:
    /// each read by `read` with its index as key, and with the array's
    /// trail only to name a failing element.
    ///
    /// Generic over the element type only and inlined into each of the
    /// caller's cases, so that it is compiled for the element type: called
    /// generically, every array looked its storage class's metadata up and
    /// every append went through the unspecialised `Array.append`. (A
    /// local function of the caller was generic over its `T` too, and once
    /// it grew past what the compiler inlines, it was compiled unspecialised.)
    @inline(__always)
    private func scalarElements<E>(
        at index: Int, key: any CodingKey, parent: PathTrail?, nested: Bool, _ read: (Int, IndexKey, PathTrail?) throws -> E
    ) throws -> [E] {
        if !nested {
            // Arrays of one to four scalars made from a literal (``ShortArray``);
            // a container or an error reads the array the general way,
            // which names the element. Scalars take one entry each.
            // Switched on here rather than through `ShortArray.make`:
            // handed `scalar`, that measured 1.3% more instructions on a
            // canada.json decode (348.8M against 344.4M a round).
            @inline(__always)
            func scalar(_ ordinal: Int) -> E? {
                let entry = tape[index + 1 + ordinal]
                guard entry.kind != .array, entry.kind != .object else { return nil }
                return try? read(index + 1 + ordinal, IndexKey(ordinal), nil)
            }
            switch tape[index].length {
            case 1: if let first = scalar(0) { return [first] }
            case 2: if let first = scalar(0), let second = scalar(1) { return [first, second] }
            case 3: if let first = scalar(0), let second = scalar(1), let third = scalar(2) { return [first, second, third] }
            case 4:
                if let first = scalar(0), let second = scalar(1), let third = scalar(2), let fourth = scalar(3) {
                    return [first, second, third, fourth]
                }
            default: break
            }
        }
        let end = tape[index].payload
        var position = index + 1
        var result: [E] = []
        result.reserveCapacity(Int(tape[index].length))
        var ordinal = 0
        var elementTrail: PathTrail?
        while position < end {
            let entry = tape[position]
            let isContainer = entry.kind == .array || entry.kind == .object
            if isContainer, !nested {
                elementTrail = elementTrail ?? PathTrail(parent: parent, key: key)
                throw mismatch(expected: "\(E.self)", type: E.self, at: position, key: IndexKey(ordinal), trail: elementTrail)
            }
            do {
                // Read first with no trail: an error is caught below and the
                // element read again with the array's trail, which names it.
                // Handing the parent in here retained and released it per
                // element.
                result.append(try read(position, IndexKey(ordinal), nil))
            } catch is DecodingError {
                // Re-read with the array's path so the error names the element.
                elementTrail = elementTrail ?? PathTrail(parent: parent, key: key)
                result.append(try read(position, IndexKey(ordinal), elementTrail))
            }
            position = isContainer ? entry.payload : position + 1
            ordinal += 1
        }
        return result
    }

    /// The arrays of scalars read straight off the tape: the element type,
    /// and how many array levels hold it (1 to 3).
    private struct ScalarArrayKind {
        enum Element: CaseIterable {
            case double, int, string, float, int64, bool
        }

        let element: Element
        let depth: Int

        var arrayType: Any.Type {
            func nested<E>(_: E.Type) -> Any.Type {
                switch depth {
                case 1: [E].self
                case 2: [[E]].self
                default: [[[E]]].self
                }
            }
            switch element {
            case .double: return nested(Double.self)
            case .int: return nested(Int.self)
            case .string: return nested(String.self)
            case .float: return nested(Float.self)
            case .int64: return nested(Int64.self)
            case .bool: return nested(Bool.self)
            }
        }

        /// Each kind's array type, found once: writing `T.self == [Double].self`
        /// looks the array type's metadata up on every call.
        private static let identified = (1...3).flatMap { depth in
            Element.allCases.map { element in
                let kind = ScalarArrayKind(element: element, depth: depth)
                return (ObjectIdentifier(kind.arrayType), kind)
            }
        }

        init(element: Element, depth: Int) {
            self.element = element
            self.depth = depth
        }

        /// The kind whose array type is `type`, if any.
        init?(_ type: Any.Type) {
            let identifier = ObjectIdentifier(type)
            guard let found = Self.identified.first(where: { $0.0 == identifier }) else { return nil }
            self = found.1
        }
    }

    /// Types Foundation's coders treat specially, and JSONValue.
    private enum SpecialKind {
        case date, data, decimal, url, jsonValue
        /// `Float16` rounded once from the text: its own `init(from:)` reads
        /// a `Float` and rounds that again.
        case float16
    }

    /// Whether the value at `index` is read as a ``SpecialKind`` when asked for as `type`.
    private func specialKind(_ type: Any.Type, at index: Int) -> SpecialKind? {
        if isSameType(type, Date.self) { return .date }
        if isSameType(type, Data.self) { return .data }
        if isSameType(type, Decimal.self) { return .decimal }
        // A plist's `{relative, base}` dictionary goes through URL's own init(from:).
        if isSameType(type, URL.self), !(readsNullMarker && tape[index].kind == .object) { return .url }
        if isSameType(type, JSONValue.self) { return .jsonValue }
        #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
            if isSameType(type, Float16.self) { return .float16 }
        #endif
        return nil
    }

    /// Reads a special kind; `kind` names T itself (``specialKind(_:at:)``), so the casts cannot fail.
    private func decodeSpecial<T>(_ kind: SpecialKind, _ type: T.Type, at index: Int, key: (any CodingKey)?, trail: PathTrail?) throws -> T {
        switch kind {
        case .date: return try decodeDate(at: index, key: key, trail: trail) as! T
        case .data: return try decodeData(at: index, key: key, trail: trail) as! T
        case .decimal: return try decodeDecimal(at: index, key: key, trail: trail) as! T
        case .url:
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let url = URL(string: text) else { throw dataCorrupted("\"\(text)\" is not a valid URL", at: index, key: key, trail: trail) }
            return url as! T
        case .float16:
            #if !((os(macOS) || targetEnvironment(macCatalyst)) && arch(x86_64))
                return try decodeNarrow(Float16.self, at: index, key: key, trail: trail) as! T
            #else
                preconditionFailure("Float16 is not a special kind on this platform")
            #endif
        case .jsonValue:
            var keys = KeyStringCache()
            do {
                return try document.jsonValue(at: index, depth: 0, levels: TreeStackBudget.unmeasured, keys: &keys) as! T
            } catch {
                // The build's only error: the stack's budget.
                throw stackExhausted(at: index, key: key, trail: trail)
            }
        }
    }

    private func decodeDecimal(at index: Int, key: (any CodingKey)?, trail: PathTrail?) throws -> Decimal {
        let entry = tape[index]
        // A property list holds a Decimal in its own Codable form, as
        // Foundation's PropertyListEncoder writes it (a number is read too).
        if readsNullMarker, entry.kind == .object {
            return try nested(at: index, key: key, trail: trail) { try PlistDecimal.read(from: self) }
        }
        guard entry.kind == .number else {
            if entry.kind == .null { throw valueNotFound(Decimal.self, at: index, key: key, trail: trail) }
            throw mismatch(expected: "number", type: Decimal.self, at: index, key: key, trail: trail)
        }
        if let value = tape.decimal(entry) { return value }
        // More significant digits than Decimal's 38 (or zeros it need not
        // keep, as in 1e127 written out): rounded as Foundation's
        // JSONDecoder reads them, so a Decimal it wrote reads back equal.
        // The mapping layer's Decimal stays exact-or-throw.
        if let value = Decimal(string: tape.string(entry), locale: Locale(identifier: "en_US_POSIX")), !value.isNaN {
            return value
        }
        throw outOfRange(Decimal.self, at: index, key: key, trail: trail)
    }

    private func decodeDate(at index: Int, key: (any CodingKey)?, trail: PathTrail?) throws -> Date {
        if tape[index].kind == .string, tape[index].flags & TapeFlags.date != 0,
            let date = PlistDate.date(tapeText(at: index))
        {
            return date
        }
        switch options.dates {
        case .deferredToDate:
            // A property list's dates are <date>s (as in Foundation's decoder).
            if readsNullMarker { throw mismatch(expected: "date", type: Date.self, at: index, key: key, trail: trail) }
            return Date(timeIntervalSinceReferenceDate: try decodeDouble(at: index, key: key, trail: trail))
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, key: key, trail: trail))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try decodeDouble(at: index, key: key, trail: trail) / 1000)
        case .iso8601:
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let date = DateFormats.parseISO8601(text) else {
                throw dataCorrupted("\"\(text)\" is not an ISO 8601 date", at: index, key: key, trail: trail)
            }
            return date
        case .formatted(let format, let timeZone):
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let date = LockedFormatter.shared(format: format, timeZone: timeZone).date(from: text) else {
                throw dataCorrupted("\"\(text)\" does not match the date format \"\(format)\"", at: index, key: key, trail: trail)
            }
            return date
        case .custom(let decode, _):
            return try nested(at: index, key: key, trail: trail) { try decode(self) }
        }
    }

    private func decodeData(at index: Int, key: (any CodingKey)?, trail: PathTrail?) throws -> Data {
        if tape[index].kind == .string, tape[index].flags & TapeFlags.data != 0,
            let data = Data(base64Encoded: tapeText(at: index))
        {
            return data
        }
        switch options.data {
        case .base64:
            // A property list's data is <data>, not a string that happens to be base64.
            if readsNullMarker { throw mismatch(expected: "data", type: Data.self, at: index, key: key, trail: trail) }
            let text = try decodeString(at: index, key: key, trail: trail)
            guard let data = Data(base64Encoded: text) else {
                throw dataCorrupted("the string is not valid base64", at: index, key: key, trail: trail)
            }
            return data
        case .deferredToData:
            return try nested(at: index, key: key, trail: trail) { try Data(from: self) }
        case .custom(let decode, _):
            return try nested(at: index, key: key, trail: trail) { try decode(self) }
        }
    }

    /// Runs `body` with the decoder positioned on `index`.
    private func nested<R>(at index: Int, key: (any CodingKey)?, trail parent: PathTrail?, _ body: () throws -> R) throws -> R {
        let savedIndex = self.index
        let savedTrail = trail
        self.index = index
        if let key { trail = PathTrail(parent: parent, key: key) }
        defer {
            self.index = savedIndex
            trail = savedTrail
        }
        return try body()
    }
}
