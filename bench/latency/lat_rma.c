/* lat_rma.c -- see lat_rma.h: the data of the latency points, their
 * checks and the order of a series. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "lat_point.h"
#include "lat_rma.h"
#include "pattern.h"
#include "report.h"

/* Pattern streams (the salt of bench_pattern_seed), + the writer's rank. */
enum { SALT_PUT = 0x10, SALT_GET = 0x20, SALT_ACC_SRC = 0x30,
       SALT_ACC_BASE = 0x40 };

static int active(const lat_rma *s)
{
    return s->sync == LAT_FENCE || s->sync == LAT_PSCW;
}

static int is_origin(const lat_rma *s, int rank)
{
    return rank == 0 || active(s);
}

static int is_target(const lat_rma *s, int rank)
{
    return rank == 1 || active(s);
}

static unsigned char background(const lat_rma *s)
{
    /* Never 0 (fresh memory), different from one point to the next. */
    return (unsigned char)(0x81u + 2u * (s->points % 63u));
}

static uint64_t seed(const lat_rma *s, unsigned salt, int writer)
{
    return bench_pattern_seed(s->batch, salt + (unsigned)writer);
}

/* The first wrong byte of a point, reported once. */
static void bad(lat_rma *s, const char *what, size_t off, unsigned want,
                unsigned got)
{
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: %s: %s %s+%s on %s "
                "window, %zu bytes, batch %llu: %s byte %zu is 0x%02x, "
                "expected 0x%02x\n", s->me, s->backend, s->suite, s->op_name,
                lat_sync_names[s->sync], s->kind, s->n,
                (unsigned long long)s->batch, what, off, got, want);
    s->ok = 0;
}

/* A window, or get's result buffer: its bytes, and where the region of
 * the point starts. */
typedef struct area {
    const unsigned char *buf;
    size_t size, guard;
} area;

static area window_area(const lat_rma *s)
{
    return (area){s->win, s->win_size, s->guard};
}

static area result_area(const lat_rma *s)
{
    return (area){s->recv, s->size, LAT_GUARD};
}

/* [from, to) of a (clipped to it) must be the background. */
static void check_background(lat_rma *s, const char *what, area a,
                             size_t from, size_t to)
{
    const unsigned char *buf = a.buf;
    unsigned char bg = background(s);
    if (to > a.size)
        to = a.size;
    for (size_t i = from; i < to; i++)
        if (buf[i] != bg) {
            bad(s, what, i, bg, buf[i]);
            return;
        }
}

/* The region of a must hold the pattern of seed sd. */
static void check_pattern(lat_rma *s, const char *what, area a, uint64_t sd)
{
    size_t off;
    unsigned want, got;
    if (!bench_pattern_check(a.buf + a.guard, s->n, sd, &off, &want, &got))
        bad(s, what, a.guard + off, want, got);
}

/* acc: word i of the window's region must be P_i + iters x S_i.  Sizes
 * are multiples of 8. */
static void check_sum(lat_rma *s, long iters)
{
    const unsigned char *region = s->win + s->guard;
    uint64_t p = seed(s, SALT_ACC_BASE, s->me);
    uint64_t a = seed(s, SALT_ACC_SRC, s->peer);
    for (size_t i = 0; i < s->n / 8; i++) {
        uint64_t want = bench_pattern_word(p, i) +
                        (uint64_t)iters * bench_pattern_word(a, i);
        uint64_t got;
        memcpy(&got, region + 8 * i, 8);
        if (got != want) {
            size_t b = 0;
            while (b < 7 && ((got >> (8 * b)) & 0xff) ==
                                ((want >> (8 * b)) & 0xff))
                b++;
            bad(s, "window", s->guard + 8 * i + b,
                (unsigned)((want >> (8 * b)) & 0xff),
                (unsigned)((got >> (8 * b)) & 0xff));
            return;
        }
    }
}

/* The guard bytes around the region [guard, guard + n) of a. */
static void check_guards(lat_rma *s, const char *what, area a)
{
    check_background(s, what, a, 0, a.guard);
    check_background(s, what, a, a.guard + s->n, 2 * a.guard + s->n);
}

/* lat_point's hooks. */

static void prepare(void *arg)
{
    lat_rma *s = arg;
    s->batch++;
    unsigned char *region = s->win + s->guard;
    if (is_origin(s, s->me)) {
        if (s->op == PP_PUT)
            bench_pattern_fill(s->send, s->n, seed(s, SALT_PUT, s->me));
        else if (s->op == PP_ACC)
            bench_pattern_fill(s->send, s->n, seed(s, SALT_ACC_SRC, s->me));
    }
    if (is_target(s, s->me)) {
        if (s->op == PP_GET)
            bench_pattern_fill(region, s->n, seed(s, SALT_GET, s->me));
        else if (s->op == PP_ACC)
            bench_pattern_fill(region, s->n, seed(s, SALT_ACC_BASE, s->me));
    }
    s->ops->settle(s);
}

static double loop(void *arg, long iters)
{
    lat_rma *s = arg;
    return s->ops->loop(s, iters);
}

static void check(void *arg, long iters)
{
    lat_rma *s = arg;
    s->ops->settle(s);
    area win = window_area(s), res = result_area(s);
    if (is_target(s, s->me)) {
        if (s->op == PP_PUT)
            check_pattern(s, "window", win, seed(s, SALT_PUT, s->peer));
        else if (s->op == PP_GET)
            check_pattern(s, "window", win, seed(s, SALT_GET, s->me));
        else
            check_sum(s, iters);
        check_guards(s, "window", win);
    }
    if (is_origin(s, s->me) && s->op == PP_GET) {
        check_pattern(s, "result", res, seed(s, SALT_GET, s->peer));
        check_guards(s, "result", res);
    }
}

static long bcast(void *arg, long v)
{
    lat_rma *s = arg;
    return s->ops->bcast(s, v);
}

/* At the end of a point: everything outside the regions checked per batch
 * must be the background. */
static void check_outside(lat_rma *s, const char *what, area a,
                          int region)
{
    if (region) {
        check_background(s, what, a, 0, a.guard);
        check_background(s, what, a, a.guard + s->n, a.size);
    } else {
        check_background(s, what, a, 0, a.size);
    }
}

static void check_untouched(lat_rma *s)
{
    check_outside(s, "window", window_area(s), is_target(s, s->me));
    if (s->op == PP_GET)
        check_outside(s, "result", result_area(s), is_origin(s, s->me));
}

/* A point's start on one backend: its state, the background in every
 * byte of its window and result buffer, the point's epochs. */
static void point_open(lat_rma *s, const char *op_name, size_t n,
                       lat_sync sync, int pieces)
{
    s->op_name = op_name;
    s->size = lat_rma_bytes(bench_opts_max_size(s->opts));
    s->n = n;
    s->sync = sync;
    s->pieces = pieces > 1 && s->op == PP_PUT ? pieces : 1;
    s->piece = n / (size_t)s->pieces;
    s->ok = 1;
    s->points++;
    memset(s->win, background(s), s->win_size);
    if (s->op == PP_GET)
        memset(s->recv, background(s), s->size);
    s->ops->settle(s);
    s->ops->point_begin(s);
}

/* ... and its end: the epochs closed, the untouched bytes checked, the
 * row reported if everything verified.  0, or -1 on both ranks. */
static int point_close(lat_rma *s, lat_samples *out)
{
    s->ops->point_end(s);
    check_untouched(s);
    int ok = s->ops->all_ok(s, s->ok);
    if (ok)
        bench_emit(s->ctx, s->backend, s->op_name, lat_sync_names[s->sync],
                   s->kind, s->n, (double)s->n, out->us, out->n);
    else if (s->me == 0)
        fprintf(stderr, "orma-bench: %s: %s %s+%s on %s window, %zu "
                "bytes: data did not verify; stopping\n", s->backend,
                s->suite, s->op_name, lat_sync_names[s->sync], s->kind,
                s->n);
    free(out->us);
    return ok ? 0 : -1;
}

/* The progress line's point: "<backend>[+<backend>...] op+sync window". */
static void point_progress(const lat_rma_set *set, const char *op_name,
                           lat_sync sync, size_t n)
{
    char what[160] = "";
    size_t used = 0;
    for (int i = 0; i < set->k && used < sizeof what; i++)
        used += (size_t)snprintf(what + used, sizeof what - used, "%s%s",
                                 i ? "+" : "", set->s[i]->backend);
    if (used < sizeof what)
        snprintf(what + used, sizeof what - used, " %s+%s %s", op_name,
                 lat_sync_names[sync], set->s[0]->kind);
    bench_progress(what, n);
}

#define LAT_BUF_PAGE 4096
#define LAT_BUF_OFFSET 16

unsigned char *lat_rma_buffer(size_t n)
{
    size_t len = (n + LAT_BUF_OFFSET + LAT_BUF_PAGE - 1) / LAT_BUF_PAGE * LAT_BUF_PAGE;
    unsigned char *raw = aligned_alloc(LAT_BUF_PAGE, len);
    if (raw == NULL) {
        fprintf(stderr, "orma-bench: out of memory (%zu bytes)\n", len);
        exit(BENCH_FAIL);
    }
    return raw + LAT_BUF_OFFSET;
}

void lat_rma_buffer_free(unsigned char *p)
{
    if (p != NULL)
        free(p - LAT_BUF_OFFSET);
}

/* The windows of a set (see lat_rma.h): backend i's opened, then, inside
 * its run, backend i + 1's, ..., then fn(arg) with all of them open. */
typedef struct nest {
    lat_rma_set *set;
    size_t bytes; /* of every backend's window */
    int i;        /* the backend whose window is next */
    int (*fn)(void *arg);
    void *arg;
} nest;

static int nest_open(nest *c);

/* window_run's fn: backend c->i's window is open. */
static int nest_opened(void *arg)
{
    nest *c = arg;
    lat_rma *s = c->set->s[c->i];
    s->ops->window_begin(s);
    nest next = *c;
    next.i++;
    int st = nest_open(&next);
    s->ops->window_end(s);
    return st;
}

static int nest_open(nest *c)
{
    if (c->i == c->set->k)
        return c->fn(c->arg);
    lat_rma *s = c->set->s[c->i];
    s->guard = lat_window_guard(s->kind);
    s->win_size = c->bytes;
    /* c stays in this frame until the run returns. */
    return s->ops->window_run(s, c->bytes, nest_opened, c);
}

typedef struct point_args {
    lat_rma_set *set;
    const char *op_name;
    size_t n;
    lat_sync sync;
    int pieces;
} point_args;

/* The point of a on the windows of its set; 0 or -1 (lat_rma_point). */
static int point_run(void *arg)
{
    const point_args *a = arg;
    lat_rma_set *set = a->set;
    lat_hooks h[LAT_POINT_MAX];
    lat_samples out[LAT_POINT_MAX];
    point_progress(set, a->op_name, a->sync, a->n);
    for (int i = 0; i < set->k; i++) {
        point_open(set->s[i], a->op_name, a->n, a->sync, a->pieces);
        h[i] = (lat_hooks){set->s[i], prepare, loop, check, bcast};
    }
    int first = (int)(set->points++ % (unsigned)set->k);
    lat_point_measure(set->s[0]->opts, h, set->k, first, a->n,
                      lat_ops_per_iter(a->sync), out);
    int st = 0;
    for (int i = 0; i < set->k; i++)
        if (point_close(set->s[i], &out[i]) != 0)
            st = -1;
    return st;
}

int lat_rma_point(lat_rma_set *set, const char *op_name, size_t n,
                  lat_sync sync, int pieces)
{
    point_args a = {set, op_name, n, sync, pieces};
    lat_rma *s = set->s[0];
    if (!bench_window_per_point(s->kind))
        return point_run(&a);
    /* Both ranks skip alike (noted by the suite). */
    if (!s->ops->all_ok(s, bench_window_fits(s->kind, n)))
        return 0;
    nest c = {set, n + 2 * lat_window_guard(s->kind), 0, point_run, &a};
    return nest_open(&c) == 0 ? 0 : -1;
}

typedef struct series_args {
    lat_rma_set *set;
    lat_rma_series_fn series;
} series_args;

static int series_run(void *arg)
{
    const series_args *a = arg;
    return a->series(a->set);
}

int lat_rma_run(lat_rma_set *set, lat_rma_series_fn series)
{
    if (bench_window_per_point(set->s[0]->kind))
        return series(set);
    series_args a = {set, series};
    nest c = {set, lat_rma_bytes(bench_opts_max_size(set->s[0]->opts)), 0,
              series_run, &a};
    int st = nest_open(&c);
    return st < 0 ? BENCH_FAIL : st;
}

int lat_rma_series(lat_rma_set *set)
{
    const lat_rma *s = set->s[0];
    const bench_opts *o = s->opts;
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        size_t n = o->sizes[i];
        if (!pp_op_size_ok(s->op, n))
            continue;
        for (int m = 0; m < LAT_NSYNC && st == BENCH_OK; m++)
            if (bench_list_has(o->syncs, lat_sync_names[m]) &&
                lat_rma_point(set, pp_op_names[s->op], n, (lat_sync)m, 1) != 0)
                st = BENCH_FAIL;
    }
    return st;
}
