/* as_summary.c -- the as suite's tables (orma-bench, rank 0). */
#include "li_suite.h"

int as_summary(const bench_ctx *ctx)
{
    (void)ctx;
    return BENCH_OK;
}
