#ifndef CARTOGRAPH_SHIMS_H
#define CARTOGRAPH_SHIMS_H

/// Parses a NUL-terminated decimal number in the C locale, whatever the
/// process locale is (strtod_l needs _GNU_SOURCE, which Swift's Glibc module
/// does not define, so it is reached through this one function).
double cartograph_strtod_c_locale(const char *text);

#endif
