/* caf_ref.c -- references through components: x[i]%comp(...), and every
 * access to a coarray of a derived type with allocatable components, which
 * gfortran makes as a chain of references (_gfortran_caf_*_by_ref).
 *
 * An allocatable component is registered on every image as a dynamic
 * window of its own (caf_reg.c); an image that allocates it attaches the
 * memory there.  To reach image i's component, the walk reads the
 * component's descriptor (or pointer) out of image i's coarray -- one small
 * orma_get -- and goes on in the component's window at the address it
 * holds, with image i's bounds.  The component's window is found through
 * this image's own copy of the object, whose hidden token field names the
 * same (collectively made) window.  The walk ends with the displacements
 * of the elements referenced; they move in one typed orma_get or orma_put
 * (an hindexed layout), or one per element where they lie in several
 * windows (an array of derived type whose elements each own a component). */
#include "caf_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference chain gfortran builds (libcaf.h's caf_reference_t). */
enum { CAF_REF_COMPONENT, CAF_REF_ARRAY, CAF_REF_STATIC_ARRAY };
enum {
    CAF_ARR_NONE = 0,
    CAF_ARR_VECTOR,
    CAF_ARR_FULL,
    CAF_ARR_RANGE,
    CAF_ARR_SINGLE,
    CAF_ARR_OPEN_END,
    CAF_ARR_OPEN_START,
};

struct caf_ref {
    struct caf_ref *next;
    int type;
    size_t item_size;
    union {
        struct {
            ptrdiff_t offset;
            ptrdiff_t caf_token_offset;
        } c;
        struct {
            unsigned char mode[CAF_MAX_DIMS];
            int static_array_type;
            union {
                struct {
                    ptrdiff_t start, end, stride;
                } s;
                struct {
                    void *vector;
                    size_t nvec;
                    int kind;
                } v;
            } dim[CAF_MAX_DIMS];
        } a;
    } u;
};

/* A descriptor with room for every dimension. */
struct caf_fulldesc {
    struct caf_desc d;
    struct caf_dim dims[CAF_MAX_DIMS];
};

/* Where one referenced object is: in which window at which displacement
 * on the target, and the same object on this image (NULL where unknown). */
struct caf_place {
    orma_win win;
    orma_aint disp;
    char *local;
    struct caf_fulldesc *desc; /* of the array it is, when an array ref follows */
};

struct caf_walk {
    int r;
    struct caf_place *pl;
    size_t n;
    size_t item;
    int ndims;                 /* extents of the first non-scalar array ref */
    size_t ext[CAF_MAX_DIMS];
    int unallocated;           /* the walk met a component not allocated there */
    char err[160];
};

static void caf_walk_free(struct caf_walk *w)
{
    for (size_t k = 0; k < w->n; k++)
        free(w->pl[k].desc);
    free(w->pl);
    w->pl = NULL;
    w->n = 0;
}

static int caf_walk_err(struct caf_walk *w, const char *msg)
{
    snprintf(w->err, sizeof w->err, "%s", msg);
    return -1;
}

/* Reads the descriptor at disp in win on rank r (its header, then as many
 * dimensions as it has). */
static int caf_read_desc(orma_win win, int r, orma_aint disp, struct caf_fulldesc *out)
{
    size_t head = sizeof(struct caf_desc);
    int rc = orma_get(out, head, ORMA_BYTE, r, disp, head, ORMA_BYTE, win);
    if (rc == ORMA_SUCCESS)
        rc = orma_win_flush(r, win);
    int rank = out->d.dtype.rank;
    if (rc == ORMA_SUCCESS && rank > 0 && rank <= CAF_MAX_DIMS) {
        size_t dims = (size_t)rank * sizeof(struct caf_dim);
        rc = orma_get(out->dims, dims, ORMA_BYTE, r, disp + (orma_aint)head, dims, ORMA_BYTE, win);
        if (rc == ORMA_SUCCESS)
            rc = orma_win_flush(r, win);
    }
    return rc;
}

static int caf_read_ptr(orma_win win, int r, orma_aint disp, void **out)
{
    int rc = orma_get(out, sizeof *out, ORMA_BYTE, r, disp, sizeof *out, ORMA_BYTE, win);
    return rc == ORMA_SUCCESS ? orma_win_flush(r, win) : rc;
}

/* A component reference, for every place. */
static int caf_walk_component(struct caf_walk *w, const struct caf_ref *ref)
{
    int array_next = ref->next && ref->next->type == CAF_REF_ARRAY;
    for (size_t k = 0; k < w->n; k++) {
        struct caf_place *p = &w->pl[k];
        free(p->desc);
        p->desc = NULL;
        if (ref->u.c.caf_token_offset <= 0) {
            if (array_next)
                return caf_walk_err(w, "a reference to an array component that has no registration");
            p->disp += ref->u.c.offset;
            if (p->local)
                p->local += ref->u.c.offset;
            continue;
        }
        /* An allocatable component: its registration is in this image's
         * copy of the object. */
        if (!p->local)
            return caf_walk_err(w, "a component inside a component this image has not allocated");
        struct caf_token *ct = *(struct caf_token **)(p->local + ref->u.c.caf_token_offset);
        if (!ct || ct->kind != CAF_REG_COARRAY_ALLOC_REGISTER_ONLY)
            return caf_walk_err(w, "a component that is not allocatable (a pointer component is not reachable)");
        orma_aint at = p->disp + ref->u.c.offset;
        char *local_comp = p->local + ref->u.c.offset;
        void *base = NULL;
        if (array_next) {
            if (!(p->desc = malloc(sizeof *p->desc)))
                return caf_walk_err(w, "out of memory");
            if (caf_read_desc(p->win, w->r, at, p->desc) != ORMA_SUCCESS)
                return caf_walk_err(w, orma_error_message());
            base = p->desc->d.base;
            p->local = ((struct caf_desc *)local_comp)->base;
        } else {
            if (caf_read_ptr(p->win, w->r, at, &base) != ORMA_SUCCESS)
                return caf_walk_err(w, orma_error_message());
            p->local = *(char **)local_comp;
        }
        if (!base) {
            w->unallocated = 1;
            return caf_walk_err(w, "a component that is not allocated there");
        }
        p->win = ct->win;
        p->disp = (orma_aint)(uintptr_t)base;
    }
    w->item = ref->item_size;
    return 0;
}

static ptrdiff_t caf_vec_at(const struct caf_ref *ref, int i, size_t k)
{
    const char *v = ref->u.a.dim[i].v.vector;
    switch (ref->u.a.dim[i].v.kind) {
    case 1: return ((const int8_t *)v)[k];
    case 2: return ((const int16_t *)v)[k];
    case 4: return ((const int32_t *)v)[k];
    default: return (ptrdiff_t)((const int64_t *)v)[k];
    }
}

/* The subscripts one dimension of an array reference names, other than a
 * vector's, as a triplet: the first, the step and how many (0 or more); lb
 * and ub the bounds the open modes reach to.  0, or -1 for a vector
 * subscript or an unknown mode. */
static int caf_dim_triplet(const struct caf_ref *ref, int i, ptrdiff_t lb, ptrdiff_t ub, ptrdiff_t *from_p,
                           ptrdiff_t *step_p, ptrdiff_t *n_p)
{
    ptrdiff_t from, to, step = ref->u.a.dim[i].s.stride ? ref->u.a.dim[i].s.stride : 1;
    switch (ref->u.a.mode[i]) {
    case CAF_ARR_FULL: from = lb; to = ub; break;
    case CAF_ARR_RANGE: from = ref->u.a.dim[i].s.start; to = ref->u.a.dim[i].s.end; break;
    case CAF_ARR_SINGLE: from = to = ref->u.a.dim[i].s.start; step = 1; break;
    case CAF_ARR_OPEN_END: from = ref->u.a.dim[i].s.start; to = ub; break;
    case CAF_ARR_OPEN_START: from = lb; to = ref->u.a.dim[i].s.end; break;
    default: return -1;
    }
    ptrdiff_t n = (to - from) / step + 1;
    *from_p = from;
    *step_p = step;
    *n_p = n < 0 ? 0 : n;
    return 0;
}

/* Whether every subscript of a triplet lies in lb..ub. */
static int caf_triplet_inside(ptrdiff_t from, ptrdiff_t step, ptrdiff_t n, ptrdiff_t lb, ptrdiff_t ub)
{
    ptrdiff_t last = from + (n - 1) * step;
    return n == 0 || (from >= lb && from <= ub && last >= lb && last <= ub);
}

/* The element offsets (in items) one dimension of an array reference
 * names, into offs (count returned; -1 for an unknown mode).  With a
 * descriptor (ARRAY) the subscripts are the array's; without (STATIC_ARRAY)
 * they are offsets already. */
static ptrdiff_t caf_dim_offsets(const struct caf_ref *ref, int i, const struct caf_dim *dim, ptrdiff_t **offs)
{
    ptrdiff_t lb = dim ? dim->lbound : 0, ub = dim ? dim->ubound : ref->u.a.dim[i].s.end;
    ptrdiff_t st = dim ? dim->stride : 1;
    if (ref->u.a.mode[i] == CAF_ARR_VECTOR) {
        size_t n = ref->u.a.dim[i].v.nvec;
        if (!(*offs = malloc((n ? n : 1) * sizeof **offs)))
            return -1;
        for (size_t k = 0; k < n; k++) {
            ptrdiff_t sub = caf_vec_at(ref, i, k);
            if (dim && (sub < lb || sub > ub))
                return -2;
            (*offs)[k] = (sub - lb) * st;
        }
        return (ptrdiff_t)n;
    }
    ptrdiff_t from, step, n;
    if (caf_dim_triplet(ref, i, lb, ub, &from, &step, &n) != 0)
        return -1;
    /* With the target's own bounds known (a descriptor), every subscript
     * must be inside them: another image's component may be smaller. */
    if (dim && !caf_triplet_inside(from, step, n, lb, ub))
        return -2;
    if (!(*offs = malloc((size_t)(n ? n : 1) * sizeof **offs)))
        return -1;
    for (ptrdiff_t k = 0; k < n; k++)
        (*offs)[k] = (from + k * step - lb) * st;
    return n;
}

/* An array reference, for every place: each becomes the elements it names,
 * in array element order. */
static int caf_walk_array(struct caf_walk *w, const struct caf_ref *ref, const struct caf_desc *top)
{
    struct caf_place *out = NULL;
    size_t nout = 0;
    for (size_t k = 0; k < w->n; k++) {
        struct caf_place *p = &w->pl[k];
        const struct caf_desc *d = ref->type == CAF_REF_ARRAY ? (p->desc ? &p->desc->d : top) : NULL;
        if (ref->type == CAF_REF_ARRAY && !d)
            return caf_walk_err(w, "an array reference with no bounds known");
        ptrdiff_t *offs[CAF_MAX_DIMS] = {0}, cnt[CAF_MAX_DIMS];
        int nd = 0, bad = 0;
        size_t total = 1;
        for (int i = 0; i < CAF_MAX_DIMS && ref->u.a.mode[i] != CAF_ARR_NONE; i++, nd++) {
            cnt[i] = caf_dim_offsets(ref, i, d ? &d->dim[i] : NULL, &offs[i]);
            if (cnt[i] == -2) {
                for (int j = 0; j <= i; j++)
                    free(offs[j]);
                free(out);
                snprintf(w->err, sizeof w->err, "subscript out of the bounds there (dimension %d: %td..%td)", i + 1,
                         d->dim[i].lbound, d->dim[i].ubound);
                return -1;
            }
            if (cnt[i] < 0)
                bad = 1;
            else
                total *= (size_t)cnt[i];
        }
        if (!bad && k == 0 && w->ndims == 0) {
            for (int i = 0; i < nd; i++)
                if (ref->u.a.mode[i] != CAF_ARR_SINGLE)
                    w->ext[w->ndims++] = (size_t)cnt[i];
        }
        struct caf_place *grown = bad ? NULL : realloc(out, (nout + total + 1) * sizeof *out);
        if (!grown) {
            for (int i = 0; i < nd; i++)
                free(offs[i]);
            free(out);
            return caf_walk_err(w, bad ? "an array reference of an unknown kind" : "out of memory");
        }
        out = grown;
        size_t idx[CAF_MAX_DIMS] = {0};
        for (size_t e = 0; e < total; e++) {
            ptrdiff_t off = 0;
            for (int i = 0; i < nd; i++)
                off += offs[i][idx[i]];
            orma_aint bytes = (orma_aint)(off * (ptrdiff_t)ref->item_size);
            out[nout++] = (struct caf_place){p->win, p->disp + bytes, p->local ? p->local + bytes : NULL, NULL};
            for (int i = 0; i < nd; i++) {
                if (++idx[i] < (size_t)cnt[i])
                    break;
                idx[i] = 0;
            }
        }
        for (int i = 0; i < nd; i++)
            free(offs[i]);
    }
    caf_walk_free(w);
    w->pl = out;
    w->n = nout;
    w->item = ref->item_size;
    return 0;
}

/* Follows refs from coarray t on rank r; 0, or -1 with w->err said. */
static int caf_walk(struct caf_walk *w, struct caf_token *t, int r, const struct caf_ref *refs)
{
    memset(w, 0, sizeof *w);
    w->r = caf_win_rank(t, r); /* components are registered with their coarray, in its team */
    if (!(w->pl = calloc(1, sizeof *w->pl)))
        return caf_walk_err(w, "out of memory");
    w->n = 1;
    w->pl[0] = (struct caf_place){t->win, 0, t->base, NULL};
    w->item = t->size;
    for (const struct caf_ref *ref = refs; ref; ref = ref->next) {
        int rc;
        if (ref->type == CAF_REF_COMPONENT)
            rc = caf_walk_component(w, ref);
        else if (ref->type == CAF_REF_ARRAY || ref->type == CAF_REF_STATIC_ARRAY)
            rc = caf_walk_array(w, ref, ref == refs ? t->desc : NULL);
        else
            rc = caf_walk_err(w, "a reference of an unknown kind");
        if (rc)
            return rc;
    }
    return 0;
}

/* Moves the walk's elements (item bytes each) from or into buf. */
static int caf_walk_move(int put, struct caf_walk *w, void *buf)
{
    size_t n = w->n, item = w->item;
    if (!n)
        return ORMA_SUCCESS;
    int one_window = 1;
    for (size_t k = 1; k < n; k++)
        if (w->pl[k].win != w->pl[0].win)
            one_window = 0;
    int rc = ORMA_SUCCESS;
    if (one_window) {
        orma_aint base = w->pl[0].disp;
        for (size_t k = 1; k < n; k++)
            if (w->pl[k].disp < base)
                base = w->pl[k].disp;
        orma_aint *disp = malloc(n * sizeof *disp);
        if (!disp)
            return ORMA_ERR_NOMEM;
        for (size_t k = 0; k < n; k++)
            disp[k] = w->pl[k].disp - base;
        orma_type run, layout;
        rc = orma_type_contiguous(item, ORMA_BYTE, &run);
        if (rc == ORMA_SUCCESS) {
            rc = orma_type_hindexed_block(n, 1, disp, run, &layout);
            orma_type_free(&run);
        }
        free(disp);
        if (rc == ORMA_SUCCESS && (rc = orma_type_commit(&layout)) == ORMA_SUCCESS) {
            if (put)
                rc = orma_put_typed(buf, n * item, ORMA_BYTE, w->r, base, 1, layout, w->pl[0].win);
            else
                rc = orma_get_typed(buf, n * item, ORMA_BYTE, w->r, base, 1, layout, w->pl[0].win);
            if (rc == ORMA_SUCCESS)
                rc = orma_win_flush(w->r, w->pl[0].win);
            orma_type_free(&layout);
        }
        return rc;
    }
    char *b = buf;
    for (size_t k = 0; k < n && rc == ORMA_SUCCESS; k++, b += item) {
        if (put)
            rc = orma_put(b, item, ORMA_BYTE, w->r, w->pl[k].disp, item, ORMA_BYTE, w->pl[k].win);
        else
            rc = orma_get(b, item, ORMA_BYTE, w->r, w->pl[k].disp, item, ORMA_BYTE, w->pl[k].win);
        if (rc == ORMA_SUCCESS)
            rc = orma_win_flush(w->r, w->pl[k].win);
    }
    return rc;
}

/* Gives dst (unallocated, or of another shape, and reallocatable) the
 * shape the walk found, for n elements. */
static int caf_dst_shape(struct caf_desc *dst, const struct caf_walk *w, size_t n, bool reallocatable)
{
    size_t have = dst->base ? caf_desc_count(dst) : 0;
    if (dst->base && have == n)
        return 0;
    if (!reallocatable)
        return -1;
    free(dst->base);
    size_t len = dst->dtype.elem_len;
    if (!(dst->base = malloc(n * len > 0 ? n * len : 1)))
        return -1;
    int rank = dst->dtype.rank;
    ptrdiff_t stride = 1, offset = 0;
    for (int i = 0; i < rank; i++) {
        size_t e = i < w->ndims ? w->ext[i] : (i == 0 ? n : 1);
        dst->dim[i].lbound = 1;
        dst->dim[i].ubound = (ptrdiff_t)e;
        dst->dim[i].stride = stride;
        offset -= stride;
        stride *= (ptrdiff_t)e;
    }
    dst->offset = (size_t)offset;
    dst->span = (ptrdiff_t)len;
    return 0;
}

static void caf_ref_fail(int *stat, int image, const struct caf_walk *w, const char *what)
{
    caf_fail(1, stat, NULL, 0, "%s image %d: %s", what, image, w->err);
}

/* The common chain: one array reference straight on an allocatable
 * coarray, without vector subscripts (gfortran makes x(a:b, c)[i] one
 * when x is allocatable).  Its section is then a descriptor of the target
 * image's memory like the one _gfortran_caf_send and _get receive (every
 * image has the coarray's bounds), at *offset bytes into the window, and
 * moves as those do: in one typed put or get with a cached layout, no
 * element list.  0; 1 when the chain is not of that kind; -1 (w->err said)
 * for a subscript outside the bounds. */
static int caf_ref_section(const struct caf_token *t, const struct caf_ref *ref, int type, struct caf_fulldesc *rd,
                           size_t *offset, struct caf_walk *w)
{
    if (!ref || ref->next || ref->type != CAF_REF_ARRAY || !t->desc)
        return 1;
    const struct caf_desc *d = t->desc;
    memset(rd, 0, sizeof *rd);
    int rank = 0;
    ptrdiff_t off = 0;
    for (int i = 0; i < CAF_MAX_DIMS && ref->u.a.mode[i] != CAF_ARR_NONE; i++) {
        if (i >= d->dtype.rank)
            return 1;
        ptrdiff_t lb = d->dim[i].lbound, ub = d->dim[i].ubound, from, step, n;
        if (caf_dim_triplet(ref, i, lb, ub, &from, &step, &n) != 0)
            return 1; /* vector subscripts: the walk */
        if (!caf_triplet_inside(from, step, n, lb, ub)) {
            snprintf(w->err, sizeof w->err, "subscript out of the bounds there (dimension %d: %td..%td)", i + 1, lb,
                     ub);
            return -1;
        }
        off += (from - lb) * d->dim[i].stride;
        if (ref->u.a.mode[i] != CAF_ARR_SINGLE)
            rd->d.dim[rank++] = (struct caf_dim){d->dim[i].stride * step, 1, n};
    }
    rd->d.dtype.elem_len = ref->item_size;
    rd->d.dtype.rank = (signed char)rank;
    rd->d.dtype.type = (signed char)type;
    rd->d.span = (ptrdiff_t)ref->item_size;
    *offset = (size_t)(off * (ptrdiff_t)ref->item_size);
    return 0;
}

/* A get or send by reference whose chain is a plain section
 * (caf_ref_section): done as _gfortran_caf_get and _send do it, or failed
 * with a message; 1.  0 when the walk must do it (a get into a variable
 * that must first get the section's shape is one). */
static int caf_ref_simple(int put, struct caf_token *t, int image, const struct caf_ref *refs, int rtype,
                          struct caf_desc *local, int rk, int lk, bool may_require_tmp, int *stat)
{
    struct caf_walk w;
    struct caf_fulldesc rd;
    size_t off;
    w.err[0] = '\0';
    int simple = caf_ref_section(t, refs, rtype, &rd, &off, &w);
    if (simple < 0) {
        caf_ref_fail(stat, image, &w, put ? "assignment to" : "reference to");
        return 1;
    }
    if (simple > 0 || (!put && (!local->base || caf_desc_count(local) != caf_desc_count(&rd.d))))
        return 0;
    caf_assign(put, t, off, image, &rd.d, NULL, local, rk, lk, may_require_tmp, stat);
    return 1;
}

void _gfortran_caf_get_by_ref(void *token, int image, struct caf_desc *dst, void *refs, int dst_kind, int src_kind,
                              bool may_require_tmp, bool dst_reallocatable, int *stat, int src_type)
{
    int r = caf_image_rank(image);
    if (r < 0) {
        caf_fail(1, stat, NULL, 0, "reference to image %d, which is not in 1..%d", image, caf.team->n);
        return;
    }
    if (caf_ref_simple(0, token, image, refs, src_type, dst, src_kind, dst_kind, may_require_tmp, stat))
        return;
    struct caf_walk w;
    if (caf_walk(&w, token, r, refs) != 0) {
        caf_ref_fail(stat, image, &w, "reference to");
        caf_walk_free(&w);
        return;
    }
    size_t n = w.n, sl = w.item;
    if (dst->dtype.rank == 0 ? n != 1 : caf_dst_shape(dst, &w, n, dst_reallocatable) != 0) {
        caf_fail(1, stat, NULL, 0, "reference to image %d: %zu elements for a variable of another size", image, n);
        caf_walk_free(&w);
        return;
    }
    size_t dl = dst->dtype.elem_len;
    char *dbuf, *sbuf = caf_conv_buffers(n * sl, n * dl, &dbuf);
    int rc = sbuf ? caf_walk_move(0, &w, sbuf) : ORMA_ERR_NOMEM;
    caf_walk_free(&w);
    if (rc != ORMA_SUCCESS) {
        free(sbuf);
        caf_fail(1, stat, NULL, 0, "reference to image %d: %s (%s)", image, orma_strerror(rc), orma_error_message());
        return;
    }
    if (caf_convert(dbuf, dst->dtype.type, dst_kind, dl, sbuf, src_type, src_kind, sl, n, n) != 0) {
        free(sbuf);
        caf_fail(1, stat, NULL, 0, "reference to image %d: no assignment of type %d kind %d to type %d kind %d",
                 image, src_type, src_kind, dst->dtype.type, dst_kind);
        return;
    }
    caf_desc_unpack(dst, dbuf);
    free(sbuf);
    caf_ok(stat);
}

void _gfortran_caf_send_by_ref(void *token, int image, struct caf_desc *src, void *refs, int dst_kind, int src_kind,
                               bool may_require_tmp, bool dst_reallocatable, int *stat, int dst_type)
{
    (void)dst_reallocatable; /* another image's component is never allocated from here */
    int r = caf_image_rank(image);
    if (r < 0) {
        caf_fail(1, stat, NULL, 0, "assignment to image %d, which is not in 1..%d", image, caf.team->n);
        return;
    }
    if (caf_ref_simple(1, token, image, refs, dst_type, src, dst_kind, src_kind, may_require_tmp, stat))
        return;
    struct caf_walk w;
    if (caf_walk(&w, token, r, refs) != 0) {
        caf_ref_fail(stat, image, &w, "assignment to");
        caf_walk_free(&w);
        return;
    }
    size_t n = w.n, dl = w.item, sn = caf_desc_count(src), sl = src->dtype.elem_len;
    if (sn != n && sn != 1) {
        caf_walk_free(&w);
        caf_fail(1, stat, NULL, 0, "assignment to image %d: %zu elements assigned to %zu", image, sn, n);
        return;
    }
    char *dbuf, *sbuf = caf_conv_buffers(sn * sl, n * dl, &dbuf);
    if (!sbuf) {
        caf_walk_free(&w);
        caf_fail(1, stat, NULL, 0, "assignment to image %d: out of memory", image);
        return;
    }
    caf_desc_pack(src, sbuf);
    int rc = ORMA_SUCCESS;
    if (caf_convert(dbuf, dst_type, dst_kind, dl, sbuf, src->dtype.type, src_kind, sl, n, sn) != 0)
        rc = ORMA_ERR_TYPE;
    else
        rc = caf_walk_move(1, &w, dbuf);
    caf_walk_free(&w);
    free(sbuf);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, NULL, 0, "assignment to image %d: %s (%s)", image, orma_strerror(rc), orma_error_message());
        return;
    }
    caf_ok(stat);
}

void _gfortran_caf_sendget_by_ref(void *dst_token, int dst_image, void *dst_refs, void *src_token, int src_image,
                                  void *src_refs, int dst_kind, int src_kind, bool may_require_tmp, int *dst_stat,
                                  int *src_stat, int dst_type, int src_type)
{
    (void)may_require_tmp;
    int dr = caf_image_rank(dst_image), sr = caf_image_rank(src_image);
    if (dr < 0 || sr < 0) {
        caf_fail(1, dst_stat, NULL, 0, "assignment from image %d to image %d, not both in 1..%d", src_image,
                 dst_image, caf.team->n);
        return;
    }
    struct caf_walk sw, dw;
    if (caf_walk(&sw, src_token, sr, src_refs) != 0) {
        caf_ref_fail(src_stat ? src_stat : dst_stat, src_image, &sw, "reference to");
        caf_walk_free(&sw);
        return;
    }
    if (caf_walk(&dw, dst_token, dr, dst_refs) != 0) {
        caf_ref_fail(dst_stat, dst_image, &dw, "assignment to");
        caf_walk_free(&sw);
        caf_walk_free(&dw);
        return;
    }
    size_t n = dw.n, sn = sw.n, sl = sw.item, dl = dw.item;
    char *dbuf = NULL, *sbuf = (sn == n || sn == 1) ? caf_conv_buffers(sn * sl, n * dl, &dbuf) : NULL;
    int rc = sbuf ? caf_walk_move(0, &sw, sbuf) : ORMA_ERR_COUNT;
    if (rc == ORMA_SUCCESS) {
        if (caf_convert(dbuf, dst_type, dst_kind, dl, sbuf, src_type, src_kind, sl, n, sn) != 0)
            rc = ORMA_ERR_TYPE;
        else
            rc = caf_walk_move(1, &dw, dbuf);
    }
    free(sbuf);
    caf_walk_free(&sw);
    caf_walk_free(&dw);
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, dst_stat, NULL, 0, "assignment from image %d to image %d: %s", src_image, dst_image,
                 rc == ORMA_ERR_COUNT ? "element counts differ" : orma_error_message());
        return;
    }
    caf_ok(dst_stat);
    caf_ok(src_stat);
}

int _gfortran_caf_is_present(void *token, int image, void *refs)
{
    int r = caf_image_rank(image);
    if (r < 0)
        caf_die(1, "ALLOCATED of a component on image %d, which is not in 1..%d", image, caf.team->n);
    struct caf_walk w;
    int rc = caf_walk(&w, token, r, refs);
    int unallocated = w.unallocated;
    if (rc != 0 && !unallocated)
        caf_die(1, "ALLOCATED of a component on image %d: %s", image, w.err);
    caf_walk_free(&w);
    return rc == 0;
}
