/* rdx_seq.c -- the rdx suite's sequential reference (rdx.h): rank 0 sorts
 * all n keys with the same 4 rounds of count sort as the parallel
 * versions (rdx_seq_sort), the p = 1 time of the speedups.  The inputs are
 * the parallel points' (sample k sorts rdx_seed(n, k)'s keys); each sample
 * is checked, untimed, against the input's hash and for order.  The other
 * ranks wait in bench_ctl_bcast, which sleeps once its spinning is over:
 * with more ranks than cores their spinning would be rank 0's time. */
#include <stdio.h>
#include <stdlib.h>

#include <orma.h>

#include "check.h"
#include "ctl.h"
#include "li.h"
#include "progress.h"
#include "rdx.h"
#include "rdx_def.h"
#include "report.h"

/* li_measure's rule, for one rank: a warm-up, then --reps samples, or as
 * many as fill about 0.2 s (0.05 s with --quick), 5 to LI_MAX_SAMPLES. */
#define SEQ_MIN_SAMPLES 5

static int seq_point(const bench_ctx *ctx, size_t n, double *us)
{
    const bench_opts *o = ctx->opts;
    uint32_t *keys = bench_xmalloc(n * sizeof *keys);
    uint32_t *tmp = bench_xmalloc(n * sizeof *tmp);
    double target = o->quick ? 0.05 : 0.2, spent = 0.0;
    long k = 0;
    int ok = 1;
    for (long s = 0; ok; s++) {
        uint64_t h = rdx_keys_fill(keys, n, rdx_seed(n, (uint64_t)s), 0);
        double t0 = orma_wtime();
        rdx_seq_sort(keys, tmp, n);
        double t = orma_wtime() - t0;
        rdx_rec rec;
        rdx_rec_make(h, keys, n, &rec);
        char msg[200];
        ok = rdx_check(&rec, 1, 0, n, msg, sizeof msg);
        if (!ok)
            fprintf(stderr, "orma-bench: rdx seq, %zu keys: %s\n", n, msg);
        if (s == 0)
            continue;
        us[k++] = t * 1e6;
        spent += t;
        if (o->reps > 0 ? k >= o->reps
                        : k >= LI_MAX_SAMPLES ||
                              (k >= SEQ_MIN_SAMPLES && spent >= target))
            break;
    }
    free(tmp);
    free(keys);
    if (!ok)
        return -1;
    bench_ctx one = *ctx;
    one.size = 1;
    bench_emit(&one, "seq", "sort", "none", "none", n,
               (double)n * sizeof(uint32_t), us, k);
    return 0;
}

int rdx_seq_run(const bench_ctx *ctx)
{
    int st = BENCH_OK;
    if (ctx->rank == 0) {
        const size_t *sizes = ctx->opts->sizes;
        int ns = ctx->opts->nsizes;
        double *us = bench_xmalloc(LI_MAX_SAMPLES * sizeof *us);
        bench_progress_expect(ns);
        for (int i = 0; i < ns; i++) {
            /* Only where the parallel versions ran (rdx_alg.c). */
            if (sizes[i] == 0 || sizes[i] % (size_t)ctx->size != 0)
                continue;
            bench_progress("seq sort", sizes[i]);
            if (seq_point(ctx, sizes[i], us) != 0)
                st = BENCH_FAIL;
        }
        free(us);
    }
    return (int)bench_ctl_bcast(ctx->ctl, (uint64_t)st);
}
