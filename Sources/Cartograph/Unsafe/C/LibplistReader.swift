internal import CPlist
import Foundation

/// The C-facing layer over libplist's readers: checks the input, parses it
/// with `plist_from_bin` / `plist_from_xml`, and turns the tree into a
/// ``Document`` through the same ``DocumentBuilder`` JSON uses. Chosen with
/// ``PropertyListOptions/Reader/libplist``; ``PlistInput`` dispatches.
///
/// Ownership: the root `plist_t` returned by libplist is new and freed with
/// `plist_free` on every path; children, string and data pointers are
/// borrowed from it; dictionary keys and iterators from
/// `plist_dict_next_item` / `plist_dict_new_iter` are new and freed with `free`.
enum LibplistReader {
    static func document(
        _ bytes: Span<UInt8>, format: PropertyListFormat, options: PropertyListOptions, parse: ParseOptions,
        converted: Bool = false
    ) throws
        -> Document
    {
        var root: plist_t?
        switch format {
        // Cartograph's own reader reads the whole file first and refuses what
        // it refuses: libplist 2.2 recurses without limit (its recursive free
        // overflows the stack), copies shared objects, aborts on NUL keys, and
        // turns malformed scalars into values (an overlong integer into
        // UInt64.max, a bad date into 1970, bad base64 into empty data). A
        // lighter structural pre-check was tried and bypassed: a `/>` inside an
        // attribute value looked self-closing to it but opens an element to
        // libplist.
        case .binary:
            _ = try BinaryPlistReader.document(bytes, options: options, parse: parse, rejectsNULInKeys: true)
            unsafe bytes.withUnsafeBytes { unsafe plist_from_bin($0.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32($0.count), &root) }
        case .xml:
            _ = try XMLPlistReader.document(bytes, options: options, parse: parse, converted: converted)
            unsafe bytes.withUnsafeBytes { unsafe plist_from_xml($0.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32($0.count), &root) }
        }
        guard let root = unsafe root else {
            throw CartographError(.syntax, "libplist could not read the \(format == .binary ? "binary" : "XML") plist (it is malformed or truncated)")
        }
        defer { unsafe plist_free(root) }
        let builder = DocumentBuilder(options: parse, expectedInputBytes: bytes.count * 2)
        unsafe try convert(root, builder: builder, options: options)
        return builder.makeDocument()
    }

    private static func check(_ accepted: Bool, _ builder: DocumentBuilder) throws {
        try PlistScalars.accept(accepted, builder)
    }

    private static func convert(_ node: plist_t, builder: DocumentBuilder, options: PropertyListOptions) throws {
        switch unsafe plist_get_node_type(node) {
        case PLIST_DICT:
            try check(builder.begin(object: true, at: 0), builder)
            var iterator: plist_dict_iter?
            unsafe plist_dict_new_iter(node, &iterator)
            defer { unsafe free(iterator) }
            while true {
                var key: UnsafeMutablePointer<CChar>?
                var value: plist_t?
                unsafe plist_dict_next_item(node, iterator, &key, &value)
                defer { unsafe free(key) }
                guard let value = unsafe value else { break }
                let name = unsafe key.map { unsafe UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                unsafe try check(builder.key(UnsafeBufferPointer(start: name, count: key.map { unsafe strlen($0) } ?? 0).span, at: 0), builder)
                unsafe try convert(value, builder: builder, options: options)
            }
            try check(builder.end(), builder)
        case PLIST_ARRAY:
            try check(builder.begin(object: false, at: 0), builder)
            // The iterator walks libplist's child list in order; plist_array_get_item
            // is O(n) per call on parsed arrays (quadratic on canada's 55,000-point ring).
            var iterator: plist_array_iter?
            unsafe plist_array_new_iter(node, &iterator)
            defer { unsafe free(iterator) }
            while true {
                var item: plist_t?
                unsafe plist_array_next_item(node, iterator, &item)
                guard let item = unsafe item else { break }
                unsafe try convert(item, builder: builder, options: options)
            }
            try check(builder.end(), builder)
        case PLIST_STRING:
            var length: UInt64 = 0
            let pointer = unsafe plist_get_string_ptr(node, &length)
            let text = unsafe pointer.map { unsafe UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
            unsafe try check(builder.string(UnsafeBufferPointer(start: text, count: text == nil ? 0 : Int(length)).span, at: 0), builder)
        case PLIST_BOOLEAN:
            var flag: UInt8 = 0
            unsafe plist_get_bool_val(node, &flag)
            try check(builder.literal(flag != 0 ? .true : .false, at: 0), builder)
        case PLIST_UINT:
            var value: UInt64 = 0
            unsafe plist_get_uint_val(node, &value)
            let negative = unsafe value > UInt64(Int64.max) && !isUnsigned(node, value)
            try PlistScalars.integer(magnitude: negative ? Int64(bitPattern: value).magnitude : value, negative: negative, at: 0, into: builder)
        case PLIST_REAL:
            var value: Double = 0
            unsafe plist_get_real_val(node, &value)
            try PlistScalars.real(value, at: 0, into: builder)
        case PLIST_DATE:
            var seconds: Int32 = 0
            var micro: Int32 = 0
            unsafe plist_get_date_val(node, &seconds, &micro)
            // libplist 2.2 hands dates out as 32-bit seconds since 2001: a
            // date before 1932-12-13T20:45:52Z or after 2069-01-19T03:14:07Z does not fit and
            // comes out as Int32.min (the converted double's "indefinite"
            // value). Refuse it rather than report a wrong date.
            guard seconds != Int32.min else {
                throw CartographError(
                    .numberOutOfRange,
                    "the plist holds a date outside 1932-12-13…2069-01-19, which libplist 2.2 cannot read (it gives dates as 32-bit seconds since 2001)",
                    expected: "a date libplist 2.2 can read", found: "date")
            }
            // libplist keeps microseconds (its own limit), truncated toward
            // zero, so the fraction is negative before 2001: the date is
            // read as the decimal of whole seconds and six digits.
            let total = Int(seconds) * 1_000_000 + Int(micro)
            let whole = total >= 0 ? total / 1_000_000 : -((-total + 999_999) / 1_000_000)
            let fraction = total - whole * 1_000_000
            let digits = Array(String(1_000_000 + fraction).utf8.dropFirst())
            try PlistScalars.date(secondsSince2001: DecimalSeconds.value(whole: whole, fraction: digits), at: 0, into: builder)
        case PLIST_DATA:
            var length: UInt64 = 0
            let pointer = unsafe plist_get_data_ptr(node, &length)
            let bytes = unsafe pointer.map { unsafe UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
            unsafe try PlistScalars.data(UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : Int(length)).span, at: 0, into: builder)
        case PLIST_UID:
            var value: UInt64 = 0
            unsafe plist_get_uid_val(node, &value)
            try PlistScalars.uid(value, at: 0, options: options, into: builder)
        default:
            throw CartographError(.typeMismatch, "the plist holds a value of an unknown type")
        }
    }

    /// libplist 2.2 keeps integers in a UInt64 and marks the ones above
    /// Int64.max as 16-byte (unsigned) values; the mark is not public, but a
    /// comparison with a fresh 8-byte node tells the two apart.
    private static func isUnsigned(_ node: plist_t, _ value: UInt64) -> Bool {
        guard let probe = unsafe plist_new_uint(value) else { return false }
        defer { unsafe plist_free(probe) }
        return unsafe plist_compare_node_value(node, probe) == 0
    }
}
