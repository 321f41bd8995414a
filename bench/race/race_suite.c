/* race_suite.c -- orma-bench race (race.h): options, the plan, the rounds
 * of paired batches, the rows and the summary with the bar:
 * checked / unchecked at most 3x at 16 B - 64 KB, for the ghost exchange
 * and the pingpong round trips. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "bind.h"
#include "check.h"
#include "ctl.h"
#include "ghost.h"
#include "pp_def.h"
#include "progress.h"
#include "race.h"
#include "report.h"
#include "reps.h"
#include "stats.h"

const char *const race_part_names[] = {"ghost", "put", "get", NULL};
const char *const race_side_backends[] = {"orma", "orma-race"};

/* --sync: ghost's one-sided versions and pingpong's modes. */
static const char *const race_sync_names[] = {"fence", "pscw", "lock", "lock_all", "flush", "notify", NULL};

#define RACE_BAR 3.0
#define RACE_BAR_MIN 16
#define RACE_BAR_MAX 65536
#define RACE_MAX_ROUNDS 1000

/* Default sizes: 16 B - 64 KB in powers of 4 (the bar's range); --quick
 * the ends and two between. */
static const size_t race_sizes[] = {16, 64, 256, 1024, 4096, 16384, 65536};
static const size_t race_quick_sizes[] = {16, 1024, 16384, 65536};

/* A point: part, mode (ghost_sync or pp_sync), size. */
typedef struct race_point {
    int part, mode;
    size_t bytes;
} race_point;

typedef struct race_plan {
    int parts[RACE_NPARTS];
    race_point *pts;
    int npts;
    int rounds;
} race_plan;

static const char *race_mode_name(int part, int mode)
{
    return part == RACE_GHOST ? ghost_sync_names[mode] : pp_sync_names[mode];
}

static int race_plan_make(const bench_ctx *ctx, race_plan *p)
{
    const bench_opts *o = ctx->opts;
    memset(p, 0, sizeof *p);
    for (int part = 0; part < RACE_NPARTS; part++)
        p->parts[part] = bench_list_has(o->ops, race_part_names[part]);
    if (ctx->size != 2 && (p->parts[RACE_PUT] || p->parts[RACE_GET])) {
        if (o->ops && !p->parts[RACE_GHOST]) {
            if (ctx->rank == 0)
                fprintf(stderr, "orma-bench: race: put and get (pingpong) run on 2 ranks (orma-run -n 2); at %d "
                        "ranks --op ghost\n", ctx->size);
            return -1;
        }
        bench_note("race: pingpong (put, get) left out: it runs on 2 ranks, this job has %d", ctx->size);
        p->parts[RACE_PUT] = p->parts[RACE_GET] = 0;
    }
    p->rounds = o->reps > 0 ? (int)(o->reps < RACE_MAX_ROUNDS ? o->reps : RACE_MAX_ROUNDS) : o->quick ? 8 : 20;
    p->pts = bench_xmalloc((size_t)RACE_NPARTS * PP_NSYNC * BENCH_MAX_SIZES * sizeof *p->pts);
    for (int part = 0; part < RACE_NPARTS; part++) {
        if (!p->parts[part])
            continue;
        for (int i = 0; i < o->nsizes; i++) {
            int first = part == RACE_GHOST ? GHOST_FENCE : 0;
            int last = part == RACE_GHOST ? GHOST_NSYNC : PP_NSYNC;
            for (int m = first; m < last; m++)
                if (bench_list_has(o->syncs, race_mode_name(part, m)))
                    p->pts[p->npts++] = (race_point){part, m, o->sizes[i]};
        }
    }
    return 0;
}

static int race_check_options(const bench_ctx *ctx)
{
    static const char *const windows[] = {"allocate", NULL};
    const bench_opts *o = ctx->opts;
    if (bench_filters_check("race", ctx->rank, o->windows, windows, o->ops, race_part_names, o->syncs,
                            race_sync_names) != 0)
        return -1;
    if (o->backends && strcmp(o->backends, "orma") != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: race: --backends: orma only (its windows checked and not)\n");
        return -1;
    }
    return 0;
}

/* The two sides' state of the part being measured. */
typedef struct race_sides {
    int part;
    ghost_orma *g[RACE_NSIDES];
    race_pp *pp[RACE_NSIDES];
} race_sides;

static void race_sides_open(const bench_ctx *ctx, race_sides *sd, int part, size_t max)
{
    memset(sd, 0, sizeof *sd);
    sd->part = part;
    for (int k = 0; k < RACE_NSIDES; k++) {
        if (part == RACE_GHOST)
            sd->g[k] = ghost_orma_open_race(ctx, max, k == RACE_ON);
        else
            sd->pp[k] = race_pp_open(ctx, part, max, k == RACE_ON, ctx->opts->syncs);
    }
}

static void race_sides_close(race_sides *sd)
{
    for (int k = 0; k < RACE_NSIDES; k++) {
        if (sd->g[k])
            ghost_orma_close(sd->g[k]);
        if (sd->pp[k])
            race_pp_close(sd->pp[k]);
    }
}

/* A batch of one side, as bench_iters_calibrate's fn. */
typedef struct race_batch {
    race_sides *sd;
    int side, mode;
    double us; /* the batch's sample: us per step or round trip */
} race_batch;

static double race_batch_fn(void *arg, long iters, uint64_t batch)
{
    race_batch *b = arg;
    if (b->sd->part == RACE_GHOST) {
        double t = ghost_orma_batch(b->sd->g[b->side], (ghost_sync)b->mode, iters, batch);
        b->us = t * 1e6 / (double)iters;
        return t;
    }
    return race_pp_batch(b->sd->pp[b->side], iters, &b->us);
}

/* One point: calibration, rounds; samples[side * rounds + r].  1 when
 * both sides verified. */
static int race_point_run(const bench_ctx *ctx, const race_plan *p, race_sides *sd, const race_point *pt,
                          uint64_t *batch, double *samples)
{
    const bench_opts *o = ctx->opts;
    for (int k = 0; k < RACE_NSIDES; k++) {
        if (pt->part == RACE_GHOST)
            ghost_orma_begin(sd->g[k], pt->bytes);
        else
            race_pp_begin(sd->pp[k], pt->bytes, pt->mode);
    }
    race_batch b[RACE_NSIDES] = {{sd, RACE_OFF, pt->mode, 0}, {sd, RACE_ON, pt->mode, 0}};
    int ghost = pt->part == RACE_GHOST;
    /* Each side its own batch length, of about the same time: a checked
     * step may cost a hundred unchecked ones, and batches as long as the
     * unchecked side's count would take the run hours. */
    long iters[RACE_NSIDES];
    for (int k = 0; k < RACE_NSIDES; k++) {
        double last;
        iters[k] = bench_iters_calibrate(race_batch_fn, &b[k], batch, ghost ? GHOST_WARMUP_STEPS : PP_WARMUP,
                                         ghost ? GHOST_MIN_STEPS : PP_CALIB,
                                         ghost ? GHOST_MAX_ITERS : BENCH_MAX_REPS, ghost_batch_seconds(o), &last);
    }
    for (int r = 0; r < p->rounds; r++)
        for (int j = 0; j < RACE_NSIDES; j++) {
            int k = (j + r) % RACE_NSIDES; /* even rounds: unchecked first */
            race_batch_fn(&b[k], iters[k], (*batch)++);
            samples[k * p->rounds + r] = b[k].us;
        }
    int ok = 1;
    for (int k = 0; k < RACE_NSIDES; k++)
        ok &= ghost ? ghost_orma_ok(sd->g[k], (ghost_sync)pt->mode) : race_pp_end(sd->pp[k]);
    return ok;
}

/* The median (min-max) of the rounds' ratios checked / unchecked. */
static void race_ratio(const race_plan *p, const double *s, bench_stats *st)
{
    double v[RACE_MAX_ROUNDS];
    for (int r = 0; r < p->rounds; r++)
        v[r] = s[RACE_ON * p->rounds + r] / s[RACE_OFF * p->rounds + r];
    bench_stats_compute(v, p->rounds, st);
}

static void race_median(const race_plan *p, const double *s, int side, bench_stats *st)
{
    double v[RACE_MAX_ROUNDS];
    memcpy(v, s + side * p->rounds, (size_t)p->rounds * sizeof *v);
    bench_stats_compute(v, p->rounds, st);
}

static void race_rows(const bench_ctx *ctx, const race_plan *p, const double *samples, const int *ok)
{
    double v[RACE_MAX_ROUNDS];
    for (int i = 0; i < p->npts; i++) {
        const race_point *pt = &p->pts[i];
        if (!ok[i])
            continue;
        double moved = (pt->part == RACE_GHOST ? 4.0 : 2.0) * (double)pt->bytes;
        for (int k = 0; k < RACE_NSIDES; k++) {
            memcpy(v, samples + (size_t)i * RACE_NSIDES * p->rounds + k * p->rounds, (size_t)p->rounds * sizeof *v);
            bench_emit(ctx, race_side_backends[k], race_part_names[pt->part], race_mode_name(pt->part, pt->mode),
                       "allocate", pt->bytes, moved, v, p->rounds);
        }
    }
}

/* Rank 0: per part, a table by mode and size, and the part's bar; then
 * the bar over every part. */
static void race_summary(const bench_ctx *ctx, const race_plan *p, const double *samples, const int *ok)
{
    int all_pass = 1, any = 0;
    double all_worst = 0;
    char all_where[96] = "";
    for (int part = 0; part < RACE_NPARTS; part++) {
        if (!p->parts[part])
            continue;
        printf("\nrace %s%s, p=%d: us per %s, median over %d rounds of each side; checked / unchecked: median "
               "(min-max) of the rounds' ratios\n", part == RACE_GHOST ? "" : "pingpong ", race_part_names[part],
               ctx->size, part == RACE_GHOST ? "step" : "round trip", p->rounds);
        printf("  %-8s %7s %11s %11s   %s\n", "sync", "bytes", "unchecked", "checked", "checked / unchecked");
        int pass = 1, n = 0, over = 0;
        double worst = 0;
        char where[64] = "";
        for (int i = 0; i < p->npts; i++) {
            const race_point *pt = &p->pts[i];
            if (pt->part != part)
                continue;
            char sz[24];
            bench_format_size(pt->bytes, sz, sizeof sz);
            const char *mode = race_mode_name(part, pt->mode);
            if (!ok[i]) {
                printf("  %-8s %7s %11s %11s   data did not verify\n", mode, sz, "-", "-");
                continue;
            }
            const double *s = samples + (size_t)i * RACE_NSIDES * p->rounds;
            bench_stats off, on, ra;
            race_median(p, s, RACE_OFF, &off);
            race_median(p, s, RACE_ON, &on);
            race_ratio(p, s, &ra);
            int in_bar = pt->bytes >= RACE_BAR_MIN && pt->bytes <= RACE_BAR_MAX;
            printf("  %-8s %7s %11.3f %11.3f   %5.2f (%.2f-%.2f)%s\n", mode, sz, off.median, on.median, ra.median,
                   ra.min, ra.max, in_bar && ra.median > RACE_BAR ? "  > 3x" : "");
            if (!in_bar)
                continue;
            n++;
            if (ra.median > RACE_BAR) {
                pass = 0;
                over++;
            }
            if (ra.median > worst) {
                worst = ra.median;
                snprintf(where, sizeof where, "%s at %s", mode, sz);
            }
        }
        if (!n) {
            printf("  bar race %s: no verdict (no point at 16 B - 64 KB)\n", race_part_names[part]);
            continue;
        }
        any = 1;
        all_pass &= pass;
        printf("  bar race %s%s: checked / unchecked <= %.0fx at 16 B - 64 KB, p=%d: highest %.2f (%s), %d of %d "
               "points above: %s\n", part == RACE_GHOST ? "" : "pingpong ", race_part_names[part], RACE_BAR,
               ctx->size, worst, where, over, n, pass ? "PASS" : "FAIL");
        if (worst > all_worst) {
            all_worst = worst;
            snprintf(all_where, sizeof all_where, "%s %s", race_part_names[part], where);
        }
    }
    if (any)
        printf("\nrace cost <= %.0fx: %s (highest median ratio %.2f: %s, p=%d)\n", RACE_BAR,
               all_pass ? "PASS" : "FAIL", all_worst, all_where, ctx->size);
    else
        printf("\nrace cost <= %.0fx: no verdict (no point at 16 B - 64 KB)\n", RACE_BAR);
    fflush(stdout);
}

int bench_race_run(const bench_ctx *ctx_in)
{
    bench_opts opts = *ctx_in->opts;
    if (!opts.sizes_given) {
        const size_t *sz = opts.quick ? race_quick_sizes : race_sizes;
        opts.nsizes = opts.quick ? (int)(sizeof race_quick_sizes / sizeof *sz)
                                 : (int)(sizeof race_sizes / sizeof *sz);
        for (int i = 0; i < opts.nsizes; i++)
            opts.sizes[i] = sz[i];
    }
    bench_ctx c = *ctx_in;
    c.opts = &opts;
    const bench_ctx *ctx = &c;
    if (race_check_options(ctx))
        return BENCH_USAGE;
    race_plan p;
    if (race_plan_make(ctx, &p)) {
        free(p.pts);
        return BENCH_USAGE;
    }
    const char *env = getenv("ORMA_CHECK");
    if (env && strstr(env, "race"))
        bench_note("race: ORMA_CHECK=%s checks every window: the unchecked side is checked too, its ratios say "
                   "nothing", env);
    bench_note("race: every point's series run on two sets of allocate windows side by side, %s (info "
               "orma_check_race=true) and %s (none); each side's batch lasts ~%.0f us; %d rounds per point, each "
               "a batch of either side, unchecked first in even rounds; rows: min/median/max over the rounds",
               race_side_backends[RACE_ON], race_side_backends[RACE_OFF], ghost_batch_seconds(&opts) * 1e6,
               p.rounds);
    bench_note("race: a report of the checker (a line 'orma race: ...' on stderr) on these programs, which are "
               "correct, is a bug of the checker");
    double *samples = bench_xmalloc((size_t)(p.npts ? p.npts : 1) * RACE_NSIDES * (size_t)p.rounds * sizeof *samples);
    int *ok = bench_xmalloc((size_t)(p.npts ? p.npts : 1) * sizeof *ok);
    bench_progress_expect(p.npts);
    /* pinned as the notify and latency suites' ranks (bind.h): left
     * alone, two ranks that wait for each other were seen sharing a core */
    cpu_set_t saved;
    int cpu = bench_bind_rank(ctx->rank, &saved);
    if (!bench_ctl_all_ok(ctx->ctl, cpu >= 0))
        bench_note("race: ranks not pinned: fewer than 2 CPUs allowed");
    uint64_t batch = 0;
    int st = BENCH_OK;
    for (int part = 0; part < RACE_NPARTS; part++) {
        if (!p.parts[part])
            continue;
        size_t max = 0;
        for (int i = 0; i < p.npts; i++)
            if (p.pts[i].part == part && p.pts[i].bytes > max)
                max = p.pts[i].bytes;
        if (!max)
            continue;
        race_sides sd;
        race_sides_open(ctx, &sd, part, max);
        for (int i = 0; i < p.npts; i++) {
            const race_point *pt = &p.pts[i];
            if (pt->part != part)
                continue;
            char what[64];
            snprintf(what, sizeof what, "%s %s+%s", part == RACE_GHOST ? "ghost" : "pingpong",
                     race_part_names[part], race_mode_name(part, pt->mode));
            bench_progress(what, pt->bytes);
            ok[i] = race_point_run(ctx, &p, &sd, pt, &batch, samples + (size_t)i * RACE_NSIDES * p.rounds);
            if (!ok[i])
                st = BENCH_FAIL;
        }
        race_sides_close(&sd);
    }
    if (cpu >= 0)
        bench_bind_restore(&saved);
    if (ctx->rank == 0) {
        race_rows(ctx, &p, samples, ok);
        race_summary(ctx, &p, samples, ok);
    }
    free(samples);
    free(ok);
    free(p.pts);
    return st;
}
