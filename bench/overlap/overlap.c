/* overlap.c -- the suite "overlap": passive-target progress.  The lock of
 * an orma window is a word the origin takes with atomics, so a target
 * busy computing -- never calling orma -- must not delay a put or get.
 *
 * Two ranks.  For each window (default allocate and create; --window),
 * ROUNDS times a busy then an idle phase, 1 s of each in all (0.25 s with
 * --quick):
 *   busy phase: rank 1 computes a calibrated number of sweeps over a
 *     private array (no orma call, no clock)
 *     while rank 0 repeatedly times lock(SHARED, 1) + put 8 B + unlock and
 *     lock(SHARED, 1) + get 8 B + unlock, in batches of OV_BATCH
 *     (overlap_phase.c);
 *   idle phase: the same while rank 1 sleeps in nanosleep as long.
 * Rank 1 marks a phase's start and end with a raw flag (a release store,
 * not an orma call).  Rows: op put/get (target busy) and put_idle/get_idle
 * (target asleep), sync "lock", bytes 8, min/median/max of the samples,
 * each the mean access time of a batch; op self/self_idle is the control,
 * lock + put 8 B + unlock on rank 0's own window (overlap_phase.h).
 * Every get must return the value just put (rank 0 checks), and after each
 * phase ranks 0 and 1 check their window holds the last value put.
 * The summary prints busy/idle per row; the bar is that a busy target
 * adds at most BAR_DELTA_US to the median. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "ctl.h"
#include "flag.h"
#include "overlap.h"
#include "overlap_phase.h"
#include "progress.h"
#include "report.h"
#include "windows.h"

#define PHASE_S 1.0       /* busy (and idle) time per window */
#define PHASE_QUICK_S 0.25
#define ROUNDS 4
#define BAR_DELTA_US 2.0
#define DEFAULT_WINDOWS "allocate,create"

static void sleep_for(double seconds)
{
    struct timespec ts = {(time_t)seconds,
                          (long)((seconds - (double)(time_t)seconds) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
        ; /* interrupted: sleep the rest */
}

/* One phase on one window, its samples added to smp (rank 0); returns 1
 * when the data verified everywhere. */
static int phase(const bench_ctx *ctx, const bench_window *w,
                 bench_flag_win *fw, ov_phase *ph, int busy, uint64_t units,
                 double seconds, ov_samples *smp)
{
    ph->win = w->win;
    ph->disp[0] = w->disp[0];
    ph->disp[1] = w->disp[1];
    /* Flag values only grow: 1, 2 for the first phase, 3, 4, ... */
    ph->start = ph->end + 1;
    ph->end = ph->start + 1;
    ph->bad = 0;
    BENCH_CHECK(orma_barrier());
    if (ctx->rank == 1) {
        bench_flag_raise(fw->flag[1], ph->start);
        if (busy)
            ov_compute(units);
        else
            sleep_for(seconds);
        bench_flag_raise(fw->flag[1], ph->end);
    } else if (ctx->rank == 0) {
        ov_measure(ph, smp);
    }
    /* Rank 1's word must hold the last value rank 0 put there, rank 0's
     * the last of its own puts (the control). */
    uint64_t last = bench_ctl_bcast(ctx->ctl, ph->last1);
    if (ctx->rank == 0)
        last = ph->value;
    int ok = ph->bad == 0;
    if (ctx->rank == 0 && !ok)
        fprintf(stderr, "orma-bench: overlap: %ld gets on %s did not return "
                "the value just put\n", ph->bad, w->kind);
    if (ctx->rank <= 1) {
        uint64_t have;
        memcpy(&have, w->base, sizeof have);
        if (have != last) {
            fprintf(stderr, "orma-bench: overlap: rank %d's %s window holds "
                    "%llu, expected %llu\n", ctx->rank, w->kind,
                    (unsigned long long)have, (unsigned long long)last);
            ok = 0;
        }
    }
    return bench_ctl_all_ok(ctx->ctl, ok);
}

static const char *const row_ops[OV_NKIND][2] = {
    {"put_idle", "put"}, {"get_idle", "get"}, {"self_idle", "self"}};

static void emit(const bench_ctx *ctx, const char *kind, int busy,
                 ov_samples *smp)
{
    if (smp->n == 0) {
        bench_note("overlap: no access fitted in the %s phases on %s",
                   busy ? "busy" : "idle", kind);
        return;
    }
    for (int k = 0; k < OV_NKIND; k++)
        bench_emit(ctx, "orma", row_ops[k][busy], "lock", kind, 8, 8.0,
                   smp->v[k], smp->n);
}

/* ROUNDS alternations of a busy and an idle phase on one window: the
 * machine's speed drifts within seconds, and alternating spreads the
 * drift over both sets of samples.  Returns 1 when everything verified. */
static int run_window(const bench_ctx *ctx, const char *kind,
                      bench_flag_win *fw, ov_phase *ph, uint64_t units,
                      double seconds)
{
    bench_window w;
    bench_window_open(ctx->ctl, kind, 64, &w);
    /* A fresh window holds zeros: values start again from 1. */
    ph->value = ph->last1 = 0;
    ov_samples smp[2]; /* [busy] */
    memset(smp, 0, sizeof smp);
    if (ctx->rank == 0) {
        ov_samples_init(&smp[0]);
        ov_samples_init(&smp[1]);
    }
    int ok = 1;
    char what[2][48];
    snprintf(what[0], sizeof what[0], "idle phase on %s", kind);
    snprintf(what[1], sizeof what[1], "busy phase on %s", kind);
    for (int r = 0; r < ROUNDS && ok; r++)
        for (int busy = 1; busy >= 0 && ok; busy--) {
            bench_progress(what[busy], 8);
            ok = phase(ctx, &w, fw, ph, busy, units, seconds, &smp[busy]);
        }
    if (ok && ctx->rank == 0) {
        emit(ctx, kind, 1, &smp[1]);
        emit(ctx, kind, 0, &smp[0]);
    }
    ov_samples_free(&smp[0]);
    ov_samples_free(&smp[1]);
    bench_window_close(&w);
    return ok;
}

static void summary(const bench_ctx *ctx, const char *windows)
{
    if (ctx->rank != 0)
        return;
    printf("\nsummary (target busy / target asleep, medians of this run)\n");
    for (int w = 0; bench_window_kinds[w] != NULL; w++) {
        const char *kind = bench_window_kinds[w];
        if (!bench_list_has(windows, kind))
            continue;
        for (int k = 0; k < OV_NKIND; k++) {
            const bench_result *b = bench_report_find("orma", row_ops[k][1],
                                                      "lock", kind, 8);
            const bench_result *i = bench_report_find("orma", row_ops[k][0],
                                                      "lock", kind, 8);
            if (b == NULL || i == NULL || !(i->median_us > 0.0))
                continue;
            double d = b->median_us - i->median_us;
            printf("  %-8s %-16s %8.3f / %8.3f us = %5.2f  (%+.3f us",
                   row_ops[k][1], kind, b->median_us, i->median_us,
                   b->median_us / i->median_us, d);
            /* The control has no bar: it shows what the machine adds. */
            if (k == OV_SELF)
                printf("; control: rank 0's own window)\n");
            else
                printf("; bar <= +%.1f us)  %s\n", BAR_DELTA_US,
                       d <= BAR_DELTA_US ? "PASS" : "FAIL");
        }
    }
    fflush(stdout);
}

int bench_overlap_run(const bench_ctx *ctx)
{
    if (ctx->size != 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: overlap needs exactly 2 ranks "
                    "(orma-run -n 2 orma-bench overlap)\n");
        return BENCH_USAGE;
    }
    const char *windows = ctx->opts->windows ? ctx->opts->windows
                                             : DEFAULT_WINDOWS;
    char bad[64];
    if (bench_list_check(windows, bench_window_kinds, bad, sizeof bad) != 0) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: overlap: unknown window '%s' "
                    "(allocate, create, create_allocmem, dynamic, shared)\n",
                    bad);
        return BENCH_USAGE;
    }
    /* Seconds of one phase; ROUNDS of each per window. */
    double seconds = (ctx->opts->quick ? PHASE_QUICK_S : PHASE_S) / ROUNDS;
    uint64_t units = ctx->rank == 1 ? ov_calibrate(seconds) : 0;
    bench_flag_win fw;
    bench_flag_win_open(0, &fw);
    ov_phase ph;
    memset(&ph, 0, sizeof ph);
    ph.flag1 = fw.flag[1];
    for (int k = 0; bench_window_kinds[k] != NULL; k++)
        bench_progress_expect(bench_list_has(windows, bench_window_kinds[k]) *
                              2 * ROUNDS);
    int st = BENCH_OK;
    for (int k = 0; bench_window_kinds[k] != NULL && st == BENCH_OK; k++)
        if (bench_list_has(windows, bench_window_kinds[k]) &&
            !run_window(ctx, bench_window_kinds[k], &fw, &ph, units, seconds))
            st = BENCH_FAIL;
    bench_flag_win_close(&fw);
    if (st == BENCH_OK)
        summary(ctx, windows);
    return st;
}
