/// What a property rule knows about its value that a schema needs: its
/// shape, and how absent keys and nulls meet it (the null matrix of
/// ``MappingOptions``). Taken from the rule's codec when the rule is made.
struct ValueFacts: @unchecked Sendable {
    // @unchecked: ValueShape holds metatypes and sub-mappers, both immutable.
    let shape: ValueShape
    /// The property is optional: `null` clears it, nil is written per ``NilEncoding``.
    let optional: Bool
    /// The type has a zero that ``NullForNonOptional/resetToDefault`` sets for `null`.
    let hasZero: Bool
    /// `null` is one of the type's values (`JSONValue`, a transform that reads null).
    let holdsNull: Bool
    /// Scalars convert between kinds for this property.
    let lenient: Bool
    /// One value is accepted where an array is expected.
    let coerceArray: Bool

    init<Value>(codec: ValueCodec<Value>, shape: ValueShape, options: ValueOptions) {
        self.shape = shape
        optional = codec.none != nil
        hasZero = codec.zero != nil
        holdsNull = codec.holdsNull
        lenient = options.lenient
        coerceArray = options.coerceArrays
    }
}

/// One rule of a compiled mapping as a schema sees it.
struct DescribedRule {
    /// Where the rule reads (nil: it does not).
    let decodeSpec: KeySpec?
    /// Where the rule writes (nil: it does not).
    let encodeSpec: KeySpec?
    let required: Bool
    let ignoreNull: Bool?
    let nilEncoding: NilEncoding?
    let facts: ValueFacts?
}

/// A compiled mapping that can list its rules for a schema.
protocol DescribedMapping: AnyObject {
    /// The rules as they run, keys resolved under the naming strategy.
    var describedRules: [DescribedRule] { get }
    /// Whether the naming strategy scans the input's keys (any spelling matches).
    var scansKeys: Bool { get }
}

extension CompiledMapping: DescribedMapping {
    var scansKeys: Bool { naming.scans }

    var describedRules: [DescribedRule] {
        rules.compactMap { compiled in
            let rule = compiled.rule
            guard rule.role == .property || rule.role == .setter else { return nil }
            // Under a scanning strategy a rule has no fixed key: the one the
            // strategy writes stands for every spelling it reads.
            let readKey = compiled.decodeSpec ?? rule.property.map { KeySpec.key(naming.outputKey(for: $0)) }
            return DescribedRule(
                decodeSpec: rule.decodes ? readKey : nil,
                encodeSpec: rule.encodes && rule.write != nil ? compiled.encodeSpec : nil,
                required: rule.required, ignoreNull: rule.ignoreNull, nilEncoding: rule.nilEncoding, facts: rule.facts)
        }
    }
}
