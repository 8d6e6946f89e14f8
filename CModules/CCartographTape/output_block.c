/*
 * The block of memory a thread's last JSON output was written into, kept
 * for its next one: a native writer's (OutputBuffer.swift) or jansson's
 * dump of a DOM (dump_sink.c).
 *
 * A native JSON writer's buffer (OutputBuffer.swift) started at 4 KB and
 * doubled as it filled: twitter.json's 467 KB of output moved through
 * eight blocks and copied half a megabyte between them, about a twentieth
 * of a mapping encode's time (0.996 → 0.944 ms with the buffer made large
 * enough at once). A thread now keeps the block its last buffer ended
 * with, and the next buffer on that thread starts in it: a steady stream
 * of encodes of similar size allocates and copies nothing.
 *
 * What is kept is bounded: a block over OUTPUT_KEEP_LIMIT is freed when
 * its buffer is done, and a kept block over OUTPUT_TRIM_FLOOR is freed
 * after OUTPUT_TRIM_AFTER buffers in a row that used no more than an
 * eighth of it (a thread that wrote one large document and then small
 * ones gives the large block back). A thread's block is freed when the
 * thread ends.
 *
 * One block per thread: a buffer made while another holds the block (an
 * encode inside a transform of an encode) gets one from malloc; when both
 * are given back, the larger is kept. A block may be given back on
 * another thread than the one that took it (a buffer released after a
 * task moved): it is only memory, and that thread keeps it.
 */

#include <stdint.h>
#include <stdlib.h>

#include "cartograph_tape.h"

enum {
    /// The largest block a thread keeps.
    OUTPUT_KEEP_LIMIT = 4 * 1024 * 1024,
    /// Kept blocks up to this size are never trimmed.
    OUTPUT_TRIM_FLOOR = 256 * 1024,
    /// Small uses in a row (an eighth of the block or less) before a large block is freed.
    OUTPUT_TRIM_AFTER = 8,
};

typedef struct {
    unsigned char *data;
    size_t size;
    /// Buffers in a row that used no more than an eighth of the kept block.
    int small_uses;
    /// The bytes the thread's last output came to: what an array made for
    /// the next one is sized by (OutputLease.swift).
    size_t last_used;
} output_state;

/* initial-exec, as the DOM arena's: the general-dynamic model calls
 * __tls_get_addr on each access. */
static __thread output_state thread_output __attribute__((tls_model("initial-exec")));

/// Frees a finished thread's block (thread_exit.c: the thread-local state cannot).
void cartograph_output_block_release_thread(void) {
    output_state *output = &thread_output;
    free(output->data);
    output->data = NULL;
    output->size = 0;
}

void *cartograph_output_block_take(size_t minimum, size_t *capacity) {
    output_state *output = &thread_output;
    unsigned char *data = output->data;
    size_t size = output->size;
    output->data = NULL;
    output->size = 0;
    if (data != NULL && size >= minimum) {
        *capacity = size;
        return data;
    }
    /* None kept, or one too small for what the caller knows it needs
       (freed, not grown: its bytes are stale). */
    free(data);
    void *fresh = malloc(minimum);
    *capacity = fresh == NULL ? 0 : minimum;
    return fresh;
}

void cartograph_output_block_give(void *block, size_t capacity, size_t used) {
    if (block == NULL) {
        return;
    }
    thread_output.last_used = used;
    if (capacity > OUTPUT_KEEP_LIMIT) {
        free(block);
        return;
    }
    output_state *output = &thread_output;
    if (output->data != NULL) {
        /* Two buffers were alive at once: keep the larger block. */
        if (output->size >= capacity) {
            free(block);
            return;
        }
        free(output->data);
        output->data = NULL;
        output->size = 0;
    }
    if (capacity > OUTPUT_TRIM_FLOOR && used <= capacity / 8) {
        output->small_uses += 1;
        if (output->small_uses >= OUTPUT_TRIM_AFTER) {
            output->small_uses = 0;
            free(block);
            return;
        }
    } else {
        output->small_uses = 0;
    }
    if (!cartograph_thread_exit_register()) {
        free(block);
        return;
    }
    output->data = block;
    output->size = capacity;
}

size_t cartograph_output_block_last_used(void) {
    return thread_output.last_used;
}

void cartograph_output_block_note_used(size_t used) {
    thread_output.last_used = used;
}

size_t cartograph_output_block_kept_bytes(void) {
    return thread_output.size;
}
