#ifndef FANOUT_CSCAN_H
#define FANOUT_CSCAN_H

#include <stddef.h>
#include <stdint.h>

// Finding JSON's structure many bytes at a time, which Swift's SIMD types cannot yet do well (their comparisons
// compile to a loop over the lanes, and they have no way to turn a comparison into a bit mask).

// The index just past the bracket that closes the object or array opening at `start` (`p[start]` is `{` or
// `[`), or `count` when the input ends first. Unchecked: it only matches brackets outside strings, so on input
// that is not JSON it stops somewhere in bounds. 64 bytes a step, with AVX2 where the CPU has it.
size_t fanout_skip_container(const uint8_t *p, size_t count, size_t start);

// The ways of turning 64 bytes into bit masks, for tests: each must give the same results. A way the CPU
// lacks (or that is not for its architecture) falls back to the best it has.
typedef enum { fanout_scan_best, fanout_scan_scalar, fanout_scan_sse2, fanout_scan_avx2 } fanout_scan_way;

// `fanout_skip_container`, done the way `way` says.
size_t fanout_skip_container_with(const uint8_t *p, size_t count, size_t start, fanout_scan_way way);

#endif
