/* hash32.h -- a 32-bit integer hash (the "lowbias32" finalizer: xor-shifts
 * and two odd multipliers; every input bit reaches every output bit), for
 * the tests' per-source, per-target, per-step values. */
#ifndef ORMA_TEST_HASH32_H
#define ORMA_TEST_HASH32_H

#include <stdint.h>

static inline uint32_t test_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

#endif
