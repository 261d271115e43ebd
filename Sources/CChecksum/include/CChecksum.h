#ifndef FANOUT_CCHECKSUM_H
#define FANOUT_CCHECKSUM_H
#include <stddef.h>
#include <stdint.h>

// Whether this processor has the SSE4.2 CRC32 instruction, which computes CRC-32C (Castagnoli).
int fanout_crc32c_hardware(void);

// The CRC-32C register after `bytes`, from `crc` (already inverted, as the instruction takes it); only call
// when fanout_crc32c_hardware() says so.
uint32_t fanout_crc32c_update(uint32_t crc, const uint8_t *bytes, size_t count);

#endif
