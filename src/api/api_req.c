/* api_req.c -- request-based operations and their completion. */
#include "api_rma.h"
#include "rma_req.h"

/* The operation's status, then a request for it.  Over the net transport
 * an operation is only queued until its epoch's next flush ([004]): the
 * request's is done now, so that the request is complete when created. */
static int api_req_finish(const char *call, int op_status, orma_win win, orma_request *request_p)
{
    RMA_MT_GUARD(win);
    struct rma_win *w = op_status ? NULL : rma_win_lookup(win);
    if (w && (w->net || w->ngathered || w->nboxed)) /* and gathered or boxed gets (rma_gather.h, rma_box.h) */
        op_status = rma_flush_ops(w, -1, 1);
    if (op_status)
        return op_status;
    int status = rma_req_create(ORMA_SUCCESS, request_p);
    if (status)
        return util_error(status, "%s: %s", call, orma_error_message());
    if (__builtin_expect(w && w->race != NULL, 0)) /* its origin buffer is checked at its completion */
        rma_race_request(w, *request_p);
    return ORMA_SUCCESS;
}

static int api_req_check(const char *call, orma_request *request_p)
{
    int status = api_check_init(call);
    if (!status && !request_p)
        status = util_error(ORMA_ERR_ARG, "%s: request_p is NULL", call);
    return status;
}

/* Every request-based call: check request_p, issue the operation (expr,
 * passive epochs only), hand out a request for it. */
#define API_REQ(call, request_p, expr)                                                                       \
    do {                                                                                                     \
        int status_ = api_req_check(call, request_p);                                                        \
        return status_ ? status_ : api_req_finish(call, (expr), win, request_p);                             \
    } while (0)

int orma_rput(API_PUT_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rput", request_p, api_put("orma_rput", 1, origin, API_COPY_ARGS));
}

int orma_rget(API_GET_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rget", request_p, api_get("orma_rget", 1, origin, API_COPY_ARGS));
}

int orma_raccumulate(API_ACCUMULATE_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_raccumulate", request_p, api_get_accumulate("orma_raccumulate", 1, 0, API_ACCUMULATE_ARGS));
}

int orma_rget_accumulate(API_GET_ACCUMULATE_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rget_accumulate", request_p,
            api_get_accumulate("orma_rget_accumulate", 1, 1, API_GET_ACCUMULATE_ARGS));
}

int orma_rput_typed(API_PUT_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rput_typed", request_p, api_typed_copy("orma_rput_typed", 1, 1, (void *)origin, API_COPY_ARGS));
}

int orma_rget_typed(API_GET_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rget_typed", request_p, api_typed_copy("orma_rget_typed", 0, 1, origin, API_COPY_ARGS));
}

int orma_raccumulate_typed(API_ACCUMULATE_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_raccumulate_typed", request_p, api_typed_acc("orma_raccumulate_typed", 1, 0, API_ACCUMULATE_ARGS));
}

int orma_rget_accumulate_typed(API_GET_ACCUMULATE_PARAMS, orma_request *request_p)
{
    API_RACE_ENTER();
    API_REQ("orma_rget_accumulate_typed", request_p,
            api_typed_acc("orma_rget_accumulate_typed", 1, 1, API_GET_ACCUMULATE_ARGS));
}

/* Completes *request_p if it can (block: it must); *done_p tells. */
static int api_req_complete(const char *call, orma_request *request_p, int block, int *done_p)
{
    *done_p = 1;
    if (*request_p == ORMA_REQUEST_NULL)
        return ORMA_SUCCESS;
    int done = 0, op_status = ORMA_SUCCESS;
    for (;;) {
        if (rma_req_query(*request_p, &done, &op_status))
            return util_error(ORMA_ERR_REQUEST, "%s: request 0x%llx is not a live request (completed and freed, "
                              "or never created)", call, (unsigned long long)*request_p);
        if (done || !block)
            break;
    }
    *done_p = done;
    if (!done)
        return ORMA_SUCCESS;
    if (__builtin_expect(rma_race_sites, 0))
        rma_race_request_done(*request_p, call);
    rma_req_free(*request_p);
    *request_p = ORMA_REQUEST_NULL;
    return op_status;
}

int orma_wait(orma_request *request_p)
{
    API_RACE_ENTER();
    int status = api_check_init("orma_wait");
    if (status)
        return status;
    if (!request_p)
        return util_error(ORMA_ERR_ARG, "orma_wait: request_p is NULL");
    int done;
    return api_req_complete("orma_wait", request_p, 1, &done);
}

int orma_test(orma_request *request_p, int *flag_p)
{
    API_RACE_ENTER();
    int status = api_check_init("orma_test");
    if (status)
        return status;
    if (!request_p || !flag_p)
        return util_error(ORMA_ERR_ARG, "orma_test: %s is NULL", request_p ? "flag_p" : "request_p");
    int done = 0;
    status = api_req_complete("orma_test", request_p, 0, &done);
    if (!status)
        *flag_p = done;
    return status;
}

int orma_waitall(size_t count, orma_request *requests)
{
    API_RACE_ENTER();
    int status = api_check_init("orma_waitall");
    if (status)
        return status;
    if (count && !requests)
        return util_error(ORMA_ERR_ARG, "orma_waitall: requests is NULL for %zu requests", count);
    int first = ORMA_SUCCESS;
    for (size_t i = 0; i < count; i++) {
        int done;
        int rc = api_req_complete("orma_waitall", &requests[i], 1, &done);
        if (rc && !first)
            first = rc;
    }
    return first;
}
