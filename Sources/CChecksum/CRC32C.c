// CRC-32C with the SSE4.2 instruction, eight bytes a step: LevelDB's own reader uses it where the processor has
// it (port/port_stdcxx.h's AcceleratedCRC32C), and Firestore's records are checksummed with it.
#include "CChecksum.h"
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>

int fanout_crc32c_hardware(void) { return __builtin_cpu_supports("sse4.2"); }

__attribute__((target("sse4.2"))) uint32_t fanout_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    uint64_t c = crc;
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        uint64_t word;
        memcpy(&word, bytes + i, 8);
        c = _mm_crc32_u64(c, word);
    }
    uint32_t c32 = (uint32_t)c;
    for (; i < count; i++) c32 = _mm_crc32_u8(c32, bytes[i]);
    return c32;
}
#else
int fanout_crc32c_hardware(void) { return 0; }

uint32_t fanout_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;
}
#endif
