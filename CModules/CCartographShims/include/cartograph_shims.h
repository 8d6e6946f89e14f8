#ifndef CARTOGRAPH_SHIMS_H
#define CARTOGRAPH_SHIMS_H

/// Parses a NUL-terminated decimal number in the C locale, whatever the
/// process locale is (strtod_l needs _GNU_SOURCE, which Swift's Glibc module
/// does not define, so it is reached through this one function).
double cartograph_strtod_c_locale(const char *text);

#include <stddef.h>

/// Bytes of the calling thread's stack left below the caller's frame, or
/// SIZE_MAX when the stack's bounds cannot be found. The bounds are read
/// once per thread (pthread_getattr_np, a GNU extension) and kept in a
/// thread-local variable, so a call costs a few instructions.
/// Under AddressSanitizer (whose redzones make every frame larger) the
/// figure is 256 KiB smaller than the room there is.
size_t cartograph_stack_remaining(void);

/// What cartograph_stack_remaining leaves out: 256 KiB when this module
/// was built with AddressSanitizer, else 0.
size_t cartograph_stack_sanitizer_allowance(void);

#endif
