/* mpib_lat.c -- the mpi-rma and orma-mpi backends of the latency and
 * multiput suites: lat_loop.h's epochs and OSU's loops (lat_def.h) with
 * MPI calls, on the windows of mpib_win.c.
 *
 * Every one-sided call goes through the backend's table (mpib_fns.h):
 * mpi-rma's holds the host MPI's functions, orma-mpi's the linked ones
 * (liborma-mpi's, preloaded).  So one job can run both backends, each on
 * a window of its own, their batches interleaved point by point
 * (lat_rma.h); and alone or paired, both pay the same indirect call
 * (where a direct MPI_ call would jump through the PLT).
 *
 * Between batches the window syncs are MPI_Win_sync inside an
 * MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch when none is open: MPI allows
 * MPI_Win_sync only in a passive epoch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "lat_rma.h"
#include "mpib.h"
#include "mpib_win.h"
#include "multiput_def.h"

typedef struct mpib_lat {
    const mpib_ctx *ctx;
    const mpib_fns *f;    /* the backend's MPI functions */
    mpib_window w;
    MPI_Group peer_group; /* {peer}, for PSCW */
} mpib_lat;

static mpib_lat *impl(lat_rma *s)
{
    return s->impl;
}

typedef struct lat_b_h {
    const mpib_fns *f;
    MPI_Win win;
    MPI_Group g; /* {peer}, for PSCW */
} lat_b_h;
typedef MPI_Aint lat_b_aint;

static inline lat_b_h lat_b_handles(lat_rma *s)
{
    mpib_lat *m = impl(s);
    return (lat_b_h){m->f, m->w.win, m->peer_group};
}

static inline MPI_Aint lat_b_disp(lat_rma *s)
{
    return impl(s)->w.disp[s->peer];
}

static inline double lat_b_now(void)
{
    return mpib_now();
}

static inline void lat_b_fence(lat_b_h h, int last)
{
    MPIB_CHECK(h.f->Win_fence(last ? MPI_MODE_NOSUCCEED : 0, h.win));
}

static inline void lat_b_start(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_start(h.g, 0, h.win));
}

static inline void lat_b_complete(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_complete(h.win));
}

static inline void lat_b_post(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_post(h.g, 0, h.win));
}

static inline void lat_b_wait(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_wait(h.win));
}

static inline void lat_b_lock(lat_b_h h, int t)
{
    MPIB_CHECK(h.f->Win_lock(MPI_LOCK_SHARED, t, 0, h.win));
}

static inline void lat_b_unlock(lat_b_h h, int t)
{
    MPIB_CHECK(h.f->Win_unlock(t, h.win));
}

static inline void lat_b_flush(lat_b_h h, int t)
{
    MPIB_CHECK(h.f->Win_flush(t, h.win));
}

static inline void lat_b_flush_local(lat_b_h h, int t)
{
    MPIB_CHECK(h.f->Win_flush_local(t, h.win));
}

static inline void lat_b_lock_all(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_lock_all(0, h.win));
}

static inline void lat_b_unlock_all(lat_b_h h)
{
    MPIB_CHECK(h.f->Win_unlock_all(h.win));
}

static inline void lat_b_put(lat_b_h h, const void *src, size_t n, int t,
                             MPI_Aint disp)
{
    int c = mpib_count(n);
    MPIB_CHECK(h.f->Put(src, c, MPI_BYTE, t, disp, c, MPI_BYTE, h.win));
}

static inline void lat_b_get(lat_b_h h, void *dst, size_t n, int t,
                             MPI_Aint disp)
{
    int c = mpib_count(n);
    MPIB_CHECK(h.f->Get(dst, c, MPI_BYTE, t, disp, c, MPI_BYTE, h.win));
}

static inline void lat_b_acc(lat_b_h h, const void *src, size_t words,
                             int t, MPI_Aint disp)
{
    int c = mpib_count(words);
    MPIB_CHECK(h.f->Accumulate(src, c, MPI_UINT64_T, t, disp, c,
                               MPI_UINT64_T, MPI_SUM, h.win));
}

/* The backend's windows, made with its functions. */
static inline int lat_b_window_run(lat_rma *s, size_t bytes,
                                   int (*fn)(void *), void *arg)
{
    mpib_lat *m = impl(s);
    return mpib_window_run(s->kind, bytes, m->f, &m->w, fn, arg);
}

static inline unsigned char *lat_b_window_base(lat_rma *s)
{
    return impl(s)->w.base;
}

static inline void lat_b_group_open(lat_rma *s)
{
    MPI_Group all;
    MPIB_CHECK(impl(s)->f->Win_get_group(impl(s)->w.win, &all));
    MPIB_CHECK(MPI_Group_incl(all, 1, &s->peer, &impl(s)->peer_group));
    MPIB_CHECK(MPI_Group_free(&all));
}

static inline void lat_b_group_close(lat_rma *s)
{
    MPIB_CHECK(MPI_Group_free(&impl(s)->peer_group));
}

/* MPI_Win_sync only inside a passive epoch (see the top of the file). */
static inline void lat_b_win_sync(lat_rma *s)
{
    const mpib_fns *f = impl(s)->f;
    MPI_Win win = impl(s)->w.win;
    if (s->lock_open) {
        MPIB_CHECK(f->Win_sync(win));
        return;
    }
    MPIB_CHECK(f->Win_lock_all(MPI_MODE_NOCHECK, win));
    MPIB_CHECK(f->Win_sync(win));
    MPIB_CHECK(f->Win_unlock_all(win));
}

static inline void lat_b_barrier(lat_rma *s)
{
    MPIB_CHECK(impl(s)->f->Barrier(MPI_COMM_WORLD));
}

#include "lat_loop.h"

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

static const lat_rma_ops mpi_ops = {lat_window_run, lat_window_begin,
                                    lat_window_end, lat_settle,
                                    lat_point_begin, lat_point_end, lat_loop,
                                    bcast, all_ok};

/* One backend's state for a series of op on windows of flavour kind, with
 * f's functions (the windows: lat_rma_run). */
static void backend_open(const mpib_ctx *ctx, const char *backend,
                         const mpib_fns *f, pp_op opn, const char *kind,
                         mpib_lat *m, lat_rma *s)
{
    size_t max = bench_opts_max_size(ctx->opts);
    size_t bytes = lat_rma_bytes(max);
    memset(m, 0, sizeof *m);
    m->ctx = ctx;
    m->f = f;
    m->peer_group = MPI_GROUP_NULL;
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
    s->send = lat_rma_buffer(max);
    s->recv = lat_rma_buffer(bytes);
    memset(s->send, 0, max);
    memset(s->recv, 0, bytes);
}

static void backend_close(lat_rma *s)
{
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
    backend_open(ctx, ctx->rma_backend, ctx->rma_fns, opn, kind, &m[0],
                 &s[0]);
    if (set.k == 2)
        backend_open(ctx, ctx->pair_backend, ctx->pair_fns, opn, kind, &m[1],
                     &s[1]);
    int st = lat_rma_run(&set, order);
    for (int i = set.k - 1; i >= 0; i--)
        backend_close(&s[i]);
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
            if (bench_window_selected(o->windows, lat_window_kinds[w]))
                st = series(ctx, op, lat_window_kinds[w], lat_rma_series);
    }
    return st;
}

int mpib_multiput_run(const mpib_ctx *ctx)
{
    int st = BENCH_OK;
    for (int w = 0; lat_window_kinds[w] != NULL && st == BENCH_OK; w++)
        if (bench_window_selected(ctx->opts->windows, lat_window_kinds[w]))
            st = series(ctx, PP_PUT, lat_window_kinds[w], multiput_series);
    return st;
}
