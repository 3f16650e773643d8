#ifndef ROWKIT_PREFETCH_H
#define ROWKIT_PREFETCH_H

/// Asks the CPU to bring the cache line holding `address` in, for reading soon (a hint: no
/// fault for any address, no effect on results). Swift has no prefetch builtin; this inline
/// function compiles to one prefetch instruction in the caller.
static inline __attribute__((always_inline)) void rowkit_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
