/* api_dtype.c -- the public datatype calls: constructors (their rules in
 * dtype_ctor.c), commit and free, queries, pack and unpack. */
#include "api_check.h"
#include "dtype_ctor.h"
#include "dtype_derived.h"
#include "dtype_iter.h"

#include <stdlib.h>

int orma_type_contiguous(size_t count, orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_contiguous");
    return status ? status : dtype_ctor_contiguous(count, oldtype, newtype_p);
}

int orma_type_hvector(size_t count, size_t blocklength, orma_aint stride_bytes, orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_hvector");
    return status ? status : dtype_ctor_hvector(count, blocklength, stride_bytes, oldtype, newtype_p);
}

int orma_type_vector(size_t count, size_t blocklength, orma_aint stride, orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_vector");
    return status ? status : dtype_ctor_vector(count, blocklength, stride, oldtype, newtype_p);
}

int orma_type_indexed(size_t count, const size_t *blocklengths, const orma_aint *displacements, orma_type oldtype,
                      orma_type *newtype_p)
{
    int status = api_check_init("orma_type_indexed");
    return status ? status : dtype_ctor_indexed(count, blocklengths, displacements, oldtype, newtype_p);
}

int orma_type_hindexed(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                       orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_hindexed");
    return status ? status : dtype_ctor_hindexed(count, blocklengths, displacements_bytes, oldtype, newtype_p);
}

int orma_type_indexed_block(size_t count, size_t blocklength, const orma_aint *displacements, orma_type oldtype,
                            orma_type *newtype_p)
{
    int status = api_check_init("orma_type_indexed_block");
    return status ? status : dtype_ctor_indexed_block(count, blocklength, displacements, oldtype, newtype_p);
}

int orma_type_hindexed_block(size_t count, size_t blocklength, const orma_aint *displacements_bytes, orma_type oldtype,
                             orma_type *newtype_p)
{
    int status = api_check_init("orma_type_hindexed_block");
    return status ? status : dtype_ctor_hindexed_block(count, blocklength, displacements_bytes, oldtype, newtype_p);
}

int orma_type_struct(size_t count, const size_t *blocklengths, const orma_aint *displacements_bytes,
                     const orma_type *types, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_struct");
    return status ? status : dtype_ctor_struct(count, blocklengths, displacements_bytes, types, newtype_p);
}

int orma_type_subarray(int ndims, const size_t *sizes, const size_t *subsizes, const size_t *starts, int order,
                       orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_subarray");
    return status ? status : dtype_ctor_subarray(ndims, sizes, subsizes, starts, order, oldtype, newtype_p);
}

int orma_type_resized(orma_type oldtype, orma_aint lb, orma_aint extent, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_resized");
    return status ? status : dtype_ctor_resized(oldtype, lb, extent, newtype_p);
}

int orma_type_dup(orma_type oldtype, orma_type *newtype_p)
{
    int status = api_check_init("orma_type_dup");
    return status ? status : dtype_ctor_dup(oldtype, newtype_p);
}

/* The checks of commit, free, pack and unpack: orma running, *type_p a
 * datatype. */
static int api_type_check(const char *call, const orma_type *type_p)
{
    int status = api_check_init(call);
    if (status)
        return status;
    if (!type_p || !dtype_is_type(*type_p))
        return util_error(ORMA_ERR_TYPE, "%s: not a valid datatype", call);
    return ORMA_SUCCESS;
}

int orma_type_commit(orma_type *type_p)
{
    int status = api_type_check("orma_type_commit", type_p);
    if (status)
        return status;
    dtype_derived_commit(*type_p); /* the layout was normalised as it was built */
    return ORMA_SUCCESS;
}

int orma_type_free(orma_type *type_p)
{
    int status = api_type_check("orma_type_free", type_p);
    if (status)
        return status;
    if ((*type_p)->predefined)
        return util_error(ORMA_ERR_TYPE, "orma_type_free: %s is predefined", (*type_p)->name);
    dtype_derived_free(*type_p);
    *type_p = NULL;
    return ORMA_SUCCESS;
}

static int api_dt_query(const char *call, orma_type type, const void *out1, const void *out2)
{
    if (!dtype_is_type(type))
        return util_error(ORMA_ERR_TYPE, "%s: not a valid datatype", call);
    if (!out1 || !out2)
        return util_error(ORMA_ERR_ARG, "%s: an output pointer is NULL", call);
    return ORMA_SUCCESS;
}

int orma_type_get_extent(orma_type type, orma_aint *lb_p, orma_aint *extent_p)
{
    int status = api_dt_query("orma_type_get_extent", type, lb_p, extent_p);
    if (status)
        return status;
    *lb_p = dtype_lb(type);
    *extent_p = dtype_extent(type);
    return ORMA_SUCCESS;
}

int orma_type_get_true_extent(orma_type type, orma_aint *lb_p, orma_aint *extent_p)
{
    int status = api_dt_query("orma_type_get_true_extent", type, lb_p, extent_p);
    if (status)
        return status;
    const struct dtype_node *n = dtype_layout(type);
    *lb_p = n->true_lb;
    *extent_p = n->true_ub - n->true_lb;
    return ORMA_SUCCESS;
}

int orma_type_is_contiguous(orma_type type, size_t count, int *flag_p)
{
    int status = api_dt_query("orma_type_is_contiguous", type, flag_p, flag_p);
    if (status)
        return status;
    const struct dtype_node *n = dtype_layout(type);
    int one = dtype_node_dense(n);
    *flag_p = count == 0 || n->size == 0 || (one && (count == 1 || dtype_extent(type) == (ptrdiff_t)n->size));
    return ORMA_SUCCESS;
}

/* The checks of pack and unpack: count elements of type at buf, and the
 * packed buffer packed (named name) of bufsize bytes from *position_p. */
static int api_dt_pack_check(const char *call, const void *buf, size_t count, orma_type type, const void *packed,
                             const char *name, size_t bufsize, const size_t *position_p, size_t *bytes_p)
{
    int status = api_type_check(call, &type);
    if (status)
        return status;
    if (!type->predefined && !dtype_derived_of(type)->committed)
        return util_error(ORMA_ERR_TYPE, "%s: the datatype is not committed", call);
    if (!position_p)
        return util_error(ORMA_ERR_ARG, "%s: position_p is NULL", call);
    size_t bytes;
    if (__builtin_mul_overflow(count, type->size, &bytes))
        return util_error(ORMA_ERR_COUNT, "%s: %zu elements overflow", call, count);
    if (*position_p > bufsize || bytes > bufsize - *position_p)
        return util_error(ORMA_ERR_COUNT, "%s: %zu bytes at position %zu do not fit a buffer of %zu", call, bytes,
                          *position_p, bufsize);
    if (bytes && !buf)
        return util_error(ORMA_ERR_ARG, "%s: a buffer is NULL", call);
    if (bytes && !packed)
        return util_error(ORMA_ERR_ARG, "%s: %s is NULL", call, name);
    *bytes_p = bytes;
    return ORMA_SUCCESS;
}

int orma_pack(const void *inbuf, size_t count, orma_type type, void *outbuf, size_t outsize, size_t *position_p)
{
    size_t bytes = 0;
    int status = api_dt_pack_check("orma_pack", inbuf, count, type, outbuf, "outbuf", outsize, position_p, &bytes);
    if (status)
        return status;
    dtype_pack(inbuf, count, type, 0, bytes, (char *)outbuf + *position_p);
    *position_p += bytes;
    return ORMA_SUCCESS;
}

int orma_unpack(const void *inbuf, size_t insize, size_t *position_p, void *outbuf, size_t count, orma_type type)
{
    size_t bytes = 0;
    int status = api_dt_pack_check("orma_unpack", outbuf, count, type, inbuf, "inbuf", insize, position_p, &bytes);
    if (status)
        return status;
    dtype_unpack(outbuf, count, type, 0, bytes, (const char *)inbuf + *position_p);
    *position_p += bytes;
    return ORMA_SUCCESS;
}
