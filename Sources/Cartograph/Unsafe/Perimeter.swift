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
//                      the tape builder, the string escaper and the shims):
//                      C handles, callbacks through `Unmanaged`, the
//                      text the C side reads or writes, and the mutex
//                      ThreadSanitizer is told about (`SanitizedLock.swift`).
//     Unsafe/Layout/   what reads the Swift runtime's private layout, behind
//                      one switch (``LayoutAssumptions``,
//                      `CARTOGRAPH_PORTABLE_LAYOUT=1`).
//     Unsafe/Memory/   the raw buffers: the tape's entries and text
//                      (``Tape``), the writers' output (``OutputBuffer``,
//                      ``ByteCopy`` for its short runs, and
//                      ``OutputLease`` for an array written in place),
//                      the builder's stack and duplicate-key table, the
//                      streaming encoder's stack (``InPlaceArray``), the
//                      lists of an object's keys for lookups out of
//                      document order (``ObjectKeyList``,
//                      ``LearnedKeyOrder``), byte comparisons,
//                      bounds-checked word loads from spans
//                      (`Span.word(at:)`), the text operations on spans
//                      the standard library lacks (`SpanText.swift`:
//                      `memchr`, `memcmp`, decoding, lending a caller's
//                      bytes as a span), struct models' properties
//                      written and read in place (``ModelFields``,
//                      ``ModelView``), values lent from where they lie
//                      without a copy (``LentValue``), and the one
//                      place exclusivity goes unchecked
//                      (``ExclusiveState``, and ``Unretained`` for an
//                      object such state lends without a retain), and
//                      the lock-free publication the registry's caches
//                      use (``PublishedObject``, ``PublishedObjects``).
//
// What the code here guarantees to the layers above:
//
// - A tape is written only by the C tape builder and ``DocumentBuilder``,
//   and only before its ``Document`` is handed out; afterwards it is
//   read-only, and every pointer into it stays valid while the
//   ``Document`` lives. A reader of the tape holds its document, and a
//   stream reuses an element's tape only once nothing holds the document.
// - Every C handle is released on every path (a `defer` beside the call
//   that made it), and who owns each jansson reference is said at the call.
// - Every trick on the runtime's layout is checked where it can be (sizes,
//   a round trip) and has a portable path that gives the same results;
//   `scripts/test` runs the suite both ways.
// - Exclusivity is unchecked only on the state of objects one decode or
//   encode owns on one task (``ExclusiveState``: the encoders' stacks and
//   trees, the keyed encoding containers, the binary plist sink, the
//   names on a mapping decode's path stack), never
//   across code the library does not own; debug builds, which the test
//   suite runs, check those accesses themselves.
// - A struct model's property is written in place only at a
//   ``FieldOffset`` made from a `WritableKeyPath` (so only a stored
//   property kept inline), and only with a value of the property's own
//   type into a model of the field's own type: ``ModelFields`` checks both
//   on every store, in release builds too, and traps otherwise.
//
// - A value is lent (``LentValue``) only from memory its caller borrows
//   for the whole call, only if its type is bitwise-takable (checked on
//   every call; otherwise it is copied), and its bytes' second holder is
//   never destroyed, so every reference count ends as it began, on a throw
//   too.
// - An array's storage is written by an encode (``OutputLease``) only
//   inside the array's initializer, by one buffer at a time and never past
//   the capacity it was made with; when the initializer returns, a buffer
//   still alive leaves that memory, so nothing writes into the array after.
//
// The layers above read and write the tape through checked values made
// here: ``TapeReader`` (the views, the `Codable` decoder, the writers),
// ``TapeWriter`` and ``InPlaceBox`` (``DocumentBuilder``), ``KeyHints``;
// the mapping runtime writes models through ``ModelFields``.
//
// Code outside this folder still marked `unsafe` is listed, file by file
// with its count, in `Tests/unsafe-outside-perimeter.txt`; the
// `SourceLayoutTests` fail when a file outside the folder gains a mark or
// when the list overstates one, so the list can only shrink.
// `scripts/unsafe-perimeter` prints the counts and rewrites the list. What
// it still holds (18 marks in 14 files) is of three kinds:
//
// - public signatures that lend or take an unsafe buffer: `withEncodedBytes`
//   (a server copies from it into its `ByteBuffer`, whose API takes one),
//   and, kept beside their `Span` forms for callers that hold a buffer,
//   `Node.withUTF8`, `value(forKeyBytes:)`, `JSONParser.feed`,
//   `ModelStream.feed` and `PropertyListFormat.detect`;
// - the standard library's unchecked initializers and casts where a
//   checked one costs a lookup or a second pass per value: arrays and
//   strings built in place (`unsafeUninitializedCapacity`), a tape string
//   made without validating its UTF-8 again (``TapeString``), a typed
//   entry's downcast, the decoded array's bit cast to its own type;
// - `NSNumber`'s C type string (`objCType`), read as Foundation gives it.
//
// The layers above read caller bytes as spans: the number scanner
// (``NumberText``), whole inputs and streamed chunks, the snake_case key
// table, tape strings and keys; the readers that keep their input
// (plist, JSON5) are `~Escapable` structs that store a `Span` (the
// `Lifetimes` feature, enabled in Package.swift for the reason given
// there), so they cannot outlive the bytes and every byte they read is
// bounds-checked. The registry's lock-free caches publish through
// ``PublishedObject`` and ``PublishedObjects`` here.
