/* api_acc.c -- the accumulate family: argument checks (all of them before
 * anything is written), then rma_acc. */
#include "api_rma.h"
#include "dtype_op.h"
#include "rma_acc.h"

/* The side which (origin or result) is count elements of a predefined type,
 * the same count of the same type as the target. */
static inline int api_acc_side(const char *call, int target, const char *which, size_t count, orma_type type,
                               size_t target_count, orma_type target_type)
{
    int status = api_rma_type(call, type, which);
    if (status)
        return status;
    if (type != target_type || count != target_count)
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: %s (%zu x %s) and target (%zu x %s) must be the same count "
                          "of the same type", call, target, which, count, type->name, target_count,
                          target_type->name);
    return ORMA_SUCCESS;
}

/* The checks of accumulate (fetch: get_accumulate and fetch_and_op); on
 * success the byte length and the offset at the target. */
static int api_acc_check(const char *call, int passive_only, const void *origin, size_t origin_count,
                         orma_type origin_type, int fetch, void *result, size_t result_count, orma_type result_type,
                         int target, orma_aint target_disp, size_t target_count, orma_type target_type, orma_op op,
                         orma_win handle, struct rma_win **win_p, size_t *len_p, size_t *offset_p, int *next_p)
{
    int status = api_rma_begin(call, handle, target, win_p);
    if (status)
        return status;
    if ((status = api_rma_type(call, target_type, "target")))
        return status;
    if ((unsigned)op >= ORMA_OP_COUNT)
        return util_error(ORMA_ERR_OP, "%s to rank %d: %d is not an operation (ORMA_SUM .. ORMA_NO_OP)", call,
                          target, (int)op);
    if (!dtype_op_kernel((int)op, (int)target_type->id))
        return api_rma_op_undefined(call, target, (int)op, (int)target_type->id);
    /* with NO_OP the origin is ignored */
    if (op != ORMA_NO_OP && (status = api_acc_side(call, target, "origin", origin_count, origin_type, target_count,
                                                   target_type)))
        return status;
    if (fetch && (status = api_acc_side(call, target, "result", result_count, result_type, target_count,
                                        target_type)))
        return status;
    size_t len;
    if ((status = api_rma_span(call, target_count, target_type, &len)))
        return status;
    if (len && op != ORMA_NO_OP && !origin)
        return util_error(ORMA_ERR_ARG, "%s: origin buffer is NULL for %zu bytes", call, len);
    if (len && fetch && !result)
        return util_error(ORMA_ERR_ARG, "%s: result buffer is NULL for %zu bytes", call, len);
    *len_p = len;
    return api_rma_access(call, *win_p, target, target_disp, len, passive_only, offset_p, next_p);
}

int api_get_accumulate(const char *call, int passive_only, int fetch, const void *origin, size_t origin_count,
                       orma_type origin_type, void *result, size_t result_count, orma_type result_type, int target,
                       orma_aint target_disp, size_t target_count, orma_type target_type, orma_op op,
                       orma_win handle)
{
    /* the common case whole first (rma_acc_try) */
    struct rma_win *win = NULL;
    int status;
    if (!passive_only && origin_type == target_type && origin_count == target_count &&
        (!fetch || (result_type == target_type && result_count == target_count && result)) && api_state == 1 &&
        dtype_is_valid(target_type) && (win = rma_win_lookup(handle)) &&
        rma_acc_try(win, target, target_disp, origin, fetch ? result : NULL, target_count, (int)target_type->id,
                    (int)op, &status))
        return status;
    RMA_MT_GUARD(handle);
    win = NULL;
    size_t len = 0, offset = 0;
    int next = 0;
    status = api_acc_check(call, passive_only, origin, origin_count, origin_type, fetch, result, result_count,
                               result_type, target, target_disp, target_count, target_type, op, handle, &win,
                               &len, &offset, &next);
    struct rma_race_access ra = {.call = call, .kind = RMA_RACE_ACC, .op = (int)op,
                                 .typeid_ = status == ORMA_SUCCESS ? (int)target_type->id : 0, .offset = offset, .len = len,
                                 .origin = op == ORMA_NO_OP ? NULL : origin, .otype = origin_type,
                                 .ocount = origin_count, .fetch = fetch};
    if (op == ORMA_NO_OP && !fetch)
        ra.len = 0; /* touches nothing */
    if (api_race(win, target, target_disp, status, &ra))
        return api_rma_done(win, next, status);
    if (!len || (op == ORMA_NO_OP && !fetch))
        return api_rma_commit(win, next, ORMA_SUCCESS);
    struct xport_op rop = {.kind = XPORT_OP_ACC, .op = (uint8_t)op, .typeid_ = (uint16_t)target_type->id,
                         .target = target, .origin = (void *)origin, .result = result, .len = len,
                         .offset = offset};
    return api_rma_commit(win, next, api_race_after(win, target, rma_acc(win, &rop), &ra));
}

int orma_accumulate(API_ACCUMULATE_PARAMS)
{
    API_RACE_ENTER();
    return api_get_accumulate("orma_accumulate", 0, 0, API_ACCUMULATE_ARGS);
}

int orma_get_accumulate(API_GET_ACCUMULATE_PARAMS)
{
    API_RACE_ENTER();
    return api_get_accumulate("orma_get_accumulate", 0, 1, API_GET_ACCUMULATE_ARGS);
}

int orma_fetch_and_op(const void *origin, void *result, orma_type type, int target, orma_aint target_disp,
                      orma_op op, orma_win handle)
{
    API_RACE_ENTER();
    return api_get_accumulate("orma_fetch_and_op", 0, 1, origin, 1, type, result, 1, type, target, target_disp, 1,
                              type, op, handle);
}

int orma_compare_and_swap(const void *origin, const void *compare, void *result, orma_type type, int target,
                          orma_aint target_disp, orma_win handle)
{
    const char *call = "orma_compare_and_swap";
    API_RACE_ENTER();
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_rma_begin(call, handle, target, &win);
    if (status)
        return status;
    if ((status = api_rma_type(call, type, "element")))
        return status;
    if (!dtype_cas_allowed((int)type->id))
        return util_error(ORMA_ERR_TYPE, "%s to rank %d: not defined for %s (MPI-4.1 12.3.4: only integer, logical, "
                          "byte and address types)", call, target, type->name);
    if (!origin || !compare || !result)
        return util_error(ORMA_ERR_ARG, "%s: %s buffer is NULL", call,
                          !origin ? "origin" : !compare ? "compare" : "result");
    size_t offset = 0;
    int next = 0;
    status = api_rma_access(call, win, target, target_disp, type->extent, 0, &offset, &next);
    struct rma_race_access ra = {.call = call, .kind = RMA_RACE_ACC, .op = RMA_RACE_OP_CAS, .typeid_ = (int)type->id,
                                 .offset = offset, .len = type->extent};
    if (api_race(win, target, target_disp, status, &ra))
        return api_rma_done(win, next, status);
    struct xport_op rop = {.kind = XPORT_OP_CAS, .typeid_ = (uint16_t)type->id, .target = target,
                         .origin = (void *)origin, .result = result, .compare = compare, .len = type->extent,
                         .offset = offset};
    return api_rma_commit(win, next, api_race_after(win, target, rma_acc(win, &rop), &ra));
}
