/* nt_orma.c -- the notify suite on orma's own calls (nt_suite.h):
 *
 *   floor   the cache-line round trip (floor.h's loop) on flags of a
 *           shared window, batch by batch beside the others
 *   notify  orma_put_notify into the peer's slot raising its counter 0
 *           (items); credits: orma_put_notify of no bytes raising the
 *           producer's counter 1; waits: orma_notify_wait
 *   flag    orma_put + orma_win_flush + a put of the count (nt_flag.h)
 *   ghost   ghost_orma.c's fence, pscw, lock and notify, a batch at a time
 *
 * notify and flag share one orma_win_allocate window (slots, flags, two
 * counters per rank), in a lock_all epoch from start to end, with no
 * flush: a notified put goes at once, on shared memory and over the net
 * transport alike (orma.h).
 *
 * While MPI jobs take their turns, rank 0 waits in poll() (turns.c) and
 * the other ranks asleep on a futex (bench_flag_sleep), so that a job's
 * batch has the cores. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "flag.h"
#include "floor.h"
#include "ghost.h"
#include "nt_suite.h"

#include "nt_flag.h"

static void ntf_progress(nt_flagwin *f)
{
    BENCH_CHECK(orma_win_sync(f->win));
}

enum { NT_CTR_ITEMS, NT_CTR_CREDITS, NT_NCTRS };

struct nt_orma {
    const bench_ctx *ctx;
    const nt_plan *plan;
    int orma_on;
    nt_jobs *jobs;
    nt_env env;
    nt_flagwin w;           /* the window of notify and flag */
    unsigned char *src;     /* NT_SLOTS source buffers, w.stride apart */
    unsigned char *scratch; /* a slot's bytes, for the checks */
    nt_calls notify, flag;
    bench_flag_win fw;      /* floor: a flag line per rank */
    uint64_t floor_k;
    ghost_orma *ghost;
    orma_win tw;            /* the turns: rank 0's go word */
    _Atomic uint64_t *go;
    uint64_t gen;
};

static double nto_now(void)
{
    return orma_wtime();
}

static void nto_barrier(void *arg)
{
    (void)arg;
    BENCH_CHECK(orma_barrier());
}

static long nto_bcast(void *arg, long v)
{
    struct nt_orma *o = arg;
    return (long)bench_ctl_bcast(o->ctx->ctl, (uint64_t)v);
}

static void nto_put(void *arg, const unsigned char *src, size_t n, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    (void)seq;
    BENCH_CHECK(orma_put_notify(src, n, ORMA_BYTE, f->peer, (orma_aint)((size_t)k * f->stride), n, ORMA_BYTE, f->win,
                                NT_CTR_ITEMS, ORMA_NOTIFY_ADD, 1));
}

static void nto_wait(void *arg, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    (void)k;
    BENCH_CHECK(orma_notify_wait(f->win, NT_CTR_ITEMS, seq));
}

static void nto_credit(void *arg, int k, uint64_t seq)
{
    nt_flagwin *f = arg;
    (void)k;
    (void)seq;
    BENCH_CHECK(orma_put_notify(NULL, 0, ORMA_BYTE, f->peer, 0, 0, ORMA_BYTE, f->win, NT_CTR_CREDITS,
                                ORMA_NOTIFY_ADD, 1));
}

static void nto_wait_credit(void *arg, uint64_t seq)
{
    nt_flagwin *f = arg;
    BENCH_CHECK(orma_notify_wait(f->win, NT_CTR_CREDITS, seq));
}

static int nto_has(void *arg, int part, int kind)
{
    struct nt_orma *o = arg;
    if (!nt_part_has(part, kind) || kind == NT_P2P)
        return 0;
    if (kind == NT_FLOOR)
        return 1; /* the machine's, whatever --backends says */
    return o->orma_on && o->plan->kinds[kind];
}

static void nto_begin(void *arg, int part, size_t bytes)
{
    struct nt_orma *o = arg;
    if (part == NT_GHOST)
        ghost_orma_begin(o->ghost, bytes);
    else
        o->w.stride = o->notify.stride = o->flag.stride = nt_stride(bytes);
}

static ghost_sync nto_ghost_mode(int kind)
{
    return kind == NT_FENCE ? GHOST_FENCE : kind == NT_PSCW ? GHOST_PSCW : kind == NT_LOCK ? GHOST_LOCK : GHOST_NOTIFY;
}

static double nto_floor(struct nt_orma *o, long iters)
{
    int me = o->ctx->rank;
    BENCH_CHECK(orma_barrier());
    bench_floor_cacheline_trips(me, o->fw.flag[me], o->fw.flag[1 - me], &o->floor_k, 16);
    double t0 = orma_wtime();
    bench_floor_cacheline_trips(me, o->fw.flag[me], o->fw.flag[1 - me], &o->floor_k, iters);
    double t = orma_wtime() - t0;
    return (double)bench_ctl_bcast(o->ctx->ctl, (uint64_t)(t * 1e12)) * 1e-12;
}

static double nto_batch(void *arg, int part, int kind, size_t bytes, long iters, uint64_t batch)
{
    struct nt_orma *o = arg;
    if (part == NT_GHOST)
        return ghost_orma_batch(o->ghost, nto_ghost_mode(kind), iters, batch);
    if (kind == NT_FLOOR)
        return nto_floor(o, iters);
    nt_calls *c = kind == NT_NOTIFY ? &o->notify : &o->flag;
    if (part == NT_PINGPONG)
        return nt_pingpong(&o->env, c, iters, batch);
    return nt_pipeline(&o->env, c, bytes, iters, batch, o->scratch);
}

static int nto_verified(void *arg, int part, int kind, size_t bytes)
{
    struct nt_orma *o = arg;
    if (part == NT_GHOST)
        return ghost_orma_ok(o->ghost, nto_ghost_mode(kind));
    if (kind == NT_FLOOR)
        return 1;
    nt_calls *c = kind == NT_NOTIFY ? &o->notify : &o->flag;
    int ok = bench_ctl_all_ok(o->ctx->ctl, c->ok);
    if (!ok && o->ctx->rank == 0)
        fprintf(stderr, "orma-bench: notify: %s %s, %zu bytes: data did not verify\n", c->name,
                nt_part_names[part], bytes);
    c->ok = 1;
    return ok;
}

/* Rank 0 hands the jobs their turns; the others sleep until orma's. */
static int nto_turn(void *arg, int point, int round, int after)
{
    struct nt_orma *o = arg;
    (void)point;
    if (o->ctx->rank == 0 && o->jobs)
        nt_jobs_turn(o->jobs, round, after);
    if (after)
        return 0;
    o->gen++;
    if (o->ctx->rank == 0)
        bench_flag_raise(o->go, o->gen);
    else
        bench_flag_sleep(o->go, o->gen);
    return 0;
}

/* The window of notify and flag, the sources and the counters. */
static void nto_open_window(struct nt_orma *o, size_t max)
{
    orma_info info;
    BENCH_CHECK(orma_info_create(&info));
    BENCH_CHECK(orma_info_set(info, "orma_notify_num", "2"));
    size_t bytes = ntf_bytes(max, &o->w.flags);
    o->w.stride = nt_stride(max);
    o->w.peer = 1 - o->ctx->rank;
    BENCH_CHECK(orma_win_allocate(bytes, 1, info, (void **)&o->w.base, &o->w.win));
    BENCH_CHECK(orma_info_free(&info));
    memset(o->w.base, 0, bytes);
    o->src = bench_xmalloc(o->w.flags);
    o->scratch = bench_xmalloc(o->w.stride);
    memset(o->src, 0, o->w.flags);
    BENCH_CHECK(orma_barrier());
    BENCH_CHECK(orma_win_lock_all(0, o->w.win));
    ntf_calls(&o->w, "orma flag", o->src, &o->flag);
    ntf_calls_with(&o->w, "orma notify", o->src, nto_put, nto_wait, nto_credit, nto_wait_credit, &o->notify);
    bench_flag_win_open(0, &o->fw);
}

static void nto_close_window(struct nt_orma *o)
{
    bench_flag_win_close(&o->fw);
    BENCH_CHECK(orma_win_unlock_all(o->w.win));
    BENCH_CHECK(orma_barrier());
    BENCH_CHECK(orma_win_free(&o->w.win));
    free(o->scratch);
    free(o->src);
}

int nt_orma_run(const bench_ctx *ctx, const nt_plan *p, int orma_on, nt_jobs *jobs, double *samples)
{
    struct nt_orma o = {.ctx = ctx, .plan = p, .orma_on = orma_on, .jobs = jobs};
    o.env = (nt_env){.arg = &o, .rank = ctx->rank, .now = nto_now, .barrier = nto_barrier, .bcast = nto_bcast};
    int two = p->parts[NT_PINGPONG] || p->parts[NT_PIPELINE];
    if (two) {
        size_t max = nt_max_bytes(p, NT_PIPELINE);
        nto_open_window(&o, max > NT_PINGPONG_BYTES ? max : NT_PINGPONG_BYTES);
    }
    if (p->parts[NT_GHOST])
        o.ghost = ghost_orma_open(ctx, nt_max_bytes(p, NT_GHOST));
    void *tbase;
    BENCH_CHECK(orma_win_allocate_shared(ctx->rank == 0 ? 64 : 0, 1, ORMA_INFO_NULL, &tbase, &o.tw));
    size_t size;
    int unit;
    BENCH_CHECK(orma_win_shared_query(o.tw, 0, &size, &unit, &tbase));
    o.go = tbase;
    if (ctx->rank == 0)
        bench_flag_init(o.go);
    BENCH_CHECK(orma_barrier());
    nt_prog prog = {&o, nto_has, nto_begin, nto_batch, nto_verified, nto_turn};
    int st = nt_run(p, &prog, samples);
    BENCH_CHECK(orma_barrier());
    BENCH_CHECK(orma_win_free(&o.tw));
    if (o.ghost)
        ghost_orma_close(o.ghost);
    if (two)
        nto_close_window(&o);
    return bench_ctl_all_ok(ctx->ctl, !st) ? 0 : -1;
}
