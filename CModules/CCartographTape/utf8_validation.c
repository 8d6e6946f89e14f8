/*
 * Strict UTF-8 validation (Unicode table 3-7), shared by the C tape builder
 * and Swift (UTF8Validation).
 *
 * Two validators: a scalar one that finds the exact offset of the first
 * invalid sequence (eight ASCII bytes at a step, one branch per lead byte),
 * and, on x86-64 processors with AVX2, one that only answers "valid or
 * not" for 32 bytes at a step: the lookup algorithm of Keiser and Lemire
 * ("Validating UTF-8 in less than one instruction per byte", 2021; three
 * 16-entry tables indexed by the nibbles of each byte and the byte before
 * it, plus a check that 3- and 4-byte sequences have their continuations).
 * Valid text — almost all text — is answered by the vector validator
 * alone; invalid text is then located by the scalar one. On text in other
 * scripts the vector validator is six to seven times faster (measured on
 * the strings of Benchmarks/Data/strings.json: 0.13 ms against 0.75-0.95 ms
 * a pass); on machines without AVX2 and for strings shorter than 35 bytes
 * the scalar one runs alone.
 */

#include "cartograph_tape.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define CARTOGRAPH_HAS_AVX2_PATH 1
#endif

#ifdef CARTOGRAPH_HAS_AVX2_PATH

/* Error classes, one bit each: a byte pair (the byte before and this one)
   is wrong when the three table lookups share a bit. */
#define TOO_SHORT (1 << 0)
#define TOO_LONG (1 << 1)
#define OVERLONG_3 (1 << 2)
#define TOO_LARGE (1 << 3)
#define SURROGATE (1 << 4)
#define OVERLONG_2 (1 << 5)
#define TOO_LARGE_1000 (1 << 6)
#define OVERLONG_4 (1 << 6)
#define TWO_CONTS (1 << 7)
#define CARRY (TOO_SHORT | TOO_LONG | TWO_CONTS)

/* The three lookup tables, by nibble. */
static const uint8_t byte_1_high_table[16] = {
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4};
static const uint8_t byte_1_low_table[16] = {
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000};
static const uint8_t byte_2_high_table[16] = {
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT};
/* Bytes that may not end the input: a lead byte of a 2-, 3- or 4-byte
   sequence in the last one, two or three places. */
static const uint8_t incomplete_limits[32] = {
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0xF0 - 1, 0xE0 - 1, 0xC0 - 1};

__attribute__((target("avx2")))
static inline __m256i table16(const uint8_t *table) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)table));
}

/// The first block's bytes one, two or three places back (nothing comes
/// before the text: zeros).
__attribute__((target("avx2")))
static inline __m256i first_block_before(__m256i input, int n) {
    __m256i joined = _mm256_permute2x128_si256(_mm256_setzero_si256(), input, 0x21);
    switch (n) {
    case 1: return _mm256_alignr_epi8(input, joined, 15);
    case 2: return _mm256_alignr_epi8(input, joined, 14);
    default: return _mm256_alignr_epi8(input, joined, 13);
    }
}

/// The error bits of a block of 32 bytes that holds a non-ASCII byte,
/// given the bytes one, two and three places before each of them.
__attribute__((target("avx2")))
static inline __m256i block_errors(__m256i input, __m256i prev1, __m256i prev2, __m256i prev3) {
    const __m256i low_nibble = _mm256_set1_epi8(0x0F);
    __m256i byte_1_high = _mm256_shuffle_epi8(table16(byte_1_high_table), _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low_nibble));
    __m256i byte_1_low = _mm256_shuffle_epi8(table16(byte_1_low_table), _mm256_and_si256(prev1, low_nibble));
    __m256i byte_2_high = _mm256_shuffle_epi8(table16(byte_2_high_table), _mm256_and_si256(_mm256_srli_epi16(input, 4), low_nibble));
    __m256i special = _mm256_and_si256(_mm256_and_si256(byte_1_high, byte_1_low), byte_2_high);
    __m256i third = _mm256_subs_epu8(prev2, _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(prev3, _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i must23 = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(-128));
    return _mm256_xor_si256(must23, special);
}

/// Whether all `count` bytes (at least 35) are valid UTF-8, 32 at a step;
/// with a `target`, each block read is also stored there (one pass over
/// the text for the tape's copy and the check).
/// Every load is inside the text: after the first block, the bytes one to
/// three places back are loaded directly (unaligned), and the last block
/// is the text's last 32 bytes, overlapping the one before it (bytes
/// checked twice get the same answer: each check sees its true
/// neighbours). A zero-padded copy of the tail, as before, cost a store
/// forwarding stall per string: a fifth of this function's time on
/// Benchmarks/Data/strings.json (perf).
__attribute__((target("avx2"), always_inline))
static inline int validate_blocks(const uint8_t *bytes, intptr_t count, uint8_t *target) {
    const __m256i limits = _mm256_loadu_si256((const __m256i *)incomplete_limits);
    __m256i errors = _mm256_setzero_si256();
    __m256i previous_incomplete = _mm256_setzero_si256();
    __m256i input = _mm256_loadu_si256((const __m256i *)bytes);
    if (target) _mm256_storeu_si256((__m256i *)target, input);
    if (_mm256_movemask_epi8(input) != 0) {
        errors = block_errors(input, first_block_before(input, 1), first_block_before(input, 2), first_block_before(input, 3));
        previous_incomplete = _mm256_subs_epu8(input, limits);
    }
    for (intptr_t index = 32; index < count; index += 32) {
        if (index + 32 > count) index = count - 32;
        const uint8_t *block = bytes + index;
        input = _mm256_loadu_si256((const __m256i *)block);
        if (target) _mm256_storeu_si256((__m256i *)(target + index), input);
        if (_mm256_movemask_epi8(input) == 0) {
            /* ASCII: only an unfinished sequence from the block before can be wrong. */
            errors = _mm256_or_si256(errors, previous_incomplete);
            previous_incomplete = _mm256_setzero_si256();
            continue;
        }
        errors = _mm256_or_si256(errors, block_errors(input, _mm256_loadu_si256((const __m256i *)(block - 1)),
                                                      _mm256_loadu_si256((const __m256i *)(block - 2)),
                                                      _mm256_loadu_si256((const __m256i *)(block - 3))));
        previous_incomplete = _mm256_subs_epu8(input, limits);
    }
    errors = _mm256_or_si256(errors, previous_incomplete);
    return _mm256_testz_si256(errors, errors);
}

__attribute__((target("avx2")))
static int valid_avx2(const uint8_t *bytes, intptr_t count) {
    return validate_blocks(bytes, count, NULL);
}

__attribute__((target("avx2")))
static int copy_valid_avx2(uint8_t *target, const uint8_t *bytes, intptr_t count) {
    return validate_blocks(bytes, count, target);
}

#endif

/// Whether `bytes[position]` exists and lies within [low, high] (a continuation byte).
static inline int continuation(const uint8_t *bytes, intptr_t count, intptr_t position, uint8_t low, uint8_t high) {
    return position < count && bytes[position] >= low && bytes[position] <= high;
}

/// The scalar validator: exact offsets, eight ASCII bytes at a step.
static intptr_t first_invalid_scalar(const uint8_t *bytes, intptr_t count) {
    intptr_t index = 0;
    while (index < count) {
        uint8_t lead = bytes[index];
        if (lead < 0x80) {
            /* Mixed text is mostly ASCII between its multi-byte characters. */
            if (index + 8 <= count && (cartograph_load64(bytes + index) & 0x8080808080808080ULL) == 0) {
                index += 8;
            } else {
                index += 1;
            }
            continue;
        }
        if (lead >= 0xC2 && lead <= 0xDF) {
            if (!continuation(bytes, count, index + 1, 0x80, 0xBF)) return index;
            index += 2;
        } else if (lead == 0xE0) {
            if (!continuation(bytes, count, index + 1, 0xA0, 0xBF) || !continuation(bytes, count, index + 2, 0x80, 0xBF)) return index;
            index += 3;
        } else if (lead == 0xED) {
            if (!continuation(bytes, count, index + 1, 0x80, 0x9F) || !continuation(bytes, count, index + 2, 0x80, 0xBF)) return index;
            index += 3;
        } else if (lead >= 0xE1 && lead <= 0xEF) {
            if (!continuation(bytes, count, index + 1, 0x80, 0xBF) || !continuation(bytes, count, index + 2, 0x80, 0xBF)) return index;
            index += 3;
        } else if (lead == 0xF0) {
            if (!continuation(bytes, count, index + 1, 0x90, 0xBF) || !continuation(bytes, count, index + 2, 0x80, 0xBF)
                || !continuation(bytes, count, index + 3, 0x80, 0xBF)) return index;
            index += 4;
        } else if (lead >= 0xF1 && lead <= 0xF3) {
            if (!continuation(bytes, count, index + 1, 0x80, 0xBF) || !continuation(bytes, count, index + 2, 0x80, 0xBF)
                || !continuation(bytes, count, index + 3, 0x80, 0xBF)) return index;
            index += 4;
        } else if (lead == 0xF4) {
            if (!continuation(bytes, count, index + 1, 0x80, 0x8F) || !continuation(bytes, count, index + 2, 0x80, 0xBF)
                || !continuation(bytes, count, index + 3, 0x80, 0xBF)) return index;
            index += 4;
        } else {
            return index;
        }
    }
    return -1;
}

#ifdef CARTOGRAPH_HAS_AVX2_PATH
/// Whether the processor and the OS support AVX2 (CPUID leaf 7, and the OS
/// saving YMM registers: OSXSAVE and XCR0 bits 1-2). Asked once; a race
/// only asks twice and stores the same answer. The answer is read and
/// stored atomically (relaxed: a plain load and store on x86), so the race
/// is not a data race (ThreadSanitizer reported the `volatile` int).
int cartograph_has_avx2(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer >= 0) return answer;
    unsigned int eax, ebx, ecx, edx;
    answer = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 27))) {
        unsigned int low, high;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6u) == 6u && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) && (ebx & (1u << 5))) answer = 1;
    }
    __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    return answer;
}
#else
int cartograph_has_avx2(void) { return 0; }
#endif

intptr_t cartograph_utf8_first_invalid(const uint8_t *bytes, intptr_t count) {
#ifdef CARTOGRAPH_HAS_AVX2_PATH
    if (count >= 35 && cartograph_has_avx2() && valid_avx2(bytes, count)) return -1;
#endif
    return first_invalid_scalar(bytes, count);
}

intptr_t cartograph_utf8_copy_first_invalid(uint8_t *target, const uint8_t *bytes, intptr_t count) {
#ifdef CARTOGRAPH_HAS_AVX2_PATH
    if (count >= 35 && cartograph_has_avx2() && copy_valid_avx2(target, bytes, count)) return -1;
#endif
    intptr_t bad = first_invalid_scalar(bytes, count);
    if (bad < 0) cartograph_copy_text(target, bytes, count);
    return bad;
}
