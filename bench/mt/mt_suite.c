/* mt_suite.c -- orma-bench mt (mt.h): the message rate of 8-byte put,
 * get and fetch_and_op, each followed by a flush, from 1, 2, 4 threads of
 * rank 0 to rank 1, a passive target asleep meanwhile; one window per
 * thread (sep) and one window for all (shared).  orma's own calls run in
 * this job; the host MPIs' (mpi-rma) and liborma-mpi's (orma-mpi) in the
 * MPI program (mt_mpi.c), a job each, started by rank 0 before orma's
 * measurement and taking turns with it slot by slot (mt_jobs.c). */
#include "mt_suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "ctl.h"
#include "report.h"

const char *mt_threads_name(int threads)
{
    static const char *const names[MT_MAX_THREADS + 1] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"};
    return threads >= 0 && threads <= MT_MAX_THREADS ? names[threads] : "t?";
}

/* A backend's rows from its samples (rank 0): time per operation. */
static void mt_rows(const bench_ctx *ctx, const mt_plan *p, const char *backend, const double *us)
{
    double v[MT_MAX_ROUNDS];
    for (int op = 0; op < MT_NOPS; op++)
        for (int mode = 0; mode < MT_NMODES; mode++)
            for (int ti = 0; ti < p->nthreads; ti++) {
                const double *at = &us[mt_at(p, op, mode, ti, 0)];
                if (!(at[0] > 0))
                    continue;
                memcpy(v, at, (size_t)p->rounds * sizeof *v); /* bench_emit sorts its samples */
                bench_emit_pattern(ctx, mt_threads_name(p->threads[ti]), backend, mt_op_names[op], "flush",
                                   mt_mode_names[mode], 8, 8.0, v, p->rounds);
            }
}

/* --threads: a comma list of counts from 1 to MT_MAX_THREADS (default
 * 1,2,4).  0, or -1 after rank 0 said why. */
static int mt_parse_threads(const bench_ctx *ctx, mt_plan *p)
{
    const char *s = ctx->opts->threads ? ctx->opts->threads : "1,2,4";
    p->nthreads = 0;
    while (*s) {
        char *end;
        long t = strtol(s, &end, 10);
        int dup = 0;
        for (int i = 0; i < p->nthreads; i++)
            dup |= p->threads[i] == t;
        if (end == s || t < 1 || t > MT_MAX_THREADS || dup || (*end && *end != ',') ||
            p->nthreads == MT_MAX_THREADS) {
            if (ctx->rank == 0)
                fprintf(stderr, "orma-bench: mt: --threads %s: want distinct counts from 1 to %d, e.g. 1,2,4\n",
                        ctx->opts->threads, MT_MAX_THREADS);
            return -1;
        }
        p->threads[p->nthreads++] = (int)t;
        s = *end ? end + 1 : end;
    }
    return p->nthreads > 0 ? 0 : -1;
}

int bench_mt_run(const bench_ctx *ctx)
{
    static const char *const windows[] = {"sep", "shared", NULL};
    static const char *const ops[] = {"put", "get", "fop", NULL};
    static const char *const families[] = {"orma", "mpi-rma", "orma-mpi", NULL};
    const bench_opts *o = ctx->opts;
    if (bench_filters_check("mt", ctx->rank, o->windows, windows, o->ops, ops, NULL, NULL) != 0)
        return BENCH_USAGE;
    char bad[64];
    if (o->backends && bench_list_check(o->backends, families, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: mt: --backends: no backend %s (orma, mpi-rma, orma-mpi)\n", bad);
        return BENCH_USAGE;
    }
    if (ctx->size != 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: mt: run it as 2 ranks (orma-run -n 2)\n");
        return BENCH_USAGE;
    }
    /* batches of milliseconds: a batch of 0.2 ms (20000 operations at 100
     * Mops/s) measured as much a thread's wake-up as its calls, and 2
     * threads ran at 0.9-1.8x of 1 beside the MPI jobs' sleeping ranks */
    mt_plan p = {.batch_ops = o->quick ? 50000 : 250000,
                 .batch_s = 0.02,
                 .rounds = o->reps > 0 ? (int)(o->reps < MT_MAX_ROUNDS ? o->reps : MT_MAX_ROUNDS) : o->quick ? 5 : 15};
    if (mt_parse_threads(ctx, &p))
        return BENCH_USAGE;
    for (int i = 0; i < MT_NOPS; i++)
        p.ops[i] = bench_list_has(o->ops, mt_op_names[i]);
    for (int i = 0; i < MT_NMODES; i++)
        p.modes[i] = bench_list_has(o->windows, mt_mode_names[i]);
    int provided = ORMA_THREAD_SINGLE;
    orma_query_thread(&provided);
    int max_threads = provided == ORMA_THREAD_MULTIPLE ? MT_MAX_THREADS : 1;
    bench_note("mt: rank 0 issues 8-byte operations from T threads (%s) to rank 1, each followed by a flush of "
               "rank 1; rank 1 is a passive target asleep meanwhile (it wakes every millisecond and calls nothing), "
               "so that the origin's threads have the cores", o->threads ? o->threads : "1,2,4");
    bench_note("mt: window sep: one window per thread, each thread in its own lock_all epoch; shared: one window, "
               "one lock_all epoch opened by the main thread, every thread in it on a cache line of its own");
    bench_note("mt: a batch: every thread at most %ld operations or %.0f ms, started together; its rate is all "
               "threads' operations over its wall time (first start to last end); %d rounds after one uncounted, "
               "each a slot per (op, window, T), the T in an order that rotates, every backend's batch of a slot "
               "next to the others' (the MPI jobs run beside this one, each asleep but for its turn); rows: time "
               "per operation (us), pattern = T", p.batch_ops, p.batch_s * 1e3, p.rounds);
    int st = 0, orma_on = bench_list_has(o->backends ? o->backends : "orma", "orma");
    mt_jobs jobs = {.n = 0};
    if (ctx->rank == 0)
        mt_jobs_start(ctx, &p, &jobs);
    double *samples = calloc(mt_nsamples(&p), sizeof *samples);
    if (!samples)
        st = -1;
    else if (orma_on) {
        if (max_threads < MT_MAX_THREADS)
            bench_note("orma: FAIL: orma_init_thread(ORMA_THREAD_MULTIPLE) gave level %d: only 1 thread is measured",
                       provided);
        st = max_threads < MT_MAX_THREADS ? -1 : 0;
        int rc = mt_orma_run(ctx, &p, max_threads, samples, jobs.n ? mt_jobs_turn : NULL, &jobs);
        if (rc) {
            bench_note("orma: FAIL: a call failed or data did not verify (see above); its rows are left out");
            memset(samples, 0, mt_nsamples(&p) * sizeof *samples);
        }
        st |= rc;
    } else if (ctx->rank == 0 && jobs.n) {
        /* no orma: the jobs still take their turns, from here */
        mt_calls none = {.turn = mt_jobs_turn, .turn_arg = &jobs};
        mt_expect e;
        mt_origin(&p, &none, 0, samples, &e);
    }
    if (ctx->rank == 0 && mt_jobs_finish(&p, &jobs))
        st = -1;
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    if (ctx->rank == 0) {
        mt_series series[1 + MT_MAX_JOBS];
        int n = 0;
        if (orma_on && samples)
            series[n++] = (mt_series){"orma", samples};
        for (int i = 0; i < jobs.n; i++)
            if (jobs.job[i].us && jobs.job[i].pid > 0)
                series[n++] = (mt_series){jobs.job[i].name, jobs.job[i].us};
        for (int i = 0; i < n; i++)
            mt_rows(ctx, &p, series[i].name, series[i].us);
        mt_summary(&p, series, n);
    }
    mt_jobs_free(&jobs);
    free(samples);
    return st ? BENCH_FAIL : BENCH_OK;
}
