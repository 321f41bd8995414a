/* li_bsp.h -- the BSPlib backends of li.h, in orma-bench: the li.h suites
 * (as, mult, rdx) written with BSPlib calls alone (orma/bsp.h, liborma-bsp),
 * seed 003's LISYNC mapped to bsp_sync as the seed itself mapped it:
 *
 *   begin        bsp_begin(orma_size()): every rank takes part (orma-bench
 *                called orma_init first, so bsp_end returns on every
 *                process and leaves orma initialized)
 *   area_open    an aligned malloc, zeroed, bsp_push_reg, bsp_sync
 *   area_close   bsp_pop_reg, bsp_sync, free
 *   put, get     bsp_hpput, bsp_hpget (backend "bsp": li.h's contract --
 *                src stable and the target's bytes untouched until the
 *                sync -- is theirs), or bsp_put, bsp_get (backend
 *                "bsp-buffered": the bytes copied during the call, moved
 *                at the sync)
 *   sync         bsp_sync; barrier, too, is bsp_sync
 *   now          bsp_time
 *   max, bcast, all_ok  a superstep of buffered puts each (bsp_coll.h)
 *
 * Rows, notes and the progress line go through report.h.  A bad call
 * ends every process (the library's error handling, or bsp_abort here). */
#ifndef BENCH_LI_BSP_H
#define BENCH_LI_BSP_H

#include "bench.h"
#include "bsp_coll.h"
#include "li.h"

typedef struct li_bsp {
    li_lib lib;            /* first: the functions get &lib */
    const bench_ctx *ctx;  /* the run; must outlive lib */
    bench_bsp_coll coll;
} li_bsp;

/* Collective over every rank of ctx: bsp_begin, then the agreement's
 * registration; fills b->lib for suite s's rows (backend "bsp"). */
void li_bsp_begin(li_bsp *b, const bench_ctx *ctx, const char *suite);

/* Which backend b->lib is from now on: "bsp" (buffered 0) or
 * "bsp-buffered" (1).  Between supersteps' areas: no area open. */
void li_bsp_select(li_bsp *b, int buffered);

/* Collective: the registration popped, then bsp_end. */
void li_bsp_end(li_bsp *b);

#endif
