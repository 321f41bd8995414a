/* dtype_check.c -- invariants of any datatype (see dtype_check.h). */
#include "dtype_check.h"
#include "dtype_derived.h"
#include "dtype_iter.h"
#include "dtype_serial.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dtype_check_fail(const char *what, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "datatype check failed (%s): ", what ? what : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static int is_contig(orma_type t, size_t count, const char *what)
{
    int flag = -1;
    DCHECK(what, orma_type_is_contiguous(t, count, &flag) == ORMA_SUCCESS && (flag == 0 || flag == 1));
    return flag;
}

/* Committed, small, and near offset 0: a buffer's address minus the true
 * lower bound must still be an address. */
static int small_enough(orma_type t)
{
    const struct dtype_node *n = dtype_layout(t);
    return (t->predefined || dtype_derived_of(t)->committed) && t->size <= DTYPE_CHECK_MAX_SPAN &&
           n->true_ub - n->true_lb <= DTYPE_CHECK_MAX_SPAN && n->true_lb > -DTYPE_CHECK_MAX_SPAN &&
           n->true_ub < DTYPE_CHECK_MAX_SPAN;
}

/* The runs of one element: within the true bounds and reaching both, as
 * many bytes as the size, in order from 0 exactly when the type says it
 * is contiguous. */
static void check_runs(orma_type t, const char *what)
{
    const struct dtype_node *n = dtype_layout(t);
    struct dtype_iter it;
    ptrdiff_t o, lo = n->true_ub, hi = n->true_lb, next = 0;
    size_t len, total = 0;
    int in_order = 1;
    dtype_iter_init(&it, t, 1);
    while (dtype_iter_next(&it, SIZE_MAX, &o, &len)) {
        DCHECK(what, len > 0 && o >= n->true_lb && o + (ptrdiff_t)len <= n->true_ub);
        total += len;
        DCHECK(what, total <= t->size);
        lo = o < lo ? o : lo;
        hi = o + (ptrdiff_t)len > hi ? o + (ptrdiff_t)len : hi;
        in_order &= o == next;
        next = o + (ptrdiff_t)len;
    }
    DCHECK(what, total == t->size);
    DCHECK(what, t->size == 0 || (lo == n->true_lb && hi == n->true_ub));
    DCHECK(what, is_contig(t, 1, what) == in_order);
}

/* A buffer of exactly the true extent (so that a sanitizer sees any byte
 * reached outside it), filled with a pattern; *base_p is offset 0. */
static unsigned char *span_alloc(orma_type t, unsigned char **base_p)
{
    const struct dtype_node *n = dtype_layout(t);
    size_t span = (size_t)(n->true_ub - n->true_lb);
    unsigned char *mem = malloc(span ? span : 1);
    DCHECK("span_alloc", mem != NULL);
    for (size_t i = 0; i < span; i++)
        mem[i] = (unsigned char)(i * 131u + (i >> 8) * 7u + 1u);
    *base_p = mem - n->true_lb;
    return mem;
}

static unsigned char *packed_of(orma_type t, const unsigned char *base, const char *what)
{
    unsigned char *packed = malloc(t->size ? t->size : 1);
    size_t pos = 0;
    DCHECK(what, packed != NULL);
    DCHECK(what, orma_pack(base, 1, t, packed, t->size, &pos) == ORMA_SUCCESS && pos == t->size);
    return packed;
}

static void check_pack(orma_type t, const char *what)
{
    const struct dtype_node *n = dtype_layout(t);
    unsigned char *base, *mem = span_alloc(t, &base), *packed = packed_of(t, base, what);
    /* the packed bytes are the runs' bytes in order */
    struct dtype_iter it;
    ptrdiff_t o;
    size_t len, k = 0;
    dtype_iter_init(&it, t, 1);
    while (dtype_iter_next(&it, SIZE_MAX, &o, &len))
        for (size_t b = 0; b < len; b++, k++)
            DCHECK(what, packed[k] == base[o + (ptrdiff_t)b]);
    /* unpacking them where they came from changes nothing, even where
     * blocks overlap */
    size_t span = (size_t)(n->true_ub - n->true_lb), pos = 0;
    unsigned char *copy = malloc(span ? span : 1);
    DCHECK(what, copy != NULL);
    memcpy(copy, mem, span);
    DCHECK(what, orma_unpack(packed, t->size, &pos, copy - n->true_lb, 1, t) == ORMA_SUCCESS && pos == t->size);
    DCHECK(what, memcmp(copy, mem, span) == 0);
    free(copy);
    free(packed);
    free(mem);
}

void dtype_check_type(orma_type t, const char *what)
{
    size_t size = 0;
    orma_aint lb = 0, ext = 0, tlb = 0, text = 0;
    DCHECK(what, dtype_is_type(t));
    const struct dtype_node *n = dtype_layout(t);
    DCHECK(what, orma_type_size(t, &size) == ORMA_SUCCESS && size == t->size && size == n->size);
    DCHECK(what, orma_type_get_extent(t, &lb, &ext) == ORMA_SUCCESS && lb == dtype_lb(t) && ext == dtype_extent(t));
    DCHECK(what, t->extent == (ext > 0 ? (size_t)ext : 0));
    DCHECK(what, orma_type_get_true_extent(t, &tlb, &text) == ORMA_SUCCESS && tlb == n->true_lb &&
                     text == n->true_ub - n->true_lb);
    DCHECK(what, size == 0 ? tlb == 0 && text == 0 : text > 0);
    DCHECK(what, n->depth >= 1 && n->depth <= DTYPE_MAX_DEPTH);
    DCHECK(what, t->contiguous == (lb == 0 && ext == (orma_aint)size && is_contig(t, 1, what)));
    DCHECK(what, is_contig(t, 0, what) == 1);
    if (!small_enough(t))
        return;
    check_runs(t, what);
    check_pack(t, what);
}

void dtype_check_roundtrip(orma_type t, const char *what)
{
    size_t need = 0, len = 0;
    DCHECK(what, dtype_serialize(t, NULL, 0, &need) == ORMA_ERR_COUNT && need >= 12);
    unsigned char *s = malloc(need), *again = malloc(need);
    DCHECK(what, s && again);
    DCHECK(what, dtype_serialize(t, s, need - 1, &len) == ORMA_ERR_COUNT && len == need);
    DCHECK(what, dtype_serialize(t, s, need, &len) == ORMA_SUCCESS && len == need);
    orma_type u = NULL;
    DCHECK(what, dtype_deserialize(s, need, &u) == ORMA_SUCCESS);
    DCHECK(what, t->predefined ? u == t : u != t && !u->predefined && dtype_derived_of(u)->committed);
    DCHECK(what, dtype_serialize(u, again, need, &len) == ORMA_SUCCESS && len == need && !memcmp(s, again, need));
    const struct dtype_node *n = dtype_layout(t), *m = dtype_layout(u);
    DCHECK(what, u->size == t->size && u->extent == t->extent && u->contiguous == t->contiguous);
    DCHECK(what, dtype_lb(u) == dtype_lb(t) && dtype_extent(u) == dtype_extent(t));
    DCHECK(what, m->true_lb == n->true_lb && m->true_ub == n->true_ub && m->depth == n->depth);
    DCHECK(what, dtype_basic(u) == dtype_basic(t) && dtype_align(u) == dtype_align(t));
    DCHECK(what, is_contig(u, 1, what) == is_contig(t, 1, what) && is_contig(u, 2, what) == is_contig(t, 2, what));
    dtype_check_type(u, what);
    if (small_enough(t)) {
        unsigned char *base, *mem = span_alloc(t, &base);
        unsigned char *pt = packed_of(t, base, what), *pu = packed_of(u, base, what);
        DCHECK(what, memcmp(pt, pu, t->size) == 0);
        free(pt);
        free(pu);
        free(mem);
    }
    if (!u->predefined)
        DCHECK(what, orma_type_free(&u) == ORMA_SUCCESS && u == NULL);
    free(s);
    free(again);
}
