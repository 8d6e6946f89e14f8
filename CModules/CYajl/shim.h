#ifndef CARTOGRAPH_CYAJL_SHIM_H
#define CARTOGRAPH_CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/// yajl_config is variadic, which Swift cannot call: one wrapper per option
/// value type. Returns yajl's result (non-zero on success).
static inline int cartograph_yajl_config(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

#endif
