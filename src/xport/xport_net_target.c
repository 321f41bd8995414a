/* xport_net_target.c -- what a target does with the requests of the net
 * transport: operations on its own memory (accumulates with the shm
 * path's rules), the lock it holds for an origin in the ticket lock its
 * own rank uses, the layouts an origin sent, and the flags that end an
 * origin's epoch here once all of its operations are in. */
#include "xport_net_impl.h"
#include "dtype_derived.h"
#include "dtype_iter.h"
#include "dtype_serial.h"
#include "dtype_type.h"
#include "util_status.h"
#include "util_wait.h"

#include <stdlib.h>
#include <string.h>

void xport_net_respond(struct xport_net *n, int dst, int kind, uint64_t token, const void *data, size_t len,
                            void *owned, int status)
{
    if (xport_net_grow((void **)&n->out, &n->capout, n->nout + 1, sizeof *n->out)) {
        free(owned);
        return; /* the origin will wait: said already, loudly */
    }
    struct xport_net_out *o = &n->out[n->nout++];
    memset(o, 0, sizeof *o);
    o->dst = dst;
    o->rsp.kind = (uint8_t)kind;
    o->rsp.status = status;
    o->rsp.token = token;
    o->data = data;
    o->len = len;
    o->owned = owned;
}

void xport_net_fail(struct xport_net *n, int dst, int status)
{
    const char *msg = orma_error_message();
    size_t len = strlen(msg);
    char *text = len ? malloc(len) : NULL;
    if (text)
        memcpy(text, msg, len);
    xport_net_respond(n, dst, XPORT_NET_ERR, 0, text, text ? len : 0, text, status);
}

/* Where the bytes [offset, offset + len) of our own window are, or NULL
 * after saying why (naming the origin). */
static char *xport_net_local(struct xport_net *n, int src, const struct xport_net_req *q)
{
    char *at = n->host.local(n->host.ctx, q->offset, q->len);
    if (at)
        return at;
    util_error(ORMA_ERR_RANGE, "window %u: rank %d's access of %llu bytes at %llu lies outside rank %d's window",
               n->host.id, src, (unsigned long long)q->len, (unsigned long long)q->offset, n->host.rank);
    xport_net_fail(n, src, ORMA_ERR_RANGE);
    return NULL;
}

static void xport_net_release(struct xport_net *n, struct xport_net_peer *p)
{
    if (p->lock_state == XPORT_NET_HELD)
        n->host.lock_release(n->host.ctx, p->lock_type);
    p->lock_state = XPORT_NET_UNLOCKED;
}

/* A notification of src's (XPORT_NET_NOTIFY), raised by the window above,
 * which checks the counter and the op. */
static void xport_net_notify_raise(struct xport_net *n, int src, const struct xport_net_action *a)
{
    struct xport_op op = {.kind = XPORT_OP_NOTIFY, .target = src, /* the origin, for messages */
                          .notify_id = a->notify_id, .notify_op = a->notify_op, .notify_value = a->notify_value};
    int status = n->host.apply(n->host.ctx, &op);
    if (status)
        xport_net_fail(n, src, status);
}

/* Carry out src's actions whose operations are all in: the notification
 * first, which the acknowledgement then covers. */
static void xport_net_actions(struct xport_net *n, int src)
{
    struct xport_net_peer *p = &n->peer[src];
    while (p->nact && p->act[0].upto <= p->ops_in) {
        struct xport_net_action a = p->act[0];
        uint32_t f = a.flags;
        memmove(p->act, p->act + 1, (p->nact - 1) * sizeof *p->act);
        p->nact--;
        if (f & XPORT_NET_A_NOTIFY)
            xport_net_notify_raise(n, src, &a);
        if (f & XPORT_NET_F_FENCE)
            n->fence_in++;
        if (f & XPORT_NET_F_DONE)
            p->done_in++;
        if (f & XPORT_NET_F_RELEASE)
            xport_net_release(n, p);
        if (f & XPORT_NET_F_ACK)
            xport_net_respond(n, src, XPORT_NET_ACK, 0, NULL, 0, NULL, 0);
    }
}

/* Whether an accumulate's or compare-and-swap's payload is what its
 * request says: the origin's elements (and the compare value), or none. */
static int xport_net_acc_sized(const struct xport_net_req *q, const void *data, size_t len)
{
    if (q->kind == XPORT_NET_CAS)
        return q->has_origin && data && q->len <= XPORT_NET_CAS_MAX && len == 2 * q->len;
    return q->has_origin ? data && len == q->len : !len;
}

/* An accumulate or compare-and-swap of src's on our memory, with the
 * rules our own origins' follow (host.apply).  A result goes back to src. */
static void xport_net_apply_acc(struct xport_net *n, int src, const struct xport_net_req *q, const void *data,
                                size_t len)
{
    void *result = NULL;
    if (!xport_net_acc_sized(q, data, len)) {
        util_error(ORMA_ERR_PEER, "window %u: rank %d's accumulate of %llu bytes came with %zu bytes of data",
                   n->host.id, src, (unsigned long long)q->len, len);
        xport_net_fail(n, src, ORMA_ERR_PEER);
        if (q->token)
            xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0); /* it waits for one */
        return;
    }
    if (q->token && !(result = malloc((size_t)q->len))) {
        util_error(ORMA_ERR_NOMEM, "window %u: no memory for the result of rank %d's accumulate", n->host.id, src);
        xport_net_fail(n, src, ORMA_ERR_NOMEM);
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0); /* it waits for one */
        return;
    }
    struct xport_op op = {.kind = q->kind == XPORT_NET_CAS ? XPORT_OP_CAS : XPORT_OP_ACC,
                        .op = q->op,
                        .typeid_ = q->typeid_,
                        .target = n->host.rank,
                        .origin = q->has_origin ? (void *)data : NULL,
                        .result = result,
                        .compare = q->kind == XPORT_NET_CAS ? (const char *)data + q->len : NULL,
                        .len = (size_t)q->len,
                        .offset = (size_t)q->offset};
    int status = n->host.apply(n->host.ctx, &op);
    if (status)
        xport_net_fail(n, src, status);
    if (result)
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, result, (size_t)q->len, result, 0);
}

/* A part of a layout src sent (TYPE): gathered until it is whole; then
 * data, len the whole, or NULL (*bad: the parts do not fit together). */
static const void *xport_net_type_part(struct xport_net_peer *p, const struct xport_net_req *q, const void *data,
                                       size_t *len_p, int *bad)
{
    size_t len = *len_p;
    if (q->offset == 0 && q->len == len)
        return data;
    if (q->offset == 0) {
        free(p->tpart);
        p->tpart = NULL;
        p->tpart_got = 0;
        p->tpart_len = (size_t)q->len;
        if (q->len > XPORT_NET_TYPE_MAX || !(p->tpart = malloc(p->tpart_len ? p->tpart_len : 1))) {
            *bad = 1;
            return NULL;
        }
    }
    if (!p->tpart || q->len != p->tpart_len || q->offset != p->tpart_got || len > p->tpart_len - p->tpart_got) {
        *bad = 1;
        return NULL;
    }
    if (len) /* a part kept waiting has no data when empty */
        memcpy(p->tpart + p->tpart_got, data, len);
    p->tpart_got += len;
    if (p->tpart_got < p->tpart_len)
        return NULL;
    *len_p = p->tpart_len;
    return p->tpart;
}

/* A layout src sent (TYPE): kept under its number. */
static void xport_net_type_in(struct xport_net *n, int src, const struct xport_net_req *q, const void *part,
                              size_t len)
{
    struct xport_net_peer *p = &n->peer[src];
    orma_type t = NULL;
    int bad = 0;
    const void *data = xport_net_type_part(p, q, part, &len, &bad);
    if (!data && !bad)
        return; /* more parts to come */
    if (bad)
        util_error(ORMA_ERR_PEER, "window %u: rank %d sent a part of layout %u at %llu of %llu bytes, which does "
                   "not follow the parts before", n->host.id, src, q->tid, (unsigned long long)q->offset,
                   (unsigned long long)q->len);
    if (bad || q->tid != p->ntypes + 1 || dtype_deserialize(data, len, &t) != ORMA_SUCCESS ||
        xport_net_grow((void **)&p->types, &p->captypes, p->ntypes + 1, sizeof *p->types)) {
        util_error(ORMA_ERR_PEER, "window %u: rank %d sent layout %u, which rank %d cannot take (%s)", n->host.id,
                   src, q->tid, n->host.rank, orma_error_message());
        if (t)
            dtype_derived_free(t);
    } else {
        p->types[p->ntypes++] = t;
    }
    free(p->tpart);
    p->tpart = NULL;
    p->tpart_len = p->tpart_got = 0;
}

static orma_type xport_net_type_of(struct xport_net *n, int src, uint32_t tid)
{
    struct xport_net_peer *p = &n->peer[src];
    return tid >= 1 && tid <= p->ntypes ? p->types[tid - 1] : NULL;
}

/* A typed accumulate: the origin's elements (data) and the result (out)
 * are dsize bytes packed.  The elements of a pair type with padding
 * (ORMA_DOUBLE_INT: 12 bytes of data in 16) are spread to their extent
 * for the operation, and the result packed again. */
static int xport_net_typed_acc(struct xport_net *n, const struct xport_net_req *q, const void *data, size_t dsize,
                               orma_type tt, void *out)
{
    if (q->typeid_ >= ORMA_TYPEID_COUNT || dtype_basic(tt) != q->typeid_ ||
        !orma_predefined_types.types[q->typeid_].size || dsize % orma_predefined_types.types[q->typeid_].size)
        return util_error(ORMA_ERR_PEER, "window %u: a typed accumulate of %zu bytes of element type %u into a "
                          "layout of element type %d", n->host.id, dsize, q->typeid_, dtype_basic(tt));
    orma_type basic = &orma_predefined_types.types[q->typeid_];
    size_t count = dsize / basic->size;
    int padded = basic->extent != basic->size;
    void *origin = q->has_origin ? (void *)data : NULL, *result = out;
    if (padded && origin && (origin = malloc(count * basic->extent + 1)))
        dtype_unpack(origin, count, basic, 0, dsize, data);
    if (padded && result)
        result = malloc(count * basic->extent + 1);
    if ((q->has_origin && !origin) || (out && !result)) {
        if (origin != data)
            free(origin);
        return util_error(ORMA_ERR_NOMEM, "window %u: no memory for a typed accumulate of %zu bytes", n->host.id,
                          dsize);
    }
    struct xport_op op = {.kind = XPORT_OP_ACC, .op = q->op, .typeid_ = q->typeid_, .target = n->host.rank,
                        .origin = origin, .result = result, .len = (size_t)q->len, .offset = (size_t)q->offset,
                        .otype = origin ? basic : NULL, .ttype = tt, .rtype = result ? basic : NULL,
                        .ocount = count, .tcount = (size_t)q->tcount, .rcount = count,
                        .torigin = (ptrdiff_t)q->torigin};
    int status = n->host.apply(n->host.ctx, &op);
    if (result != out) {
        dtype_pack(result, count, basic, 0, dsize, out);
        free(result);
    }
    if (origin != data)
        free(origin);
    return status;
}

/* Whether the target layout of typed request q, dsize bytes of tt, lies
 * in the bytes the request reaches (those are in our window). */
static int xport_net_typed_inside(const struct xport_net_req *q, orma_type tt, size_t dsize)
{
    ptrdiff_t lo, hi, first, end;
    if (!dsize) /* no byte reached (an origin sends none such) */
        return !q->torigin;
    return q->len <= PTRDIFF_MAX && dtype_reach(tt, (size_t)q->tcount, &lo, &hi) &&
           !__builtin_add_overflow(q->torigin, lo, &first) && !__builtin_add_overflow(q->torigin, hi, &end) &&
           first >= 0 && end <= (ptrdiff_t)q->len;
}

/* A typed request of src on our memory, reaching at (checked). */
static void xport_net_typed(struct xport_net *n, int src, const struct xport_net_req *q, const void *data, size_t len,
                            char *at)
{
    orma_type tt = xport_net_type_of(n, src, q->tid);
    size_t dsize = 0;
    int status = ORMA_SUCCESS;
    if (!tt || (q->kind != XPORT_NET_PUT && q->kind != XPORT_NET_GET && q->kind != XPORT_NET_ACC) ||
        __builtin_mul_overflow(tt->size, (size_t)q->tcount, &dsize) ||
        ((q->kind == XPORT_NET_PUT || (q->kind == XPORT_NET_ACC && q->has_origin)) && len != dsize))
        status = util_error(ORMA_ERR_PEER, "window %u: rank %d's typed operation names layout %u and %llu "
                            "elements, which do not match its %zu bytes", n->host.id, src, q->tid,
                            (unsigned long long)q->tcount, len);
    else if (!xport_net_typed_inside(q, tt, dsize))
        status = util_error(ORMA_ERR_PEER, "window %u: rank %d's typed operation of %llu elements from %lld reaches "
                            "past its %llu bytes", n->host.id, src, (unsigned long long)q->tcount,
                            (long long)q->torigin, (unsigned long long)q->len);
    char *tbase = status ? at : at + q->torigin;
    void *out = NULL;
    if (!status && (q->kind == XPORT_NET_GET || q->token) && !(out = malloc(dsize ? dsize : 1)))
        status = util_error(ORMA_ERR_NOMEM, "window %u: no memory for rank %d's typed reply", n->host.id, src);
    if (!status && q->kind == XPORT_NET_PUT)
        dtype_unpack(tbase, (size_t)q->tcount, tt, 0, dsize, data);
    else if (!status && q->kind == XPORT_NET_GET)
        dtype_pack(tbase, (size_t)q->tcount, tt, 0, dsize, out);
    else if (!status)
        status = xport_net_typed_acc(n, q, data, dsize, tt, out);
    if (status) {
        free(out);
        xport_net_fail(n, src, status);
        out = NULL;
    }
    if (out)
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, out, dsize, out, 0);
    else if (status && q->token) /* the origin still counts on a reply */
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0);
}

/* A get's reply: the bytes at at, or a copy of them -- XPORT_NET_F_COPY, or
 * a get src makes holding a lock here.  A reply from the window reads it
 * when it is sent (xport_net_progress, after the handlers) or, a large one,
 * until its send completes; but the lock goes as soon as the release is
 * handled -- this very request's, often -- and the next holder's requests,
 * handled meanwhile (xport_net_locks, or a handler run by a send), would
 * change the bytes under the reply: a get of an exclusive epoch would
 * return another origin's put. */
static void xport_net_get_reply(struct xport_net *n, int src, const struct xport_net_req *q, const char *at)
{
    size_t len = (size_t)q->len;
    void *copy = NULL;
    int locked = n->peer[src].lock_state == XPORT_NET_HELD;
    if (((q->flags & XPORT_NET_F_COPY) || locked) && !(copy = malloc(len ? len : 1))) {
        util_error(ORMA_ERR_NOMEM, "window %u: no memory to copy %zu bytes for rank %d's get", n->host.id, len, src);
        xport_net_fail(n, src, ORMA_ERR_NOMEM);
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0); /* it waits for one */
        return;
    }
    if (copy)
        memcpy(copy, at, len);
    xport_net_respond(n, src, XPORT_NET_REPLY, q->token, copy ? copy : at, len, copy, 0);
}

/* An operation of src's on our memory (not SYNC, TYPE, NOTIFY). */
static void xport_net_operate(struct xport_net *n, int src, const struct xport_net_req *q, const void *data,
                              size_t len)
{
    char *at = xport_net_local(n, src, q);
    if (!at) {
        if (q->token)
            xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0); /* it waits for one */
    } else if (q->tid) {
        xport_net_typed(n, src, q, data, len, at);
    } else if (q->kind == XPORT_NET_PUT) {
        if (data && at != data && len == q->len)
            memcpy(at, data, len);
    } else if (q->kind == XPORT_NET_GET) {
        xport_net_get_reply(n, src, q, at);
    } else {
        xport_net_apply_acc(n, src, q, data, len);
    }
}

/* A notification of src's: the action that raises it (0: refused, said). */
static uint32_t xport_net_notify_in(struct xport_net *n, int src, const struct xport_net_req *q, size_t len)
{
    if (!len && !q->len && !q->token)
        return XPORT_NET_A_NOTIFY;
    util_error(ORMA_ERR_PEER, "window %u: rank %d sent a notification with a payload of %zu bytes, a length of %llu "
               "or a token", n->host.id, src, len, (unsigned long long)q->len);
    xport_net_fail(n, src, ORMA_ERR_PEER);
    return 0;
}

/* Handle request q of src (its lock, if it names one, is held). */
static void xport_net_handle(struct xport_net *n, int src, const struct xport_net_req *q, const void *data, size_t len)
{
    struct xport_net_peer *p = &n->peer[src];
    uint32_t acts = q->flags & XPORT_NET_F_ACTS;
    if (q->kind == XPORT_NET_TYPE) {
        xport_net_type_in(n, src, q, data, len);
        return; /* not an operation: never flagged */
    }
    if (q->kind == XPORT_NET_NOTIFY)
        acts |= xport_net_notify_in(n, src, q, len);
    else if (q->kind != XPORT_NET_SYNC)
        xport_net_operate(n, src, q, data, len);
    if (q->kind != XPORT_NET_SYNC)
        p->ops_in++;
    if (acts && xport_net_grow((void **)&p->act, &p->capact, p->nact + 1, sizeof *p->act) == ORMA_SUCCESS)
        p->act[p->nact++] = (struct xport_net_action){.upto = q->upto, .flags = acts, .notify_id = q->notify_id,
                                                      .notify_value = q->notify_value, .notify_op = q->op};
    xport_net_actions(n, src);
}

void xport_net_regions_reply(struct xport_net *n, int src, const struct xport_net_req *q)
{
    size_t max = q->len >= 8 ? (size_t)(q->len - 8) / 16 : 0;
    uint64_t *out = n->host.regions ? malloc(8 + 16 * max) : NULL;
    if (!out) { /* the origin still waits: a count of none */
        xport_net_respond(n, src, XPORT_NET_REPLY, q->token, NULL, 0, NULL, 0);
        return;
    }
    /* out[0] is the number of regions, which may be more than fit: the
     * origin then asks again with room for all (xport_net_dyn_check) */
    size_t count = n->host.regions(n->host.ctx, out + 1, max);
    out[0] = count;
    xport_net_respond(n, src, XPORT_NET_REPLY, q->token, out, 8 + 16 * (count < max ? count : max), out, 0);
}

/* Take src's lock here: 1 when held, 0 when it waits (xport_net_locks). */
static int xport_net_lock_take(struct xport_net *n, int src, int type)
{
    struct xport_net_peer *p = &n->peer[src];
    p->lock_type = (uint8_t)type;
    p->ticket = n->host.lock_ask(n->host.ctx, type);
    if (n->host.lock_granted(n->host.ctx, type, p->ticket)) {
        p->lock_state = XPORT_NET_HELD;
        return 1;
    }
    p->lock_state = XPORT_NET_WAITING;
    n->nwaiting++;
    return 0;
}

/* Keep src's request, at the tail of the list head/tail: until its lock is
 * granted here (xport_net_locks), or until we have made the fences or posts
 * it was sent after (xport_net_unpark).  *owned (if not NULL): data is a
 * buffer of ours, taken over (*owned becomes NULL) instead of copied. */
static void xport_net_park(struct xport_net *n, int src, const struct xport_net_req *q, const void *data, size_t len,
                         void **owned, struct xport_net_parked **head, struct xport_net_parked **tail)
{
    int take = owned && *owned && data;
    struct xport_net_parked *k = malloc(sizeof *k + (take || !data ? 0 : len));
    if (!k) {
        util_error(ORMA_ERR_NOMEM, "window %u: no memory to queue rank %d's request", n->host.id, src);
        return;
    }
    k->req = *q;
    k->len = data ? len : 0;
    k->next = NULL;
    k->own = take ? *owned : NULL;
    if (take)
        *owned = NULL;
    else if (k->len)
        memcpy(k->data, data, len);
    if (*tail)
        (*tail)->next = k;
    else
        *head = k;
    *tail = k;
}

/* A large payload's scratch buffer (accumulates, and anything parked),
 * allocated when its header arrives, freed when it has been handled. */
static void *xport_net_scratch_new(struct xport_net *n, size_t len)
{
    return xport_net_buffer(&n->held, &n->nheld, &n->capheld, len);
}

/* Whether data is such a buffer; if so it is forgotten (the caller frees). */
static int xport_net_scratch_take(struct xport_net *n, const void *data)
{
    for (size_t i = 0; i < n->nheld; i++)
        if (n->held[i] == data) {
            n->held[i] = n->held[--n->nheld];
            return 1;
        }
    return 0;
}

static void xport_net_admit(struct xport_net *n, int src, const struct xport_net_req *q, const void *data, size_t len,
                          void **owned);

/* Whether src's request q must wait for our next fence or post. */
static int xport_net_early(const struct xport_net *n, int src, const struct xport_net_req *q)
{
    if (q->flags & XPORT_NET_F_START)
        return !util_seq_geq(n->peer[src].posts_out, q->round);
    return q->round > n->fences;
}

void *xport_net_req_place(void *arg, int src, const void *hdr, size_t hlen, size_t len)
{
    struct xport_net *n = arg;
    struct xport_net_req q;
    if (hlen != sizeof q)
        return NULL;
    memcpy(&q, hdr, sizeof q);
    struct xport_net_peer *p = &n->peer[src];
    if (q.kind == XPORT_NET_PUT && !q.lock && !q.tid && len == q.len && p->lock_state != XPORT_NET_WAITING &&
        !p->early && !xport_net_early(n, src, &q))
        return xport_net_local(n, src, &q); /* straight into the window (NULL: said why) */
    return xport_net_scratch_new(n, len); /* combined, unpacked, or kept until the lock is ours */
}

void xport_net_req_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len)
{
    struct xport_net *n = arg;
    struct xport_net_req q;
    if (!xport_net_header(n, "a request", src, hdr, hlen, &q, sizeof q))
        return;
    if (q.kind == XPORT_NET_REGIONS) {
        xport_net_regions_reply(n, src, &q);
        return;
    }
    void *scratch = data && xport_net_scratch_take(n, data) ? (void *)data : NULL;
    if (q.kind == XPORT_NET_PUT && len && !data) /* dropped: its place said why */
        q.kind = XPORT_NET_SYNC, n->peer[src].ops_in++;
    struct xport_net_peer *p = &n->peer[src];
    /* Sent after a fence we have not made (our epoch before it may still
     * have operations to handle: another origin's get), or in an access
     * epoch we have not posted yet: it waits -- and src's requests behind
     * it. */
    if (p->early || xport_net_early(n, src, &q))
        xport_net_park(n, src, &q, data, len, &scratch, &p->early, &p->early_tail);
    else
        xport_net_admit(n, src, &q, data, len, &scratch);
    free(scratch); /* NULL when parked */
}

void xport_net_batch_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len)
{
    struct xport_net *n = arg;
    struct xport_net_batch_hdr h;
    const unsigned char *p = data, *end = p + len;
    if (hlen != sizeof h || !data) {
        util_error(ORMA_ERR_PEER, "window %u: a batch from rank %d with a header of %zu bytes", n->host.id, src, hlen);
        return;
    }
    memcpy(&h, hdr, sizeof h);
    for (uint32_t i = 0; i < h.count; i++) {
        struct xport_net_entry e;
        if ((size_t)(end - p) < sizeof e || (memcpy(&e, p, sizeof e), e.len > (size_t)(end - p) - sizeof e)) {
            util_error(ORMA_ERR_PEER, "window %u: rank %d's batch of %u requests ends in request %u", n->host.id,
                       src, h.count, i);
            return;
        }
        xport_net_req_deliver(n, src, &e.req, sizeof e.req, p + sizeof e, (size_t)e.len);
        size_t step = xport_net_entry_bytes((size_t)e.len);
        p += step < (size_t)(end - p) ? step : (size_t)(end - p);
    }
}

/* Handle src's request q now, or keep it behind the lock it waits for. */
static void xport_net_admit(struct xport_net *n, int src, const struct xport_net_req *q, const void *data, size_t len,
                          void **owned)
{
    struct xport_net_peer *p = &n->peer[src];
    if (p->lock_state == XPORT_NET_WAITING ||
        (q->lock && p->lock_state != XPORT_NET_HELD && !xport_net_lock_take(n, src, q->lock)))
        xport_net_park(n, src, q, data, len, owned, &p->parked, &p->parked_tail);
    else
        xport_net_handle(n, src, q, data, len);
}

void xport_net_fenced_to(struct xport_net *n, uint32_t fences)
{
    n->fences = fences;
    xport_net_unpark(n);
}

void xport_net_unpark(struct xport_net *n)
{
    for (int r = 0; r < n->host.nranks; r++) {
        struct xport_net_peer *p = &n->peer[r];
        for (struct xport_net_parked *k; (k = p->early) && !xport_net_early(n, r, &k->req);) {
            p->early = k->next;
            if (!p->early)
                p->early_tail = NULL;
            xport_net_admit(n, r, &k->req, xport_net_parked_data(k), k->len, &k->own);
            xport_net_parked_free(k);
        }
    }
}

/* Lock requests that were waiting: once granted, the request that asked
 * and those behind it are handled in order -- until one asks for the lock
 * again (a later epoch) and must wait once more. */
void xport_net_locks(struct xport_net *n)
{
    for (int again = 1; again && n->nwaiting;) {
        again = 0;
        for (int r = 0; r < n->host.nranks; r++) {
            struct xport_net_peer *p = &n->peer[r];
            if (p->lock_state != XPORT_NET_WAITING || !n->host.lock_granted(n->host.ctx, p->lock_type, p->ticket))
                continue;
            p->lock_state = XPORT_NET_HELD;
            n->nwaiting--;
            for (struct xport_net_parked *k; (k = p->parked);) {
                if (k->req.lock && p->lock_state != XPORT_NET_HELD && !xport_net_lock_take(n, r, k->req.lock))
                    break; /* it heads the queue again, with its ticket */
                p->parked = k->next;
                if (!p->parked)
                    p->parked_tail = NULL;
                xport_net_handle(n, r, &k->req, xport_net_parked_data(k), k->len);
                xport_net_parked_free(k);
            }
            again = 1; /* it may have released the lock again */
        }
    }
}
