/* mult_alg.c -- the mult suite on any backend of li.h: seed 003's MatMul
 * (Fig. 7, with put, or with irecv/send on a two-sided backend) and
 * MatMulG (Fig. 8, with get), Cannon's method in P rounds, each rank
 * computing its block of C = A x B (the blocks, rounds and data:
 * mult_def.h; the memory they live in: mult_area.h).
 *
 * A point is (n, op): one sample is the whole multiplication -- every
 * round's communication, sync and computation -- timed on every rank
 * after li_measure's barrier, the sample the slowest rank's.  After each
 * sample, untimed, every rank compares its C block with the reference
 * exactly and checks its area's guards, unused buffers and own blocks;
 * a wrong block is reported with the rank and the point gives no row.
 *
 * Rows: op put | get (sync fence, window allocate: the li area) or send
 * (sync p2p, window none), bytes = n (the matrix order, not a message
 * size), MB/s from what one rank sends (put, send) or fetches (get) per
 * multiplication: 2 P blocks of N x N doubles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "li.h"
#include "mult_area.h"
#include "mult_def.h"

enum { OP_PUT, OP_GET, OP_SEND, NOP };

static const char *const op_names[] = {"put", "get", "send", NULL};
static const char *const sync_names[] = {"fence", "p2p", NULL};

typedef struct point {
    li_lib *l;
    mult_grid g;
    size_t n;
    int op;
    mult_area m;
    unsigned char *mem; /* the area's base, or the send version's buffer */
    li_area *area;      /* NULL for send */
    double *A, *B;      /* this rank's blocks, as written into mem */
    double *C, *at, *ref;
    unsigned long round; /* put: rounds so far, across samples (buffers) */
} point;

static double *block_at(point *pt, int region)
{
    return (double *)(void *)(pt->mem + mult_area_off(&pt->m, region));
}

static void compute(point *pt, const double *a, const double *b)
{
    mult_transpose(a, pt->at, pt->m.N);
    mult_acc(pt->C, pt->at, b, pt->m.N);
}

/* Fig. 7 with put.  Round r (counted across samples) lands in buffer
 * r mod 2: the puts of round r + 1 may arrive while a target still
 * multiplies round r's blocks, and those of round r + 2 come after the
 * sync that target entered only once it was done with them. */
static void rounds_put(point *pt)
{
    li_lib *l = pt->l;
    size_t blk = pt->m.block;
    size_t a_off[2] = {mult_area_off(&pt->m, MULT_A0),
                       mult_area_off(&pt->m, MULT_A1)};
    size_t b_off[2] = {mult_area_off(&pt->m, MULT_B0),
                       mult_area_off(&pt->m, MULT_B1)};
    for (int r = 0; r < pt->g.P; r++, pt->round++) {
        int t = (int)(pt->round % 2);
        l->put(l, pt->area, mult_put_a_target(&pt->g, r), a_off[t],
               block_at(pt, MULT_A), blk);
        l->put(l, pt->area, mult_put_b_target(&pt->g, r), b_off[t],
               block_at(pt, MULT_B), blk);
        l->sync(l, pt->area);
        compute(pt, block_at(pt, MULT_A0 + t), block_at(pt, MULT_B0 + t));
    }
}

/* Fig. 8: the sources' A and B never change, so the gets read them from
 * their areas directly, and one buffer suffices: the next round's gets
 * are issued after this rank's multiplication. */
static void rounds_get(point *pt)
{
    li_lib *l = pt->l;
    size_t blk = pt->m.block;
    double *a = block_at(pt, MULT_A0), *b = block_at(pt, MULT_B0);
    for (int r = 0; r < pt->g.P; r++) {
        l->get(l, pt->area, mult_get_a_source(&pt->g, r),
               mult_area_off(&pt->m, MULT_A), a, blk);
        l->get(l, pt->area, mult_get_b_source(&pt->g, r),
               mult_area_off(&pt->m, MULT_B), b, blk);
        l->sync(l, pt->area);
        compute(pt, a, b);
    }
}

/* Fig. 7 with two-sided calls, as the seed's LAM MPI version: receives
 * posted, then sends, then waitall (li.h: that order never deadlocks). */
static void rounds_send(point *pt)
{
    li_lib *l = pt->l;
    size_t blk = pt->m.block;
    double *a = block_at(pt, MULT_A0), *b = block_at(pt, MULT_B0);
    for (int r = 0; r < pt->g.P; r++) {
        l->irecv(l, mult_put_a_source(&pt->g, r), a, blk);
        l->irecv(l, mult_put_b_source(&pt->g, r), b, blk);
        l->send(l, mult_put_a_target(&pt->g, r), block_at(pt, MULT_A), blk);
        l->send(l, mult_put_b_target(&pt->g, r), block_at(pt, MULT_B), blk);
        l->waitall(l);
        compute(pt, a, b);
    }
}

static unsigned written(int op)
{
    return op == OP_PUT ? MULT_WRITES_PUT : MULT_WRITES_ONE;
}

/* One sample (li_measure's fn): the multiplication timed, then checked. */
static double sample(void *arg)
{
    point *pt = arg;
    li_lib *l = pt->l;
    size_t N = pt->m.N;
    double t0 = l->now();
    memset(pt->C, 0, N * N * sizeof *pt->C);
    if (pt->op == OP_PUT)
        rounds_put(pt);
    else if (pt->op == OP_GET)
        rounds_get(pt);
    else
        rounds_send(pt);
    double t = l->now() - t0;

    char msg[200];
    int ok = mult_check(&pt->g, pt->n, pt->C, pt->ref, msg, sizeof msg) &&
             mult_area_check(pt->mem, &pt->m, written(pt->op), pt->A, pt->B,
                             msg, sizeof msg);
    if (!ok)
        fprintf(stderr, "orma-bench: %s %s: rank %d: %s n=%zu p=%d: %s\n",
                l->suite, l->backend, pt->g.pid, op_names[pt->op], pt->n,
                pt->g.p, msg);
    /* The buffers back to the pattern for the next sample, and (one-sided)
     * a superstep between these stores and the next sample's puts. */
    mult_area_clear(pt->mem, &pt->m, written(pt->op));
    if (pt->area != NULL)
        l->sync(l, pt->area);
    return ok ? t : -1.0;
}

/* One point: the memory set up, li_measure, the row.  A BENCH_* status,
 * the same on every rank. */
static int point_run(point *pt, double *us)
{
    li_lib *l = pt->l;
    li_area area;
    l->progress(l, op_names[pt->op], pt->n);
    if (pt->op == OP_SEND) {
        pt->area = NULL;
        pt->mem = li_xmalloc(pt->m.bytes);
    } else {
        l->area_open(l, pt->m.bytes, &area);
        pt->area = &area;
        pt->mem = area.base;
    }
    mult_area_fill(pt->mem, &pt->m, pt->A, pt->B);
    if (pt->area != NULL)
        l->sync(l, pt->area); /* A and B visible to the peers */
    pt->round = 0;
    long count = li_measure(l, sample, pt, us);
    if (count > 0) {
        double moved = 2.0 * pt->g.P * (double)pt->m.block;
        l->emit(l, op_names[pt->op], pt->op == OP_SEND ? "p2p" : "fence",
                pt->op == OP_SEND ? "none" : "allocate", pt->n, moved, us,
                count);
    }
    if (pt->area != NULL)
        l->area_close(l, pt->area);
    else
        free(pt->mem);
    return count > 0 ? BENCH_OK : BENCH_FAIL;
}

static int op_selected(const li_lib *l, int op)
{
    const bench_opts *o = l->opts;
    if ((op == OP_SEND) != (l->two_sided != 0))
        return 0;
    return bench_list_has(o->ops, op_names[op]) &&
           bench_list_has(o->syncs, op == OP_SEND ? "p2p" : "fence");
}

/* Every selected op at order n: the blocks and the reference made once.
 * A BENCH_* status, the same on every rank. */
static int size_run(li_lib *l, const mult_grid *g, size_t n, double *us)
{
    point pt = {.l = l, .g = *g, .n = n};
    mult_area_init(n / (size_t)g->P, &pt.m);
    size_t bytes = pt.m.block;
    pt.A = li_xmalloc(bytes);
    pt.B = li_xmalloc(bytes);
    pt.C = li_xmalloc(bytes);
    pt.at = li_xmalloc(bytes);
    pt.ref = li_xmalloc(bytes);
    int st = BENCH_OK;
    if (mult_reference(g, n, pt.ref) != 0) {
        fprintf(stderr, "orma-bench: out of memory (the reference of n = "
                "%zu)\n", n);
        exit(BENCH_FAIL);
    }
    mult_block_fill(pt.A, 0, pt.m.N, g->pi, g->pj);
    mult_block_fill(pt.B, 1, pt.m.N, g->pi, g->pj);
    for (int op = 0; op < NOP; op++) {
        if (!op_selected(l, op))
            continue;
        pt.op = op;
        if (point_run(&pt, us) != BENCH_OK)
            st = BENCH_FAIL;
    }
    free(pt.A);
    free(pt.B);
    free(pt.C);
    free(pt.at);
    free(pt.ref);
    return st;
}

static int mult_run(li_lib *l)
{
    char msg[160];
    mult_grid g;
    if (mult_grid_init(l->nprocs, l->pid, &g) != 0) {
        snprintf(msg, sizeof msg, "mult: needs a square number of ranks "
                 "(1, 4, 9, 16, ...), not p = %d: nothing measured",
                 l->nprocs);
        l->note(l, msg);
        return BENCH_OK;
    }
    double *us = li_xmalloc(LI_MAX_SAMPLES * sizeof *us);
    int st = BENCH_OK;
    for (int i = 0; i < l->opts->nsizes; i++) {
        size_t n = l->opts->sizes[i];
        if (!mult_size_ok(n, g.P)) {
            snprintf(msg, sizeof msg, "mult: n = %zu skipped: n must be a "
                     "positive multiple of P = %d, at most %d", n, g.P,
                     MULT_MAX_N);
            l->note(l, msg);
            continue;
        }
        if (size_run(l, &g, n, us) != BENCH_OK)
            st = BENCH_FAIL;
    }
    free(us);
    return st;
}

const li_suite li_mult = {"mult", op_names, sync_names, mult_run,
                          mult_default_sizes};
