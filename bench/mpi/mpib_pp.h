/* mpib_pp.h -- one MPI pingpong series (one operation on one window): the
 * counterpart of pp.h with MPI calls, shared by mpib_rma.c (points,
 * repetitions, data), mpib_sync.c (the timed exchange and the epochs
 * around it) and mpib_win.c (the windows).  The definitions of a round
 * trip, the repetition policy and the accumulate family's data are
 * orma's own (pp_def.h, pp_acc.h, reps.h), so the rows measure the same
 * thing as the orma backend's.
 *
 * Notification in the passive modes is orma's too: a raw flag on its own
 * cache line of a shared window (MPI_Win_allocate_shared), raised with a
 * release store once unlock, unlock_all or flush returned.  One thing
 * differs: an MPI library may need the target to call it before a passive
 * access completes (an active-message implementation of lock, put or
 * accumulate on memory it cannot map), so a rank waiting for a flag calls
 * MPI_Iprobe between polls.  Both MPI backends run this same code, with
 * the same MPI_Iprobe of the host MPI (liborma-mpi leaves point-to-point
 * to it), so their rows differ only by what serves the one-sided calls. */
#ifndef BENCH_MPIB_PP_H
#define BENCH_MPIB_PP_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mpib.h"
#include "pp_acc.h"
#include "pp_def.h"

/* The window flavours, as windows.h's (every rank has size bytes,
 * displacement unit 1, memory touched once):
 *   allocate         MPI_Win_allocate
 *   create           MPI_Win_create on malloc'd memory
 *   create_allocmem  MPI_Win_create on memory from MPI_Alloc_mem
 *   dynamic          MPI_Win_create_dynamic + MPI_Win_attach of malloc'd
 *                    memory; displacements are the targets' addresses
 *   dynamic_allocmem the same with memory from MPI_Alloc_mem (the latency
 *                    suite's; not in mpib_window_kinds)
 *   shared           MPI_Win_allocate_shared */
extern const char *const mpib_window_kinds[]; /* NULL-terminated */

typedef struct mpib_window {
    const char *kind;
    const mpib_fns *f;   /* the MPI functions that made it and serve it */
    MPI_Win win;
    unsigned char *base; /* this rank's window memory */
    void *own;           /* memory the window was made on, freed after it */
    MPI_Aint disp[2];    /* disp[r]: displacement of rank r's first byte */
} mpib_window;

/* Collective (MPI_COMM_WORLD, 2 ranks), with f's functions (mpib_fns.h;
 * pingpong: mpib_fns_linked).  0, or -1 for an unknown kind. */
int mpib_window_open(const char *kind, size_t size, const mpib_fns *f,
                     mpib_window *w);
void mpib_window_close(mpib_window *w); /* collective, epochs closed */

/* The passive modes' flags: one cache line per rank of a shared window. */
typedef struct mpib_flags {
    MPI_Win win;
    _Atomic uint64_t *flag[2];
} mpib_flags;

void mpib_flags_open(mpib_flags *f);  /* collective; flags start at 0 */
void mpib_flags_close(mpib_flags *f); /* collective */

typedef struct mpib_pp {
    const mpib_ctx *ctx;
    const char *backend;  /* the rows' backend */
    mpib_window w;
    pp_op op;
    int me, peer;
    pp_sync sync;         /* mode of the current point */
    unsigned char *send;  /* rank 0's origin buffer (put, accumulates) */
    unsigned char *recv;  /* get: the origin buffer; gacc, fop, cas: the
                             result buffer */
    size_t n;             /* message size of the current point */
    uint64_t rep;         /* repetition number, across points */
    int ok;               /* nothing wrong yet in the current point */
    int fence_open;       /* a fence epoch is open on w */
    int lock_all_open;    /* the flush mode's lock_all epoch is open */
    MPI_Group peer_group; /* {peer}, for PSCW (MPI_GROUP_NULL without) */
    int have_flags;       /* flags is open (some passive mode selected) */
    mpib_flags flags;
    uint64_t turn;        /* last flag value raised, both ranks alike */
    pp_acc acc;           /* accumulate-family ops: the plan (pp_acc.h) */
} mpib_pp;

/* As pp.h's pp_sync_*: the epochs of a series and of a point, one timed
 * round trip (seconds), and the untimed settling between repetitions. */
void mpib_sync_series_open(mpib_pp *s, const char *syncs);
void mpib_sync_series_close(mpib_pp *s);
void mpib_sync_point_begin(mpib_pp *s);
void mpib_sync_point_end(mpib_pp *s);
double mpib_sync_timed(mpib_pp *s);
void mpib_sync_settle(mpib_pp *s);

#endif
