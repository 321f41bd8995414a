/* rma_typed.c -- typed put and get: one pass from the origin's layout
 * straight into the target's (mapped memory), or one batch of paired
 * iovecs per system call (memory reached by single-copy syscalls) -- never
 * pack, copy, unpack.  The idea of the single copy between two layouts is
 * the partitioned-address-space result of [001]. */
#include "rma_acc.h"
#include "rma_comm.h"
#include "dtype_iter.h"
#include "shm_cma.h"

#include <stdint.h>
#include <sys/uio.h>

#define RMA_TYPED_BATCH 256

static int rma_typed_cma(struct rma_win *win, const struct rma_op *op, uintptr_t rorigin, int write)
{
    struct iovec l[RMA_TYPED_BATCH], r[RMA_TYPED_BATCH];
    size_t n = 0;
    struct dtype_pair pair;
    dtype_pair_init(&pair, op->otype, op->ocount, op->ttype, op->tcount);
    ptrdiff_t ooff, toff;
    size_t len;
    pid_t pid = win->targets[op->target].pid;
    char *origin = op->origin;
    while (dtype_pair_next(&pair, &ooff, &toff, &len)) {
        char *lp = origin + ooff;
        char *rp = (char *)(rorigin + (uintptr_t)toff);
        if (n && (char *)l[n - 1].iov_base + l[n - 1].iov_len == lp &&
            (char *)r[n - 1].iov_base + r[n - 1].iov_len == rp) {
            l[n - 1].iov_len += len;
            r[n - 1].iov_len += len;
        } else {
            if (n == RMA_TYPED_BATCH) {
                int status = shm_cma_vec(pid, l, r, n, write);
                if (status)
                    return status;
                n = 0;
            }
            l[n] = (struct iovec){lp, len};
            r[n] = (struct iovec){rp, len};
            n++;
        }
    }
    return n ? shm_cma_vec(pid, l, r, n, write) : ORMA_SUCCESS;
}

static int rma_typed_copy(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    int put = op->kind == RMA_OP_PUT;
    if (w->path == RMA_PATH_DIRECT) {
        char *tbase = w->ptr + op->torigin;
        if (put)
            dtype_copy(tbase, op->tcount, op->ttype, op->origin, op->ocount, op->otype);
        else
            dtype_copy(op->origin, op->ocount, op->otype, tbase, op->tcount, op->ttype);
        return ORMA_SUCCESS;
    }
    return rma_typed_cma(win, op, w->raddr + (uintptr_t)op->torigin, put);
}

/* A typed accumulate: the pieces where an origin run meets a target run,
 * each an accumulate of whole elements of the one basic type, made atomic
 * per element as any other (rma_acc.c). */
static int rma_typed_acc(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    struct dtype_pair pair;
    dtype_pair_init(&pair, op->otype, op->ocount, op->ttype, op->tcount);
    ptrdiff_t ooff, toff;
    size_t len;
    int status = ORMA_SUCCESS;
    while (!status && dtype_pair_next(&pair, &ooff, &toff, &len)) {
        ptrdiff_t at = op->torigin + toff; /* from the start of the reached bytes */
        struct rma_op piece = {.kind = RMA_OP_ACC, .op = op->op, .typeid_ = op->typeid_, .target = op->target,
                               .origin = (char *)op->origin + ooff, .len = len,
                               .offset = op->offset + (size_t)at};
        struct rma_where pw = *w;
        if (pw.path == RMA_PATH_DIRECT)
            pw.ptr += at;
        else
            pw.raddr += (uintptr_t)at;
        status = rma_acc_execute(win, &piece, &pw);
    }
    return status;
}

int rma_typed_execute(struct rma_win *win, const struct rma_op *op, const struct rma_where *w)
{
    if (op->kind == RMA_OP_ACC)
        return rma_typed_acc(win, op, w);
    return rma_typed_copy(win, op, w);
}
