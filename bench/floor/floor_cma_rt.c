/* floor_cma_rt.c -- the put round trip on private memory done with raw
 * process_vm_writev and flags: each direction is one call into the other
 * rank's malloc'd receive buffer, which its owner has just read.  The
 * same-pattern floor of put on create.  Skipped with a note when the
 * kernel refuses (EPERM, ENOSYS), like the cma floor. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cma.h"
#include "ctl.h"
#include "flag.h"
#include "floor.h"
#include "floor_rt.h"
#include "report.h"

typedef struct cma_peer {
    pid_t pid;
    uintptr_t recv; /* the peer's receive buffer, in its address space */
} cma_peer;

static int cma_rt_send(void *arg, const unsigned char *from, size_t n)
{
    const cma_peer *p = arg;
    return bench_cma_write(p->pid, from, p->recv, n);
}

/* Ranks 0 and 1 each try one byte into the other.  Every rank gets the
 * same answer: 0, or the errno of rank 0's failure, else of rank 1's. */
static int probe(const bench_ctx *ctx, const cma_peer *p,
                 const unsigned char *from)
{
    int e = ctx->rank <= 1 ? bench_cma_try(p->pid, from, p->recv) : 0;
    uint64_t e0 = bench_ctl_exchange(ctx->ctl, (uint64_t)e, 0);
    uint64_t e1 = bench_ctl_exchange(ctx->ctl, (uint64_t)e, 1);
    return (int)(e0 != 0 ? e0 : e1);
}

int bench_floor_cma_rt(const bench_ctx *ctx)
{
    size_t max = bench_opts_max_size(ctx->opts);
    int rank = ctx->rank;
    int peer = rank <= 1 ? 1 - rank : 0;
    bench_flag_win fw;
    bench_flag_win_open(0, &fw);
    floor_rt rt = {"cma_rt", "none", NULL, NULL, NULL, NULL, cma_rt_send,
                   NULL};
    if (rank <= 1) {
        rt.recv = bench_xmalloc(max);
        memset(rt.recv, 0, max);
        rt.mine = fw.flag[rank];
        rt.peer = fw.flag[peer];
        bench_cma_allow_peers();
    }
    if (rank == 0) {
        rt.src = bench_xmalloc(max);
        memset(rt.src, 0, max);
    }
    cma_peer p;
    p.pid = (pid_t)bench_ctl_exchange(ctx->ctl, (uint64_t)getpid(), peer);
    p.recv = (uintptr_t)bench_ctl_exchange(
        ctx->ctl, (uint64_t)(uintptr_t)rt.recv, peer);
    rt.arg = &p;

    int st = BENCH_OK;
    int e = probe(ctx, &p, rank == 0 ? rt.src : rt.recv);
    if (e == EPERM || e == ENOSYS) {
        bench_note("floor cma_rt skipped: process_vm_writev: %s",
                   strerror(e));
    } else if (e != 0) {
        if (rank == 0)
            fprintf(stderr, "orma-bench: process_vm_writev probe: %s\n",
                    strerror(e));
        st = BENCH_FAIL;
    } else {
        st = floor_rt_series(ctx, &rt);
    }
    free(rt.src);
    free(rt.recv);
    bench_flag_win_close(&fw);
    return st;
}
