/* windows.h -- one window of each flavour the suites measure, by name:
 *
 *   allocate         orma_win_allocate
 *   create           orma_win_create on malloc'd (private) memory
 *   create_fit       the same, opened per point with exactly its bytes
 *                    (fit.h; not in bench_window_kinds)
 *   create_private   orma_win_create on memory orma never makes shared
 *                    (a MAP_SHARED anonymous mapping of this process
 *                    alone): peers reach it by single-copy system calls
 *                    at every size (the ddt suite's; not in
 *                    bench_window_kinds)
 *   create_allocmem  orma_win_create on memory from orma_alloc_mem
 *   dynamic          orma_win_create_dynamic + orma_win_attach of malloc'd
 *                    memory; displacements are the targets' addresses
 *   dynamic_allocmem the same with memory from orma_alloc_mem (the latency
 *                    suite's; not in bench_window_kinds)
 *   shared           orma_win_allocate_shared
 *   stack            orma_win_create on an array of the calling thread's
 *                    stack, opened per point by bench_window_run alone
 *                    (fit.h; not in bench_window_kinds)
 *
 * Every window has size bytes at every rank, displacement unit 1, and its
 * memory is touched once so page faults stay out of the timings. */
#ifndef BENCH_WINDOWS_H
#define BENCH_WINDOWS_H

#include <stddef.h>

#include <orma.h>

#include "bench.h"

/* The five flavours most suites take, NULL-terminated (pingpong's
 * defaults, pp_window_kinds); bench_window_open opens dynamic_allocmem,
 * create_private and create_fit as well. */
extern const char *const bench_window_kinds[];

typedef struct bench_window {
    const char *kind;
    orma_win win;
    unsigned char *base; /* this rank's window memory */
    size_t size;
    void *own;           /* memory the window was made on, freed after it */
    orma_aint *disp;     /* disp[r]: displacement of rank r's first byte */
} bench_window;

/* Collective.  Returns 0, or -1 for an unknown kind or stack (nothing
 * created). */
int bench_window_open(bench_ctl *ctl, const char *kind, size_t size,
                      bench_window *w);

/* bench_window_open with info at the window's creation (the race suite's
 * orma_check_race); ORMA_INFO_NULL: bench_window_open. */
int bench_window_open_info(bench_ctl *ctl, const char *kind, size_t size,
                           orma_info info, bench_window *w);

/* Collective: fn(arg) with *w opened before (any kind, stack too: then
 * inside the frame that holds its memory) and closed after.  Returns what
 * fn returns, or -1 for an unknown kind (fn not called). */
int bench_window_run(bench_ctl *ctl, const char *kind, size_t size,
                     bench_window *w, int (*fn)(void *arg), void *arg);

/* Collective; call after the last epoch was closed. */
void bench_window_close(bench_window *w);

#endif
