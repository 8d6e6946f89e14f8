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

size_t cartograph_stack_remaining(void) {
    volatile char here = 0;
    uintptr_t current = (uintptr_t)&here;
    if (stack_low == 0) {
        stack_low = lowest_stack_address();
    }
    if (stack_low <= 1) {
        return SIZE_MAX;
    }
    return current > stack_low ? current - stack_low : 0;
}
