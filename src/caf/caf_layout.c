/* caf_layout.c -- a coarray section as one orma datatype: the elements a
 * descriptor (and, for vector subscripts, its vectors) names, in array
 * element order, so that a section moves in one typed put or get whatever
 * its strides, never element by element.
 *
 * The type of a strided section is nested hvectors of its dimensions over
 * a run of elem_len bytes (a dimension of unit stride folds into the run);
 * a vector-subscripted one is an hindexed_block of its elements.  Programs
 * move the same sections again and again (halo exchanges), so strided
 * types are kept in a small cache keyed by their shape. */
#include "caf_impl.h"

#include <stdlib.h>
#include <string.h>

size_t caf_desc_count(const struct caf_desc *d)
{
    size_t n = 1;
    for (int j = 0; j < d->dtype.rank; j++) {
        ptrdiff_t e = d->dim[j].ubound - d->dim[j].lbound + 1;
        if (e <= 0)
            return 0;
        n *= (size_t)e;
    }
    return n;
}

size_t caf_desc_elem(const struct caf_desc *d)
{
    return d->span > 0 ? (size_t)d->span : d->dtype.elem_len;
}

ptrdiff_t caf_desc_run(const struct caf_desc *d)
{
    ptrdiff_t run = (ptrdiff_t)d->dtype.elem_len, elem = (ptrdiff_t)caf_desc_elem(d);
    for (int j = 0; j < d->dtype.rank; j++) {
        ptrdiff_t e = d->dim[j].ubound - d->dim[j].lbound + 1;
        if (e <= 0)
            return 0;
        if (e > 1 && d->dim[j].stride * elem != run)
            return -1;
        run *= e;
    }
    return run;
}

/* ---- the cache of strided types ---- */

#define CAF_LAYOUT_CACHE 64

struct caf_shape {
    int rank;
    size_t len; /* bytes of one element */
    size_t ext[CAF_MAX_DIMS];
    ptrdiff_t step[CAF_MAX_DIMS]; /* bytes */
};

struct caf_cached {
    struct caf_shape s;
    orma_type type;
    int used;
    int held; /* layouts given out and not yet given back (a put whose two
                 sides have one shape holds it twice) */
};

static struct caf_cached caf_cache[CAF_LAYOUT_CACHE];

static unsigned caf_shape_hash(const struct caf_shape *s)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)s->rank ^ ((uint64_t)s->len << 8);
    for (int j = 0; j < s->rank; j++) {
        h = (h ^ (uint64_t)s->ext[j]) * 1099511628211ull;
        h = (h ^ (uint64_t)s->step[j]) * 1099511628211ull;
    }
    return (unsigned)(h ^ (h >> 29)) % CAF_LAYOUT_CACHE;
}

static int caf_shape_eq(const struct caf_shape *a, const struct caf_shape *b)
{
    if (a->rank != b->rank || a->len != b->len)
        return 0;
    for (int j = 0; j < a->rank; j++)
        if (a->ext[j] != b->ext[j] || a->step[j] != b->step[j])
            return 0;
    return 1;
}

static int caf_shape_build(const struct caf_shape *s, orma_type *out)
{
    orma_type t = ORMA_BYTE, next;
    size_t run = s->len;
    int j = 0, rc;
    /* Leading dimensions that continue the run fold into it. */
    while (j < s->rank && s->step[j] == (ptrdiff_t)run) {
        run *= s->ext[j];
        j++;
    }
    if ((rc = orma_type_contiguous(run, ORMA_BYTE, &t)) != ORMA_SUCCESS)
        return rc;
    for (; j < s->rank; j++) {
        rc = orma_type_hvector(s->ext[j], 1, s->step[j], t, &next);
        orma_type_free(&t);
        if (rc != ORMA_SUCCESS)
            return rc;
        t = next;
    }
    if ((rc = orma_type_commit(&t)) != ORMA_SUCCESS) {
        orma_type_free(&t);
        return rc;
    }
    *out = t;
    return ORMA_SUCCESS;
}

/* Marks types built here but not cached (vector subscripts, a busy slot). */
#define CAF_UNCACHED ((struct caf_cached *)0)

static int caf_layout_vector(const struct caf_desc *d, const struct caf_vec *vec, orma_type *type)
{
    int rank = d->dtype.rank;
    size_t elem = caf_desc_elem(d), n = 1, len = d->dtype.elem_len;
    size_t ext[CAF_MAX_DIMS];
    for (int j = 0; j < rank; j++) {
        if (vec[j].nvec)
            ext[j] = vec[j].nvec;
        else {
            ptrdiff_t st = vec[j].u.t.stride ? vec[j].u.t.stride : 1;
            ptrdiff_t e = (vec[j].u.t.upper - vec[j].u.t.lower) / st + 1;
            ext[j] = e > 0 ? (size_t)e : 0;
        }
        n *= ext[j];
    }
    if (n == 0)
        return orma_type_contiguous(0, ORMA_BYTE, type) == ORMA_SUCCESS ? orma_type_commit(type) : ORMA_ERR_NOMEM;
    orma_aint *disp = malloc(n * sizeof *disp);
    if (!disp)
        return ORMA_ERR_NOMEM;
    size_t idx[CAF_MAX_DIMS] = {0};
    for (size_t k = 0; k < n; k++) {
        orma_aint off = 0;
        for (int j = 0; j < rank; j++) {
            ptrdiff_t sub;
            if (vec[j].nvec) {
                const char *v = vec[j].u.v.vector;
                switch (vec[j].u.v.kind) {
                case 1: sub = ((const int8_t *)v)[idx[j]]; break;
                case 2: sub = ((const int16_t *)v)[idx[j]]; break;
                case 4: sub = ((const int32_t *)v)[idx[j]]; break;
                default: sub = (ptrdiff_t)((const int64_t *)v)[idx[j]]; break;
                }
            } else {
                sub = vec[j].u.t.lower + (ptrdiff_t)idx[j] * (vec[j].u.t.stride ? vec[j].u.t.stride : 1);
            }
            off += (orma_aint)((sub - d->dim[j].lbound) * d->dim[j].stride * (ptrdiff_t)elem);
        }
        disp[k] = off;
        for (int j = 0; j < rank; j++) {
            if (++idx[j] < ext[j])
                break;
            idx[j] = 0;
        }
    }
    orma_type run;
    int rc = orma_type_contiguous(len, ORMA_BYTE, &run);
    if (rc == ORMA_SUCCESS) {
        rc = orma_type_hindexed_block(n, 1, disp, run, type);
        orma_type_free(&run);
        if (rc == ORMA_SUCCESS && (rc = orma_type_commit(type)) != ORMA_SUCCESS)
            orma_type_free(type);
    }
    free(disp);
    return rc;
}

int caf_layout(const struct caf_desc *d, const struct caf_vec *vec, orma_type *type, int *how)
{
    *how = CAF_LAYOUT_OWN;
    if (vec)
        return caf_layout_vector(d, vec, type);
    /* One run of bytes (the common case, and the fast one): no shape. */
    size_t elem = caf_desc_elem(d);
    int rank = d->dtype.rank;
    if (caf_desc_run(d) >= 0) {
        *how = CAF_LAYOUT_BYTES;
        *type = ORMA_BYTE;
        return ORMA_SUCCESS;
    }
    /* The shape, dimensions of extent 1 dropped (they change nothing);
     * only its first rank dimensions are ever read. */
    struct caf_shape s;
    s.rank = 0;
    s.len = d->dtype.elem_len;
    for (int j = 0; j < rank; j++) {
        ptrdiff_t e = d->dim[j].ubound - d->dim[j].lbound + 1;
        if (e == 1)
            continue;
        s.ext[s.rank] = e > 0 ? (size_t)e : 0;
        s.step[s.rank++] = d->dim[j].stride * (ptrdiff_t)elem;
    }
    unsigned slot = caf_shape_hash(&s);
    struct caf_cached *c = &caf_cache[slot];
    if (c->used && caf_shape_eq(&c->s, &s)) {
        c->held++;
        *type = c->type;
        *how = (int)slot;
        return ORMA_SUCCESS;
    }
    orma_type t;
    int rc = caf_shape_build(&s, &t);
    if (rc != ORMA_SUCCESS)
        return rc;
    if (!c->held) {
        if (c->used)
            orma_type_free(&c->type);
        c->s = s;
        c->type = t;
        c->used = 1;
        c->held = 1;
        *how = (int)slot;
    }
    *type = t;
    return ORMA_SUCCESS;
}

void caf_layout_put(orma_type *type, int how)
{
    if (how >= 0)
        caf_cache[how].held--;
    else if (how == CAF_LAYOUT_OWN)
        orma_type_free(type);
}

/* Walks d's elements in array element order. */
#define CAF_WALK(d, body)                                                                                     \
    do {                                                                                                      \
        int rank_ = (d)->dtype.rank;                                                                          \
        size_t n_ = caf_desc_count(d), elem_ = caf_desc_elem(d);                                              \
        size_t idx_[CAF_MAX_DIMS] = {0};                                                                      \
        char *p_ = (char *)(d)->base;                                                                         \
        for (size_t k_ = 0; k_ < n_; k_++) {                                                                  \
            body;                                                                                             \
            for (int j_ = 0; j_ < rank_; j_++) {                                                              \
                ptrdiff_t e_ = (d)->dim[j_].ubound - (d)->dim[j_].lbound + 1;                                 \
                p_ += (d)->dim[j_].stride * (ptrdiff_t)elem_;                                                 \
                if (++idx_[j_] < (size_t)e_)                                                                  \
                    break;                                                                                    \
                p_ -= (d)->dim[j_].stride * (ptrdiff_t)elem_ * e_;                                            \
                idx_[j_] = 0;                                                                                 \
            }                                                                                                 \
        }                                                                                                     \
    } while (0)

void caf_desc_pack(const struct caf_desc *d, void *out)
{
    size_t len = d->dtype.elem_len;
    char *o = out;
    CAF_WALK(d, (memcpy(o, p_, len), o += len));
}

void caf_desc_unpack(const struct caf_desc *d, const void *in)
{
    size_t len = d->dtype.elem_len;
    const char *i = in;
    CAF_WALK(d, (memcpy(p_, i, len), i += len));
}
