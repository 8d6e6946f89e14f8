import CYajl
import Cartograph
import Foundation

/// Contenders that read JSON text.
enum ParseContenders {
    static let all: [Contender] = [yajlNoop, document, jsonValue, foundationSerialization]

    /// Raw yajl with callbacks that do nothing (the raw number callback, as
    /// Cartograph uses): the ceiling of Cartograph's parse path.
    static let yajlNoop = Contender(id: "yajl-noop", peer: nil) { _, bytes in
        return {
            let callbacks = noopCallbacks
            guard let handle = yajl_alloc(callbacks, nil, nil) else { return 0 }
            defer { yajl_free(handle) }
            _ = cartograph_yajl_config(handle, yajl_dont_validate_strings, 1)
            let status = bytes.withUnsafeBufferPointer { yajl_parse(handle, $0.baseAddress, $0.count) }
            guard status == yajl_status_ok, yajl_complete_parse(handle) == yajl_status_ok else {
                throw BenchmarkError("yajl rejected the input")
            }
            return Int(yajl_get_bytes_consumed(handle))
        }
    }

    nonisolated(unsafe) private static let noopCallbacks: UnsafeMutablePointer<yajl_callbacks> = {
        let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
        table.initialize(
            to: yajl_callbacks(
                yajl_null: { _ in 1 },
                yajl_boolean: { _, _ in 1 },
                yajl_integer: nil,
                yajl_double: nil,
                yajl_number: { _, _, _ in 1 },
                yajl_string: { _, _, _ in 1 },
                yajl_start_map: { _ in 1 },
                yajl_map_key: { _, _, _ in 1 },
                yajl_end_map: { _ in 1 },
                yajl_start_array: { _ in 1 },
                yajl_end_array: { _ in 1 }
            ))
        return table
    }()

    static let document = Contender(id: "cartograph-document", peer: "yajl-noop") { _, bytes in
        return { try Document(parsing: bytes).tokenCount }
    }

    static let jsonValue = Contender(id: "cartograph-jsonvalue", peer: "foundation-jsonserialization") { _, bytes in
        return {
            if case .object(let object) = try JSONValue(parsing: bytes) { return object.count }
            return 1
        }
    }

    static let foundationSerialization = Contender(id: "foundation-jsonserialization", peer: nil) { _, bytes in
        let data = Data(bytes)
        return {
            let object = try JSONSerialization.jsonObject(with: data)
            return (object as? [String: Any])?.count ?? 1
        }
    }
}

/// A benchmark that could not run.
struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
