/* fit.h -- the window flavours made anew for every point, sized to its
 * message, in the pingpong and latency suites (and multiput, whose points
 * are latency's), for orma's calls (windows.h) and the MPI backends'
 * (mpi/mpib_win.h) alike:
 *
 *   create_fit  create on a malloc'd block of exactly the point's bytes:
 *               at 8 B a heap block inside one page, which orma cannot map
 *               into its peers (they reach it by system calls); at large
 *               sizes a block whose first and last pages are partial.  The
 *               other flavours have one window per series, of the largest
 *               size, so their 8-byte points run on a window orma maps.
 *   stack       create on an array of the calling thread's stack, in a
 *               frame that stays live while the point is measured (never
 *               mapped: orma adopts no page of the main stack,
 *               shm_adopt.h); points above BENCH_STACK_MAX are skipped
 *
 * Neither runs unless --window names it, so that a default run measures
 * what it always did.  Nothing here depends on orma or MPI: orma-bench and
 * the MPI backends' program decide alike. */
#ifndef BENCH_FIT_H
#define BENCH_FIT_H

#include <stddef.h>

#include "opts.h"

/* 1 for the flavours above. */
int bench_window_per_point(const char *kind);

/* 1 when --window (windows; NULL: not given) selects kind: the flavours
 * above only when it names them, the others also when it is not given. */
int bench_window_selected(const char *windows, const char *kind);

/* The largest point a stack window measures. */
#define BENCH_STACK_MAX ((size_t)1 << 20)

/* 1 when a stack window of a point of n bytes fits: n is at most
 * BENCH_STACK_MAX, and two windows of n bytes and their guard bytes (up
 * to 8 KB each: latency's; its paired MPI backends hold both windows at
 * once) take at most half of this thread's stack limit (getrlimit
 * RLIMIT_STACK), leaving the rest to the calls the point makes. */
int bench_stack_fits(size_t n);

/* 1 when kind can have a window for a point of n bytes: a stack window
 * must fit (above), the others always can. */
int bench_window_fits(const char *kind, size_t n);

/* Rank 0, when --window selects stack: a note naming the sizes of o that
 * stack windows skip, if any. */
void bench_stack_note(const bench_opts *o);

/* fn(mem, arg) in a frame holding bytes of this thread's stack at mem
 * (16-byte aligned, not initialised), live until fn has returned; returns
 * what fn returns. */
int bench_stack_run(size_t bytes, int (*fn)(void *mem, void *arg),
                    void *arg);

/* A window's life around fn(arg), for orma's windows and MPI's alike:
 * open(self, stack) opens it -- stack: size bytes of this thread's stack
 * for kind stack, held until close, NULL for the other kinds -- and
 * returns 0 (or -1: an unknown kind, nothing opened); then fn(arg), then
 * close(self).  Returns what fn returns, or -1 when open failed. */
typedef struct bench_window_life {
    int (*open)(void *self, void *stack);
    void (*close)(void *self);
    void *self;
} bench_window_life;

int bench_window_live(const char *kind, size_t size,
                      const bench_window_life *l, int (*fn)(void *arg),
                      void *arg);

#endif
