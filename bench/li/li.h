/* li.h -- seed 003's library-independent RMA framework: the handful of
 * calls its As, Mult and Rdx programs are written with (its LIPUT, LIGET,
 * LISYNC, a barrier and, for the two-sided versions, send and receive),
 * so that each algorithm is written once and runs on every backend:
 *
 *   orma       orma's calls (li_orma.c, in orma-bench)
 *   mpi-rma    the host MPI's one-sided calls (mpi/mpib_li.c, in
 *              orma-bench-mpi-<variant>)
 *   orma-mpi   the same program with liborma-mpi preloaded
 *   mpi-p2p    the host MPI's two-sided calls (mpi/mpib_li.c): the same
 *              algorithms' send versions
 *   bsp        BSPlib on orma, liborma-bsp (li_bsp.c, in orma-bench):
 *              bsp_hpput, bsp_hpget, bsp_sync
 *   bsp-buffered  the same with bsp_put and bsp_get
 *
 * No orma or MPI here: a backend is a table of functions (li_lib), and the
 * algorithms (as_alg.c, mult_alg.c, rdx_alg.c) call nothing else, so they
 * compile unchanged into both programs.
 *
 * One-sided model (every backend but mpi-p2p): an area is a registered
 * block of every rank's memory, the same size everywhere, zeroed when
 * opened.  Between two syncs of an area (a superstep) a rank may put into
 * and get from any rank's area; what it puts is read from src during the
 * call or later, but before the sync returns (src must not change before
 * then); what it gets lands in dst by the time the sync returns.  sync is
 * collective, ends the superstep (every put and get on that area, by every
 * rank, is complete and visible in the target's memory, and the rank's own
 * stores into its area are visible to the others) and begins the next.
 * Opening an area begins its first superstep; closing ends the last.
 * Puts of one superstep to overlapping bytes, or a put and a get of the
 * same bytes, are the algorithm's error (MPI's conflicting accesses).
 *
 * Two-sided model (mpi-p2p, two_sided = 1; no areas): irecv posts a
 * receive of exactly n bytes from pid (matched in posting order per
 * sender), send sends n bytes and returns when src may be reused, waitall
 * completes every posted receive.  An algorithm posts its receives, then
 * sends, then waits: that order never deadlocks.
 *
 * Failures: a call that fails reports it and ends the job (the backends'
 * BENCH_CHECK / MPIB_CHECK), so the functions return nothing.  A wrong
 * result is not a failure of a call: the algorithms check their data and
 * return BENCH_FAIL. */
#ifndef BENCH_LI_H
#define BENCH_LI_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "opts.h"

typedef struct li_lib li_lib;

typedef struct li_area {
    unsigned char *base; /* this rank's bytes of the area */
    size_t bytes;        /* on every rank */
    void *impl;          /* the backend's (its window) */
} li_area;

struct li_lib {
    const char *backend;   /* the rows' backend: "orma", "mpi-rma/openmpi" */
    const char *suite;     /* the rows' suite */
    const bench_opts *opts;
    int pid, nprocs;
    int two_sided;         /* 1: irecv, send, waitall only; 0: areas */
    void *impl;
    const bench_ctx *ctx;  /* the run, for li_run.h's rows */

    /* one-sided (NULL when two_sided) */
    void (*area_open)(li_lib *l, size_t bytes, li_area *a); /* collective */
    void (*area_close)(li_lib *l, li_area *a);              /* collective */
    void (*put)(li_lib *l, li_area *a, int pid, size_t off, const void *src,
                size_t n);
    void (*get)(li_lib *l, li_area *a, int pid, size_t off, void *dst,
                size_t n);
    void (*sync)(li_lib *l, li_area *a);                    /* collective */

    /* two-sided (NULL unless two_sided) */
    void (*irecv)(li_lib *l, int pid, void *dst, size_t n);
    void (*send)(li_lib *l, int pid, const void *src, size_t n);
    void (*waitall)(li_lib *l);

    /* every backend */
    void (*barrier)(li_lib *l);               /* collective */
    double (*now)(void);                      /* seconds, CLOCK_MONOTONIC */
    double (*max)(li_lib *l, double v);       /* collective: all ranks' max */
    long (*bcast)(li_lib *l, long v);         /* collective: rank 0's v */
    int (*all_ok)(li_lib *l, int ok);         /* collective: 1 when all ok */
    /* Rank 0 (no-ops elsewhere): a result row of this suite and backend
     * (samples in microseconds, reordered), a "# " note, the progress
     * line (report.h's bench_emit, bench_note, bench_progress). */
    void (*emit)(li_lib *l, const char *op, const char *sync,
                 const char *window, size_t bytes, double moved_bytes,
                 double *samples_us, long n);
    void (*note)(li_lib *l, const char *msg);
    void (*progress)(li_lib *l, const char *what, size_t bytes);
};

/* The repetitions of one point, whatever the backend (li.c): fn(arg) is
 * one collective sample (it starts after a barrier; it returns this rank's
 * elapsed seconds of the part it times, and the sample is the largest of
 * all ranks').  One sample to warm up, then --reps samples, or as many as
 * fill about 0.2 s (0.05 with --quick), at least 5 and at most 1000.
 * Returns the number of samples, written to us[] (microseconds, room for
 * LI_MAX_SAMPLES), the same on every rank; fn's return value of -1 on any
 * rank (its data did not verify) stops the point and returns -1 on every
 * rank. */
#define LI_MAX_SAMPLES 1000
long li_measure(li_lib *l, double (*fn)(void *arg), void *arg, double *us);

/* malloc for the algorithms (li.c): n == 0 allocates 1 byte; out of
 * memory, the rank says so and exits with BENCH_FAIL, which ends the job
 * (the others could no longer make the same calls). */
void *li_xmalloc(size_t n);

/* One such sample (li.c), for a suite's own calibration: a barrier, fn(arg)
 * on every rank, the largest of all ranks' return values, in seconds;
 * -1 on every rank when fn returned -1 on any. */
double li_sample(li_lib *l, double (*fn)(void *arg), void *arg);

/* A suite written with li.h: its name (the rows' suite), the --op and
 * --sync names it knows (NULL-terminated), and its run over one backend:
 * every point of the options, each verified and emitted.  Collective; a
 * BENCH_* status, the same on every rank.
 *
 * sizes, when not NULL, sets the suite's default --sizes for nprocs ranks
 * (called only when --sizes was not given, by both programs' drivers
 * before anything runs: orma-bench passes the result to the MPI jobs as
 * --sizes, so every backend measures the same sizes).  NULL: opts.h's
 * defaults. */
typedef struct li_suite {
    const char *name;
    const char *const *ops;
    const char *const *syncs;
    int (*run)(li_lib *l);
    void (*sizes)(bench_opts *o, int nprocs);
} li_suite;

#endif
