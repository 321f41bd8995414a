/* pp_mpi.h -- the MPI backends of pingpong and ghost, seen from
 * orma-bench (--backends):
 *
 *   orma       orma's own calls (pingpong.c), the default
 *   mpi-rma    the same round trips with plain MPI one-sided calls on the
 *              host MPI (the program orma-bench-mpi-<variant>, mpi/mpib.h)
 *   mpi-p2p    an MPI_Send/MPI_Recv ping-pong of the same sizes (ghost:
 *              the exchange with MPI_Isend/MPI_Irecv)
 *   orma-mpi   the mpi-rma program with liborma-mpi preloaded
 *
 * each MPI backend for every host MPI in pp_mpi_variants whose program,
 * library and mpirun are found; the rows' backend is "<name>/<variant>".
 * Rank 0 starts the MPI jobs one after the other (mpirun -n P, P the
 * ranks of this run, its own job: the orma ranks wait in a barrier
 * meanwhile), the program's first argument this run's suite, reads their
 * results back from a JSON file and reports them as this run's own
 * (report.h). */
#ifndef BENCH_PP_MPI_H
#define BENCH_PP_MPI_H

#include <stddef.h>

#include "bench.h"
#include "report.h"

/* How a variant's mpirun passes LD_PRELOAD to the ranks only. */
typedef enum pp_mpi_env { PP_ENV_X, PP_ENV_GENV } pp_mpi_env;

typedef struct pp_mpi_variant {
    const char *name;         /* mpirun.<name>, orma-bench-mpi-<name>,
                                 liborma-mpi-<name>.so */
    const char *tag;          /* short name for column heads */
    const char *const *flags; /* mpirun's flags before -n, NULL-terminated */
    pp_mpi_env env;
} pp_mpi_variant;

extern const pp_mpi_variant pp_mpi_variants[]; /* ends with name NULL */

/* The --backends names, NULL-terminated. */
extern const char *const pp_backend_names[];

/* 1 when --backends names backend (without --backends: orma alone). */
int pp_backend_on(const bench_opts *o, const char *backend);

/* 1 when --backends names an MPI backend. */
int pp_mpi_wanted(const bench_opts *o);

/* Collective: run the MPI backends of --backends for every variant found.
 * A variant that is not found is skipped with a note.  Returns BENCH_OK,
 * or BENCH_FAIL when an MPI job failed (its data did not verify, it
 * crashed): the same on every rank. */
int pp_mpi_run(const bench_ctx *ctx);

/* Rank 0: one MPI job -- mpirun.<variant> [flags] -n nranks [LD_PRELOAD of
 * lib when not NULL] prog args... -- with this environment less orma-run's
 * ORMA_BOOT_* (the job is not an orma-run job), stdout discarded (its
 * results come back through --json), stderr passed on.  Waits for it.
 * Returns its exit status (128 + signal when killed), or -1 after
 * printing why it could not start. */
int pp_mpi_launch(const pp_mpi_variant *v, const char *mpirun, int nranks,
                  const char *lib, const char *prog,
                  const char *const *args);

/* Rank 0: the result of "<backend>/<variant>" (variant NULL: backend as
 * it is) of this run, as bench_report_find. */
const bench_result *pp_mpi_find(const char *backend, const char *variant,
                                const char *op, const char *sync,
                                const char *window, size_t bytes);

/* Rank 0: 1 when this run has a result of some backend on variant v. */
int pp_mpi_seen(const pp_mpi_variant *v);

/* Results: the side-by-side tables per (op, window, sync) of every
 * backend of this run, medians (pp_compare.c), and the MPI backends'
 * summary and bars (pp_mpi_summary.c); rank 0 prints. */
void pp_compare_tables(const bench_ctx *ctx);
void pp_mpi_summary(const bench_ctx *ctx);

#endif
