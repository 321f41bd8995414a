/* report.h -- where results go: an aligned table on stdout, one JSON object
 * per line appended to the --json file, one CSV row per result appended to
 * the --csv file (after a header line when the file is new), and a progress
 * line on stderr when a run is long (progress.h).  Only rank 0 reports; on
 * other ranks every call is a no-op.
 *
 * JSON keys: suite backend op sync window p bytes reps min_us median_us
 * max_us mbps, and pattern for the rows that have one (the ddt suite).  mbps is MB/s (1 MB = 1e6 bytes) from the median time and
 * the bytes one sample moves (2 * bytes for a round trip). */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stddef.h>

#include "bench.h"

typedef struct bench_result {
    const char *suite, *backend, *op, *sync, *window; /* static strings */
    int p;            /* ranks in the job */
    size_t bytes;     /* message size */
    long reps;        /* samples the statistics are over */
    double min_us, median_us, max_us;
    double mbps;
    const char *pattern; /* static string, or NULL: no such column */
} bench_result;

/* Rank 0 opens the JSON and CSV files (append); all ranks learn whether
 * that worked, through the control window (report_ctl.c).  The table's
 * backend column is 16 wide with --backends ("orma-mpi/openmpi"), else 7.
 * Collective.  Returns 0 or -1 (message printed). */
int bench_report_open(const bench_ctx *ctx);

/* bench_report_open for a program that agrees by other means (the MPI
 * program, which has no control window: ctx->ctl is not read): agree(ctx,
 * ok) returns 1 on every rank when ok is non-zero on every rank; the
 * backend column is backend_width wide. */
int bench_report_open_with(const bench_ctx *ctx,
                           int (*agree)(const bench_ctx *ctx, int ok),
                           int backend_width);
void bench_report_close(void);

/* Summarize samples (microseconds each; reordered) as one result of
 * ctx->suite; moved_bytes is what one sample moved, for mbps. */
void bench_emit(const bench_ctx *ctx, const char *backend, const char *op,
                const char *sync, const char *window, size_t bytes,
                double moved_bytes, double *samples_us, long n);

/* bench_emit for a row of a data layout (JSON key "pattern", last). */
void bench_emit_pattern(const bench_ctx *ctx, const char *pattern,
                        const char *backend, const char *op, const char *sync,
                        const char *window, size_t bytes, double moved_bytes,
                        double *samples_us, long n);

/* A result measured by another program of this run (the MPI backends',
 * pp_mpi.h), on rank 0: stored, printed and written to --json as
 * bench_emit's are.  Its strings are copied; r->suite is ignored (this
 * run's suite). */
void bench_report_add(const bench_ctx *ctx, const bench_result *r);

/* Rank 0: every line of the JSON file at path (written as --json is) as
 * bench_report_add's results.  Returns the number of results, or -1 after
 * printing why the file could not be read or a line was not such a
 * result (report_load.c). */
long bench_report_load(const bench_ctx *ctx, const char *path);

/* A result of this run, or NULL (always NULL off rank 0).  sync NULL
 * matches any synchronization mode (the first such result). */
const bench_result *bench_report_find(const char *backend, const char *op,
                                      const char *sync, const char *window,
                                      size_t bytes);

/* As bench_report_find, for the rows of pattern. */
const bench_result *bench_report_find_pattern(const char *pattern,
                                              const char *backend,
                                              const char *op, const char *sync,
                                              const char *window, size_t bytes);

/* Result i of this run in the order reported, NULL past the last (always
 * NULL off rank 0). */
const bench_result *bench_report_at(size_t i);

/* A "# ..." line in the table (rank 0 only). */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A point begins: the progress line (progress.h) names what is being
 * measured; suites say beforehand how many points they will measure with
 * bench_progress_expect. */
void bench_progress(const char *what, size_t bytes);

#endif
