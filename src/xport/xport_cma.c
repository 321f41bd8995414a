/* xport_cma.c -- the cma transport: another process's private memory, by
 * single-copy system calls (shm_cma.h), about 1.3 us each. */
#include "xport.h"
#include "dtype_iter.h"
#include "dtype_type.h"
#include "shm_cma.h"
#include "util_status.h"

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

/* A typed transfer of many short runs costs the kernel about 0.3-0.8 us
 * per remote iovec (it pins the target's page for each), whatever the
 * batch; the call itself about 1.3 us.  Full IOV_MAX batches make the
 * calls a quarter as many as XPORT_CMA_BATCH.  Reading the covering span,
 * merging the runs here and writing it back would be one call each way,
 * but it rewrites the gaps, which another origin or the owner may be
 * storing to at the same time in any epoch MPI allows: not done for puts
 * (gets stage the span, xport_cma_get_typed).  The target's runs' own
 * cost is what remains (an origin's short runs are packed first,
 * xport_cma_put_typed), so a typed put to private memory of thousands of
 * target runs a few bytes long stays slower than packing it and unpacking
 * it there (see bench/README.md, ddt). */
#define XPORT_CMA_TYPED_BATCH 1024

/* Both layouts walked side by side, a batch of paired runs per call. */
static int xport_cma_typed(const struct xport_at *at, const struct xport_typed *x, int write)
{
    static _Thread_local struct iovec l[XPORT_CMA_TYPED_BATCH], r[XPORT_CMA_TYPED_BATCH];
    struct dtype_pair pair;
    dtype_pair_init(&pair, x->otype, x->ocount, x->ttype, x->tcount);
    int status = ORMA_SUCCESS;
    size_t n;
    while (!status &&
           (n = dtype_pair_iov(&pair, x->origin, (char *)(at->addr + (uintptr_t)x->torigin), l, r, XPORT_CMA_TYPED_BATCH)))
        status = shm_cma_vec(at->pid, l, r, n, write);
    return status;
}

/* Append [base, base + len) to the list v of *n: one more entry, or the
 * last one longer when the bytes follow it. */
static void xport_cma_append(struct iovec *v, size_t *n, char *base, size_t len)
{
    if (*n && (char *)v[*n - 1].iov_base + v[*n - 1].iov_len == base)
        v[*n - 1].iov_len += len;
    else
        v[(*n)++] = (struct iovec){base, len};
}

/* A batch of pieces per system call, either way.  Pieces that follow each
 * other on one side are one entry there: the kernel pins the target's
 * pages entry by entry (about 0.3 us each here), so k adjacent small puts
 * cost about what one of their total length does. */
static int xport_cma_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n, int write)
{
    struct iovec l[XPORT_CMA_BATCH], r[XPORT_CMA_BATCH];
    int status = ORMA_SUCCESS;
    for (size_t i = 0; i < n && !status;) {
        size_t nl = 0, nr = 0;
        for (; i < n && nl < XPORT_CMA_BATCH && nr < XPORT_CMA_BATCH; i++) {
            if (!p[i].len)
                continue;
            xport_cma_append(l, &nl, p[i].buf, p[i].len);
            xport_cma_append(r, &nr, (char *)(at->addr + p[i].off), p[i].len);
        }
        status = shm_cma_vec_apart(at->pid, l, nl, r, nr, write);
    }
    return status;
}

static int xport_cma_put_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    return xport_cma_pieces(at, p, n, 1);
}

static int xport_cma_get_pieces(const struct xport_at *at, const struct xport_piece *p, size_t n)
{
    return xport_cma_pieces(at, p, n, 0);
}

/* The kernel takes a local iovec for a few tens of nanoseconds, a remote
 * one for 0.3-0.8 us: an origin layout of short runs is packed here first
 * (a few ns a run), and the target's runs alone make the remote list,
 * merged wherever they follow each other there -- a LAMMPS exchange,
 * gathered from every field into contiguous runs at the target, is then a
 * handful of remote iovecs instead of one per atom and field. */
#define XPORT_CMA_PACK_RUN 512
#define XPORT_CMA_STAGE_MAX ((size_t)16 << 20)

static int xport_cma_put_packed(const struct xport_at *at, const struct xport_typed *x, const char *stage,
                                size_t bytes)
{
    struct iovec r[XPORT_CMA_TYPED_BATCH];
    struct dtype_iter it;
    dtype_iter_init(&it, x->ttype, x->tcount);
    char *tbase = (char *)(at->addr + (uintptr_t)x->torigin);
    ptrdiff_t off = 0;
    size_t len = 0, done = 0; /* len: a run taken from it, not yet listed */
    int status = ORMA_SUCCESS;
    while (!status && done < bytes) {
        size_t nr = 0, sum = 0;
        for (;;) {
            if (!len && (done + sum == bytes || !dtype_iter_next(&it, bytes - done - sum, &off, &len)))
                break;
            char *t = tbase + off;
            if (nr == XPORT_CMA_TYPED_BATCH && (char *)r[nr - 1].iov_base + r[nr - 1].iov_len != t)
                break; /* a new entry, and no room for it */
            xport_cma_append(r, &nr, t, len);
            sum += len;
            len = 0;
        }
        if (!sum) /* the target layout ends first: the sizes were checked, so never */
            return util_error(ORMA_ERR_INTERNAL, "a typed put by system calls: the target layout holds %zu of %zu bytes",
                              done, bytes);
        struct iovec l = {(char *)stage + done, sum};
        status = shm_cma_vec_apart(at->pid, &l, 1, r, nr, 1);
        done += sum;
    }
    return status;
}

static int xport_cma_put_typed(const struct xport_at *at, const struct xport_typed *x)
{
    size_t bytes = x->ocount * x->otype->size, runs = dtype_runs_at_least(x->otype, x->ocount);
    char *stage = NULL;
    if (runs > 1 && bytes / runs < XPORT_CMA_PACK_RUN && bytes <= XPORT_CMA_STAGE_MAX)
        stage = malloc(bytes);
    if (!stage)
        return xport_cma_typed(at, x, 1);
    dtype_pack(x->origin, x->ocount, x->otype, 0, bytes, stage);
    int status = xport_cma_put_packed(at, x, stage, bytes);
    free(stage);
    return status;
}

/* A typed get pays about as much per run (remote iovec) as reading a
 * kilobyte: when the target layout has runs that short on average, read
 * every byte it reaches in one call and copy from there.  Reading the
 * bytes between runs changes nothing.  Puts have no such way out: writing
 * the gaps back could undo others' updates. */
#define XPORT_CMA_STAGE_PER_RUN 1024

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
    .get_pieces = xport_cma_get_pieces,
};
