/*
 * Finding the long strings whose bodies yajl need not lex
 * (cartograph_yajl_tape_parse says why), and decoding their escapes.
 *
 * The scan follows the text the way yajl's lexer does: between tokens a
 * quote opens a string; in a string a backslash escapes the next byte and
 * a quote closes it. It accepts a string for leaving out only when yajl
 * would accept it too (no byte below 0x20, every escape one of
 * `\" \\ \/ \b \f \n \r \t \uXXXX`, `\u` surrogates in high-low pairs, as
 * SurrogateCheck requires), so every error is still found by yajl, or by
 * the callbacks, in the text as it is. A `/` between tokens (a comment,
 * when they are allowed) or anything the scan would have to guess about
 * stops it for the rest of the parse: from there yajl sees every string.
 */

#include "cartograph_tape.h"

/// The value of four hex digits, or -1.
static inline int32_t hex4(const uint8_t *digits) {
    int32_t value = 0;
    for (int index = 0; index < 4; index++) {
        uint8_t byte = digits[index];
        int32_t digit;
        if (byte >= '0' && byte <= '9') digit = byte - '0';
        else if (byte >= 'a' && byte <= 'f') digit = byte - 'a' + 10;
        else if (byte >= 'A' && byte <= 'F') digit = byte - 'A' + 10;
        else return -1;
        value = value << 4 | digit;
    }
    return value;
}

/// The length of the escape at `at` (a backslash): 2, 6, or 12 for a
/// surrogate pair; 0 when yajl or the surrogate check would reject it; -1
/// when the chunk ends before it can be told.
static inline intptr_t escape_length(const uint8_t *bytes, intptr_t at, intptr_t count) {
    if (at + 2 > count) return -1;
    switch (bytes[at + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return 2;
    case 'u':
        break;
    default:
        return 0;
    }
    if (at + 6 > count) return -1;
    int32_t unit = hex4(bytes + at + 2);
    if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return 0;
    if (unit < 0xD800 || unit > 0xDBFF) return 6;
    if (at + 12 > count) return -1;
    if (bytes[at + 6] != '\\' || bytes[at + 7] != 'u') return 0;
    int32_t low = hex4(bytes + at + 8);
    return low >= 0xDC00 && low <= 0xDFFF ? 12 : 0;
}

static inline intptr_t put_utf8(uint8_t *target, uint32_t code) {
    if (code < 0x80) {
        target[0] = (uint8_t)code;
        return 1;
    }
    if (code < 0x800) {
        target[0] = (uint8_t)(0xC0 | code >> 6);
        target[1] = (uint8_t)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        target[0] = (uint8_t)(0xE0 | code >> 12);
        target[1] = (uint8_t)(0x80 | (code >> 6 & 0x3F));
        target[2] = (uint8_t)(0x80 | (code & 0x3F));
        return 3;
    }
    target[0] = (uint8_t)(0xF0 | code >> 18);
    target[1] = (uint8_t)(0x80 | (code >> 12 & 0x3F));
    target[2] = (uint8_t)(0x80 | (code >> 6 & 0x3F));
    target[3] = (uint8_t)(0x80 | (code & 0x3F));
    return 4;
}

/// Decodes the valid escape at `*from` (a backslash) into `target`;
/// returns the bytes written and moves `*from` past it.
static inline intptr_t decode_escape(uint8_t *target, const uint8_t *body, intptr_t *from) {
    uint8_t escaped = body[*from + 1];
    uint8_t byte;
    switch (escaped) {
    case 'b': byte = '\b'; break;
    case 'f': byte = '\f'; break;
    case 'n': byte = '\n'; break;
    case 'r': byte = '\r'; break;
    case 't': byte = '\t'; break;
    case 'u': {
        uint32_t code = (uint32_t)hex4(body + *from + 2);
        *from += 6;
        if (code >= 0xD800 && code <= 0xDBFF) {
            uint32_t low = (uint32_t)hex4(body + *from + 2);
            *from += 6;
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
        }
        return put_utf8(target, code);
    }
    default: byte = escaped; break; /* " \ / */
    }
    *from += 2;
    target[0] = byte;
    return 1;
}

/// Decodes from `from` to `count`, memchr from escape to escape.
static intptr_t decode_scalar(uint8_t *target, const uint8_t *body, intptr_t from, intptr_t written, intptr_t count) {
    while (from < count) {
        const uint8_t *backslash = memchr(body + from, '\\', (size_t)(count - from));
        intptr_t run = (backslash != NULL ? backslash - body : count) - from;
        memcpy(target + written, body + from, (size_t)run);
        written += run;
        from += run;
        if (backslash == NULL) break;
        written += decode_escape(target + written, body, &from);
    }
    return written;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

/// The first quote or `/` at or after `at` (between tokens), or `count`.
__attribute__((target("avx2")))
static inline intptr_t find_between(const uint8_t *bytes, intptr_t at, intptr_t count) {
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i slash = _mm256_set1_epi8('/');
    for (; at + 32 <= count; at += 32) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + at));
        uint32_t hits = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(block, quote), _mm256_cmpeq_epi8(block, slash)));
        if (hits != 0) return at + __builtin_ctz(hits);
    }
    for (; at < count; at++) {
        if (bytes[at] == '"' || bytes[at] == '/') return at;
    }
    return count;
}

/// The first quote, backslash or byte below 0x20 at or after `at` (in a
/// string), or `count`.
__attribute__((target("avx2")))
static inline intptr_t find_in_string(const uint8_t *bytes, intptr_t at, intptr_t count) {
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i control = _mm256_set1_epi8(0x1F);
    for (; at + 32 <= count; at += 32) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + at));
        __m256i special = _mm256_or_si256(_mm256_cmpeq_epi8(block, quote), _mm256_cmpeq_epi8(block, backslash));
        special = _mm256_or_si256(special, _mm256_cmpeq_epi8(_mm256_min_epu8(block, control), block));
        uint32_t hits = (uint32_t)_mm256_movemask_epi8(special);
        if (hits != 0) return at + __builtin_ctz(hits);
    }
    for (; at < count; at++) {
        uint8_t byte = bytes[at];
        if (byte == '"' || byte == '\\' || byte < 0x20) return at;
    }
    return count;
}

/// From `at` in a string's body, 32 bytes at a step (escapes are checked
/// where the step finds them, without a new search after each): the
/// offset of its closing quote, of a byte below 0x20, of an escape yajl or
/// the surrogate check rejects (`*bad` set), of an escape the chunk ends
/// within, or `count`. Sets `*escaped` when it passes an escape.
__attribute__((target("avx2")))
static inline intptr_t body_end(const uint8_t *bytes, intptr_t at, intptr_t count, intptr_t *escaped, int *bad) {
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i control = _mm256_set1_epi8(0x1F);
    while (at + 32 <= count) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(bytes + at));
        uint32_t backslashes = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, backslash));
        uint32_t stops = (uint32_t)_mm256_movemask_epi8(
            _mm256_or_si256(_mm256_cmpeq_epi8(block, quote), _mm256_cmpeq_epi8(_mm256_min_epu8(block, control), block)));
        intptr_t next = 32;
        for (;;) {
            /* The escapes before the first quote or control byte. */
            uint32_t ahead = stops != 0 ? backslashes & ((stops & (0u - stops)) - 1) : backslashes;
            if (ahead == 0) {
                if (stops != 0) return at + __builtin_ctz(stops);
                break;
            }
            intptr_t index = __builtin_ctz(ahead);
            intptr_t length = escape_length(bytes, at + index, count);
            if (length <= 0) {
                *bad = length == 0;
                return at + index;
            }
            *escaped = 1;
            next = index + length;
            if (next >= 32) break;
            /* A quote or backslash inside the escape is not one. */
            backslashes &= ~0u << next;
            stops &= ~0u << next;
            next = 32;
        }
        at += next;
    }
    while (at < count) {
        uint8_t byte = bytes[at];
        if (byte == '"' || byte < 0x20) return at;
        if (byte != '\\') {
            at += 1;
            continue;
        }
        intptr_t length = escape_length(bytes, at, count);
        if (length <= 0) {
            *bad = length == 0;
            return at;
        }
        *escaped = 1;
        at += length;
    }
    return count;
}

/// cartograph_decode_escapes 32 bytes at a step: each step is stored
/// whole, and where it holds a backslash the text goes on from the escape
/// decoded there (no call per escape).
__attribute__((target("avx2")))
static intptr_t decode_avx2(uint8_t *target, const uint8_t *body, intptr_t count) {
    const __m256i backslash = _mm256_set1_epi8('\\');
    intptr_t from = 0, written = 0;
    /* written <= from, so a step's store ends within the `count` bytes. */
    while (from + 32 <= count) {
        __m256i block = _mm256_loadu_si256((const __m256i *)(body + from));
        _mm256_storeu_si256((__m256i *)(target + written), block);
        uint32_t backslashes = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(block, backslash));
        if (backslashes == 0) {
            from += 32;
            written += 32;
            continue;
        }
        intptr_t index = __builtin_ctz(backslashes);
        from += index;
        written += index;
        written += decode_escape(target + written, body, &from);
    }
    return decode_scalar(target, body, from, written, count);
}

/// Goes through the rest of a string that is not left out (it began in an
/// earlier chunk, or its escapes run past this one), only finding its end
/// as yajl would. Returns the offset after it, or `count` with `state`
/// saying where the chunk left it.
__attribute__((target("avx2")))
static intptr_t skip_string(const uint8_t *bytes, intptr_t at, intptr_t count, int *state) {
    if (*state == CARTOGRAPH_SCAN_AFTER_BACKSLASH) {
        if (at >= count) return count;
        at += 1;
    }
    for (;;) {
        at = find_in_string(bytes, at, count);
        if (at >= count) {
            *state = CARTOGRAPH_SCAN_IN_STRING;
            return count;
        }
        uint8_t byte = bytes[at];
        if (byte == '"') {
            *state = CARTOGRAPH_SCAN_BETWEEN;
            return at + 1;
        }
        if (byte != '\\') {
            *state = CARTOGRAPH_SCAN_STOPPED; /* yajl stops here */
            return at;
        }
        if (at + 2 > count) {
            *state = CARTOGRAPH_SCAN_AFTER_BACKSLASH;
            return count;
        }
        at += 2;
    }
}

__attribute__((target("avx2")))
void cartograph_scan_strings(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base, intptr_t until,
    intptr_t minimum) {
    int state = tape->scan_state;
    intptr_t at = tape->scan_position - base;
    if (state == CARTOGRAPH_SCAN_STOPPED) return;
    if (state != CARTOGRAPH_SCAN_BETWEEN) at = skip_string(bytes, at, count, &state);
    while (state == CARTOGRAPH_SCAN_BETWEEN && at < until) {
        at = find_between(bytes, at, count);
        if (at >= count) break;
        if (bytes[at] == '/') {
            state = CARTOGRAPH_SCAN_STOPPED;
            break;
        }
        const intptr_t body = at + 1;
        intptr_t escaped = 0;
        int bad = 0;
        at = body_end(bytes, body, count, &escaped, &bad);
        if (bad) {
            /* An escape yajl or the surrogate check rejects: the string
               stays in the copy for them to report. */
            state = CARTOGRAPH_SCAN_STOPPED;
            break;
        }
        if (at >= count || bytes[at] == '\\') {
            /* It goes on into the next chunk (an escape too, maybe):
               found to its end as yajl would, not left out. */
            state = CARTOGRAPH_SCAN_IN_STRING;
            at = skip_string(bytes, at, count, &state);
            break;
        }
        if (bytes[at] != '"') {
            state = CARTOGRAPH_SCAN_STOPPED; /* a control character */
            break;
        }
        const intptr_t end = at;
        at += 1;
        tape->scanned_strings += 1;
        if (end - body < minimum || end - body > tape->max_string || end + 96 > count) continue;
        if (tape->elided_count == tape->elided_capacity) {
            state = CARTOGRAPH_SCAN_STOPPED;
            break;
        }
        cartograph_elided_string *string = tape->elided + tape->elided_count++;
        string->start = base + body;
        string->end = base + end;
        string->escaped = escaped;
        tape->scanned_long_bytes += end - body;
        /* The copy may go on past a string it leaves out (up to 32 bytes
           after it) before it can end a block: scanned that far too. */
        if (end + 64 > until) until = end + 64;
    }
    tape->scan_state = state;
    tape->scan_position = base + at;
}

intptr_t cartograph_decode_escapes(uint8_t *target, const uint8_t *body, intptr_t count) {
    if (cartograph_has_avx2()) return decode_avx2(target, body, count);
    return decode_scalar(target, body, 0, 0, count);
}
#else
intptr_t cartograph_decode_escapes(uint8_t *target, const uint8_t *body, intptr_t count) {
    return decode_scalar(target, body, 0, 0, count);
}

void cartograph_scan_strings(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base, intptr_t until,
    intptr_t minimum) {
    (void)bytes, (void)count, (void)base, (void)until, (void)minimum;
    tape->scan_state = CARTOGRAPH_SCAN_STOPPED;
}
#endif
