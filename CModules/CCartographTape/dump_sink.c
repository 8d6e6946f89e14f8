/*
 * Where jansson's dump of a DOM goes (Swift's JanssonWriter): jansson calls
 * back once per small chunk (a quote, a key, a comma, a number), tens of
 * thousands of times for a document the size of twitter.json. A Swift
 * callback paid an object lookup, a retain and exclusivity checks per
 * chunk, about a third of a JSONValue encode; this one appends in C.
 *
 * It also makes two substitutions. Every number and every null is in the
 * DOM as jansson's null, which it dumps as the one chunk `null` outside any
 * string, and the sink writes the next queued text in its place: the
 * number's exact text (jansson prints reals with `%.17g` and has no big
 * integers, and both its number kinds go through `snprintf`), or `null`.
 * And a `\uXXXX` escape (one chunk, or twelve bytes for a surrogate pair)
 * gets lowercase hex, as Foundation and the native writer spell it. A
 * string opens and closes with a lone `"` chunk (a quote inside one is the
 * two-byte chunk `\"`), so the sink knows whether a chunk is inside a string.
 *
 * Example: texts "0.1", "null" and "1e400" queued, DOM [null, "null",
 * null, null] dumps as `[0.1, "null", null, 1e400]`.
 */

#include <stdlib.h>
#include <string.h>

#include "cartograph_tape.h"

/// Grows the output to hold `more` bytes past its end (not inlined: the
/// hot path checks the room itself).
__attribute__((noinline)) static int grow(cartograph_dump_sink *sink, intptr_t more) {
    if (sink->output == NULL) {
        /* The first chunk: the thread's kept output block (output_block.c),
           which a steady stream of writes of similar size never outgrows. */
        size_t kept = 0;
        sink->output = cartograph_output_block_take((size_t)(more < 256 ? 256 : more), &kept);
        if (sink->output == NULL) {
            sink->failed = 1;
            return 0;
        }
        /* At least `more` bytes, and nothing written yet. */
        sink->capacity = (intptr_t)kept;
        return 1;
    }
    intptr_t capacity = sink->capacity < 256 ? 256 : sink->capacity;
    while (capacity < sink->count + more) {
        capacity *= 2;
    }
    uint8_t *grown = realloc(sink->output, (size_t)capacity);
    if (grown == NULL) {
        sink->failed = 1;
        return 0;
    }
    sink->output = grown;
    sink->capacity = capacity;
    return 1;
}

static inline int reserve(cartograph_dump_sink *sink, intptr_t more) {
    return __builtin_expect(sink->count + more <= sink->capacity, 1) || grow(sink, more);
}

static inline int append(cartograph_dump_sink *sink, const uint8_t *bytes, intptr_t count) {
    if (!reserve(sink, count)) {
        return -1;
    }
    /* Chunks are mostly a few bytes (a quote, a comma, a key): copied
     * inline, where a call to memcpy per chunk was a fifth of the sink. */
    cartograph_copy_text(sink->output + sink->count, bytes, count);
    sink->count += count;
    return 0;
}

/// The placeholder `null`'s text: the next one queued.
__attribute__((noinline)) static int write_queued(cartograph_dump_sink *sink) {
    if (sink->next_number >= sink->number_count) {
        sink->failed = 1;
        return -1;
    }
    intptr_t start = sink->next_number == 0 ? 0 : sink->number_ends[sink->next_number - 1];
    intptr_t end = sink->number_ends[sink->next_number];
    sink->next_number += 1;
    return append(sink, sink->number_text + start, end - start);
}

/// A `\uXXXX` escape (or a surrogate pair's two) with lowercase hex.
__attribute__((noinline)) static int write_unicode_escape(cartograph_dump_sink *sink, const uint8_t *chunk, intptr_t count) {
    if (!reserve(sink, count)) {
        return -1;
    }
    for (intptr_t index = 0; index < count; index++) {
        uint8_t byte = chunk[index];
        sink->output[sink->count + index] = byte >= 'A' && byte <= 'F' ? (uint8_t)(byte | 0x20) : byte;
    }
    sink->count += count;
    return 0;
}

int cartograph_dump_sink_write(const char *buffer, size_t size, void *data) {
    cartograph_dump_sink *sink = data;
    const uint8_t *chunk = (const uint8_t *)buffer;
    intptr_t count = (intptr_t)size;
    if (__builtin_expect(sink == NULL || chunk == NULL || sink->failed, 0)) {
        return -1;
    }
    /* Most chunks are one byte (a quote, a colon, a comma, a bracket):
       stored directly, a quote flipping whether a string is open. */
    if (count == 1) {
        if (!reserve(sink, 1)) {
            return -1;
        }
        uint8_t byte = chunk[0];
        sink->in_string ^= byte == '"';
        sink->output[sink->count++] = byte;
        return 0;
    }
    if (count == 4 && !sink->in_string && cartograph_load32(chunk) == cartograph_load32((const uint8_t *)"null")) {
        return write_queued(sink);
    }
    if (sink->in_string && (count == 6 || count == 12) && chunk[0] == '\\' && chunk[1] == 'u') {
        return write_unicode_escape(sink, chunk, count);
    }
    return append(sink, chunk, count);
}

void cartograph_dump_sink_release(cartograph_dump_sink *sink) {
    cartograph_output_block_give(sink->output, (size_t)sink->capacity, (size_t)sink->count);
    sink->output = NULL;
    sink->count = 0;
    sink->capacity = 0;
}
