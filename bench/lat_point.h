/* lat_point.h -- the repetitions of one latency point, whoever measures
 * it (orma, the MPI program; one-sided loops or the send/recv reference):
 * the caller supplies the loop and its data as hooks, this decides how
 * many iterations run and how they are timed.  No orma or MPI here.
 *
 * A batch: prepare (untimed: fresh data, published to the peer), the loop
 * of iters iterations timed on rank 0, check (untimed: the data that
 * arrived).  A point: one batch of lat_skip(n) iterations to warm up
 * (OSU's skip), one more timed to calibrate, from which rank 0 chooses
 * the iterations per batch (lat_iters_for) and, without --reps, the
 * number of batches (reps.h, from the calibration batch's wall time with
 * its untimed parts); then the counted batches.  A sample is a batch's
 * loop time over its operations: microseconds per operation. */
#ifndef BENCH_LAT_POINT_H
#define BENCH_LAT_POINT_H

#include <stddef.h>

#include "opts.h"

typedef struct lat_hooks {
    void *arg;
    /* Collective, untimed: the data of the next batch, visible to the
     * peer when it returns. */
    void (*prepare)(void *arg);
    /* Collective: iters iterations; rank 0's elapsed seconds (any value on
     * the other ranks). */
    double (*loop)(void *arg, long iters);
    /* Collective, untimed: check what the loop of iters iterations left;
     * a failure is recorded by the caller's state, not returned. */
    void (*check)(void *arg, long iters);
    /* Rank 0's v on every rank. */
    long (*bcast)(void *arg, long v);
} lat_hooks;

/* Every batch of a point of n bytes whose iterations make ops_per_iter
 * operations each.  *us_p (malloc'd, the caller frees) receives the
 * samples on rank 0 (zeros elsewhere); returns their number. */
long lat_point_measure(const bench_opts *o, const lat_hooks *h, size_t n,
                       int ops_per_iter, double **us_p);

#endif
