/* util_hash.h -- a fast 64-bit hash of bytes, for checks by content (the
 * race checker's origin buffers and put data, rma_race.h): not for
 * security, only to tell with near certainty that bytes changed.  Four
 * independent multiply-xor lanes over 32-byte steps, so that it runs near
 * memory speed; the tail and the length folded in at the end. */
#ifndef ORMA_UTIL_HASH_H
#define ORMA_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UTIL_HASH_P1 0x9E3779B185EBCA87ull
#define UTIL_HASH_P2 0xC2B2AE3D27D4EB4Full

static inline uint64_t util_hash_mix(uint64_t h, uint64_t w)
{
    h ^= w * UTIL_HASH_P2;
    h = (h << 31) | (h >> 33);
    return h * UTIL_HASH_P1;
}

/* Continue hash h over n bytes at p: a layout's runs hashed in turn give
 * the same value as their bytes packed would only if the runs are the
 * same; callers hash one contiguous run or a stream in a fixed order. */
static inline uint64_t util_hash_more(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t l0 = h ^ 1, l1 = h ^ 2, l2 = h ^ 3, l3 = h ^ 4, w;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        uint64_t w0, w1, w2, w3;
        memcpy(&w0, b + i, 8);
        memcpy(&w1, b + i + 8, 8);
        memcpy(&w2, b + i + 16, 8);
        memcpy(&w3, b + i + 24, 8);
        l0 = util_hash_mix(l0, w0);
        l1 = util_hash_mix(l1, w1);
        l2 = util_hash_mix(l2, w2);
        l3 = util_hash_mix(l3, w3);
    }
    h = util_hash_mix(util_hash_mix(util_hash_mix(util_hash_mix(h, l0), l1), l2), l3);
    for (; i + 8 <= n; i += 8) {
        memcpy(&w, b + i, 8);
        h = util_hash_mix(h, w);
    }
    if (i < n) {
        w = 0;
        memcpy(&w, b + i, n - i);
        h = util_hash_mix(h, w ^ ((uint64_t)(n - i) << 56));
    }
    return util_hash_mix(h, n);
}

static inline uint64_t util_hash(const void *p, size_t n)
{
    return util_hash_more(0x27D4EB2F165667C5ull, p, n);
}

#endif
