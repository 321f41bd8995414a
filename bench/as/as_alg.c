/* as_alg.c -- seed 003's As suite written once against li.h, so that it
 * runs unchanged on orma, the host MPIs' one-sided calls, liborma-mpi and
 * (its send versions) the host MPIs' two-sided calls.  Every rank takes
 * part in every test (as_tests.c); P is the number of ranks.
 *
 * A test's repetition is short (a synchronization, a few words), so a
 * sample is many repetitions in one timed loop, lasting about AS_SAMPLE_S
 * (the count agreed by all ranks), and the rows report the time per
 * repetition; li_measure takes the samples.  After every sample each rank
 * checks its area (as_def.h): what arrived and that nothing else changed;
 * after every point the whole area.  A point that did not verify is not
 * reported, the others still run, and the run fails.
 *
 * Rows: op the test, sync "fence" (the one-sided backends, whose sync is
 * a fence) or "p2p" (the two-sided one), window "allocate" or "none",
 * bytes 4 for the fixed tests and 4 x h for xchg (--sizes: the bytes per
 * pair), MB/s from what one rank sends per repetition. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as_alg.h"
#include "as_def.h"
#include "li_suites.h"
#include "reps.h"

#define AS_SAMPLE_S 200e-6 /* --quick: half */
#define AS_MAX_REPS (1L << 20)

/* One sample: reps repetitions timed, then the check of this rank's area.
 * Returns the time of the repetitions (li_measure adds them up to decide
 * when it has enough; point divides), or -1 when the data did not
 * verify. */
static double sample(void *arg)
{
    as_state *s = arg;
    li_lib *l = s->l;
    const as_test *t = s->test;
    s->first = s->seq;
    if (t->prepare != NULL) {
        t->prepare(s);
        l->barrier(l); /* the timed loops begin together again */
    }
    double t0 = l->now();
    if (l->two_sided)
        t->two_sided(s, s->reps);
    else
        t->one_sided(s, s->reps);
    double dt = l->now() - t0;
    if (t->expect != NULL)
        t->expect(s);
    char msg[192];
    if (!as_check(s->mem, s->want, 0, as_slot(s->h, s->p), s->h, s->p, msg,
                  sizeof msg)) {
        if (s->ok)
            fprintf(stderr, "as: rank %d: %s %s, %zu words per pair: %s\n",
                    s->me, l->backend, t->op, s->h, msg);
        s->ok = 0;
        return -1.0;
    }
    return dt;
}

/* One sample of s->reps repetitions: the slowest rank's seconds. */
static double slowest(void *arg)
{
    as_state *s = arg;
    return li_sample(s->l, sample, s);
}

/* The repetitions per sample (bench_reps_calibrate), until a sample lasts
 * AS_SAMPLE_S; -1 when the data did not verify. */
static long calibrate(as_state *s)
{
    double target = s->l->opts->quick ? AS_SAMPLE_S / 2 : AS_SAMPLE_S;
    return bench_reps_calibrate(slowest, s, &s->reps, target, AS_MAX_REPS);
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
        fprintf(stderr, "as: rank %d: %s %s, %zu words per pair, after "
                "the point: %s\n", s->me, l->backend, t->op, h, msg);
        s->ok = 0;
    }
    if (!l->all_ok(l, n > 0 && s->ok)) {
        if (s->me == 0)
            fprintf(stderr, "as: %s %s, %zu bytes per pair: data did not "
                    "verify\n", l->backend, t->op, h * 4);
        /* The next points are judged from what the area holds now, not
         * from this one's damage again. */
        memcpy(s->want, s->mem, s->words * sizeof *s->want);
        return -1;
    }
    double sent = t->sent[0] + t->sent[1] * (double)s->p +
                  t->sent[2] * (double)h * s->p;
    l->emit(l, t->op, sync_name(l), window_name(l), h * 4, 4.0 * sent, us,
            n);
    return 0;
}

static size_t words_of(const bench_opts *o, int i)
{
    return as_words_of(o->sizes[i]);
}

/* Printed by the first backend of each program (orma-bench's rank 0: orma;
 * the MPI program's stdout is not shown). */
static void notes(li_lib *l)
{
    const bench_opts *o = l->opts;
    char msg[256];
    snprintf(msg, sizeof msg, "as: p = %d; a row's time is one superstep "
             "(the test's communication, then sync, or on mpi-p2p waitall "
             "and barrier), the slowest rank's, averaged over a sample of "
             "repetitions; xchg: bytes per pair", l->nprocs);
    l->note(l, msg);
    for (int i = 0; i < o->nsizes; i++) {
        if (words_of(o, i) != 0 || !bench_list_has(o->ops, "xchg"))
            continue;
        snprintf(msg, sizeof msg, "as: xchg skips %zu bytes per pair: not "
                 "a multiple of 4 (32-bit words) from 4 to %zu",
                 o->sizes[i], AS_MAX_H * 4);
        l->note(l, msg);
    }
}

/* Every test of --op on backend l, the fixed ones first. */
static int run_tests(as_state *s, double *us)
{
    const bench_opts *o = s->l->opts;
    int st = BENCH_OK;
    for (size_t i = 0; i < as_ntests; i++) {
        const as_test *t = &as_tests[i];
        if (!bench_list_has(o->ops, t->op))
            continue;
        for (int k = 0; k < (t->xchg ? o->nsizes : 1); k++) {
            size_t h = t->xchg ? words_of(o, k) : 1;
            if (h != 0 && point(s, t, h, us) != 0)
                st = BENCH_FAIL;
        }
    }
    return st;
}

static int as_run(li_lib *l)
{
    const bench_opts *o = l->opts;
    if (!bench_list_has(o->syncs, sync_name(l)))
        return BENCH_OK;
    size_t hmax = 1;
    for (int i = 0; i < o->nsizes; i++)
        if (words_of(o, i) > hmax)
            hmax = words_of(o, i);
    notes(l);
    as_state s = {.l = l, .me = l->pid, .p = l->nprocs};
    s.words = as_area_words(hmax, s.p);
    size_t bytes = s.words * sizeof *s.mem;
    s.want = li_xmalloc(bytes);
    memset(s.want, 0, bytes);
    s.send = li_xmalloc((size_t)s.p * hmax * sizeof *s.send);
    double *us = li_xmalloc(LI_MAX_SAMPLES * sizeof *us);
    uint32_t *buf = NULL;
    if (l->two_sided) {
        /* Zeroed, as an area is. */
        buf = li_xmalloc(bytes);
        memset(buf, 0, bytes);
        s.mem = buf;
    } else {
        l->area_open(l, bytes, &s.area);
        s.mem = (uint32_t *)(void *)s.area.base;
    }
    int st = run_tests(&s, us);
    if (!l->two_sided)
        l->area_close(l, &s.area);
    free(buf);
    free(us);
    free(s.send);
    free(s.want);
    return st;
}

static const char *const as_ops[] = {"empty", "barrier", "comp", "full",
                                     "simple", "scatter", "xchg", "memcpy",
                                     NULL};
static const char *const as_syncs[] = {"fence", "p2p", NULL};

const li_suite li_as = {"as", as_ops, as_syncs, as_run, as_default_sizes};
