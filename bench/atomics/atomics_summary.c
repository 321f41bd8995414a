/* atomics_summary.c -- the atomics suite's summary, from the medians of
 * this run, for each window flavour measured:
 *   acc bandwidth under lock_ex / memcpy bandwidth, 1M and 4M
 *   acc bandwidth under lock_sh / under lock_ex, 8 B, 1M and 4M
 *   fop latency, lock_all + flush (sync flush)          bar < 0.5 us at P = 2
 * As in pp_summary.c, a FAIL is reported, not turned into an exit
 * status. */
#include <stdio.h>

#include "atomics.h"
#include "report.h"
#include "windows.h"

#define BAR_FOP_US 0.5

static const size_t sizes[] = {8, 1u << 20, 4u << 20};
static const char *const size_names[] = {"8 B", "1M", "4M"};

static int ratio(const char *what, double num, double den, const char *unit)
{
    printf("  %-44s %10.3f / %10.3f %-4s = %6.2f\n", what, num, den, unit,
           num / den);
    return 1;
}

/* acc lock_ex over memcpy, lock_sh over lock_ex, on window. */
static int acc_lines(const char *window)
{
    int shown = 0;
    for (int i = 1; i < 3; i++) { /* 1M, 4M */
        const bench_result *ex = bench_report_find("orma", "acc", "lock_ex",
                                                   window, sizes[i]);
        const bench_result *mc = bench_report_find("floor", "memcpy", NULL,
                                                   "none", sizes[i]);
        char what[64];
        if (ex != NULL && mc != NULL && mc->mbps > 0.0) {
            snprintf(what, sizeof what, "acc SUM %s %s lock_ex/memcpy",
                     size_names[i], window);
            shown += ratio(what, ex->mbps, mc->mbps, "MB/s");
        }
    }
    for (int i = 0; i < 3; i++) {
        const bench_result *ex = bench_report_find("orma", "acc", "lock_ex",
                                                   window, sizes[i]);
        const bench_result *sh = bench_report_find("orma", "acc", "lock_sh",
                                                   window, sizes[i]);
        char what[64];
        if (ex != NULL && sh != NULL && ex->mbps > 0.0) {
            snprintf(what, sizeof what, "acc SUM %s %s lock_sh/lock_ex",
                     size_names[i], window);
            shown += ratio(what, sh->mbps, ex->mbps, "MB/s");
        }
    }
    return shown;
}

static int fop_bar(const bench_ctx *ctx, const char *window)
{
    const bench_result *r = bench_report_find("orma", "fop", "flush", window,
                                              8);
    if (r == NULL)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "fop 8 B lock_all+flush %s", window);
    /* Laid out as pp_sync_summary.c's bar line. */
    if (ctx->size == 2)
        printf("  %-44s %10.3f us%26s(bar < %.1f us)  %s\n", what,
               r->median_us, "", BAR_FOP_US,
               r->median_us < BAR_FOP_US ? "PASS" : "FAIL");
    else
        printf("  %-44s %10.3f us%26s(bar < %.1f us at 2 ranks; P = %d)\n",
               what, r->median_us, "", BAR_FOP_US, ctx->size);
    return 1;
}

void at_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    printf("\nsummary (ratios of medians of this run)\n");
    int shown = 0;
    for (int k = 0; bench_window_kinds[k] != NULL; k++) {
        shown += acc_lines(bench_window_kinds[k]);
        shown += fop_bar(ctx, bench_window_kinds[k]);
    }
    if (!shown)
        printf("  (none: this run lacks the data points the ratios need)\n");
    fflush(stdout);
}
