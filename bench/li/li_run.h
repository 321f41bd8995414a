/* li_run.h -- what an li_lib takes from the run, in either program:
 * the suite, options, rank and size, and the rows through report.h
 * (bench_emit on the run's ctx, bench_note, bench_progress naming
 * l->backend).  Apart from li.c, which the algorithms' tests build with
 * backends of their own. */
#ifndef BENCH_LI_RUN_H
#define BENCH_LI_RUN_H

#include "bench.h"
#include "li.h"

/* Sets l's suite, opts, pid (ctx->rank), nprocs (ctx->size), impl, ctx,
 * emit, note and progress; the backend sets the rest. */
void li_run_init(li_lib *l, const bench_ctx *ctx, const char *suite,
                 void *impl);

#endif
