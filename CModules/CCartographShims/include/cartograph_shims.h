#ifndef CARTOGRAPH_SHIMS_H
#define CARTOGRAPH_SHIMS_H

/// Parses a NUL-terminated decimal number in the C locale, whatever the
/// process locale is (strtod_l needs _GNU_SOURCE, which Swift's Glibc module
/// does not define, so it is reached through this one function).
double cartograph_strtod_c_locale(const char *text);

#include <stddef.h>
#include <stdint.h>

/// Bytes of the calling thread's stack left below the caller's frame, or
/// SIZE_MAX when the stack's bounds cannot be found. The bounds are read
/// once per thread (pthread_getattr_np, a GNU extension) and kept in a
/// thread-local variable, so a call costs a few instructions.
/// Under AddressSanitizer (whose redzones make every frame larger) or
/// ThreadSanitizer the figure is 256 KiB smaller than the room there is.
size_t cartograph_stack_remaining(void);

/// What cartograph_stack_remaining leaves out: 256 KiB when this module
/// was built with AddressSanitizer or ThreadSanitizer, else 0.
size_t cartograph_stack_sanitizer_allowance(void);

/// Tells ThreadSanitizer that the calling thread has taken (acquire) or
/// is about to give up (release) the lock at address `lock` (an integer:
/// it is a key, never read). Swift's
/// `Synchronization.Mutex` locks through code ThreadSanitizer does not
/// instrument, so without these it reports a race on every value handed
/// from one thread to another through a Mutex. Nothing in other builds.
void cartograph_sanitizer_acquire(uintptr_t lock);
void cartograph_sanitizer_release(uintptr_t lock);

#endif
