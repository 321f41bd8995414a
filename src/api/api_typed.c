/* api_typed.c -- typed put and get: any committed datatype on either side.
 * When both layouts are dense the call is a plain put or get of bytes;
 * otherwise one pass from one layout into the other (rma_typed.c). */
#include "api_rma.h"

static int api_typed_check_type(const char *call, orma_type t, const char *which)
{
    if (!dtype_is_type(t))
        return util_error(ORMA_ERR_TYPE, "%s: the %s datatype is not valid (freed, or not a datatype)", call, which);
    if (!t->predefined && !dtype_derived_of(t)->committed)
        return util_error(ORMA_ERR_TYPE, "%s: the %s datatype is not committed", call, which);
    return ORMA_SUCCESS;
}

static int api_typed(const char *call, int put, void *origin, size_t ocount, orma_type otype, int target,
                     orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status || (status = api_typed_check_type(call, otype, "origin")) ||
        (status = api_typed_check_type(call, ttype, "target")))
        return status;
    size_t obytes, tbytes;
    if (__builtin_mul_overflow(ocount, otype->size, &obytes) || __builtin_mul_overflow(tcount, ttype->size, &tbytes))
        return util_error(ORMA_ERR_COUNT, "%s: count times type size overflows", call);
    if (obytes != tbytes)
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: the origin holds %zu bytes of data but the target %zu", call,
                          target, obytes, tbytes);
    if (obytes && !origin)
        return util_error(ORMA_ERR_ARG, "%s: origin buffer is NULL for %zu bytes", call, obytes);
    /* The bytes the target layout reaches, relative to its origin. */
    const struct dtype_node *tn = dtype_layout(ttype);
    ptrdiff_t lo = 0, hi = 0, span = 0;
    if (tbytes) {
        if (tcount > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)tcount - 1, dtype_extent(ttype), &span))
            return util_error(ORMA_ERR_COUNT, "%s: %zu elements of the target type overflow", call, tcount);
        lo = tn->true_lb + (span < 0 ? span : 0);
        hi = tn->true_ub + (span > 0 ? span : 0);
    }
    size_t offset = 0;
    int next = 0;
    status = api_rma_access_at(call, win, target, target_disp, lo, (size_t)(hi - lo), 0, &offset, &next);
    if (status || !tbytes)
        return status ? status : api_rma_commit(win, next, ORMA_SUCCESS);
    int dense = otype->contiguous && ttype->contiguous;
    if (dense) /* both dense: bytes, through the fast path */
        return api_rma_commit(win, next, put ? rma_put(win, target, origin, tbytes, offset)
                                             : rma_get(win, target, origin, tbytes, offset));
    struct rma_op op = {.kind = (uint8_t)(put ? RMA_OP_PUT : RMA_OP_GET), .target = target, .origin = origin,
                        .len = (size_t)(hi - lo), .offset = offset + (size_t)lo, .otype = otype, .ttype = ttype,
                        .ocount = ocount, .tcount = tcount, .torigin = -lo};
    return api_rma_commit(win, next, rma_comm_slow(win, &op));
}

int orma_put_typed(const void *origin, size_t origin_count, orma_type origin_type, int target,
                   orma_aint target_disp, size_t target_count, orma_type target_type, orma_win win)
{
    return api_typed("orma_put_typed", 1, (void *)origin, origin_count, origin_type, target, target_disp,
                     target_count, target_type, win);
}

int orma_get_typed(void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,
                   size_t target_count, orma_type target_type, orma_win win)
{
    return api_typed("orma_get_typed", 0, origin, origin_count, origin_type, target, target_disp, target_count,
                     target_type, win);
}
