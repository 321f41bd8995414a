/* li_orma.c -- li.h's functions over orma (li_orma.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "li_orma.h"
#include "li_run.h"

static const bench_ctx *ctx_of(li_lib *l)
{
    return ((li_orma *)l->impl)->ctx;
}

#include "li_fence.h"

static void *li_b_allocate(size_t bytes, orma_win *w)
{
    void *base;
    BENCH_CHECK(orma_win_allocate(bytes, 1, ORMA_INFO_NULL, &base, w));
    return base;
}

static void barrier(li_lib *l)
{
    (void)l;
    BENCH_CHECK(orma_barrier());
}

/* The control window agrees on 64-bit unsigned integers.  A double's bits
 * order as the numbers do once negative ones are flipped whole and
 * positive ones get the sign bit set: the largest key is the largest
 * value, exactly, infinities included. */
static uint64_t key_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b >> 63 ? ~b : b | UINT64_C(1) << 63;
}

static double value_of(uint64_t k)
{
    uint64_t b = k >> 63 ? k & ~(UINT64_C(1) << 63) : ~k;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static double max(li_lib *l, double v)
{
    return value_of(bench_ctl_max(ctx_of(l)->ctl, key_of(v)));
}

static long bcast(li_lib *l, long v)
{
    return (long)bench_ctl_bcast(ctx_of(l)->ctl, (uint64_t)v);
}

static int all_ok(li_lib *l, int ok)
{
    return bench_ctl_all_ok(ctx_of(l)->ctl, ok);
}

void li_orma_init(li_orma *o, const bench_ctx *ctx, const char *suite)
{
    memset(o, 0, sizeof *o);
    o->ctx = ctx;
    li_lib *l = &o->lib;
    l->backend = "orma";
    li_run_init(l, ctx, suite, o);
    l->two_sided = 0;
    li_fence_areas(l);
    l->barrier = barrier;
    l->now = orma_wtime;
    l->max = max;
    l->bcast = bcast;
    l->all_ok = all_ok;
}
