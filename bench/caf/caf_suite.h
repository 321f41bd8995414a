/* caf_suite.h -- orma-bench's caf suite (caf_suite.c). */
#ifndef BENCH_CAF_SUITE_H
#define BENCH_CAF_SUITE_H

#include "bench.h"

int bench_caf_run(const bench_ctx *ctx);

#endif
