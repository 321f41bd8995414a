/* pattern.c -- see pattern.h.  memcpy moves the words so that no buffer
 * needs to be 8-byte aligned; compilers turn it into plain loads/stores. */
#include <string.h>

#include "pattern.h"

#define PATTERN_K 0x9E3779B97F4A7C15ull

uint64_t bench_pattern_seed(uint64_t rep, unsigned salt)
{
    return ((rep + 1) << 8) | (salt & 0xffu);
}

uint64_t bench_pattern_word(uint64_t seed, size_t i)
{
    return seed * PATTERN_K + (uint64_t)i;
}

void bench_pattern_fill(void *buf, size_t n, uint64_t seed)
{
    unsigned char *p = buf;
    uint64_t base = seed * PATTERN_K;
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t w = base + i;
        memcpy(p + 8 * i, &w, 8);
    }
    if (n % 8) {
        uint64_t w = base + words;
        memcpy(p + 8 * words, &w, n % 8);
    }
}

static int first_diff(const unsigned char *got, uint64_t want, size_t len,
                      size_t off, size_t *off_p, unsigned *expected_p,
                      unsigned *got_p)
{
    unsigned char w[8];
    memcpy(w, &want, 8);
    for (size_t b = 0; b < len; b++) {
        if (got[b] != w[b]) {
            *off_p = off + b;
            *expected_p = w[b];
            *got_p = got[b];
            return 0;
        }
    }
    return 1;
}

int bench_pattern_check(const void *buf, size_t n, uint64_t seed,
                        size_t *off_p, unsigned *expected_p, unsigned *got_p)
{
    const unsigned char *p = buf;
    uint64_t base = seed * PATTERN_K;
    size_t words = n / 8;
    for (size_t i = 0; i < words; i++) {
        uint64_t got;
        memcpy(&got, p + 8 * i, 8);
        if (got != base + i)
            return first_diff(p + 8 * i, base + i, 8, 8 * i, off_p,
                              expected_p, got_p);
    }
    if (n % 8)
        return first_diff(p + 8 * words, base + words, n % 8, 8 * words,
                          off_p, expected_p, got_p);
    return 1;
}
