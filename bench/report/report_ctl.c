/* report_ctl.c -- bench_report_open in orma-bench: report.c's opening,
 * agreed through the control window (ctl.h), which the MPI program does
 * not have. */
#include <string.h>

#include "ctl.h"
#include "report.h"

static int agree(const bench_ctx *ctx, int ok)
{
    return bench_ctl_all_ok(ctx->ctl, ok);
}

int bench_report_open(const bench_ctx *ctx)
{
    return bench_report_open_with(ctx, agree,
                                  ctx->opts->backends != NULL ? 16 : strcmp(ctx->suite, "race") == 0 ? 9 : 7);
}
