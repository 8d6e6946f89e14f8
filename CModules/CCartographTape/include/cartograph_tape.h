#ifndef CARTOGRAPH_TAPE_H
#define CARTOGRAPH_TAPE_H

/*
 * The JSON parse's hot path in C: yajl's callbacks append straight to a
 * Document's tape, with no crossing into Swift per token.
 *
 * Swift owns the tape's buffers (TapeStorage) and lends them to a
 * cartograph_yajl_tape; when they are full the C side asks Swift to grow
 * them (`grow`). The C side owns its scratch (open containers, the keys of
 * open objects, the roots, the duplicate-key table) and frees it in
 * cartograph_yajl_tape_destroy. Rare work goes back to Swift through three
 * callbacks: growing the tape, locating a string yajl decoded (it had
 * escapes: its start and any unpaired surrogate need the raw input), and
 * resolving an object whose keys may repeat (the duplicate-key policy,
 * canonical equivalence of non-ASCII keys and its error message).
 *
 * The header includes no yajl header (the CYajl module owns those); the
 * yajl handle is kept as `void *`.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// One tape entry, laid out as Swift's `TapeEntry` (kind, flags, the low 16
/// bits of the source offset, length, payload, the source offset's higher
/// bits): 16 bytes. `NativeTapeTests` checks that the layouts agree. `kind`
/// is `TokenKind`'s case index: null 0, false 1, true 2, number 3, string 4,
/// key 5, array 6, object 7.
typedef struct cartograph_tape_entry {
    uint8_t kind;
    uint8_t flags;
    uint16_t source_low;
    uint32_t length;
    uint32_t payload;
    uint32_t source_high;
} cartograph_tape_entry;

/// Why the C side cancelled a parse (the Swift side turns it into a
/// `CartographError`).
typedef enum cartograph_tape_failure {
    CARTOGRAPH_TAPE_OK = 0,
    /// A number text longer than `max_number` (`failure_value`: its length).
    CARTOGRAPH_TAPE_NUMBER_TOO_LONG,
    /// A string or key longer than `max_string` (`failure_value`: its length).
    CARTOGRAPH_TAPE_STRING_TOO_LONG,
    /// An object with more than `max_keys` keys (`failure_value`: the count).
    CARTOGRAPH_TAPE_TOO_MANY_KEYS,
    /// Nesting deeper than `max_depth` (`failure_value`: the depth).
    CARTOGRAPH_TAPE_TOO_DEEP,
    /// Invalid UTF-8 (`failure_value`: the offset in the string, `failure_byte`: the byte).
    CARTOGRAPH_TAPE_INVALID_UTF8,
    /// A key outside an object (yajl never sends one; kept as a check).
    CARTOGRAPH_TAPE_KEY_OUTSIDE_OBJECT,
    /// A container closed that was never opened (likewise).
    CARTOGRAPH_TAPE_UNOPENED_CLOSE,
    /// malloc or realloc failed for the C side's scratch.
    CARTOGRAPH_TAPE_OUT_OF_MEMORY,
    /// A Swift callback failed and recorded the error itself.
    CARTOGRAPH_TAPE_REPORTED,
} cartograph_tape_failure;

/// An open container.
typedef struct cartograph_tape_frame {
    /// Tape index of the container's entry.
    intptr_t entry;
    /// Elements of an array, keys of an object, so far.
    intptr_t count;
    /// Where this object's keys start in `keys`.
    intptr_t first_key;
    /// Nesting depth (0: the top level, outside every container).
    intptr_t depth;
    uint8_t is_object;
    /// Whether a key of this object has a byte above 0x7F.
    uint8_t has_non_ascii_key;
} cartograph_tape_frame;

/// A key of an open object: its signature (length and end bytes, mixed;
/// see cartograph_yajl_tape.c) and its tape index.
/// How many open containers, keys of open objects and roots a parse holds
/// before it allocates (cartograph_yajl_tape's inline scratch).
#define CARTOGRAPH_INLINE_FRAMES 16
#define CARTOGRAPH_INLINE_KEYS 32
#define CARTOGRAPH_INLINE_ROOTS 4
/// Bytes of yajl's allocations a parse holds before it calls malloc: its
/// handle, lexer, buffers' headers and first state stack (under 768 bytes),
/// and the 2 KB yajl gives its lexer's buffer at the end of every input
/// (and its decoding buffer at the first escape), each with a 16-byte header.
#define CARTOGRAPH_ARENA_BYTES (768 + 2 * (2048 + 16))

typedef struct cartograph_tape_key {
    uint64_t signature;
    intptr_t entry;
} cartograph_tape_key;

/// Where indentation or a string's body was left out of the text yajl
/// lexes: from lexed byte `at` on, the absolute offset of lexed byte `p` is
/// `origin + p`.
typedef struct cartograph_lexed_shift {
    intptr_t at;
    intptr_t origin;
} cartograph_lexed_shift;

/// A string whose body yajl is not given (cartograph_yajl_tape_parse): the
/// copy keeps its quotes, `""`, and the callbacks read the body from the
/// input. `start` is the absolute offset of its first byte, `end` that of
/// its closing quote; `escaped` says whether it holds escapes (all valid:
/// the scan checked them, surrogate pairs included).
typedef struct cartograph_elided_string {
    intptr_t start;
    intptr_t end;
    intptr_t escaped;
} cartograph_elided_string;

/// Where the scan for strings stands at the end of a chunk
/// (`cartograph_yajl_tape.scan_state`).
enum {
    /// Between tokens.
    CARTOGRAPH_SCAN_BETWEEN = 0,
    /// Inside a string that goes on in the next chunk.
    CARTOGRAPH_SCAN_IN_STRING = 1,
    /// Inside a string, right after a backslash.
    CARTOGRAPH_SCAN_AFTER_BACKSLASH = 2,
    /// Given up for this parse: no string is left out any more.
    CARTOGRAPH_SCAN_STOPPED = 3,
};

/// The state of one parse. Swift creates it zeroed, fills the tape
/// buffers, limits and callbacks, and passes it as yajl's context.
typedef struct cartograph_yajl_tape {
    /* The tape (buffers owned by Swift; entries are Swift TapeEntry values). */
    void *entries;
    intptr_t count;
    intptr_t capacity;
    uint8_t *bytes;
    intptr_t byte_count;
    intptr_t byte_capacity;

    /* Where yajl is in the input. */
    void *handle;
    /// yajl's own count of the bytes consumed in the current `yajl_parse`
    /// call, read in place (cartograph_yajl_tape_attach), or NULL: read
    /// through `yajl_get_bytes_consumed`.
    const size_t *consumed;
    /// Absolute offset of the current chunk's first byte.
    intptr_t chunk_base;
    const uint8_t *chunk_start;
    intptr_t chunk_count;
    /// Absolute offset just past the last token a callback saw.
    intptr_t last_token_end;

    /* What yajl is given (cartograph_yajl_tape_parse): the chunk itself, or
       a block of it copied without the indentation after each line feed
       and without the bodies of long strings. */
    const uint8_t *lexed_start;
    intptr_t lexed_count;
    /// The absolute offset of lexed byte `p` is `lexed_origin + p` for `p`
    /// below `next_shift_at`; from there on `shifts` give the origin.
    intptr_t lexed_origin;
    intptr_t next_shift_at;
    cartograph_lexed_shift *shifts;
    intptr_t shift_count;
    intptr_t shift_index;
    /// The first origin of the lexed text (for lookups that start over).
    intptr_t first_origin;
    /// The copy's buffer (owned here, like `shifts`), the bytes a block
    /// reads (the buffer holds 128 more), the records `shifts` holds (and
    /// one more), and whether copying was given up for this parse (text
    /// with little indentation).
    uint8_t *unindented;
    intptr_t unindented_block;
    intptr_t shift_capacity;
    int copies_stopped;
    /// Whether the parse's first block was copied and judged (whether
    /// copying and the string scan pay are decided after it).
    int copy_judged;
    /// Bytes of input read through the copy in this parse (tests check
    /// where copying stops).
    intptr_t copied_total;
    /// Long strings found ahead of the copy, in order (owned here): the
    /// copies leave their bodies out. `elided_next` is the next one a
    /// callback can meet in the block yajl is lexing.
    cartograph_elided_string *elided;
    intptr_t elided_count;
    intptr_t elided_capacity;
    intptr_t elided_next;
    /// How many strings the callbacks read from the input so far.
    intptr_t elided_total;
    /// Where the scan for strings goes on (absolute), and its state there.
    intptr_t scan_position;
    int scan_state;
    /// Strings the scan went through, and the bytes of those it found long
    /// enough to leave out (whether the scan pays for itself).
    intptr_t scanned_strings;
    intptr_t scanned_long_bytes;
    /// Whether a chunk was given to cartograph_yajl_tape_parse yet (the
    /// first one sets where the scan starts).
    int scan_started;
    /// Set by Swift when the chunk given next is the rest of the input (a
    /// whole document): a short one is then not followed by the scan, as
    /// nothing after it could be left out.
    int input_complete;
    /// An elided string's escapes, decoded for a callback (owned here).
    uint8_t *decoded;
    intptr_t decoded_capacity;

    /* Limits (ParseOptions). */
    intptr_t max_depth;
    intptr_t max_keys;
    intptr_t max_string;
    intptr_t max_number;
    /// The duplicate table's seed (random per process; KeyHash.seed).
    uint64_t seed;

    /* Scratch, owned here. */
    /// The innermost open container: the last of `frames`, whose first is
    /// the top level (depth 0).
    cartograph_tape_frame *top;
    cartograph_tape_frame *frames;
    intptr_t frame_count;
    intptr_t frame_capacity;
    cartograph_tape_key *keys;
    intptr_t key_count;
    intptr_t key_capacity;
    intptr_t *roots;
    intptr_t root_count;
    intptr_t root_capacity;
    uint64_t *table;
    intptr_t table_capacity;
    uint64_t table_generation;

    /* The first failure. */
    int failure;
    intptr_t failure_value;
    intptr_t failure_source;
    uint8_t failure_byte;

    /* Back into Swift (context: the Swift parser, unretained). */
    void *context;
    /// Makes room for `entries` more entries and `bytes` more bytes, after
    /// reading `count` and `byte_count`, and stores the new buffers and
    /// capacities here.
    void (*grow)(void *context, intptr_t entries, intptr_t bytes);
    /// The absolute offset of the opening quote of a string yajl decoded
    /// or carried over from an earlier chunk, or -1 after recording a failure.
    intptr_t (*escaped_string_start)(void *context, const uint8_t *bytes, intptr_t count);
    /// Applies the duplicate-key policy to the object at `entry` (every
    /// entry after it is its subtree), after reading `count` and
    /// `byte_count`; returns how many keys stay visible, or -1 after
    /// recording a failure.
    intptr_t (*resolve_duplicates)(void *context, intptr_t entry, intptr_t count, int canonically);

    /* Room in the struct itself, last: not zeroed when it is made
       (cartograph_yajl_tape_create). */
    intptr_t arena_used;
    /// Where `frames`, `keys` and `roots` start: a small document needs no
    /// allocation for them (they move to the heap when they outgrow these).
    cartograph_tape_frame inline_frames[CARTOGRAPH_INLINE_FRAMES];
    cartograph_tape_key inline_keys[CARTOGRAPH_INLINE_KEYS];
    intptr_t inline_roots[CARTOGRAPH_INLINE_ROOTS];
    /// Room for yajl's own allocations (its handle, lexer, buffers' headers
    /// and first state stack: cartograph_yajl_alloc), used from the front;
    /// what does not fit goes to malloc.
    _Alignas(16) uint8_t arena[CARTOGRAPH_ARENA_BYTES];
} cartograph_yajl_tape;

/// A new parser state, every field zero but the room at its end (not read
/// before it is written), its open-container stack holding the top level's
/// frame; NULL when out of memory. Freed with cartograph_yajl_tape_destroy.
/// The calling thread's spare struct is used when it has one (see
/// cartograph_yajl_tape_destroy).
cartograph_yajl_tape *cartograph_yajl_tape_create(void);

/// Frees the scratch the C side allocated (not the tape's buffers, which
/// Swift owns), then keeps the struct as the calling thread's spare if it
/// has none (freed when the thread exits), or frees it. Any thread may
/// destroy a struct another made.
void cartograph_yajl_tape_destroy(cartograph_yajl_tape *tape);

/// Whether the calling thread holds a spare struct (for tests).
int cartograph_yajl_tape_has_spare(void);

/// How many spare structs were freed as their threads ended, over all
/// threads so far (for tests).
intptr_t cartograph_yajl_tape_spares_freed_at_exit(void);

/// The yajl callback table (a `const yajl_callbacks *`) whose context is a
/// `cartograph_yajl_tape *`. Number callbacks receive the raw text.
const void *cartograph_yajl_tape_callbacks(void);

/// A yajl handle (`yajl_alloc`) whose allocations come from `tape`'s arena
/// while it has room, and from malloc after that; `yajl_free` gives back
/// the latter only (the arena goes with the tape). `context` is what
/// yajl hands the callbacks. NULL when out of memory.
void *cartograph_yajl_alloc(cartograph_yajl_tape *tape, const void *callbacks, void *context);

/// Called once `handle` is set: lets the callbacks read yajl's count of
/// bytes consumed in place when this yajl's handle keeps it where yajl 2.x
/// does (checked once per process on a probe handle), instead of calling
/// into the library per container and literal.
void cartograph_yajl_tape_attach(cartograph_yajl_tape *tape);

/// Whether this process's yajl passed that check (1) or the callbacks call
/// `yajl_get_bytes_consumed` (0).
int cartograph_yajl_reads_consumed_in_place(void);

/// Nesting depth of the value being read (0 between top-level values).
static inline intptr_t cartograph_yajl_tape_depth(const cartograph_yajl_tape *tape) {
    return tape->top != NULL ? tape->top->depth : 0;
}

/// Hands `count` bytes of input, the first at absolute offset `base`, to
/// yajl (`yajl_parse`) and returns its status; `chunk_start` and
/// `chunk_base` must name the same bytes (left-out strings are read from
/// there). With `unindent`, the text is given in blocks copied without the
/// spaces and tabs that follow each line feed (yajl lexes whitespace a byte
/// at a time; the line feeds stay, so that a line feed inside a string is
/// still an error there) and without the bodies of long strings yajl would
/// accept (cartograph_scan_strings); every offset the callbacks record is
/// the input's own.
int cartograph_yajl_tape_parse(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base, int unindent);

/// Parses a whole input of `count` bytes and ends it
/// (`yajl_complete_parse`), the input's first byte at offset 0: what
/// feeding it as one chunk and finishing does, in one call, on a yajl
/// handle made for it in `tape`'s arena and freed before it returns
/// (`tape->handle` is NULL again then). `tape` is new (its buffers, limits
/// and callbacks set). Returns 1 for a complete document (every container
/// closed, at least one value, no failure recorded) and 0 for anything
/// else, which is left to the general path: an empty input, a byte order
/// mark, a vertical tab or form feed (which yajl would take for
/// whitespace; looked for before yajl is given anything), invalid JSON, a
/// broken limit, a callback that declined, or anything but whitespace
/// after the last token (yajl lets an unfinished string or comment end
/// the input after a complete value).
int cartograph_yajl_tape_parse_whole(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, int allow_comments,
    int allow_multiple_values);

/// Tells the callbacks that yajl's next text (`yajl_complete_parse`: none)
/// starts at absolute offset `base`, as given.
void cartograph_yajl_tape_lex_plain(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base);

/// The absolute offset just past the token yajl has read (and records it
/// as the last token's end), during a callback.
intptr_t cartograph_yajl_tape_token_end(cartograph_yajl_tape *tape);

/// The absolute offset of byte `lexed` of the text yajl was last given
/// (`lexed` may be its length: the end).
intptr_t cartograph_yajl_tape_absolute(const cartograph_yajl_tape *tape, intptr_t lexed);

/// Copies text to `target`, leaving out every run of spaces and tabs that
/// follows a line feed, until at least `limit` bytes are read (or all
/// `count`, or `shift_capacity` runs were left out); writes where the
/// reading stopped to `read` and returns the bytes written. Each run left
/// out is recorded in `shifts` with `origin` as the absolute offset of
/// byte 0 of `bytes`. `target` must hold `limit + 64` bytes.
intptr_t cartograph_copy_unindented(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read);

/// cartograph_copy_unindented that also leaves out the bodies of the
/// `string_count` strings in `strings` (absolute offsets; each wholly after
/// `origin`, in order): their quotes are kept, `""`. A block ends only
/// where no such string is cut in two, stepping back to the last place
/// that was not when the shifts are full; it returns with nothing read
/// when there is none. Needs AVX2 (`string_count` must be 0 without it)
/// and room for `limit + 128` bytes in `target`.
intptr_t cartograph_copy_lexable(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read,
    const cartograph_elided_string *strings, intptr_t string_count);

/// Scans the chunk `bytes` (absolute offset `base`, `count` bytes) for
/// strings from `tape->scan_position` on, in `tape->scan_state`, until
/// past chunk offset `until` between tokens: each string of at least
/// `minimum` bytes whose text yajl would accept (no control character,
/// valid escapes, surrogates in pairs) and that ends at least 96 bytes
/// before the chunk does is appended to `tape->elided`. Anything else
/// that could change how yajl reads what follows (a `/`, which may open
/// a comment; an invalid string; a full list) stops the scan for the
/// parse. Needs AVX2.
void cartograph_scan_strings(cartograph_yajl_tape *tape, const uint8_t *bytes, intptr_t count, intptr_t base, intptr_t until,
    intptr_t minimum);

/// Decodes the escapes of a string body the scan accepted (`count` bytes)
/// into `target`, which holds `count` bytes; returns the decoded length.
/// The same bytes yajl's decoder gives for such text.
intptr_t cartograph_decode_escapes(uint8_t *target, const uint8_t *body, intptr_t count);

/// cartograph_copy_unindented without vector instructions (what it does
/// where the processor has no AVX2; tests compare the two).
intptr_t cartograph_copy_unindented_scalar(uint8_t *target, const uint8_t *bytes, intptr_t count, intptr_t limit, intptr_t origin,
    cartograph_lexed_shift *shifts, intptr_t shift_capacity, intptr_t *shift_count, intptr_t *read);

/// The offset of the first byte that starts an invalid UTF-8 sequence, or
/// -1 when all `count` bytes are valid. Strict (Unicode table 3-7): no
/// overlong forms, no encoded surrogates, nothing above U+10FFFF, no
/// truncated sequences.
intptr_t cartograph_utf8_first_invalid(const uint8_t *bytes, intptr_t count);

/// cartograph_utf8_first_invalid that also copies the bytes to `target`
/// when they are valid (one pass where the vector path runs); when they are
/// not, `target`'s first `count` bytes are left unspecified.
intptr_t cartograph_utf8_copy_first_invalid(uint8_t *target, const uint8_t *bytes, intptr_t count);

/// Whether the processor and the OS support AVX2 (always 0 off x86-64).
int cartograph_has_avx2(void);

/// Writes a finite double's shortest round-trip text into `out` (room for
/// 32 bytes), as Swift's `description` spells it but without a whole
/// value's `.0` (`100`, `-0`, `0.1`, `1e-05`, `1.5e+300`); returns its length.
intptr_t cartograph_format_double(double value, uint8_t *out);

/// cartograph_json_escape's options: escape `/` as `\/`.
#define CARTOGRAPH_ESCAPE_SLASH 1u
/// Escape every non-ASCII scalar as `\uXXXX` (a surrogate pair beyond U+FFFF).
#define CARTOGRAPH_ESCAPE_NON_ASCII 2u
/// Leave out the AVX2 loop (tests compare the two paths).
#define CARTOGRAPH_ESCAPE_SCALAR 4u

/// Writes `in[*read ..< count]` (UTF-8 text) into `out` as a JSON string
/// body: quotes, backslashes and control bytes escaped (`\n`, `\u001f`:
/// lowercase hex), and slashes and non-ASCII scalars when the options say.
/// Writes at most `room` bytes and stops before a step that could write
/// more than fits (a step needs 44 bytes of room), so a caller with little
/// room left gets back a shorter result, never an overrun: it advances
/// `*read` past the bytes consumed and returns the number written. The
/// caller makes room and calls again until `*read == count`.
intptr_t cartograph_json_escape(const uint8_t *in, intptr_t count, intptr_t *read, uint8_t *out, intptr_t room, unsigned options);

/// The offset of the first backslash followed by `u` and `d` or `D` in raw
/// JSON string text, or -1 when there is none: where a `\uD…` escape, the
/// only kind that can hold a UTF-16 surrogate, may start (the caller checks
/// that the backslash is not itself escaped and reads the code unit). 32
/// bytes at a step with AVX2.
intptr_t cartograph_find_surrogate_escape(const uint8_t *bytes, intptr_t count);

/// The index of the first vertical tab (0x0B) or form feed (0x0C) in the
/// bytes, or -1: whitespace to yajl, not to JSON.
intptr_t cartograph_find_vertical_space(const uint8_t *bytes, intptr_t count);

/// What ``cartograph_count_lines`` finds in a chunk.
typedef struct {
    /// The `\n` bytes.
    intptr_t newlines;
    /// The offset of the last one, or -1.
    intptr_t last_newline;
    /// The Unicode scalars after it (or in the whole chunk, without one):
    /// bytes that are not UTF-8 continuation bytes.
    intptr_t scalars_after;
} cartograph_line_counts;

/// Counts a chunk's line breaks and the scalars after the last one, in one
/// pass (an incremental parse's line and column, for error locations):
/// 32 bytes at a step with AVX2 when `vectorised` (tests turn it off to
/// check the word loop other processors take), else 8.
void cartograph_count_lines(const uint8_t *bytes, intptr_t count, int vectorised, cartograph_line_counts *counts);

/// Where jansson's dump goes (dump_sink.c): the output, begun in the
/// thread's kept output block, grown with `realloc` and given back by
/// ``cartograph_dump_sink_release``, and the texts
/// of the numbers and nulls the DOM holds as jansson's null, in dump order
/// (`number_text`, each ending at the next `number_ends` offset; borrowed
/// from the caller for the dump). Zero it, set the numbers, then pass it
/// as the data of ``cartograph_dump_sink_write``.
typedef struct {
    uint8_t *output;
    intptr_t count;
    intptr_t capacity;
    const uint8_t *number_text;
    const intptr_t *number_ends;
    intptr_t number_count;
    intptr_t next_number;
    int in_string;
    /// Set when memory ran out or a placeholder had no text left.
    int failed;
} cartograph_dump_sink;

/// A `json_dump_callback` callback: appends the chunk to the sink, writing
/// the next queued text for a null and lowercase hex in `\u`
/// escapes; -1 (the dump stops) on failure.
int cartograph_dump_sink_write(const char *buffer, size_t size, void *data);

/// Gives the sink's output block back (cartograph_output_block_give).
void cartograph_dump_sink_release(cartograph_dump_sink *sink);

/// An allocator's two functions, as jansson's json_set_alloc_funcs takes them.
typedef void *(*cartograph_malloc_fn)(size_t);
typedef void (*cartograph_free_fn)(void *);

/// The allocator jansson is given (dom_arena.c): inside an arena scope on
/// this thread, bumps in the thread's blocks and frees that do nothing;
/// otherwise malloc and free.
void *cartograph_dom_arena_malloc(size_t size);
void cartograph_dom_arena_free(void *pointer);

/// Whether these are the C library's malloc and free (jansson's defaults,
/// which only then are replaced by the arena's).
int cartograph_dom_arena_is_default(cartograph_malloc_fn malloc_fn, cartograph_free_fn free_fn);

/// Whether these are the arena's two functions (jansson still has them:
/// nothing in the process has given it others since).
int cartograph_dom_arena_is_installed(cartograph_malloc_fn malloc_fn, cartograph_free_fn free_fn);

/// Begins an arena scope on this thread; 0 (no scope begun) if one is
/// already open here.
int cartograph_dom_arena_begin(void);

/// Whether an allocation of this thread's scope went to malloc (the
/// scope's blocks were full): the DOM must then be released with
/// json_decref before the scope ends.
int cartograph_dom_arena_overflowed(void);

/// Ends this thread's scope: everything allocated in its blocks is
/// dropped, and the blocks (at most 64 MB) kept, empty, for the next
/// scope; those past the first 4 MB are freed after eight scopes in a row
/// that needed no more than 4 MB.
void cartograph_dom_arena_end(void);

/// The bytes of blocks this thread keeps (for tests).
size_t cartograph_dom_arena_kept_bytes(void);

/// The block of memory for a native JSON writer's output (output_block.c):
/// this thread's kept block if it has one of at least `minimum` bytes (a
/// smaller kept block is grown to `minimum`), else a new one from malloc.
/// Sets `*capacity` to the block's size; NULL (and 0) if memory is out.
/// The block goes back through cartograph_output_block_give.
void *cartograph_output_block_take(size_t minimum, size_t *capacity);

/// Gives a writer's block back when its output is done (`used`: the bytes
/// it wrote): kept for this thread's next output if it is at most 4 MB,
/// freed otherwise; a kept block over 256 KB is freed after eight outputs
/// in a row that used an eighth of it or less, and when the thread ends.
void cartograph_output_block_give(void *block, size_t capacity, size_t used);

/// The bytes of the block this thread keeps (for tests).
size_t cartograph_output_block_kept_bytes(void);

/// The bytes this thread's last output came to (given back, or noted by
/// cartograph_output_block_note_used); 0 before its first.
size_t cartograph_output_block_last_used(void);

/// Notes the size of an output written outside the thread's block (into
/// an array's storage, OutputLease.swift).
void cartograph_output_block_note_used(size_t used);

/// Within the C layer (thread_exit.c): has what this thread keeps (the
/// parser's spare, arena blocks, the output block) freed when it ends.
/// 1 once registered (cheap after the first call); 0 if it cannot be
/// (then nothing may be kept for the thread).
int cartograph_thread_exit_register(void);

/// Free what this thread keeps (called as the thread ends).
void cartograph_yajl_tape_release_thread(void);
void cartograph_dom_arena_release_thread(void);
void cartograph_output_block_release_thread(void);

static inline uint64_t cartograph_load64(const uint8_t *bytes) {
    uint64_t value;
    memcpy(&value, bytes, 8);
    return value;
}

static inline uint32_t cartograph_load32(const uint8_t *bytes) {
    uint32_t value;
    memcpy(&value, bytes, 4);
    return value;
}

/// Copies `length` bytes (the tape builders' text copy): two overlapping
/// word moves for short text, where a call to memcpy per token costs more
/// than the copy itself; memcpy for the rest.
static inline void cartograph_copy_text(uint8_t *target, const uint8_t *source, intptr_t length) {
    if (length >= 8 && length <= 16) {
        uint64_t head = cartograph_load64(source), tail = cartograph_load64(source + length - 8);
        memcpy(target, &head, 8);
        memcpy(target + length - 8, &tail, 8);
    } else if (length >= 4 && length < 8) {
        uint32_t head = cartograph_load32(source), tail = cartograph_load32(source + length - 4);
        memcpy(target, &head, 4);
        memcpy(target + length - 4, &tail, 4);
    } else if (length < 4) {
        for (intptr_t index = 0; index < length; index++) target[index] = source[index];
    } else {
        memcpy(target, source, (size_t)length);
    }
}

/// Whether every byte of text over 32 bytes is below 0x80, 32 bytes at a
/// step (the last step overlapping), answered at the first step with a
/// non-ASCII byte: a string in another script is not read to its end (on
/// strings.json, Swift's strings read 1.4 MB a decode for this answer).
/// Kept apart from cartograph_utf8_is_ascii, which the C tape builder
/// inlines into its callbacks (with this loop in it, check_text was no
/// longer inlined: +400K instructions a twitter.json decode).
static inline int cartograph_utf8_long_is_ascii(const uint8_t *bytes, intptr_t count) {
    const uint64_t high = 0x8080808080808080ULL;
    intptr_t index = 0;
    for (; index + 32 < count; index += 32) {
        uint64_t block = cartograph_load64(bytes + index) | cartograph_load64(bytes + index + 8)
            | cartograph_load64(bytes + index + 16) | cartograph_load64(bytes + index + 24);
        if (block & high) return 0;
    }
    const uint8_t *last = bytes + count - 32;
    uint64_t block = cartograph_load64(last) | cartograph_load64(last + 8) | cartograph_load64(last + 16) | cartograph_load64(last + 24);
    return (block & high) == 0;
}

/// Whether every byte is below 0x80: whole words, then one overlapping word
/// (or two overlapping half-words) for the tail, never byte by byte.
static inline int cartograph_utf8_is_ascii(const uint8_t *bytes, intptr_t count) {
    if (count >= 8) {
        uint64_t combined = 0;
        intptr_t index = 0;
        for (; index + 8 < count; index += 8) combined |= cartograph_load64(bytes + index);
        combined |= cartograph_load64(bytes + count - 8);
        return (combined & 0x8080808080808080ULL) == 0;
    }
    if (count >= 4) {
        return ((cartograph_load32(bytes) | cartograph_load32(bytes + count - 4)) & 0x80808080U) == 0;
    }
    uint8_t combined = 0;
    for (intptr_t index = 0; index < count; index++) combined |= bytes[index];
    return (combined & 0x80) == 0;
}

static inline uint64_t cartograph_key_hash_mix(uint64_t value) {
    uint64_t x = value * 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 31;
    x *= 0x94D049BB133111EBULL;
    return x ^ (x >> 29);
}

/// A seeded hash of every byte of a key: whole words, then one overlapping
/// last word, so there is no byte-by-byte tail. Seeded per process, so
/// inputs cannot be built to collide.
static inline uint64_t cartograph_key_hash(const uint8_t *bytes, intptr_t count, uint64_t seed) {
    uint64_t state = seed ^ ((uint64_t)count * 0x9E3779B97F4A7C15ULL);
    if (bytes == NULL || count <= 0) return cartograph_key_hash_mix(state);
    if (count >= 8) {
        intptr_t index = 0;
        for (; index + 8 < count; index += 8) state = cartograph_key_hash_mix(state ^ cartograph_load64(bytes + index));
        return cartograph_key_hash_mix(state ^ cartograph_load64(bytes + count - 8));
    }
    if (count >= 4) {
        uint64_t low = cartograph_load32(bytes);
        uint64_t high = cartograph_load32(bytes + count - 4);
        return cartograph_key_hash_mix(state ^ (high << 32 | low));
    }
    return cartograph_key_hash_mix(state ^ ((uint64_t)bytes[0] << 16 | (uint64_t)bytes[count / 2] << 8 | (uint64_t)bytes[count - 1]));
}

#endif
