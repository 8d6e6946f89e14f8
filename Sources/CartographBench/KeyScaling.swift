import Cartograph
import Foundation

/// `cartograph-bench keys`: parse time of objects with 10,000 to 1,000,000
/// keys, plain and built to collide in a naive hash (same length, same
/// first and last bytes, same byte sum). Linear decoding shows as a time per
/// key that stays flat as the object grows ten times.
enum KeyScaling {
    static func object(keys: Int, colliding: Bool) -> [UInt8] {
        var text = "{"
        text.reserveCapacity(keys * 16)
        for index in 0..<keys {
            if colliding {
                let a = index / 26 % 26
                let b = index % 26
                let middle =
                    String(UnicodeScalar(UInt8(97 + a))) + String(UnicodeScalar(UInt8(122 - a))) + String(UnicodeScalar(UInt8(97 + b)))
                    + String(UnicodeScalar(UInt8(122 - b))) + String(index / 676)
                text += "\"x\(middle)y\":1,"
            } else {
                text += "\"key\(index)\":1,"
            }
        }
        text += "\"end\":1}"
        return Array(text.utf8)
    }

    static func run() throws {
        print("| keys | kind | median ms | ns per key |")
        print("| ---: | --- | ---: | ---: |")
        for colliding in [false, true] {
            for keys in [10_000, 100_000, 999_999] {
                let bytes = object(keys: keys, colliding: colliding)
                var times: [Double] = []
                for _ in 0..<5 {
                    let start = Date()
                    let document = try Document(parsing: bytes)
                    benchmarkSink &+= try document.root.object().count
                    times.append(Date().timeIntervalSince(start))
                }
                let median = times.sorted()[2]
                print(
                    String(format: "| %d | %@ | %.2f | %.1f |", keys, colliding ? "colliding" : "plain", median * 1000, median * 1e9 / Double(keys)))
            }
        }
    }
}
