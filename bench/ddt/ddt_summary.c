/* ddt_summary.c -- the ddt suite's summary, from the medians of this run,
 * per window flavour, pattern and size:
 *   speedup  = pack_put_unpack / typed_put     bar >= 1.5 (data >= 4 KB);
 *                                              SLOW: below 1, typed loses
 *   vs_contig = typed_put / contig_put         bar <= 1.5 (vector-like)
 * As in the other summaries, a FAIL is reported, not turned into an exit
 * status. */
#include <stdio.h>

#include "ddt.h"
#include "report.h"
#include "windows.h"

#define BAR_SPEEDUP 1.5
#define BAR_CONTIG 1.5
#define BAR_MIN_BYTES 4096

static const bench_result *find(const ddt_case_id *id, const char *op,
                                const char *window)
{
    return bench_report_find_pattern(id->pattern->name, "orma", op, "flush",
                                     window, id->bytes);
}

/* One line; returns 1 when printed, *fails counts the bars missed. */
static int line(const ddt_case_id *id, const char *window, int *fails)
{
    const bench_result *t = find(id, "typed_put", window);
    const bench_result *p = find(id, "pack_put_unpack", window);
    const bench_result *c = find(id, "contig_put", window);
    if (t == NULL || (p == NULL && c == NULL) || !(t->median_us > 0.0))
        return 0;
    char sz[24];
    bench_format_size(id->bytes, sz, sizeof sz);
    printf("  %-14s %-15s %7s %9.2f", id->pattern->name, window, sz,
           t->median_us);
    if (p != NULL) {
        double r = p->median_us / t->median_us;
        const char *v = id->bytes < BAR_MIN_BYTES ? "--"
                        : r >= BAR_SPEEDUP        ? "PASS"
                        : r >= 1.0                ? "FAIL"
                                                  : "SLOW";
        *fails += v[0] == 'F' || v[0] == 'S';
        printf(" %9.2f %7.2f %-4s", p->median_us, r, v);
    } else {
        printf(" %9s %7s %-4s", "-", "-", "");
    }
    if (c != NULL && c->median_us > 0.0) {
        double r = t->median_us / c->median_us;
        const char *v = !id->pattern->vector_like ? "--"
                        : r <= BAR_CONTIG         ? "PASS"
                                                  : "FAIL";
        *fails += v[0] == 'F';
        printf(" %9.2f %7.2f %-4s", c->median_us, r, v);
    }
    putchar('\n');
    return 1;
}

void ddt_summary(const bench_ctx *ctx, const ddt_case_id *ids, int n)
{
    if (ctx->rank != 0)
        return;
    printf("\nsummary (medians of this run, us; bars: pack/typed >= %.1f "
           "with >= 4K of data,\n         typed/contig <= %.1f on the "
           "vector-like patterns; -- = bar does not apply)\n",
           BAR_SPEEDUP, BAR_CONTIG);
    printf("  %-14s %-15s %7s %9s %9s %7s %-4s %9s %7s %-4s\n", "pattern",
           "window", "bytes", "typed", "pack", "pk/typ", "bar", "contig",
           "typ/ctg", "bar");
    int shown = 0, fails = 0;
    for (int k = 0; ddt_window_kinds[k] != NULL; k++)
        for (int i = 0; i < n; i++)
            shown += line(&ids[i], ddt_window_kinds[k], &fails);
    if (!shown)
        printf("  (none: this run lacks the data points the ratios need)\n");
    else
        printf("  %d bar%s missed\n", fails, fails == 1 ? "" : "s");
    fflush(stdout);
}
