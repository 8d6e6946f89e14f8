/// Arrays of one to four elements made from an array literal, for the
/// readers that build arrays from a document which says how many elements
/// each holds.
///
/// Short arrays are the common shape in JSON (a point's two or three
/// coordinates, a range's two indices, a colour, a bounding box), and for
/// them the way the buffer is made dominates: reserving room in an empty
/// array goes through the standard library's grow path and asks `malloc`
/// for the block's usable size, while a literal allocates its storage
/// directly. On canada.json's 111,000 two-element points that was ~66
/// instructions an array, 4.7% of a mapping decode (HISTORY.md,
/// fifty-second session). An accumulator that held up to four elements
/// and made the literal at the end cost ~50 of them back in its own
/// bookkeeping, so the count is switched on once, up front.
enum ShortArray {
    /// The longest array made here.
    static var limit: Int { 4 }

    /// The array of `count` elements read in order by `element` (given
    /// each element's ordinal), or nil when `count` is 0 or above
    /// ``limit``, or when `element` leaves one out (nil): the caller then
    /// reads the array its general way, from the start (elements are
    /// read from the document without side effects). The first error
    /// thrown ends the read, as in the general way.
    @inline(__always)
    static func make<Element>(count: Int, _ element: (Int) throws -> Element?) rethrows -> [Element]? {
        switch count {
        case 1:
            guard let first = try element(0) else { return nil }
            return [first]
        case 2:
            guard let first = try element(0), let second = try element(1) else { return nil }
            return [first, second]
        case 3:
            guard let first = try element(0), let second = try element(1), let third = try element(2) else { return nil }
            return [first, second, third]
        case 4:
            guard let first = try element(0), let second = try element(1), let third = try element(2),
                let fourth = try element(3)
            else { return nil }
            return [first, second, third, fourth]
        default:
            return nil
        }
    }
}
