/*
 * yajl's callbacks, appending to a Document's tape (see cartograph_tape.h).
 *
 * Each callback does what Swift's DocumentBuilder does for the same event
 * (DocumentBuilder stays the builder of every other reader and of streamed
 * parses): check the limits, validate and copy the text, append one entry,
 * and keep the open containers. An object's duplicate keys are looked for
 * when it closes. Each key gets a cheap signature as it is read (its length
 * and its first and last eight bytes, mixed); small objects compare
 * signatures pairwise, larger ones go through an open-addressing table
 * indexed by the signature mixed with the per-process seed. Keys built to
 * share a signature (same length, same ends) cost a byte comparison each;
 * once those exceed the object's key count, the table is rebuilt with the
 * seeded hash of every byte (cartograph_key_hash), so the work stays linear
 * on any input. Only an object that may hold a repeated key (equal bytes)
 * or a non-ASCII key goes back to Swift.
 */

#include "cartograph_tape.h"

#include <stddef.h>
#include <stdlib.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

enum {
    KIND_NULL = 0,
    KIND_FALSE = 1,
    KIND_TRUE = 2,
    KIND_NUMBER = 3,
    KIND_STRING = 4,
    KIND_KEY = 5,
    KIND_ARRAY = 6,
    KIND_OBJECT = 7,
};

enum {
    FLAG_CANONICAL_KEYS = 32,
};

/// Objects up to this many keys compare their key signatures pairwise.
#define PAIRWISE_KEYS 16

static inline cartograph_tape_entry *entries_of(cartograph_yajl_tape *tape) {
    return (cartograph_tape_entry *)tape->entries;
}

static int fail(cartograph_yajl_tape *tape, int failure, intptr_t value, intptr_t source) {
    if (tape->failure == CARTOGRAPH_TAPE_OK) {
        tape->failure = failure;
        tape->failure_value = value;
        tape->failure_source = source;
    }
    return 0;
}

/// The absolute offset of byte `lexed` of the text yajl is lexing: one
/// comparison more than for text given as it is. The callbacks ask about
/// their tokens in order, so the shifts are only stepped forward (the last
/// is followed by one at INTPTR_MAX).
static inline intptr_t absolute_offset(cartograph_yajl_tape *tape, intptr_t lexed) {
    if (__builtin_expect(lexed >= tape->next_shift_at, 0)) {
        const cartograph_lexed_shift *shift = tape->shifts + tape->shift_index;
        do {
            tape->lexed_origin = shift->origin;
            shift += 1;
        } while (shift->at <= lexed);
        tape->shift_index = shift - tape->shifts;
        tape->next_shift_at = shift->at;
    }
    return tape->lexed_origin + lexed;
}

/// Absolute offset just past the token yajl has read.
static inline intptr_t token_end(cartograph_yajl_tape *tape) {
    size_t consumed = tape->consumed != NULL ? *tape->consumed : yajl_get_bytes_consumed((yajl_handle)tape->handle);
    intptr_t end = absolute_offset(tape, (intptr_t)consumed);
    tape->last_token_end = end;
    return end;
}

/// Whether a token's text is in the text yajl was given (not in its own
/// buffer: decoded escapes, or a token carried over from earlier text).
static inline int in_lexed(const cartograph_yajl_tape *tape, const uint8_t *pointer) {
    uintptr_t start = (uintptr_t)tape->lexed_start;
    uintptr_t address = (uintptr_t)pointer;
    return tape->lexed_start != NULL && address >= start && address < start + (uintptr_t)tape->lexed_count;
}

/// Grows a C-owned array of `size`-byte elements to hold `needed`; an
/// array still in `inline_buffer` (the tape's own room) is copied out.
static int grow_scratch(void **array, intptr_t *capacity, intptr_t needed, size_t size, void *inline_buffer) {
    if (needed <= *capacity) return 1;
    intptr_t grown = *capacity < 16 ? 16 : *capacity * 2;
    while (grown < needed) grown *= 2;
    int in_place = *array != NULL && *array == inline_buffer;
    void *moved = realloc(in_place ? NULL : *array, (size_t)grown * size);
    if (moved == NULL) return 0;
    if (in_place) memcpy(moved, inline_buffer, (size_t)*capacity * size);
    *array = moved;
    *capacity = grown;
    return 1;
}

/// Makes room for `needed` more text bytes; returns the offset they go at
/// (the caller writes them, then adds them to byte_count).
static inline intptr_t text_room(cartograph_yajl_tape *tape, intptr_t needed) {
    if (tape->byte_count + needed > tape->byte_capacity) tape->grow(tape->context, 0, needed);
    return tape->byte_count;
}

/// Copies text onto the tape (NUL-terminated with `terminate`); returns its offset.
static inline intptr_t append_bytes(cartograph_yajl_tape *tape, const uint8_t *source, intptr_t length, int terminate) {
    intptr_t needed = length + terminate;
    intptr_t offset = text_room(tape, needed);
    if (length > 0) cartograph_copy_text(tape->bytes + offset, source, length);
    if (terminate) tape->bytes[offset + length] = 0;
    tape->byte_count += needed;
    return offset;
}

/// Writes one entry's fields.
__attribute__((always_inline)) static inline void write_entry(cartograph_tape_entry *entry, uint8_t kind, uint32_t length, intptr_t payload, intptr_t source) {
    // A whole document's offsets fit (the parse limits keep its input and
    // text below 4 GiB, Tape.maxOffset); the source is 48 bits, as in Swift.
    entry->kind = kind;
    entry->flags = 0;
    // A brace-less object's `{` (given by the parser, not in the input)
    // sits at -1: it reads as 0, as in Swift.
    uint64_t offset = source < 0 ? 0 : (uint64_t)source;
    entry->source_low = (uint16_t)offset;
    entry->length = length;
    entry->payload = (uint32_t)payload;
    entry->source_high = (uint32_t)(offset >> 16);
}

__attribute__((always_inline)) static inline intptr_t append_entry(cartograph_yajl_tape *tape, uint8_t kind, uint32_t length, intptr_t payload, intptr_t source) {
    if (tape->count == tape->capacity) tape->grow(tape->context, 1, 0);
    intptr_t index = tape->count++;
    write_entry(entries_of(tape) + index, kind, length, payload, source);
    return index;
}

/// Appends a value: a root at the top level, an element in an array.
__attribute__((always_inline)) static inline int append_value(cartograph_yajl_tape *tape, uint8_t kind, uint32_t length, intptr_t payload, intptr_t source) {
    intptr_t index = append_entry(tape, kind, length, payload, source);
    cartograph_tape_frame *top = tape->top;
    if (top->depth == 0) {
        if (!grow_scratch((void **)&tape->roots, &tape->root_capacity, tape->root_count + 1, sizeof(intptr_t), tape->inline_roots)) {
            return fail(tape, CARTOGRAPH_TAPE_OUT_OF_MEMORY, 0, source);
        }
        tape->roots[tape->root_count++] = index;
    } else if (!top->is_object) {
        top->count += 1;
    }
    return 1;
}

/// Records the first byte of invalid UTF-8 text; returns 0.
static int invalid_text(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t bad, intptr_t source) {
    tape->failure_byte = bytes[bad];
    return fail(tape, CARTOGRAPH_TAPE_INVALID_UTF8, bad, source);
}

/// Checks a string's or key's length and UTF-8. With `ascii`, sets it
/// (keys: an object with a non-ASCII key is flagged). Strings of 32 bytes
/// and more do not come here: append_checked_text checks them as it copies.
static inline int check_text(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t source, int *ascii) {
    if (count > tape->max_string) return fail(tape, CARTOGRAPH_TAPE_STRING_TOO_LONG, count, source);
    if (count == 0) {
        if (ascii) *ascii = 1;
        return 1;
    }
    int is_ascii = cartograph_utf8_is_ascii(bytes, count);
    if (ascii) *ascii = is_ascii;
    if (!is_ascii) {
        intptr_t bad = cartograph_utf8_first_invalid(bytes, count);
        if (bad >= 0) return invalid_text(tape, bytes, bad, source);
    }
    return 1;
}

/// Checks and copies a string's text in one pass (the validator's vector
/// path stores each block it reads): for text of 32 bytes and more, which
/// check_text sends to the validator anyway. On strings.json this pass
/// replaced a read by memcpy of 1.4 MB a decode. Returns its offset, or -1.
static inline intptr_t append_checked_text(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t source) {
    if (count > tape->max_string) return fail(tape, CARTOGRAPH_TAPE_STRING_TOO_LONG, count, source) - 1;
    intptr_t offset = text_room(tape, count);
    intptr_t bad = cartograph_utf8_copy_first_invalid(tape->bytes + offset, bytes, count);
    if (bad >= 0) return invalid_text(tape, bytes, bad, source) - 1;
    tape->byte_count += count;
    return offset;
}

/// A string whose body the copy left out (the next in `elided`): points
/// `bytes` and `count` at its body in the input, or at its decoded escapes;
/// returns where its opening quote is, or -1 after a failure.
__attribute__((noinline)) static intptr_t elided_string(cartograph_yajl_tape *tape, const uint8_t **bytes, intptr_t *count) {
    const cartograph_elided_string *string = tape->elided + tape->elided_next++;
    const uint8_t *body = tape->chunk_start + (string->start - tape->chunk_base);
    intptr_t length = string->end - string->start;
    tape->last_token_end = string->end + 1;
    tape->elided_total += 1;
    if (string->escaped) {
        if (!grow_scratch((void **)&tape->decoded, &tape->decoded_capacity, length, 1, NULL)) {
            return fail(tape, CARTOGRAPH_TAPE_OUT_OF_MEMORY, 0, string->start - 1) - 1;
        }
        length = cartograph_decode_escapes(tape->decoded, body, length);
        body = tape->decoded;
    }
    *bytes = body;
    *count = length;
    return string->start - 1;
}

/// Where a string token starts: raw text in the lexed text has its quotes
/// right around it; text yajl decoded (escapes) or carried over is located
/// by Swift. A string whose body was left out of the lexed text comes as
/// `""`: `bytes` and `count` are pointed at its body. yajl hands the first
/// token of every call after the first from its own buffer, so a left-out
/// string that opens a block is known by where it ends.
__attribute__((always_inline)) static inline intptr_t string_start(cartograph_yajl_tape *tape, const uint8_t **bytes, intptr_t *count) {
    if (in_lexed(tape, *bytes)) {
        intptr_t body = absolute_offset(tape, *bytes - tape->lexed_start);
        if (*count == 0 && tape->elided_next < tape->elided_count && tape->elided[tape->elided_next].end == body) {
            return elided_string(tape, bytes, count);
        }
        intptr_t start = body - 1;
        tape->last_token_end = start + *count + 2;
        return start;
    }
    if (*count == 0 && tape->elided_next < tape->elided_count && tape->elided[tape->elided_next].end + 1 == token_end(tape)) {
        return elided_string(tape, bytes, count);
    }
    intptr_t start = tape->escaped_string_start(tape->context, *bytes, *count);
    if (start < 0) fail(tape, CARTOGRAPH_TAPE_REPORTED, 0, 0);
    return start;
}

__attribute__((noinline)) static int literal_general(cartograph_yajl_tape *tape, uint8_t kind, intptr_t length) {
    return append_value(tape, kind, 0, 0, token_end(tape) - length);
}

__attribute__((noinline)) static int on_number_general(cartograph_yajl_tape *tape, const char *text, size_t length) {
    const uint8_t *bytes = (const uint8_t *)text;
    intptr_t count = (intptr_t)length;
    intptr_t start;
    if (in_lexed(tape, bytes)) {
        start = absolute_offset(tape, bytes - tape->lexed_start);
        tape->last_token_end = start + count;
    } else {
        start = token_end(tape) - count;
    }
    if (count > tape->max_number) return fail(tape, CARTOGRAPH_TAPE_NUMBER_TOO_LONG, count, start);
    intptr_t offset;
    if (count > 16 && count <= 32) {
        /* Two overlapping 16-byte moves, as on_number's fast path makes
           them, where append_bytes called memcpy (a call per number, 2.7%
           of a canada decode's time in memmove). Not in append_bytes:
           inlined into every text callback, the same moves cost more than
           they saved (wide.json). */
        offset = text_room(tape, count + 1);
        uint8_t *target = tape->bytes + offset;
        uint64_t head[2], tail[2];
        memcpy(head, bytes, 16);
        memcpy(tail, bytes + count - 16, 16);
        memcpy(target, head, 16);
        memcpy(target + count - 16, tail, 16);
        target[count] = 0;
        tape->byte_count += count + 1;
    } else {
        offset = append_bytes(tape, bytes, count, 1);
    }
    return append_value(tape, KIND_NUMBER, (uint32_t)count, offset, start);
}

__attribute__((noinline)) static int on_string_general(cartograph_yajl_tape *tape, const unsigned char *text, size_t length) {
    const uint8_t *bytes = text;
    intptr_t count = (intptr_t)length;
    intptr_t start = string_start(tape, &bytes, &count);
    if (start < 0) return 0;
    intptr_t offset;
    if (count >= 32) {
        offset = append_checked_text(tape, bytes, count, start);
        if (offset < 0) return 0;
    } else {
        if (!check_text(tape, bytes, count, start, NULL)) return 0;
        offset = append_bytes(tape, bytes, count, 0);
    }
    return append_value(tape, KIND_STRING, (uint32_t)count, offset, start);
}

/// A key's length and first and last eight bytes (all of a key up to
/// sixteen bytes), mixed into one word: equal keys have equal signatures,
/// and distinct ones rarely do unless built to.
static inline uint64_t signature_of(uint64_t head, uint64_t tail, intptr_t count) {
    return (head ^ (tail * 0x9E3779B97F4A7C15ULL)) + (uint64_t)count * 0xC2B2AE3D27D4EB4FULL;
}

static inline uint64_t key_signature(const uint8_t *bytes, intptr_t count) {
    uint64_t head = 0, tail = 0;
    if (count >= 8) {
        head = cartograph_load64(bytes);
        tail = cartograph_load64(bytes + count - 8);
    } else if (count >= 4) {
        head = cartograph_load32(bytes);
        tail = cartograph_load32(bytes + count - 4);
    } else if (count > 0) {
        head = (uint64_t)bytes[0] | (uint64_t)bytes[count / 2] << 8 | (uint64_t)bytes[count - 1] << 16;
    }
    return signature_of(head, tail, count);
}

/// Text of 1 to 32 bytes as up to four overlapping words: copied to
/// `target` and, through `signature`, signed as key_signature signs it.
/// Returns 0 (and writes nothing) when a byte is not ASCII.
__attribute__((always_inline)) static inline int fast_copy_ascii(uint8_t *target, const uint8_t *bytes, intptr_t count, uint64_t *signature) {
    if (count > 16) {
        uint64_t a = cartograph_load64(bytes), b = cartograph_load64(bytes + 8);
        uint64_t c = cartograph_load64(bytes + count - 16), d = cartograph_load64(bytes + count - 8);
        if (((a | b | c | d) & 0x8080808080808080ULL) != 0) return 0;
        memcpy(target, &a, 8);
        memcpy(target + 8, &b, 8);
        memcpy(target + count - 16, &c, 8);
        memcpy(target + count - 8, &d, 8);
        *signature = signature_of(a, d, count);
    } else if (count >= 8) {
        uint64_t head = cartograph_load64(bytes), tail = cartograph_load64(bytes + count - 8);
        if (((head | tail) & 0x8080808080808080ULL) != 0) return 0;
        memcpy(target, &head, 8);
        memcpy(target + count - 8, &tail, 8);
        *signature = signature_of(head, tail, count);
    } else if (count >= 4) {
        uint32_t head = cartograph_load32(bytes), tail = cartograph_load32(bytes + count - 4);
        if (((head | tail) & 0x80808080U) != 0) return 0;
        memcpy(target, &head, 4);
        memcpy(target + count - 4, &tail, 4);
        *signature = signature_of(head, tail, count);
    } else {
        uint32_t head = (uint32_t)bytes[0] | (uint32_t)bytes[count / 2] << 8 | (uint32_t)bytes[count - 1] << 16;
        if ((head & 0x808080U) != 0) return 0;
        target[0] = (uint8_t)head;
        target[count / 2] = (uint8_t)(head >> 8);
        target[count - 1] = (uint8_t)(head >> 16);
        *signature = signature_of(head, 0, count);
    }
    return 1;
}

__attribute__((noinline)) static int on_key_general(cartograph_yajl_tape *tape, const unsigned char *text, size_t length) {
    const uint8_t *bytes = text;
    intptr_t count = (intptr_t)length;
    intptr_t start = string_start(tape, &bytes, &count);
    if (start < 0) return 0;
    cartograph_tape_frame *top = tape->top;
    if (top->depth == 0 || !top->is_object) return fail(tape, CARTOGRAPH_TAPE_KEY_OUTSIDE_OBJECT, 0, start);
    if (top->count >= tape->max_keys) return fail(tape, CARTOGRAPH_TAPE_TOO_MANY_KEYS, top->count + 1, start);
    if (!grow_scratch((void **)&tape->keys, &tape->key_capacity, tape->key_count + 1, sizeof(cartograph_tape_key), tape->inline_keys)) {
        return fail(tape, CARTOGRAPH_TAPE_OUT_OF_MEMORY, 0, start);
    }
    /* Keys of 1 to 32 ASCII bytes (most keys): their words are read once
       for the check, the copy and the signature (fast_copy_ascii). */
    intptr_t offset = -1;
    uint64_t signature;
    if (count >= 1 && count <= 32 && count <= tape->max_string) {
        intptr_t room = text_room(tape, count);
        if (fast_copy_ascii(tape->bytes + room, bytes, count, &signature)) {
            offset = room;
            tape->byte_count += count;
        }
    }
    if (offset < 0) {
        int ascii;
        if (!check_text(tape, bytes, count, start, &ascii)) return 0;
        if (!ascii) top->has_non_ascii_key = 1;
        offset = append_bytes(tape, bytes, count, 0);
        signature = key_signature(bytes, count);
    }
    top->count += 1;
    intptr_t index = append_entry(tape, KIND_KEY, (uint32_t)count, offset, start);
    cartograph_tape_key *key = tape->keys + tape->key_count++;
    key->signature = signature;
    key->entry = index;
    return 1;
}

__attribute__((noinline)) static int begin_general(cartograph_yajl_tape *tape, int is_object) {
    intptr_t source = token_end(tape) - 1;
    intptr_t depth = tape->top->depth;
    if (depth >= tape->max_depth) return fail(tape, CARTOGRAPH_TAPE_TOO_DEEP, depth + 1, source);
    if (tape->frame_count == tape->frame_capacity) {
        if (!grow_scratch((void **)&tape->frames, &tape->frame_capacity, tape->frame_count + 1, sizeof(cartograph_tape_frame),
                tape->inline_frames)) {
            return fail(tape, CARTOGRAPH_TAPE_OUT_OF_MEMORY, 0, source);
        }
        tape->top = tape->frames + tape->frame_count - 1;
    }
    intptr_t index = tape->count;
    if (!append_value(tape, is_object ? KIND_OBJECT : KIND_ARRAY, 0, 0, source)) return 0;
    /* Written field by field in place: copying whole frames in and out
       stalled on store forwarding (a third of this function, perf). */
    cartograph_tape_frame *opened = tape->frames + tape->frame_count++;
    opened->entry = index;
    opened->count = 0;
    opened->first_key = tape->key_count;
    opened->depth = depth + 1;
    opened->is_object = (uint8_t)is_object;
    opened->has_non_ascii_key = 0;
    tape->top = opened;
    return 1;
}

static inline int same_key(cartograph_yajl_tape *tape, intptr_t first, intptr_t second) {
    const cartograph_tape_entry *a = entries_of(tape) + first;
    const cartograph_tape_entry *b = entries_of(tape) + second;
    return a->length == b->length && memcmp(tape->bytes + a->payload, tape->bytes + b->payload, a->length) == 0;
}

/// Prepares the duplicate table for `count` keys: a new generation (no clearing).
static int prepare_table(cartograph_yajl_tape *tape, intptr_t count, uintptr_t *mask) {
    intptr_t size = 64;
    while (size < count * 2) size <<= 1;
    if (size > tape->table_capacity || tape->table_generation == UINT32_MAX) {
        intptr_t capacity = size > tape->table_capacity ? size : tape->table_capacity;
        uint64_t *table = calloc((size_t)capacity, sizeof(uint64_t));
        if (table == NULL) return 0;
        free(tape->table);
        tape->table = table;
        tape->table_capacity = capacity;
        tape->table_generation = 0;
    }
    tape->table_generation += 1;
    *mask = (uintptr_t)size - 1;
    return 1;
}

/// Looks for two keys with the same bytes through the table, each key
/// placed by its seeded hash of every byte, `hashes[ordinal]` (keys built to
/// share a signature: see table_search_signatures). Returns 1 for a
/// repeated key, 0 for none.
static int table_search_hashes(cartograph_yajl_tape *tape, const cartograph_tape_key *keys, intptr_t count, const uint64_t *hashes) {
    uintptr_t mask;
    if (!prepare_table(tape, count, &mask)) return 1; /* Swift checks with its own table */
    uint64_t generation = tape->table_generation;
    for (intptr_t ordinal = 0; ordinal < count; ordinal++) {
        uint64_t hash = hashes[ordinal];
        uintptr_t slot = (uintptr_t)(cartograph_key_hash_mix(hash) >> 7) & mask;
        for (;;) {
            uint64_t occupant = tape->table[slot];
            if (occupant >> 32 != generation) {
                tape->table[slot] = generation << 32 | (uint64_t)ordinal;
                break;
            }
            intptr_t earlier = (intptr_t)(occupant & 0xFFFFFFFFU);
            if (hashes[earlier] == hash && same_key(tape, keys[earlier].entry, keys[ordinal].entry)) return 1;
            slot = (slot + 1) & mask;
        }
    }
    return 0;
}

/// Looks for two keys with the same bytes through the table, each key
/// placed by its signature mixed with the per-process seed. Returns 1 for a
/// repeated key, 0 for none, -1 when more than `count` pairs had the same
/// signature but different bytes (keys built to collide). Kept apart from
/// the hashed search, with what every key needs held in locals: one
/// function serving both took about 40 instructions a key on wide.json
/// (300 keys an object), re-reading the tape's fields and choosing
/// between the two hash sources per key and per probe.
__attribute__((noinline)) static int table_search_signatures(cartograph_yajl_tape *tape, const cartograph_tape_key *keys, intptr_t count) {
    uintptr_t mask;
    if (!prepare_table(tape, count, &mask)) return 1; /* Swift checks with its own table */
    uint64_t *table = tape->table;
    const uint64_t generation = tape->table_generation << 32;
    const uint64_t seed = tape->seed;
    intptr_t budget = count;
    for (intptr_t ordinal = 0; ordinal < count; ordinal++) {
        const uint64_t signature = keys[ordinal].signature;
        uintptr_t slot = (uintptr_t)(cartograph_key_hash_mix(signature ^ seed) >> 7) & mask;
        for (;;) {
            const uint64_t occupant = table[slot];
            if ((occupant & 0xFFFFFFFF00000000ULL) != generation) {
                table[slot] = generation | (uint64_t)ordinal;
                break;
            }
            const intptr_t earlier = (intptr_t)(occupant & 0xFFFFFFFFU);
            if (keys[earlier].signature == signature) {
                if (same_key(tape, keys[earlier].entry, keys[ordinal].entry)) return 1;
                if (--budget < 0) return -1;
            }
            slot = (slot + 1) & mask;
        }
    }
    return 0;
}

/// Whether two keys of the closing object have the same bytes.
static int has_repeated_key(cartograph_yajl_tape *tape, const cartograph_tape_key *keys, intptr_t count) {
    if (count <= PAIRWISE_KEYS) {
        /* At most 120 pairs; equal signatures are confirmed on the bytes. */
        for (intptr_t later = 1; later < count; later++) {
            for (intptr_t earlier = 0; earlier < later; earlier++) {
                if (keys[earlier].signature == keys[later].signature && same_key(tape, keys[earlier].entry, keys[later].entry)) return 1;
            }
        }
        return 0;
    }
    if (count >= (intptr_t)1 << 30) return 1; /* beyond the table's ordinals: Swift checks */
    int found = table_search_signatures(tape, keys, count);
    if (found >= 0) return found;
    /* Signatures built to collide: every byte, seeded. */
    uint64_t *hashes = malloc((size_t)count * sizeof(uint64_t));
    if (hashes == NULL) return 1;
    const cartograph_tape_entry *entries = entries_of(tape);
    for (intptr_t ordinal = 0; ordinal < count; ordinal++) {
        const cartograph_tape_entry *key = entries + keys[ordinal].entry;
        hashes[ordinal] = cartograph_key_hash(tape->bytes + key->payload, key->length, tape->seed);
    }
    found = table_search_hashes(tape, keys, count, hashes);
    free(hashes);
    return found != 0;
}

__attribute__((noinline)) static int on_end_general(cartograph_yajl_tape *tape) {
    intptr_t end = token_end(tape);
    const cartograph_tape_frame *frame = tape->top;
    if (frame->depth == 0 || tape->frame_count <= 1) return fail(tape, CARTOGRAPH_TAPE_UNOPENED_CLOSE, 0, end - 1);
    intptr_t count = frame->count;
    cartograph_tape_entry *entry = entries_of(tape) + frame->entry;
    if (frame->is_object) {
        if (count > 1
            && (frame->has_non_ascii_key || has_repeated_key(tape, tape->keys + frame->first_key, tape->key_count - frame->first_key))) {
            count = tape->resolve_duplicates(tape->context, frame->entry, count, frame->has_non_ascii_key);
            if (count < 0) return fail(tape, CARTOGRAPH_TAPE_REPORTED, 0, 0);
            entry = entries_of(tape) + frame->entry;
        }
        if (frame->has_non_ascii_key) entry->flags |= FLAG_CANONICAL_KEYS;
        tape->key_count = frame->first_key;
    }
    entry->length = (uint32_t)count;
    entry->payload = (uint32_t)tape->count;
    tape->frame_count -= 1;
    tape->top = tape->frames + tape->frame_count - 1;
    return 1;
}

/*
 * The callbacks yajl calls: each first tries the common case with no call
 * in it (a token in the text yajl was given, ASCII text of up to 32 bytes,
 * room for its entry and text, inside an open container), and
 * otherwise hands the token to the general callback above, which does
 * everything (growth, limits, failures, roots, long or non-ASCII text,
 * left-out strings, repeated keys). A fast path changes nothing before it
 * has decided (but for stepping past a shift, which the general path would
 * do the same way), so the general one starts from the same state. A
 * callback with a call anywhere in it saved and restored six registers and
 * spilled its arguments on every token: 16 to 20 instructions of about
 * 80 to 120 a token.
 */

/// The absolute end of the token yajl has just read, when yajl's count is
/// read in place; -1 otherwise. Stepping past a shift (absolute_offset)
/// changes nothing a general callback would then do differently.
__attribute__((always_inline)) static inline intptr_t fast_token_end(cartograph_yajl_tape *tape) {
    const size_t *consumed = tape->consumed;
    if (consumed == NULL) return -1;
    return absolute_offset(tape, (intptr_t)*consumed);
}

/// The absolute offset of a token that lies in the text yajl was given;
/// -1 otherwise (decoded escapes, text carried over).
__attribute__((always_inline)) static inline intptr_t fast_absolute_start(cartograph_yajl_tape *tape, const uint8_t *bytes) {
    if (!in_lexed(tape, bytes)) return -1;
    return absolute_offset(tape, bytes - tape->lexed_start);
}

/// Room for one more entry inside an open container (not at the top level,
/// where roots are recorded).
__attribute__((always_inline)) static inline int fast_room(const cartograph_yajl_tape *tape) {
    return tape->count < tape->capacity && tape->top->depth != 0;
}

/// Appends a value's entry inside an open container (fast_room held).
__attribute__((always_inline)) static inline void fast_append_value(cartograph_yajl_tape *tape, uint8_t kind, uint32_t length, intptr_t payload, intptr_t source) {
    write_entry(entries_of(tape) + tape->count++, kind, length, payload, source);
    cartograph_tape_frame *top = tape->top;
    if (!top->is_object) top->count += 1;
}

static int literal(cartograph_yajl_tape *tape, uint8_t kind, intptr_t length) {
    intptr_t end = fast_token_end(tape);
    if (__builtin_expect(end < 0 || !fast_room(tape), 0)) return literal_general(tape, kind, length);
    tape->last_token_end = end;
    fast_append_value(tape, kind, 0, 0, end - length);
    return 1;
}

static int on_null(void *context) {
    return literal(context, KIND_NULL, 4);
}

static int on_boolean(void *context, int value) {
    return value ? literal(context, KIND_TRUE, 4) : literal(context, KIND_FALSE, 5);
}

static int on_number(void *context, const char *text, size_t length) {
    cartograph_yajl_tape *tape = context;
    const uint8_t *bytes = (const uint8_t *)text;
    intptr_t count = (intptr_t)length;
    intptr_t start = fast_absolute_start(tape, bytes);
    if (__builtin_expect(start < 0 || count > 32 || count > tape->max_number || !fast_room(tape)
            || tape->byte_count + count + 1 > tape->byte_capacity, 0)) {
        return on_number_general(tape, text, length);
    }
    tape->last_token_end = start + count;
    intptr_t offset = tape->byte_count;
    uint8_t *target = tape->bytes + offset;
    if (count > 16) {
        /* Full-precision doubles ("-65.613616999999977") are 17 to 24
           bytes: two overlapping 16-byte moves, kept here rather than
           sent to on_number_general, whose offset and limit checks cost
           about 40 instructions a number on canada.json. */
        uint64_t head[2], tail[2];
        memcpy(head, bytes, 16);
        memcpy(tail, bytes + count - 16, 16);
        memcpy(target, head, 16);
        memcpy(target + count - 16, tail, 16);
    } else {
        cartograph_copy_text(target, bytes, count); /* 1 to 16 bytes: word moves, no call */
    }
    target[count] = 0;
    tape->byte_count = offset + count + 1;
    fast_append_value(tape, KIND_NUMBER, (uint32_t)count, offset, start);
    return 1;
}

/// A string's or key's text (up to 32 ASCII bytes, in the text yajl was
/// given) copied to the end of the tape's text, with its signature; the
/// caller counts the bytes in. Returns where the token starts (its
/// quote), or -1 with nothing changed: the general path's case.
__attribute__((always_inline)) static inline intptr_t fast_text(cartograph_yajl_tape *tape, const uint8_t *text, intptr_t count, uint64_t *signature) {
    intptr_t body = fast_absolute_start(tape, text);
    if (body < 0 || count > 32 || count > tape->max_string || tape->count >= tape->capacity
        || tape->byte_count + count > tape->byte_capacity) {
        return -1;
    }
    if (count == 0) {
        /* "" may stand for a string whose body the copy left out. */
        if (tape->elided_next < tape->elided_count) return -1;
        *signature = signature_of(0, 0, 0);
    } else if (!fast_copy_ascii(tape->bytes + tape->byte_count, text, count, signature)) {
        return -1;
    }
    intptr_t start = body - 1;
    tape->last_token_end = start + count + 2;
    return start;
}

static int on_string(void *context, const unsigned char *text, size_t length) {
    cartograph_yajl_tape *tape = context;
    intptr_t count = (intptr_t)length;
    uint64_t signature;
    intptr_t start = tape->top->depth != 0 ? fast_text(tape, text, count, &signature) : -1;
    if (__builtin_expect(start < 0, 0)) return on_string_general(tape, text, length);
    intptr_t offset = tape->byte_count;
    tape->byte_count = offset + count;
    fast_append_value(tape, KIND_STRING, (uint32_t)count, offset, start);
    return 1;
}

static int on_key(void *context, const unsigned char *text, size_t length) {
    cartograph_yajl_tape *tape = context;
    intptr_t count = (intptr_t)length;
    cartograph_tape_frame *top = tape->top;
    uint64_t signature;
    intptr_t start = top->is_object && top->depth != 0 && top->count < tape->max_keys && tape->key_count < tape->key_capacity
        ? fast_text(tape, text, count, &signature) : -1;
    if (__builtin_expect(start < 0, 0)) return on_key_general(tape, text, length);
    intptr_t offset = tape->byte_count;
    tape->byte_count = offset + count;
    top->count += 1;
    intptr_t index = tape->count++;
    write_entry(entries_of(tape) + index, KIND_KEY, (uint32_t)count, offset, start);
    cartograph_tape_key *key = tape->keys + tape->key_count++;
    key->signature = signature;
    key->entry = index;
    return 1;
}

__attribute__((always_inline)) static inline int begin(cartograph_yajl_tape *tape, int is_object) {
    intptr_t end = fast_token_end(tape);
    cartograph_tape_frame *top = tape->top;
    if (__builtin_expect(end < 0 || top->depth == 0 || top->depth >= tape->max_depth || tape->frame_count == tape->frame_capacity
            || tape->count == tape->capacity, 0)) {
        return begin_general(tape, is_object);
    }
    tape->last_token_end = end;
    intptr_t index = tape->count;
    fast_append_value(tape, is_object ? KIND_OBJECT : KIND_ARRAY, 0, 0, end - 1);
    cartograph_tape_frame *opened = tape->frames + tape->frame_count++;
    opened->entry = index;
    opened->count = 0;
    opened->first_key = tape->key_count;
    opened->depth = top->depth + 1;
    opened->is_object = (uint8_t)is_object;
    opened->has_non_ascii_key = 0;
    tape->top = opened;
    return 1;
}

static int on_start_map(void *context) {
    return begin(context, 1);
}

static int on_start_array(void *context) {
    return begin(context, 0);
}

static int on_end(void *context) {
    cartograph_yajl_tape *tape = context;
    intptr_t end = fast_token_end(tape);
    const cartograph_tape_frame *frame = tape->top;
    if (__builtin_expect(end < 0 || frame->depth == 0 || tape->frame_count <= 1, 0)) return on_end_general(tape);
    intptr_t count = frame->count;
    if (frame->is_object) {
        /* A non-ASCII key (its object is flagged) goes the general way. */
        if (frame->has_non_ascii_key) return on_end_general(tape);
        intptr_t keys = tape->key_count - frame->first_key;
        if (keys > 1) {
            /* Pairwise signatures, as has_repeated_key compares them; an
               equal pair (a repeated key, or two keys that only share
               ends and length) goes the general way. */
            if (keys > PAIRWISE_KEYS) return on_end_general(tape);
            const cartograph_tape_key *signed_keys = tape->keys + frame->first_key;
            for (intptr_t later = 1; later < keys; later++) {
                for (intptr_t earlier = 0; earlier < later; earlier++) {
                    if (signed_keys[earlier].signature == signed_keys[later].signature) return on_end_general(tape);
                }
            }
        }
        tape->key_count = frame->first_key;
    }
    tape->last_token_end = end;
    cartograph_tape_entry *entry = entries_of(tape) + frame->entry;
    entry->length = (uint32_t)count;
    entry->payload = (uint32_t)tape->count;
    tape->frame_count -= 1;
    tape->top = tape->frames + tape->frame_count - 1;
    return 1;
}

static const yajl_callbacks callbacks = {
    on_null,
    on_boolean,
    NULL, /* integers and doubles: the raw text goes to on_number */
    NULL,
    on_number,
    on_string,
    on_start_map,
    on_key,
    on_end,
    on_start_array,
    on_end,
};

/* yajl allocates its handle, lexer, two buffers' headers and its state
   stack for every parse, and frees them at its end: five mallocs and
   frees, about a tenth of a 70-byte document's parse. They come from the
   parser struct instead while it has room. Each block is preceded by its
   size (16 bytes, which keeps blocks 16-aligned), for realloc. */

#define ARENA_HEADER 16

static inline int in_arena(const cartograph_yajl_tape *tape, const void *pointer) {
    const uint8_t *address = pointer;
    return address >= tape->arena && address < tape->arena + CARTOGRAPH_ARENA_BYTES;
}

static void *arena_malloc(void *context, size_t size) {
    cartograph_yajl_tape *tape = context;
    /* The size is checked before any arithmetic on it (no wrap-around). */
    if (size > CARTOGRAPH_ARENA_BYTES) return malloc(size);
    intptr_t taken = (intptr_t)((size + 15) & ~(size_t)15) + ARENA_HEADER;
    if (taken > CARTOGRAPH_ARENA_BYTES - tape->arena_used) return malloc(size);
    uint8_t *block = tape->arena + tape->arena_used;
    memcpy(block, &size, sizeof size);
    tape->arena_used += taken;
    return block + ARENA_HEADER;
}

static void arena_free(void *context, void *pointer) {
    if (!in_arena(context, pointer)) free(pointer);
}

static void *arena_realloc(void *context, void *pointer, size_t size) {
    if (pointer == NULL) return arena_malloc(context, size);
    if (!in_arena(context, pointer)) return realloc(pointer, size);
    size_t old;
    memcpy(&old, (uint8_t *)pointer - ARENA_HEADER, sizeof old);
    void *moved = arena_malloc(context, size);
    if (moved != NULL) memcpy(moved, pointer, old < size ? old : size);
    return moved;
}

void *cartograph_yajl_alloc(cartograph_yajl_tape *tape, const void *callbacks, void *context) {
    yajl_alloc_funcs funcs = { arena_malloc, arena_realloc, arena_free, tape };
    return yajl_alloc((const yajl_callbacks *)callbacks, &funcs, context);
}

/* Each thread keeps one struct between parses (its spare): a parse takes
   it and gives it back, so a small document's parse allocates neither the
   struct (about 6 KB, too large for malloc's per-thread cache) nor yajl's
   2 KB lexer buffer, which lives in the struct's arena. The spare moves
   out of the thread-local slot while in use, so a struct that ends on
   another thread (an incremental parser handed between threads), or a
   parse inside a parse, is only ever owned once. A thread's spare is freed
   when the thread exits (thread_exit.c); a thread whose exit cannot be
   watched keeps no spare. (The main thread's spare lasts until the
   process ends: still reachable.) */
static __thread cartograph_yajl_tape *spare_tape;

/// How many threads' spares were freed as their threads ended, in all
/// threads (for tests).
static intptr_t spares_freed_at_exit;

/// Frees a finished thread's spare (thread_exit.c).
void cartograph_yajl_tape_release_thread(void) {
    cartograph_yajl_tape *tape = spare_tape;
    spare_tape = NULL;
    if (tape != NULL) __atomic_fetch_add(&spares_freed_at_exit, 1, __ATOMIC_RELAXED);
    free(tape);
}

int cartograph_yajl_tape_has_spare(void) {
    return spare_tape != NULL;
}

intptr_t cartograph_yajl_tape_spares_freed_at_exit(void) {
    return __atomic_load_n(&spares_freed_at_exit, __ATOMIC_RELAXED);
}

cartograph_yajl_tape *cartograph_yajl_tape_create(void) {
    cartograph_yajl_tape *tape = spare_tape;
    if (tape != NULL) {
        spare_tape = NULL;
    } else {
        tape = aligned_alloc(16, (sizeof(cartograph_yajl_tape) + 15) & ~(size_t)15);
        if (tape == NULL) return NULL;
    }
    memset(tape, 0, offsetof(cartograph_yajl_tape, inline_frames));
    /* The scratch starts in the struct's own room, with the top level's frame. */
    tape->frames = tape->inline_frames;
    tape->frame_capacity = CARTOGRAPH_INLINE_FRAMES;
    tape->keys = tape->inline_keys;
    tape->key_capacity = CARTOGRAPH_INLINE_KEYS;
    tape->roots = tape->inline_roots;
    tape->root_capacity = CARTOGRAPH_INLINE_ROOTS;
    memset(tape->frames, 0, sizeof(cartograph_tape_frame));
    tape->frame_count = 1;
    tape->top = tape->frames;
    return tape;
}

void cartograph_yajl_tape_destroy(cartograph_yajl_tape *tape) {
    if (tape == NULL) return;
    if (tape->frames != tape->inline_frames) free(tape->frames);
    if (tape->keys != tape->inline_keys) free(tape->keys);
    if (tape->roots != tape->inline_roots) free(tape->roots);
    free(tape->table);
    free(tape->unindented);
    free(tape->shifts);
    free(tape->elided);
    free(tape->decoded);
    if (spare_tape == NULL && cartograph_thread_exit_register()) {
        spare_tape = tape;
    } else {
        free(tape);
    }
}

/* yajl 2.x's handle (yajl_parser.h) starts with four pointers (callbacks,
   context, lexer, parse error) and then `size_t bytesConsumed`, which
   yajl_get_bytes_consumed returns and the lexer advances as it reads:
   during a callback it is the offset just past the token. Reading it in
   place saves a call through the PLT into the shared library per
   container opened and closed and per literal (145,000 calls a deep.json
   parse, about 9% of the callbacks' instructions there). */
#define YAJL_CONSUMED_OFFSET (4 * sizeof(void *))

/// Whether this process's yajl keeps the count at YAJL_CONSUMED_OFFSET:
/// a yajl 2 (an other major version is not probed: its handle might be
/// smaller than the field's place), and a probe handle without callbacks
/// reads "[1," and then "22,333]", the field equal to
/// yajl_get_bytes_consumed (3, then 7) after each. Asked once; a race only
/// probes twice and stores the same answer; the answer is read and stored
/// with relaxed atomics, so that race is not a data race.
static int consumed_field_verified(void) {
    static int known = -1;
    int answer = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (answer >= 0) return answer;
    answer = 0;
    yajl_handle probe = yajl_version() / 10000 == 2 ? yajl_alloc(NULL, NULL, NULL) : NULL;
    if (probe != NULL) {
        const size_t *field = (const size_t *)(const void *)((const char *)probe + YAJL_CONSUMED_OFFSET);
        static const unsigned char first[] = "[1,";
        static const unsigned char second[] = "22,333]";
        if (yajl_parse(probe, first, 3) == yajl_status_ok && yajl_get_bytes_consumed(probe) == 3 && *field == 3
            && yajl_parse(probe, second, 7) == yajl_status_ok && yajl_get_bytes_consumed(probe) == 7 && *field == 7) {
            answer = 1;
        }
        yajl_free(probe);
    }
    __atomic_store_n(&known, answer, __ATOMIC_RELAXED);
    return answer;
}

int cartograph_yajl_reads_consumed_in_place(void) {
    return consumed_field_verified();
}

void cartograph_yajl_tape_attach(cartograph_yajl_tape *tape) {
    tape->consumed = tape->handle != NULL && consumed_field_verified()
        ? (const size_t *)(const void *)((const char *)tape->handle + YAJL_CONSUMED_OFFSET)
        : NULL;
}

const void *cartograph_yajl_tape_callbacks(void) {
    return &callbacks;
}

/* yajl lexes a byte at a time: whitespace at about 16 instructions a byte,
   string text at about 5, and it decodes escapes a byte at a time again.
   So text that is not streamed is given to yajl in blocks copied without
   two kinds of bytes it need not see:

   - Indentation, the spaces and tabs after each line feed (a fifth of
     twitter.json, half of a pretty-printed canada.json). A line feed can
     never be inside a valid string, so what follows it is whitespace
     between tokens (or inside a comment); the line feed itself is kept, so
     that one inside a string is still reported where it is.
   - The bodies of long strings (cartograph_scan_strings finds them, a
     block ahead of the copy): yajl lexes `""`, and the callbacks read the
     body from the input and decode its escapes themselves. Only strings
     yajl would accept are left out, so every error is still found where
     it is.

   Each run left out is recorded, and the callbacks map every token back to
   its place in the input. */

/// Bytes read per block at most (the copy's buffer is a block and 128 more).
#define UNINDENT_BLOCK 32768
/// Runs of indentation recorded per block at most (a block ends at the
/// last; one more entry holds the INTPTR_MAX that follows them).
#define UNINDENT_SHIFTS 4096
/// Text shorter than this goes to yajl as it is.
#define UNINDENT_MINIMUM 1024
/// Strings with fewer bytes than this go to yajl whole. Below it, finding a
/// string and meeting it again in the callbacks costs about what yajl's
/// lexing would.
#define ELIDE_MINIMUM 24
/// The bytes left out per string scanned below which the scan stops.
#define ELIDE_PAYS 32
/// Bytes read in a parse's first block at most: whether the copy pays is
/// judged after it (and whether the scan does, where it clearly does not),
/// so compact text of short keys and values (a request body) pays for at
/// most this much copying and scanning it did not need. A first block of
/// UNINDENT_BLOCK bytes made a 50 KB compact body's parse copy and scan
/// 32 KB of it first: 0.69x of yajl's bare lexing.
#define FIRST_BLOCK 4096

void cartograph_yajl_tape_lex_plain(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base) {
    tape->lexed_start = bytes;
    tape->lexed_count = count;
    tape->lexed_origin = base;
    tape->first_origin = base;
    tape->shift_count = 0;
    tape->shift_index = 0;
    tape->next_shift_at = INTPTR_MAX;
}

/// Makes the copy's buffers hold a block of `count` bytes (at most
/// UNINDENT_BLOCK): sized by the text, so that a small request body does
/// not take 96 KB, and grown if a later chunk is larger. 0 when out of
/// memory (the text then goes to yajl as it is).
static int prepare_unindenting(cartograph_yajl_tape *tape, intptr_t count) {
    intptr_t block = count < UNINDENT_BLOCK ? count : UNINDENT_BLOCK;
    if (tape->unindented != NULL && tape->unindented_block >= block) return 1;
    /* A run left out takes a line feed and a blank: at most one per two bytes read. */
    intptr_t shifts = block / 2 + 1 < UNINDENT_SHIFTS ? block / 2 + 1 : UNINDENT_SHIFTS;
    uint8_t *copy = realloc(tape->unindented, (size_t)block + 128);
    if (copy == NULL) return 0;
    tape->unindented = copy;
    cartograph_lexed_shift *records = realloc(tape->shifts, (size_t)(shifts + 1) * sizeof(cartograph_lexed_shift));
    if (records == NULL) return 0;
    tape->shifts = records;
    /* A block and the 64 bytes scanned past it, plus a long string's
       overrun and those carried from the last block: never full on valid
       text (the scan stops when it is). */
    intptr_t strings = (block + 256) / (ELIDE_MINIMUM + 2) + 16;
    cartograph_elided_string *found = realloc(tape->elided, (size_t)strings * sizeof(cartograph_elided_string));
    if (found == NULL) return 0;
    tape->elided = found;
    tape->elided_capacity = strings;
    tape->unindented_block = block;
    tape->shift_capacity = shifts;
    return 1;
}

/// No string is left out for the rest of this parse.
static void stop_scanning(cartograph_yajl_tape *tape) {
    tape->scan_state = CARTOGRAPH_SCAN_STOPPED;
    tape->elided_count = 0;
    tape->elided_next = 0;
}

/// Forgets the strings that end before absolute offset `read` (the block
/// yajl was given held them).
static void drop_elided(cartograph_yajl_tape *tape, intptr_t read) {
    intptr_t done = 0;
    while (done < tape->elided_count && tape->elided[done].end < read) done++;
    if (done > 0) {
        memmove(tape->elided, tape->elided + done, (size_t)(tape->elided_count - done) * sizeof(cartograph_elided_string));
        tape->elided_count -= done;
    }
    tape->elided_next = 0;
}

int cartograph_yajl_tape_parse(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base, int unindent) {
    yajl_handle handle = (yajl_handle)tape->handle;
    /* Strings are found only in text the scan has seen from the start. */
    if (!tape->scan_started) {
        tape->scan_started = 1;
        tape->scan_position = base;
    }
    if (!unindent || tape->scan_position != base || !cartograph_has_avx2()) stop_scanning(tape);
    if (!unindent || tape->copies_stopped || count < UNINDENT_MINIMUM || !prepare_unindenting(tape, count)) {
        if (count < UNINDENT_MINIMUM && base + count <= UNINDENT_BLOCK && !tape->copies_stopped
            && tape->scan_state != CARTOGRAPH_SCAN_STOPPED && !tape->input_complete) {
            /* A short chunk among the first 32 KB (a stream's first
               pieces) goes as it is, but the scan follows it so as to know
               where the next starts. Later, a stream of short chunks is not scanned at
               all: none of it would be left out. */
            cartograph_scan_strings(tape, bytes, count, base, count, INTPTR_MAX);
        } else {
            stop_scanning(tape);
        }
        cartograph_yajl_tape_lex_plain(tape, bytes, count, base);
        return yajl_parse(handle, bytes, (size_t)count);
    }
    intptr_t position = 0;
    while (position < count) {
        intptr_t rest = count - position;
        intptr_t limit = rest < tape->unindented_block ? rest : tape->unindented_block;
        if (!tape->copy_judged && limit > FIRST_BLOCK) limit = FIRST_BLOCK;
        if (tape->scan_state != CARTOGRAPH_SCAN_STOPPED) {
            cartograph_scan_strings(tape, bytes, count, base, position + limit + 64, ELIDE_MINIMUM);
        }
        intptr_t read = 0, shifts = 0;
        intptr_t written = cartograph_copy_lexable(tape->unindented, bytes + position, rest, limit, base + position,
            tape->shifts, tape->shift_capacity, &shifts, &read, tape->elided, tape->elided_count);
        if (read == 0) {
            /* No place to end the block that does not cut a left-out string
               in two before the records fill (only text built for it). */
            stop_scanning(tape);
            written = cartograph_copy_lexable(tape->unindented, bytes + position, rest, limit, base + position,
                tape->shifts, tape->shift_capacity, &shifts, &read, NULL, 0);
        }
        cartograph_yajl_tape_lex_plain(tape, tape->unindented, written, base + position);
        tape->shift_count = shifts;
        tape->shifts[shifts].at = INTPTR_MAX;
        tape->next_shift_at = tape->shifts[0].at;
        tape->elided_next = 0;
        yajl_status status = yajl_parse(handle, tape->unindented, (size_t)written);
        if (status != yajl_status_ok) return status;
        position += read;
        tape->copied_total += read;
        /* The string bodies this block left out, told apart from its indentation. */
        intptr_t elided_bytes = 0;
        for (intptr_t index = 0; index < tape->elided_count && tape->elided[index].end < base + position; index++) {
            elided_bytes += tape->elided[index].end - tape->elided[index].start;
        }
        drop_elided(tape, base + position);
        int first_block = !tape->copy_judged;
        tape->copy_judged = 1;
        /* Finding the strings costs about as much per string as yajl's
           lexing of 32 bytes of text: worth it only where the strings left
           out are that long on average (whole documents of text, or of
           text escaped for ASCII). Elsewhere (twitter.json, objects of
           short keys and values) the scan ends after the first block. */
        /* After the short first block, only a scan that is far from paying
           (a quarter of it) stops: a few kilobytes are too few strings to
           tell a borderline text by. */
        intptr_t pays = first_block ? ELIDE_PAYS / 4 : ELIDE_PAYS;
        if (tape->scan_state != CARTOGRAPH_SCAN_STOPPED && tape->scanned_long_bytes < pays * tape->scanned_strings) {
            stop_scanning(tape);
        }
        /* Less than a thirty-second left out (once the scan has stopped,
           of indentation alone: the strings will no longer be): the copy
           costs more than it saves, and the rest of the parse goes as it is. */
        intptr_t left_out = read - written - (tape->scan_state == CARTOGRAPH_SCAN_STOPPED ? elided_bytes : 0);
        if (left_out * 32 < read) {
            tape->copies_stopped = 1;
            stop_scanning(tape);
            if (position < count) {
                cartograph_yajl_tape_lex_plain(tape, bytes + position, count - position, base + position);
                return yajl_parse(handle, bytes + position, (size_t)(count - position));
            }
        }
    }
    return yajl_status_ok;
}

/// The whole input given to yajl, then its end (see parse_whole below).
static int parse_whole_on_handle(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count) {
    tape->chunk_base = 0;
    tape->chunk_start = bytes;
    tape->chunk_count = count;
    tape->input_complete = 1;
    int status = cartograph_yajl_tape_parse(tape, bytes, count, 0, 1);
    /* Then the end of input, as finishing a chunked parse tells it: no
       text at hand, offsets from the input's end (a final number). */
    tape->chunk_start = NULL;
    if (status != yajl_status_ok) return 0;
    tape->chunk_base = count;
    tape->chunk_count = 0;
    cartograph_yajl_tape_lex_plain(tape, NULL, 0, count);
    if (yajl_complete_parse((yajl_handle)tape->handle) != yajl_status_ok) return 0;
    /* After a complete value, yajl takes an unfinished string or comment
       that ends the input for a token still to come, and says nothing
       (`9"abc`): only whitespace may follow the last token here; any other
       tail (a comment, when allowed) is left to the general path. */
    for (intptr_t index = tape->last_token_end; index < count; index++) {
        uint8_t byte = bytes[index];
        if (byte != ' ' && byte != '\n' && byte != '\r' && byte != '\t') return 0;
    }
    return tape->failure == CARTOGRAPH_TAPE_OK && cartograph_yajl_tape_depth(tape) == 0 && tape->root_count > 0;
}

int cartograph_yajl_tape_parse_whole(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, int allow_comments,
    int allow_multiple_values) {
    if (count <= 0 || (count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF)
        || cartograph_find_vertical_space(bytes, count) >= 0) {
        return 0;
    }
    yajl_handle handle = cartograph_yajl_alloc(tape, &callbacks, tape);
    if (handle == NULL) return 0;
    tape->handle = handle;
    /* A new handle's flags are all off: only those turned on are set. */
    yajl_config(handle, yajl_dont_validate_strings, 1);
    if (allow_comments) yajl_config(handle, yajl_allow_comments, 1);
    if (allow_multiple_values) yajl_config(handle, yajl_allow_multiple_values, 1);
    cartograph_yajl_tape_attach(tape);
    int complete = parse_whole_on_handle(tape, bytes, count);
    yajl_free(handle);
    tape->handle = NULL;
    tape->consumed = NULL;
    return complete;
}

intptr_t cartograph_yajl_tape_token_end(cartograph_yajl_tape *tape) {
    return token_end(tape);
}

intptr_t cartograph_yajl_tape_absolute(const cartograph_yajl_tape *tape, intptr_t lexed) {
    intptr_t origin = tape->first_origin;
    for (intptr_t index = 0; index < tape->shift_count && tape->shifts[index].at <= lexed; index++) {
        origin = tape->shifts[index].origin;
    }
    return origin + lexed;
}
