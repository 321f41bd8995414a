/* api_notify.c -- notified put, get and accumulate, and the target's calls
 * on its counters (orma.h, "Notified access"; rma_notify.h).
 *
 * A notified operation is the plain one -- its checks, its fast path, its
 * errors -- issued with the window's notify_issuing set, so that its data
 * goes now rather than into a queue, box or gather, and then the counter's
 * raise behind it. */
#include "api_rma.h"
#include "rma_notify.h"

/* The checks a notified call makes before the plain call's own; *h_p the
 * target's counters (NULL: net, or ORMA_PROC_NULL). */
static int api_notify_begin(const char *call, orma_win handle, int target, int id, int nop, struct rma_win **win_p,
                            struct rma_notify_head **h_p)
{
    *h_p = NULL;
    int status = api_rma_begin(call, handle, target, win_p);
    if (status)
        return status;
    if (nop != ORMA_NOTIFY_ADD && nop != ORMA_NOTIFY_SET)
        return util_error(ORMA_ERR_NOTIFY, "%s: rank %d: notification op %d is neither ORMA_NOTIFY_ADD nor "
                          "ORMA_NOTIFY_SET", call, (*win_p)->rank, nop);
    return target == ORMA_PROC_NULL ? ORMA_SUCCESS : rma_notify_check(*win_p, target, id, call, h_p);
}

/* Both types predefined: the plain call's path; else the typed one. */
static int api_notify_plain(orma_type a, orma_type b)
{
    return dtype_is_valid(a) && dtype_is_valid(b);
}

/* The common case whole, as api_copy_try: one predefined type and count
 * on both sides, a single-threaded program, a target mapped here and open,
 * whose counters are mapped here already: the copy, then the raise.  1
 * when issued, its status in *status_p; 0: the checked path. */
static inline int api_notify_try(const char *call, int put, void *origin, size_t ocount, orma_type otype, int target,
                                 orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle, int id,
                                 int nop, uint64_t value, int *status_p)
{
    if (otype != ttype || ocount != tcount || api_state != 1 || rma_threads || !dtype_is_valid(otype) ||
        ocount > SIZE_MAX / otype->extent || id < 0 || (nop != ORMA_NOTIFY_ADD && nop != ORMA_NOTIFY_SET))
        return 0;
    struct rma_win *win = rma_win_lookup(handle);
    if (!win || (unsigned)target >= (unsigned)win->nranks)
        return 0;
    struct rma_notify_head *h = rma_notify_cached(win, target);
    if (!h || (uint64_t)id >= h->n)
        return 0;
    win->notify_issuing = 1;
    int issued = api_copy_try_win(call, put, win, target, target_disp, origin, ocount, otype, status_p);
    win->notify_issuing = 0;
    if (issued && *status_p == ORMA_SUCCESS)
        rma_notify_apply(h, (uint32_t)id, nop, value);
    return issued;
}

static int api_notify_copy(const char *call, int put, void *origin, size_t ocount, orma_type otype, int target,
                           orma_aint target_disp, size_t tcount, orma_type ttype, orma_win handle, int id, int nop,
                           uint64_t value)
{
    int status;
    if (api_notify_try(call, put, origin, ocount, otype, target, target_disp, tcount, ttype, handle, id, nop, value,
                       &status))
        return status;
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    struct rma_notify_head *h;
    status = api_notify_begin(call, handle, target, id, nop, &win, &h);
    if (status)
        return status;
    win->notify_issuing = 1;
    if (api_notify_plain(otype, ttype))
        status = put ? api_put(call, 0, origin, ocount, otype, target, target_disp, tcount, ttype, handle)
                     : api_get(call, 0, origin, ocount, otype, target, target_disp, tcount, ttype, handle);
    else
        status = api_typed_copy(call, put, 0, origin, ocount, otype, target, target_disp, tcount, ttype, handle);
    win->notify_issuing = 0;
    if (status || target == ORMA_PROC_NULL)
        return status;
    return rma_notify_issue(win, target, h, id, nop, value);
}

int orma_put_notify(const void *origin, size_t origin_count, orma_type origin_type, int target,
                    orma_aint target_disp, size_t target_count, orma_type target_type, orma_win win, int id,
                    int nop, uint64_t value)
{
    API_RACE_ENTER();
    return api_notify_copy("orma_put_notify", 1, (void *)origin, origin_count, origin_type, target, target_disp,
                           target_count, target_type, win, id, nop, value);
}

int orma_get_notify(void *origin, size_t origin_count, orma_type origin_type, int target, orma_aint target_disp,
                    size_t target_count, orma_type target_type, orma_win win, int id, int nop, uint64_t value)
{
    API_RACE_ENTER();
    return api_notify_copy("orma_get_notify", 0, origin, origin_count, origin_type, target, target_disp,
                           target_count, target_type, win, id, nop, value);
}

int orma_accumulate_notify(const void *origin, size_t origin_count, orma_type origin_type, int target,
                           orma_aint target_disp, size_t target_count, orma_type target_type, orma_op op,
                           orma_win handle, int id, int nop, uint64_t value)
{
    API_RACE_ENTER();
    static const char call[] = "orma_accumulate_notify";
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    struct rma_notify_head *h;
    int status = api_notify_begin(call, handle, target, id, nop, &win, &h);
    if (status)
        return status;
    win->notify_issuing = 1;
    if (api_notify_plain(origin_type, target_type))
        status = api_get_accumulate(call, 0, 0, origin, origin_count, origin_type, NULL, 0, NULL, target,
                                    target_disp, target_count, target_type, op, handle);
    else
        status = api_typed_acc(call, 0, 0, origin, origin_count, origin_type, NULL, 0, NULL, target,
                               target_disp, target_count, target_type, op, handle);
    win->notify_issuing = 0;
    if (status || target == ORMA_PROC_NULL)
        return status;
    return rma_notify_issue(win, target, h, id, nop, value);
}

int orma_win_notify_alloc(orma_win handle, size_t n)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_notify_alloc", handle, &win);
    return status ? status : rma_notify_alloc(win, n);
}

int orma_win_notify_free(orma_win handle)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_notify_free", handle, &win);
    if (!status)
        rma_notify_free(win);
    return status;
}

int orma_win_notify_num(orma_win handle, size_t *n_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win_out("orma_win_notify_num", handle, n_p, "n_p", &win);
    if (status)
        return status;
    const struct rma_notify_head *h = atomic_load_explicit(&win->notify, memory_order_acquire);
    *n_p = h ? (size_t)h->n : 0;
    return ORMA_SUCCESS;
}

/* The window and our counter id; the net transport's arrivals handled
 * first (a target polling its counter is how it makes progress). */
static int api_notify_own(const char *call, orma_win handle, int id, _Atomic uint64_t **ctr_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win(call, handle, &win);
    if (status)
        return status;
    if (util_wait_hook)
        util_wait_hook();
    return rma_notify_own(win, id, call, ctr_p);
}

int orma_notify_read(orma_win handle, int id, uint64_t *value_p)
{
    static const char call[] = "orma_notify_read";
    if (!value_p)
        return util_error(ORMA_ERR_ARG, "%s: value_p is NULL", call);
    _Atomic uint64_t *c;
    int status = api_notify_own(call, handle, id, &c);
    if (!status)
        *value_p = atomic_load_explicit(c, memory_order_acquire);
    return status;
}

int orma_notify_set(orma_win handle, int id, uint64_t value)
{
    _Atomic uint64_t *c;
    int status = api_notify_own("orma_notify_set", handle, id, &c);
    if (!status)
        atomic_store_explicit(c, value, memory_order_seq_cst);
    return status;
}

int orma_notify_test(orma_win handle, int id, uint64_t value, int *flag_p)
{
    static const char call[] = "orma_notify_test";
    if (!flag_p)
        return util_error(ORMA_ERR_ARG, "%s: flag_p is NULL", call);
    _Atomic uint64_t *c;
    int status = api_notify_own(call, handle, id, &c);
    if (!status)
        *flag_p = rma_notify_reached(atomic_load_explicit(c, memory_order_acquire), value);
    return status;
}

/* Every id checked before any wait, and the wait without the window's
 * lock: other threads issue meanwhile. */
static int api_notify_wait(const char *call, orma_win handle, size_t n, const int *ids, const uint64_t *values,
                           int any, size_t *index_p)
{
    if (n && (!ids || !values))
        return util_error(ORMA_ERR_ARG, "%s: %s is NULL for %zu counters", call, ids ? "values" : "ids", n);
    if (any && !n)
        return util_error(ORMA_ERR_ARG, "%s: no counters to wait on", call);
    if (any && !index_p)
        return util_error(ORMA_ERR_ARG, "%s: index_p is NULL", call);
    struct rma_win *win = NULL;
    int status = api_check_win(call, handle, &win);
    for (size_t i = 0; i < n && !status; i++) {
        _Atomic uint64_t *c;
        status = rma_notify_own(win, ids[i], call, &c);
    }
    return status ? status : rma_notify_wait(win, n, ids, values, any, index_p);
}

int orma_notify_wait(orma_win handle, int id, uint64_t value)
{
    return api_notify_wait("orma_notify_wait", handle, 1, &id, &value, 0, NULL);
}

int orma_notify_waitany(orma_win handle, size_t n, const int *ids, const uint64_t *values, size_t *index_p)
{
    return api_notify_wait("orma_notify_waitany", handle, n, ids, values, 1, index_p);
}

int orma_notify_waitall(orma_win handle, size_t n, const int *ids, const uint64_t *values)
{
    return api_notify_wait("orma_notify_waitall", handle, n, ids, values, 0, NULL);
}
