/* mpib.h -- orma-bench-mpi-<variant>, the program of orma-bench's MPI
 * backends: the pingpong suite's round trips, the latency suite's loops
 * (the multiput suite's too) and the ghost suite's exchange written with
 * plain MPI.  Built once per host MPI (Open MPI, MPICH) against its mpi.h,
 * linked with that MPI alone -- never with orma: preloading liborma-mpi
 * is what turns the mpi-rma backend into orma-mpi, so the binary must not
 * carry orma itself.
 *
 *   mpirun -n 2 orma-bench-mpi-<variant> [SUITE] --backends LIST [options]
 *   mpirun -n P orma-bench-mpi-<variant> ghost --backends LIST [options]
 *   mpirun -n P orma-bench-mpi-<variant> as --backends LIST [options]
 *
 * SUITE: pingpong (the default), latency, multiput or ghost (P ranks; its
 * steps, both kinds, are in mpib_ghost.c), or a suite written with li.h (P
 * ranks; as: li.h's backends in mpib_li.c, the algorithms shared with
 * orma-bench), or notify (orma-bench notify's job, taking turns with it:
 * arguments of its own, mpib_notify.c).  Backends (--backends, default mpi-rma):
 *   mpi-rma   pingpong: put, get, acc, gacc, fop, cas on MPI windows
 *             (mpib_rma.c), each window flavour and sync mode of the orma
 *             suite; latency: put, get, acc in OSU's loops (mpib_lat.c);
 *             multiput: the same loops with a put made of k puts; the
 *             host MPI must serve them (the program checks that orma is
 *             not loaded)
 *   orma-mpi  the same calls, with liborma-mpi preloaded (checked)
 * latency and multiput measure mpi-rma and orma-mpi in one job when both
 * are named (liborma-mpi preloaded): the host's functions are called
 * through a table of its own (mpib_fns.h), and the two backends' batches
 * alternate within every point (lat_rma.h), so that both see the machine
 * alike.
 *   mpi-p2p   an MPI_Send/MPI_Recv ping-pong of the same sizes (mpib_p2p.c;
 *             latency, multiput: half its round trip)
 * Rows are reported as "<backend>/<variant>" (e.g. mpi-rma/openmpi) in the
 * same table and JSON keys as orma-bench's (report.h); orma-bench reads the
 * JSON back.  Exit status as orma-bench's: 0, 1 (data did not verify, a
 * call failed), 2 (usage). */
#ifndef BENCH_MPIB_H
#define BENCH_MPIB_H

#include <stddef.h>

#include <mpi.h>

#include "ghost_def.h"
#include "li.h"
#include "mpib_fns.h"
#include "opts.h"
#include "report.h"

#ifndef MPIB_VARIANT
#error "build with -DMPIB_VARIANT=\"<the host MPI's name>\""
#endif

typedef struct mpib_ctx {
    const char *suite;       /* "pingpong", "latency", "multiput", "ghost"
                                or an li.h suite's name: the rows' suite */
    const bench_opts *opts;
    int rank;
    const char *rma_backend; /* "mpi-rma/<variant>", "orma-mpi/..." or NULL */
    const char *p2p_backend; /* "mpi-p2p/<variant>" or NULL */
    int size;                /* ranks in the job: the rows' p */
    /* latency, multiput: the functions rma_backend calls (mpib_fns.h:
     * mpi-rma the host's, orma-mpi the linked ones), and the backend
     * measured paired with it in this job, or NULL: orma-mpi/<variant>
     * beside mpi-rma, liborma-mpi preloaded (mpib_lat.c). */
    const mpib_fns *rma_fns;
    const char *pair_backend;
    const mpib_fns *pair_fns;
} mpib_ctx;

/* A failed MPI call: print it (with MPI's error string) and abort the job;
 * the ranks could no longer make the same calls. */
_Noreturn void mpib_fail(int rc, const char *call, const char *file,
                         int line);

#define MPIB_CHECK(call)                                                      \
    do {                                                                      \
        int mpib_rc_ = (call);                                                \
        if (mpib_rc_ != MPI_SUCCESS)                                          \
            mpib_fail(mpib_rc_, #call, __FILE__, __LINE__);                   \
    } while (0)

/* malloc that aborts the job on failure; n == 0 allocates 1 byte. */
void *mpib_xmalloc(size_t n);

/* Seconds of CLOCK_MONOTONIC, the clock of orma_wtime: both backends and
 * orma are timed alike, whatever MPI_Wtime does. */
double mpib_now(void);

/* An MPI count for n bytes or elements: sizes are at most
 * BENCH_SIZE_LIMIT (opts.h), far below INT_MAX. */
int mpib_count(size_t n);

/* 1 when MPI_Put is served by liborma-mpi (the preloaded jobs), by the
 * name of its shared object (dladdr), *lib_p that name (mpib_main.c). */
int mpib_served_by_orma(const char **lib_p);

/* Rank 0's value of v on both ranks. */
long mpib_bcast_long(long v);

/* 1 on both ranks when ok is non-zero on both. */
int mpib_all_ok(int ok);

/* Results (mpib_report.c): report.h's, rank 0 only -- an aligned table on
 * stdout, a JSON object per line appended to --json, "# " notes
 * (bench_note), and a progress line on stderr in a long run
 * (bench_progress).  mpib_emit is bench_emit for this job: its rows'
 * suite is ctx->suite.  Closed with bench_report_close. */
int mpib_report_open(const mpib_ctx *ctx); /* collective; 0 or -1 */
/* The job as report.h's calls see it, after mpib_report_open (the rows
 * of li.h's suites and of latency). */
const bench_ctx *mpib_report_job(void);
void mpib_emit(const char *backend, const char *op, const char *sync,
               const char *window, size_t bytes, double moved_bytes,
               double *samples_us, long n);

/* The suites (collective; a BENCH_* status, the same on every rank):
 * pingpong's one-sided and send/recv round trips, latency's one-sided
 * loops, multiput's (the same loops on multiput_def.h's series) and their
 * send/recv reference (2 ranks), ghost's exchange, both kinds (P
 * ranks). */
int mpib_rma_run(const mpib_ctx *ctx);
int mpib_p2p_run(const mpib_ctx *ctx);
int mpib_lat_run(const mpib_ctx *ctx);
int mpib_multiput_run(const mpib_ctx *ctx);
int mpib_p2p_latency_run(const mpib_ctx *ctx);
int mpib_ghost_run(const mpib_ctx *ctx);

/* ghost's exchange a batch at a time, for a suite whose backends take
 * turns (collective, every call; mpib_ghost.c): its buffers (and window,
 * with ctx->rma_backend) for sizes up to max, a point of n bytes of
 * version m begun, a batch of iters steps (ghost_batch_fn's: data,
 * barrier, timed steps, check; the slowest rank's seconds, arg the
 * mpib_ghost), and whether every batch since the point began verified on
 * every rank. */
typedef struct mpib_ghost mpib_ghost;
mpib_ghost *mpib_ghost_open(const mpib_ctx *ctx, size_t max);
void mpib_ghost_begin(mpib_ghost *s, size_t n, ghost_sync m);
double mpib_ghost_batch(void *arg, long iters, uint64_t batch);
int mpib_ghost_ok(mpib_ghost *s);
void mpib_ghost_close(mpib_ghost *s);

/* orma-bench notify's MPI job (mpib_notify.c): argv after the suite's
 * name, as nt_jobs.c passes it (the plan, the backends, the turns'
 * FIFOs).  A BENCH_* status. */
int mpib_notify_main(int argc, char **argv, int rank, int size);

/* The suites written with li.h (mpib_li.c, li_suites.h), any number of
 * ranks: by name (NULL when name is none), by index (NULL past the last),
 * and run: the suite on the one-sided backend ctx->rma_backend, then on
 * the two-sided one ctx->p2p_backend, those that are not NULL. */
const li_suite *mpib_li_find(const char *name);
const li_suite *mpib_li_at(int i);
int mpib_li_run(const mpib_ctx *ctx, const li_suite *s);

#endif
