/* xport_cma.c -- the cma transport: another process's private memory, by
 * single-copy system calls (shm_cma.h), about 1.3 us each. */
#include "xport.h"
#include "dtype_iter.h"
#include "shm_cma.h"

#include <stdlib.h>
#include <sys/uio.h>

static int xport_cma_put(const struct xport_at *at, size_t off, const void *src, size_t len)
{
    return shm_cma_write(at->pid, at->addr + off, src, len);
}

static int xport_cma_get(const struct xport_at *at, size_t off, void *dst, size_t len)
{
    return shm_cma_read(at->pid, at->addr + off, dst, len);
}

/* Paired iovecs per system call (IOV_MAX is 1024). */
#define XPORT_CMA_BATCH 256

/* Both layouts walked side by side, a batch of paired runs per call. */
static int xport_cma_typed(const struct xport_at *at, const struct xport_typed *x, int write)
{
    struct iovec l[XPORT_CMA_BATCH], r[XPORT_CMA_BATCH];
    struct dtype_pair pair;
    dtype_pair_init(&pair, x->otype, x->ocount, x->ttype, x->tcount);
    int status = ORMA_SUCCESS;
    size_t n;
    while (!status &&
           (n = dtype_pair_iov(&pair, x->origin, (char *)(at->addr + (uintptr_t)x->torigin), l, r, XPORT_CMA_BATCH)))
        status = shm_cma_vec(at->pid, l, r, n, write);
    return status;
}

/* A batch of pieces per system call. */
static int xport_cma_put_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    struct iovec l[XPORT_CMA_BATCH], r[XPORT_CMA_BATCH];
    int status = ORMA_SUCCESS;
    for (size_t done = 0; done < n && !status;) {
        size_t k = 0;
        for (; k < XPORT_CMA_BATCH && done + k < n; k++) {
            const struct xport_piece *q = &p[done + k];
            l[k] = (struct iovec){(void *)q->src, q->len};
            r[k] = (struct iovec){(void *)(at->addr + q->off), q->len};
        }
        status = shm_cma_vec(at->pid, l, r, k, 1);
        done += k;
    }
    return status;
}

static int xport_cma_put_typed(const struct xport_at *at, const struct xport_typed *x)
{
    return xport_cma_typed(at, x, 1);
}

/* A typed get pays about as much per run (remote iovec) as reading a
 * kilobyte: when the target layout has runs that short on average, read
 * every byte it reaches in one call and copy from there.  Reading the
 * bytes between runs changes nothing.  Puts have no such way out: writing
 * the gaps back could undo others' updates. */
#define XPORT_CMA_STAGE_PER_RUN 1024
#define XPORT_CMA_STAGE_MAX ((size_t)16 << 20)

static int xport_cma_get_typed(const struct xport_at *at, const struct xport_typed *x)
{
    char *stage = NULL;
    if (x->reach <= XPORT_CMA_STAGE_MAX && x->reach / XPORT_CMA_STAGE_PER_RUN < dtype_runs_at_least(x->ttype, x->tcount))
        stage = malloc(x->reach);
    if (!stage) /* the iovecs */
        return xport_cma_typed(at, x, 0);
    int status = shm_cma_read(at->pid, at->addr, stage, x->reach);
    if (!status)
        dtype_copy(x->origin, x->ocount, x->otype, stage + x->torigin, x->tcount, x->ttype);
    free(stage);
    return status;
}

const struct xport_ops xport_cma = {
    .name = "cma",
    .put = xport_cma_put,
    .get = xport_cma_get,
    .put_typed = xport_cma_put_typed,
    .get_typed = xport_cma_get_typed,
    .put_pieces = xport_cma_put_pieces,
};
