/* mpib_fns.h -- the MPI functions the latency and multiput suites call on
 * windows, as a table of pointers, so that one process can measure two
 * backends: the host MPI's one-sided calls (mpi-rma) and liborma-mpi's
 * (orma-mpi) side by side, their batches interleaved in time (lat_point.h),
 * both seeing the same state of the machine.
 *
 * Two tables:
 *   mpib_fns_linked  the plain MPI_ symbols as this program is linked:
 *                    liborma-mpi's when it is preloaded, else the host's;
 *   mpib_fns_host()  the host MPI's own functions even when liborma-mpi is
 *                    preloaded: its PMPI_ functions, looked up with dlsym
 *                    in the shared object that defines MPI_Send (which
 *                    liborma-mpi leaves to the host) -- a lookup on that
 *                    object's handle searches it and its dependencies,
 *                    not the preloaded library.  Without preload both
 *                    tables hold the host's functions.
 * mpib_win.c and mpib_lat.c call through the table of their window, so
 * the same code drives either backend, and both pay the same indirect
 * call.  Members are named as the MPI functions less "MPI_": f->Put,
 * f->Win_fence. */
#ifndef BENCH_MPIB_FNS_H
#define BENCH_MPIB_FNS_H

#include <mpi.h>

/* Every function of the table, X(name) for MPI_<name>: the one-sided
 * calls of the loops and epochs (mpib_lat.c) and those that make, tune
 * and free the windows and their memory (mpib_win.c) -- all of which
 * liborma-mpi defines -- and the barrier between batches, which
 * liborma-mpi wraps (it waits by testing and empties offered boxes
 * meanwhile): mpi-rma's target waits in the host's own. */
#define MPIB_FNS(X)                                                           \
    X(Put)                                                                    \
    X(Get)                                                                    \
    X(Accumulate)                                                             \
    X(Win_fence)                                                              \
    X(Win_start)                                                              \
    X(Win_complete)                                                           \
    X(Win_post)                                                               \
    X(Win_wait)                                                               \
    X(Win_lock)                                                               \
    X(Win_unlock)                                                             \
    X(Win_lock_all)                                                           \
    X(Win_unlock_all)                                                         \
    X(Win_flush)                                                              \
    X(Win_flush_local)                                                        \
    X(Win_sync)                                                               \
    X(Win_allocate)                                                           \
    X(Win_allocate_shared)                                                    \
    X(Win_create)                                                             \
    X(Win_create_dynamic)                                                     \
    X(Win_attach)                                                             \
    X(Win_detach)                                                             \
    X(Win_free)                                                               \
    X(Win_set_errhandler)                                                     \
    X(Win_get_group)                                                          \
    X(Alloc_mem)                                                              \
    X(Free_mem)                                                               \
    X(Barrier)

typedef struct mpib_fns {
    const char *what; /* "as linked" or "host", for messages */
/* Each member has the type of the host's mpi.h prototype. */
#define MPIB_FN_MEMBER(name) __typeof__(MPI_##name) *name;
    MPIB_FNS(MPIB_FN_MEMBER)
#undef MPIB_FN_MEMBER
} mpib_fns;

extern const mpib_fns mpib_fns_linked;

/* The host's table, resolved on the first call and checked: every
 * function must lie in the host's library (the one of MPI_Send) and in no
 * file whose name contains "liborma-mpi".  NULL after printing which
 * function is wrong, or why the library was not found (rank: for the
 * message); *lib_p: the host library's file name, for notes. */
const mpib_fns *mpib_fns_host(int rank, const char **lib_p);

/* 1 when every function of f is served by liborma-mpi; else 0 after
 * printing the first that is not (rank: for the message). */
int mpib_fns_in_orma(const mpib_fns *f, int rank);

#endif
