// The unsafe perimeter.
//
// The Cartograph module is built with strict memory safety (SE-0458,
// `.strictMemorySafety()` in Package.swift): every use of a raw pointer,
// `Unmanaged`, a bit cast, unchecked exclusivity or a C function must be
// written `unsafe`, and a type that stores such things says `@safe` (it
// keeps them inside) or `@unsafe`. The compiler finds each one; this folder
// is where they belong:
//
//     Unsafe/C/        the only code that imports C (yajl, jansson, libplist,
//                      the tape builder and the shims): C handles, callbacks
//                      through `Unmanaged`, and the text the C side reads.
//     Unsafe/Layout/   what reads the Swift runtime's private layout, behind
//                      one switch (``LayoutAssumptions``,
//                      `CARTOGRAPH_PORTABLE_LAYOUT=1`).
//     Unsafe/Memory/   the raw buffers: the tape's entries and text
//                      (``Tape``), the writers' output (``OutputBuffer``),
//                      the builder's stack, byte comparisons.
//
// What the code here guarantees to the layers above:
//
// - A tape is written only by ``DocumentBuilder`` and only before its
//   ``Document`` is handed out; afterwards it is read-only, and every
//   pointer into it stays valid while the ``Document`` lives. A reader of
//   the tape holds its document.
// - Every C handle is released on every path (a `defer` beside the call
//   that made it), and who owns each jansson reference is said at the call.
// - Every trick on the runtime's layout is checked where it can be (sizes,
//   a round trip) and has a portable path that gives the same results;
//   `scripts/test` runs the suite both ways.
// - Exclusivity is unchecked only on properties of objects one decode or
//   encode owns on one thread, never shared between tasks.
//
// Code outside this folder still marked `unsafe` is listed, file by file
// with its count, in `Tests/unsafe-outside-perimeter.txt`; the
// `SourceLayoutTests` fail when a file outside the folder gains a mark or
// when the list overstates one, so the list can only shrink.
// `scripts/unsafe-perimeter` prints the counts and rewrites the list.
