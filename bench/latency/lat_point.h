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
 * loop time over its operations: microseconds per operation.
 *
 * Several backends may measure one point together (lat_rma.h: mpi-rma
 * and orma-mpi in one process), each with its own hooks: all warm up in
 * turn, then all calibrate in turn, each choosing its own iterations and
 * number of batches, then their counted batches alternate -- a batch of
 * each in turn, round robin, until each has its own number -- so that a
 * change in the machine's speed (a virtual machine's cross-core latency
 * changes several-fold for seconds at a time) falls on all of them
 * alike, not on one backend's point measured minutes before the other's.
 * One backend alone is that with k = 1: its batches back to back. */
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

/* Backends of one point at most. */
#define LAT_POINT_MAX 4

/* A backend's samples of a point: us (malloc'd, the caller frees), on
 * rank 0 (zeros elsewhere), and their number. */
typedef struct lat_samples {
    double *us;
    long n;
} lat_samples;

/* Every batch of a point of n bytes whose iterations make ops_per_iter
 * operations each, for k backends (1 to LAT_POINT_MAX), h[i] and out[i]
 * backend i's hooks and samples; backend first's batches go first, then
 * first + 1's, and so on, modulo k. */
void lat_point_measure(const bench_opts *o, const lat_hooks *h, int k,
                       int first, size_t n, int ops_per_iter,
                       lat_samples *out);

#endif
