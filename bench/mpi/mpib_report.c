/* mpib_report.c -- the MPI program's results, in orma-bench's formats
 * (report.h): the same JSON keys in the same order, so that orma-bench
 * reads them back as its own, and the same table with a wider backend
 * column.  Only rank 0 reports. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mpib.h"
#include "progress.h"
#include "stats.h"

static struct {
    int active; /* rank 0 after a successful open */
    int p;      /* ranks in the job */
    FILE *json;
    int header_done;
} rep;

int mpib_report_open(const mpib_ctx *ctx)
{
    memset(&rep, 0, sizeof rep);
    int ok = 1;
    if (ctx->rank == 0 && ctx->opts->json_path != NULL) {
        rep.json = fopen(ctx->opts->json_path, "a");
        if (rep.json == NULL) {
            perror(ctx->opts->json_path);
            ok = 0;
        }
    }
    if (!mpib_all_ok(ok)) {
        mpib_report_close();
        return -1;
    }
    rep.active = ctx->rank == 0;
    rep.p = ctx->size;
    bench_progress_open(ctx->suite, rep.active && !ctx->opts->quiet);
    return 0;
}

void mpib_report_close(void)
{
    bench_progress_close();
    if (rep.json != NULL)
        fclose(rep.json);
    memset(&rep, 0, sizeof rep);
}

/* JSON has no inf/nan. */
static double finite_or_zero(double x)
{
    return isfinite(x) ? x : 0.0;
}

void mpib_emit(const char *suite, const char *backend, const char *op,
               const char *sync, const char *window, size_t bytes,
               double moved_bytes, double *samples_us, long n)
{
    if (!rep.active)
        return;
    bench_stats s;
    bench_stats_compute(samples_us, n, &s);
    double mbps = s.median > 0.0 ? moved_bytes / s.median : 0.0;
    bench_progress_hide();
    /* latency's sync and window names are longer (flush_local,
     * dynamic_allocmem), as in orma-bench's table */
    int lat = strcmp(suite, "latency") == 0;
    int sw = lat ? 11 : 8, ww = lat ? 16 : 15;
    if (!rep.header_done) {
        printf("%-9s %-16s %-9s %-*s %-*s %2s %6s %7s %10s %10s %10s %10s\n",
               "suite", "backend", "op", sw, "sync", ww, "window", "p",
               "bytes", "reps", "min_us", "median_us", "max_us", "MB/s");
        rep.header_done = 1;
    }
    char sz[24];
    bench_format_size(bytes, sz, sizeof sz);
    printf("%-9s %-16s %-9s %-*s %-*s %2d %6s %7ld %10.3f %10.3f %10.3f "
           "%10.1f\n", suite, backend, op, sw, sync, ww, window, rep.p, sz, n,
           s.min, s.median, s.max, mbps);
    fflush(stdout);
    if (rep.json == NULL)
        return;
    /* The strings are names from the code: no escaping needed. */
    fprintf(rep.json,
            "{\"suite\":\"%s\",\"backend\":\"%s\",\"op\":\"%s\","
            "\"sync\":\"%s\",\"window\":\"%s\",\"p\":%d,\"bytes\":%zu,"
            "\"reps\":%ld,\"min_us\":%.6g,\"median_us\":%.6g,"
            "\"max_us\":%.6g,\"mbps\":%.6g}\n",
            suite, backend, op, sync, window, rep.p, bytes, n,
            finite_or_zero(s.min), finite_or_zero(s.median),
            finite_or_zero(s.max),
            finite_or_zero(mbps));
    fflush(rep.json);
}

void mpib_note(const char *fmt, ...)
{
    if (!rep.active)
        return;
    bench_progress_hide();
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}

void mpib_progress(const char *what, size_t bytes)
{
    if (rep.active)
        bench_progress_point(what, bytes);
}
