/*
 * Copying JSON text without its indentation (the spaces and tabs after each
 * line feed) for yajl to lex (cartograph_yajl_tape_parse says why). The
 * copy goes 32 bytes at a step where the processor has AVX2 (copy_avx2
 * says how); elsewhere memchr and memcpy copy from line feed to line feed,
 * and indentation is measured a word at a time.
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

/// Records that the byte written at `written` is input byte `next` (the
/// offsets before it shifted by what was left out).
static inline void record_shift(cartograph_lexed_shift *shift, intptr_t written, intptr_t origin, intptr_t next) {
    shift->at = written;
    shift->origin = origin + next - written;
}

/// After a line feed at `read - 1` (or inside indentation already being
/// left out: `continuing`): leaves the indentation out, recording where.
/// Returns 0 once the shifts are full (the block ends there).
static inline int skip_indentation(const uint8_t *bytes, intptr_t count, intptr_t *read, intptr_t written, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, int continuing) {
    intptr_t end = indentation_end(bytes, *read, count);
    if (end == *read && !continuing) return 1;
    record_shift(shifts + *shift_count, written, origin, end);
    *shift_count += 1;
    *read = end;
    return *shift_count < shift_capacity;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx2")))
static inline uint64_t byte_mask(__m256i block, __m256i byte) {
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, byte));
}

/// The bits of a 32-byte step from `low` to `high` (0 to 32).
static inline uint64_t bits_between(intptr_t low, intptr_t high) {
    return ((1ULL << high) - 1) & ~((1ULL << low) - 1);
}

/// The vector copy; compiled twice (`with_strings` a constant): without
/// strings to leave out, what concerns them folds away (a copy of
/// pretty-printed text alone ran 26% more instructions with it).
__attribute__((target("avx2"), always_inline))
static inline intptr_t copy_avx2(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read,
    const cartograph_elided_string *strings, intptr_t string_count, const int with_strings) {
    const __m256i line_feed = _mm256_set1_epi8('\n');
    const __m256i space = _mm256_set1_epi8(' ');
    const __m256i tab = _mm256_set1_epi8('\t');
    intptr_t from = 0, written = 0, recorded = 0;
    /* Whether the byte before `from` was indentation left out (more may
       follow), whether it was a line feed (indentation may start), and
       whether it was left out at all (indentation or a string's body). */
    uint64_t removing = 0, after_line_feed = 0, left_before = 0;
    /* The next string whose body is left out: where its body starts and
       its closing quote is, relative to `bytes` (INTPTR_MAX: none). */
    intptr_t string_index = 0;
    intptr_t string_start = with_strings && string_count > 0 ? strings[0].start - origin : INTPTR_MAX;
    /* The last place a block could end (no left-out string cut in two). */
    intptr_t safe_from = 0, safe_written = 0, safe_recorded = 0;
    /* 32 bytes at a step, at fixed places (a step never waits for the
       last one's answer: going line by line, each load waited for the
       previous line's length, ~28 cycles a line). In a step: the blanks
       that follow a line feed, or continue the last step's indentation,
       are left out (the runs of blanks that start there, found by one
       addition: its carry clears exactly those runs), and so are the
       bytes of strings' bodies; each run of bytes kept is copied with one
       32-byte move and, when something was left out before it, recorded.
       A step has at most 16 runs of each. */
    while (from + 64 <= count) {
        if (string_start > from) {
            if (from >= limit || recorded + 16 > shift_capacity) break;
            safe_from = from;
            safe_written = written;
            safe_recorded = recorded;
        } else if (recorded + 16 > shift_capacity || written > limit + 32) {
            break; /* stepped back below */
        }
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + from));
        uint64_t line_feeds = byte_mask(block, line_feed);
        uint64_t blanks = byte_mask(block, space) | byte_mask(block, tab);
        uint64_t starts = blanks & ((line_feeds << 1) | after_line_feed | removing);
        uint64_t sum = blanks + starts;
        uint64_t indentation = blanks & ~sum & 0xFFFFFFFFu;
        uint64_t left_out = indentation;
        while (string_start < from + 32) {
            intptr_t end = strings[string_index].end - origin;
            intptr_t low = string_start > from ? string_start - from : 0;
            intptr_t high = end < from + 32 ? end - from : 32;
            if (high > low) left_out |= bits_between(low, high);
            if (end >= from + 32) break; /* its closing quote is in a later step */
            string_index += 1;
            string_start = string_index < string_count ? strings[string_index].start - origin : INTPTR_MAX;
        }
        uint64_t kept = ~left_out & 0xFFFFFFFFu;
        while (kept != 0) {
            intptr_t first = __builtin_ctzll(kept);
            intptr_t end = first + __builtin_ctzll(~(kept >> first));
            _mm256_storeu_si256((__m256i *)(target + written), _mm256_loadu_si256((const __m256i *)(bytes + from + first)));
            /* Recorded when something was left out before this run. */
            uint64_t after_left_out = first > 0 ? (left_out >> (first - 1)) & 1 : left_before;
            record_shift(shifts + recorded, written, origin, from + first);
            recorded += (intptr_t)after_left_out;
            written += end - first;
            kept &= end >= 32 ? 0 : ~0ULL << end;
        }
        removing = (indentation >> 31) & 1;
        left_before = (left_out >> 31) & 1;
        after_line_feed = (line_feeds >> 31) & 1;
        from += 32;
    }
    if (string_start <= from) {
        /* A left-out string would be cut in two: the block ends where it
           last could (nothing read when that is its start). */
        *shift_count = safe_recorded;
        *read = safe_from;
        return safe_written;
    }
    *shift_count = recorded;
    *read = from;
    /* At the block's end, or its records nearly full: a run left out at
       the end needs no record (nothing kept follows it here). */
    if (from >= limit || from + 64 <= count || recorded + 16 > shift_capacity) return written;
    /* The last bytes of the text, a byte at a time (no string is left out
       there: each ends 96 bytes before the text does). */
    if ((removing | after_line_feed) != 0
        && !skip_indentation(bytes, count, &from, written, origin, shifts, shift_capacity, shift_count, (int)removing)) {
        *read = from;
        return written;
    }
    while (from < limit) {
        uint8_t byte = bytes[from++];
        target[written++] = byte;
        if (byte == '\n' && !skip_indentation(bytes, count, &from, written, origin, shifts, shift_capacity, shift_count, 0)) break;
    }
    *read = from;
    return written;
}
__attribute__((target("avx2")))
static intptr_t copy_avx2_strings(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read,
    const cartograph_elided_string *strings, intptr_t string_count) {
    return copy_avx2(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read, strings, string_count, 1);
}

__attribute__((target("avx2")))
static intptr_t copy_avx2_unindented(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read) {
    return copy_avx2(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read, NULL, 0, 0);
}
#endif

intptr_t cartograph_copy_lexable(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read,
    const cartograph_elided_string *strings, intptr_t string_count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (cartograph_has_avx2()) {
        return string_count > 0
            ? copy_avx2_strings(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read, strings, string_count)
            : copy_avx2_unindented(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read);
    }
#endif
    (void)strings, (void)string_count;
    return cartograph_copy_unindented_scalar(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read);
}

intptr_t cartograph_copy_unindented(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read) {
    return cartograph_copy_lexable(target, bytes, count, limit, origin, shifts, shift_capacity, shift_count, read, NULL, 0);
}

intptr_t cartograph_copy_unindented_scalar(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read) {
    intptr_t from = 0, written = 0;
    *shift_count = 0;
    while (from < limit) {
        const uint8_t *line_feed = memchr(bytes + from, '\n', (size_t)(limit - from));
        intptr_t end = line_feed != NULL ? line_feed - bytes + 1 : limit;
        memcpy(target + written, bytes + from, (size_t)(end - from));
        written += end - from;
        from = end;
        if (line_feed == NULL) break;
        if (!skip_indentation(bytes, count, &from, written, origin, shifts, shift_capacity, shift_count, 0)) break;
    }
    *read = from;
    return written;
}
