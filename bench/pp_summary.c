/* pp_summary.c -- the ratios the project's bar is measured by, from the
 * medians of this run:
 *   (a) 8 B put+fence round trip on allocate / cache-line round trip  <= 3
 *   (b) put bandwidth on allocate / memcpy bandwidth, 1M and 4M       >= 0.8
 *   (c) put bandwidth on create / process_vm_writev bandwidth, same   >= 0.8
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

void pp_summary(const bench_ctx *ctx)
{
    if (ctx->rank != 0)
        return;
    int shown = 0;
    printf("\nsummary (ratios of medians of this run)\n");
    const bench_result *put = bench_report_find("orma", "put", "allocate", 8);
    const bench_result *cl = bench_report_find("floor", "cacheline", "shared", 8);
    if (put != NULL && cl != NULL && cl->median_us > 0.0)
        shown += line("(a) put+fence 8 B round trip allocate/cacheline",
                      put->median_us, cl->median_us, "us", 1, 3.0);
    /* Two cores answer in well under a microsecond; more means the ranks
     * took turns on one core, and every number of the run measured the
     * scheduler rather than orma. */
    if (cl != NULL && cl->median_us > CL_SHARED_CORE_US)
        printf("  note: cache-line round trip %.1f us: the ranks shared a core "
               "(busy machine?); this run's ratios say little\n", cl->median_us);

    static const size_t big[] = {1u << 20, 4u << 20};
    static const char *const big_name[] = {"1M", "4M"};
    for (int i = 0; i < 2; i++) {
        const bench_result *p = bench_report_find("orma", "put", "allocate", big[i]);
        const bench_result *m = bench_report_find("floor", "memcpy", "none", big[i]);
        if (p != NULL && m != NULL && m->mbps > 0.0) {
            char what[64];
            snprintf(what, sizeof what, "(b) put %s bandwidth allocate/memcpy",
                     big_name[i]);
            shown += line(what, p->mbps, m->mbps, "MB/s", 0, 0.8);
        }
    }
    for (int i = 0; i < 2; i++) {
        const bench_result *p = bench_report_find("orma", "put", "create", big[i]);
        const bench_result *c = bench_report_find("floor", "cma", "none", big[i]);
        if (p != NULL && c != NULL && c->mbps > 0.0) {
            char what[64];
            snprintf(what, sizeof what, "(c) put %s bandwidth create/cma",
                     big_name[i]);
            shown += line(what, p->mbps, c->mbps, "MB/s", 0, 0.8);
        }
    }
    if (!shown)
        printf("  (none: this run lacks the data points the ratios need)\n");
    fflush(stdout);
}
