/* api_typed.c -- the typed calls: any committed datatype on each side.
 * When every layout is dense the call is the contiguous one on bytes;
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

/* The side which (origin or result) holds as many data bytes as the
 * target (*bytes_p), and a buffer. */
static int api_typed_data(const char *call, int target, const char *which, const void *buf, size_t count,
                          orma_type type, size_t tcount, orma_type ttype, size_t *bytes_p)
{
    size_t bytes, tbytes;
    if (__builtin_mul_overflow(count, type->size, &bytes) || __builtin_mul_overflow(tcount, ttype->size, &tbytes))
        return util_error(ORMA_ERR_COUNT, "%s: count times type size overflows", call);
    if (bytes != tbytes)
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: the %s holds %zu bytes of data but the target %zu", call,
                          target, which, bytes, tbytes);
    int status = api_sig_match(call, target, count, type, tcount, ttype);
    if (status)
        return status;
    if (bytes && !buf)
        return util_error(ORMA_ERR_ARG, "%s: %s buffer is NULL for %zu bytes", call, which, bytes);
    *bytes_p = tbytes;
    return ORMA_SUCCESS;
}

/* The bytes [lo, hi) tcount elements of ttype reach from their origin,
 * checked against the window and the epoch (api_rma_access_at). */
static int api_typed_reach(const char *call, int passive_only, struct rma_win *win, int target,
                           orma_aint target_disp, size_t tcount, orma_type ttype, size_t tbytes, ptrdiff_t *lo_p,
                           ptrdiff_t *hi_p, size_t *offset_p, int *next_p)
{
    ptrdiff_t lo = 0, hi = 0;
    if (tbytes && !dtype_reach(ttype, tcount, &lo, &hi))
        return util_error(ORMA_ERR_COUNT, "%s: %zu elements of the target type overflow", call, tcount);
    *lo_p = lo;
    *hi_p = hi;
    return api_rma_access_at(call, win, target, target_disp, lo, (size_t)(hi - lo), passive_only, offset_p, next_p);
}

/* op, a typed operation at offset, describes every byte its target
 * layout reaches, [lo, hi) around the displacement. */
static void api_typed_span(struct xport_op *op, size_t offset, ptrdiff_t lo, ptrdiff_t hi)
{
    op->len = (size_t)(hi - lo);
    op->offset = offset + (size_t)lo;
    op->torigin = -lo;
}

int api_typed_copy(const char *call, int put, int passive_only, void *origin, size_t ocount, orma_type otype,
                   int target, orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status || (status = api_typed_check_type(call, otype, "origin")) ||
        (status = api_typed_check_type(call, ttype, "target")))
        return status;
    size_t tbytes = 0;
    if ((status = api_typed_data(call, target, "origin", origin, ocount, otype, tcount, ttype, &tbytes)))
        return status;
    size_t offset = 0;
    ptrdiff_t lo = 0, hi = 0;
    int next = 0;
    status = api_typed_reach(call, passive_only, win, target, target_disp, tcount, ttype, tbytes, &lo, &hi,
                             &offset, &next);
    struct rma_race_access ra = {.call = call, .kind = put ? RMA_RACE_PUT : RMA_RACE_GET, .offset = offset,
                                 .len = tbytes, .ttype = ttype, .tcount = tcount, .origin = put ? origin : NULL,
                                 .otype = otype, .ocount = ocount, .fetch = !put};
    if (api_race(win, target, target_disp, tbytes ? status : API_RMA_NOTHING, &ra) || !tbytes)
        return api_rma_done(win, next, status ? status : API_RMA_NOTHING);
    if (otype->contiguous && ttype->contiguous) /* both dense: bytes, through the fast path */
        return api_rma_commit(win, next, api_race_after(win, target, put ? rma_put(win, target, origin, tbytes, offset)
                                                                         : rma_get(win, target, origin, tbytes, offset),
                                                        &ra));
    struct xport_op op = {.kind = (uint8_t)(put ? XPORT_OP_PUT : XPORT_OP_GET), .target = target, .origin = origin,
                        .otype = otype, .ttype = ttype, .ocount = ocount, .tcount = tcount};
    api_typed_span(&op, offset, lo, hi);
    return api_rma_commit(win, next, api_race_after(win, target, rma_comm_slow(win, &op), &ra));
}

/* The checks of a typed accumulate that are about its types and op.  A
 * target of no data (count 0, or a type of size 0) has no element type:
 * then neither have the other sides, which must hold no data either
 * (api_typed_data), and any layout of them is as good as another. */
static int api_typed_acc_types(const char *call, int target, orma_type otype, orma_type rtype, size_t tcount,
                               orma_type ttype, orma_op op, int *basic_p)
{
    int status = api_typed_check_type(call, ttype, "target");
    if (!status && otype)
        status = api_typed_check_type(call, otype, "origin");
    if (!status && rtype)
        status = api_typed_check_type(call, rtype, "result");
    if (status)
        return status;
    int basic = dtype_basic(ttype);
    if ((unsigned)op >= ORMA_OP_COUNT)
        return util_error(ORMA_ERR_OP, "%s to rank %d: %d is not an operation", call, target, (int)op);
    if (!tcount || !ttype->size) {
        *basic_p = 0;
        return ORMA_SUCCESS;
    }
    if (basic == DTYPE_MIXED || (otype && dtype_basic(otype) != basic) || (rtype && dtype_basic(rtype) != basic))
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: every layout must be made of one and the same predefined "
                          "type", call, target);
    if (!dtype_op_kernel((int)op, basic))
        return api_rma_op_undefined(call, target, (int)op, basic);
    *basic_p = basic;
    return ORMA_SUCCESS;
}

int api_typed_acc(const char *call, int passive_only, int fetch, const void *origin, size_t ocount,
                  orma_type otype, void *result, size_t rcount, orma_type rtype, int target,
                  orma_aint target_disp, size_t tcount, orma_type ttype, orma_op op, orma_win handle)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status)
        return status;
    if (op == ORMA_NO_OP) /* the origin is ignored */
        otype = NULL;
    if (!fetch)
        rtype = NULL;
    int basic = 0;
    size_t tbytes = 0;
    if ((status = api_typed_acc_types(call, target, otype, rtype, tcount, ttype, op, &basic)) ||
        (otype && (status = api_typed_data(call, target, "origin", origin, ocount, otype, tcount, ttype, &tbytes))) ||
        (rtype && (status = api_typed_data(call, target, "result", result, rcount, rtype, tcount, ttype, &tbytes))))
        return status;
    if (!otype && !rtype && __builtin_mul_overflow(tcount, ttype->size, &tbytes))
        return util_error(ORMA_ERR_COUNT, "%s: count times type size overflows", call);
    size_t offset = 0;
    ptrdiff_t lo = 0, hi = 0;
    int next = 0;
    status = api_typed_reach(call, passive_only, win, target, target_disp, tcount, ttype, tbytes, &lo, &hi, &offset,
                             &next);
    struct rma_race_access ra = {.call = call, .kind = RMA_RACE_ACC, .op = (int)op, .typeid_ = basic,
                                 .offset = offset, .len = tbytes, .ttype = ttype, .tcount = tcount,
                                 .origin = otype ? origin : NULL, .otype = otype, .ocount = ocount,
                                 .fetch = rtype != NULL};
    if (api_race(win, target, target_disp, tbytes && (otype || rtype) ? status : API_RMA_NOTHING, &ra) ||
        !tbytes || (!otype && !rtype))
        return api_rma_done(win, next, status ? status : API_RMA_NOTHING);
    struct xport_op rop = {.kind = XPORT_OP_ACC, .op = (uint8_t)op, .typeid_ = (uint16_t)basic, .target = target,
                         .origin = otype ? (void *)origin : NULL, .result = rtype ? result : NULL, .len = tbytes,
                         .offset = offset};
    /* padded pair types (e.g. ORMA_DOUBLE_INT) go element by element, as typed */
    if ((otype && !otype->contiguous) || (rtype && !rtype->contiguous) || !ttype->contiguous ||
        !orma_predefined_types.types[basic].contiguous) {
        rop.otype = otype;
        rop.ttype = ttype;
        rop.rtype = rtype;
        rop.ocount = ocount;
        rop.tcount = tcount;
        rop.rcount = rcount;
        api_typed_span(&rop, offset, lo, hi);
        return api_rma_commit(win, next, api_race_after(win, target, rma_comm_slow(win, &rop), &ra));
    }
    return api_rma_commit(win, next, api_race_after(win, target, rma_acc(win, &rop), &ra));
}

int orma_put_typed(API_PUT_PARAMS)
{
    API_RACE_ENTER();
    return api_typed_copy("orma_put_typed", 1, 0, (void *)origin, API_COPY_ARGS);
}

int orma_get_typed(API_GET_PARAMS)
{
    API_RACE_ENTER();
    return api_typed_copy("orma_get_typed", 0, 0, origin, API_COPY_ARGS);
}

int orma_accumulate_typed(API_ACCUMULATE_PARAMS)
{
    API_RACE_ENTER();
    return api_typed_acc("orma_accumulate_typed", 0, 0, API_ACCUMULATE_ARGS);
}

int orma_get_accumulate_typed(API_GET_ACCUMULATE_PARAMS)
{
    API_RACE_ENTER();
    return api_typed_acc("orma_get_accumulate_typed", 0, 1, API_GET_ACCUMULATE_ARGS);
}
