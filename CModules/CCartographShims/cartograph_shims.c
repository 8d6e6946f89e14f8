#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <stdlib.h>

#include "cartograph_shims.h"

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) {
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

double cartograph_strtod_c_locale(const char *text) {
    pthread_once(&c_locale_once, make_c_locale);
    if (c_locale == (locale_t)0) {
        return strtod(text, NULL);
    }
    return strtod_l(text, NULL, c_locale);
}

#include <stdint.h>

#ifdef __APPLE__
static size_t lowest_stack_address(void) {
    pthread_t self = pthread_self();
    uintptr_t high = (uintptr_t)pthread_get_stackaddr_np(self);
    return high - pthread_get_stacksize_np(self);
}
#else
static size_t lowest_stack_address(void) {
    pthread_attr_t attributes;
    void *address = NULL;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) {
        return 1;
    }
    int status = pthread_attr_getstack(&attributes, &address, &size);
    pthread_attr_destroy(&attributes);
    return status == 0 && address != NULL ? (uintptr_t)address : 1;
}
#endif

/* The lowest address of this thread's stack, found once per thread
   (pthread_getattr_np reads /proc/self/maps for the main thread). 1 when
   it cannot be known. */
static _Thread_local uintptr_t stack_low = 0;

/* AddressSanitizer pads every instrumented frame with redzones, so the
   same recursion takes several times the stack it takes in a plain build.
   Under it the guard's remaining room is reported this much smaller, which
   triples StackGuard's 128 KiB reserve: a 512 KiB thread still has room
   for shallow work, and the stretch between two checks cannot reach the
   end of the stack. Plain builds are unchanged. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CARTOGRAPH_ADDRESS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(CARTOGRAPH_ADDRESS_SANITIZED)
#define CARTOGRAPH_ADDRESS_SANITIZED 1
#endif
/* ThreadSanitizer's instrumented frames are larger too: without the same
   allowance a deep JSONValue's release ran a TSan build's stack out. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CARTOGRAPH_THREAD_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) && !defined(CARTOGRAPH_THREAD_SANITIZED)
#define CARTOGRAPH_THREAD_SANITIZED 1
#endif
#if defined(CARTOGRAPH_ADDRESS_SANITIZED) || defined(CARTOGRAPH_THREAD_SANITIZED)
static const size_t sanitizer_allowance = (size_t)256 << 10;
#else
static const size_t sanitizer_allowance = 0;
#endif

size_t cartograph_stack_remaining(void) {
    /* The frame's own address, not a local's: AddressSanitizer moves
       locals whose address is taken to a heap-allocated fake stack, which
       says nothing about where the thread's stack is. */
    uintptr_t current = (uintptr_t)__builtin_frame_address(0);
    if (stack_low == 0) {
        stack_low = lowest_stack_address();
    }
    if (stack_low <= 1) {
        return SIZE_MAX;
    }
    uintptr_t room = current > stack_low ? current - stack_low : 0;
    return room > sanitizer_allowance ? room - sanitizer_allowance : 0;
}

size_t cartograph_stack_sanitizer_allowance(void) {
    return sanitizer_allowance;
}

/* ThreadSanitizer's annotations (its own interface, declared here so that
   no sanitizer header is needed); empty in every other build. */
#ifdef CARTOGRAPH_THREAD_SANITIZED
void __tsan_acquire(void *address);
void __tsan_release(void *address);
#endif

void cartograph_sanitizer_acquire(uintptr_t lock) {
#ifdef CARTOGRAPH_THREAD_SANITIZED
    __tsan_acquire((void *)lock);
#else
    (void)lock;
#endif
}

void cartograph_sanitizer_release(uintptr_t lock) {
#ifdef CARTOGRAPH_THREAD_SANITIZED
    __tsan_release((void *)lock);
#else
    (void)lock;
#endif
}
