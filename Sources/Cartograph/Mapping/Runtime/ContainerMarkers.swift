/// Lets the mapping layer see through `Optional`, `Array`, `Set` and
/// `Dictionary` generically (their element types are found once, when a
/// rule is built, not per value).
protocol OptionalMarker {
    associatedtype Wrapped
    static var nothing: Self { get }
    /// Takes the value (consuming: a large struct is moved in, not copied and destroyed).
    static func wrapping(_ value: consuming Wrapped) -> Self
    var wrapped: Wrapped? { get }
    /// Whether the value is nil. This and ``withWrapped(_:)`` are
    /// requirements so that generic code asks no metadata for `Wrapped?`
    /// (``wrapped`` makes one: a lookup per value in unspecialised code).
    var isNothing: Bool { get }
    /// Runs `body` with the wrapped value; false, without running it, when nil.
    func withWrapped(_ body: (Wrapped) throws -> Void) rethrows -> Bool
}

extension OptionalMarker {
    /// `{ nothing }`, as `Any`: for code that knows the type only as an
    /// existential metatype, to cast back to `() -> Value` (no value cast,
    /// which would unwrap the optional).
    static func noneMaker() -> Any { { () -> Self in nothing } }
    /// `{ $0 == nil }`, as `Any`, to cast back to `(Value) -> Bool`.
    static func noneTest() -> Any { { (value: Self) -> Bool in value.isNothing } }
}

extension Optional: OptionalMarker {
    static var nothing: Optional { nil }
    static func wrapping(_ value: consuming Wrapped) -> Optional { Optional(value) }
    var wrapped: Wrapped? { self }
    /// `== nil`, not `if case .none`: the pattern copied the optional
    /// (its whole payload) in this unspecialised code; the comparison
    /// borrows it.
    var isNothing: Bool { self == nil }
    /// Lends the wrapped value from where the optional lies: `if let` in
    /// this unspecialised code copied it (a retain per reference inside).
    func withWrapped(_ body: (Wrapped) throws -> Void) rethrows -> Bool {
        try LentValue.withWrapped(self, body)
    }
}

protocol ArrayMarker {
    associatedtype Element
    static func make(_ elements: [Element]) -> Self
    var elements: [Element] { get }
    /// An empty array with room for `capacity` elements, and appending to
    /// it: requirements, so that an array is built where `Self` is the
    /// witness's own type (generic code that writes `[Element]` looks the
    /// array type's metadata up for every array it makes).
    static func collecting(capacity: Int) -> Self
    mutating func collect(_ element: consuming Element)
}

extension Array: ArrayMarker {
    static func make(_ elements: [Element]) -> [Element] { elements }
    var elements: [Element] { self }
    static func collecting(capacity: Int) -> [Element] {
        // An empty array needs no storage: reserving even none looks the
        // storage class's metadata up (most of twitter.json's arrays are empty).
        guard capacity > 0 else { return [] }
        // One allocation and one storage-type lookup: `reserveCapacity` on
        // an empty array, unspecialised, looked the array's and its storage
        // class's metadata up three times (twitter.json: ~150 arrays a decode).
        return unsafe [Element](unsafeUninitializedCapacity: capacity) { _, count in count = 0 }
    }
    mutating func collect(_ element: consuming Element) { append(element) }
}

protocol SetMarker {
    associatedtype Element: Hashable
    static func make(_ elements: [Element]) -> Self
    var elements: [Element] { get }
}

extension Set: SetMarker {
    static func make(_ elements: [Element]) -> Set<Element> { Set(elements) }
    var elements: [Element] { Array(self) }
}

protocol StringDictionaryMarker {
    associatedtype Value
    static func make(_ pairs: [(String, Value)]) -> Self
    /// An empty dictionary with room for `capacity` members.
    static func empty(capacity: Int) -> Self
    /// Sets a member (a repeated key: the last one wins).
    mutating func set(_ value: consuming Value, for key: String)
    var pairs: [(String, Value)] { get }
}

extension Dictionary: StringDictionaryMarker where Key == String {
    static func make(_ pairs: [(String, Value)]) -> [String: Value] {
        Dictionary(pairs, uniquingKeysWith: { _, last in last })
    }
    static func empty(capacity: Int) -> [String: Value] { Dictionary(minimumCapacity: capacity) }
    mutating func set(_ value: consuming Value, for key: String) { self[key] = value }
    var pairs: [(String, Value)] { sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { ($0.key, $0.value) } }
}
