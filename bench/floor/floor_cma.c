/* floor_cma.c -- raw process_vm_writev bandwidth, rank 0 into a malloc'd
 * buffer of rank 1: the best a put into a window on private memory
 * (orma_win_create on malloc'd memory) can do.  One call per iteration,
 * many per sample for small sizes.  The data is checked once per size. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <orma.h>

#include "check.h"
#include "cma.h"
#include "ctl.h"
#include "floor.h"
#include "pattern.h"
#include "plan.h"
#include "report.h"

enum { CMA_OK = 0, CMA_SKIP = 1, CMA_BROKEN = 2 };

typedef struct cma_arg {
    pid_t pid;
    unsigned char *src;
    uintptr_t dst;  /* address in rank 1 */
    size_t n;
} cma_arg;

static int cma_write(const cma_arg *a)
{
    return bench_cma_write(a->pid, a->src, a->dst, a->n);
}

static int cma_kernel(void *arg, long iters)
{
    for (long i = 0; i < iters; i++)
        if (cma_write(arg) != 0)
            return -1;
    return 0;
}

/* Rank 0: can we write into rank 1 at all? */
static int probe(cma_arg *a)
{
    int e = bench_cma_try(a->pid, a->src, a->dst);
    if (e == 0)
        return CMA_OK;
    if (e == EPERM || e == ENOSYS) {
        bench_note("floor cma skipped: process_vm_writev: %s", strerror(e));
        return CMA_SKIP;
    }
    fprintf(stderr, "orma-bench: process_vm_writev probe: %s\n", strerror(e));
    return CMA_BROKEN;
}

/* One size: rank 0 times, then writes a fresh pattern once; rank 1 checks
 * it, and the result is reported only once both agree the data arrived.
 * Returns that agreement. */
static int one_size(const bench_ctx *ctx, cma_arg *a, unsigned char *buf,
                    size_t n)
{
    int ok = 1;
    uint64_t seed = bench_pattern_seed(n, 0x3c);
    double *us = NULL;
    long reps = 0;
    if (ctx->rank == 0) {
        a->n = n;
        bench_progress("floor cma", n);
        ok = bench_time_kernel(ctx->opts, cma_kernel, a, &us, &reps) == 0;
        bench_pattern_fill(a->src, n, seed);
        if (ok)
            ok = cma_write(a) == 0;
    }
    /* The write is complete once the barrier inside the bcast is passed. */
    int written = (int)bench_ctl_bcast(ctx->ctl, (uint64_t)ok);
    if (ctx->rank == 1 && written) {
        size_t off;
        unsigned want, got;
        if (!bench_pattern_check(buf, n, seed, &off, &want, &got)) {
            fprintf(stderr, "orma-bench: rank 1: cma floor, %zu bytes: byte "
                    "%zu is 0x%02x, expected 0x%02x\n", n, off, got, want);
            ok = 0;
        }
    }
    int all = bench_ctl_all_ok(ctx->ctl, ok && written);
    if (all && ctx->rank == 0)
        bench_emit(ctx, "floor", "cma", "none", "none", n, (double)n, us, reps);
    free(us);
    return all;
}

int bench_floor_cma(const bench_ctx *ctx)
{
    size_t max = bench_opts_max_size(ctx->opts);
    unsigned char *buf = NULL;
    cma_arg a = {0, NULL, 0, 0};
    if (ctx->rank == 1) {
        buf = bench_xmalloc(max);
        memset(buf, 0, max);
        bench_cma_allow_peers();
    }
    if (ctx->rank == 0) {
        a.src = bench_xmalloc(max);
        memset(a.src, 0, max);
    }
    a.pid = (pid_t)bench_ctl_exchange(ctx->ctl, (uint64_t)getpid(), 1);
    a.dst = (uintptr_t)bench_ctl_exchange(ctx->ctl, (uint64_t)(uintptr_t)buf, 1);

    int st = (int)bench_ctl_bcast(ctx->ctl, ctx->rank == 0 ? (uint64_t)probe(&a) : 0);
    int status = BENCH_OK;
    if (st == CMA_BROKEN)
        status = BENCH_FAIL;
    for (int i = 0; st == CMA_OK && i < ctx->opts->nsizes; i++) {
        if (!one_size(ctx, &a, buf, ctx->opts->sizes[i])) {
            status = BENCH_FAIL;
            break;
        }
    }
    free(buf);
    free(a.src);
    return status;
}
