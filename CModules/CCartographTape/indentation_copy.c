/*
 * Copying JSON text without its indentation (the spaces and tabs after each
 * line feed) for yajl to lex (cartograph_yajl_tape_parse says why). The
 * copy goes 32 bytes at a step to the next line feed where the processor
 * has AVX2, memchr and memcpy elsewhere; the indentation after a line feed
 * is measured a word at a time.
 */

#include "cartograph_tape.h"

/// The end of the run of spaces and tabs at `start` (at most `count`).
static inline intptr_t indentation_end(const uint8_t *bytes, intptr_t start, intptr_t count) {
    const uint64_t spaces = 0x2020202020202020ULL;
    intptr_t index = start;
    for (; index + 8 <= count; index += 8) {
        uint64_t other = cartograph_load64(bytes + index) ^ spaces;
        if (other != 0) {
            index += __builtin_ctzll(other) / 8;
            break;
        }
    }
    while (index < count && (bytes[index] == ' ' || bytes[index] == '\t')) index++;
    return index;
}

/// After a line feed at `read - 1`: leaves its indentation out, recording
/// where. Returns 0 once the shifts are full (the block ends there).
static inline int skip_indentation(const uint8_t *bytes, intptr_t count, intptr_t *read, intptr_t written, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count) {
    intptr_t end = indentation_end(bytes, *read, count);
    if (end == *read) return 1;
    shifts[*shift_count].at = written;
    shifts[*shift_count].origin = origin + end - written;
    *shift_count += 1;
    *read = end;
    return *shift_count < shift_capacity;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static intptr_t copy_avx2(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read) {
    const __m256i line_feed = _mm256_set1_epi8('\n');
    intptr_t from = 0, written = 0;
    *shift_count = 0;
    while (from < limit) {
        if (from + 32 <= count) {
            /* All 32 bytes are stored; those after a line feed are
               overwritten by what follows it. */
            __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + from));
            _mm256_storeu_si256((__m256i *)(target + written), block);
            unsigned mask = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, line_feed));
            if (mask == 0) {
                from += 32;
                written += 32;
                continue;
            }
            intptr_t taken = __builtin_ctz(mask) + 1;
            from += taken;
            written += taken;
        } else {
            uint8_t byte = bytes[from++];
            target[written++] = byte;
            if (byte != '\n') continue;
        }
        if (!skip_indentation(bytes, count, &from, written, origin, shifts, shift_capacity, shift_count)) break;
    }
    *read = from;
    return written;
}
#endif

intptr_t cartograph_copy_unindented(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (cartograph_has_avx2()) return copy_avx2(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read);
#endif
    intptr_t from = 0, written = 0;
    *shift_count = 0;
    while (from < limit) {
        const uint8_t *line_feed = memchr(bytes + from, '\n', (size_t)(limit - from));
        intptr_t end = line_feed != NULL ? line_feed - bytes + 1 : limit;
        memcpy(target + written, bytes + from, (size_t)(end - from));
        written += end - from;
        from = end;
        if (line_feed == NULL) break;
        if (!skip_indentation(bytes, count, &from, written, origin, shifts, shift_capacity, shift_count)) break;
    }
    *read = from;
    return written;
}
