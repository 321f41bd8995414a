/* lat_orma.c -- the orma backend of the latency and multiput suites:
 * lat_loop.h's epochs and loops with orma's own calls, its windows
 * (windows.h), and a series of one window flavour. */
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

typedef struct lat_b_h {
    orma_win win;
    orma_group g; /* {peer}, for PSCW */
} lat_b_h;
typedef orma_aint lat_b_aint;

static inline lat_b_h lat_b_handles(lat_rma *s)
{
    return (lat_b_h){impl(s)->w.win, impl(s)->peer_group};
}

static inline orma_aint lat_b_disp(lat_rma *s)
{
    return impl(s)->w.disp[s->peer];
}

static inline double lat_b_now(void)
{
    return orma_wtime();
}

static inline void lat_b_fence(lat_b_h h, int last)
{
    BENCH_CHECK(orma_win_fence(last ? ORMA_MODE_NOSUCCEED : 0, h.win));
}

static inline void lat_b_start(lat_b_h h)
{
    BENCH_CHECK(orma_win_start(h.g, 0, h.win));
}

static inline void lat_b_complete(lat_b_h h)
{
    BENCH_CHECK(orma_win_complete(h.win));
}

static inline void lat_b_post(lat_b_h h)
{
    BENCH_CHECK(orma_win_post(h.g, 0, h.win));
}

static inline void lat_b_wait(lat_b_h h)
{
    BENCH_CHECK(orma_win_wait(h.win));
}

static inline void lat_b_lock(lat_b_h h, int t)
{
    BENCH_CHECK(orma_win_lock(ORMA_LOCK_SHARED, t, 0, h.win));
}

static inline void lat_b_unlock(lat_b_h h, int t)
{
    BENCH_CHECK(orma_win_unlock(t, h.win));
}

static inline void lat_b_flush(lat_b_h h, int t)
{
    BENCH_CHECK(orma_win_flush(t, h.win));
}

static inline void lat_b_flush_local(lat_b_h h, int t)
{
    BENCH_CHECK(orma_win_flush_local(t, h.win));
}

static inline void lat_b_lock_all(lat_b_h h)
{
    BENCH_CHECK(orma_win_lock_all(0, h.win));
}

static inline void lat_b_unlock_all(lat_b_h h)
{
    BENCH_CHECK(orma_win_unlock_all(h.win));
}

static inline void lat_b_put(lat_b_h h, const void *src, size_t n, int t,
                             orma_aint disp)
{
    BENCH_CHECK(orma_put(src, n, ORMA_BYTE, t, disp, n, ORMA_BYTE, h.win));
}

static inline void lat_b_get(lat_b_h h, void *dst, size_t n, int t,
                             orma_aint disp)
{
    BENCH_CHECK(orma_get(dst, n, ORMA_BYTE, t, disp, n, ORMA_BYTE, h.win));
}

static inline void lat_b_acc(lat_b_h h, const void *src, size_t words,
                             int t, orma_aint disp)
{
    BENCH_CHECK(orma_accumulate(src, words, ORMA_UINT64, t, disp, words,
                                ORMA_UINT64, ORMA_SUM, h.win));
}

static inline int lat_b_window_run(lat_rma *s, size_t bytes,
                                   int (*fn)(void *), void *arg)
{
    lat_orma *o = impl(s);
    return bench_window_run(o->ctx->ctl, s->kind, bytes, &o->w, fn, arg);
}

static inline unsigned char *lat_b_window_base(lat_rma *s)
{
    return impl(s)->w.base;
}

static inline void lat_b_group_open(lat_rma *s)
{
    orma_group all;
    BENCH_CHECK(orma_win_get_group(impl(s)->w.win, &all));
    BENCH_CHECK(orma_group_incl(all, 1, &s->peer, &impl(s)->peer_group));
    BENCH_CHECK(orma_group_free(&all));
}

static inline void lat_b_group_close(lat_rma *s)
{
    BENCH_CHECK(orma_group_free(&impl(s)->peer_group));
}

/* orma allows orma_win_sync in any epoch. */
static inline void lat_b_win_sync(lat_rma *s)
{
    BENCH_CHECK(orma_win_sync(impl(s)->w.win));
}

static inline void lat_b_barrier(lat_rma *s)
{
    (void)s;
    BENCH_CHECK(orma_barrier());
}

#include "lat_loop.h"

static long bcast(lat_rma *s, long v)
{
    return (long)bench_ctl_bcast(impl(s)->ctx->ctl, (uint64_t)v);
}

static int all_ok(lat_rma *s, int ok)
{
    return bench_ctl_all_ok(impl(s)->ctx->ctl, ok);
}

static const lat_rma_ops orma_ops = {lat_window_run, lat_window_begin,
                                     lat_window_end, lat_settle,
                                     lat_point_begin, lat_point_end,
                                     lat_loop, bcast, all_ok};

int lat_orma_series(const bench_ctx *ctx, pp_op opn, const char *kind,
                    lat_rma_series_fn series)
{
    size_t max = bench_opts_max_size(ctx->opts);
    size_t bytes = lat_rma_bytes(max);
    lat_orma o;
    memset(&o, 0, sizeof o);
    o.ctx = ctx;
    o.peer_group = ORMA_GROUP_NULL;
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
    s.send = lat_rma_buffer(max);
    s.recv = lat_rma_buffer(bytes);
    memset(s.send, 0, max);
    memset(s.recv, 0, bytes);
    lat_rma_set set = {{&s}, 1, 0};
    int st = lat_rma_run(&set, series);
    lat_rma_buffer_free(s.send);
    lat_rma_buffer_free(s.recv);
    return st;
}
