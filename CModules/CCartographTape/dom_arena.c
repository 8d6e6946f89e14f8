/*
 * A per-thread arena for the jansson DOMs JanssonWriter builds, dumps and
 * drops whole (a JSONValue or a Document written as JSON).
 *
 * jansson allocates every value, every object member and every string's
 * bytes on its own, and json_decref frees them one by one: on twitter.json
 * malloc, free and glibc's consolidation of the freed nodes were 17% of a
 * JSONValue encode, and the decref walk more. jansson is given these two
 * functions as its allocator (json_set_alloc_funcs, once per process, only
 * where it still has malloc and free). While a thread is inside an arena
 * scope (cartograph_dom_arena_begin / _end), jansson's allocations on that
 * thread are bumps in the thread's blocks and its frees of them do
 * nothing; the scope's end drops everything at once, and the writer skips
 * json_decref. Outside a scope, and on every other thread, they are
 * malloc and free: jansson used by anything else in the process is
 * served as before, and a pointer malloc gave is freed by free even inside
 * a scope (it lies in no block).
 *
 * A scope holds at most ARENA_LIMIT bytes of blocks, which the thread
 * keeps for its next scope (and frees when it ends): a steady stream of
 * encodes allocates nothing. Past the limit allocations are malloc's
 * again, the scope is marked as overflowed, and the writer then releases
 * its DOM with json_decref before the scope ends: that walk frees what
 * malloc gave and skips what lies in the blocks.
 *
 * Blocks past the first ARENA_KEEP bytes are kept only while they are
 * used: after ARENA_TRIM_AFTER scopes in a row that needed no more than
 * ARENA_KEEP, they are freed. So a thread that writes large DOMs again and
 * again keeps what they need (fresh pages for every write made a 4 to 16
 * MB DOM's encode slower than malloc's reuse of freed nodes: canada.json
 * 16.6 → 25–36 ms when blocks past 4 MB were freed at each scope's end),
 * and one that wrote a large DOM once gives it back after a few small ones.
 * With the limit at 4 MB (the forty-second session), DOMs of 4 to 64 MB
 * (deep, indented, maps, activity, wide and records in Benchmarks/Data)
 * were built node by node with malloc and freed by json_decref's walk, at
 * 0.5–0.85x of jansson's own dump of the same DOM; in the thread's blocks
 * they are written at 0.8–1.1x.
 *
 * Rule for the caller: nothing allocated inside a scope is used or freed
 * after its end (the writer's DOM lives only between build and dump).
 *
 * jansson asks for json_set_alloc_funcs before any other call: a program
 * that gives jansson its own allocator does so at its start, before the
 * first write here, and keeps it (the arena's functions replace only
 * malloc and free). Each scope checks that jansson still has them.
 *
 * Example: begin; json_object() and 40,000 more values are bumps in the
 * first blocks; json_dump_callback's own scratch too; end: the blocks'
 * fill goes back to zero.
 */

#include <stdint.h>
#include <stdlib.h>

#include "cartograph_tape.h"

enum {
    /// The first block's size; each new block doubles the last.
    ARENA_FIRST = 64 * 1024,
    /// What a thread always keeps once it has it (64 KB to 2 MB: six blocks).
    ARENA_KEEP = 4 * 1024 * 1024,
    /// The most bytes of blocks a thread holds (64 KB to 32 MB: ten blocks).
    ARENA_LIMIT = 64 * 1024 * 1024,
    ARENA_MAX_BLOCKS = 12,
    /// Scopes in a row using no more than ARENA_KEEP before the blocks past it are freed.
    ARENA_TRIM_AFTER = 8,
};

typedef struct {
    unsigned char *data;
    size_t size;
    size_t used;
} arena_block;

typedef struct {
    arena_block blocks[ARENA_MAX_BLOCKS];
    /// Blocks allocated, and the one allocations bump now.
    int count;
    int current;
    size_t total;
    /// The lowest and highest address of any block: a pointer outside
    /// them (what malloc gave) is told apart without a look at each block.
    const unsigned char *lowest;
    const unsigned char *highest;
    int active;
    /// An allocation of this scope went to malloc (the blocks were full).
    int overflowed;
    /// Scopes in a row that used no more than ARENA_KEEP while more was kept.
    int small_scopes;
} arena_state;

/* Initial-exec: a fixed offset from the thread pointer, where the default
 * model for position-independent code called __tls_get_addr on every
 * allocation and free (a third of the arena's cost). */
static __thread arena_state thread_arena __attribute__((tls_model("initial-exec")));

/// Frees a finished thread's blocks (thread_exit.c: the thread-local state cannot).
void cartograph_dom_arena_release_thread(void) {
    arena_state *arena = &thread_arena;
    for (int index = 0; index < arena->count; index++) {
        free(arena->blocks[index].data);
    }
    arena->count = 0;
    arena->current = 0;
    arena->total = 0;
    arena->lowest = NULL;
    arena->highest = NULL;
}

/// Widens the address range the frees check to cover a block.
static void cover_block(arena_state *arena, const arena_block *block) {
    if (arena->lowest == NULL || block->data < arena->lowest) {
        arena->lowest = block->data;
    }
    if (block->data + block->size > arena->highest) {
        arena->highest = block->data + block->size;
    }
}

/// The next block with room for `size` bytes (16-byte multiple), made if
/// the limit allows; NULL when the allocation must go to malloc.
static void *allocate_in_next_block(arena_state *arena, size_t size) {
    while (arena->current + 1 < arena->count) {
        arena->current += 1;
        arena_block *block = &arena->blocks[arena->current];
        if (block->size - block->used >= size) {
            void *pointer = block->data + block->used;
            block->used += size;
            return pointer;
        }
    }
    if (arena->count == ARENA_MAX_BLOCKS) {
        return NULL;
    }
    size_t capacity = arena->count == 0 ? ARENA_FIRST : arena->blocks[arena->count - 1].size * 2;
    if (capacity < size || arena->total + capacity > ARENA_LIMIT) {
        return NULL;
    }
    /* Blocks are kept past the scope: only where the thread's end frees them. */
    if (!cartograph_thread_exit_register()) {
        return NULL;
    }
    unsigned char *data = aligned_alloc(16, capacity);
    if (data == NULL) {
        return NULL;
    }
    arena_block *block = &arena->blocks[arena->count];
    block->data = data;
    block->size = capacity;
    block->used = size;
    arena->current = arena->count;
    arena->count += 1;
    arena->total += capacity;
    cover_block(arena, block);
    return data;
}

void *cartograph_dom_arena_malloc(size_t size) {
    arena_state *arena = &thread_arena;
    /* Once a scope has overflowed, the rest of it goes to malloc at once. */
    if (!arena->active || arena->overflowed) {
        return malloc(size);
    }
    if (size > ARENA_LIMIT) {
        arena->overflowed = 1;
        return malloc(size);
    }
    size_t rounded = (size + 15) & ~(size_t)15;
    if (arena->count > 0) {
        arena_block *block = &arena->blocks[arena->current];
        if (block->size - block->used >= rounded) {
            void *pointer = block->data + block->used;
            block->used += rounded;
            return pointer;
        }
    }
    void *pointer = allocate_in_next_block(arena, rounded);
    if (pointer != NULL) {
        return pointer;
    }
    arena->overflowed = 1;
    return malloc(size);
}

void cartograph_dom_arena_free(void *pointer) {
    if (pointer == NULL) {
        return;
    }
    arena_state *arena = &thread_arena;
    const unsigned char *bytes = pointer;
    if (arena->active && bytes >= arena->lowest && bytes < arena->highest) {
        /* The block allocations bump in first: what jansson frees inside a
           scope (a hashtable's old buckets, the dump's loop-check entries)
           was mostly allocated just before. */
        const arena_block *current = &arena->blocks[arena->current];
        if (bytes >= current->data && bytes < current->data + current->size) {
            return;
        }
        for (int index = 0; index < arena->count; index++) {
            const arena_block *block = &arena->blocks[index];
            if (bytes >= block->data && bytes < block->data + block->size) {
                return;
            }
        }
    }
    free(pointer);
}

int cartograph_dom_arena_is_default(cartograph_malloc_fn malloc_fn, cartograph_free_fn free_fn) {
    return malloc_fn == malloc && free_fn == free;
}

int cartograph_dom_arena_is_installed(cartograph_malloc_fn malloc_fn, cartograph_free_fn free_fn) {
    return malloc_fn == cartograph_dom_arena_malloc && free_fn == cartograph_dom_arena_free;
}

int cartograph_dom_arena_begin(void) {
    arena_state *arena = &thread_arena;
    if (arena->active) {
        return 0;
    }
    arena->active = 1;
    arena->overflowed = 0;
    return 1;
}

int cartograph_dom_arena_overflowed(void) {
    return thread_arena.overflowed;
}

/// Frees the blocks past the first ARENA_KEEP bytes.
static void trim_blocks(arena_state *arena) {
    while (arena->count > 0 && arena->total > ARENA_KEEP) {
        arena_block *last = &arena->blocks[arena->count - 1];
        free(last->data);
        arena->total -= last->size;
        last->data = NULL;
        last->size = 0;
        arena->count -= 1;
    }
    arena->lowest = NULL;
    arena->highest = NULL;
    for (int index = 0; index < arena->count; index++) {
        cover_block(arena, &arena->blocks[index]);
    }
}

void cartograph_dom_arena_end(void) {
    arena_state *arena = &thread_arena;
    arena->active = 0;
    arena->overflowed = 0;
    size_t used = 0;
    for (int index = 0; index < arena->count; index++) {
        used += arena->blocks[index].used;
        arena->blocks[index].used = 0;
    }
    arena->current = 0;
    if (arena->total > ARENA_KEEP) {
        arena->small_scopes = used <= ARENA_KEEP ? arena->small_scopes + 1 : 0;
        if (arena->small_scopes >= ARENA_TRIM_AFTER) {
            trim_blocks(arena);
            arena->small_scopes = 0;
        }
    }
}

size_t cartograph_dom_arena_kept_bytes(void) {
    return thread_arena.total;
}
