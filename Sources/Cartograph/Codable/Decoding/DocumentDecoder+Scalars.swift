import Foundation

// DocumentDecoder: scalars.
extension DocumentDecoder {
    // The key and the trail are autoclosures, read only for an error:
    // otherwise a container's generic key is boxed on every call, and a
    // recycled container's trail (a `var`) retained and released around it.

    @inline(__always)
    func decodeBool(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?) throws -> Bool {
        switch tape[index].kind {
        case .true: return true
        case .false: return false
        // Foundation's JSONDecoder reports null for a Bool as a type
        // mismatch (unlike every other type, where it is valueNotFound).
        default: throw mismatch(expected: "bool", type: Bool.self, at: index, key: key(), trail: trail())
        }
    }

    @inline(__always)
    func decodeString(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?) throws -> String {
        let entry = tape[index]
        guard entry.kind == .string else {
            if entry.kind == .null { throw valueNotFound(String.self, at: index, key: key(), trail: trail()) }
            throw mismatch(expected: "string", type: String.self, at: index, key: key(), trail: trail())
        }
        if readsNullMarker {
            // A property list's <date> and <data> are kept as text, but they
            // are not strings, and `$null` is nil: as Foundation's decoder says.
            if entry.flags & (TapeFlags.date | TapeFlags.data) != 0 {
                throw mismatch(expected: "string", type: String.self, at: index, key: key(), trail: trail())
            }
            if tape.isPlistNullMarker(entry) {
                throw valueNotFound(String.self, at: index, key: key(), trail: trail())
            }
        }
        return tape.string(entry)
    }

    /// The text a string entry keeps (a plist's date or data included).
    func tapeText(at index: Int) -> String {
        tape.string(tape[index])
    }

    @inline(__always)
    func decodeInteger<T: FixedWidthInteger>(
        _ type: T.Type, at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?
    ) throws -> T {
        let entry = tape[index]
        guard entry.kind == .number else {
            if entry.kind == .null { throw valueNotFound(T.self, at: index, key: key(), trail: trail()) }
            throw mismatch(expected: "integer", type: T.self, at: index, key: key(), trail: trail())
        }
        if T.isSigned {
            if let value = tape.int64(entry), let exact = T(exactly: value) { return exact }
        } else if let value = tape.uint64(entry), let exact = T(exactly: value) {
            return exact
        }
        // Beyond 64 bits (Int128, UInt128), or a whole number written with
        // a fraction or exponent (`3.0`, `1e2`, `18446744073709551616.0`,
        // which Foundation's slow path refuses beyond 64 bits): its digits, exactly.
        if T.bitWidth > 64 || !tape.isIntegerText(entry), let value = tape.whole(T.self, entry) { return value }
        throw outOfRange(T.self, at: index, key: key(), trail: trail())
    }

    @inline(__always)
    func decodeDouble(
        at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?, reporting type: Any.Type = Double.self
    ) throws -> Double {
        let entry = tape[index]
        switch entry.kind {
        case .number:
            let value = tape.double(entry)
            // NaN and infinities from JSON5 or a plist (strtod reads their
            // text) are the only non-finite values allowed; others overflowed.
            guard value.isFinite || entry.flags & TapeFlags.nonFinite != 0 else { throw outOfRange(type, at: index, key: key(), trail: trail()) }
            // A nonzero number read as zero underflowed: refused, as
            // `JSONDecoder` refuses it (`2.01e-1234`).
            if value == 0, !tape.isZeroText(entry) {
                throw outOfRange(type, at: index, key: key(), trail: trail())
            }
            return value
        case .string:
            if case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloats {
                let text = try decodeString(at: index, key: key(), trail: trail())
                if text == positive { return .infinity }
                if text == negative { return -.infinity }
                if text == nan { return .nan }
            }
            throw mismatch(expected: "number", type: type, at: index, key: key(), trail: trail())
        case .null:
            throw valueNotFound(type, at: index, key: key(), trail: trail())
        default:
            throw mismatch(expected: "number", type: type, at: index, key: key(), trail: trail())
        }
    }

    func decodeFloat(at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?) throws -> Float {
        try decodeNarrow(Float.self, at: index, key: key(), trail: trail())
    }

    /// A `Float` (or `Float16`) rounded once from the number's text
    /// (``NarrowFloat``): through `Double` it would be rounded twice.
    func decodeNarrow<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: F.Type, at index: Int, key: @autoclosure () -> (any CodingKey)?, trail: @autoclosure () -> PathTrail?
    ) throws -> F {
        let value = try decodeDouble(at: index, key: key(), trail: trail(), reporting: F.self)
        let entry = tape[index]
        let narrowed = entry.kind == .number ? tape.narrow(F.self, entry, nearest: value) : F(value)
        // Too large for `F`, or too small: a nonzero value that narrows to zero underflowed.
        if value.isFinite, !narrowed.isFinite || (narrowed == 0 && value != 0) { throw outOfRange(F.self, at: index, key: key(), trail: trail()) }
        return narrowed
    }
}
