/// One member the mapping stream writes, in the order it writes them: what
/// the rule loop reads per member, side by side in one array.
///
/// The loop read each member's rule object (a class of some 300 bytes, a
/// cache line or more apart from the next), its key's range from a second
/// array and its position from a third. A step holds what most members
/// need, with nothing reference counted: the quoted key's range, and for a
/// struct's stored scalar the field to write it from, so that such a
/// member (most of them) never touches its rule. Not generic (and not
/// nested in the generic ``CompiledMapping``): reading a generic struct's
/// array from unspecialised code asked the runtime for its metadata.
struct StreamStep {
    /// The rule's index in ``CompiledMapping/rules``.
    let position: Int
    /// The key's JSON text in ``CompiledMapping/quotedKeyBytes``; empty when
    /// the key must be escaped as the options say.
    let quoted: Range<Int>
    /// The stored scalar the member writes, if that is what it writes.
    let scalar: ScalarRead?
    /// A nil optional scalar is written as `null` (the rule's
    /// ``NilEncoding``, else the mapping's); otherwise its member is left out.
    let writesNull: Bool
}
