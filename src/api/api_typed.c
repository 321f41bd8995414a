/* api_typed.c -- typed put and get: any committed datatype on either side.
 * When both layouts are dense the call is a plain put or get of bytes;
 * otherwise one pass from one layout into the other (rma_typed.c). */
#include "api_rma.h"
#include "dtype_op.h"
#include "rma_acc.h"

static int api_typed_check_type(const char *call, orma_type t, const char *which)
{
    if (!dtype_is_type(t))
        return util_error(ORMA_ERR_TYPE, "%s: the %s datatype is not valid (freed, or not a datatype)", call, which);
    if (!t->predefined && !dtype_derived_of(t)->committed)
        return util_error(ORMA_ERR_TYPE, "%s: the %s datatype is not committed", call, which);
    return ORMA_SUCCESS;
}

/* Both sides hold the same number of data bytes (*bytes_p), and a buffer. */
static int api_typed_data(const char *call, int target, const void *origin, size_t ocount, orma_type otype,
                          size_t tcount, orma_type ttype, size_t *bytes_p)
{
    size_t obytes, tbytes;
    if (__builtin_mul_overflow(ocount, otype->size, &obytes) || __builtin_mul_overflow(tcount, ttype->size, &tbytes))
        return util_error(ORMA_ERR_COUNT, "%s: count times type size overflows", call);
    if (obytes != tbytes)
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: the origin holds %zu bytes of data but the target %zu", call,
                          target, obytes, tbytes);
    int status = api_sig_match(call, target, ocount, otype, tcount, ttype);
    if (status)
        return status;
    if (obytes && !origin)
        return util_error(ORMA_ERR_ARG, "%s: origin buffer is NULL for %zu bytes", call, obytes);
    *bytes_p = tbytes;
    return ORMA_SUCCESS;
}

/* The bytes [lo, hi) tcount elements of ttype reach from their origin,
 * checked against the window and the epoch (api_rma_access_at). */
static int api_typed_reach(const char *call, struct rma_win *win, int target, orma_aint target_disp, size_t tcount,
                           orma_type ttype, size_t tbytes, ptrdiff_t *lo_p, ptrdiff_t *hi_p, size_t *offset_p,
                           int *next_p)
{
    const struct dtype_node *tn = dtype_layout(ttype);
    ptrdiff_t lo = 0, hi = 0, span = 0;
    if (tbytes) {
        if (tcount > PTRDIFF_MAX || __builtin_mul_overflow((ptrdiff_t)tcount - 1, dtype_extent(ttype), &span))
            return util_error(ORMA_ERR_COUNT, "%s: %zu elements of the target type overflow", call, tcount);
        lo = tn->true_lb + (span < 0 ? span : 0);
        hi = tn->true_ub + (span > 0 ? span : 0);
    }
    *lo_p = lo;
    *hi_p = hi;
    return api_rma_access_at(call, win, target, target_disp, lo, (size_t)(hi - lo), 0, offset_p, next_p);
}

static int api_typed(const char *call, int put, void *origin, size_t ocount, orma_type otype, int target,
                     orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle)
{
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status || (status = api_typed_check_type(call, otype, "origin")) ||
        (status = api_typed_check_type(call, ttype, "target")))
        return status;
    size_t tbytes = 0;
    if ((status = api_typed_data(call, target, origin, ocount, otype, tcount, ttype, &tbytes)))
        return status;
    size_t offset = 0;
    ptrdiff_t lo = 0, hi = 0;
    int next = 0;
    status = api_typed_reach(call, win, target, target_disp, tcount, ttype, tbytes, &lo, &hi, &offset, &next);
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

int orma_accumulate_typed(const void *origin, size_t origin_count, orma_type origin_type, int target,
                          orma_aint target_disp, size_t target_count, orma_type target_type, orma_op op,
                          orma_win handle)
{
    const char *call = "orma_accumulate_typed";
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status || (status = api_typed_check_type(call, origin_type, "origin")) ||
        (status = api_typed_check_type(call, target_type, "target")))
        return status;
    int basic = dtype_basic(target_type);
    if ((unsigned)op >= ORMA_OP_COUNT)
        return util_error(ORMA_ERR_OP, "%s to rank %d: %d is not an operation", call, target, (int)op);
    if (basic == DTYPE_MIXED || dtype_basic(origin_type) != basic)
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: both layouts must be made of one and the same predefined "
                          "type", call, target);
    if (!dtype_op_kernel((int)op, basic))
        return util_error(ORMA_ERR_OP, "%s to rank %d: %s is not defined for %s", call, target, dtype_op_name((int)op),
                          orma_predefined_types.types[basic].name);
    if (!orma_predefined_types.types[basic].contiguous)
        return util_error(ORMA_ERR_UNSUPPORTED, "%s: layouts of %s, whose elements hold padding, are not supported "
                          "yet; use orma_accumulate on arrays of the pair type", call,
                          orma_predefined_types.types[basic].name);
    size_t tbytes = 0;
    if ((status = api_typed_data(call, target, origin, origin_count, origin_type, target_count, target_type,
                                 &tbytes)))
        return status;
    size_t offset = 0;
    ptrdiff_t lo = 0, hi = 0;
    int next = 0;
    status = api_typed_reach(call, win, target, target_disp, target_count, target_type, tbytes, &lo, &hi, &offset,
                             &next);
    if (status || !tbytes || op == ORMA_NO_OP)
        return status ? status : api_rma_commit(win, next, ORMA_SUCCESS);
    struct rma_op rop = {.kind = RMA_OP_ACC, .op = (uint8_t)op, .typeid_ = (uint16_t)basic, .target = target,
                         .origin = (void *)origin, .len = tbytes, .offset = offset};
    if (!(origin_type->contiguous && target_type->contiguous)) {
        rop.len = (size_t)(hi - lo);
        rop.offset = offset + (size_t)lo;
        rop.otype = origin_type;
        rop.ttype = target_type;
        rop.ocount = origin_count;
        rop.tcount = target_count;
        rop.torigin = -lo;
        return api_rma_commit(win, next, rma_comm_slow(win, &rop));
    }
    return api_rma_commit(win, next, rma_acc(win, &rop));
}
