/// Where a recycled keyed container of the `Codable` decoder found its
/// keys in the last object it read, for lookups out of document order.
///
/// A key is looked for first in the member after the last one found
/// (``DocumentDecoder/probeHint(_:in:hint:)``): synthesized `init(from:)`
/// asks for keys in declaration order, and most writers write them so. When
/// a document writes them in another order (Foundation's `JSONEncoder`
/// writes a struct's keys in hash order; a client its own), nearly every
/// lookup missed and walked the object on the tape, about 220 instructions
/// each in the HTTP benchmark's nine-key records. The objects of one type
/// in one document nearly always share an order, and a container is
/// recycled from object to object of its key type at its depth
/// (``RecycledContainers``): so the `n`th lookup that misses in an object
/// is tried first at the member where the `n`th miss of the previous
/// object was found. A guess is confirmed against the key's bytes, so a
/// wrong one costs a comparison, never a wrong answer.
///
/// An object's members are listed (each visible key's tape index, in
/// document order; shadowed duplicates left out, as the walk leaves them)
/// at its first miss, by a walk that also looks for that key: the first
/// miss is often a key the object leaves out (an absent optional), which
/// only a look at every key rules out. A later guess is then one load and
/// one comparison, and a lookup the guess does not answer compares the
/// listed keys' text in order. An object of ``ObjectKeyList/minimumKeys``
/// or more keys whose guesses keep failing (its keys in an order of their
/// own, as `JSONEncoder` writes each dictionary) has its keys' signatures
/// taken at its second failure (``KeySignature``), and later failures
/// scan those: on twitter.json with every object's keys shuffled, text
/// comparisons cost 6% more instructions (Benchmarks/HISTORY.md).
@safe
final class LearnedKeyOrder {
    /// The misses of one object that are remembered; later ones are
    /// looked for in the list without a guess.
    static let rememberedMisses = 64

    /// The listed object's visible keys' tape indexes, in document order.
    private var positions: UnsafeMutablePointer<Int>
    /// The listed keys' signatures, once taken (`signed`). Taken from
    /// `positions` rather than by listing the object again in an
    /// ``ObjectKeyList``: that list, held in a `var` and walked anew, cost
    /// shuffled twitter.json 3.9% more instructions (retains and a second
    /// walk of the tape).
    private var signatures: UnsafeMutablePointer<UInt64>
    private var signed = false
    /// Lookups in the listed object the guess did not answer.
    private var failures = 0
    private var capacity: Int
    private var count = 0
    /// For the `n`th miss, the listed ordinal it was found at in the last
    /// object, or -1.
    private let guesses: UnsafeMutablePointer<Int32>

    init() {
        capacity = 16
        unsafe positions = .allocate(capacity: capacity)
        unsafe signatures = .allocate(capacity: capacity)
        unsafe guesses = .allocate(capacity: Self.rememberedMisses)
        unsafe guesses.initialize(repeating: -1, count: Self.rememberedMisses)
    }

    deinit {
        unsafe positions.deallocate()
        unsafe signatures.deallocate()
        unsafe guesses.deallocate()
    }

    /// The tape index of the visible key of `object` whose bytes are
    /// `key`'s, or nil; `miss` counts the lookups in `object` that missed
    /// the hint before this one (0 lists the object: its first miss).
    func keyPosition(of key: Span<UInt8>, miss: Int, in object: Int, tape: borrowing TapeReader) -> Int? {
        if miss == 0 { return listFinding(key, in: object, tape: tape) }
        let remembered = miss < Self.rememberedMisses
        let guess = remembered ? Int(unsafe guesses[miss]) : -1
        if UInt(bitPattern: guess) < UInt(bitPattern: count) {
            let position = unsafe positions[guess]
            if tape.textEquals(tape[position], key) { return position }
        }
        if failures > 0, count >= Int(ObjectKeyList.minimumKeys) {
            let found = signedPosition(of: key, tape: tape)
            if remembered { unsafe guesses[miss] = Int32(truncatingIfNeeded: found ?? -1) }
            return found.map { unsafe positions[$0] }
        }
        failures += 1
        // From the member before the guess on, cyclically: an optional
        // key present in one object and left out of the next shifts the
        // members after it by one, either way.
        var ordinal = guess > 0 && guess <= count ? guess - 1 : 0
        for _ in 0..<count {
            if ordinal != guess {
                let position = unsafe positions[ordinal]
                if tape.textEquals(tape[position], key) {
                    if remembered { unsafe guesses[miss] = Int32(truncatingIfNeeded: ordinal) }
                    return position
                }
            }
            ordinal = ordinal + 1 == count ? 0 : ordinal + 1
        }
        if remembered { unsafe guesses[miss] = -1 }
        return nil
    }

    /// The ordinal of the listed key whose bytes are `key`'s, or nil, found
    /// through the keys' signatures (taken on the first such lookup in the
    /// object).
    private func signedPosition(of key: Span<UInt8>, tape: borrowing TapeReader) -> Int? {
        if !signed {
            for ordinal in 0..<count {
                let text = unsafe tape.textBuffer(of: tape[positions[ordinal]])
                unsafe signatures[ordinal] = KeySignature.of(text.baseAddress, count: text.count)
            }
            signed = true
        }
        let signature = unsafe key.withUnsafeBufferPointer { unsafe KeySignature.of($0.baseAddress, count: $0.count) }
        for ordinal in 0..<count where unsafe signatures[ordinal] == signature {
            if tape.textEquals(tape[unsafe positions[ordinal]], key) { return ordinal }
        }
        return nil
    }

    /// Lists `object`'s visible keys (its length is its key count: room
    /// for all of them at once), comparing each with `key` on the way (the
    /// first miss of an object is often a key left out of it, which a
    /// separate scan would have to read all the keys again to rule out),
    /// and returns the tape index of the one that matches, or nil.
    private func listFinding(_ key: Span<UInt8>, in object: Int, tape: borrowing TapeReader) -> Int? {
        let container = tape[object]
        let end = container.payload
        let needed = Int(container.length)
        if capacity < needed {
            unsafe positions.deallocate()
            unsafe signatures.deallocate()
            capacity = max(needed, capacity * 2)
            unsafe positions = .allocate(capacity: capacity)
            unsafe signatures = .allocate(capacity: capacity)
        }
        count = 0
        signed = false
        var found = -1
        var position = object + 1
        while position < end, count < capacity {
            let entry = tape[position]
            if entry.flags & TapeFlags.shadowed == 0 {
                if found < 0, tape.textEquals(entry, key) { found = count }
                unsafe positions[count] = position
                count += 1
            }
            position = tape.next(after: position + 1)
        }
        failures = found == Int(unsafe guesses[0]) ? 0 : 1
        unsafe guesses[0] = Int32(truncatingIfNeeded: found)
        return found < 0 ? nil : unsafe positions[found]
    }
}
