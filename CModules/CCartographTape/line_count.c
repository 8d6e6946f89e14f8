/*
 * What an incremental parse keeps of each chunk so that a later error can
 * still say `line:column` (Swift's LineCounter): the line breaks in the
 * chunk, where the last one is, and the Unicode scalars after it. One pass,
 * 32 bytes at a step where the processor has AVX2: the two word-at-a-time
 * passes it replaced cost about a twentieth of a chunked request decode.
 *
 * Worked example: `{"a":\n"é"}` has one break, at 5, and four scalars
 * after it (`"`, `é`, `"`, `}`): `é` is two bytes, the second a
 * continuation byte `10xxxxxx`, so the five bytes hold four scalars.
 */

#include "cartograph_tape.h"

static void count_words(const uint8_t *bytes, intptr_t from, intptr_t count, cartograph_line_counts *counts) {
    for (intptr_t index = from; index < count; index++) {
        uint8_t byte = bytes[index];
        if (byte == '\n') {
            counts->newlines += 1;
            counts->last_newline = index;
            counts->scalars_after = 0;
        } else if ((byte & 0xC0) != 0x80) {
            counts->scalars_after += 1;
        }
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// The whole 32-byte blocks; returns where the tail begins.
__attribute__((target("avx2"))) static intptr_t count_avx2(const uint8_t *bytes, intptr_t count, cartograph_line_counts *counts) {
    const __m256i newline = _mm256_set1_epi8('\n');
    const __m256i top_bits = _mm256_set1_epi8((char)0xC0);
    const __m256i continuation = _mm256_set1_epi8((char)0x80);
    intptr_t index = 0;
    for (; index + 32 <= count; index += 32) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + index));
        uint32_t breaks = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, newline));
        /* A scalar starts at every byte that is not a continuation byte. */
        uint32_t starts = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(block, top_bits), continuation));
        if (breaks != 0) {
            int last = 31 - __builtin_clz(breaks);
            counts->newlines += __builtin_popcount(breaks);
            counts->last_newline = index + last;
            /* The starts above the last break (a break is itself a start, not counted). */
            counts->scalars_after = __builtin_popcountll((uint64_t)starts >> (last + 1));
        } else {
            counts->scalars_after += __builtin_popcount(starts);
        }
    }
    return index;
}
#endif

void cartograph_count_lines(const uint8_t *bytes, intptr_t count, cartograph_line_counts *counts) {
    counts->newlines = 0;
    counts->last_newline = -1;
    counts->scalars_after = 0;
    intptr_t from = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (count >= 32 && cartograph_has_avx2()) from = count_avx2(bytes, count, counts);
#endif
    count_words(bytes, from, count, counts);
}
