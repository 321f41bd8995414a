/* opts.h -- the options every suite shares, and their parsing.
 *
 *   --sizes LIST   comma list of message sizes, K/M/G suffixes (1K = 1024)
 *   --reps N       repetitions per data point (default: chosen per point)
 *   --json FILE    append one JSON object per result line to FILE
 *   --csv FILE     append one CSV row per result to FILE (a header first
 *                  when FILE is new)
 *   --quiet        no progress line on stderr
 *   --quick        fewer sizes and a shorter time per point
 *   --window LIST  only these windows (suite-defined names)
 *   --op LIST      only these operations (suite-defined names)
 *   --sync LIST    only these synchronization modes (suite-defined names)
 *   --backends LIST  what runs the suite (pingpong: orma, mpi-rma, mpi-p2p,
 *                  orma-mpi; the MPI program of the MPI backends: theirs)
 *   --net          MPI backends over the host MPI's TCP transport, orma-mpi
 *                  with ORMA_TRANSPORT=net (pp_mpi.c)
 *   --unpaired     latency, multiput: mpi-rma and orma-mpi in separate MPI
 *                  jobs, not paired in one (pp_mpi.h)
 *   --contend      busy loops on every core while the run measures
 *                  (contend.h); its results are labelled load=contend
 *   --threads LIST thread counts of the origin (mt: default 1,2,4)
 */
#ifndef BENCH_OPTS_H
#define BENCH_OPTS_H

#include <stddef.h>

/* Exit statuses of orma-bench, also returned by suite run functions. */
enum { BENCH_OK = 0, BENCH_FAIL = 1, BENCH_USAGE = 2 };

#define BENCH_MAX_SIZES 64
#define BENCH_SIZE_LIMIT ((size_t)1 << 30) /* a sanity bound, not a design one */

typedef struct bench_opts {
    size_t sizes[BENCH_MAX_SIZES];
    int nsizes;            /* never 0 after bench_opts_parse */
    int sizes_given;       /* --sizes was given (else the defaults) */
    long reps;             /* 0: chosen per data point (plan.h) */
    const char *json_path; /* NULL: no JSON output */
    const char *csv_path;  /* NULL: no CSV output */
    int quick;
    int quiet;             /* no progress line */
    const char *windows;   /* NULL: every window */
    const char *ops;       /* NULL: every operation */
    const char *syncs;     /* NULL: every synchronization mode */
    const char *backends;  /* NULL: the suite's default (orma) */
    int unpaired;          /* --unpaired */
    int net;               /* --net */
    int contend;           /* --contend */
    const char *threads;   /* --threads; NULL: the suite's default */
} bench_opts;

/* Parse argv[first..argc-1].  Returns 0, 1 when --help was given, or -1
 * with a message in err. */
int bench_opts_parse(int argc, char **argv, int first, bench_opts *o,
                     char *err, size_t errlen);

/* Largest of o->sizes. */
size_t bench_opts_max_size(const bench_opts *o);

/* 1 when name is an element of the comma list (a NULL list holds all). */
int bench_list_has(const char *list, const char *name);

/* Check that every element of list is one of known (NULL-terminated).
 * Returns 0, or -1 with the offending element in bad. */
int bench_list_check(const char *list, const char *const *known, char *bad,
                     size_t badlen);

/* A suite's --window, --op and --sync filters against the names it knows
 * (NULL-terminated lists).  Returns 0, or -1 after rank 0 has named the
 * first unknown element and the known ones on stderr. */
int bench_filters_check(const char *suite, int rank, const char *windows, const char *const *known_windows,
                        const char *ops, const char *const *known_ops, const char *syncs,
                        const char *const *known_syncs);

/* "8", "64K", "4M": sizes as the user writes them. */
void bench_format_size(size_t bytes, char *buf, size_t len);

#endif
