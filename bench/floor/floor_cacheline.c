/* floor_cacheline.c -- the fastest possible round trip between two ranks:
 * rank 0 stores k into its own cache line, rank 1 spins until it sees k and
 * stores k into its own line, rank 0 spins until it sees that.  One round
 * trip (~100 ns) is close to the timer's resolution, so a sample times
 * PER_SAMPLE round trips and divides. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "flag.h"
#include "floor.h"
#include "report.h"

#define PER_SAMPLE 1000
#define SAMPLES 50
#define SAMPLES_QUICK 20
/* Room to align a 64-byte line inside each rank's part of the window. */
#define PART_BYTES 192

static _Atomic uint64_t *line_of(orma_win win, int rank)
{
    size_t size;
    int unit;
    void *base;
    BENCH_CHECK(orma_win_shared_query(win, rank, &size, &unit, &base));
    uintptr_t a = ((uintptr_t)base + 63) & ~(uintptr_t)63;
    return (_Atomic uint64_t *)a;
}

void bench_floor_cacheline_trips(int rank, _Atomic uint64_t *mine, _Atomic uint64_t *peer, uint64_t *k, long n)
{
    for (long i = 0; i < n; i++) {
        uint64_t v = ++*k;
        if (rank == 0) {
            bench_flag_raise(mine, v);
            bench_flag_wait(mine, peer, v);
        } else {
            bench_flag_wait(mine, peer, v);
            bench_flag_raise(mine, v);
        }
    }
}

int bench_floor_cacheline(const bench_ctx *ctx)
{
    void *base;
    orma_win win;
    BENCH_CHECK(orma_win_allocate_shared(PART_BYTES, 1, ORMA_INFO_NULL, &base,
                                         &win));
    int rank = ctx->rank;
    _Atomic uint64_t *mine = NULL, *peer = NULL;
    if (rank <= 1) {
        mine = line_of(win, rank);
        peer = line_of(win, 1 - rank);
        bench_flag_init(mine);
    }
    BENCH_CHECK(orma_barrier());

    long n = ctx->opts->reps > 0 ? ctx->opts->reps
           : ctx->opts->quick ? SAMPLES_QUICK : SAMPLES;
    double *us = bench_xmalloc((size_t)n * sizeof *us);
    uint64_t k = 0;
    bench_progress("floor cacheline", 8);
    if (rank <= 1)
        bench_floor_cacheline_trips(rank, mine, peer, &k, PER_SAMPLE); /* warm-up */
    for (long s = 0; s < n; s++) {
        /* Both ranks start together, so a sample is not a wait. */
        BENCH_CHECK(orma_barrier());
        double t0 = orma_wtime();
        if (rank <= 1)
            bench_floor_cacheline_trips(rank, mine, peer, &k, PER_SAMPLE);
        us[s] = (orma_wtime() - t0) * 1e6 / PER_SAMPLE;
    }
    bench_emit(ctx, "floor", "cacheline", "none", "shared", 8, 16.0, us, n);
    free(us);
    BENCH_CHECK(orma_win_free(&win));
    return BENCH_OK;
}
