/* li_orma.h -- the orma backend of li.h, in orma-bench: areas are
 * orma_win_allocate windows (displacement unit 1, zeroed), opened with
 * orma_win_fence(ORMA_MODE_NOPRECEDE), synchronized with
 * orma_win_fence(0) and closed with orma_win_fence(ORMA_MODE_NOSUCCEED)
 * before orma_win_free (li_fence.h); put and get are orma_put and
 * orma_get of ORMA_BYTE; the collectives go through the control window
 * (ctl.h), the rows and notes through report.h (li_run.h).  A failed
 * call ends the job (BENCH_CHECK). */
#ifndef BENCH_LI_ORMA_H
#define BENCH_LI_ORMA_H

#include "bench.h"
#include "li.h"

typedef struct li_orma {
    li_lib lib;            /* first: the functions get &lib */
    const bench_ctx *ctx;  /* the run; must outlive lib */
} li_orma;

/* Fills o->lib for suite s's rows of ctx's run (backend "orma"). */
void li_orma_init(li_orma *o, const bench_ctx *ctx, const char *suite);

#endif
