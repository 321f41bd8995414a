/* api_hints.c -- the window info keys orma understands (see orma.h), parsed
 * at creation and given back by orma_win_get_info. */
#include "api_check.h"
#include "api_hints.h"
#include "rma_notify.h"
#include "util_config.h"
#include "util_log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const api_order_names[] = {"rar", "raw", "war", "waw"};
#define API_ORDER_ALL (RMA_ORDER_RAR | RMA_ORDER_RAW | RMA_ORDER_WAR | RMA_ORDER_WAW)

/* A known key with a value outside its set.  Hints are advice, and both
 * host MPIs take such a value without a word: orma ignores it with a
 * warning, or refuses it in check mode. */
static int api_hint_refused(const char *call, const char *key, const char *v, const char *allowed)
{
    if (util_config.check)
        return util_error(ORMA_ERR_INFO, "%s: info %s must be %s, not \"%s\"", call, key, allowed, v);
    util_warn("%s: info %s=\"%s\" is not %s: ignored (ORMA_CHECK=1 refuses it)", call, key, v, allowed);
    return ORMA_SUCCESS;
}

static int api_hint_bool(const char *call, const char *key, const char *v, uint8_t *out)
{
    if (!strcmp(v, "true"))
        *out = 1;
    else if (!strcmp(v, "false"))
        *out = 0;
    else
        return api_hint_refused(call, key, v, "\"true\" or \"false\"");
    return ORMA_SUCCESS;
}

/* orma_notify_num: a request, not a hint, so a value that is not a count
 * fails creation whatever the check mode (the counters' calls would fail
 * later, further from the cause). */
static int api_hint_count(const char *call, const char *v, uint32_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-' || n > ORMA_NOTIFY_MAX)
        return util_error(ORMA_ERR_INFO, "%s: info orma_notify_num must be a count of 0 to %u, not \"%s\"", call,
                          ORMA_NOTIFY_MAX, v);
    *out = (uint32_t)n;
    return ORMA_SUCCESS;
}

/* "none", or a comma-separated subset of rar,raw,war,waw. */
static int api_hint_ordering(const char *call, const char *v, uint32_t *out)
{
    if (!strcmp(v, "none")) {
        *out = 0;
        return ORMA_SUCCESS;
    }
    uint32_t bits = 0;
    const char *p = v;
    for (;;) {
        size_t n = strcspn(p, ",");
        unsigned i;
        for (i = 0; i < 4; i++)
            if (n == 3 && !strncmp(p, api_order_names[i], 3))
                break;
        if (i == 4)
            return api_hint_refused(call, "accumulate_ordering", v,
                                    "\"none\" or a comma-separated list of rar, raw, war, waw");
        bits |= 1u << i;
        if (!p[n])
            break;
        p += n + 1;
    }
    *out = bits;
    return ORMA_SUCCESS;
}

/* The keys of info onto *h; creation: alloc_shared_noncontig too. */
static int api_hints_read(const char *call, orma_info info, int creation, struct rma_win_hints *h)
{
    if (info == ORMA_INFO_NULL)
        return ORMA_SUCCESS;
    char v[ORMA_INFO_VAL_MAX + 1];
    int flag = 0, status = ORMA_SUCCESS;
    if (!status && orma_info_get(info, "accumulate_ordering", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_ordering(call, v, &h->acc_ordering);
    if (!status && orma_info_get(info, "accumulate_ops", sizeof v, v, &flag) == ORMA_SUCCESS && flag) {
        if (!strcmp(v, "same_op"))
            h->same_op = 1;
        else if (!strcmp(v, "same_op_no_op"))
            h->same_op = 0;
        else
            status = api_hint_refused(call, "accumulate_ops", v, "\"same_op\" or \"same_op_no_op\"");
    }
    if (!status && orma_info_get(info, "no_locks", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_bool(call, "no_locks", v, &h->no_locks);
    if (!status && orma_info_get(info, "same_size", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_bool(call, "same_size", v, &h->same_size);
    if (!status && orma_info_get(info, "same_disp_unit", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_bool(call, "same_disp_unit", v, &h->same_disp_unit);
    if (!status && orma_info_get(info, "orma_unlock_local", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_bool(call, "orma_unlock_local", v, &h->unlock_local);
    if (!status && creation && orma_info_get(info, "orma_notify_num", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_count(call, v, &h->notify_num);
    if (!status && creation && orma_info_get(info, "orma_check_race", sizeof v, v, &flag) == ORMA_SUCCESS && flag)
        status = api_hint_bool(call, "orma_check_race", v, &h->check_race);
    if (!status && creation && orma_info_get(info, "alloc_shared_noncontig", sizeof v, v, &flag) == ORMA_SUCCESS &&
        flag)
        status = api_hint_bool(call, "alloc_shared_noncontig", v, &h->noncontig);
    return status;
}

int api_hints_parse(const char *call, orma_info info, struct rma_win_hints *h)
{
    *h = (struct rma_win_hints){.acc_ordering = API_ORDER_ALL, .unlock_local = (uint8_t)util_config.unlock_local};
    return api_hints_read(call, info, 1, h);
}

int api_hints_update(const char *call, orma_info info, struct rma_win_hints *h)
{
    struct rma_win_hints next = *h;
    int status = api_hints_read(call, info, 0, &next);
    if (!status)
        *h = next;
    return status;
}

int orma_win_get_info(orma_win handle, orma_info *info_p)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win_out("orma_win_get_info", handle, info_p, "info_p", &win);
    if (status)
        return status;
    const struct rma_win_hints *h = &win->hints;
    char order[32] = "";
    for (unsigned i = 0; i < 4; i++) {
        if (!(h->acc_ordering & (1u << i)))
            continue;
        if (order[0])
            strcat(order, ",");
        strcat(order, api_order_names[i]);
    }
    orma_info info = ORMA_INFO_NULL;
    status = orma_info_create(&info);
    if (!status)
        status = orma_info_set(info, "accumulate_ordering", order[0] ? order : "none");
    if (!status)
        status = orma_info_set(info, "accumulate_ops", h->same_op ? "same_op" : "same_op_no_op");
    if (!status)
        status = orma_info_set(info, "no_locks", h->no_locks ? "true" : "false");
    if (!status)
        status = orma_info_set(info, "same_size", h->same_size ? "true" : "false");
    if (!status)
        status = orma_info_set(info, "same_disp_unit", h->same_disp_unit ? "true" : "false");
    if (!status)
        status = orma_info_set(info, "orma_unlock_local", h->unlock_local ? "true" : "false");
    if (!status) {
        const struct rma_notify_head *nh = atomic_load_explicit(&win->notify, memory_order_acquire);
        char n[24];
        snprintf(n, sizeof n, "%llu", nh ? (unsigned long long)nh->n : 0ULL);
        status = orma_info_set(info, "orma_notify_num", n);
    }
    if (!status)
        status = orma_info_set(info, "orma_check_race", win->race ? "true" : "false");
    if (!status && win->flavor == ORMA_WIN_FLAVOR_SHARED) /* orma's parts are contiguous either way */
        status = orma_info_set(info, "alloc_shared_noncontig", h->noncontig ? "true" : "false");
    if (status) {
        if (info)
            orma_info_free(&info);
        return status;
    }
    *info_p = info;
    return ORMA_SUCCESS;
}

int orma_win_set_info(orma_win handle, orma_info info)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_set_info", handle, &win);
    if (!status)
        status = api_info_valid("orma_win_set_info", info);
    if (!status)
        status = api_hints_update("orma_win_set_info", info, &win->hints);
    return status;
}
