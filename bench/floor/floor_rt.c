/* floor_rt.c -- see floor_rt.h.  The point loop mirrors pp_orma.c (warm-up,
 * calibration, rank 0's count) so both rows of a size are timed alike. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "flag.h"
#include "floor_rt.h"
#include "pattern.h"
#include "plan.h"
#include "report.h"

#define RT_WARMUP 3 /* as PP_WARMUP in pp_def.h */
#define RT_CALIB 4  /* as PP_CALIB */

typedef struct rt_state {
    const bench_ctx *ctx;
    const floor_rt *rt;
    int active;    /* rank 0 or 1 */
    size_t n;
    uint64_t rep;  /* repetition number, across points: the pattern's */
    uint64_t step; /* the last flag value raised, the same on both ranks */
    int ok;        /* nothing wrong yet in the current point */
} rt_state;

static uint64_t seed(const rt_state *s)
{
    return bench_pattern_seed(s->rep, 0);
}

static void rt_send(rt_state *s, const unsigned char *from)
{
    if (s->rt->send(s->rt->arg, from, s->n) != 0)
        s->ok = 0; /* the flag still goes up: the peer must not hang */
}

static double timed(rt_state *s)
{
    const floor_rt *rt = s->rt;
    uint64_t v = ++s->step;
    double t0 = orma_wtime();
    if (s->ctx->rank == 0) {
        rt_send(s, rt->src);
        bench_flag_raise(rt->mine, v);
        bench_flag_wait(rt->mine, rt->peer, v);
    } else {
        bench_flag_wait(rt->mine, rt->peer, v);
        rt_send(s, rt->recv);
        bench_flag_raise(rt->mine, v);
    }
    return orma_wtime() - t0;
}

static void verify(rt_state *s)
{
    size_t off;
    unsigned want, got;
    if (bench_pattern_check(s->rt->recv, s->n, seed(s), &off, &want, &got))
        return;
    /* The first bad repetition of a point only; the point goes on so that
     * both ranks keep raising the same flags. */
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: floor %s, %zu bytes, "
                "repetition %llu: byte %zu is 0x%02x, expected 0x%02x\n",
                s->ctx->rank, s->rt->op, s->n, (unsigned long long)s->rep,
                off, got, want);
    s->ok = 0;
}

static void prepare(rt_state *s)
{
    if (s->ctx->rank == 0)
        bench_pattern_fill(s->rt->src, s->n, seed(s));
}

/* One repetition; *sec_p (if not NULL) receives the timed part. */
static void repetition(rt_state *s, double *sec_p)
{
    if (!s->active)
        return;
    double t = timed(s);
    verify(s);
    s->rep++;
    prepare(s);
    uint64_t v = ++s->step;
    bench_flag_raise(s->rt->mine, v);
    bench_flag_wait(s->rt->mine, s->rt->peer, v);
    if (sec_p != NULL)
        *sec_p = t;
}

static int point(rt_state *s, size_t n)
{
    const bench_ctx *ctx = s->ctx;
    s->n = n;
    s->ok = 1;
    /* The last repetition prepared only the previous size's bytes. */
    prepare(s);
    for (int i = 0; i < RT_WARMUP; i++)
        repetition(s, NULL);
    long reps = ctx->opts->reps;
    if (reps <= 0) {
        double t0 = orma_wtime();
        for (int i = 0; i < RT_CALIB; i++)
            repetition(s, NULL);
        reps = bench_reps_for(ctx->opts, (orma_wtime() - t0) / RT_CALIB);
    }
    reps = (long)bench_ctl_bcast(ctx->ctl, (uint64_t)reps);
    double *us = bench_xmalloc((size_t)reps * sizeof *us);
    for (long i = 0; i < reps; i++) {
        double t = 0.0;
        repetition(s, &t);
        us[i] = t * 1e6;
    }
    int ok = bench_ctl_all_ok(ctx->ctl, s->ok);
    if (ok)
        bench_emit(ctx, "floor", s->rt->op, "flag", s->rt->window, n,
                   2.0 * (double)n, us, reps);
    else if (ctx->rank == 0)
        fprintf(stderr, "orma-bench: floor %s, %zu bytes: data did not "
                "verify; stopping\n", s->rt->op, n);
    free(us);
    return ok ? 0 : -1;
}

int floor_rt_series(const bench_ctx *ctx, const floor_rt *rt)
{
    rt_state s = {ctx, rt, ctx->rank <= 1, 0, 0, 0, 1};
    char what[48];
    snprintf(what, sizeof what, "floor %s", rt->op);
    for (int i = 0; i < ctx->opts->nsizes; i++) {
        bench_progress(what, ctx->opts->sizes[i]);
        if (point(&s, ctx->opts->sizes[i]) != 0)
            return BENCH_FAIL;
    }
    return BENCH_OK;
}
