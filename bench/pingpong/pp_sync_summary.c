/* pp_sync_summary.c -- the 8-byte round trips of every synchronization
 * mode beside the cache-line round trip of the same run, and their bars:
 *   (d) lock + 8 B put + unlock round trip on allocate / cache line  <= 4
 *   (e) every mode's 8 B put and get round trip on allocate          < 1 us
 * The passive modes notify through a raw flag, the very exchange the
 * cache-line floor times (pp_loop.h), so their ratio is one floor round
 * trip plus what the epochs cost.  As in pp_summary.c, a FAIL is reported,
 * not turned into an exit status. */
#include <stdio.h>

#include "pingpong.h"
#include "pp_def.h"
#include "report.h"

#define BAR_LOCK_RATIO 4.0
#define BAR_ALLOCATE_US 1.0

static const bench_result *find8(const char *op, pp_sync m, const char *win)
{
    return bench_report_find("orma", op, pp_sync_names[m], win, 8);
}

/* The rows: put and get on each of these windows (create_fit and stack
 * run only when --window names them, fit.h). */
static const char *const row_ops[] = {"put", "get"};
static const char *const row_wins[] = {"allocate", "create", "create_fit",
                                       "stack"};
#define ROWS 8

/* Columns: the modes with an 8 B result on some row. */
static int has_mode(pp_sync m)
{
    for (int i = 0; i < ROWS; i++)
        if (find8(row_ops[i / 4], m, row_wins[i % 4]) != NULL)
            return 1;
    return 0;
}

/* One table row: op on win, every column; 0 when nothing to show. */
static int row(const char *op, const char *win, double cl_us)
{
    int any = 0;
    for (int m = 0; m < PP_NSYNC; m++)
        any |= find8(op, (pp_sync)m, win) != NULL;
    if (!any)
        return 0;
    printf("    %-3s %-10s", op, win);
    for (int m = 0; m < PP_NSYNC; m++) {
        if (!has_mode((pp_sync)m))
            continue;
        const bench_result *r = find8(op, (pp_sync)m, win);
        char cell[48];
        if (r == NULL)
            snprintf(cell, sizeof cell, "-");
        else if (cl_us > 0.0)
            snprintf(cell, sizeof cell, "%.3f (%.1fx)", r->median_us,
                     r->median_us / cl_us);
        else
            snprintf(cell, sizeof cell, "%.3f", r->median_us);
        printf("  %-16s", cell);
    }
    printf("\n");
    return 1;
}

/* (e) for op: the slowest mode on allocate against BAR_ALLOCATE_US. */
static int allocate_bar(const char *op)
{
    const bench_result *worst = NULL;
    int all = 1;
    for (int m = 0; m < PP_NSYNC; m++) {
        const bench_result *r = find8(op, (pp_sync)m, "allocate");
        if (r == NULL)
            continue;
        if (r->median_us >= BAR_ALLOCATE_US)
            all = 0;
        if (worst == NULL || r->median_us > worst->median_us)
            worst = r;
    }
    if (worst == NULL)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "(e) %s 8 B allocate, slowest sync: %s", op,
             worst->sync);
    /* Aligned with the ratio lines' "(bar" column. */
    printf("  %-44s %10.3f us%26s(bar < %.1f us)  %s\n", what,
           worst->median_us, "", BAR_ALLOCATE_US, all ? "PASS" : "FAIL");
    return 1;
}

int pp_sync_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return 0;
    const bench_result *cl = bench_report_find("floor", "cacheline", NULL,
                                               "shared", 8);
    double cl_us = cl != NULL ? cl->median_us : 0.0;
    int shown = 0;
    for (int m = 0; m < PP_NSYNC; m++) {
        if (!has_mode((pp_sync)m))
            continue;
        if (shown++ == 0) {
            printf("  8 B round trips by sync: median us");
            if (cl_us > 0.0)
                printf(" (x the cache-line round trip, %.3f us)", cl_us);
            printf("\n    %-14s", "");
        }
        printf("  %-16s", pp_sync_names[m]);
    }
    if (shown) {
        putchar('\n');
        for (int i = 0; i < ROWS; i++)
            shown += row(row_ops[i / 4], row_wins[i % 4], cl_us);
    }
    const bench_result *lk = find8("put", PP_LOCK, "allocate");
    if (lk != NULL && cl_us > 0.0) {
        double ratio = lk->median_us / cl_us;
        printf("  %-44s %10.3f / %10.3f %-4s = %6.2f  (bar <= %.1f)  %s\n",
               "(d) lock+put+unlock 8 B allocate/cacheline", lk->median_us,
               cl_us, "us", ratio, BAR_LOCK_RATIO,
               ratio <= BAR_LOCK_RATIO ? "PASS" : "FAIL");
        shown++;
    }
    shown += allocate_bar("put");
    shown += allocate_bar("get");
    return shown;
}
