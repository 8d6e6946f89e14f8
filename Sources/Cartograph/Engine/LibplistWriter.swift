internal import CPlist
import Foundation

/// The C-facing layer over libplist's writers: builds a `plist_t` tree from
/// an ``EncodedValue`` and serialises it with `plist_to_xml` / `plist_to_bin`.
///
/// Ownership: every `plist_new_*` returns a new node; `plist_dict_set_item`
/// and `plist_array_append_item` take ownership of the child; the root is
/// freed with `plist_free` on every path, and the output buffer with
/// `plist_to_xml_free` / `plist_to_bin_free` after it is copied.
struct LibplistWriter {
    let format: PropertyListFormat
    let options: PropertyListOptions

    func write(_ value: EncodedValue) throws -> [UInt8] {
        guard let root = try node(value, depth: 0, path: "$") else {
            throw CartographError(.encodingFailed, "a property list cannot have null at the top level", path: "$")
        }
        defer { plist_free(root) }
        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        switch format {
        case .xml: plist_to_xml(root, &buffer, &length)
        case .binary: plist_to_bin(root, &buffer, &length)
        }
        guard let buffer else { throw CartographError(.encodingFailed, "libplist could not write the property list") }
        defer {
            switch format {
            case .xml: plist_to_xml_free(buffer)
            case .binary: plist_to_bin_free(buffer)
            }
        }
        return Array(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    private func failure(_ message: String, _ path: String) -> CartographError {
        CartographError(.encodingFailed, message, path: path)
    }

    /// A new node for the value, or nil for a null that is left out.
    private func node(_ value: EncodedValue, depth: Int, path: @autoclosure () -> String) throws -> plist_t? {
        switch value {
        case .null:
            if options.nulls == .reject { throw failure("property lists have no null", path()) }
            return nil
        case .bool(let flag): return plist_new_bool(flag ? 1 : 0)
        case .number(let number):
            switch number.storage {
            case .int(let integer): return plist_new_uint(UInt64(bitPattern: integer))
            case .uint:
                throw failure("libplist 2.2 cannot write an unsigned integer above Int64.max (\(number.text))", path())
            case .double(let double):
                guard double.isFinite else { throw failure("\(double) cannot be written", path()) }
                return plist_new_real(double)
            case .text:
                guard !number.isInteger else { throw failure("property lists have no integers beyond 64 bits (\(number.text))", path()) }
                return plist_new_real(number.doubleValue)
            }
        case .string(let text):
            guard !text.utf8.contains(0) else { throw failure("libplist cannot write a string holding NUL", path()) }
            return plist_new_string(text)
        case .date(let date):
            let (seconds, micro) = PlistDate.parts(date)
            guard let whole = Int32(exactly: seconds) else { throw failure("libplist 2.2 cannot write a date this far from 2001", path()) }
            return plist_new_date(whole, Int32(micro))
        case .data(let data):
            return data.withUnsafeBytes { buffer in
                plist_new_data(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), UInt64(buffer.count))
            }
        case .native(let value):
            switch value {
            case let url as URL: return plist_new_string(url.absoluteString)
            case let uuid as UUID: return plist_new_string(uuid.uuidString)
            default: throw failure("\(type(of: value)) has no property-list form", path())
            }
        case .array(let elements):
            guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
            guard let array = plist_new_array() else { throw failure("libplist could not allocate", path()) }
            do {
                for (position, element) in elements.enumerated() {
                    if let child = try node(element, depth: depth + 1, path: PathText.appending(position, to: path())) {
                        plist_array_append_item(array, child)
                    }
                }
            } catch {
                plist_free(array)
                throw error
            }
            return array
        case .object(let members):
            guard depth < options.maxDepth else { throw CartographError(.depthLimitExceeded, "value nests deeper than maxDepth", path: path()) }
            guard let dict = plist_new_dict() else { throw failure("libplist could not allocate", path()) }
            do {
                for (key, member) in members {
                    guard !key.utf8.contains(0) else { throw failure("libplist cannot write a key holding NUL", path()) }
                    if let child = try node(member, depth: depth + 1, path: PathText.appending(key, to: path())) {
                        plist_dict_set_item(dict, key, child)
                    }
                }
            } catch {
                plist_free(dict)
                throw error
            }
            return dict
        }
    }
}
