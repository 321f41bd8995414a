/* api_comm.c -- put and get: argument checks, then the inline fast path. */
#include "api_check.h"
#include "dtype_type.h"
#include "rma_comm.h"

/* Every check of an access, in the order a user would want to hear of them;
 * on success the byte length and the byte offset at the target. */
static inline int api_rma_check(const char *call, const void *origin, size_t origin_count,
                                orma_type origin_type, int target, orma_aint target_disp, size_t target_count,
                                orma_type target_type, orma_win handle, struct rma_win **win_p, size_t *len_p,
                                size_t *offset_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win(call, handle, &win);
    if (status)
        return status;
    if (__builtin_expect(!dtype_is_valid(origin_type) || !dtype_is_valid(target_type), 0))
        return util_error(ORMA_ERR_TYPE, "%s: %s datatype is not valid", call,
                          dtype_is_valid(origin_type) ? "target" : "origin");
    if (__builtin_expect((unsigned)target >= (unsigned)win->nranks, 0))
        return util_error(ORMA_ERR_RANK, "%s to rank %d: the window has ranks 0..%d", call, target,
                          win->nranks - 1);
    size_t len, tlen;
    if (__builtin_mul_overflow(origin_count, origin_type->size, &len) ||
        __builtin_mul_overflow(target_count, target_type->size, &tlen))
        return util_error(ORMA_ERR_COUNT, "%s: count times element size overflows", call);
    if (__builtin_expect(len != tlen, 0))
        return util_error(ORMA_ERR_TYPE, "%s: origin holds %zu bytes (%zu x %s) but target %zu bytes (%zu x %s)",
                          call, len, origin_count, origin_type->name, tlen, target_count, target_type->name);
    if (__builtin_expect(len && !origin, 0))
        return util_error(ORMA_ERR_ARG, "%s: origin buffer is NULL for %zu bytes", call, len);
    int next = rma_epoch_peek(win->epoch_state, RMA_EV_OP);
    if (__builtin_expect(next < 0, 0))
        return rma_epoch_apply(&win->epoch_state, RMA_EV_OP);
    int acc = RMA_EPOCH_ACCESS(win->epoch_state);
    if (acc == RMA_ACC_START || acc == RMA_ACC_LOCK) {
        status = rma_target_check(win, target, call);
        if (status)
            return status;
    }
    size_t offset = (size_t)target_disp;
    if (__builtin_expect(target_disp < 0 && len, 0))
        return util_error(ORMA_ERR_DISP, "%s to rank %d: negative displacement %ld", call, target,
                          (long)target_disp);
    if (win->flavor != ORMA_WIN_FLAVOR_DYNAMIC && len) {
        const struct rma_target *t = &win->targets[target];
        if (__builtin_mul_overflow((size_t)target_disp, (size_t)t->disp_unit, &offset) || offset > t->size ||
            len > t->size - offset)
            return util_error(ORMA_ERR_RANGE, "%s of %zu bytes at displacement %ld (unit %d) exceeds rank %d's "
                              "window of %zu bytes", call, len, (long)target_disp, t->disp_unit, target,
                              t->size);
    }
    win->epoch_state = next;
    *win_p = win;
    *len_p = len;
    *offset_p = offset;
    return ORMA_SUCCESS;
}

int orma_put(const void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,
             size_t target_count, orma_type target_type, orma_win handle)
{
    struct rma_win *win = NULL;
    size_t len = 0, offset = 0;
    int status = api_rma_check("orma_put", origin, origin_count, origin_type, target, target_disp, target_count,
                               target_type, handle, &win, &len, &offset);
    if (__builtin_expect(status || !len, 0))
        return status;
    return rma_put(win, target, origin, len, offset);
}

int orma_get(void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,
             size_t target_count, orma_type target_type, orma_win handle)
{
    struct rma_win *win = NULL;
    size_t len = 0, offset = 0;
    int status = api_rma_check("orma_get", origin, origin_count, origin_type, target, target_disp, target_count,
                               target_type, handle, &win, &len, &offset);
    if (__builtin_expect(status || !len, 0))
        return status;
    return rma_get(win, target, origin, len, offset);
}
