/*
 * Escaping a string's UTF-8 for a JSON string body, for the native JSON
 * writer (Swift's NativeJSONWriter.writeString, through OutputBuffer).
 *
 * Most text needs no escape at all, so the work is finding the next byte
 * that does and copying everything before it at once: the bytes are
 * stored to the output before they are looked at (32 at a step with AVX2,
 * 16 with SSE2, 8 with word arithmetic), and the output position only
 * moves past the ones that turned out plain. The last 1 to 15 bytes of a
 * string of 16 or more are looked at in the 16 bytes that end the string
 * (those already written are shifted out of the mask), and a string of 8
 * to 15 bytes in two overlapping words: most strings are short, and the
 * word loop's steps cost five instructions a byte. A quote, a backslash
 * or a control byte always needs an escape; a slash when
 * CARTOGRAPH_ESCAPE_SLASH is set (Foundation's default `\/`); a non-ASCII
 * scalar, as `\uXXXX` (a surrogate pair beyond U+FFFF), when
 * CARTOGRAPH_ESCAPE_NON_ASCII is set.
 *
 * Worked example, with CARTOGRAPH_ESCAPE_SLASH: `a/b"c` is written
 * `a\/b\"c`: the step stores all five bytes, finds the slash at 1, keeps
 * `a`, writes `\/`, and goes on from `b`.
 *
 * The output is byte-identical to what the Swift loop it replaced wrote
 * (lowercase hex digits, as Foundation's JSONEncoder writes `\u001f`);
 * Tests/CartographTests/JSONEscapingTests check it against a plain
 * reference on every byte class, every option and every length around
 * the step sizes.
 */

#include "cartograph_tape.h"

/// The most one step writes: a 32-byte store, or a 12-byte escape (a
/// surrogate pair) after up to 31 plain bytes.
#define STEP_ROOM 44

static const uint8_t hex_digits[16] = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

static inline uint8_t *unicode_escape(uint8_t *out, uint32_t unit) {
    out[0] = '\\';
    out[1] = 'u';
    out[2] = hex_digits[(unit >> 12) & 0xF];
    out[3] = hex_digits[(unit >> 8) & 0xF];
    out[4] = hex_digits[(unit >> 4) & 0xF];
    out[5] = hex_digits[unit & 0xF];
    return out + 6;
}

/// Writes the escape for the byte (or, for a non-ASCII lead byte, the
/// scalar) at `in[*at]`, advances `*at` past it and returns the new output end.
static inline uint8_t *escape_one(const uint8_t *in, intptr_t count, intptr_t *at, uint8_t *out) {
    uint8_t byte = in[*at];
    if (byte < 0x80) {
        *at += 1;
        uint8_t letter;
        switch (byte) {
        case '"': letter = '"'; break;
        case '\\': letter = '\\'; break;
        case '/': letter = '/'; break;
        case 0x08: letter = 'b'; break;
        case 0x0C: letter = 'f'; break;
        case 0x0A: letter = 'n'; break;
        case 0x0D: letter = 'r'; break;
        case 0x09: letter = 't'; break;
        default: return unicode_escape(out, byte);
        }
        out[0] = '\\';
        out[1] = letter;
        return out + 2;
    }
    intptr_t length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2;
    if (*at + length > count) {
        /* Not valid UTF-8 (Swift strings always are): the lone byte, so
           that nothing past the text is read. */
        *at += 1;
        return unicode_escape(out, byte);
    }
    uint32_t scalar = byte & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F);
    for (intptr_t offset = 1; offset < length; offset++) scalar = scalar << 6 | (in[*at + offset] & 0x3F);
    *at += length;
    if (scalar >= 0x10000) {
        uint32_t value = scalar - 0x10000;
        out = unicode_escape(out, 0xD800 + (value >> 10));
        return unicode_escape(out, 0xDC00 + (value & 0x3FF));
    }
    return unicode_escape(out, scalar);
}

/// The `rest` (1 to 7) bytes at `in` as the low bytes of a word, the rest
/// zero: from two overlapping loads, where a `memcpy` of a variable length
/// was a call per string shorter than a word (most keys and short values).
static inline uint64_t short_word(const uint8_t *in, intptr_t rest) {
    if (rest >= 4) {
        /* The overlapping bytes are the same in both loads, so or-ing them is exact. */
        uint64_t head = cartograph_load32(in), tail = cartograph_load32(in + rest - 4);
        return head | tail << (8 * (rest - 4));
    }
    uint64_t word = in[0];
    if (rest > 1) word |= (uint64_t)in[1] << 8;
    if (rest > 2) word |= (uint64_t)in[2] << 16;
    return word;
}

/// A mask with the high bit of each byte of `word` that needs an escape.
/// Only its lowest set bit is exact (a borrow can flag a byte above a
/// flagged one), which is all the caller uses.
static inline uint64_t word_escapes(uint64_t word, unsigned options) {
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    uint64_t quote = word ^ (ones * '"'), backslash = word ^ (ones * '\\');
    uint64_t mask = (word - ones * 0x20) & ~word;
    mask |= (quote - ones) & ~quote;
    mask |= (backslash - ones) & ~backslash;
    if (options & CARTOGRAPH_ESCAPE_SLASH) {
        uint64_t slash = word ^ (ones * '/');
        mask |= (slash - ones) & ~slash;
    }
    mask &= highs;
    if (options & CARTOGRAPH_ESCAPE_NON_ASCII) mask |= word & highs;
    return mask;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define ESCAPE_HAS_AVX2_PATH 1

/// The bytes of a 32-byte block that need an escape, one bit each.
__attribute__((target("avx2"))) static inline unsigned block_escapes(__m256i block, unsigned options) {
    __m256i found = _mm256_or_si256(_mm256_cmpeq_epi8(block, _mm256_set1_epi8('"')), _mm256_cmpeq_epi8(block, _mm256_set1_epi8('\\')));
    /* Unsigned byte <= 0x1F: the minimum with 0x1F is the byte itself. */
    found = _mm256_or_si256(found, _mm256_cmpeq_epi8(_mm256_min_epu8(block, _mm256_set1_epi8(0x1F)), block));
    if (options & CARTOGRAPH_ESCAPE_SLASH) found = _mm256_or_si256(found, _mm256_cmpeq_epi8(block, _mm256_set1_epi8('/')));
    if (options & CARTOGRAPH_ESCAPE_NON_ASCII) found = _mm256_or_si256(found, block);
    return (unsigned)_mm256_movemask_epi8(found);
}

/// The AVX2 loop: while at least 32 bytes remain and the room allows a step.
__attribute__((target("avx2"))) static void escape_blocks(
    const uint8_t *in, intptr_t count, intptr_t *at, uint8_t **out, uint8_t *end, unsigned options) {
    intptr_t index = *at;
    uint8_t *target = *out;
    while (count - index >= 32 && end - target >= STEP_ROOM) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(in + index));
        _mm256_storeu_si256((__m256i *)target, block);
        unsigned mask = block_escapes(block, options);
        if (mask == 0) {
            index += 32;
            target += 32;
            continue;
        }
        intptr_t plain = __builtin_ctz(mask);
        index += plain;
        target = escape_one(in, count, &index, target + plain);
    }
    *at = index;
    *out = target;
}

/// The bytes of a 16-byte block that need an escape, one bit each (SSE2,
/// which every x86-64 processor has).
static inline unsigned block16_escapes(__m128i block, unsigned options) {
    __m128i found = _mm_or_si128(_mm_cmpeq_epi8(block, _mm_set1_epi8('"')), _mm_cmpeq_epi8(block, _mm_set1_epi8('\\')));
    found = _mm_or_si128(found, _mm_cmpeq_epi8(_mm_min_epu8(block, _mm_set1_epi8(0x1F)), block));
    if (options & CARTOGRAPH_ESCAPE_SLASH) found = _mm_or_si128(found, _mm_cmpeq_epi8(block, _mm_set1_epi8('/')));
    if (options & CARTOGRAPH_ESCAPE_NON_ASCII) found = _mm_or_si128(found, block);
    return (unsigned)_mm_movemask_epi8(found);
}

/// The 16-byte steps, then, if no escape is left, the rest at once: for a
/// text of 16 bytes or more, the block that ends it; for one of 8 to 15,
/// two overlapping words in one block. Where an escape is left, or the
/// room is short, the word loops go on from `*at`. Every load lies within
/// the text, and every store within a step's room.
static void escape_sse2(const uint8_t *in, intptr_t count, intptr_t *at, uint8_t **out, uint8_t *end, unsigned options) {
    intptr_t index = *at;
    uint8_t *target = *out;
    while (count - index >= 16 && end - target >= STEP_ROOM) {
        __m128i block = _mm_loadu_si128((const __m128i *)(in + index));
        _mm_storeu_si128((__m128i *)target, block);
        unsigned mask = block16_escapes(block, options);
        if (mask == 0) {
            index += 16;
            target += 16;
            continue;
        }
        intptr_t plain = __builtin_ctz(mask);
        index += plain;
        target = escape_one(in, count, &index, target + plain);
    }
    intptr_t rest = count - index;
    /* Below 8 bytes in all (most keys), or with too little room: the word
       loops. (These returns, folded into one condition around a single
       block, cost 0.3% more instructions in a twitter.json encode.) */
    if (rest < 1 || rest >= 16 || count < 8 || end - target < STEP_ROOM) {
        *at = index;
        *out = target;
        return;
    }
    uint64_t tail = cartograph_load64(in + count - 8);
    unsigned mask;
    if (count >= 16) {
        /* The block ending the text; its first 16 - rest bytes are
           written already, and shifted out of the mask. */
        mask = block16_escapes(_mm_loadu_si128((const __m128i *)(in + count - 16)), options) >> (16 - rest);
    } else if (rest >= 8) {
        /* A text of 8 to 15 bytes: the first and last words of what is
           left, overlapping, as one block. */
        mask = block16_escapes(_mm_set_epi64x((long long)tail, (long long)cartograph_load64(in + index)), options);
    } else {
        *at = index;
        *out = target;
        return;
    }
    if (mask == 0) {
        if (rest >= 8) {
            uint64_t head = cartograph_load64(in + index);
            memcpy(target, &head, 8);
            memcpy(target + rest - 8, &tail, 8);
        } else {
            /* The last word, shifted down past the bytes written. */
            uint64_t word = tail >> (8 * (8 - rest));
            memcpy(target, &word, 8);
        }
        index = count;
        target += rest;
    }
    *at = index;
    *out = target;
}
#endif

intptr_t cartograph_json_escape(const uint8_t *in, intptr_t count, intptr_t *read, uint8_t *out, intptr_t room, unsigned options) {
    intptr_t index = *read;
    uint8_t *target = out;
    uint8_t *end = out + room;
#ifdef ESCAPE_HAS_AVX2_PATH
    if (!(options & CARTOGRAPH_ESCAPE_SCALAR)) {
        if (count - index >= 32 && cartograph_has_avx2()) escape_blocks(in, count, &index, &target, end, options);
        escape_sse2(in, count, &index, &target, end, options);
    }
#endif
    while (count - index >= 8 && end - target >= STEP_ROOM) {
        uint64_t word = cartograph_load64(in + index);
        memcpy(target, &word, 8);
        uint64_t mask = word_escapes(word, options);
        if (mask == 0) {
            index += 8;
            target += 8;
            continue;
        }
        intptr_t plain = __builtin_ctzll(mask) >> 3;
        index += plain;
        target = escape_one(in, count, &index, target + plain);
    }
    /* Fewer than 8 bytes left (all of most keys and short values): they
       go into a word padded with 'A', which never needs an escape, and
       take the word step above; a byte loop cost several times more. */
    while (index < count && end - target >= STEP_ROOM) {
        intptr_t rest = count - index < 8 ? count - index : 8;
        uint64_t word;
        if (count >= 8) {
            /* The last 8 bytes, shifted down past those already written. */
            word = cartograph_load64(in + count - 8) >> (8 * (8 - rest));
            if (rest < 8) word |= 0x4141414141414141ULL << (8 * rest);
        } else {
            word = short_word(in + index, rest) | 0x4141414141414141ULL << (8 * rest);
        }
        memcpy(target, &word, 8);
        uint64_t mask = word_escapes(word, options);
        if (mask == 0) {
            index += rest;
            target += rest;
            continue;
        }
        intptr_t plain = __builtin_ctzll(mask) >> 3;
        index += plain;
        target = escape_one(in, count, &index, target + plain);
    }
    *read = index;
    return target - out;
}
