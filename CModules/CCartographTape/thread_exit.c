/*
 * What the C layer keeps per thread is freed when the thread ends: the
 * parser's spare state (cartograph_yajl_tape.c), the DOM arena's blocks
 * (dom_arena.c) and the kept output block (output_block.c). A
 * thread-local variable cannot free what it points to; one pthread key's
 * destructor frees all three. Each registers the thread before it keeps
 * memory there, and keeps none where that fails (the process ran out of
 * pthread keys): its memory then goes back as each use ends.
 */

#include <pthread.h>

#include "cartograph_tape.h"

static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static int exit_key_made;
static __thread int registered __attribute__((tls_model("initial-exec")));

static void release_thread_state(void *unused) {
    (void)unused;
    /* Work done by another key's destructor after this one registers the
       thread again, and glibc then runs this destructor again. */
    registered = 0;
    cartograph_yajl_tape_release_thread();
    cartograph_dom_arena_release_thread();
    cartograph_output_block_release_thread();
}

static void make_exit_key(void) {
    exit_key_made = pthread_key_create(&exit_key, release_thread_state) == 0;
}

int cartograph_thread_exit_register(void) {
    if (registered) {
        return 1;
    }
    if (pthread_once(&exit_key_once, make_exit_key) != 0 || !exit_key_made) {
        return 0;
    }
    /* Any value but NULL: the destructor runs only for those. */
    if (pthread_setspecific(exit_key, &registered) != 0) {
        return 0;
    }
    registered = 1;
    return 1;
}
