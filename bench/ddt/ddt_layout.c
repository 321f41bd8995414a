/* ddt_layout.c -- datatypes built twice (ddt.h): orma's constructors, and
 * a mirror the bench flattens itself to know where every byte must land.
 * The mirror follows MPI's definitions: a (h)vector, (h)indexed or struct
 * is a list of blocks of elements of an old type, a subarray is nested
 * hvectors placed at its start and resized to the whole array. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ddt.h"

static ddt_node *node_new(ddt_arena *a, size_t count)
{
    ddt_node *n = bench_xmalloc(sizeof *n);
    memset(n, 0, sizeof *n);
    n->count = count;
    n->bl = bench_xmalloc((count ? count : 1) * sizeof *n->bl);
    n->disp = bench_xmalloc((count ? count : 1) * sizeof *n->disp);
    n->sub = bench_xmalloc((count ? count : 1) * sizeof *n->sub);
    n->next = a->head;
    a->head = n;
    return n;
}

static int failed(ddt_arena *a, int rc, const char *call)
{
    if (rc == ORMA_SUCCESS)
        return 0;
    fprintf(stderr, "orma-bench: ddt: %s: %s (%s)\n", call, orma_strerror(rc),
            orma_error_message());
    a->failed = 1;
    return 1;
}

/* Size and bounds of a block list, as MPI computes them. */
static void set_bounds(ddt_node *n)
{
    int any = 0;
    orma_aint lo = 0, hi = 0;
    n->size = 0;
    for (size_t b = 0; b < n->count; b++) {
        const ddt_node *s = n->sub[b];
        n->size += n->bl[b] * s->size;
        if (n->bl[b] == 0)
            continue;
        orma_aint l = n->disp[b] + s->lb;
        orma_aint h = l + (orma_aint)n->bl[b] * s->extent;
        if (!any || l < lo)
            lo = l;
        if (!any || h > hi)
            hi = h;
        any = 1;
    }
    n->lb = lo;
    n->extent = hi - lo;
}

ddt_node *ddt_basic(ddt_arena *a, orma_type type)
{
    size_t sz;
    if (a->failed || failed(a, orma_type_size(type, &sz), "orma_type_size"))
        return NULL;
    ddt_node *n = node_new(a, 0);
    n->type = type;
    n->basic = n->size = sz;
    n->extent = (orma_aint)sz;
    return n;
}

/* A node of count blocks of bl[b] elements of old at disp[b] bytes. */
static ddt_node *blocks(ddt_arena *a, size_t count, const size_t *bl,
                        size_t one_bl, const orma_aint *disp,
                        ddt_node *const *subs, ddt_node *old)
{
    ddt_node *n = node_new(a, count);
    for (size_t b = 0; b < count; b++) {
        n->bl[b] = bl ? bl[b] : one_bl;
        n->disp[b] = disp[b];
        n->sub[b] = subs ? subs[b] : old;
    }
    set_bounds(n);
    return n;
}

static ddt_node *strided(ddt_arena *a, size_t count, size_t bl,
                         orma_aint stride_bytes, ddt_node *old)
{
    orma_aint *d = bench_xmalloc((count ? count : 1) * sizeof *d);
    for (size_t i = 0; i < count; i++)
        d[i] = (orma_aint)i * stride_bytes;
    ddt_node *n = blocks(a, count, NULL, bl, d, NULL, old);
    free(d);
    return n;
}

ddt_node *ddt_contiguous(ddt_arena *a, size_t count, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_contiguous(count, old->type, &t),
               "orma_type_contiguous"))
        return NULL;
    ddt_node *n = strided(a, 1, count, 0, old);
    n->type = t;
    return n;
}

ddt_node *ddt_vector(ddt_arena *a, size_t count, size_t bl, orma_aint stride,
                     ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_vector(count, bl, stride, old->type, &t),
               "orma_type_vector"))
        return NULL;
    ddt_node *n = strided(a, count, bl, stride * old->extent, old);
    n->type = t;
    return n;
}

ddt_node *ddt_hvector(ddt_arena *a, size_t count, size_t bl,
                      orma_aint stride_bytes, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_hvector(count, bl, stride_bytes, old->type, &t),
               "orma_type_hvector"))
        return NULL;
    ddt_node *n = strided(a, count, bl, stride_bytes, old);
    n->type = t;
    return n;
}

static ddt_node *scaled_blocks(ddt_arena *a, size_t count, const size_t *bl,
                               size_t one_bl, const orma_aint *disp,
                               orma_aint unit, ddt_node *old)
{
    orma_aint *d = bench_xmalloc((count ? count : 1) * sizeof *d);
    for (size_t i = 0; i < count; i++)
        d[i] = disp[i] * unit;
    ddt_node *n = blocks(a, count, bl, one_bl, d, NULL, old);
    free(d);
    return n;
}

ddt_node *ddt_indexed_block(ddt_arena *a, size_t count, size_t bl,
                            const orma_aint *disp, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_indexed_block(count, bl, disp, old->type, &t),
               "orma_type_indexed_block"))
        return NULL;
    ddt_node *n = scaled_blocks(a, count, NULL, bl, disp, old->extent, old);
    n->type = t;
    return n;
}

ddt_node *ddt_hindexed_block(ddt_arena *a, size_t count, size_t bl,
                             const orma_aint *disp_bytes, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_hindexed_block(count, bl, disp_bytes, old->type,
                                           &t),
               "orma_type_hindexed_block"))
        return NULL;
    ddt_node *n = scaled_blocks(a, count, NULL, bl, disp_bytes, 1, old);
    n->type = t;
    return n;
}

ddt_node *ddt_indexed(ddt_arena *a, size_t count, const size_t *bl,
                      const orma_aint *disp, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_indexed(count, bl, disp, old->type, &t),
               "orma_type_indexed"))
        return NULL;
    ddt_node *n = scaled_blocks(a, count, bl, 0, disp, old->extent, old);
    n->type = t;
    return n;
}

ddt_node *ddt_struct(ddt_arena *a, size_t count, const size_t *bl,
                     const orma_aint *disp_bytes, ddt_node *const *subs)
{
    if (a->failed)
        return NULL;
    orma_type *types = bench_xmalloc(count * sizeof *types);
    for (size_t i = 0; i < count; i++)
        types[i] = subs[i] ? subs[i]->type : NULL;
    orma_type t;
    int rc = orma_type_struct(count, bl, disp_bytes, types, &t);
    free(types);
    if (failed(a, rc, "orma_type_struct"))
        return NULL;
    ddt_node *n = blocks(a, count, bl, 0, disp_bytes, subs, NULL);
    n->type = t;
    n->is_struct = 1;
    return n;
}

ddt_node *ddt_subarray(ddt_arena *a, int ndims, const size_t *sizes,
                       const size_t *subsizes, const size_t *starts,
                       int order, ddt_node *old)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_subarray(ndims, sizes, subsizes, starts, order,
                                     old->type, &t),
               "orma_type_subarray"))
        return NULL;
    /* Fastest dimension innermost: the last in C order, the first in
     * Fortran order. */
    ddt_node *in = old;
    orma_aint stride = old->extent, first = 0;
    for (int k = 0; k < ndims; k++) {
        int d = order == ORMA_ORDER_C ? ndims - 1 - k : k;
        in = strided(a, subsizes[d], 1, stride, in);
        first += (orma_aint)starts[d] * stride;
        stride *= (orma_aint)sizes[d];
    }
    ddt_node *placed = blocks(a, 1, NULL, 1, &first, NULL, in);
    ddt_node *n = blocks(a, 1, NULL, 1, &(orma_aint){0}, NULL, placed);
    n->lb = 0;
    n->extent = stride;
    n->type = t;
    return n;
}

ddt_node *ddt_resized(ddt_arena *a, ddt_node *old, orma_aint lb,
                      orma_aint extent)
{
    orma_type t;
    if (a->failed || old == NULL ||
        failed(a, orma_type_resized(old->type, lb, extent, &t),
               "orma_type_resized"))
        return NULL;
    ddt_node *n = blocks(a, 1, NULL, 1, &(orma_aint){0}, NULL, old);
    n->lb = lb;
    n->extent = extent;
    n->type = t;
    return n;
}

int ddt_commit(ddt_arena *a, ddt_node *n)
{
    if (a->failed || n == NULL)
        return -1;
    if (failed(a, orma_type_commit(&n->type), "orma_type_commit"))
        return -1;
    size_t size;
    orma_aint lb, extent;
    if (failed(a, orma_type_size(n->type, &size), "orma_type_size") ||
        failed(a, orma_type_get_extent(n->type, &lb, &extent),
               "orma_type_get_extent"))
        return -1;
    if (size != n->size || (!n->is_struct && (lb != n->lb ||
                                              extent != n->extent))) {
        fprintf(stderr, "orma-bench: ddt: orma says size %zu, lb %td, "
                "extent %td; the layout has size %zu, lb %td, extent %td\n",
                size, lb, extent, n->size, n->lb, n->extent);
        a->failed = 1;
        return -1;
    }
    return 0;
}

void ddt_arena_free(ddt_arena *a)
{
    while (a->head != NULL) {
        ddt_node *n = a->head;
        a->head = n->next;
        if (n->type != NULL && n->basic == 0)
            BENCH_CHECK(orma_type_free(&n->type));
        free(n->bl);
        free(n->disp);
        free(n->sub);
        free(n);
    }
}

static int push(ddt_runs *r, orma_aint off, size_t len)
{
    if (off < 0)
        return -1;
    size_t o = (size_t)off;
    if (r->n > 0 && r->v[r->n - 1].off + r->v[r->n - 1].len == o) {
        r->v[r->n - 1].len += len;
    } else {
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 256;
            ddt_run *nv = realloc(r->v, r->cap * sizeof *nv);
            if (nv == NULL) {
                fprintf(stderr, "orma-bench: out of memory\n");
                exit(1);
            }
            r->v = nv;
        }
        r->v[r->n].off = o;
        r->v[r->n].len = len;
        r->n++;
    }
    r->bytes += len;
    if (o + len > r->end)
        r->end = o + len;
    return 0;
}

static int walk(const ddt_node *n, orma_aint at, ddt_runs *r)
{
    if (n->count == 0 && n->basic > 0)
        return push(r, at, n->basic);
    for (size_t b = 0; b < n->count; b++)
        for (size_t i = 0; i < n->bl[b]; i++)
            if (walk(n->sub[b], at + n->disp[b] + (orma_aint)i *
                                          n->sub[b]->extent, r) != 0)
                return -1;
    return 0;
}

int ddt_flatten(const ddt_node *n, ddt_runs *r)
{
    memset(r, 0, sizeof *r);
    return walk(n, 0, r);
}

void ddt_runs_free(ddt_runs *r)
{
    free(r->v);
    memset(r, 0, sizeof *r);
}

int ddt_case_finish(ddt_case *c, ddt_node *o, ddt_node *t)
{
    c->origin = o;
    c->target = t;
    if (ddt_commit(&c->arena, o) != 0 || ddt_commit(&c->arena, t) != 0)
        return -1;
    return 0;
}
