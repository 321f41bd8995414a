/* multiput.c -- the multiput suite: its options and defaults, the order
 * of the backends, the summary.
 *
 * orma's series come first (one per selected window, its points in
 * multiput_series' order), then the MPI backends' jobs with the same
 * options (the defaults made explicit, so that both programs measure the
 * same points; mpi-rma and orma-mpi paired in one job per host MPI unless
 * --unpaired, pp_mpi.h), then the summary.  The ranks are pinned as the latency
 * suite's, whose loops these are. */
#include <stdio.h>

#include "bind.h"
#include "fit.h"
#include "lat_def.h"
#include "latency.h"
#include "multiput.h"
#include "multiput_def.h"
#include "pp_mpi.h"
#include "progress.h"
#include "report.h"

static const pp_mpi_axes axes = {multiput_op_names, lat_window_kinds,
                                 multiput_sync_names};

/* Points of one window's series; notes the ks that skip a size. */
static long points(const bench_opts *o, int note)
{
    long n = 0;
    int modes = 0;
    for (int m = 0; m < LAT_NSYNC; m++)
        modes += multiput_sync_on(o, m);
    for (int j = 0; multiput_op_names[j] != NULL; j++) {
        if (!bench_list_has(o->ops, multiput_op_names[j]))
            continue;
        for (int i = 0; i < o->nsizes; i++) {
            if (o->sizes[i] >= (size_t)multiput_pieces[j]) {
                n += modes;
                continue;
            }
            if (note)
                bench_note("%s skips %zu B: fewer bytes than puts",
                           multiput_op_names[j], o->sizes[i]);
        }
    }
    return n;
}

static int orma_backend(const bench_ctx *ctx)
{
    const bench_opts *o = ctx->opts;
    int windows = 0;
    for (int k = 0; lat_window_kinds[k] != NULL; k++)
        windows += bench_window_selected(o->windows, lat_window_kinds[k]);
    bench_progress_expect(windows * points(o, 0));
    int st = BENCH_OK;
    for (int k = 0; lat_window_kinds[k] != NULL && st == BENCH_OK; k++)
        if (bench_window_selected(o->windows, lat_window_kinds[k]))
            st = lat_orma_series(ctx, PP_PUT, lat_window_kinds[k],
                                 multiput_series);
    return st;
}

int bench_multiput_run(const bench_ctx *ctx_in)
{
    /* The suite's sizes and windows unless the options say otherwise;
     * the MPI backends get them from these options too. */
    bench_opts o = *ctx_in->opts;
    multiput_default_options(&o);
    bench_ctx c = *ctx_in;
    c.opts = &o;
    const bench_ctx *ctx = &c;
    if (lat_check_job(ctx, &axes) != 0)
        return BENCH_USAGE;
    bench_note("multiput: S bytes from rank 0's buffer to rank 1's window "
               "as k puts of S/k adjacent bytes in one epoch (op put<k>; "
               "the last put takes the rest); us per epoch on rank 0, fence "
               "and pscw both ways in turn, over 2 (the latency suite's "
               "loops)");
    if (points(&o, 1) == 0) {
        bench_note("multiput: no point: --op, --sync and --sizes leave "
                   "none");
        return BENCH_OK;
    }
    cpu_set_t saved;
    lat_pin_ranks(ctx, &saved);
    bench_stack_note(&o);
    int st = pp_backend_on(&o, "orma") ? orma_backend(ctx) : BENCH_OK;
    /* mpirun and the MPI ranks would inherit rank 0's single CPU. */
    bench_bind_restore(&saved);
    if (pp_mpi_wanted(&o)) {
        int mst = pp_mpi_run_paired(ctx, multiput_op_names);
        if (st == BENCH_OK)
            st = mst;
    }
    multiput_summary(ctx);
    return st;
}
