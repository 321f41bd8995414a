/* mpi_comm.c -- the communication calls: put, get, the accumulate family
 * and their request-based forms, with int counts and (MPI 4.0) with
 * MPI_Count ones, both through the same MPI_Count-based functions.
 * Datatypes are decoded (mpi_dtype.c);
 * predefined ones on both sides take orma's contiguous calls, anything
 * else the typed ones, which move the bytes once between the layouts.
 * Requests are MPI generalized requests, so the host's MPI_Wait, MPI_Test
 * and friends complete them: on one node the operation is done when the
 * call returns, so they are complete from the start. */
#include "mpi_orma.h"
#include "api_face.h"

#include <stddef.h>

/* count and type of one side as orma's (*count_p, *o_p); MPI's error
 * class or 0.  A count orma cannot take -- negative, past size_t, or whose
 * data bytes overflow size_t -- is MPI_ERR_COUNT, never truncated. */
static int mpi_side(struct mpi_win *w, const char *call, MPI_Count count, MPI_Datatype type, size_t *count_p,
                    orma_type *o_p)
{
    size_t n, bytes;
    if (__builtin_add_overflow(count, 0, &n))
        return mpi_win_error_msg(w, call, MPI_ERR_COUNT, count < 0 ? "a negative count" : "a count past size_t");
    int status = mpi_type(type, o_p);
    if (status)
        return mpi_win_status(w, call, status == ORMA_ERR_UNSUPPORTED ? ORMA_ERR_TYPE : status);
    if (__builtin_mul_overflow(n, (*o_p)->size, &bytes))
        return mpi_win_error_msg(w, call, MPI_ERR_COUNT, "count times the datatype's size overflows size_t");
    *count_p = n;
    return 0;
}

/* A request-based operation's orma request, complete when made: freed now,
 * or, when the race checker looks (kept not NULL), kept for the host
 * request to end at the program's MPI_Wait or MPI_Test (mpi_greq_free),
 * so that its origin buffer is checked there, and at the flushes before. */
static int mpi_req_done(orma_request req, orma_request *kept)
{
    if (kept && __builtin_expect(rma_race_sites, 0)) {
        *kept = req;
        return ORMA_SUCCESS;
    }
    if (__builtin_expect(util_config.race, 0)) /* the wait is the program's call too */
        api_race_site(rma_race_cur);
    return orma_wait(&req);
}

int mpi_put_get(const char *call, int put, int passive, const int *notify, void *origin, MPI_Count ocount,
                MPI_Datatype otype, int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, struct mpi_win *w,
                orma_request *kept)
{
    target = mpi_rank(target);
    orma_type ot = NULL, tt = NULL, bottom = NULL;
    size_t oc = 0, tc = 0;
    int rc = mpi_side(w, call, ocount, otype, &oc, &ot);
    if (rc || (rc = mpi_side(w, call, tcount, ttype, &tc, &tt)))
        return rc;
    orma_request req = ORMA_REQUEST_NULL;
    int status = mpi_type_bottom(&origin, &oc, &ot, &bottom);
    if (status)
        goto out;
    if (notify) /* the target's counter raised by one behind the data */
        status = put ? orma_put_notify(origin, oc, ot, target, disp, tc, tt, w->win, *notify, ORMA_NOTIFY_ADD, 1)
                     : orma_get_notify(origin, oc, ot, target, disp, tc, tt, w->win, *notify, ORMA_NOTIFY_ADD, 1);
    else if (passive) /* the request-based rules: passive epochs only */
        status = put ? orma_rput_typed(origin, oc, ot, target, disp, tc, tt, w->win, &req)
                     : orma_rget_typed(origin, oc, ot, target, disp, tc, tt, w->win, &req);
    else if (ot->predefined && tt->predefined)
        status = put ? orma_put(origin, oc, ot, target, disp, tc, tt, w->win)
                     : orma_get(origin, oc, ot, target, disp, tc, tt, w->win);
    else
        status = put ? orma_put_typed(origin, oc, ot, target, disp, tc, tt, w->win)
                     : orma_get_typed(origin, oc, ot, target, disp, tc, tt, w->win);
    if (!status && req != ORMA_REQUEST_NULL)
        status = mpi_req_done(req, kept);
out:
    if (bottom)
        orma_type_free(&bottom);
    return mpi_win_status(w, call, status);
}

/* The common case whole, before any decoding: the same predefined type and
 * count on both sides, an epoch open to a target whose memory is mapped
 * here or reached by single-copy syscalls (rma_copy_try).  1 when issued,
 * its MPI status in *rc_p; 0: the checked path, which also finds every
 * error (mpi_try_win). */
static inline int mpi_copy_try(const char *call, int put, const void *origin, MPI_Count ocount, MPI_Datatype otype,
                               int target, MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win handle,
                               int *rc_p)
{
    if (otype != ttype || ocount != tcount || ocount <= 0)
        return 0;
    struct mpi_win *w;
    struct rma_win *win = mpi_try_win(handle, &w);
    orma_type t = win ? mpi_type_predefined(otype) : NULL;
    size_t len;
    int status;
    if (!t || __builtin_mul_overflow((size_t)ocount, t->extent, &len) ||
        !rma_copy_try(win, put, target, disp, (void *)origin, len, &status))
        return 0;
    *rc_p = mpi_win_status(w, call, status);
    return 1;
}

int PMPI_Put(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPI_RACE_SITE();
    int rc;
    if (mpi_copy_try("MPI_Put", 1, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype, win, &rc))
        return rc;
    MPI_WIN_OR_ERR(w, win, "MPI_Put");
    return mpi_put_get("MPI_Put", 1, 0, NULL, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, w, NULL);
}

int PMPI_Get(void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPI_RACE_SITE();
    int rc;
    if (mpi_copy_try("MPI_Get", 0, origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                     target_count, target_datatype, win, &rc))
        return rc;
    MPI_WIN_OR_ERR(w, win, "MPI_Get");
    return mpi_put_get("MPI_Get", 0, 0, NULL, origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, w, NULL);
}

/* accumulate and (fetch) get_accumulate: its result buffer may be NULL
 * where it holds no data, or MPI_BOTTOM with absolute addresses. */
static int mpi_acc(const char *call, int passive, int fetch, const void *origin, MPI_Count ocount,
                   MPI_Datatype otype, void *result, MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp,
                   MPI_Count tcount, MPI_Datatype ttype, MPI_Op op, struct mpi_win *w, orma_request *kept)
{
    target = mpi_rank(target);
    int oop = mpi_op(op);
    if (oop < 0)
        return mpi_win_error_msg(w, call, MPI_ERR_OP, "not a predefined operation (MPI-4.1 12.3.4)");
    if (oop == ORMA_NO_OP && !fetch)
        return mpi_win_error_msg(w, call, MPI_ERR_OP, "MPI_NO_OP is an operation of MPI_Get_accumulate, "
                                 "MPI_Rget_accumulate and MPI_Fetch_and_op only (MPI-4.1 12.3.4)");
    orma_type ot = NULL, rt = NULL, tt = NULL, obottom = NULL, rbottom = NULL;
    size_t oc = 0, rc_ = 0, tc = 0;
    int rc = mpi_side(w, call, tcount, ttype, &tc, &tt);
    if (!rc && oop != ORMA_NO_OP)
        rc = mpi_side(w, call, ocount, otype, &oc, &ot);
    if (!rc && fetch)
        rc = mpi_side(w, call, rcount, rtype, &rc_, &rt);
    if (rc)
        return rc;
    void *obuf = (void *)origin;
    if (!ot) { /* NO_OP: the origin is not read */
        ot = tt;
        oc = tc;
        obuf = NULL;
    }
    orma_request req = ORMA_REQUEST_NULL;
    int status = obuf ? mpi_type_bottom(&obuf, &oc, &ot, &obottom) : ORMA_SUCCESS;
    if (!status && fetch)
        status = mpi_type_bottom(&result, &rc_, &rt, &rbottom);
    if (status)
        goto out;
    if (fetch && !result && rc_ && rt->size) { /* data, and nowhere to put it */
        if (obottom)
            orma_type_free(&obottom);
        return mpi_win_error_msg(w, call, MPI_ERR_BUFFER, "a NULL buffer for data");
    }
    if (passive)
        status = fetch ? orma_rget_accumulate_typed(obuf, oc, ot, result, rc_, rt, target, disp, tc, tt,
                                                    (orma_op)oop, w->win, &req)
                       : orma_raccumulate_typed(obuf, oc, ot, target, disp, tc, tt, (orma_op)oop, w->win, &req);
    else if (tt->predefined && ot == tt && (!fetch || rt == tt) && oc == tc && (!fetch || rc_ == tc))
        status = fetch ? orma_get_accumulate(obuf, oc, ot, result, rc_, rt, target, disp, tc, tt, (orma_op)oop,
                                             w->win)
                       : orma_accumulate(obuf, oc, ot, target, disp, tc, tt, (orma_op)oop, w->win);
    else
        status = fetch ? orma_get_accumulate_typed(obuf, oc, ot, result, rc_, rt, target, disp, tc, tt,
                                                   (orma_op)oop, w->win)
                       : orma_accumulate_typed(obuf, oc, ot, target, disp, tc, tt, (orma_op)oop, w->win);
    if (!status && req != ORMA_REQUEST_NULL)
        status = mpi_req_done(req, kept);
out:
    if (obottom)
        orma_type_free(&obottom);
    if (rbottom)
        orma_type_free(&rbottom);
    return mpi_win_status(w, call, status);
}

/* An accumulate (result NULL) or get_accumulate whole, as mpi_copy_try:
 * 1 when done, its MPI status in *rc_p; 0: the checked path. */
static inline int mpi_acc_try(const char *call, const void *origin, MPI_Count ocount, MPI_Datatype otype, void *result,
                              MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp, MPI_Count tcount,
                              MPI_Datatype ttype, MPI_Op op, MPI_Win handle, int *rc_p)
{
    if (otype != ttype || ocount != tcount || ocount <= 0 || (result && (rtype != ttype || rcount != tcount)))
        return 0;
    struct mpi_win *w;
    struct rma_win *win = mpi_try_win(handle, &w);
    orma_type t = win ? mpi_type_predefined(ttype) : NULL;
    int status;
    if (!t || !rma_acc_try(win, target, disp, origin, result, (size_t)tcount, (int)t->id, mpi_op(op), &status))
        return 0;
    *rc_p = mpi_win_status(w, call, status);
    return 1;
}

int PMPI_Accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    MPI_RACE_SITE();
    int rc;
    if (mpi_acc_try("MPI_Accumulate", origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL, target_rank,
                    target_disp, target_count, target_datatype, op, win, &rc))
        return rc;
    MPI_WIN_OR_ERR(w, win, "MPI_Accumulate");
    return mpi_acc("MPI_Accumulate", 0, 0, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, op, w, NULL);
}

int PMPI_Get_accumulate(const void *origin_addr, int origin_count, MPI_Datatype origin_datatype, void *result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    MPI_RACE_SITE();
    int rc;
    if (result_addr && mpi_acc_try("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                                   result_count, result_datatype, target_rank, target_disp, target_count,
                                   target_datatype, op, win, &rc))
        return rc;
    MPI_WIN_OR_ERR(w, win, "MPI_Get_accumulate");
    return mpi_acc("MPI_Get_accumulate", 0, 1, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op, w, NULL);
}

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    MPI_RACE_SITE();
    int rc;
    if (result_addr && mpi_acc_try("MPI_Fetch_and_op", origin_addr, 1, datatype, result_addr, 1, datatype,
                                   target_rank, target_disp, 1, datatype, op, win, &rc))
        return rc;
    MPI_WIN_OR_ERR(w, win, "MPI_Fetch_and_op");
    orma_type t = mpi_type_predefined(datatype);
    int oop = mpi_op(op);
    if (!t)
        return mpi_win_error_msg(w, "MPI_Fetch_and_op", MPI_ERR_TYPE, "not a predefined datatype (MPI-4.1 12.3.4)");
    if (oop < 0)
        return mpi_win_error_msg(w, "MPI_Fetch_and_op", MPI_ERR_OP, "not a predefined operation (MPI-4.1 12.3.4)");
    return mpi_win_status(w, "MPI_Fetch_and_op",
                          orma_fetch_and_op(origin_addr, result_addr, t, mpi_rank(target_rank), target_disp,
                                            (orma_op)oop, w->win));
}

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Compare_and_swap");
    orma_type t = mpi_type_predefined(datatype);
    if (!t)
        return mpi_win_error_msg(w, "MPI_Compare_and_swap", MPI_ERR_TYPE,
                                 "not a predefined datatype (MPI-4.1 12.3.4)");
    return mpi_win_status(w, "MPI_Compare_and_swap", orma_compare_and_swap(origin_addr, compare_addr, result_addr,
                                                                          t, mpi_rank(target_rank), target_disp,
                                                                          w->win));
}

/* Generalized requests, complete from the start (orma's are: a
 * request-based operation completes locally as it is issued).  extra: the
 * orma request kept for the race checker (mpi_req_done), or NULL. */
static int mpi_greq_query(void *extra, MPI_Status *status)
{
    (void)extra;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int mpi_greq_free(void *extra)
{
    if (extra) { /* the program's MPI_Wait, MPI_Test or MPI_Request_free, inside the host */
        orma_request req = (orma_request)(uintptr_t)extra;
        MPI_RACE_SITE();
        orma_wait(&req);
    }
    return MPI_SUCCESS;
}

static int mpi_greq_cancel(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static int mpi_request(struct mpi_win *w, const char *call, int rc, orma_request kept, MPI_Request *request)
{
    if (rc)
        return rc;
    if (PMPI_Grequest_start(mpi_greq_query, mpi_greq_free, mpi_greq_cancel, (void *)(uintptr_t)kept, request) !=
            MPI_SUCCESS ||
        PMPI_Grequest_complete(*request) != MPI_SUCCESS) {
        if (kept)
            orma_wait(&kept);
        return mpi_win_error_msg(w, call, MPI_ERR_INTERN, "the host refused a generalized request");
    }
    return MPI_SUCCESS;
}

/* The request-based calls, int and MPI_Count forms alike: the window, a
 * request pointer, then the operation in a passive epoch. */
static int mpi_rput_get(const char *call, int put, void *origin, MPI_Count ocount, MPI_Datatype otype, int target,
                        MPI_Aint disp, MPI_Count tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *request)
{
    MPI_WIN_OR_ERR(w, win, call);
    if (!request)
        return mpi_win_error_msg(w, call, MPI_ERR_REQUEST, "a NULL request pointer");
    orma_request kept = ORMA_REQUEST_NULL;
    int rc = mpi_put_get(call, put, 1, NULL, origin, ocount, otype, target, disp, tcount, ttype, w, &kept);
    return mpi_request(w, call, rc, kept, request);
}

static int mpi_racc(const char *call, int fetch, const void *origin, MPI_Count ocount, MPI_Datatype otype,
                    void *result, MPI_Count rcount, MPI_Datatype rtype, int target, MPI_Aint disp, MPI_Count tcount,
                    MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    MPI_WIN_OR_ERR(w, win, call);
    if (!request)
        return mpi_win_error_msg(w, call, MPI_ERR_REQUEST, "a NULL request pointer");
    orma_request kept = ORMA_REQUEST_NULL;
    int rc = mpi_acc(call, 1, fetch, origin, ocount, otype, result, rcount, rtype, target, disp, tcount, ttype, op,
                     w, &kept);
    return mpi_request(w, call, rc, kept, request);
}

/* The request-based calls with counts of type count_t, named with suffix
 * sfx: int counts (no suffix), and MPI 4.0's MPI_Count ones (_c). */
#define MPI_REQUEST_CALLS(sfx, count_t)                                                                      \
    int PMPI_Rput##sfx(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype,         \
                       int target_rank, MPI_Aint target_disp, count_t target_count,                          \
                       MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)                      \
    {                                                                                                        \
        MPI_RACE_SITE();                                                                                     \
        return mpi_rput_get("MPI_Rput" #sfx, 1, (void *)origin_addr, origin_count, origin_datatype,         \
                            target_rank, target_disp, target_count, target_datatype, win, request);          \
    }                                                                                                        \
                                                                                                             \
    int PMPI_Rget##sfx(void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, int target_rank, \
                       MPI_Aint target_disp, count_t target_count, MPI_Datatype target_datatype, MPI_Win win, \
                       MPI_Request *request)                                                                 \
    {                                                                                                        \
        MPI_RACE_SITE();                                                                                     \
        return mpi_rput_get("MPI_Rget" #sfx, 0, origin_addr, origin_count, origin_datatype, target_rank,    \
                            target_disp, target_count, target_datatype, win, request);                       \
    }                                                                                                        \
                                                                                                             \
    int PMPI_Raccumulate##sfx(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype,  \
                              int target_rank, MPI_Aint target_disp, count_t target_count,                   \
                              MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)    \
    {                                                                                                        \
        MPI_RACE_SITE();                                                                                     \
        return mpi_racc("MPI_Raccumulate" #sfx, 0, origin_addr, origin_count, origin_datatype, NULL, 0,     \
                        MPI_DATATYPE_NULL, target_rank, target_disp, target_count, target_datatype, op, win, \
                        request);                                                                            \
    }                                                                                                        \
                                                                                                             \
    int PMPI_Rget_accumulate##sfx(const void *origin_addr, count_t origin_count, MPI_Datatype origin_datatype, \
                                  void *result_addr, count_t result_count, MPI_Datatype result_datatype,     \
                                  int target_rank, MPI_Aint target_disp, count_t target_count,               \
                                  MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request) \
    {                                                                                                        \
        MPI_RACE_SITE();                                                                                     \
        return mpi_racc("MPI_Rget_accumulate" #sfx, 1, origin_addr, origin_count, origin_datatype,          \
                        result_addr, result_count, result_datatype, target_rank, target_disp, target_count,  \
                        target_datatype, op, win, request);                                                  \
    }

MPI_REQUEST_CALLS(, int)

/* MPI's names are weak aliases of the PMPI ones, as in an MPI library, so that a
 * profiling tool above liborma-mpi reaches orma through PMPI. */
#pragma weak MPI_Put = PMPI_Put
#pragma weak MPI_Get = PMPI_Get
#pragma weak MPI_Accumulate = PMPI_Accumulate
#pragma weak MPI_Get_accumulate = PMPI_Get_accumulate
#pragma weak MPI_Fetch_and_op = PMPI_Fetch_and_op
#pragma weak MPI_Compare_and_swap = PMPI_Compare_and_swap
#pragma weak MPI_Rput = PMPI_Rput
#pragma weak MPI_Rget = PMPI_Rget
#pragma weak MPI_Raccumulate = PMPI_Raccumulate
#pragma weak MPI_Rget_accumulate = PMPI_Rget_accumulate

#if MPI_VERSION >= 4
/* MPI 4.0's large-count forms: the same calls with MPI_Count counts. */
int PMPI_Put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Put_c");
    return mpi_put_get("MPI_Put_c", 1, 0, NULL, (void *)origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, w, NULL);
}

int PMPI_Get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
               MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Get_c");
    return mpi_put_get("MPI_Get_c", 0, 0, NULL, origin_addr, origin_count, origin_datatype, target_rank,
                       target_disp, target_count, target_datatype, w, NULL);
}

int PMPI_Accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Accumulate_c");
    return mpi_acc("MPI_Accumulate_c", 0, 0, origin_addr, origin_count, origin_datatype, NULL, 0, MPI_DATATYPE_NULL,
                   target_rank, target_disp, target_count, target_datatype, op, w, NULL);
}

int PMPI_Get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                          void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                          MPI_Win win)
{
    MPI_RACE_SITE();
    MPI_WIN_OR_ERR(w, win, "MPI_Get_accumulate_c");
    return mpi_acc("MPI_Get_accumulate_c", 0, 1, origin_addr, origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count, target_datatype, op, w, NULL);
}

MPI_REQUEST_CALLS(_c, MPI_Count)

#pragma weak MPI_Put_c = PMPI_Put_c
#pragma weak MPI_Get_c = PMPI_Get_c
#pragma weak MPI_Accumulate_c = PMPI_Accumulate_c
#pragma weak MPI_Get_accumulate_c = PMPI_Get_accumulate_c
#pragma weak MPI_Rput_c = PMPI_Rput_c
#pragma weak MPI_Rget_c = PMPI_Rget_c
#pragma weak MPI_Raccumulate_c = PMPI_Raccumulate_c
#pragma weak MPI_Rget_accumulate_c = PMPI_Rget_accumulate_c
#endif
