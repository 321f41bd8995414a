/* floor_rt.h -- the same-pattern floors' round trip: the exchange of a put
 * round trip (pp_orma.c) done with a raw copy primitive and flags instead
 * of orma.
 *
 * One repetition, timed on rank 0: rank 0 sends n bytes from its private
 * source into rank 1's receive buffer and raises its flag; rank 1 waits
 * for it, sends the n bytes it received into rank 0's receive buffer and
 * raises its flag; rank 0 waits.  Then, untimed: each rank checks its whole
 * receive buffer against the pattern of this repetition, rank 0 writes the
 * next pattern into its source, and a flag exchange keeps either rank from
 * writing into a buffer the other is still checking.  Repetition counts are
 * chosen as for the orma rows; mbps counts 2 x bytes. */
#ifndef BENCH_FLOOR_RT_H
#define BENCH_FLOOR_RT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/* Copies n bytes from `from` into the peer's receive buffer; returns 0, or
 * -1 after printing why. */
typedef int (*floor_rt_send_fn)(void *arg, const unsigned char *from,
                                size_t n);

typedef struct floor_rt {
    const char *op;       /* the result's op and window */
    const char *window;
    unsigned char *src;   /* rank 0: private source, the largest size */
    unsigned char *recv;  /* this rank's receive buffer, the largest size */
    _Atomic uint64_t *mine, *peer; /* flags of this rank and the other */
    floor_rt_send_fn send;
    void *arg;
} floor_rt;

/* Every size of --sizes.  Collective; ranks above 1 only take part in the
 * agreements.  Returns a BENCH_* status, the same on every rank. */
int floor_rt_series(const bench_ctx *ctx, const floor_rt *rt);

#endif
