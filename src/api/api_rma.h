/* api_rma.h -- the checks every communication call makes, in the order a
 * user would want to hear of them: the window and the rank first, the
 * types and buffers (each call's own), then the epoch, the target's place
 * in it and the range at the target.  Nothing is issued until all pass. */
#ifndef ORMA_API_RMA_H
#define ORMA_API_RMA_H

#include "api_check.h"
#include "api_race.h"
#include "api_sig.h"
#include "dtype_derived.h"
#include "dtype_op.h"
#include "rma_comm.h"

/* A check's verdict on an operation that the open epoch allows and that has
 * nothing to do: one to ORMA_PROC_NULL (api_rma_access_at), or of no data.
 * A positive value, never an orma status: api_rma_done turns it into
 * success. */
#define API_RMA_NOTHING RMA_LEGAL_NOTHING

static inline int api_rma_begin(const char *call, orma_win handle, int target, struct rma_win **win_p)
{
    int status = api_check_win(call, handle, win_p);
    return status ? status : rma_rank_legal(*win_p, target, call);
}

/* The access checked against the epoch and the target (rma_legal.h, in its
 * reporting mode); *next_p is for api_rma_commit. */
static inline int api_rma_access_at(const char *call, struct rma_win *win, int target, orma_aint target_disp,
                                    ptrdiff_t lo, size_t len, int passive_only, size_t *offset_p, int *next_p)
{
    return rma_access_legal(win, target, target_disp, lo, len, passive_only, call, offset_p, next_p);
}

/* The common case: from the displacement on. */
static inline int api_rma_access(const char *call, struct rma_win *win, int target, orma_aint target_disp,
                                 size_t len, int passive_only, size_t *offset_p, int *next_p)
{
    return api_rma_access_at(call, win, target, target_disp, 0, len, passive_only, offset_p, next_p);
}

/* The epoch records an operation unless the target refused it: an address
 * of a dynamic window with nothing attached is only found out when the
 * operation is performed, and a call that fails that way issued nothing. */
static inline int api_rma_commit(struct rma_win *win, int next, int status)
{
    if (__builtin_expect(status != ORMA_ERR_RANGE, 1))
        rma_epoch_set(win, next);
    return status;
}

/* A check that did not say "go on": an error, or API_RMA_NOTHING, which
 * the epoch records as an operation issued. */
static inline int api_rma_done(struct rma_win *win, int next, int status)
{
    return status == API_RMA_NOTHING ? api_rma_commit(win, next, ORMA_SUCCESS) : status;
}

/* Communication calls take predefined types; a derived one is named as
 * such (pack it, or send its bytes as ORMA_BYTE). */
static inline int api_rma_type(const char *call, orma_type t, const char *which)
{
    if (__builtin_expect(dtype_is_valid(t), 1))
        return ORMA_SUCCESS;
    if (dtype_is_type(t))
        return util_error(ORMA_ERR_TYPE, "%s: the %s datatype is derived; this call takes predefined types only "
                          "(orma_pack can flatten it)", call, which);
    return util_error(ORMA_ERR_TYPE, "%s: %s datatype is not valid", call, which);
}

/* An accumulate's op that its element type lacks, the rule quoted. */
static inline int api_rma_op_undefined(const char *call, int target, int op, int typeid_)
{
    return util_error(ORMA_ERR_OP, "%s to rank %d: %s is not defined for %s%s", call, target, dtype_op_name(op),
                      orma_predefined_types.types[typeid_].name,
                      typeid_ == ORMA_TYPEID_CHAR   ? " (MPI-4.1 6.9.2 gives characters REPLACE and NO_OP only; "
                                                      "ORMA_CHECK=1 holds to that)"
                      : typeid_ == ORMA_TYPEID_BYTE ? " (MPI-4.1 6.9.2 gives bytes the bitwise ops, REPLACE and "
                                                      "NO_OP only; ORMA_CHECK=1 holds to that)"
                                                    : "");
}

/* count elements of type span *len_p bytes; ORMA_ERR_COUNT on overflow. */
static inline int api_rma_span(const char *call, size_t count, orma_type type, size_t *len_p)
{
    if (__builtin_expect(__builtin_mul_overflow(count, type->extent, len_p), 0))
        return util_error(ORMA_ERR_COUNT, "%s: %zu elements of %s overflow the address space", call, count,
                          type->name);
    return ORMA_SUCCESS;
}

/* The parameters of put and get, and the arguments an entry point below
 * (api_put, api_get, api_typed_copy) takes after the origin buffer: one
 * list for the contiguous and the typed calls, blocking or request-based
 * (these add an orma_request *request_p). */
#define API_PUT_PARAMS                                                                                       \
    const void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,       \
        size_t target_count, orma_type target_type, orma_win win
#define API_GET_PARAMS                                                                                       \
    void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,             \
        size_t target_count, orma_type target_type, orma_win win
#define API_COPY_ARGS origin_count, origin_type, target, target_disp, target_count, target_type, win

/* The parameters of accumulate and get_accumulate, and the arguments an
 * entry point below (api_get_accumulate, api_typed_acc) takes after call,
 * passive_only and fetch: one list for the contiguous and the typed calls,
 * blocking or request-based (these add an orma_request *request_p). */
#define API_ACCUMULATE_PARAMS                                                                                \
    const void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,       \
        size_t target_count, orma_type target_type, orma_op op, orma_win win
#define API_ACCUMULATE_ARGS                                                                                  \
    origin, origin_count, origin_type, NULL, 0, NULL, target, target_disp, target_count, target_type, op, win
#define API_GET_ACCUMULATE_PARAMS                                                                            \
    const void *origin, size_t origin_count, orma_type origin_type, void *result, size_t result_count,       \
        orma_type result_type, int target, orma_aint target_disp, size_t target_count, orma_type target_type, \
        orma_op op, orma_win win
#define API_GET_ACCUMULATE_ARGS                                                                              \
    origin, origin_count, origin_type, result, result_count, result_type, target, target_disp, target_count, \
        target_type, op, win

/* A contiguous put or get of count elements of the predefined type on both
 * sides, whole, on win's inline path: rma_copy_try, or rma_copy_try_race
 * (the access recorded first) in a window the race checker checks.  1
 * when issued, its status in *status_p; 0: the checked path.  For
 * api_copy_try and api_notify_try. */
static inline int api_copy_try_win(const char *call, int put, struct rma_win *win, int target,
                                   orma_aint target_disp, const void *origin, size_t count, orma_type type,
                                   int *status_p)
{
    size_t len = count * type->extent;
    if (__builtin_expect(win->race != NULL, 0)) {
        struct rma_race_access ra = {.call = call, .kind = put ? RMA_RACE_PUT : RMA_RACE_GET, .len = len,
                                     .origin = put ? origin : NULL, .otype = type, .ocount = count, .fetch = !put};
        return rma_copy_try_race(win, put, target, target_disp, (void *)origin, len, &ra, status_p);
    }
    return rma_copy_try(win, put, target, target_disp, (void *)origin, len, status_p);
}

/* The entry points behind orma_put ... orma_get_accumulate, shared with the
 * request-based variants. */
int api_put(const char *call, int passive_only, const void *origin, size_t origin_count, orma_type origin_type,
            int target, orma_aint target_disp, size_t target_count, orma_type target_type, orma_win handle);
int api_get(const char *call, int passive_only, void *origin, size_t origin_count, orma_type origin_type,
            int target, orma_aint target_disp, size_t target_count, orma_type target_type, orma_win handle);
int api_get_accumulate(const char *call, int passive_only, int fetch, const void *origin, size_t origin_count,
                       orma_type origin_type, void *result, size_t result_count, orma_type result_type, int target,
                       orma_aint target_disp, size_t target_count, orma_type target_type, orma_op op,
                       orma_win handle);
/* ... and behind the typed calls (api_typed.c): origin NULL-able types
 * and buffers as orma_get_accumulate_typed. */
int api_typed_copy(const char *call, int put, int passive_only, void *origin, size_t ocount, orma_type otype,
                   int target, orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle);
int api_typed_acc(const char *call, int passive_only, int fetch, const void *origin, size_t ocount,
                  orma_type otype, void *result, size_t rcount, orma_type rtype, int target,
                  orma_aint target_disp, size_t tcount, orma_type ttype, orma_op op, orma_win handle);

#endif
