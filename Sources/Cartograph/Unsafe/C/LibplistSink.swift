internal import CPlist
import Foundation

/// The C-facing layer over libplist's writers (``PropertyListOptions/Writer/libplist``):
/// builds a `plist_t` tree from the walker's events and serialises it with
/// `plist_to_xml` / `plist_to_bin`.
///
/// Ownership: every `plist_new_*` returns a new node, attached to its
/// parent at once (`plist_dict_set_item` and `plist_array_append_item` take
/// ownership), so only the root is ever owned here: ``release()`` frees it
/// with `plist_free` on every path, and the output buffer is freed with
/// `plist_to_xml_free` / `plist_to_bin_free` after it is copied.
@safe struct LibplistSink: PlistSink {
    private var root: plist_t?
    private var open: [plist_t] = unsafe []
    private var pendingKey: String?

    /// Frees the tree built so far.
    mutating func release() {
        if let root = unsafe root { unsafe plist_free(root) }
        unsafe root = nil
        unsafe open.removeAll()
    }

    /// The serialised plist.
    func finish(_ format: PropertyListFormat) throws -> [UInt8] {
        guard let root = unsafe root else { throw CartographError(.encodingFailed, "libplist was given no value") }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        switch format {
        case .xml: unsafe plist_to_xml(root, &buffer, &length)
        case .binary: unsafe plist_to_bin(root, &buffer, &length)
        }
        guard let buffer = unsafe buffer else { throw CartographError(.encodingFailed, "libplist could not write the property list") }
        defer {
            switch format {
            case .xml: unsafe plist_to_xml_free(buffer)
            case .binary: unsafe plist_to_bin_free(buffer)
            }
        }
        return unsafe Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    private func failure(_ message: String) -> CartographError {
        CartographError(.encodingFailed, message)
    }

    /// Hands a new node to its parent (or keeps it as the root).
    private mutating func attach(_ node: plist_t?) throws {
        guard let node = unsafe node else { throw failure("libplist could not allocate") }
        guard let parent = unsafe open.last else {
            unsafe root = unsafe node
            return
        }
        if let key = pendingKey {
            unsafe plist_dict_set_item(parent, key, node)
            pendingKey = nil
        } else {
            unsafe plist_array_append_item(parent, node)
        }
    }

    private mutating func begin(_ node: plist_t?) throws {
        unsafe try attach(node)
        unsafe open.append(node!)
    }

    mutating func beginArray() throws { unsafe try begin(plist_new_array()) }
    mutating func endArray() throws { unsafe open.removeLast() }
    mutating func beginDict() throws { unsafe try begin(plist_new_dict()) }
    mutating func endDict() throws { unsafe open.removeLast() }

    mutating func key(_ key: String) throws {
        guard !key.utf8.contains(0) else { throw failure("libplist cannot write a key holding NUL") }
        pendingKey = key
    }

    mutating func bool(_ value: Bool) throws { unsafe try attach(plist_new_bool(value ? 1 : 0)) }
    mutating func integer(_ value: Int64) throws { unsafe try attach(plist_new_uint(UInt64(bitPattern: value))) }

    mutating func unsigned(_ value: UInt64) throws {
        throw failure("libplist 2.2 cannot write an unsigned integer above Int64.max (\(value))")
    }

    mutating func real(_ value: Double) throws { unsafe try attach(plist_new_real(value)) }

    mutating func string(_ value: String) throws {
        guard !value.utf8.contains(0) else { throw failure("libplist cannot write a string holding NUL") }
        unsafe try attach(plist_new_string(value))
    }

    mutating func date(_ value: Date) throws {
        guard let (seconds, micro) = PlistDate.parts(value) else { throw DateFormats.outOfRange(value) }
        guard let whole = Int32(exactly: seconds) else { throw failure("libplist 2.2 cannot write a date this far from 2001") }
        unsafe try attach(plist_new_date(whole, Int32(micro)))
    }

    mutating func data(_ value: Data) throws {
        unsafe try attach(
            value.withUnsafeBytes { buffer in
                unsafe plist_new_data(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(buffer.count))
            })
    }
}
