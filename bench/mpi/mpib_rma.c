/* mpib_rma.c -- the mpi-rma and orma-mpi backends: pp_orma.c's round
 * trips on MPI windows.  One repetition, timed on rank 0, is a round trip
 * in the point's mode (mpib_sync.c):
 *   put: rank 0 puts n bytes into rank 1's window; rank 1 puts the same
 *        bytes (from its window) back into rank 0's window.
 *   get: rank 0 gets n bytes of rank 1's window; rank 1 gets n bytes of
 *        rank 0's window.
 *   acc, gacc, fop, cas: as put, with the accumulate-family call on
 *        uint64 elements, MPI_SUM (pp_acc.h).
 * Then, untimed: each rank checks all n bytes it received against the
 * pattern of this repetition, prepares the next repetition's data and
 * settles (mpib_sync_settle).  Points, batches, warm-up and repetition
 * counts follow pp_def.h and reps.h, as orma's series do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpib_pp.h"
#include "pattern.h"
#include "reps.h"

static uint64_t seed_put(const mpib_pp *s)
{
    return bench_pattern_seed(s->rep, 0);
}

static uint64_t seed_get(const mpib_pp *s, int owner)
{
    return bench_pattern_seed(s->rep, 1u + (unsigned)owner);
}

static void acc_begin(mpib_pp *s)
{
    s->acc.op = s->op;
    s->acc.me = s->me;
    s->acc.peer = s->peer;
    s->acc.n = s->n;
    pp_acc_begin(&s->acc, s->rep, s->w.base, s->send);
}

/* The first bad repetition of a point is reported; the loop goes on so
 * that both ranks keep making the same collective calls. */
static int acc_verify(mpib_pp *s, int window)
{
    const char *what;
    size_t i;
    uint64_t want, got;
    if (pp_acc_check(&s->acc, window ? s->w.base : NULL, s->recv, &what, &i,
                     &want, &got))
        return 1;
    if (s->ok)
        fprintf(stderr, "orma-bench-mpi: rank %d: %s: %s+%s on %s window, "
                "%zu bytes, repetition %llu: %s element %zu is 0x%016llx, "
                "expected 0x%016llx\n", s->me, s->backend, pp_op_names[s->op],
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, what, i, (unsigned long long)got,
                (unsigned long long)want);
    s->ok = 0;
    return 0;
}

static void prepare(mpib_pp *s)
{
    if (pp_op_is_atomic(s->op)) {
        pp_acc_next(&s->acc, s->rep, s->send);
        return;
    }
    if (s->op == PP_PUT) {
        if (s->me == 0)
            bench_pattern_fill(s->send, s->n, seed_put(s));
    } else {
        bench_pattern_fill(s->w.base, s->n, seed_get(s, s->me));
    }
}

static void verify(mpib_pp *s)
{
    if (pp_op_is_atomic(s->op)) {
        acc_verify(s, 1);
        return;
    }
    int put = s->op == PP_PUT;
    const unsigned char *buf = put ? s->w.base : s->recv;
    uint64_t seed = put ? seed_put(s) : seed_get(s, s->peer);
    size_t off;
    unsigned want, got;
    if (bench_pattern_check(buf, s->n, seed, &off, &want, &got))
        return;
    if (s->ok)
        fprintf(stderr, "orma-bench-mpi: rank %d: %s: %s+%s on %s window, "
                "%zu bytes, repetition %llu: byte %zu is 0x%02x, expected "
                "0x%02x\n", s->me, s->backend, put ? "put" : "get",
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, off, got, want);
    s->ok = 0;
}

/* Inside a batch: the next round trip's data, no synchronization. */
static void batch_next(mpib_pp *s)
{
    if (pp_op_is_atomic(s->op))
        pp_acc_next(&s->acc, s->rep, s->send);
    else if (s->me == 0)
        bench_pattern_fill(s->send, s->n, seed_put(s));
}

static double timed_batch(mpib_pp *s)
{
    double t0 = mpib_now();
    for (int j = 0; j < PP_BATCH - 1; j++) {
        mpib_sync_timed(s);
        if (s->me == 0)
            verify(s);
        else if (pp_op_is_atomic(s->op))
            acc_verify(s, 0);
        s->rep++;
        batch_next(s);
    }
    mpib_sync_timed(s);
    return (mpib_now() - t0) / PP_BATCH;
}

static void repetition(mpib_pp *s, double *sec_p)
{
    double t = pp_batched(s->op, s->n) ? timed_batch(s) : mpib_sync_timed(s);
    verify(s);
    s->rep++;
    prepare(s);
    mpib_sync_settle(s);
    if (sec_p != NULL)
        *sec_p = t;
}

static int point(mpib_pp *s, size_t n, pp_sync sync)
{
    const bench_opts *o = s->ctx->opts;
    s->n = n;
    s->sync = sync;
    s->ok = 1;
    if (pp_op_is_atomic(s->op))
        acc_begin(s);
    else
        prepare(s);
    mpib_sync_point_begin(s);
    for (int i = 0; i < PP_WARMUP; i++)
        repetition(s, NULL);
    long reps = o->reps;
    if (reps <= 0) {
        double t0 = mpib_now();
        for (int i = 0; i < PP_CALIB; i++)
            repetition(s, NULL);
        reps = bench_reps_for(o, (mpib_now() - t0) / PP_CALIB);
    }
    reps = mpib_bcast_long(reps); /* rank 0's choice */
    double *us = mpib_xmalloc((size_t)reps * sizeof *us);
    for (long i = 0; i < reps; i++) {
        double t;
        repetition(s, &t);
        us[i] = t * 1e6;
    }
    mpib_sync_point_end(s);
    int ok = mpib_all_ok(s->ok);
    const char *mode = pp_sync_names[sync], *opname = pp_op_names[s->op];
    if (ok)
        mpib_emit(s->ctx->suite, s->backend, opname, mode, s->w.kind, n,
                  2.0 * (double)n, us, reps);
    else if (s->me == 0)
        fprintf(stderr, "orma-bench-mpi: %s: %s+%s on %s window, %zu bytes: "
                "data did not verify; stopping\n", s->backend, opname, mode,
                s->w.kind, n);
    free(us);
    return ok ? 0 : -1;
}

static int series(const mpib_ctx *ctx, pp_op op, const char *kind)
{
    const bench_opts *o = ctx->opts;
    size_t max = bench_opts_max_size(o);
    mpib_pp s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.backend = ctx->rma_backend;
    s.op = op;
    s.me = ctx->rank;
    s.peer = 1 - ctx->rank;
    /* pingpong calls the plain MPI_ symbols (mpib_sync.c): one backend
     * per job, the host's or, preloaded, liborma-mpi's. */
    if (mpib_window_open(kind, max, &mpib_fns_linked, &s.w) != 0)
        return BENCH_USAGE; /* filtered before, not reached */
    s.send = mpib_xmalloc(max);
    s.recv = mpib_xmalloc(max);
    memset(s.send, 0, max);
    memset(s.recv, 0, max);
    mpib_sync_series_open(&s, o->syncs);
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        if (!pp_op_size_ok(op, o->sizes[i]))
            continue;
        for (int m = 0; m < PP_NSYNC && st == BENCH_OK; m++) {
            if (!bench_list_has(o->syncs, pp_sync_names[m]))
                continue;
            char what[96];
            snprintf(what, sizeof what, "%s %s+%s %s", s.backend,
                     pp_op_names[op], pp_sync_names[m], kind);
            mpib_progress(what, o->sizes[i]);
            if (point(&s, o->sizes[i], (pp_sync)m) != 0)
                st = BENCH_FAIL;
        }
    }
    mpib_sync_series_close(&s);
    mpib_window_close(&s.w);
    free(s.send);
    free(s.recv);
    return st;
}

/* As pingpong.c: without --op, put and get. */
static int selected(const char *ops, pp_op op)
{
    if (ops == NULL)
        return op == PP_PUT || op == PP_GET;
    return bench_list_has(ops, pp_op_names[op]);
}

int mpib_rma_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    int st = BENCH_OK;
    for (int op = 0; op < PP_NOP && st == BENCH_OK; op++) {
        if (!selected(o->ops, (pp_op)op))
            continue;
        int some = 0;
        for (int i = 0; i < o->nsizes; i++)
            some |= pp_op_size_ok((pp_op)op, o->sizes[i]);
        if (!some) {
            mpib_note("%s: no size of --sizes suits %s", ctx->rma_backend,
                      pp_op_names[op]);
            continue;
        }
        for (int k = 0; mpib_window_kinds[k] != NULL && st == BENCH_OK; k++)
            if (bench_list_has(o->windows, mpib_window_kinds[k]))
                st = series(ctx, (pp_op)op, mpib_window_kinds[k]);
    }
    return st;
}
