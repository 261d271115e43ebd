// fanout_skip_container: simdjson's first stage in miniature. Each 64-byte block becomes bit masks (quotes,
// backslashes, opening and closing brackets); escaped quotes are dropped, a prefix XOR of the quotes marks the
// bytes inside strings, and the brackets outside strings are counted. Only a block where the depth could reach
// zero is walked bracket by bracket.
#include "CScan.h"
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define FANOUT_X86 1
#endif

typedef struct {
    uint64_t quote, backslash, open, close;
} block_masks;

#define ALWAYS_INLINE static inline __attribute__((always_inline))

// `{` and `[` differ only in bit 5, as do `}` and `]`: one comparison each after setting it.
ALWAYS_INLINE block_masks classify_scalar(const uint8_t *p) {
    block_masks m = {0, 0, 0, 0};
    for (int k = 0; k < 64; k++) {
        uint8_t b = p[k], b5 = b | 0x20;
        m.quote |= (uint64_t)(b == '"') << k;
        m.backslash |= (uint64_t)(b == '\\') << k;
        m.open |= (uint64_t)(b5 == '{') << k;
        m.close |= (uint64_t)(b5 == '}') << k;
    }
    return m;
}

#ifdef FANOUT_X86
#define AVX512 __attribute__((target("avx512f,avx512bw")))
#define AVX2 __attribute__((target("avx2")))

AVX512 ALWAYS_INLINE block_masks classify_avx512(const uint8_t *p) {
    block_masks m;
    __m512i v = _mm512_loadu_si512((const void *)p), v5 = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    m.quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
    m.backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
    m.open = _mm512_cmpeq_epi8_mask(v5, _mm512_set1_epi8('{'));
    m.close = _mm512_cmpeq_epi8_mask(v5, _mm512_set1_epi8('}'));
    return m;
}

AVX2 ALWAYS_INLINE block_masks classify_avx2(const uint8_t *p) {
    block_masks m;
    const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\');
    const __m256i bit5 = _mm256_set1_epi8(0x20), open = _mm256_set1_epi8('{'), close = _mm256_set1_epi8('}');
    __m256i lo = _mm256_loadu_si256((const __m256i *)p), hi = _mm256_loadu_si256((const __m256i *)(p + 32));
    __m256i lo5 = _mm256_or_si256(lo, bit5), hi5 = _mm256_or_si256(hi, bit5);
#define MASK(a, b) ((uint64_t)(uint32_t)_mm256_movemask_epi8(a) | (uint64_t)(uint32_t)_mm256_movemask_epi8(b) << 32)
    m.quote = MASK(_mm256_cmpeq_epi8(lo, quote), _mm256_cmpeq_epi8(hi, quote));
    m.backslash = MASK(_mm256_cmpeq_epi8(lo, backslash), _mm256_cmpeq_epi8(hi, backslash));
    m.open = MASK(_mm256_cmpeq_epi8(lo5, open), _mm256_cmpeq_epi8(hi5, open));
    m.close = MASK(_mm256_cmpeq_epi8(lo5, close), _mm256_cmpeq_epi8(hi5, close));
#undef MASK
    return m;
}

ALWAYS_INLINE block_masks classify_sse2(const uint8_t *p) {
    block_masks m = {0, 0, 0, 0};
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    const __m128i bit5 = _mm_set1_epi8(0x20), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + 16 * k)), v5 = _mm_or_si128(v, bit5);
        m.quote |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)) << (16 * k);
        m.backslash |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)) << (16 * k);
        m.open |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v5, open)) << (16 * k);
        m.close |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v5, close)) << (16 * k);
    }
    return m;
}
#endif

// The characters escaped by a backslash (simdjson's branchless odd-sequence trick): a backslash run of odd
// length escapes the byte after it. `carry` says whether the previous block's last byte escapes this block's
// first.
ALWAYS_INLINE uint64_t escaped_bytes(uint64_t backslash, uint64_t *carry) {
    const uint64_t even = 0x5555555555555555ULL;
    backslash &= ~*carry;
    uint64_t follows = backslash << 1 | *carry;
    uint64_t odd_starts = backslash & ~even & ~follows;
    uint64_t sum;
    *carry = __builtin_add_overflow(odd_starts, backslash, &sum);
    uint64_t invert = sum << 1;
    return (even ^ invert) & follows;
}

// Bit i set when an odd number of bits at or below i are set: the bytes from an opening quote up to (not
// including) its closing one.
ALWAYS_INLINE uint64_t prefix_xor(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

// The scan, written once and compiled into each way below with its classifier inlined (a call per block through
// a pointer cost a third of the skim).
ALWAYS_INLINE size_t skip(const uint8_t *p, size_t count, size_t start, block_masks (*classify)(const uint8_t *)) {
    uint64_t escape_carry = 0, in_string_carry = 0;
    long depth = 0;
    uint8_t tail[64];
    for (size_t at = start; at < count; at += 64) {
        const uint8_t *block = p + at;
        if (count - at < 64) {
            // The last partial block, padded with spaces, which are nothing to the scan.
            memset(tail, ' ', 64);
            memcpy(tail, block, count - at);
            block = tail;
        }
        block_masks m = classify(block);
        uint64_t quotes = m.quote & ~escaped_bytes(m.backslash, &escape_carry);
        uint64_t in_string = prefix_xor(quotes) ^ in_string_carry;
        in_string_carry = (uint64_t)((int64_t)in_string >> 63);
        uint64_t open = m.open & ~in_string, close = m.close & ~in_string;
        long closes = __builtin_popcountll(close);
        if (depth > closes) {
            depth += __builtin_popcountll(open) - closes;
            continue;
        }
        // The depth may reach zero here: follow the brackets in order.
        for (uint64_t brackets = open | close; brackets; brackets &= brackets - 1) {
            uint64_t bit = brackets & -brackets;
            depth += (open & bit) ? 1 : -1;
            if (depth == 0) {
                size_t end = at + (size_t)__builtin_ctzll(bit) + 1;
                return end < count ? end : count;
            }
        }
    }
    return count;
}

static size_t skip_scalar(const uint8_t *p, size_t count, size_t start) {
    return skip(p, count, start, classify_scalar);
}

#ifdef FANOUT_X86
AVX512 static size_t skip_avx512(const uint8_t *p, size_t count, size_t start) {
    return skip(p, count, start, classify_avx512);
}

AVX2 static size_t skip_avx2(const uint8_t *p, size_t count, size_t start) {
    return skip(p, count, start, classify_avx2);
}

static size_t skip_sse2(const uint8_t *p, size_t count, size_t start) {
    return skip(p, count, start, classify_sse2);
}
#endif

typedef size_t (*skipper)(const uint8_t *, size_t, size_t);

static skipper pick(fanout_scan_way way) {
#ifdef FANOUT_X86
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2");
    int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    switch (way) {
    case fanout_scan_scalar: return skip_scalar;
    case fanout_scan_sse2: return skip_sse2;
    case fanout_scan_avx2: return avx2 ? skip_avx2 : skip_sse2;
    case fanout_scan_avx512: return avx512 ? skip_avx512 : avx2 ? skip_avx2 : skip_sse2;
    default: return avx512 ? skip_avx512 : avx2 ? skip_avx2 : skip_sse2;
    }
#else
    (void)way;
    return skip_scalar;
#endif
}

size_t fanout_skip_container(const uint8_t *p, size_t count, size_t start) {
    static skipper best = 0;
    skipper chosen = __atomic_load_n(&best, __ATOMIC_RELAXED);
    if (!chosen) {
        chosen = pick(fanout_scan_best);  // every thread that gets here stores the same pointer
        __atomic_store_n(&best, chosen, __ATOMIC_RELAXED);
    }
    return chosen(p, count, start);
}

size_t fanout_skip_container_with(const uint8_t *p, size_t count, size_t start, fanout_scan_way way) {
    return pick(way)(p, count, start);
}
