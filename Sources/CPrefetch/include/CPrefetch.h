#ifndef FANOUT_CPREFETCH_H
#define FANOUT_CPREFETCH_H

// Swift has no prefetch instruction of its own; the key table's batched interning (docs/performance.md)
// asks for the cache line of a key's slot a few keys before it looks there.
static inline void fanout_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
