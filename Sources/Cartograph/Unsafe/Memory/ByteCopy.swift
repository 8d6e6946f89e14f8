/// Copies of a few bytes without a call to `memcpy`.
///
/// The encoders copy many short runs whose length is known only at run
/// time: a member's quoted key (`"id"`, `"created_at"`), a short string's
/// UTF-8, a value's bytes lent to a closure (``LentValue``: 8 to 24 bytes
/// for most properties). `memcpy` costs a call, and its size dispatch, for
/// each: about 2% of a twitter.json mapping encode. Up to 32 bytes, the
/// copy here is two to four overlapping word loads and stores, the way
/// `memcpy` itself copies short runs, inlined into the caller.
///
/// `source` and `target` must not overlap, and both must hold `count` bytes.
enum ByteCopy {
    @inline(__always)
    static func copy(to target: UnsafeMutableRawPointer, from source: UnsafeRawPointer, count: Int) {
        if count >= 8 {
            if count <= 16 {
                // Two words that overlap when count < 16: the first eight
                // bytes and the last eight.
                let head = unsafe source.loadUnaligned(as: UInt64.self)
                let tail = unsafe source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                unsafe target.storeBytes(of: head, as: UInt64.self)
                unsafe target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
            } else if count <= 32 {
                let first = unsafe source.loadUnaligned(as: UInt64.self)
                let second = unsafe source.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                let third = unsafe source.loadUnaligned(fromByteOffset: count - 16, as: UInt64.self)
                let fourth = unsafe source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                unsafe target.storeBytes(of: first, as: UInt64.self)
                unsafe target.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
                unsafe target.storeBytes(of: third, toByteOffset: count - 16, as: UInt64.self)
                unsafe target.storeBytes(of: fourth, toByteOffset: count - 8, as: UInt64.self)
            } else {
                unsafe target.copyMemory(from: source, byteCount: count)
            }
        } else if count >= 4 {
            let head = unsafe source.loadUnaligned(as: UInt32.self)
            let tail = unsafe source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            unsafe target.storeBytes(of: head, as: UInt32.self)
            unsafe target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            // One to three bytes: the first, the middle and the last, which
            // between them cover every position.
            let first = unsafe source.load(as: UInt8.self)
            let middle = unsafe source.load(fromByteOffset: count >> 1, as: UInt8.self)
            let last = unsafe source.load(fromByteOffset: count - 1, as: UInt8.self)
            unsafe target.storeBytes(of: first, as: UInt8.self)
            unsafe target.storeBytes(of: middle, toByteOffset: count >> 1, as: UInt8.self)
            unsafe target.storeBytes(of: last, toByteOffset: count - 1, as: UInt8.self)
        }
    }
}
