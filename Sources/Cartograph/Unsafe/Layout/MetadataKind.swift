/// What kind of type a metatype is, read from the runtime's type metadata.
///
/// Class inference must tell a protocol (or `Any`) from a concrete type:
/// a value declared as a protocol may hold any conforming model, a value
/// declared as a struct only that struct. Swift has no public query for
/// it, and `"\(T.self)"` prints a protocol's existential as its bare name.
/// Every type's metadata starts with a kind word (stable ABI on every
/// platform Swift ships on); existentials have kind 0x303.
enum MetadataKind {
    private static let existential = 0x303

    /// Whether `type` is a protocol existential (`any P`, `Any`, `AnyObject`).
    static func isExistential(_ type: Any.Type) -> Bool {
        guard LayoutAssumptions.enabled else { return describesExistential(type) }
        return unsafe unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == existential
    }

    /// Whether `type` is an `Array` of some element type: a struct's
    /// metadata (kind 0x200) names its type's descriptor in its second
    /// word, the same for every `Array<Element>`. Asked of every nested
    /// value the streaming encoder meets (``StreamedArray``), where a
    /// conformance lookup per type cost a thousand instructions; false
    /// under the portable layout (such arrays then encode themselves).
    static func isArray(_ type: Any.Type) -> Bool {
        // One static read per call (the layout switch folded in): it is asked per nested value.
        guard let arrayDescriptor else { return false }
        let metadata = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
        guard unsafe metadata.load(as: Int.self) == structKind else { return false }
        return unsafe metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self) == arrayDescriptor
    }

    /// Whether `type` is an enum (kind 0x201; `Optional` has its own
    /// kind). False under the portable layout.
    static func isEnum(_ type: Any.Type) -> Bool {
        guard LayoutAssumptions.enabled else { return false }
        return unsafe unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: Int.self) == enumKind
    }

    private static let structKind = 0x200
    private static let enumKind = 0x201

    /// The address of `Array`'s type descriptor (read from `[Int]`'s
    /// metadata); nil under the portable layout.
    private static let arrayDescriptor: Int? =
        LayoutAssumptions.enabled
        ? unsafe unsafeBitCast([Int].self, to: UnsafeRawPointer.self).load(fromByteOffset: MemoryLayout<Int>.size, as: Int.self) : nil

    /// The portable answer: the metatype of an existential is a
    /// `.Protocol` (`P.Protocol`, `Any.Protocol`), of anything else a
    /// `.Type`; an existential metatype (`any P.Type`, `P.Type.Protocol`)
    /// has its own kind, not the existential one. It prints a type name, so
    /// it is kept off hot paths (the registry caches what it learns per type).
    static func describesExistential(_ type: Any.Type) -> Bool {
        let name = String(describing: Swift.type(of: type))
        return name.hasSuffix(".Protocol") && !name.hasSuffix(".Type.Protocol")
    }
}
