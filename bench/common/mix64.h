/* mix64.h -- splitmix64's finalizer (Steele, Lea and Flood), which the
 * suites' data definitions (as_def.c, bspbench_def.c, mult_def.c,
 * rdx_def.c) hash their words, elements and keys with: a bijection of
 * 64-bit words whose output bits each depend on every input bit. */
#ifndef BENCH_MIX64_H
#define BENCH_MIX64_H

#include <stdint.h>

static inline uint64_t bench_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

#endif
