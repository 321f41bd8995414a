/* floor_memcpy.c -- memcpy bandwidth on rank 0, private buffer to private
 * buffer, warm: the best a put into directly mapped memory can do.  Rank 1
 * waits meanwhile.  mbps counts the bytes once (one direction). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "floor.h"
#include "pattern.h"
#include "plan.h"
#include "report.h"

/* Called through a volatile pointer so the compiler cannot drop copies
 * whose result is overwritten by the next one. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

typedef struct copy_arg {
    unsigned char *dst;
    unsigned char *src;
    size_t n;
} copy_arg;

static int copy_kernel(void *arg, long iters)
{
    copy_arg *a = arg;
    for (long i = 0; i < iters; i++)
        copy_fn(a->dst, a->src, a->n);
    return 0;
}

int bench_floor_memcpy(const bench_ctx *ctx)
{
    size_t max = bench_opts_max_size(ctx->opts);
    int ok = 1;
    if (ctx->rank == 0) {
        copy_arg a = {bench_xmalloc(max), bench_xmalloc(max), 0};
        memset(a.dst, 0, max);
        bench_pattern_fill(a.src, max, 1);
        for (int i = 0; i < ctx->opts->nsizes && ok; i++) {
            a.n = ctx->opts->sizes[i];
            bench_progress("floor memcpy", a.n);
            double *us;
            long n;
            if (bench_time_kernel(ctx->opts, copy_kernel, &a, &us, &n) != 0) {
                ok = 0;
                break;
            }
            if (memcmp(a.dst, a.src, a.n) != 0) {
                fprintf(stderr, "orma-bench: memcpy of %zu bytes did not copy\n",
                        a.n);
                ok = 0;
            } else {
                bench_emit(ctx, "floor", "memcpy", "none", "none", a.n,
                           (double)a.n, us, n);
            }
            free(us);
        }
        free(a.dst);
        free(a.src);
    }
    /* Rank 1 waits here while rank 0 measures. */
    return bench_ctl_all_ok(ctx->ctl, ok) ? BENCH_OK : BENCH_FAIL;
}

int bench_floor_memcpy_at(const bench_ctx *ctx, size_t bytes)
{
    if (!bench_list_has(ctx->opts->ops, "memcpy"))
        return BENCH_OK;
    bench_opts o = *ctx->opts;
    o.sizes[0] = bytes;
    o.nsizes = 1;
    bench_ctx c = *ctx;
    c.opts = &o;
    return bench_floor_memcpy(&c);
}
