import CJansson
import Cartograph
import Foundation

/// Contenders that write JSON text from an in-memory tree built beforehand.
enum EncodeContenders {
    static let all: [Contender] = [jsonValue, janssonDump, foundationSerialization]

    static let jsonValue = Contender(id: "cartograph-encode-jsonvalue", peer: "foundation-jsonserialization-encode") { _, bytes in
        let value = try JSONValue(parsing: bytes)
        return { try value.encoded().count }
    }

    /// jansson's own DOM (from `json_loadb`) dumped with `json_dumpb`.
    static let janssonDump = Contender(id: "jansson-dump", peer: nil) { _, bytes in
        var error = json_error_t()
        let root = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { json_loadb($0.baseAddress, $0.count, 0, &error) }
        }
        guard let root else { throw BenchmarkError("jansson rejected the input") }
        let flags = Int(JSON_COMPACT)
        let needed = json_dumpb(root, nil, 0, flags)
        let box = DumpBuffer(root: root, capacity: needed)
        return {
            let written = json_dumpb(box.root, box.buffer, needed, flags)
            guard written == needed else { throw BenchmarkError("json_dumpb wrote \(written) of \(needed) bytes") }
            return written
        }
    }

    /// Owns the jansson DOM and output buffer for the whole run.
    final class DumpBuffer {
        let root: UnsafeMutablePointer<json_t>
        let buffer: UnsafeMutablePointer<CChar>
        init(root: UnsafeMutablePointer<json_t>, capacity: Int) {
            self.root = root
            buffer = .allocate(capacity: max(capacity, 1))
        }
        deinit {
            json_decref(root)
            buffer.deallocate()
        }
    }

    static let foundationSerialization = Contender(id: "foundation-jsonserialization-encode", peer: nil) { _, bytes in
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        return { try JSONSerialization.data(withJSONObject: object).count }
    }
}
