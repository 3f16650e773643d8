// The prefetch hint is an inline function in include/rowkit_prefetch.h; a C target needs one
// source file.
#include "rowkit_prefetch.h"
