/* dyn_suite.h -- orma-bench's dynamic suite (dyn_suite.c). */
#ifndef BENCH_DYN_SUITE_H
#define BENCH_DYN_SUITE_H

#include "bench.h"

int bench_dynamic_run(const bench_ctx *ctx);

#endif
