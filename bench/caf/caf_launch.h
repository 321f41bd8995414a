/* caf_launch.h -- the caf suite's backends (caf_suite.c): which programs
 * run its measurements, found beside orma-bench and on PATH, and how one
 * of them is started and read. */
#ifndef BENCH_CAF_LAUNCH_H
#define BENCH_CAF_LAUNCH_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "bench.h"

/* What a backend runs: the coarray program (caf_bench.f90), its MPI
 * counterpart (caf_mpi.h), or orma's own calls in this process
 * (caf_native.h).  Bits, so that a measurement can name several. */
enum { CAF_KIND_CAF = 1, CAF_KIND_MPI = 2, CAF_KIND_ORMA = 4 };

#define CAF_MAX_BACKENDS 10

typedef struct caf_backend {
    char name[40];
    int kind;
    const char *argv[16]; /* the launcher part, up to the program */
    int argc;
    char prog[PATH_MAX], launcher[PATH_MAX], lib[PATH_MAX], np[16], preload[PATH_MAX + 16];
} caf_backend;

/* The backends' families, which --backends names (NULL-terminated). */
extern const char *const caf_backend_families[];

/* Fills b (CAF_MAX_BACKENDS) with the backends found that --backends
 * names (all without it), orma-caf first when built; notes the ones
 * skipped.  Their number. */
int caf_backends(const bench_ctx *ctx, caf_backend *b);

/* prog (<dir>/<prog>-<v>) under mpirun.<v> -n ctx->size, with
 * liborma-mpi preloaded when pre: 0, or -1 when something is missing.
 * (The dynamic suite's MPI program is started so too.) */
struct pp_mpi_variant;
int caf_backend_mpi(const bench_ctx *ctx, const char *dir, const struct pp_mpi_variant *v, const char *prog, int pre,
                    caf_backend *o);

/* Runs argv (launcher + program + args, NULL-terminated) with stdout into
 * out (NUL-terminated, what does not fit dropped), for at most limit
 * seconds: then its process group is killed.  Its exit status, 128 + a
 * signal, CAF_TIMED_OUT, or -1 when it could not be started. */
#define CAF_TIMED_OUT 1000
int caf_launch(const char *const *argv, char *out, size_t outlen, double limit);

/* Starts argv as caf_launch does, stdout into the descriptor out, and
 * returns at once: its pid (its process group's too), or -1.  caf_stop
 * ends the job: SIGTERM to the group, SIGKILL 3 s later, and reaps it. */
pid_t caf_start(const char *const *argv, int out);
void caf_stop(pid_t pid);

/* snprintf that says whether everything fit: 0, or -1. */
int caf_fmt(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Appends to the string in out (what does not fit is dropped). */
void caf_cat(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
