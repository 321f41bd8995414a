/* li_bsp.c -- li.h's functions over BSPlib (li_bsp.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <orma.h>
#include <orma/bsp.h>

#include "li_bsp.h"
#include "li_run.h"

#define LI_BSP_ALIGN 64

static li_bsp *bsp_of(li_lib *l)
{
    return l->impl;
}

/* BSPlib counts bytes and offsets in int. */
static int int_of(li_lib *l, size_t n, const char *what)
{
    if (n > INT_MAX)
        bsp_abort("orma-bench: %s %s: %zu bytes, more than BSPlib's int "
                  "holds\n", l->backend, what, n);
    return (int)n;
}

static void area_open(li_lib *l, size_t bytes, li_area *a)
{
    int n = int_of(l, bytes, "area");
    size_t rounded = (bytes + LI_BSP_ALIGN - 1) / LI_BSP_ALIGN * LI_BSP_ALIGN;
    unsigned char *base = aligned_alloc(LI_BSP_ALIGN,
                                        rounded ? rounded : LI_BSP_ALIGN);
    if (base == NULL)
        bsp_abort("orma-bench: %s: out of memory (%zu bytes)\n", l->backend,
                  bytes);
    /* Zeroed before the sync that makes it usable: no put can land
     * earlier.  The stores also take the page faults. */
    memset(base, 0, bytes);
    bsp_push_reg(base, n);
    bsp_sync();
    a->base = base;
    a->bytes = bytes;
    a->impl = NULL;
}

static void area_close(li_lib *l, li_area *a)
{
    (void)l;
    bsp_pop_reg(a->base);
    bsp_sync();
    free(a->base);
    memset(a, 0, sizeof *a);
}

static void hpput(li_lib *l, li_area *a, int pid, size_t off,
                  const void *src, size_t n)
{
    bsp_hpput(pid, src, a->base, int_of(l, off, "put offset"),
              int_of(l, n, "put"));
}

static void hpget(li_lib *l, li_area *a, int pid, size_t off, void *dst,
                  size_t n)
{
    bsp_hpget(pid, a->base, int_of(l, off, "get offset"), dst,
              int_of(l, n, "get"));
}

static void put(li_lib *l, li_area *a, int pid, size_t off, const void *src,
                size_t n)
{
    bsp_put(pid, src, a->base, int_of(l, off, "put offset"),
            int_of(l, n, "put"));
}

static void get(li_lib *l, li_area *a, int pid, size_t off, void *dst,
                size_t n)
{
    bsp_get(pid, a->base, int_of(l, off, "get offset"), dst,
            int_of(l, n, "get"));
}

static void sync_area(li_lib *l, li_area *a)
{
    (void)l;
    (void)a;
    bsp_sync();
}

static void barrier(li_lib *l)
{
    (void)l;
    bsp_sync();
}

static double max(li_lib *l, double v)
{
    return bench_bsp_max(&bsp_of(l)->coll, v);
}

static long bcast(li_lib *l, long v)
{
    return bench_bsp_bcast(&bsp_of(l)->coll, v);
}

static int all_ok(li_lib *l, int ok)
{
    return bench_bsp_all_ok(&bsp_of(l)->coll, ok);
}

void li_bsp_begin(li_bsp *b, const bench_ctx *ctx, const char *suite)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    bsp_begin(orma_size());
    /* The rows are rank 0's (report.h): BSPlib's process numbers must be
     * orma's ranks. */
    if (bsp_nprocs() != ctx->size || bsp_pid() != ctx->rank)
        bsp_abort("orma-bench: rank %d of %d: bsp_begin(%d) made it process "
                  "%d of %d\n", ctx->rank, ctx->size, ctx->size, bsp_pid(),
                  bsp_nprocs());
    bench_bsp_coll_open(&b->coll);
    li_lib *l = &b->lib;
    /* pid and nprocs: BSPlib's, checked above to be the run's. */
    li_run_init(l, ctx, suite, b);
    l->two_sided = 0;
    l->area_open = area_open;
    l->area_close = area_close;
    l->sync = sync_area;
    l->barrier = barrier;
    l->now = bsp_time;
    l->max = max;
    l->bcast = bcast;
    l->all_ok = all_ok;
    li_bsp_select(b, 0);
}

void li_bsp_select(li_bsp *b, int buffered)
{
    li_lib *l = &b->lib;
    l->backend = buffered ? "bsp-buffered" : "bsp";
    l->put = buffered ? put : hpput;
    l->get = buffered ? get : hpget;
}

void li_bsp_end(li_bsp *b)
{
    bench_bsp_coll_close(&b->coll);
    bsp_end();
}
