/* report.c -- see report.h.  Compiled into both programs: nothing here
 * calls orma or MPI (the opening's agreement is the caller's). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "report.h"
#include "stats.h"

/* The --csv file's first line: report.h's JSON keys, pattern always (empty
 * on the rows without one), so that every row of a file has the same
 * columns. */
static const char csv_header[] =
    "suite,backend,op,sync,window,p,bytes,reps,min_us,median_us,max_us,"
    "mbps,pattern\n";
/* A contended run's (--contend): the same and a load column, so that its
 * rows never join an uncontended run's file. */
static const char csv_header_load[] =
    "suite,backend,op,sync,window,p,bytes,reps,min_us,median_us,max_us,"
    "mbps,pattern,load\n";

static struct {
    int active;     /* rank 0 after a successful open */
    FILE *json;
    FILE *csv;
    int header_done;
    bench_result *res;
    size_t nres, cap;
    int op_width;   /* of the op column: the ddt suite's names are long */
    int sync_width, window_width; /* latency's: flush_local,
                                     dynamic_allocmem */
    int backend_width; /* of the backend column: "orma-mpi/openmpi" */
    const char *load;  /* "contend" under --contend, else NULL: every row
                          of the run says so */
    char **names;   /* copies of added results' strings (bench_report_add) */
    size_t nnames;
} rep;

/* The --csv file, opened to append: the header goes first into an empty
 * file; a file that has lines must begin with the same header, or rows of
 * other columns would follow it. */
static FILE *csv_open(const char *path, const char *header)
{
    FILE *f = fopen(path, "a+");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    char first[sizeof csv_header_load + 1] = "";
    rewind(f);
    int empty = fgets(first, sizeof first, f) == NULL;
    fseek(f, 0, SEEK_END); /* from reading to writing */
    if (empty) {
        fputs(header, f);
        fflush(f);
    } else if (strcmp(first, header) != 0) {
        fprintf(stderr, "orma-bench: %s: its first line is not orma-bench's "
                "CSV header (%.*s): not appending to it\n", path,
                (int)strlen(header) - 1, header);
        fclose(f);
        return NULL;
    }
    return f;
}

int bench_report_open_with(const bench_ctx *ctx,
                           int (*agree)(const bench_ctx *ctx, int ok),
                           int backend_width)
{
    memset(&rep, 0, sizeof rep);
    rep.load = ctx->opts->contend ? "contend" : NULL;
    int ok = 1;
    if (ctx->rank == 0 && ctx->opts->json_path != NULL) {
        rep.json = fopen(ctx->opts->json_path, "a");
        if (rep.json == NULL) {
            perror(ctx->opts->json_path);
            ok = 0;
        }
    }
    if (ok && ctx->rank == 0 && ctx->opts->csv_path != NULL) {
        rep.csv = csv_open(ctx->opts->csv_path,
                           rep.load ? csv_header_load : csv_header);
        ok = rep.csv != NULL;
    }
    if (!agree(ctx, ok)) {
        bench_report_close();
        return -1;
    }
    rep.active = ctx->rank == 0;
    rep.op_width = strcmp(ctx->suite, "ddt") == 0 ? 15 : 9;
    rep.sync_width = strcmp(ctx->suite, "latency") == 0 ? 11 : 8;
    rep.window_width = strcmp(ctx->suite, "latency") == 0 ? 16 : 15;
    rep.backend_width = backend_width;
    bench_progress_open(ctx->suite, rep.active && !ctx->opts->quiet);
    return 0;
}

void bench_report_close(void)
{
    bench_progress_close();
    if (rep.json != NULL)
        fclose(rep.json);
    if (rep.csv != NULL)
        fclose(rep.csv);
    free(rep.res);
    for (size_t i = 0; i < rep.nnames; i++)
        free(rep.names[i]);
    free(rep.names);
    memset(&rep, 0, sizeof rep);
}

static void print_header(int pattern)
{
    printf("%-9s %-*s %-*s %-*s %-*s %2s %6s %7s %10s %10s %10s %10s%s%s\n",
           "suite", rep.backend_width, "backend", rep.op_width, "op",
           rep.sync_width, "sync", rep.window_width, "window", "p", "bytes", "reps", "min_us", "median_us", "max_us", "MB/s",
           pattern ? "  pattern" : "", rep.load ? "  load" : "");
}

static void print_row(const bench_result *r)
{
    bench_progress_hide();
    char sz[24];
    bench_format_size(r->bytes, sz, sizeof sz);
    printf("%-9s %-*s %-*s %-*s %-*s %2d %6s %7ld %10.3f %10.3f %10.3f %10.1f",
           r->suite, rep.backend_width, r->backend, rep.op_width, r->op,
           rep.sync_width, r->sync, rep.window_width, r->window, r->p, sz, r->reps, r->min_us, r->median_us, r->max_us, r->mbps);
    if (r->pattern != NULL)
        printf("  %s", r->pattern);
    if (rep.load != NULL)
        printf("  %s", rep.load);
    putchar('\n');
    fflush(stdout);
}

/* JSON has no inf/nan.  Values are printed with %.6g: six significant
 * digits keep a 3 ns memcpy and a 4 ms round trip equally exact, and the
 * exponent form it may use is valid JSON. */
static double finite_or_zero(double x)
{
    return isfinite(x) ? x : 0.0;
}

/* The strings are identifiers from the code (suite and window names), so
 * they need no JSON escaping. */
static void print_json(const bench_result *r)
{
    fprintf(rep.json,
            "{\"suite\":\"%s\",\"backend\":\"%s\",\"op\":\"%s\",\"sync\":\"%s\","
            "\"window\":\"%s\",\"p\":%d,\"bytes\":%zu,\"reps\":%ld,"
            "\"min_us\":%.6g,\"median_us\":%.6g,\"max_us\":%.6g,\"mbps\":%.6g",
            r->suite, r->backend, r->op, r->sync, r->window, r->p, r->bytes,
            r->reps, finite_or_zero(r->min_us), finite_or_zero(r->median_us),
            finite_or_zero(r->max_us), finite_or_zero(r->mbps));
    if (r->pattern != NULL)
        fprintf(rep.json, ",\"pattern\":\"%s\"", r->pattern);
    if (rep.load != NULL)
        fprintf(rep.json, ",\"load\":\"%s\"", rep.load);
    fputs("}\n", rep.json);
    /* A run that dies later still leaves the lines it finished. */
    fflush(rep.json);
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (q == NULL) {
        fprintf(stderr, "orma-bench: out of memory\n");
        exit(BENCH_FAIL);
    }
    return q;
}

/* A CSV field: the names are identifiers from the code, quoted all the
 * same should one hold a comma or a quote. */
static void csv_str(const char *s)
{
    if (s == NULL)
        return;
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, rep.csv);
        return;
    }
    fputc('"', rep.csv);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', rep.csv);
        fputc(*s, rep.csv);
    }
    fputc('"', rep.csv);
}

/* The same fields and number formats as print_json. */
static void print_csv(const bench_result *r)
{
    const char *names[5] = {r->suite, r->backend, r->op, r->sync, r->window};
    for (int i = 0; i < 5; i++) {
        csv_str(names[i]);
        fputc(',', rep.csv);
    }
    fprintf(rep.csv, "%d,%zu,%ld,%.6g,%.6g,%.6g,%.6g,", r->p, r->bytes,
            r->reps, finite_or_zero(r->min_us), finite_or_zero(r->median_us),
            finite_or_zero(r->max_us), finite_or_zero(r->mbps));
    csv_str(r->pattern);
    if (rep.load != NULL) {
        fputc(',', rep.csv);
        csv_str(rep.load);
    }
    fputc('\n', rep.csv);
    fflush(rep.csv);
}

/* Rank 0: keep r for bench_report_find, print it, write it to --json and
 * --csv. */
static void store(const bench_result *r)
{
    if (rep.nres == rep.cap) {
        rep.cap = rep.cap ? 2 * rep.cap : 64;
        rep.res = xrealloc(rep.res, rep.cap * sizeof *rep.res);
    }
    rep.res[rep.nres++] = *r;
    if (!rep.header_done) {
        print_header(r->pattern != NULL);
        rep.header_done = 1;
    }
    print_row(r);
    if (rep.json != NULL)
        print_json(r);
    if (rep.csv != NULL)
        print_csv(r);
}

void bench_emit(const bench_ctx *ctx, const char *backend, const char *op,
                const char *sync, const char *window, size_t bytes,
                double moved_bytes, double *samples_us, long n)
{
    bench_emit_pattern(ctx, NULL, backend, op, sync, window, bytes,
                       moved_bytes, samples_us, n);
}

void bench_emit_pattern(const bench_ctx *ctx, const char *pattern,
                        const char *backend, const char *op, const char *sync,
                        const char *window, size_t bytes, double moved_bytes,
                        double *samples_us, long n)
{
    if (!rep.active)
        return;
    bench_stats s;
    bench_stats_compute(samples_us, n, &s);
    bench_result r = {ctx->suite, backend, op, sync, window, ctx->size,
                      bytes, n, s.min, s.median, s.max,
                      s.median > 0.0 ? moved_bytes / s.median : 0.0,
                      pattern};
    store(&r);
}

/* A copy of s that lives until bench_report_close; equal strings share. */
static const char *keep(const char *s)
{
    if (s == NULL)
        return NULL;
    for (size_t i = 0; i < rep.nnames; i++)
        if (strcmp(rep.names[i], s) == 0)
            return rep.names[i];
    rep.names = xrealloc(rep.names, (rep.nnames + 1) * sizeof *rep.names);
    size_t len = strlen(s) + 1;
    rep.names[rep.nnames] = memcpy(xrealloc(NULL, len), s, len);
    return rep.names[rep.nnames++];
}

void bench_report_add(const bench_ctx *ctx, const bench_result *r)
{
    if (!rep.active)
        return;
    bench_result c = *r;
    c.suite = ctx->suite;
    c.backend = keep(r->backend);
    c.op = keep(r->op);
    c.sync = keep(r->sync);
    c.window = keep(r->window);
    c.pattern = keep(r->pattern);
    store(&c);
}

const bench_result *bench_report_find(const char *backend, const char *op,
                                      const char *sync, const char *window,
                                      size_t bytes)
{
    return bench_report_find_pattern(NULL, backend, op, sync, window, bytes);
}

/* pattern NULL matches the rows without one. */
const bench_result *bench_report_find_pattern(const char *pattern,
                                              const char *backend,
                                              const char *op, const char *sync,
                                              const char *window, size_t bytes)
{
    for (size_t i = 0; i < rep.nres; i++) {
        const bench_result *r = &rep.res[i];
        int same_pattern = pattern == NULL
                               ? r->pattern == NULL
                               : r->pattern != NULL &&
                                     strcmp(r->pattern, pattern) == 0;
        if (same_pattern && r->bytes == bytes &&
            strcmp(r->backend, backend) == 0 &&
            strcmp(r->op, op) == 0 && strcmp(r->window, window) == 0 &&
            (sync == NULL || strcmp(r->sync, sync) == 0))
            return r;
    }
    return NULL;
}

const bench_result *bench_report_at(size_t i)
{
    return i < rep.nres ? &rep.res[i] : NULL;
}

void bench_note(const char *fmt, ...)
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

void bench_progress(const char *what, size_t bytes)
{
    if (rep.active)
        bench_progress_point(what, bytes);
}
