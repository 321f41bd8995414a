/* mpib_win.h -- the MPI windows of the pingpong and latency series
 * (mpib_rma.c, mpib_lat.c), and the pingpong passive modes' flags
 * (mpib_win.c). */
#ifndef BENCH_MPIB_WIN_H
#define BENCH_MPIB_WIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "mpib.h"

/* The window flavours, as windows.h's (every rank has size bytes,
 * displacement unit 1, memory touched once):
 *   allocate         MPI_Win_allocate
 *   create           MPI_Win_create on malloc'd memory
 *   create_fit       the same, opened per point with exactly its bytes
 *                    (fit.h)
 *   create_allocmem  MPI_Win_create on memory from MPI_Alloc_mem
 *   dynamic          MPI_Win_create_dynamic + MPI_Win_attach of malloc'd
 *                    memory; displacements are the targets' addresses
 *   dynamic_allocmem the same with memory from MPI_Alloc_mem (the latency
 *                    suite's, not pingpong's)
 *   shared           MPI_Win_allocate_shared
 *   stack            MPI_Win_create on an array of the calling thread's
 *                    stack, opened per point (fit.h)
 * pingpong's names are pp_window_kinds (pp_def.h), latency's
 * lat_window_kinds (lat_def.h). */

typedef struct mpib_window {
    const char *kind;
    const mpib_fns *f;   /* the MPI functions that made it and serve it */
    MPI_Win win;
    unsigned char *base; /* this rank's window memory */
    void *own;           /* memory the window was made on, freed after it */
    MPI_Aint disp[2];    /* disp[r]: displacement of rank r's first byte */
} mpib_window;

/* Collective (MPI_COMM_WORLD, 2 ranks), with f's functions (mpib_fns.h;
 * pingpong: mpib_fns_linked): fn(arg) with *w a window of kind, opened
 * before (stack: inside the frame that holds its memory, fit.h) and
 * closed after.  Returns what fn returns, or -1 for an unknown kind (fn
 * not called). */
int mpib_window_run(const char *kind, size_t size, const mpib_fns *f,
                    mpib_window *w, int (*fn)(void *arg), void *arg);

/* The passive modes' flags: one cache line per rank of a shared window. */
typedef struct mpib_flags {
    MPI_Win win;
    _Atomic uint64_t *flag[2];
} mpib_flags;

void mpib_flags_open(mpib_flags *f);  /* collective; flags start at 0 */
void mpib_flags_close(mpib_flags *f); /* collective */

#endif
