/* li_fence.h -- li.h's areas as windows synchronized by fences, and put
 * and get on them, written once for the backends that have windows: orma
 * (li_orma.c) and the MPI program's one-sided backend (mpi/mpib_li.c).
 * An area is a window of bytes bytes at every rank (displacement unit 1),
 * zeroed, opened with a fence asserting NOPRECEDE, synchronized with
 * fence(0) and closed with a fence asserting NOSUCCEED before it is freed;
 * put and get move bytes (the library's byte type) at a displacement of
 * off.
 *
 * As pp_loop.h, a header of static functions rather than more entries in
 * li_lib: the calls are orma's or MPI's as rma_api.h spells them (the
 * includer includes orma.h and check.h, or mpib.h and defines
 * BENCH_RMA_MPI), and the compiler makes direct calls.  The one call that
 * differs the includer defines, after the #include (static; a failure
 * ends the job):
 *   void *li_b_allocate(bytes, w) a window of bytes bytes at every rank
 *                                 in *w; its base at this rank
 * It then calls li_fence_areas on its li_lib. */
#ifndef BENCH_LI_FENCE_H
#define BENCH_LI_FENCE_H

#include <stdlib.h>
#include <string.h>

#include "li.h"
#include "rma_api.h"

typedef RMA_API(orma_win, MPI_Win) li_b_win;

static void *li_b_allocate(size_t bytes, li_b_win *w);

static void li_fence_mode(li_b_win w, int mode)
{
    RMA_CHECK(RMA_API(orma_win_fence, MPI_Win_fence)(mode, w));
}

static li_b_win li_fence_win(const li_area *a)
{
    return *(const li_b_win *)a->impl;
}

static void li_fence_open(li_lib *l, size_t bytes, li_area *a)
{
    (void)l;
    li_b_win *w = li_xmalloc(sizeof *w);
    void *base = li_b_allocate(bytes, w);
    /* Zeroed before this rank's epoch opens: the local stores are visible
     * to the epoch the fence opens, and a put of another rank that arrives
     * earlier waits for the opening (orma.h), so it lands on the zeros,
     * not under them.  The stores also take the page faults. */
    memset(base, 0, bytes);
    li_fence_mode(*w, RMA_API(ORMA_MODE_NOPRECEDE, MPI_MODE_NOPRECEDE));
    a->base = base;
    a->bytes = bytes;
    a->impl = w;
}

static void li_fence_close(li_lib *l, li_area *a)
{
    (void)l;
    li_b_win *w = a->impl;
    li_fence_mode(*w, RMA_API(ORMA_MODE_NOSUCCEED, MPI_MODE_NOSUCCEED));
    RMA_CHECK(RMA_API(orma_win_free, MPI_Win_free)(w));
    free(w);
    memset(a, 0, sizeof *a);
}

static void li_fence_sync(li_lib *l, li_area *a)
{
    (void)l;
    li_fence_mode(li_fence_win(a), 0);
}

static void li_fence_put(li_lib *l, li_area *a, int pid, size_t off,
                         const void *src, size_t n)
{
    (void)l;
    rma_count c = RMA_COUNT(n);
    RMA_CHECK(RMA_API(orma_put, MPI_Put)(src, c, RMA_BYTE, pid, (rma_aint)off,
                                         c, RMA_BYTE, li_fence_win(a)));
}

static void li_fence_get(li_lib *l, li_area *a, int pid, size_t off,
                         void *dst, size_t n)
{
    (void)l;
    rma_count c = RMA_COUNT(n);
    RMA_CHECK(RMA_API(orma_get, MPI_Get)(dst, c, RMA_BYTE, pid, (rma_aint)off,
                                         c, RMA_BYTE, li_fence_win(a)));
}

/* l's area_open, area_close, sync, put and get. */
static void li_fence_areas(li_lib *l)
{
    l->area_open = li_fence_open;
    l->area_close = li_fence_close;
    l->sync = li_fence_sync;
    l->put = li_fence_put;
    l->get = li_fence_get;
}

#endif
