/* caf_native.c -- orma_put / orma_get + flush, the caf suite's anchor
 * (caf_native.h).  The batches are made as caf_bench.f90's pp makes them:
 * iterations per batch multiplied by 4 until a batch takes over 2 ms, then
 * 5 to 200 batches, the median of their times per operation. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>

#include "caf_native.h"
#include "ctl.h"

#define CAF_NATIVE_MAX 1048576
/* Rank 1's window: the put region [0, MAX + 64), then the get region. */
#define CAF_NATIVE_GET_AT (CAF_NATIVE_MAX + 64)

static const size_t caf_native_sizes[CAF_NATIVE_SIZES] = {8, 64, 512, 4096, 32768, 131072, 524288, 1048576};

struct caf_native {
    orma_win win;
    unsigned char *base, *src, *dst;
    int rank;
};

static unsigned char caf_native_byte(size_t i, size_t salt)
{
    return (unsigned char)((i * 7 + salt * 13) % 251);
}

int caf_native_open(const bench_ctx *ctx, caf_native **n_p)
{
    caf_native *n = calloc(1, sizeof *n);
    void *base = NULL;
    int rc = n ? orma_win_allocate(2 * (size_t)CAF_NATIVE_GET_AT, 1, ORMA_INFO_NULL, &base, &n->win) : ORMA_ERR_NOMEM;
    if (rc != ORMA_SUCCESS) {
        fprintf(stderr, "orma-bench: caf: rank %d: the orma window: %s\n", ctx->rank, orma_strerror(rc));
        free(n);
        return -1;
    }
    n->base = base;
    n->rank = ctx->rank;
    memset(n->base, 0, CAF_NATIVE_GET_AT);
    for (size_t i = 0; i < CAF_NATIVE_MAX; i++)
        n->base[CAF_NATIVE_GET_AT + i] = caf_native_byte(i, 1);
    if (ctx->rank == 0) {
        n->src = malloc(CAF_NATIVE_MAX);
        n->dst = malloc(CAF_NATIVE_MAX + 1);
        if (!n->src || !n->dst)
            rc = ORMA_ERR_NOMEM;
    }
    if (!bench_ctl_all_ok(ctx->ctl, rc == ORMA_SUCCESS)) { /* and every rank's memory is ready */
        if (rc != ORMA_SUCCESS)
            fprintf(stderr, "orma-bench: caf: rank %d: out of memory\n", ctx->rank);
        caf_native_close(&n);
        return -1;
    }
    *n_p = n;
    return 0;
}

/* One batch of iters operations of bytes; seconds per operation. */
static int caf_native_batch(caf_native *n, int put, size_t bytes, long iters, double *t)
{
    double t0 = orma_wtime();
    for (long i = 0; i < iters; i++) {
        int rc = put ? orma_put(n->src, bytes, ORMA_BYTE, 1, 0, bytes, ORMA_BYTE, n->win)
                     : orma_get(n->dst, bytes, ORMA_BYTE, 1, CAF_NATIVE_GET_AT, bytes, ORMA_BYTE, n->win);
        if (rc == ORMA_SUCCESS)
            rc = orma_win_flush(1, n->win);
        if (rc != ORMA_SUCCESS) {
            fprintf(stderr, "orma-bench: caf: rank 0: orma_%s of %zu bytes to rank 1: %s\n", put ? "put" : "get",
                    bytes, orma_strerror(rc));
            return -1;
        }
    }
    *t = (orma_wtime() - t0) / (double)iters;
    return 0;
}

static int caf_native_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The bytes of the last operation of bytes, where they landed; 0 or -1. */
static int caf_native_verify(caf_native *n, int put, size_t bytes, size_t salt)
{
    if (put) { /* read rank 1's put region back, one byte past it too */
        if (orma_get(n->dst, bytes + 1, ORMA_BYTE, 1, 0, bytes + 1, ORMA_BYTE, n->win) != ORMA_SUCCESS ||
            orma_win_flush(1, n->win) != ORMA_SUCCESS)
            return -1;
        for (size_t i = 0; i < bytes; i++)
            if (n->dst[i] != caf_native_byte(i, salt))
                return -1;
        /* Sizes grow from a zeroed region: nothing was put past this one. */
        return bytes < CAF_NATIVE_MAX && n->dst[bytes] != 0 ? -1 : 0;
    }
    for (size_t i = 0; i < bytes; i++)
        if (n->dst[i] != caf_native_byte(i, 1))
            return -1;
    return 0;
}

int caf_native_run(caf_native *n, const char *op, double seconds, size_t bytes[CAF_NATIVE_SIZES],
                   double us[CAF_NATIVE_SIZES])
{
    int put = !strcmp(op, "put1");
    if (orma_win_lock_all(0, n->win) != ORMA_SUCCESS)
        return -1;
    int st = 0;
    if (put) { /* rank 1's put region zero again: sizes grow, so the byte past each is still 0 */
        memset(n->src, 0, CAF_NATIVE_MAX);
        if (orma_put(n->src, CAF_NATIVE_MAX, ORMA_BYTE, 1, 0, CAF_NATIVE_MAX, ORMA_BYTE, n->win) != ORMA_SUCCESS ||
            orma_win_flush(1, n->win) != ORMA_SUCCESS)
            st = -1;
    }
    for (int s = 0; s < CAF_NATIVE_SIZES && st == 0; s++) {
        size_t b = caf_native_sizes[s];
        for (size_t i = 0; i < b; i++)
            n->src[i] = caf_native_byte(i, (size_t)s + 2);
        long iters = 1;
        double one = 0, t[200];
        for (;;) {
            if ((st = caf_native_batch(n, put, b, iters, &one)) != 0)
                break;
            if (one * (double)iters > 2e-3 || iters >= 1000000)
                break;
            iters *= 4;
        }
        double per = one * (double)iters;
        long nb = (long)(seconds / CAF_NATIVE_SIZES / (per > 1e-6 ? per : 1e-6));
        nb = nb < 5 ? 5 : nb > 200 ? 200 : nb;
        for (long k = 0; k < nb && st == 0; k++)
            st = caf_native_batch(n, put, b, iters, &t[k]);
        if (st != 0)
            break;
        if (caf_native_verify(n, put, b, (size_t)s + 2) != 0) {
            fprintf(stderr, "orma-bench: caf: rank 0: orma_%s of %zu bytes to rank 1: the data did not verify\n",
                    put ? "put" : "get", b);
            st = -1;
            break;
        }
        qsort(t, (size_t)nb, sizeof t[0], caf_native_cmp);
        bytes[s] = b;
        us[s] = t[(nb - 1) / 2] * 1e6;
    }
    if (orma_win_unlock_all(n->win) != ORMA_SUCCESS)
        st = -1;
    return st;
}

void caf_native_close(caf_native **n_p)
{
    caf_native *n = *n_p;
    if (!n)
        return;
    orma_win_free(&n->win);
    free(n->src);
    free(n->dst);
    free(n);
    *n_p = NULL;
}
