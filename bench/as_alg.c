/* as_alg.c -- seed 003's As suite written once against li.h, so that it
 * runs unchanged on orma, the host MPIs' one-sided calls, liborma-mpi and
 * (its send versions) the host MPIs' two-sided calls.  Every rank takes
 * part in every test; P is the number of ranks.
 *
 *   empty    the superstep's synchronization alone: sync on an area
 *            (two-sided: barrier)
 *   barrier  the library's barrier, to compare sync with
 *
 * A test's repetition is timed in samples of many repetitions when one is
 * short (a sample lasts about AS_SAMPLE_S, the count agreed by all ranks),
 * and reported per repetition; li_measure takes the samples.  After every
 * sample each rank checks its area (as_def.h): what arrived and that
 * nothing else changed; after every point the whole area. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as_def.h"
#include "li.h"
#include "li_suites.h"

#define AS_SAMPLE_S 200e-6 /* --quick: half */
#define AS_MAX_REPS (1L << 20)

typedef struct as_state as_state;

/* A test: its op name, its timed repetitions on a one-sided and on a
 * two-sided backend (reps of them, seq advancing by one each), what its
 * last repetition leaves in this rank's area (expected words), what a
 * rank sends per repetition (bytes, for MB/s).  The fixed tests use the
 * layout of h = 1. */
typedef struct as_test {
    const char *op;
    void (*one_sided)(as_state *s, long reps);
    void (*two_sided)(as_state *s, long reps);
    void (*expect)(as_state *s, uint64_t last);
    double (*moved)(int p, size_t h);
} as_test;

struct as_state {
    li_lib *l;
    int me, p;
    li_area area;        /* one-sided */
    uint32_t *mem;       /* the area: area.base, or the two-sided buffer */
    uint32_t *want;      /* what mem must hold */
    size_t words;        /* of mem and want */
    uint32_t *send;      /* p x hmax words: segment d goes to rank d */
    size_t h;            /* words per pair of the current point */
    const as_test *test; /* of the current point */
    long reps;           /* repetitions per sample */
    uint64_t seq;        /* repetitions made, the same on every rank */
    int ok;              /* every sample of the point verified here */
};

/* ---- the tests ---------------------------------------------------------- */

static void empty_1(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++)
        l->sync(l, &s->area);
    s->seq += (uint64_t)reps;
}

static void barrier_any(as_state *s, long reps)
{
    li_lib *l = s->l;
    for (long i = 0; i < reps; i++)
        l->barrier(l);
    s->seq += (uint64_t)reps;
}

static void expect_nothing(as_state *s, uint64_t last)
{
    (void)s;
    (void)last;
}

static double moved_nothing(int p, size_t h)
{
    (void)p;
    (void)h;
    return 0.0;
}

static const as_test as_tests[] = {
    {"empty", empty_1, barrier_any, expect_nothing, moved_nothing},
    {"barrier", barrier_any, barrier_any, expect_nothing, moved_nothing},
};
#define AS_NTESTS (sizeof as_tests / sizeof as_tests[0])

/* ---- samples and points ------------------------------------------------- */

/* One sample: reps repetitions timed, then the check of this rank's area.
 * Returns the time of the repetitions (li_measure adds them up to decide
 * when it has enough; point divides), or -1 when the data did not
 * verify. */
static double sample(void *arg)
{
    as_state *s = arg;
    li_lib *l = s->l;
    double t0 = l->now();
    if (l->two_sided)
        s->test->two_sided(s, s->reps);
    else
        s->test->one_sided(s, s->reps);
    double t = l->now() - t0;
    s->test->expect(s, s->seq - 1);
    char msg[192];
    if (!as_check(s->mem, s->want, 0, as_slot(s->h, s->p), s->h, s->p, msg,
                  sizeof msg)) {
        if (s->ok)
            fprintf(stderr, "orma-bench: rank %d: as %s %s, %zu words per "
                    "pair: %s\n", s->me, l->backend, s->test->op, s->h, msg);
        s->ok = 0;
        return -1.0;
    }
    return t;
}

/* The repetitions per sample: doubled (at least) until a sample lasts
 * AS_SAMPLE_S; every rank sees the same slowest times, so every rank
 * takes the same count.  Each count is timed twice and the shorter taken:
 * on a busy machine one preempted sample would otherwise stop the growth
 * at a count far too small.  The first samples warm up too.  -1 when the
 * data did not verify. */
static long calibrate(as_state *s)
{
    li_lib *l = s->l;
    double target = l->opts->quick ? AS_SAMPLE_S / 2 : AS_SAMPLE_S;
    s->reps = 1;
    for (;;) {
        double t = li_sample(l, sample, s);
        double t2 = t < 0.0 ? t : li_sample(l, sample, s);
        if (t < 0.0 || t2 < 0.0)
            return -1;
        if (t2 < t)
            t = t2;
        if (t >= target || s->reps >= AS_MAX_REPS)
            return s->reps;
        double grow = t > 0.0 ? 1.5 * target / t : 2.0;
        long next = grow < 2.0 ? 2 * s->reps : (long)((double)s->reps * grow);
        s->reps = next < AS_MAX_REPS ? next : AS_MAX_REPS;
    }
}

static const char *sync_name(const li_lib *l)
{
    return l->two_sided ? "p2p" : "fence";
}

static const char *window_name(const li_lib *l)
{
    return l->two_sided ? "none" : "allocate";
}

/* One point: test t at h words per pair, measured, checked, emitted. */
static int point(as_state *s, const as_test *t, size_t h, double *us)
{
    li_lib *l = s->l;
    s->test = t;
    s->h = h;
    s->ok = 1;
    l->progress(l, t->op, h * 4);
    long n = -1;
    if (calibrate(s) > 0)
        n = li_measure(l, sample, s, us);
    for (long i = 0; i < n; i++)
        us[i] /= (double)s->reps;
    char msg[192];
    if (n > 0 && !as_check(s->mem, s->want, 0, s->words, h, s->p, msg,
                           sizeof msg)) {
        fprintf(stderr, "orma-bench: rank %d: as %s %s, %zu words per pair, "
                "after the point: %s\n", s->me, l->backend, t->op, h, msg);
        s->ok = 0;
    }
    if (!l->all_ok(l, n > 0 && s->ok)) {
        if (s->me == 0)
            fprintf(stderr, "orma-bench: as %s %s, %zu bytes: data did not "
                    "verify\n", l->backend, t->op, h * 4);
        return -1;
    }
    l->emit(l, t->op, sync_name(l), window_name(l), h * 4, t->moved(s->p, h),
            us, n);
    return 0;
}

/* ---- the suite ---------------------------------------------------------- */

static int as_run(li_lib *l)
{
    const bench_opts *o = l->opts;
    if (!bench_list_has(o->syncs, sync_name(l)))
        return BENCH_OK;
    as_state s = {0};
    s.l = l;
    s.me = l->pid;
    s.p = l->nprocs;
    s.words = as_area_words(1, s.p);
    s.want = li_xmalloc(s.words * sizeof *s.want);
    memset(s.want, 0, s.words * sizeof *s.want);
    s.send = li_xmalloc((size_t)s.p * sizeof *s.send);
    double *us = li_xmalloc(LI_MAX_SAMPLES * sizeof *us);
    uint32_t *buf = NULL;
    if (l->two_sided) {
        /* Zeroed as an area is. */
        buf = li_xmalloc(s.words * sizeof *buf);
        memset(buf, 0, s.words * sizeof *buf);
        s.mem = buf;
    } else {
        l->area_open(l, s.words * sizeof *s.mem, &s.area);
        s.mem = (uint32_t *)(void *)s.area.base;
    }
    int st = BENCH_OK;
    for (size_t i = 0; i < AS_NTESTS; i++) {
        if (!bench_list_has(o->ops, as_tests[i].op))
            continue;
        if (point(&s, &as_tests[i], 1, us) != 0)
            st = BENCH_FAIL;
    }
    if (!l->two_sided)
        l->area_close(l, &s.area);
    free(buf);
    free(us);
    free(s.send);
    free(s.want);
    return st;
}

static const char *const as_ops[] = {"empty", "barrier", NULL};
static const char *const as_syncs[] = {"fence", "p2p", NULL};

const li_suite li_as = {"as", as_ops, as_syncs, as_run, as_default_sizes};
