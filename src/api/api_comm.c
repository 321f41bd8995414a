/* api_comm.c -- put and get: argument checks, then the inline fast path. */
#include "api_rma.h"

/* The checks of put and get; on success the byte length and the offset. */
static inline int api_copy_check(const char *call, int passive_only, const void *origin, size_t origin_count,
                                 orma_type origin_type, int target, orma_aint target_disp, size_t target_count,
                                 orma_type target_type, orma_win handle, struct rma_win **win_p, size_t *len_p,
                                 size_t *offset_p, int *next_p)
{
    int status = api_rma_begin(call, handle, target, win_p);
    if (status)
        return status;
    if ((status = api_rma_type(call, origin_type, "origin")) || (status = api_rma_type(call, target_type, "target")))
        return status;
    size_t len, tlen;
    if ((status = api_rma_span(call, origin_count, origin_type, &len)) ||
        (status = api_rma_span(call, target_count, target_type, &tlen)))
        return status;
    if (__builtin_expect(len != tlen || origin_count * origin_type->size != target_count * target_type->size, 0))
        return util_error(ORMA_ERR_TYPE, "%s: origin holds %zu bytes (%zu x %s) but target %zu bytes (%zu x %s)",
                          call, len, origin_count, origin_type->name, tlen, target_count, target_type->name);
    /* check mode: the same predefined type on both sides (or a pair and
     * its members, as MPI) */
    if (__builtin_expect(util_config.check, 0) && origin_type != target_type &&
        (status = api_sig_check(call, target, origin_count, origin_type, target_count, target_type)))
        return status;
    if (__builtin_expect(len && !origin, 0))
        return util_error(ORMA_ERR_ARG, "%s: origin buffer is NULL for %zu bytes", call, len);
    *len_p = len;
    return api_rma_access(call, *win_p, target, target_disp, len, passive_only, offset_p, next_p);
}

/* The common case whole (rma_copy_try, or rma_copy_try_race in a window
 * the race checker checks): the same predefined type and count on both
 * sides, not request-based.  1 when issued, its status in *status_p; 0:
 * the checked path. */
static inline int api_copy_try(const char *call, int put, int passive_only, const void *origin,
                               size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,
                               size_t target_count, orma_type target_type, orma_win handle, int *status_p)
{
    if (passive_only || origin_type != target_type || origin_count != target_count || api_state != 1 ||
        !dtype_is_valid(origin_type) || origin_count > SIZE_MAX / origin_type->extent)
        return 0;
    struct rma_win *win = rma_win_lookup(handle);
    return win && api_copy_try_win(call, put, win, target, target_disp, origin, origin_count, origin_type, status_p);
}

/* A put (put != 0) or get: the fast path whole, else every check, then the
 * transfer.  Inlined into both with put constant. */
static inline __attribute__((always_inline)) int api_copy(const char *call, int put, int passive_only,
                                                          void *origin, size_t origin_count, orma_type origin_type,
                                                          int target, orma_aint target_disp, size_t target_count,
                                                          orma_type target_type, orma_win handle)
{
    int status;
    if (api_copy_try(call, put, passive_only, origin, origin_count, origin_type, target, target_disp, target_count,
                     target_type, handle, &status))
        return status;
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    size_t len = 0, offset = 0;
    int next = 0;
    status = api_copy_check(call, passive_only, origin, origin_count, origin_type, target, target_disp,
                            target_count, target_type, handle, &win, &len, &offset, &next);
    struct rma_race_access ra = {.call = call, .kind = put ? RMA_RACE_PUT : RMA_RACE_GET, .offset = offset,
                                 .len = len, .ttype = target_type, .tcount = target_count,
                                 .origin = put ? origin : NULL, .otype = origin_type, .ocount = origin_count,
                                 .fetch = !put};
    if (__builtin_expect(api_race(win, target, target_disp, status, &ra) != ORMA_SUCCESS, 0))
        return api_rma_done(win, next, status);
    if (!len)
        return api_rma_commit(win, next, ORMA_SUCCESS);
    return api_rma_commit(win, next, api_race_after(win, target, put ? rma_put(win, target, origin, len, offset)
                                                                     : rma_get(win, target, origin, len, offset),
                                                    &ra));
}

int api_put(const char *call, int passive_only, const void *origin, size_t origin_count, orma_type origin_type,
            int target, orma_aint target_disp, size_t target_count, orma_type target_type, orma_win handle)
{
    return api_copy(call, 1, passive_only, (void *)origin, origin_count, origin_type, target, target_disp,
                    target_count, target_type, handle);
}

int api_get(const char *call, int passive_only, void *origin, size_t origin_count, orma_type origin_type,
            int target, orma_aint target_disp, size_t target_count, orma_type target_type, orma_win handle)
{
    return api_copy(call, 0, passive_only, origin, origin_count, origin_type, target, target_disp, target_count,
                    target_type, handle);
}

int orma_put(API_PUT_PARAMS)
{
    API_RACE_ENTER();
    return api_put("orma_put", 0, origin, API_COPY_ARGS);
}

int orma_get(API_GET_PARAMS)
{
    API_RACE_ENTER();
    return api_get("orma_get", 0, origin, API_COPY_ARGS);
}
