/* pp_mpi.h -- the MPI backends of the pingpong, latency, multiput and
 * ghost suites,
 * seen from orma-bench (--backends):
 *
 *   orma       orma's own calls (pingpong.c, latency.c, ...), the default
 *   mpi-rma    the same measurements with plain MPI one-sided calls on the
 *              host MPI (the program orma-bench-mpi-<variant>, mpi/mpib.h)
 *   mpi-p2p    an MPI_Send/MPI_Recv ping-pong of the same sizes (latency:
 *              half of its round trip, OSU's osu_latency; ghost: the
 *              exchange with MPI_Isend/MPI_Irecv)
 *   orma-mpi   the mpi-rma program with liborma-mpi preloaded
 *
 * each MPI backend for every host MPI in pp_mpi_variants whose program,
 * library and mpirun are found; the rows' backend is "<name>/<variant>".
 * Rank 0 starts the MPI jobs one after the other (mpirun -n P program
 * SUITE [options], P the ranks of this run, its own job: the orma ranks
 * wait in a barrier meanwhile), reads their results back from a JSON file
 * and reports them as this run's own (report.h). */
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
    const char *const *net_flags; /* --net: more of them, NULL-terminated */
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
 * ops (NULL-terminated; NULL: none) are the --op names the MPI program
 * takes for this suite: the jobs get those of --op, and none when --op
 * names none of them.  A variant that is not found is skipped with a
 * note.  Returns BENCH_OK, or BENCH_FAIL when an MPI job failed (its data
 * did not verify, it crashed): the same on every rank. */
int pp_mpi_run(const bench_ctx *ctx, const char *const *ops);

/* The same for the latency and multiput suites, with mpi-rma and
 * orma-mpi, when both are named, measured paired: one job per variant
 * with liborma-mpi preloaded and --backends mpi-rma,orma-mpi, in which
 * mpi-rma calls the host's own functions (mpi/mpib_fns.h) and the two
 * backends' batches alternate within every point (lat_rma.h), so that
 * both see the same state of the machine -- a virtual machine's speed
 * changes for seconds or minutes at a time, and separate jobs run
 * minutes apart; mpi-p2p alone in a host job before it.  --unpaired, or
 * without the variant's liborma-mpi, pp_mpi_run's separate jobs. */
int pp_mpi_run_paired(const bench_ctx *ctx, const char *const *ops);

/* The directory of this executable (bin/ of the build), without a slash
 * at the end; 0 or -1. */
int pp_exe_dir(char *buf, size_t len);

/* name looked up on PATH as execvp would, into path; 0 or -1. */
int pp_find_on_path(const char *name, char *path, size_t len);

/* This environment less orma-run's ORMA_BOOT_* (malloc'd array of the
 * environment's own strings), for a job that is not this orma-run job's:
 * with them, its orma would take it for a rank of this one. */
char **pp_child_env(void);

/* Rank 0: one MPI job -- mpirun.<variant> [flags] [net_flags when net] -n
 * nranks [LD_PRELOAD of lib when not NULL] prog args... -- with this
 * environment less orma-run's
 * ORMA_BOOT_* (the job is not an orma-run job), stdout discarded (its
 * results come back through --json), stderr passed on.  Waits for it.
 * Returns its exit status (128 + signal when killed), or -1 after
 * printing why it could not start. */
int pp_mpi_launch(const pp_mpi_variant *v, const char *mpirun, int nranks,
                  const char *lib, const char *prog,
                  const char *const *args, int net);

/* Rank 0: the result of "<backend>/<variant>" (variant NULL: backend as
 * it is) of this run, as bench_report_find. */
const bench_result *pp_mpi_find(const char *backend, const char *variant,
                                const char *op, const char *sync,
                                const char *window, size_t bytes);

/* Rank 0: 1 when this run has a result of some backend on variant v. */
int pp_mpi_seen(const pp_mpi_variant *v);

/* The names a suite's one-sided rows take, NULL-terminated lists: what
 * the tables and bars below walk. */
typedef struct pp_mpi_axes {
    const char *const *ops;
    const char *const *windows;
    const char *const *syncs;
} pp_mpi_axes;

/* Results: the side-by-side tables per (op, window, sync) of every
 * backend of this run, medians (pp_compare.c); rank 0 prints.  The
 * mpi-p2p column is the row of op "sendrecv", sync and window "none". */
void pp_compare_tables(const bench_ctx *ctx, const pp_mpi_axes *ax);

/* pingpong's summary of the MPI backends and its bars (pp_mpi_summary.c);
 * rank 0 prints. */
void pp_mpi_summary(const bench_ctx *ctx);

/* Pieces of that summary other suites print too (rank 0):
 *   table_8: per (window, sync) of ax, the 8-byte medians orma-mpi /
 *     mpi-rma on variant v and their ratio, one column per op of ax;
 *   bar_never_slower: every (op, sync, window, size) of this run where
 *     orma-mpi's median on v is above mpi-rma's, counted and listed;
 *   bar_five_x: at 8 B, on the ops, windows and syncs of ax, wherever
 *     mpi-rma takes more than 1 us, orma-mpi is at least 5x lower;
 *     listed when not.
 * A FAIL is printed; the exit status is not affected. */
void pp_mpi_table_8(const char *v, const pp_mpi_axes *ax);
void pp_mpi_bar_never_slower(const char *v);
void pp_mpi_bar_five_x(const char *v, const pp_mpi_axes *ax);

#endif
