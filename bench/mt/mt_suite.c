/* mt_suite.c -- orma-bench mt (mt.h): the message rate of 8-byte put,
 * get and fetch_and_op, each followed by a flush, from 1, 2, 4 threads of
 * rank 0 to rank 1, a passive target asleep meanwhile; one window per
 * thread (sep) and one window for all (shared).  orma's own calls run in
 * this job; the host MPIs' (mpi-rma) and liborma-mpi's (orma-mpi) in the
 * MPI program (mt_mpi.c), one job each, rank 0 of this job starting them
 * while rank 1 waits. */
#include "mt_suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "caf_launch.h"
#include "ctl.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

mt_scale mt_scales[MT_MAX_SCALES];
int mt_nscales;

const char *mt_threads_name(int threads)
{
    static const char *const names[MT_MAX_THREADS + 1] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"};
    return threads >= 0 && threads <= MT_MAX_THREADS ? names[threads] : "t?";
}

static void mt_scale_add(const char *backend, int op, int mode, int threads, double mn, double med, double mx)
{
    if (mt_nscales == MT_MAX_SCALES)
        return;
    mt_scale *s = &mt_scales[mt_nscales++];
    *s = (mt_scale){.op = op, .mode = mode, .threads = threads, .min = mn, .median = med, .max = mx};
    snprintf(s->backend, sizeof s->backend, "%s", backend);
}

static int mt_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], name))
            return i;
    return -1;
}

/* orma's rows and ratios from the samples of mt_orma_run (rank 0). */
static void mt_orma_report(const bench_ctx *ctx, const mt_plan *p, double *samples, int max_threads)
{
    int i1 = -1;
    for (int i = 0; i < p->nthreads; i++)
        if (p->threads[i] == 1)
            i1 = i;
    for (int op = 0; op < MT_NOPS; op++)
        for (int mode = 0; mode < MT_NMODES; mode++)
            for (int ti = 0; ti < p->nthreads && p->ops[op] && p->modes[mode]; ti++) {
                if (p->threads[ti] > max_threads)
                    continue;
                double *v = &samples[mt_at(p, op, mode, ti, 0)];
                if (i1 >= 0 && ti != i1) {
                    double mn, med, mx;
                    mt_stats(&samples[mt_at(p, op, mode, i1, 0)], v, p->rounds, &mn, &med, &mx);
                    mt_scale_add("orma", op, mode, p->threads[ti], mn, med, mx);
                }
                /* bench_emit sorts v: the ratio above is taken first */
                bench_emit_pattern(ctx, mt_threads_name(p->threads[ti]), "orma", mt_op_names[op], "flush",
                                   mt_mode_names[mode], 8, 8.0, v, p->rounds);
            }
}

/* The rows of an MPI job's output as this run's own; the number of rows,
 * or -1 when the job said its level was not MPI_THREAD_MULTIPLE. */
static int mt_mpi_read(const bench_ctx *ctx, const char *backend, const char *out)
{
    int rows = 0, refused = 0;
    for (const char *line = out; line && *line;) {
        char op[16], mode[16];
        int threads, rounds;
        double mn, med, mx;
        if (sscanf(line, "row %15s %15s %d %d %lf %lf %lf", op, mode, &threads, &rounds, &mn, &med, &mx) == 7) {
            bench_result r = {NULL, backend, op, "flush", mode, ctx->size, 8, rounds, mn, med, mx,
                              med > 0 ? 8.0 / med : 0, mt_threads_name(threads)};
            bench_report_add(ctx, &r);
            rows++;
        } else if (sscanf(line, "scale %15s %15s %d %lf %lf %lf", op, mode, &threads, &mn, &med, &mx) == 6) {
            int o = mt_index(mt_op_names, MT_NOPS, op), m = mt_index(mt_mode_names, MT_NMODES, mode);
            if (o >= 0 && m >= 0)
                mt_scale_add(backend, o, m, threads, mn, med, mx);
        } else if (!strncmp(line, "fail ", 5) || !strncmp(line, "note ", 5)) {
            refused |= line[0] == 'f';
            bench_note("%s: %s%.*s", backend, line[0] == 'f' ? "FAIL: " : "", (int)strcspn(line + 5, "\n"),
                       line + 5);
        }
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : NULL;
    }
    return refused ? -1 : rows;
}

/* Rank 0: the MPI program under each host MPI, alone (mpi-rma) and with
 * liborma-mpi preloaded (orma-mpi), one job each.  0, or -1 when a job
 * failed, did not verify or did not get MPI_THREAD_MULTIPLE. */
static int mt_mpi(const bench_ctx *ctx, const mt_plan *p)
{
    char dir[PATH_MAX], args[6][64];
    if (pp_exe_dir(dir, sizeof dir) != 0)
        return 0;
    mt_plan_format(p, args);
    int batches = 0;
    for (int op = 0; op < MT_NOPS; op++)
        for (int m = 0; m < MT_NMODES; m++)
            batches += p->ops[op] && p->modes[m] ? p->nthreads : 0;
    /* every batch at its time cap, plus the start of the job */
    double limit = 60.0 + 2.0 * (p->rounds + 1) * batches * p->batch_s;
    int st = 0;
    for (const pp_mpi_variant *v = pp_mpi_variants; v->name; v++)
        for (int pre = 0; pre < 2; pre++) {
            const char *family = pre ? "orma-mpi" : "mpi-rma";
            char name[48];
            snprintf(name, sizeof name, "%s/%s", family, v->name);
            if (!bench_list_has(ctx->opts->backends, family))
                continue;
            caf_backend b;
            if (caf_backend_mpi(ctx, dir, v, "orma-bench-mt-mpi", pre, &b) != 0) {
                bench_note("%s skipped: orma-bench-mt-mpi-%s, liborma-mpi or mpirun.%s not found", name, v->name,
                           v->name);
                continue;
            }
            const char *argv[32];
            int n = 0;
            for (int i = 0; i < b.argc; i++)
                argv[n++] = b.argv[i];
            for (int i = 0; i < 6; i++)
                argv[n++] = args[i];
            argv[n] = NULL;
            static char out[1 << 16];
            out[0] = '\0';
            bench_progress_status(name);
            int rc = caf_launch(argv, out, sizeof out, limit);
            int rows = mt_mpi_read(ctx, name, out);
            if (rc) {
                bench_note("%s: FAIL: the MPI job ended with %s %d%s", name,
                           rc == CAF_TIMED_OUT ? "a timeout after" : "status",
                           rc == CAF_TIMED_OUT ? (int)limit : rc,
                           rc == CAF_TIMED_OUT ? " s" : " (a call failed or data did not verify: see above)");
                st = -1;
            } else if (rows < 0) {
                st = -1;
            } else if (rows == 0) {
                bench_note("%s: FAIL: no rows", name);
                st = -1;
            }
        }
    return st;
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
    mt_plan p = {.batch_ops = o->quick ? 5000 : 20000,
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
               "each a batch per (op, window, T), the T in an order that rotates; rows: time per operation (us), "
               "pattern = T", p.batch_ops, p.batch_s * 1e3, p.rounds);
    int st = 0;
    if (bench_list_has(o->backends ? o->backends : "orma", "orma")) {
        if (max_threads < MT_MAX_THREADS)
            bench_note("orma: FAIL: orma_init_thread(ORMA_THREAD_MULTIPLE) gave level %d: only 1 thread is measured",
                       provided);
        st = max_threads < MT_MAX_THREADS ? -1 : 0;
        double *samples = calloc(mt_nsamples(&p), sizeof *samples);
        int rc = samples ? mt_orma_run(ctx, &p, max_threads, samples) : -1;
        if (rc)
            bench_note("orma: FAIL: a call failed or data did not verify (see above); its rows are left out");
        else if (ctx->rank == 0)
            mt_orma_report(ctx, &p, samples, max_threads);
        st |= rc;
        free(samples);
    }
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    int mst = ctx->rank == 0 && o->backends ? mt_mpi(ctx, &p) : 0;
    mst = (int)bench_ctl_max(ctx->ctl, (uint64_t)(mst ? 1 : 0)) ? -1 : 0;
    if (ctx->rank == 0)
        mt_summary(&p);
    return st || mst ? BENCH_FAIL : BENCH_OK;
}
