#ifndef CARTOGRAPH_CPLIST_SHIM_H
#define CARTOGRAPH_CPLIST_SHIM_H

#include <plist/plist.h>

#endif
