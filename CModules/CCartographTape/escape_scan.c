/*
 * Finding `\u` escapes in raw JSON string text, for the check of unpaired
 * UTF-16 surrogates (Swift's SurrogateCheck). Text with many other escapes
 * (`\n` in prose) and no `\u` at all is the common case: a scan from
 * backslash to backslash stops at each of them (measured: 12% of parsing
 * Benchmarks/Data/strings.json), this one looks at 32 byte pairs at a step.
 */

#include "cartograph_tape.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static intptr_t find_avx2(const uint8_t *bytes, intptr_t count) {
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i u = _mm256_set1_epi8('u');
    intptr_t index = 0;
    /* Each step compares bytes [index, index + 32) with a backslash and
       bytes [index + 1, index + 33) with `u`: a bit set in both is a pair. */
    for (; index + 33 <= count; index += 32) {
        __m256i here = _mm256_loadu_si256((const __m256i *)(bytes + index));
        __m256i next = _mm256_loadu_si256((const __m256i *)(bytes + index + 1));
        __m256i pairs = _mm256_and_si256(_mm256_cmpeq_epi8(here, backslash), _mm256_cmpeq_epi8(next, u));
        unsigned mask = (unsigned)_mm256_movemask_epi8(pairs);
        if (mask != 0) return index + __builtin_ctz(mask);
    }
    for (; index + 1 < count; index++) {
        if (bytes[index] == '\\' && bytes[index + 1] == 'u') return index;
    }
    return -1;
}
#endif

intptr_t cartograph_find_unicode_escape(const uint8_t *bytes, intptr_t count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (count >= 33 && cartograph_has_avx2()) return find_avx2(bytes, count);
#endif
    intptr_t index = 0;
    while (index + 1 < count) {
        const uint8_t *found = memchr(bytes + index, '\\', (size_t)(count - 1 - index));
        if (found == NULL) return -1;
        index = found - bytes;
        if (bytes[index + 1] == 'u') return index;
        index += 1;
    }
    return -1;
}
