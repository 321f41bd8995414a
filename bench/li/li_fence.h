/* li_fence.h -- li.h's areas as windows synchronized by fences, written
 * once for the backends that have windows: orma (li_orma.c) and the MPI
 * program's one-sided backend (mpi/mpib_li.c).  An area is a window of
 * bytes bytes at every rank (displacement unit 1), zeroed, opened with a
 * fence asserting NOPRECEDE, synchronized with fence(0) and closed with a
 * fence asserting NOSUCCEED before it is freed.
 *
 * As pp_loop.h, a header of static functions rather than more entries in
 * li_lib: the includer defines, before the #include, the window type and
 * the calls (static inline; a failure ends the job), and the compiler
 * makes direct calls:
 *   li_b_win                      the library's window handle
 *   void *li_b_allocate(bytes, w) a window of bytes bytes at every rank;
 *                                 its base at this rank
 *   li_b_fence(w, mode)           a fence with the library's assert mode
 *   li_b_free(w)                  frees *w
 *   LI_B_NOPRECEDE, LI_B_NOSUCCEED
 *                                 the library's two assert modes
 * It then calls li_fence_areas on its li_lib; put and get stay its own,
 * on li_fence_win(area). */
#ifndef BENCH_LI_FENCE_H
#define BENCH_LI_FENCE_H

#include <stdlib.h>
#include <string.h>

#include "li.h"

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
    li_b_fence(*w, LI_B_NOPRECEDE);
    a->base = base;
    a->bytes = bytes;
    a->impl = w;
}

static void li_fence_close(li_lib *l, li_area *a)
{
    (void)l;
    li_b_win *w = a->impl;
    li_b_fence(*w, LI_B_NOSUCCEED);
    li_b_free(w);
    free(w);
    memset(a, 0, sizeof *a);
}

static void li_fence_sync(li_lib *l, li_area *a)
{
    (void)l;
    li_b_fence(li_fence_win(a), 0);
}

/* l's area_open, area_close and sync. */
static void li_fence_areas(li_lib *l)
{
    l->area_open = li_fence_open;
    l->area_close = li_fence_close;
    l->sync = li_fence_sync;
}

#endif
