/*
 * Finding `\uD` escapes (where a UTF-16 surrogate may be) in raw JSON
 * string text, for the check of unpaired surrogates (Swift's
 * SurrogateCheck). Text with many other escapes (`\n` in prose, `\u00e9`
 * from an ASCII-only encoder) and no surrogate at all is the common case: a
 * scan from backslash to backslash stops at each of them (measured: 12% of
 * parsing Benchmarks/Data/strings.json), this one looks at 32 byte triples
 * at a step.
 */

#include "cartograph_tape.h"

/// Whether `bytes` starts with a backslash, `u` and `d` or `D` (three bytes readable).
static inline int surrogate_candidate(const uint8_t *bytes) {
    return bytes[0] == '\\' && bytes[1] == 'u' && (bytes[2] | 0x20) == 'd';
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static intptr_t find_avx2(const uint8_t *bytes, intptr_t count) {
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i u = _mm256_set1_epi8('u');
    const __m256i d = _mm256_set1_epi8('d');
    const __m256i lower = _mm256_set1_epi8(0x20);
    intptr_t index = 0;
    /* Each step compares bytes [index, index + 32) with a backslash, bytes
       [index + 1, index + 33) with `u` and bytes [index + 2, index + 34),
       lowercased, with `d`: a bit set in all three is a candidate. */
    for (; index + 34 <= count; index += 32) {
        __m256i here = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i next = _mm256_loadu_si256((const __m256i *)(bytes + index + 1));
        __m256i third = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(bytes + index + 2)), lower);
        __m256i found = _mm256_and_si256(_mm256_cmpeq_epi8(here, backslash), _mm256_cmpeq_epi8(next, u));
        found = _mm256_and_si256(found, _mm256_cmpeq_epi8(third, d));
        unsigned mask = (unsigned)_mm256_movemask_epi8(found);
        if (mask != 0) return index + __builtin_ctz(mask);
    }
    for (; index + 2 < count; index++) {
        if (surrogate_candidate(bytes + index)) return index;
    }
    return -1;
}
#endif

intptr_t cartograph_find_surrogate_escape(const uint8_t *bytes, intptr_t count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (count >= 34 && cartograph_has_avx2()) return find_avx2(bytes, count);
#endif
    intptr_t index = 0;
    if (count < 34) {
        /* Short text (most keys and strings): a byte loop, no call per backslash. */
        for (; index + 2 < count; index++) {
            if (surrogate_candidate(bytes + index)) return index;
        }
        return -1;
    }
    while (index + 2 < count) {
        const uint8_t *found = memchr(bytes + index, '\\', (size_t)(count - 2 - index));
        if (found == NULL) return -1;
        index = found - bytes;
        if (surrogate_candidate(bytes + index)) return index;
        index += 1;
    }
    return -1;
}
