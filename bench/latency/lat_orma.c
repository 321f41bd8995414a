/* lat_orma.c -- the orma backend of the latency and multiput suites:
 * lat_rma_ops with orma's own calls (the loops of lat_def.h), and a series
 * on one window.
 *
 * Between batches (settle) the ranks meet in orma_barrier between two
 * orma_win_sync (the stores before are published, the peer's seen after),
 * or in a fence in the fence mode; in the passive modes rank 1 spends rank
 * 0's loop in that barrier, as in OSU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "latency.h"
#include "lat_rma.h"
#include "windows.h"

typedef struct lat_orma {
    const bench_ctx *ctx;
    bench_window w;
    orma_group peer_group; /* {peer}, for PSCW */
} lat_orma;

static lat_orma *impl(lat_rma *s)
{
    return s->impl;
}

static void settle(lat_rma *s)
{
    orma_win win = impl(s)->w.win;
    if (s->sync == LAT_FENCE) {
        BENCH_CHECK(orma_win_fence(0, win));
        return;
    }
    BENCH_CHECK(orma_win_sync(win));
    BENCH_CHECK(orma_barrier());
    BENCH_CHECK(orma_win_sync(win));
}

static void point_begin(lat_rma *s)
{
    if ((s->sync == LAT_FLUSH || s->sync == LAT_FLUSH_LOCAL) && s->me == 0)
        BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, s->peer, 0,
                                  impl(s)->w.win));
}

static void point_end(lat_rma *s)
{
    orma_win win = impl(s)->w.win;
    if ((s->sync == LAT_FLUSH || s->sync == LAT_FLUSH_LOCAL) && s->me == 0)
        BENCH_CHECK(orma_win_unlock(s->peer, win));
    else if (s->sync == LAT_FENCE)
        BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
}

static void op(lat_rma *s, orma_win win, orma_aint disp)
{
    int t = s->peer;
    size_t n = s->n;
    switch (s->op) {
    case PP_PUT: {
        /* s->pieces puts of adjacent bytes, the last the rest (lat_rma.h);
         * one put of n bytes in the latency suite. */
        const unsigned char *src = lat_rma_origin(s);
        size_t off = 0, p = s->piece;
        for (int j = 1; j < s->pieces; j++, off += p)
            BENCH_CHECK(orma_put(src + off, p, ORMA_BYTE, t,
                                 disp + (orma_aint)off, p, ORMA_BYTE, win));
        BENCH_CHECK(orma_put(src + off, n - off, ORMA_BYTE, t,
                             disp + (orma_aint)off, n - off, ORMA_BYTE, win));
        break;
    }
    case PP_GET:
        BENCH_CHECK(orma_get(lat_rma_result(s), n, ORMA_BYTE, t, disp, n,
                             ORMA_BYTE, win));
        break;
    default: /* PP_ACC */
        BENCH_CHECK(orma_accumulate(lat_rma_origin(s), n / 8, ORMA_UINT64, t,
                                    disp, n / 8, ORMA_UINT64, ORMA_SUM,
                                    win));
        break;
    }
}

static double loop(lat_rma *s, long iters)
{
    lat_orma *o = impl(s);
    orma_win win = o->w.win;
    orma_group g = o->peer_group;
    orma_aint disp = o->w.disp[s->peer] + (orma_aint)lat_rma_disp();
    int t = s->peer;
    if (s->me != 0 && s->sync != LAT_FENCE && s->sync != LAT_PSCW)
        return 0.0; /* the target waits in the next settle */
    double t0 = orma_wtime();
    for (long i = 0; i < iters; i++) {
        switch (s->sync) {
        case LAT_FENCE:
            BENCH_CHECK(orma_win_fence(0, win));
            if (s->me == 0)
                op(s, win, disp);
            BENCH_CHECK(orma_win_fence(0, win));
            if (s->me == 1)
                op(s, win, disp);
            BENCH_CHECK(orma_win_fence(0, win));
            break;
        case LAT_PSCW:
            if (s->me == 0) {
                BENCH_CHECK(orma_win_start(g, 0, win));
                op(s, win, disp);
                BENCH_CHECK(orma_win_complete(win));
                BENCH_CHECK(orma_win_post(g, 0, win));
                BENCH_CHECK(orma_win_wait(win));
            } else {
                BENCH_CHECK(orma_win_post(g, 0, win));
                BENCH_CHECK(orma_win_wait(win));
                BENCH_CHECK(orma_win_start(g, 0, win));
                op(s, win, disp);
                BENCH_CHECK(orma_win_complete(win));
            }
            break;
        case LAT_LOCK:
            BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, t, 0, win));
            op(s, win, disp);
            BENCH_CHECK(orma_win_unlock(t, win));
            break;
        case LAT_LOCK_ALL:
            BENCH_CHECK(orma_win_lock_all(0, win));
            op(s, win, disp);
            BENCH_CHECK(orma_win_unlock_all(win));
            break;
        case LAT_FLUSH:
            op(s, win, disp);
            BENCH_CHECK(orma_win_flush(t, win));
            break;
        default: /* LAT_FLUSH_LOCAL */
            op(s, win, disp);
            BENCH_CHECK(orma_win_flush_local(t, win));
            break;
        }
    }
    double sec = orma_wtime() - t0;
    if (s->sync == LAT_FLUSH_LOCAL)
        BENCH_CHECK(orma_win_flush(t, win));
    return sec;
}

static long bcast(lat_rma *s, long v)
{
    return (long)bench_ctl_bcast(impl(s)->ctx->ctl, (uint64_t)v);
}

static int all_ok(lat_rma *s, int ok)
{
    return bench_ctl_all_ok(impl(s)->ctx->ctl, ok);
}

static const lat_rma_ops orma_ops = {settle, point_begin, point_end, loop,
                                     bcast, all_ok};

int lat_orma_series(const bench_ctx *ctx, pp_op opn, const char *kind,
                    lat_rma_series_fn series)
{
    size_t max = bench_opts_max_size(ctx->opts);
    size_t bytes = lat_rma_bytes(max);
    lat_orma o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.peer_group = ORMA_GROUP_NULL;
    if (bench_window_open(ctx->ctl, kind, bytes, &o.w) != 0)
        return BENCH_USAGE; /* filtered before, not reached */
    lat_rma s;
    memset(&s, 0, sizeof s);
    s.ops = &orma_ops;
    s.impl = &o;
    s.opts = ctx->opts;
    s.ctx = ctx;
    s.suite = ctx->suite;
    s.backend = "orma";
    s.kind = kind;
    s.op = opn;
    s.me = ctx->rank;
    s.peer = 1 - ctx->rank;
    s.win = o.w.base;
    s.send = lat_rma_buffer(max);
    s.recv = lat_rma_buffer(bytes);
    memset(s.send, 0, max);
    memset(s.recv, 0, bytes);
    if (bench_list_has(ctx->opts->syncs, "pscw")) {
        orma_group all;
        BENCH_CHECK(orma_win_get_group(o.w.win, &all));
        BENCH_CHECK(orma_group_incl(all, 1, &s.peer, &o.peer_group));
        BENCH_CHECK(orma_group_free(&all));
    }
    lat_rma_set set = {{&s}, 1, 0};
    int st = series(&set);
    if (o.peer_group != ORMA_GROUP_NULL)
        BENCH_CHECK(orma_group_free(&o.peer_group));
    bench_window_close(&o.w);
    lat_rma_buffer_free(s.send);
    lat_rma_buffer_free(s.recv);
    return st;
}
