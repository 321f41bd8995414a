/* dtype_ctor.c -- the derived datatype constructors: MPI's rules for
 * bounds, extents, alignment (a struct is padded as C pads one), the
 * typemap's order of signatures, and overflow of sizes and offsets.  The
 * public orma_type_* calls (api_dtype.c) check that orma runs and come
 * here; messages name the public call. */
#include "dtype_ctor.h"
#include "dtype_derived.h"
#include "util_status.h"

#include <stdint.h>
#include <stdlib.h>

static int dtype_ctor_check(const char *call, orma_type oldtype, orma_type *newtype_p)
{
    if (!dtype_is_type(oldtype))
        return util_error(ORMA_ERR_TYPE, "%s: the old datatype is not valid (freed, or not a datatype)", call);
    if (!newtype_p)
        return util_error(ORMA_ERR_ARG, "%s: newtype_p is NULL", call);
    return ORMA_SUCCESS;
}

static int dtype_ctor_overflow(const char *call)
{
    return util_error(ORMA_ERR_COUNT, "%s: the type's size or span overflows the address space", call);
}

/* The new type, owning node and sig (NULL: not known). */
static int dtype_ctor_create(struct dtype_node *node, struct dtype_sig *sig, ptrdiff_t lb, ptrdiff_t ub, size_t align,
                             int basic, orma_type *newtype_p)
{
    int status = dtype_derived_create(node, lb, ub, align, newtype_p);
    if (status) {
        dtype_sig_unref(sig);
        return status;
    }
    dtype_derived_of(*newtype_p)->basic = basic;
    dtype_derived_of(*newtype_p)->sig = sig;
    return ORMA_SUCCESS;
}

/* One block: n copies of t side by side.  Bounds in *lo_p, *hi_p. */
static int dtype_ctor_block(size_t n, orma_type t, ptrdiff_t *lo_p, ptrdiff_t *hi_p)
{
    ptrdiff_t ext = dtype_extent(t), span;
    size_t bytes;
    if (n > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)(n ? n - 1 : 0), ext, &span) ||
        __builtin_mul_overflow(n, t->size, &bytes))
        return ORMA_ERR_COUNT;
    ptrdiff_t ub;
    if (__builtin_add_overflow(dtype_lb(t), ext, &ub) || __builtin_add_overflow(dtype_lb(t), span < 0 ? span : 0, lo_p) ||
        __builtin_add_overflow(ub, span > 0 ? span : 0, hi_p))
        return ORMA_ERR_COUNT;
    return ORMA_SUCCESS;
}

static int dtype_ctor_nomem(const char *call, int too_deep)
{
    if (too_deep == DTYPE_REFUSED_RANGE)
        return util_error(ORMA_ERR_COUNT, "%s: the type's byte offsets overflow the address space", call);
    if (too_deep)
        return util_error(ORMA_ERR_TYPE, "%s: the datatype nests deeper than %d levels", call, DTYPE_MAX_DEPTH);
    return util_error(ORMA_ERR_NOMEM, "%s: out of memory", call);
}

/* n copies of t's signature in *sig_p: NULL when t's is not known, and
 * then neither is the new type's. */
static int dtype_ctor_sig_repeat(const char *call, size_t n, orma_type t, struct dtype_sig **sig_p)
{
    struct dtype_sig *one = NULL, *sig = NULL;
    if (dtype_sig_get(t, &one))
        return dtype_ctor_nomem(call, 0);
    if (one && !(sig = dtype_sig_repeat(n, one))) {
        dtype_sig_unref(one);
        return dtype_ctor_nomem(call, 0);
    }
    dtype_sig_unref(one);
    *sig_p = sig;
    return ORMA_SUCCESS;
}

/* The new type of node and n copies of oldtype's signature, with
 * oldtype's alignment and basic type. */
static int dtype_ctor_like(const char *call, struct dtype_node *node, size_t n, orma_type oldtype, ptrdiff_t lb,
                           ptrdiff_t ub, orma_type *newtype_p)
{
    struct dtype_sig *sig = NULL;
    int status = dtype_ctor_sig_repeat(call, n, oldtype, &sig);
    if (status) {
        dtype_node_unref(node);
        return status;
    }
    return dtype_ctor_create(node, sig, lb, ub, dtype_align(oldtype), dtype_basic(oldtype), newtype_p);
}

/* count blocks of blocklens[i] (or blocklen) elements of types[i] (or
 * type) at byte displacements disps[i] -- every constructor but vector and
 * subarray is one of these. */
static int dtype_ctor_blocks(const char *call, size_t count, const size_t *blocklens, size_t blocklen,
                             const ptrdiff_t *disps, const orma_type *types, orma_type type, int is_struct,
                             orma_type *newtype_p)
{
    ptrdiff_t *d = malloc((count ? count : 1) * sizeof *d);
    struct dtype_node **nodes = malloc((count ? count : 1) * sizeof *nodes);
    struct dtype_sig **sigs = malloc((count ? count : 1) * sizeof *sigs);
    int status = d && nodes && sigs ? ORMA_SUCCESS : dtype_ctor_nomem(call, 0), too_deep = 0;
    size_t k = 0, ks = 0, size = 0, align = 1;
    int sig_known = 1; /* while every block's signature is known, sigs[0..ks) */
    ptrdiff_t lb = 0, ub = 0;
    int basic = is_struct ? -2 : dtype_basic(type); /* -2: none seen yet */
    for (size_t i = 0; i < count && !status; i++) {
        orma_type t = types ? types[i] : type;
        size_t bl = blocklens ? blocklens[i] : blocklen;
        if (types && !dtype_is_type(t)) {
            status = util_error(ORMA_ERR_TYPE, "%s: datatype %zu is not valid", call, i);
            break;
        }
        if (bl == 0) /* no entries in the typemap: its alignment does not pad the struct */
            continue;
        if (dtype_align(t) > align)
            align = dtype_align(t);
        if (types && t->size)
            basic = basic == -2 || basic == dtype_basic(t) ? dtype_basic(t) : DTYPE_MIXED;
        ptrdiff_t lo, hi;
        if (dtype_ctor_block(bl, t, &lo, &hi) || __builtin_add_overflow(lo, disps[i], &lo) ||
            __builtin_add_overflow(hi, disps[i], &hi) || __builtin_add_overflow(size, bl * t->size, &size)) {
            status = dtype_ctor_overflow(call);
            break;
        }
        if (k == 0 || lo < lb)
            lb = lo;
        if (k == 0 || hi > ub)
            ub = hi;
        nodes[k] = dtype_node_repeat(bl, dtype_extent(t), dtype_layout(t), &too_deep);
        if (!nodes[k]) {
            status = dtype_ctor_nomem(call, too_deep);
            break;
        }
        d[k++] = disps[i];
        if (sig_known) {
            if ((status = dtype_ctor_sig_repeat(call, bl, t, &sigs[ks])))
                break;
            sig_known = sigs[ks] != NULL;
            ks += (size_t)sig_known;
        }
    }
    struct dtype_node *node = NULL;
    struct dtype_sig *sig = NULL;
    if (!status) {
        node = dtype_node_seq(k, d, nodes, &too_deep);
        if (!node)
            status = dtype_ctor_nomem(call, too_deep);
    }
    /* blocks in the order given: the typemap order */
    if (!status && sig_known && !(sig = dtype_sig_concat(ks, sigs)))
        status = dtype_ctor_nomem(call, 0);
    for (size_t i = 0; i < k; i++)
        dtype_node_unref(nodes[i]);
    for (size_t i = 0; i < ks; i++)
        dtype_sig_unref(sigs[i]);
    free(sigs);
    free(nodes);
    free(d);
    if (status) {
        dtype_node_unref(node);
        return status;
    }
    ptrdiff_t ext, a = (ptrdiff_t)align;
    if (is_struct && align > 1 && ub > lb && /* pad as C pads a struct */
        (__builtin_sub_overflow(ub, lb, &ext) || __builtin_add_overflow(ext, a - 1, &ext) ||
         __builtin_add_overflow(lb, ext / a * a, &ub))) {
        dtype_node_unref(node);
        dtype_sig_unref(sig);
        return dtype_ctor_overflow(call);
    }
    if (!is_struct)
        align = dtype_align(type);
    return dtype_ctor_create(node, sig, lb, ub, align, basic < 0 ? DTYPE_MIXED : basic, newtype_p);
}

int dtype_ctor_contiguous(size_t count, orma_type oldtype, orma_type *newtype_p)
{
    int status = dtype_ctor_check("orma_type_contiguous", oldtype, newtype_p);
    if (status)
        return status;
    ptrdiff_t zero = 0;
    return dtype_ctor_blocks("orma_type_contiguous", 1, NULL, count, &zero, NULL, oldtype, 0, newtype_p);
}

int dtype_ctor_hvector(size_t count, size_t blocklength, orma_aint stride_bytes, orma_type oldtype,
                       orma_type *newtype_p)
{
    const char *call = "orma_type_hvector";
    int status = dtype_ctor_check(call, oldtype, newtype_p);
    if (status)
        return status;
    ptrdiff_t lo = 0, hi = 0, span;
    size_t bytes;
    if (count > PTRDIFF_MAX || dtype_ctor_block(blocklength, oldtype, &lo, &hi) ||
        __builtin_mul_overflow((ptrdiff_t)(count ? count - 1 : 0), (ptrdiff_t)stride_bytes, &span) ||
        __builtin_mul_overflow(count, blocklength * oldtype->size, &bytes))
        return dtype_ctor_overflow(call);
    if (count == 0 || blocklength == 0)
        lo = hi = span = 0;
    int too_deep = 0;
    struct dtype_node *block = dtype_node_repeat(blocklength, dtype_extent(oldtype), dtype_layout(oldtype), &too_deep);
    struct dtype_node *node = block ? dtype_node_repeat(count, stride_bytes, block, &too_deep) : NULL;
    dtype_node_unref(block);
    if (!node)
        return dtype_ctor_nomem(call, too_deep);
    ptrdiff_t lb, ub;
    if (__builtin_add_overflow(lo, span < 0 ? span : 0, &lb) || __builtin_add_overflow(hi, span > 0 ? span : 0, &ub)) {
        dtype_node_unref(node);
        return dtype_ctor_overflow(call);
    }
    size_t n; /* only a type without data can have more elements than bytes */
    return dtype_ctor_like(call, node, __builtin_mul_overflow(count, blocklength, &n) ? 0 : n, oldtype, lb, ub,
                           newtype_p);
}

int dtype_ctor_vector(size_t count, size_t blocklength, orma_aint stride, orma_type oldtype, orma_type *newtype_p)
{
    int status = dtype_ctor_check("orma_type_vector", oldtype, newtype_p);
    if (status)
        return status;
    orma_aint bytes;
    if (__builtin_mul_overflow(stride, (orma_aint)dtype_extent(oldtype), &bytes))
        return dtype_ctor_overflow("orma_type_vector");
    return dtype_ctor_hvector(count, blocklength, bytes, oldtype, newtype_p);
}

/* Displacements in elements to bytes (NULL on overflow or no memory). */
static int dtype_ctor_scale(const char *call, size_t count, const orma_aint *disps, orma_type t, ptrdiff_t **out_p)
{
    ptrdiff_t *d = malloc((count ? count : 1) * sizeof *d);
    if (!d)
        return dtype_ctor_nomem(call, 0);
    for (size_t i = 0; i < count; i++) {
        if (__builtin_mul_overflow(disps[i], dtype_extent(t), &d[i])) {
            free(d);
            return dtype_ctor_overflow(call);
        }
    }
    *out_p = d;
    return ORMA_SUCCESS;
}

static int dtype_ctor_indexed_common(const char *call, size_t count, const size_t *blocklens, size_t blocklen,
                                     const orma_aint *disps, int in_elements, orma_type oldtype, orma_type *newtype_p)
{
    int status = dtype_ctor_check(call, oldtype, newtype_p);
    if (status)
        return status;
    if (count && (!disps || (!blocklens && blocklen == SIZE_MAX)))
        return util_error(ORMA_ERR_ARG, "%s: %s is NULL", call, disps ? "blocklengths" : "displacements");
    ptrdiff_t *d = (ptrdiff_t *)disps;
    if (in_elements && (status = dtype_ctor_scale(call, count, disps, oldtype, &d)))
        return status;
    status = dtype_ctor_blocks(call, count, blocklens, blocklen, d, NULL, oldtype, 0, newtype_p);
    if (in_elements)
        free(d);
    return status;
}

int dtype_ctor_indexed(size_t count, const size_t *blocklengths, const orma_aint *displacements, orma_type oldtype,
                       orma_type *newtype_p)
{
    return dtype_ctor_indexed_common("orma_type_indexed", count, blocklengths, SIZE_MAX, displacements, 1, oldtype,
                                     newtype_p);
}

int dtype_ctor_hindexed(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                        orma_type oldtype, orma_type *newtype_p)
{
    return dtype_ctor_indexed_common("orma_type_hindexed", count, blocklengths, SIZE_MAX, displacements_bytes, 0,
                                     oldtype, newtype_p);
}

int dtype_ctor_indexed_block(size_t count, size_t blocklength, const orma_aint *displacements, orma_type oldtype,
                             orma_type *newtype_p)
{
    return dtype_ctor_indexed_common("orma_type_indexed_block", count, NULL, blocklength, displacements, 1, oldtype,
                                     newtype_p);
}

int dtype_ctor_hindexed_block(size_t count, size_t blocklength, const orma_aint *displacements_bytes, orma_type oldtype,
                              orma_type *newtype_p)
{
    return dtype_ctor_indexed_common("orma_type_hindexed_block", count, NULL, blocklength, displacements_bytes, 0,
                                     oldtype, newtype_p);
}

int dtype_ctor_struct(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                      const orma_type *types, orma_type *newtype_p)
{
    const char *call = "orma_type_struct";
    if (!newtype_p || (count && (!blocklengths || !displacements_bytes || !types)))
        return util_error(ORMA_ERR_ARG, "%s: a pointer argument is NULL", call);
    return dtype_ctor_blocks(call, count, blocklengths, 0, displacements_bytes, types, NULL, 1, newtype_p);
}

int dtype_ctor_subarray(int ndims, const size_t *sizes, const size_t *subsizes, const size_t *starts, int order,
                        orma_type oldtype, orma_type *newtype_p)
{
    const char *call = "orma_type_subarray";
    int status = dtype_ctor_check(call, oldtype, newtype_p);
    if (status)
        return status;
    if (ndims < 1 || !sizes || !subsizes || !starts || (order != ORMA_ORDER_C && order != ORMA_ORDER_FORTRAN))
        return util_error(ORMA_ERR_ARG, "%s: needs ndims >= 1, three arrays and ORMA_ORDER_C or "
                          "ORMA_ORDER_FORTRAN", call);
    for (int d = 0; d < ndims; d++)
        if (subsizes[d] > sizes[d] || starts[d] > sizes[d] - subsizes[d])
            return util_error(ORMA_ERR_ARG, "%s: dimension %d: start %zu + subsize %zu exceeds size %zu", call, d,
                              starts[d], subsizes[d], sizes[d]);
    size_t elems = 1, bytes;
    for (int d = 0; d < ndims; d++)
        if (__builtin_mul_overflow(elems, subsizes[d], &elems))
            return dtype_ctor_overflow(call);
    if (__builtin_mul_overflow(elems, oldtype->size, &bytes))
        return dtype_ctor_overflow(call);
    /* From the fastest dimension out: a loop per dimension. */
    int too_deep = 0;
    ptrdiff_t stride = dtype_extent(oldtype), offset = 0;
    struct dtype_node *node = dtype_node_ref(dtype_layout(oldtype));
    for (int k = 0; k < ndims && node; k++) {
        int d = order == ORMA_ORDER_C ? ndims - 1 - k : k;
        ptrdiff_t o, next;
        if (sizes[d] > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)starts[d], stride, &o) ||
            __builtin_add_overflow(offset, o, &offset) ||
            __builtin_mul_overflow((ptrdiff_t)sizes[d], stride, &next)) {
            dtype_node_unref(node);
            return dtype_ctor_overflow(call);
        }
        struct dtype_node *outer = dtype_node_repeat(subsizes[d], stride, node, &too_deep);
        dtype_node_unref(node);
        node = outer;
        stride = next;
    }
    struct dtype_node *placed = node ? dtype_node_seq(1, &offset, &node, &too_deep) : NULL;
    dtype_node_unref(node);
    if (!placed)
        return dtype_ctor_nomem(call, too_deep);
    return dtype_ctor_like(call, placed, elems, oldtype, 0, stride, newtype_p);
}

int dtype_ctor_resized(orma_type oldtype, orma_aint lb, orma_aint extent, orma_type *newtype_p)
{
    int status = dtype_ctor_check("orma_type_resized", oldtype, newtype_p);
    if (status)
        return status;
    ptrdiff_t ub;
    if (__builtin_add_overflow(lb, extent, &ub))
        return dtype_ctor_overflow("orma_type_resized");
    return dtype_ctor_like("orma_type_resized", dtype_node_ref(dtype_layout(oldtype)), 1, oldtype, lb, ub, newtype_p);
}

int dtype_ctor_dup(orma_type oldtype, orma_type *newtype_p)
{
    int status = dtype_ctor_check("orma_type_dup", oldtype, newtype_p);
    if (status)
        return status;
    ptrdiff_t lb = dtype_lb(oldtype);
    status = dtype_ctor_like("orma_type_dup", dtype_node_ref(dtype_layout(oldtype)), 1, oldtype, lb,
                             lb + dtype_extent(oldtype), newtype_p);
    if (!status && (oldtype->predefined || dtype_derived_of(oldtype)->committed)) /* predefined types are */
        dtype_derived_commit(*newtype_p);
    return status;
}
