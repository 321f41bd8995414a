/* mpib_lat.c -- the mpi-rma and orma-mpi backends of the latency and
 * multiput suites: lat_rma_ops with plain MPI calls, OSU's loops
 * (lat_def.h) one for one as lat_orma.c makes them with orma's, on the
 * windows of mpib_win.c.
 *
 * Every one-sided call goes through the backend's table (mpib_fns.h):
 * mpi-rma's holds the host MPI's functions, orma-mpi's the linked ones
 * (liborma-mpi's, preloaded).  So one job can run both backends, each on
 * a window of its own, their batches interleaved point by point
 * (lat_rma.h); and alone or paired, both pay the same indirect call
 * (where a direct MPI_ call would jump through the PLT).
 *
 * Between batches (settle) the ranks meet in MPI_Barrier between two
 * MPI_Win_sync (inside an MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch when
 * none is open: MPI allows MPI_Win_sync only in a passive epoch), or in
 * a fence in the fence mode.  In the passive modes rank 1 spends rank 0's
 * loop in that MPI_Barrier, as in OSU, where an MPI library that needs
 * the target to progress one-sided calls gets it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lat_rma.h"
#include "mpib.h"
#include "mpib_win.h"
#include "multiput_def.h"

typedef struct mpib_lat {
    const mpib_ctx *ctx;
    const mpib_fns *f;    /* the backend's MPI functions */
    mpib_window w;
    MPI_Group peer_group; /* {peer}, for PSCW */
    int lock_open;        /* rank 0 holds the flush modes' lock */
} mpib_lat;

static mpib_lat *impl(lat_rma *s)
{
    return s->impl;
}

static void win_sync(mpib_lat *m)
{
    const mpib_fns *f = m->f;
    if (m->lock_open) {
        MPIB_CHECK(f->Win_sync(m->w.win));
        return;
    }
    MPIB_CHECK(f->Win_lock_all(MPI_MODE_NOCHECK, m->w.win));
    MPIB_CHECK(f->Win_sync(m->w.win));
    MPIB_CHECK(f->Win_unlock_all(m->w.win));
}

static void settle(lat_rma *s)
{
    mpib_lat *m = impl(s);
    if (s->sync == LAT_FENCE) {
        MPIB_CHECK(m->f->Win_fence(0, m->w.win));
        return;
    }
    win_sync(m);
    MPIB_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    win_sync(m);
}

static void point_begin(lat_rma *s)
{
    mpib_lat *m = impl(s);
    if ((s->sync == LAT_FLUSH || s->sync == LAT_FLUSH_LOCAL) && s->me == 0) {
        MPIB_CHECK(m->f->Win_lock(MPI_LOCK_SHARED, s->peer, 0, m->w.win));
        m->lock_open = 1;
    }
}

static void point_end(lat_rma *s)
{
    mpib_lat *m = impl(s);
    if (m->lock_open) {
        MPIB_CHECK(m->f->Win_unlock(s->peer, m->w.win));
        m->lock_open = 0;
    } else if (s->sync == LAT_FENCE) {
        MPIB_CHECK(m->f->Win_fence(MPI_MODE_NOSUCCEED, m->w.win));
    }
}

static void op(lat_rma *s, const mpib_fns *f, MPI_Win win, MPI_Aint disp)
{
    int t = s->peer;
    int n = mpib_count(s->n), words = mpib_count(s->n / 8);
    switch (s->op) {
    case PP_PUT: {
        /* s->pieces puts of adjacent bytes, the last the rest (lat_rma.h);
         * one put of n bytes in the latency suite. */
        const unsigned char *src = lat_rma_origin(s);
        size_t off = 0;
        int p = mpib_count(s->piece);
        for (int j = 1; j < s->pieces; j++, off += s->piece)
            MPIB_CHECK(f->Put(src + off, p, MPI_BYTE, t,
                              disp + (MPI_Aint)off, p, MPI_BYTE, win));
        int last = mpib_count(s->n - off);
        MPIB_CHECK(f->Put(src + off, last, MPI_BYTE, t, disp + (MPI_Aint)off,
                          last, MPI_BYTE, win));
        break;
    }
    case PP_GET:
        MPIB_CHECK(f->Get(lat_rma_result(s), n, MPI_BYTE, t, disp, n,
                          MPI_BYTE, win));
        break;
    default: /* PP_ACC */
        MPIB_CHECK(f->Accumulate(lat_rma_origin(s), words, MPI_UINT64_T, t,
                                 disp, words, MPI_UINT64_T, MPI_SUM, win));
        break;
    }
}

static double loop(lat_rma *s, long iters)
{
    mpib_lat *m = impl(s);
    const mpib_fns *f = m->f;
    MPI_Win win = m->w.win;
    MPI_Group g = m->peer_group;
    MPI_Aint disp = m->w.disp[s->peer] + (MPI_Aint)lat_rma_disp();
    int t = s->peer;
    if (s->me != 0 && s->sync != LAT_FENCE && s->sync != LAT_PSCW)
        return 0.0; /* the target waits in the next settle */
    double t0 = mpib_now();
    for (long i = 0; i < iters; i++) {
        switch (s->sync) {
        case LAT_FENCE:
            MPIB_CHECK(f->Win_fence(0, win));
            if (s->me == 0)
                op(s, f, win, disp);
            MPIB_CHECK(f->Win_fence(0, win));
            if (s->me == 1)
                op(s, f, win, disp);
            MPIB_CHECK(f->Win_fence(0, win));
            break;
        case LAT_PSCW:
            if (s->me == 0) {
                MPIB_CHECK(f->Win_start(g, 0, win));
                op(s, f, win, disp);
                MPIB_CHECK(f->Win_complete(win));
                MPIB_CHECK(f->Win_post(g, 0, win));
                MPIB_CHECK(f->Win_wait(win));
            } else {
                MPIB_CHECK(f->Win_post(g, 0, win));
                MPIB_CHECK(f->Win_wait(win));
                MPIB_CHECK(f->Win_start(g, 0, win));
                op(s, f, win, disp);
                MPIB_CHECK(f->Win_complete(win));
            }
            break;
        case LAT_LOCK:
            MPIB_CHECK(f->Win_lock(MPI_LOCK_SHARED, t, 0, win));
            op(s, f, win, disp);
            MPIB_CHECK(f->Win_unlock(t, win));
            break;
        case LAT_LOCK_ALL:
            MPIB_CHECK(f->Win_lock_all(0, win));
            op(s, f, win, disp);
            MPIB_CHECK(f->Win_unlock_all(win));
            break;
        case LAT_FLUSH:
            op(s, f, win, disp);
            MPIB_CHECK(f->Win_flush(t, win));
            break;
        default: /* LAT_FLUSH_LOCAL */
            op(s, f, win, disp);
            MPIB_CHECK(f->Win_flush_local(t, win));
            break;
        }
    }
    double sec = mpib_now() - t0;
    if (s->sync == LAT_FLUSH_LOCAL)
        MPIB_CHECK(f->Win_flush(t, win));
    return sec;
}

static long bcast(lat_rma *s, long v)
{
    (void)s;
    return mpib_bcast_long(v);
}

static int all_ok(lat_rma *s, int ok)
{
    (void)s;
    return mpib_all_ok(ok);
}

static const lat_rma_ops mpi_ops = {settle, point_begin, point_end, loop,
                                    bcast, all_ok};

/* One backend's state for a series of op on a window of flavour kind,
 * with f's functions; collective.  0, or -1 for an unknown kind. */
static int backend_open(const mpib_ctx *ctx, const char *backend,
                         const mpib_fns *f, pp_op opn, const char *kind,
                         mpib_lat *m, lat_rma *s)
{
    size_t max = bench_opts_max_size(ctx->opts);
    size_t bytes = lat_rma_bytes(max);
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
    m->f = f;
    m->peer_group = MPI_GROUP_NULL;
    if (mpib_window_open(kind, bytes, f, &m->w) != 0)
        return -1; /* filtered before, not reached */
    memset(s, 0, sizeof *s);
    s->ops = &mpi_ops;
    s->impl = m;
    s->opts = ctx->opts;
    s->ctx = mpib_report_job();
    s->suite = ctx->suite;
    s->backend = backend;
    s->kind = kind;
    s->op = opn;
    s->me = ctx->rank;
    s->peer = 1 - ctx->rank;
    s->win = m->w.base;
    s->send = lat_rma_buffer(max);
    s->recv = lat_rma_buffer(bytes);
    memset(s->send, 0, max);
    memset(s->recv, 0, bytes);
    if (bench_list_has(ctx->opts->syncs, "pscw")) {
        MPI_Group all;
        MPIB_CHECK(f->Win_get_group(m->w.win, &all));
        MPIB_CHECK(MPI_Group_incl(all, 1, &s->peer, &m->peer_group));
        MPIB_CHECK(MPI_Group_free(&all));
    }
    return 0;
}

static void backend_close(mpib_lat *m, lat_rma *s)
{
    if (m->peer_group != MPI_GROUP_NULL)
        MPIB_CHECK(MPI_Group_free(&m->peer_group));
    mpib_window_close(&m->w);
    lat_rma_buffer_free(s->send);
    lat_rma_buffer_free(s->recv);
}

/* A series of op on window flavour kind, in order's order, of the job's
 * one-sided backend -- or of the two, mpi-rma and orma-mpi, measured
 * together, each on its own window: their windows are open at once, and
 * the points' batches alternate (lat_rma.h). */
static int series(const mpib_ctx *ctx, pp_op opn, const char *kind,
                  lat_rma_series_fn order)
{
    mpib_lat m[2];
    lat_rma s[2];
    lat_rma_set set = {{&s[0], &s[1]}, ctx->pair_backend != NULL ? 2 : 1,
                       0};
    if (backend_open(ctx, ctx->rma_backend, ctx->rma_fns, opn, kind, &m[0],
                     &s[0]) != 0)
        return BENCH_USAGE;
    if (set.k == 2 && backend_open(ctx, ctx->pair_backend, ctx->pair_fns,
                                   opn, kind, &m[1], &s[1]) != 0) {
        backend_close(&m[0], &s[0]);
        return BENCH_USAGE;
    }
    int st = order(&set);
    for (int i = set.k - 1; i >= 0; i--)
        backend_close(&m[i], &s[i]);
    return st;
}

int mpib_lat_run(const mpib_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    int st = BENCH_OK;
    for (int k = 0; lat_op_names[k] != NULL && st == BENCH_OK; k++) {
        pp_op op = pp_op_by_name(lat_op_names[k]);
        if (!bench_list_has(o->ops, lat_op_names[k]))
            continue;
        if (!pp_op_sizes(op, o, NULL)) {
            bench_note("%s: no size of --sizes suits %s", ctx->rma_backend,
                       lat_op_names[k]);
            continue;
        }
        for (int w = 0; lat_window_kinds[w] != NULL && st == BENCH_OK; w++)
            if (bench_list_has(o->windows, lat_window_kinds[w]))
                st = series(ctx, op, lat_window_kinds[w], lat_rma_series);
    }
    return st;
}

int mpib_multiput_run(const mpib_ctx *ctx)
{
    int st = BENCH_OK;
    for (int w = 0; lat_window_kinds[w] != NULL && st == BENCH_OK; w++)
        if (bench_list_has(ctx->opts->windows, lat_window_kinds[w]))
            st = series(ctx, PP_PUT, lat_window_kinds[w], multiput_series);
    return st;
}
