/* pp_summary.c -- the ratios the project's bar is measured by, from the
 * medians of this run:
 *   (a) 8 B put+fence round trip on allocate / cache-line round trip  <= 3
 *   (b) put bandwidth on allocate / memcpy bandwidth, 1M and 4M       >= 0.8
 *   (c) put bandwidth on create / process_vm_writev bandwidth, same   >= 0.8
 * and, against the same-pattern floors (floor.h: the round trip's own
 * exchange with raw copies and flags, which memcpy and cma are not):
 *   (b') put bandwidth on allocate / xcopy bandwidth, 1M and 4M      >= 0.8
 *   (c') put bandwidth on create / cma_rt bandwidth, same            >= 0.8
 * and, per synchronization mode, the 8 B round trips (pp_sync_summary.c).
 * A benchmark reports; a FAIL here does not change the exit status. */
#include <stdio.h>

#include "pingpong.h"
#include "report.h"

#define CL_SHARED_CORE_US 2.0

static int line(const char *what, double num, double den, const char *unit,
                int at_most, double bar)
{
    double ratio = num / den;
    int pass = at_most ? ratio <= bar : ratio >= bar;
    printf("  %-44s %10.3f / %10.3f %-4s = %6.2f  (bar %s %.1f)  %s\n", what,
           num, den, unit, ratio, at_most ? "<=" : ">=", bar,
           pass ? "PASS" : "FAIL");
    return 1;
}

/* The put bandwidth on window over the floor's, at 1M and 4M.  *head_p,
 * when not NULL, is printed before the first line and then cleared. */
static int bandwidth(const char **head_p, const char *tag, const char *window,
                     const char *floor_op, const char *floor_window)
{
    static const size_t big[] = {1u << 20, 4u << 20};
    static const char *const big_name[] = {"1M", "4M"};
    int shown = 0;
    for (int i = 0; i < 2; i++) {
        const bench_result *p = bench_report_find("orma", "put", "fence",
                                                  window, big[i]);
        const bench_result *f = bench_report_find("floor", floor_op, NULL,
                                                  floor_window, big[i]);
        if (p == NULL || f == NULL || !(f->mbps > 0.0))
            continue;
        if (head_p != NULL && *head_p != NULL) {
            fputs(*head_p, stdout);
            *head_p = NULL;
        }
        char what[64];
        snprintf(what, sizeof what, "%s put %s bandwidth %s/%s", tag,
                 big_name[i], window, floor_op);
        shown += line(what, p->mbps, f->mbps, "MB/s", 0, 0.8);
    }
    return shown;
}

void pp_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    int shown = 0;
    printf("\nsummary (ratios of medians of this run)\n");
    const bench_result *put = bench_report_find("orma", "put", "fence",
                                                "allocate", 8);
    const bench_result *cl = bench_report_find("floor", "cacheline", NULL,
                                               "shared", 8);
    if (put != NULL && cl != NULL && cl->median_us > 0.0)
        shown += line("(a) put+fence 8 B round trip allocate/cacheline",
                      put->median_us, cl->median_us, "us", 1, 3.0);
    /* Two cores answer in well under a microsecond; more means the ranks
     * took turns on one core, and every number of the run measured the
     * scheduler rather than orma. */
    if (cl != NULL && cl->median_us > CL_SHARED_CORE_US)
        printf("  note: cache-line round trip %.1f us: the ranks shared a core "
               "(busy machine?); this run's ratios say little\n", cl->median_us);

    shown += bandwidth(NULL, "(b)", "allocate", "memcpy", "none");
    shown += bandwidth(NULL, "(c)", "create", "cma", "none");
    const char *head = "  same-pattern floors (the round trip's exchange, "
                       "raw copies and flags):\n";
    shown += bandwidth(&head, "(b')", "allocate", "xcopy", "shared");
    shown += bandwidth(&head, "(c')", "create", "cma_rt", "none");
    shown += pp_sync_summary(ctx);
    if (!shown)
        printf("  (none: this run lacks the data points the ratios need)\n");
    fflush(stdout);
}
