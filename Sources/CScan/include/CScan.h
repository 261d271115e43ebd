#ifndef FANOUT_CSCAN_H
#define FANOUT_CSCAN_H

#include <stddef.h>
#include <stdint.h>

// Finding JSON's structure many bytes at a time, which Swift's SIMD types cannot yet do well (their comparisons
// compile to a loop over the lanes, and they have no way to turn a comparison into a bit mask).

// The index just past the bracket that closes the object or array opening at `start` (`p[start]` is `{` or
// `[`), or `count` when the input ends first. Unchecked: it only matches brackets outside strings, so on input
// that is not JSON it stops somewhere in bounds. 64 bytes a step, with AVX-512 or AVX2 where the CPU has them.
size_t fanout_skip_container(const uint8_t *p, size_t count, size_t start);

// The ways of turning 64 bytes into bit masks, for tests: each must give the same results. A way the CPU
// lacks (or that is not for its architecture) falls back to another.
typedef enum {
    fanout_scan_best, fanout_scan_scalar, fanout_scan_sse2, fanout_scan_avx2, fanout_scan_avx512
} fanout_scan_way;

// `fanout_skip_container`, done the way `way` says.
size_t fanout_skip_container_with(const uint8_t *p, size_t count, size_t start, fanout_scan_way way);

// The index of the first byte at or after `i` that ends the fast path of a string scan (`"`, `\`, a control
// character or a non-ASCII byte), looking 16 bytes at a time while 16 remain before `count`; where fewer remain,
// the index of the first of them, which the caller looks at itself. SSE2 is part of every x86-64 CPU, so this
// needs no check and is inlined into the Swift reader; elsewhere it leaves the whole scan to the caller.
static inline size_t fanout_string_stop(const uint8_t *p, size_t i, size_t count) {
#if defined(__SSE2__)
    typedef signed char bytes16 __attribute__((vector_size(16)));
    // A scalar beside a vector stands for that vector with the scalar in every lane.
    const bytes16 none = {0}, quote = none + '"', backslash = none + '\\', space = none + ' ';
    while (i + 16 <= count) {
        bytes16 v;
        __builtin_memcpy(&v, p + i, 16);
        // A signed comparison: below 0x20 are the control characters and, as negative numbers, the bytes from 0x80.
        bytes16 stop = (bytes16)((v == quote) | (v == backslash) | (v < space));
        unsigned mask = (unsigned)__builtin_ia32_pmovmskb128(stop);
        if (mask) return i + (size_t)__builtin_ctz(mask);
        i += 16;
    }
#endif
    return i;
}

#endif
