/*
 * Finding the first vertical tab or form feed in a chunk of JSON text:
 * yajl skips both as whitespace, JSON does not (YajlParser stops yajl
 * before the first one and reports it). Two passes of memchr, one per byte,
 * were 0.7% of a twitter.json mapping decode; this is one pass, 32 bytes at
 * a step where the processor has AVX2.
 */

#include "cartograph_tape.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static intptr_t find_avx2(const uint8_t *bytes, intptr_t count) {
    const __m256i vertical_tab = _mm256_set1_epi8(0x0B);
    const __m256i one = _mm256_set1_epi8(1);
    intptr_t index = 0;
    /* byte - 0x0B is 0 or 1 exactly for 0x0B and 0x0C: where the unsigned
       minimum with 1 leaves it unchanged. */
    for (; index + 32 <= count; index += 32) {
        __m256i shifted = _mm256_sub_epi8(_mm256_loadu_si256((const __m256i *)(bytes + index)), vertical_tab);
        unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(shifted, one), shifted));
        if (mask != 0) return index + __builtin_ctz(mask);
    }
    for (; index < count; index++) {
        if (bytes[index] == 0x0B || bytes[index] == 0x0C) return index;
    }
    return -1;
}
#endif

intptr_t cartograph_find_vertical_space(const uint8_t *bytes, intptr_t count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (count >= 32 && cartograph_has_avx2()) return find_avx2(bytes, count);
#endif
    intptr_t limit = count;
    const uint8_t *tab = memchr(bytes, 0x0B, (size_t)limit);
    if (tab != NULL) limit = tab - bytes;
    const uint8_t *feed = memchr(bytes, 0x0C, (size_t)limit);
    if (feed != NULL) limit = feed - bytes;
    return limit < count ? limit : -1;
}
