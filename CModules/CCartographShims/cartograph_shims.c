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
