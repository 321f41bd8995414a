/* nt_suite.c -- orma-bench notify (nt_def.h): notified access against
 * the patterns it replaces and against MPI's messages -- the one-way
 * latency of an 8-byte notified put to a waiting peer beside the
 * cache-line round trip, a producer-consumer pipeline of 8 B - 4 MB
 * items, and seed 004's ghost-area exchange with notified puts beside
 * orma's other versions and the host MPIs' isend/irecv.  orma's calls
 * run in this job; the host MPIs' (mpi-rma: put + flush + flag, mpi-p2p:
 * send/recv) in a job per host MPI, and liborma-mpi's notified calls
 * (orma-mpi) in another with it preloaded, which take turns with this
 * one round by round (nt_jobs.c). */
#include "nt_suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bind.h"
#include "check.h"
#include "ctl.h"
#include "ghost_def.h"
#include "pp_mpi.h"
#include "report.h"

/* The plan from the options: parts (--op; pingpong and pipeline need 2
 * ranks and are left out at other counts unless named), kinds (--sync),
 * sizes, rounds.  0, or -1 after rank 0 said why. */
static int nt_plan_make(const bench_ctx *ctx, nt_plan *p)
{
    const bench_opts *o = ctx->opts;
    memset(p, 0, sizeof *p);
    for (int part = 0; part < NT_NPARTS; part++)
        p->parts[part] = bench_list_has(o->ops, nt_part_names[part]);
    if (ctx->size != 2 && (p->parts[NT_PINGPONG] || p->parts[NT_PIPELINE])) {
        if (o->ops) {
            if (ctx->rank == 0)
                fprintf(stderr, "orma-bench: notify: pingpong and pipeline run on 2 ranks (orma-run -n 2); "
                                "at %d ranks --op ghost\n", ctx->size);
            return -1;
        }
        bench_note("notify: pingpong and pipeline left out: they run on 2 ranks, this job has %d", ctx->size);
        p->parts[NT_PINGPONG] = p->parts[NT_PIPELINE] = 0;
    }
    p->kinds[NT_FLOOR] = 1;
    for (int k = NT_NOTIFY; k < NT_NKINDS; k++)
        p->kinds[k] = bench_list_has(o->syncs, nt_kind_names[k]);
    p->sizes[NT_PINGPONG][0] = NT_PINGPONG_BYTES;
    p->nsizes[NT_PINGPONG] = 1;
    for (int i = 0; i < o->nsizes && i < NT_MAX_SIZES; i++)
        p->sizes[NT_PIPELINE][p->nsizes[NT_PIPELINE]++] = o->sizes[i];
    bench_opts g = *o;
    ghost_default_sizes(&g);
    for (int i = 0; i < g.nsizes && i < NT_MAX_SIZES; i++)
        p->sizes[NT_GHOST][p->nsizes[NT_GHOST]++] = g.sizes[i];
    p->quick = o->quick;
    p->rounds = o->reps > 0 ? (int)(o->reps < NT_MAX_ROUNDS ? o->reps : NT_MAX_ROUNDS) : o->quick ? 8 : 20;
    return 0;
}

static int nt_check_options(const bench_ctx *ctx)
{
    static const char *const windows[] = {"allocate", NULL};
    const bench_opts *o = ctx->opts;
    if (bench_filters_check("notify", ctx->rank, o->windows, windows, o->ops, nt_part_names, o->syncs,
                            nt_sync_names) != 0)
        return -1;
    char bad[64];
    if (bench_list_check(o->backends, pp_backend_names, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: notify: unknown backend '%s' (orma, mpi-rma, mpi-p2p, orma-mpi)\n", bad);
        return -1;
    }
    if (o->nsizes > NT_MAX_SIZES) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: notify: at most %d sizes\n", NT_MAX_SIZES);
        return -1;
    }
    return 0;
}

static void nt_notes(const bench_ctx *ctx, const nt_plan *p)
{
    bench_note("notify: %d rounds per point after a calibration round; in a round every backend runs a batch of each "
               "of its kinds, the programs (this job, the MPI jobs of each host MPI) and the kinds in an order that "
               "rotates; rows: min/median/max over the rounds", p->rounds);
    if (p->parts[NT_PINGPONG])
        bench_note("notify pingpong: 8-byte items between ranks 0 and 1, each waiting for its item, then sending "
                   "one back: one-way us = half the round trip; floor: the cache-line round trip (us per round "
                   "trip), in the same rounds");
    if (p->parts[NT_PIPELINE])
        bench_note("notify pipeline: rank 0 produces items into a ring of %d slots of rank 1's, each sent when its "
                   "slot's credit is back; rank 1 waits for each, checks its stamps and credits it back: us per "
                   "item, from the first item to the last credit; MB/s = bytes / median",
                   NT_SLOTS);
    if (p->parts[NT_GHOST])
        bench_note("notify ghost: seed 004's exchange, p = %d: us per step (the slowest rank's)", ctx->size);
}

int bench_notify_run(const bench_ctx *ctx_in)
{
    bench_opts opts = *ctx_in->opts;
    bench_ctx c = *ctx_in;
    c.opts = &opts;
    const bench_ctx *ctx = &c;
    if (nt_check_options(ctx))
        return BENCH_USAGE;
    /* the pipeline's default sizes are the shared ones: 8 B and 16 B - 4
     * MB in powers of 4 (--quick: 8, 1K, 64K, 1M, 4M); ghost's its own */
    nt_plan p;
    if (nt_plan_make(ctx, &p))
        return BENCH_USAGE;
    nt_notes(ctx, &p);
    nt_jobs jobs = {.n = 0};
    if (ctx->rank == 0)
        nt_jobs_start(ctx, &p, &jobs);
    /* pinned after the jobs started (they must not inherit it): the
     * jobs' ranks pin themselves alike (bind.h) */
    cpu_set_t saved;
    int cpu = bench_bind_rank(ctx->rank, &saved);
    if (!bench_ctl_all_ok(ctx->ctl, cpu >= 0))
        bench_note("notify: ranks not pinned: fewer than 2 CPUs allowed");
    double *samples = bench_xmalloc(nt_nsamples(&p) * sizeof *samples);
    memset(samples, 0, nt_nsamples(&p) * sizeof *samples);
    int st = nt_orma_run(ctx, &p, pp_backend_on(&opts, "orma"), &jobs, samples);
    if (cpu >= 0)
        bench_bind_restore(&saved);
    if (ctx->rank == 0 && nt_jobs_finish(&p, &jobs))
        st = -1;
    st = (int)bench_ctl_max(ctx->ctl, (uint64_t)(st ? 1 : 0)) ? -1 : 0;
    if (ctx->rank == 0) {
        nt_series s[NT_NKINDS * (1 + NT_MAX_JOBS)];
        int n = 0;
        for (int k = 0; k < NT_NKINDS; k++)
            if (k != NT_P2P)
                s[n++] = (nt_series){k == NT_FLOOR ? "floor" : "orma", NULL, k, samples};
        static char names[NT_MAX_JOBS][2][48];
        for (int i = 0; i < jobs.n; i++) {
            if (!jobs.job[i].us || jobs.job[i].pid <= 0)
                continue;
            if (jobs.preloaded[i]) {
                snprintf(names[i][0], sizeof names[i][0], "orma-mpi/%s", jobs.variant[i]);
                s[n++] = (nt_series){names[i][0], jobs.variant[i], NT_NOTIFY, jobs.job[i].us};
                continue;
            }
            snprintf(names[i][0], sizeof names[i][0], "mpi-rma/%s", jobs.variant[i]);
            snprintf(names[i][1], sizeof names[i][1], "mpi-p2p/%s", jobs.variant[i]);
            s[n++] = (nt_series){names[i][0], jobs.variant[i], NT_FLAG, jobs.job[i].us};
            s[n++] = (nt_series){names[i][1], jobs.variant[i], NT_P2P, jobs.job[i].us};
        }
        nt_rows(ctx, &p, s, n);
        nt_summary(ctx, &p, s, n);
    }
    nt_jobs_free(&jobs);
    free(samples);
    return st ? BENCH_FAIL : BENCH_OK;
}
