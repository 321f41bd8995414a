/* pp_orma.c -- orma put/get round trips between ranks 0 and 1: the data,
 * the repetitions of a point, and a series of points on one window.
 *
 * One repetition, timed on rank 0, is a round trip in the point's
 * synchronization mode (pp_sync.c):
 *   put: rank 0 puts n bytes into rank 1's window; rank 1 puts the same
 *        bytes (from its window) back into rank 0's window.
 *   get: rank 0 gets n bytes of rank 1's window; rank 1 gets n bytes of
 *        rank 0's window.
 *   acc, gacc, fop, cas: as put, with the accumulate-family call; their
 *        data and its checks are in pp_atomic.c.
 * Then, untimed: each rank checks all n bytes it received against the
 * pattern of this repetition, prepares the next repetition's data, and
 * synchronizes once more (pp_sync_settle) so nobody overwrites a buffer
 * still being checked (and, for get, so the owner's new window content is
 * complete before it is read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "pattern.h"
#include "pingpong.h"
#include "pp.h"
#include "plan.h"
#include "report.h"
#include "windows.h"

/* put: the data travels 0 -> 1 -> 0, one stream.  get: each rank's window
 * holds its own stream, so salt by owner. */
static uint64_t seed_put(const pp_state *s)
{
    return bench_pattern_seed(s->rep, 0);
}

static uint64_t seed_get(const pp_state *s, int owner)
{
    return bench_pattern_seed(s->rep, 1u + (unsigned)owner);
}

/* Data for repetition s->rep: put's origin at rank 0, get's target windows;
 * the accumulate-family ops plan the next round trip. */
static void prepare(pp_state *s)
{
    if (pp_op_is_atomic(s->op)) {
        pp_atomic_next(s);
        return;
    }
    if (s->op == PP_PUT) {
        if (s->me == 0)
            bench_pattern_fill(s->send, s->n, seed_put(s));
    } else {
        bench_pattern_fill(s->w.base, s->n, seed_get(s, s->me));
    }
}

static void verify(pp_state *s)
{
    if (pp_op_is_atomic(s->op)) {
        pp_atomic_verify(s, 1); /* reports, clears s->ok */
        return;
    }
    int put = s->op == PP_PUT;
    const unsigned char *buf = put ? s->w.base : s->recv;
    uint64_t seed = put ? seed_put(s) : seed_get(s, s->peer);
    size_t off;
    unsigned want, got;
    if (bench_pattern_check(buf, s->n, seed, &off, &want, &got))
        return;
    /* Report the first bad repetition of a point only; the loop goes on so
     * that both ranks keep making the same collective calls. */
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: %s+%s on %s window, %zu bytes, "
                "repetition %llu: byte %zu is 0x%02x, expected 0x%02x\n",
                s->me, put ? "put" : "get", pp_sync_names[s->sync],
                s->w.kind, s->n,
                (unsigned long long)s->rep, off, got, want);
    s->ok = 0;
}

/* Small puts are timed in batches (pp_def.h): a repetition of PP_BATCH
 * round trips is timed as a whole and reported per round trip.  Every
 * round trip of a batch still carries new data and is verified: rank 0
 * fills a fresh pattern before it and checks, after it, what rank 1 echoed
 * back (a stale byte on either leg shows there), inside the timed loop --
 * which only makes the figure slower.  The accumulate-family ops are
 * batched alike (every op but get); rank 1 also checks the elements its
 * calls return, which are not echoed back. */

/* Inside a batch: the next round trip's data, no synchronization. */
static void batch_next(pp_state *s)
{
    if (pp_op_is_atomic(s->op))
        pp_atomic_next(s); /* both ranks: the plan is shared */
    else if (s->me == 0)
        bench_pattern_fill(s->send, s->n, seed_put(s));
}

static double timed_batch(pp_state *s)
{
    double t0 = orma_wtime();
    for (int j = 0; j < PP_BATCH - 1; j++) {
        pp_sync_timed(s);
        if (s->me == 0)
            verify(s);
        else if (pp_op_is_atomic(s->op))
            pp_atomic_verify(s, 0); /* see pp_atomic.c */
        s->rep++;
        batch_next(s);
    }
    pp_sync_timed(s);
    return (orma_wtime() - t0) / PP_BATCH;
}

/* One repetition; *sec_p (if not NULL) receives the timed part. */
static void repetition(pp_state *s, double *sec_p)
{
    double t = pp_batched(s->op, s->n) ? timed_batch(s) : pp_sync_timed(s);
    verify(s);
    s->rep++;
    prepare(s);
    pp_sync_settle(s);
    if (sec_p != NULL)
        *sec_p = t;
}

static int point(pp_state *s, size_t n, pp_sync sync)
{
    const bench_ctx *ctx = s->ctx;
    s->n = n;
    s->sync = sync;
    s->ok = 1;
    /* The last repetition prepared only the previous size's bytes. */
    if (pp_op_is_atomic(s->op))
        pp_atomic_begin(s);
    else
        prepare(s);
    pp_sync_point_begin(s);
    for (int i = 0; i < PP_WARMUP; i++)
        repetition(s, NULL);
    long reps = ctx->opts->reps;
    if (reps <= 0) {
        double t0 = orma_wtime();
        for (int i = 0; i < PP_CALIB; i++)
            repetition(s, NULL);
        reps = bench_reps_for(ctx->opts, (orma_wtime() - t0) / PP_CALIB);
    }
    /* Both ranks must run the same count: rank 0's choice wins. */
    reps = (long)bench_ctl_bcast(ctx->ctl, (uint64_t)reps);
    double *us = bench_xmalloc((size_t)reps * sizeof *us);
    for (long i = 0; i < reps; i++) {
        double t;
        repetition(s, &t);
        us[i] = t * 1e6;
    }
    pp_sync_point_end(s);
    int ok = bench_ctl_all_ok(ctx->ctl, s->ok);
    const char *mode = pp_sync_names[sync];
    const char *opname = pp_op_names[s->op];
    if (ok)
        bench_emit(ctx, "orma", opname, mode, s->w.kind, n, 2.0 * (double)n,
                   us, reps);
    else if (ctx->rank == 0)
        fprintf(stderr, "orma-bench: %s+%s on %s window, %zu bytes: data did "
                "not verify; stopping\n", opname, mode, s->w.kind, n);
    free(us);
    return ok ? 0 : -1;
}

int pp_orma_series(const bench_ctx *ctx, const char *op, const char *kind)
{
    size_t max = bench_opts_max_size(ctx->opts);
    pp_state s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.op = pp_op_by_name(op);
    if (s.op == PP_NOP)
        return BENCH_USAGE; /* filtered before, not reached */
    s.me = ctx->rank;
    s.peer = 1 - ctx->rank;
    if (bench_window_open(ctx->ctl, kind, max, &s.w) != 0)
        return BENCH_USAGE; /* unknown kind: filtered before, not reached */
    s.send = bench_xmalloc(max);
    s.recv = bench_xmalloc(max);
    memset(s.send, 0, max);
    memset(s.recv, 0, max);

    const char *syncs = ctx->opts->syncs;
    pp_sync_series_open(&s, syncs);
    int st = BENCH_OK;
    for (int i = 0; i < ctx->opts->nsizes && st == BENCH_OK; i++) {
        if (!pp_op_size_ok(s.op, ctx->opts->sizes[i]))
            continue; /* noted by the caller */
        for (int m = 0; m < PP_NSYNC && st == BENCH_OK; m++) {
            if (!bench_list_has(syncs, pp_sync_names[m]))
                continue;
            char what[64];
            snprintf(what, sizeof what, "orma %s+%s %s", op,
                     pp_sync_names[m], kind);
            bench_progress(what, ctx->opts->sizes[i]);
            if (point(&s, ctx->opts->sizes[i], (pp_sync)m) != 0)
                st = BENCH_FAIL;
        }
    }
    pp_sync_series_close(&s);
    bench_window_close(&s.w);
    free(s.send);
    free(s.recv);
    return st;
}
