/* api_check.h -- what every entry point checks first. */
#ifndef ORMA_API_CHECK_H
#define ORMA_API_CHECK_H

#include "api_race.h"
#include "rma_legal.h"
#include "rma_mt.h"
#include "rma_watch.h"
#include "rma_win.h"
#include "util_status.h"

extern int api_state; /* 0 before orma_init, 1 running, 2 finalized */

static inline int api_check_init(const char *call)
{
    if (__builtin_expect(api_state == 1, 1))
        return ORMA_SUCCESS;
    return util_error(ORMA_ERR_NOT_INIT, "%s: orma is %s", call,
                      api_state == 0 ? "not initialized (call orma_init first)" : "already finalized");
}

/* The live window behind handle, or ORMA_ERR_WIN. */
static inline int api_check_win(const char *call, orma_win handle, struct rma_win **win_p)
{
    int status = api_check_init(call);
    if (status)
        return status;
    struct rma_win *win = rma_win_lookup(handle);
    if (__builtin_expect(!win, 0))
        return util_error(ORMA_ERR_WIN, "%s: window handle 0x%llx is %s", call, (unsigned long long)handle,
                          handle == ORMA_WIN_NULL ? "ORMA_WIN_NULL" : "not a live window (freed or never created)");
    if (__builtin_expect(win->peer_lost != 0, 0))
        return rma_watch_lost(win, call);
    *win_p = win;
    return ORMA_SUCCESS;
}

/* status, or ORMA_ERR_PEER when the call gave up waiting for a rank of
 * another job that is gone (rma_watch.h). */
static inline int api_lost_after(const struct rma_win *win, const char *call, int status)
{
    return !status && __builtin_expect(win->peer_lost != 0, 0) ? rma_watch_lost(win, call) : status;
}

/* api_check_win, then the call's epoch event applied (rma_legal.h). */
static inline int api_check_win_event(const char *call, orma_win handle, int event, struct rma_win **win_p)
{
    int status = api_check_win(call, handle, win_p);
    return status ? status : rma_epoch_event(*win_p, event);
}

/* api_check_win for a call that writes through out (named name). */
static inline int api_check_win_out(const char *call, orma_win handle, const void *out, const char *name,
                                    struct rma_win **win_p)
{
    int status = api_check_win(call, handle, win_p);
    if (!status && !out)
        status = util_error(ORMA_ERR_ARG, "%s: %s is NULL", call, name);
    return status;
}

/* api_check_win for a call of dynamic windows only. */
static inline int api_check_win_dynamic(const char *call, orma_win handle, struct rma_win **win_p)
{
    int status = api_check_win(call, handle, win_p);
    if (!status && (*win_p)->flavor != ORMA_WIN_FLAVOR_DYNAMIC)
        status = util_error(ORMA_ERR_FLAVOR, "%s: the window is not dynamic", call);
    return status;
}

/* The public call name(params) as its body impl(args) (static in the same
 * file; its window parameter named handle), holding the window under
 * ORMA_THREAD_MULTIPLE; otherwise a
 * jump to the body -- a guard in the body itself cost a lock, a put and an
 * unlock 3 ns of 26 (its cleanup made the body's tail calls calls). */
#define API_MT_CALL(name, impl, params, args)                                                                \
    static __attribute__((noinline, cold)) int impl##_mt params                                              \
    {                                                                                                         \
        RMA_MT_GUARD(handle);                                                                                 \
        return impl args;                                                                                     \
    }                                                                                                         \
    int name params                                                                                          \
    {                                                                                                         \
        API_RACE_ENTER();                                                                                     \
        return __builtin_expect(!rma_threads, 1) ? impl args : impl##_mt args;                                \
    }
/* The same for fence and PSCW calls (RMA_MT_SYNC_GUARD). */
#define API_MT_SYNC_CALL(name, impl, params, args)                                                           \
    static __attribute__((noinline, cold)) int impl##_mt params                                              \
    {                                                                                                         \
        RMA_MT_SYNC_GUARD(handle, #name);                                                                     \
        return impl args;                                                                                     \
    }                                                                                                         \
    int name params                                                                                          \
    {                                                                                                         \
        API_RACE_ENTER();                                                                                     \
        return __builtin_expect(!rma_threads, 1) ? impl args : impl##_mt args;                                \
    }

/* ORMA_INFO_NULL or a valid info object (api_info.c). */
int api_info_valid(const char *call, orma_info info);

#endif
