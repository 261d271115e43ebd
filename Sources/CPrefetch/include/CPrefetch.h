#ifndef FANOUT_CPREFETCH_H
#define FANOUT_CPREFETCH_H

// Swift has no prefetch instruction of its own; the key table's batched interning (docs/performance.md "The read
// phase beside JSON parsers") asks for the cache line of a key's slot a few keys before it looks there.
static inline void fanout_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#include <stdint.h>

// Slots of hashes that many threads fill, each the same value whoever makes it (PageInputCache): read and written
// whole, without a lock, as relaxed atomics (0 until made).
static inline uint64_t fanout_load_word(const uint64_t *address) { return __atomic_load_n(address, __ATOMIC_RELAXED); }
static inline void fanout_store_word(uint64_t *address, uint64_t value) {
    __atomic_store_n(address, value, __ATOMIC_RELAXED);
}

#endif
