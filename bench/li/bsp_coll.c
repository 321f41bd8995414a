/* bsp_coll.c -- see bsp_coll.h. */
#include <stdlib.h>
#include <string.h>

#include <orma/bsp.h>

#include "bsp_coll.h"
#include "check.h"

void bench_bsp_coll_open(bench_bsp_coll *c)
{
    c->pid = bsp_pid();
    c->nprocs = bsp_nprocs();
    size_t bytes = (size_t)c->nprocs * sizeof *c->slot;
    c->slot = bench_xmalloc(bytes);
    memset(c->slot, 0, bytes);
    bsp_push_reg(c->slot, (int)bytes);
    bsp_sync();
}

void bench_bsp_coll_close(bench_bsp_coll *c)
{
    bsp_pop_reg(c->slot);
    bsp_sync();
    free(c->slot);
    c->slot = NULL;
}

/* Every process's v into slot pid of every process: one superstep.  The
 * put is buffered (v is read during the call). */
static void all_gather(bench_bsp_coll *c, uint64_t v)
{
    int off = c->pid * (int)sizeof v;
    for (int k = 0; k < c->nprocs; k++)
        bsp_put((c->pid + k) % c->nprocs, &v, c->slot, off, (int)sizeof v);
    bsp_sync();
}

double bench_bsp_max(bench_bsp_coll *c, double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    all_gather(c, b);
    double m = v;
    for (int k = 0; k < c->nprocs; k++) {
        double x;
        memcpy(&x, &c->slot[k], sizeof x);
        if (x > m)
            m = x;
    }
    return m;
}

long bench_bsp_bcast(bench_bsp_coll *c, long v)
{
    uint64_t b = (uint64_t)v;
    if (c->pid == 0)
        for (int k = 0; k < c->nprocs; k++)
            bsp_put(k, &b, c->slot, 0, (int)sizeof b);
    bsp_sync();
    return (long)c->slot[0];
}

int bench_bsp_all_ok(bench_bsp_coll *c, int ok)
{
    all_gather(c, ok != 0);
    for (int k = 0; k < c->nprocs; k++)
        if (c->slot[k] == 0)
            return 0;
    return 1;
}
