/* bspbench.c -- the bspbench suite (bspbench.h): its points, measured with
 * BSPlib calls alone (the orma fence it is compared with aside).
 *
 * The method is that of bspbench in Bisseling's BSPedupack: time a loop of
 * h-relations of single-word puts for each h and fit t = L + g h;
 * reimplemented here, in orma-bench's terms.  A sample is a number of
 * repetitions (h-relations, or empty supersteps) in one timed loop after a
 * bsp_sync, the slowest process's time, divided by the count; the count
 * grows from 1 until a sample lasts BB_SAMPLE_S (each count timed twice,
 * the shorter taken, as the as suite does).  Then a warm-up sample and
 * samples until they add up to BB_POINT_S (--quick: a quarter), at least
 * 5 and at most BB_MAX_SAMPLES, or --reps.
 *
 * Check: before a sample each process zeroes its destination array and
 * writes the words it sends, fresh for the sample (bspbench_def.h); after
 * it, untimed, compares every word of the array, sent or not.  A point
 * that did not verify gives no row and fails the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>
#include <orma/bsp.h>

#include "bind.h"
#include "bsp_coll.h"
#include "bspbench.h"
#include "bspbench_def.h"
#include "check.h"
#include "ctl.h"
#include "floor.h"
#include "progress.h"
#include "report.h"
#include "reps.h"

#define BB_SAMPLE_S 100e-6
#define BB_POINT_S 0.1
#define BB_MIN_SAMPLES 5
#define BB_MAX_SAMPLES 1000
#define BB_MAX_REPS (1L << 20)

enum { K_PUT, K_HPPUT, K_EMPTY, K_FENCE };

typedef struct bb_state {
    const bench_ctx *ctx;
    bench_bsp_coll coll;
    int me, p;
    uint64_t *dest;   /* registered */
    size_t words;     /* of dest */
    uint64_t *src;    /* hmax words */
    int *pid;         /* word i goes to process pid[i] */
    int *off;         /* at byte offset off[i] */
    size_t h;
    int kind;
    long reps;        /* per sample */
    uint64_t seq;     /* samples made, the same on every process */
    int ok;           /* every sample of the point verified here */
    orma_win win;     /* K_FENCE's */
} bb_state;

/* One sample of s->kind: this process's seconds, or -1 when its data did
 * not verify. */
static double sample(bb_state *s)
{
    long reps = s->reps;
    size_t h = s->h;
    double t0, dt;
    switch (s->kind) {
    case K_PUT:
    case K_HPPUT:
        s->seq++;
        for (size_t i = 0; i < h; i++)
            s->src[i] = bb_word(s->seq, s->me, i);
        memset(s->dest, 0, s->words * sizeof *s->dest);
        bsp_sync(); /* every array zeroed before a word of the sample lands */
        t0 = bsp_time();
        if (s->kind == K_PUT) {
            for (long r = 0; r < reps; r++) {
                for (size_t i = 0; i < h; i++)
                    bsp_put(s->pid[i], &s->src[i], s->dest, s->off[i],
                            (int)sizeof *s->src);
                bsp_sync();
            }
        } else {
            for (long r = 0; r < reps; r++) {
                for (size_t i = 0; i < h; i++)
                    bsp_hpput(s->pid[i], &s->src[i], s->dest, s->off[i],
                              (int)sizeof *s->src);
                bsp_sync();
            }
        }
        dt = bsp_time() - t0;
        break;
    case K_EMPTY:
        bsp_sync();
        t0 = bsp_time();
        for (long r = 0; r < reps; r++)
            bsp_sync();
        dt = bsp_time() - t0;
        return dt;
    default:
        bsp_sync();
        t0 = bsp_time();
        for (long r = 0; r < reps; r++)
            BENCH_CHECK(orma_win_fence(0, s->win));
        dt = bsp_time() - t0;
        return dt;
    }
    char msg[256];
    if (!bb_check(s->dest, s->words, s->seq, s->me, s->p, h, msg,
                  sizeof msg)) {
        if (s->ok)
            fprintf(stderr, "bspbench: process %d: %s, h = %zu: %s\n",
                    s->me, s->kind == K_PUT ? "bsp_put" : "bsp_hpput", h,
                    msg);
        s->ok = 0;
        return -1.0;
    }
    return dt;
}

/* The slowest process's sample, or -1 on every process when one did not
 * verify. */
static double slowest(void *arg)
{
    bb_state *s = arg;
    double t = sample(s);
    double m = bench_bsp_max(&s->coll, t < 0.0 ? INFINITY : t);
    return isinf(m) ? -1.0 : m;
}

/* The repetitions per sample (bspbench.c's head, bench_reps_calibrate);
 * -1 when the data did not verify. */
static long calibrate(bb_state *s)
{
    double target = s->ctx->opts->quick ? BB_SAMPLE_S / 2 : BB_SAMPLE_S;
    return bench_reps_calibrate(slowest, s, &s->reps, target, BB_MAX_REPS);
}

static long samples_wanted(const bench_opts *o)
{
    return o->reps > 0 && o->reps < BB_MAX_SAMPLES ? o->reps
                                                   : BB_MAX_SAMPLES;
}

static double point_seconds(const bench_opts *o)
{
    return o->quick ? BB_POINT_S / 4 : BB_POINT_S;
}

/* The samples of the point of s (kind, h, reps set), in us per
 * repetition; their number, or -1 when the data did not verify. */
static long measure(bb_state *s, double *us)
{
    const bench_opts *o = s->ctx->opts;
    if (slowest(s) < 0.0) /* warm-up */
        return -1;
    long want = samples_wanted(o), n = 0;
    double spent = 0.0;
    while (n < want) {
        double t = slowest(s);
        if (t < 0.0)
            return -1;
        us[n++] = t * 1e6 / (double)s->reps;
        spent += t;
        if (o->reps <= 0 && n >= BB_MIN_SAMPLES && spent >= point_seconds(o))
            break;
    }
    return n;
}

static int wanted(const bench_opts *o, const char *op, const char *sync,
                  const char *window)
{
    return bench_list_has(o->ops, op) && bench_list_has(o->syncs, sync) &&
           bench_list_has(o->windows, window);
}

/* One h-relation point: measured, checked, emitted. */
static int hrel_point(bb_state *s, int kind, size_t h, double *us)
{
    const char *op = kind == K_PUT ? "put" : "hpput";
    s->kind = kind;
    s->h = h;
    s->ok = 1;
    bench_progress(kind == K_PUT ? "bsp put" : "bsp hpput", h);
    long n = calibrate(s) > 0 ? measure(s, us) : -1;
    if (!bench_bsp_all_ok(&s->coll, n > 0 && s->ok)) {
        if (s->me == 0)
            fprintf(stderr, "bspbench: %s, h = %zu: data did not verify\n",
                    op, h);
        return -1;
    }
    bench_emit(s->ctx, "bsp", op, "bsp_sync", "registered", h,
               (double)(h * sizeof *s->src), us, n);
    return 0;
}

/* The empty bsp_sync and the empty orma fence, samples alternating so
 * that both see the machine alike; either alone when the filters say so. */
static void empty_points(bb_state *s, int bsp_on, int fence_on, double *us)
{
    const bench_opts *o = s->ctx->opts;
    double *fus = us + BB_MAX_SAMPLES;
    long reps[2] = {0, 0};
    int on[2] = {bsp_on, fence_on};
    bench_progress("bsp_sync / orma_win_fence empty", 0);
    s->h = 0;
    for (int k = 0; k < 2; k++) {
        if (!on[k])
            continue;
        s->kind = k == 0 ? K_EMPTY : K_FENCE;
        reps[k] = calibrate(s);
        (void)slowest(s); /* warm-up */
    }
    long want = samples_wanted(o), n = 0;
    double spent = 0.0;
    while (n < want) {
        for (int k = 0; k < 2; k++) {
            if (!on[k])
                continue;
            s->kind = k == 0 ? K_EMPTY : K_FENCE;
            s->reps = reps[k];
            double t = slowest(s);
            (k == 0 ? us : fus)[n] = t * 1e6 / (double)reps[k];
            spent += t;
        }
        n++;
        if (o->reps <= 0 && n >= BB_MIN_SAMPLES &&
            spent >= point_seconds(o) * (on[0] + on[1]))
            break;
    }
    if (on[0])
        bench_emit(s->ctx, "bsp", "empty", "bsp_sync", "registered", 0, 0.0,
                   us, n);
    if (on[1])
        bench_emit(s->ctx, "orma", "empty", "fence", "allocate", 0, 0.0, fus,
                   n);
}

/* Inside bsp_begin .. bsp_end: every point. */
static int run_points(bb_state *s, const size_t *hs, int nh, double *us)
{
    const bench_opts *o = s->ctx->opts;
    int st = BENCH_OK;
    int bsp_on = wanted(o, "empty", "bsp_sync", "registered");
    int fence_on = wanted(o, "empty", "fence", "allocate");
    if (bsp_on || fence_on)
        empty_points(s, bsp_on, fence_on, us);
    for (int kind = K_PUT; kind <= K_HPPUT; kind++) {
        if (!wanted(o, kind == K_PUT ? "put" : "hpput", "bsp_sync",
                    "registered"))
            continue;
        for (int k = 0; k < nh; k++)
            if (hrel_point(s, kind, hs[k], us) != 0)
                st = BENCH_FAIL;
    }
    return st;
}

static int bb_measure(const bench_ctx *ctx, const size_t *hs, int nh)
{
    bb_state s = {.ctx = ctx};
    void *base;
    BENCH_CHECK(orma_win_allocate(64, 1, ORMA_INFO_NULL, &base, &s.win));
    BENCH_CHECK(orma_win_fence(ORMA_MODE_NOPRECEDE, s.win));

    bsp_begin(orma_size());
    s.me = bsp_pid();
    s.p = bsp_nprocs();
    if (s.p != ctx->size || s.me != ctx->rank)
        bsp_abort("bspbench: rank %d of %d: bsp_begin(%d) made it process "
                  "%d of %d\n", ctx->rank, ctx->size, ctx->size, s.me, s.p);
    bench_bsp_coll_open(&s.coll);
    size_t hmax = hs[nh - 1];
    s.words = bb_dest_words(s.p, hmax);
    size_t bytes = s.words * sizeof *s.dest;
    s.dest = bench_xmalloc(bytes);
    memset(s.dest, 0, bytes);
    bsp_push_reg(s.dest, (int)bytes);
    bsp_sync();
    s.src = bench_xmalloc(hmax * sizeof *s.src);
    s.pid = bench_xmalloc(hmax * sizeof *s.pid);
    s.off = bench_xmalloc(hmax * sizeof *s.off);
    for (size_t i = 0; i < hmax; i++) {
        size_t index;
        bb_target(s.me, s.p, i, &s.pid[i], &index);
        s.off[i] = (int)(index * sizeof *s.dest);
    }
    double *us = bench_xmalloc(2 * BB_MAX_SAMPLES * sizeof *us);

    int st = run_points(&s, hs, nh, us);

    bsp_pop_reg(s.dest);
    bsp_sync();
    bench_bsp_coll_close(&s.coll);
    bsp_end();
    free(us);
    free(s.off);
    free(s.pid);
    free(s.src);
    free(s.dest);
    BENCH_CHECK(orma_win_fence(ORMA_MODE_NOSUCCEED, s.win));
    BENCH_CHECK(orma_win_free(&s.win));
    return st;
}

static long points(const bench_opts *o, int nh)
{
    long n = wanted(o, "empty", "bsp_sync", "registered") ||
             wanted(o, "empty", "fence", "allocate");
    n += wanted(o, "put", "bsp_sync", "registered") * (long)nh;
    n += wanted(o, "hpput", "bsp_sync", "registered") * (long)nh;
    return n + bench_list_has(o->ops, "memcpy");
}

int bench_bspbench_run(const bench_ctx *ctx)
{
    static const char *const windows[] = {"registered", "allocate", NULL};
    static const char *const ops[] = {"put", "hpput", "empty", "memcpy",
                                      NULL};
    static const char *const syncs[] = {"bsp_sync", "fence", NULL};
    const bench_opts *o = ctx->opts;
    if (bench_filters_check("bspbench", ctx->rank, o->windows, windows,
                            o->ops, ops, o->syncs, syncs) != 0)
        return BENCH_USAGE;
    size_t hs[BB_MAX_POINTS];
    int nh = bb_hs(o, hs);
    if (nh < 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: bspbench: --sizes gives h, the "
                    "words per process: at most %zu\n", BB_MAX_H);
        return BENCH_USAGE;
    }
    bench_note("bspbench: p = %d; an h-relation: every process bsp_puts "
               "(bsp_hpputs) h 8-byte words, one call per word, to the "
               "others cyclically, then bsp_sync (Bisseling's bspbench); "
               "bytes = h; a row's time is one h-relation, the slowest "
               "process's, averaged over a sample", ctx->size);
    bench_note("bspbench: empty: bsp_sync alone (bsp), orma_win_fence(0) "
               "on a 64-byte orma_win_allocate window (orma), their "
               "samples alternating");
    bench_progress_expect(points(o, nh));
    cpu_set_t saved;
    int cpu = bench_bind_rank(ctx->rank, &saved);
    if (bench_ctl_max(ctx->ctl, cpu < 0) != 0)
        bench_note("ranks not pinned: fewer than 2 CPUs allowed");
    else
        bench_note("ranks pinned: rank r to the (r mod n)-th of the n CPUs "
                   "allowed");
    int st = bb_measure(ctx, hs, nh);
    bench_bind_restore(&saved);
    int mst = bench_floor_memcpy_at(ctx, BB_MEMCPY_BYTES);
    if (st == BENCH_OK)
        st = mst;
    bspbench_summary(ctx, hs, nh);
    return st;
}
