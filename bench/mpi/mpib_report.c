/* mpib_report.c -- the MPI program's results through report.c, in
 * orma-bench's formats: the same JSON keys in the same order, so that
 * orma-bench reads them back as its own, and the same table with the
 * backend column as wide as orma-bench's with --backends.  Only rank 0
 * reports. */
#include "mpib.h"

/* The job, as report.c sees it: no control window. */
static bench_ctx job;

static int agree(const bench_ctx *ctx, int ok)
{
    (void)ctx;
    return mpib_all_ok(ok);
}

int mpib_report_open(const mpib_ctx *ctx)
{
    job = (bench_ctx){ctx->suite, ctx->opts, NULL, ctx->rank, ctx->size};
    return bench_report_open_with(&job, agree, 16);
}

const bench_ctx *mpib_report_job(void)
{
    return &job;
}

void mpib_emit(const char *backend, const char *op, const char *sync,
               const char *window, size_t bytes, double moved_bytes,
               double *samples_us, long n)
{
    bench_emit(&job, backend, op, sync, window, bytes, moved_bytes,
               samples_us, n);
}
