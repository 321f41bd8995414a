/* mult_area.h -- the memory a rank's blocks live in during a mult point:
 * the li area of the one-sided versions (put, get), or a private buffer
 * of the same layout in the send version.
 *
 *   guard | A | guard | B | guard | a0 | guard | a1 | guard | b0 | guard |
 *   b1 | guard
 *
 * each guard MULT_GUARD bytes, each block N x N doubles.  A and B are this
 * rank's blocks, written once before the point: the put and send versions
 * send them from here, the get version's peers read them from here.
 * a0/a1 and b0/b1 are where the round's a and b arrive: the put version
 * uses both (round r in buffer r mod 2, so that the next round's puts may
 * land while this rank still multiplies the last one's), get and send a0
 * and b0 only.  Everything but A, B and the regions the version writes --
 * guards and unused buffers -- holds a fixed pattern that nothing may
 * touch, checked after every sample; the written buffers get the pattern
 * back after each sample, so that a block that did not arrive in the
 * next one is not taken for its earlier copy. */
#ifndef BENCH_MULT_AREA_H
#define BENCH_MULT_AREA_H

#include <stddef.h>

enum {
    MULT_A,
    MULT_B,
    MULT_A0,
    MULT_A1,
    MULT_B0,
    MULT_B1,
    MULT_NREGION
};

/* Masks of regions (1 << region) a version writes. */
#define MULT_WRITES_PUT                                                      \
    (1u << MULT_A0 | 1u << MULT_A1 | 1u << MULT_B0 | 1u << MULT_B1)
#define MULT_WRITES_ONE (1u << MULT_A0 | 1u << MULT_B0)

#define MULT_GUARD 64

typedef struct mult_area {
    size_t N;
    size_t block; /* N * N * sizeof(double) */
    size_t bytes; /* the whole layout */
} mult_area;

void mult_area_init(size_t N, mult_area *m);

/* Offset of region r. */
static inline size_t mult_area_off(const mult_area *m, int r)
{
    return MULT_GUARD + (size_t)r * (m->block + MULT_GUARD);
}

/* Before a point: the pattern everywhere, then A and B. */
void mult_area_fill(unsigned char *mem, const mult_area *m, const double *A,
                    const double *B);

/* After a sample: the pattern back into the regions of mask. */
void mult_area_clear(unsigned char *mem, const mult_area *m, unsigned mask);

/* After a sample: 1 when A and B are intact and every byte outside them
 * and the regions of mask holds the pattern; else 0 with a message in msg
 * naming the region and byte. */
int mult_area_check(const unsigned char *mem, const mult_area *m,
                    unsigned mask, const double *A, const double *B,
                    char *msg, size_t len);

#endif
