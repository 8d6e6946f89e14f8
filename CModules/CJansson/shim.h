#ifndef CARTOGRAPH_CJANSSON_SHIM_H
#define CARTOGRAPH_CJANSSON_SHIM_H

#include <jansson.h>

/// json_decref is a static inline with a macro-built refcount test in
/// jansson.h; Swift imports it, but this wrapper keeps the ownership rule in
/// one place: the caller gives up its (new) reference.
static inline void cartograph_json_release(json_t *json) {
    json_decref(json);
}

/// JSON_INDENT(n) and JSON_REAL_PRECISION(n) are function-like macros, which
/// Swift cannot import.
static inline size_t cartograph_json_indent_flag(int spaces) {
    return JSON_INDENT(spaces);
}

#endif
