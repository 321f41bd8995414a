/* xport_net_origin.c -- an origin's side of the net transport: operations
 * queued until their epoch closes, sent as requests (typed ones packed,
 * their target layout sent once and cached there), and the responses that
 * come back. */
#include "xport_net_impl.h"
#include "dtype_derived.h"
#include "dtype_iter.h"
#include "dtype_serial.h"
#include "dtype_type.h"
#include "util_status.h"

#include <stdlib.h>
#include <string.h>

void *xport_net_rsp_place(void *arg, int src, const void *hdr, size_t hlen, size_t len)
{
    (void)arg;
    (void)src;
    struct xport_net_rsp r;
    if (hlen != sizeof r)
        return NULL;
    memcpy(&r, hdr, sizeof r);
    if (r.kind != XPORT_NET_REPLY)
        return NULL;
    if (r.token & XPORT_NET_TOKEN_UNPACK) {
        struct xport_net_unpack *u = (struct xport_net_unpack *)(uintptr_t)(r.token & ~XPORT_NET_TOKEN_UNPACK);
        return len == u->len ? u->buf : NULL;
    }
    return (void *)(uintptr_t)r.token;
}

/* Typed data back from a target: into the origin's layout. */
void xport_net_unpacked(uint64_t token, const void *data, size_t len)
{
    struct xport_net_unpack *u = (struct xport_net_unpack *)(uintptr_t)(token & ~XPORT_NET_TOKEN_UNPACK);
    if (data && len == u->len)
        dtype_unpack(u->dst, u->count, u->type, 0, len, data);
    dtype_release(u->type);
    free(u);
}

/* How much of an error's text from a peer to print: its bytes up to the
 * first that is not printable, at most XPORT_NET_TEXT_MAX. */
#define XPORT_NET_TEXT_MAX 400
static int xport_net_text_len(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && i < XPORT_NET_TEXT_MAX && text[i] >= 0x20 && text[i] < 0x7f)
        i++;
    return (int)i;
}

void xport_net_rsp_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len)
{
    struct xport_net *n = arg;
    struct xport_net_rsp r;
    if (!xport_net_header(n, "a response", src, hdr, hlen, &r, sizeof r))
        return;
    struct xport_net_peer *p = &n->peer[src];
    switch (r.kind) {
    case XPORT_NET_REPLY:
        if (r.token & XPORT_NET_TOKEN_UNPACK)
            xport_net_unpacked(r.token, data, len);
        else if (len && data && data != (void *)(uintptr_t)r.token)
            memcpy((void *)(uintptr_t)r.token, data, len);
        n->replies_pending--;
        break;
    case XPORT_NET_ACK:
        p->acks_in++;
        break;
    default: /* ERR, and the target's message if it sent one */
        if (!n->status)
            n->status = util_error(r.status < 0 ? r.status : ORMA_ERR_PEER,
                                   "window %u: rank %d could not carry out an operation of rank %d (%s)%s%.*s",
                                   n->host.id, src, n->host.rank, orma_strerror(r.status), data && len ? ": " : "",
                                   data ? xport_net_text_len(data, len) : 0, data ? (const char *)data : "");
        break;
    }
}

int xport_net_queue_(struct xport_net *n, const struct xport_op *op)
{
    int status = xport_net_grow((void **)&n->queue, &n->capqueue, n->nqueued + 1, sizeof *n->queue);
    if (status)
        return status;
    n->queue[n->nqueued++] = *op;
    n->nnotify += op->kind == XPORT_OP_NOTIFY;
    orma_type types[3] = {op->otype, op->ttype, op->rtype};
    for (int i = 0; i < 3 && op->ttype; i++) /* the user may free them before the epoch ends */
        if (types[i])
            dtype_hold(types[i]);
    return ORMA_SUCCESS;
}

/* The round a request carries: the fences made, or in complete the PSCW
 * access epoch it belongs to. */
static void xport_net_round(const struct xport_net *n, struct xport_net_req *q)
{
    if (n->start_round) {
        q->flags |= XPORT_NET_F_START;
        q->round = n->start_round;
    }
}

int xport_net_send_sync(struct xport_net *n, int target, int lock, uint32_t flags)
{
    struct xport_net_req q = {.kind = XPORT_NET_SYNC, .lock = (uint8_t)lock, .flags = (uint8_t)flags,
                            .round = n->fences, .upto = n->peer[target].ops_out};
    xport_net_round(n, &q);
    return n->ops->send(n->ep, target, XPORT_NET_H_REQ, &q, sizeof q, NULL, 0);
}

/* Whether regions (a count, then sorted (base, size) pairs) hold all of
 * [addr, addr+len): inside one of them, or over adjacent ones. */
static int xport_net_regions_cover(const uint64_t *regions, uint64_t addr, size_t len)
{
    uint64_t end = addr + len;
    for (uint64_t i = 0; regions && i < regions[0] && addr < end; i++) {
        uint64_t b = regions[1 + 2 * i], s = regions[2 + 2 * i];
        if (addr >= b && addr - b < s)
            addr = b + s; /* covered up to there: the rest from the next region on */
    }
    return addr >= end;
}

/* target's regions into p->regions, asked for until they all fit. */
static int xport_net_regions_fetch(struct xport_net *n, int target)
{
    struct xport_net_peer *p = &n->peer[target];
    for (;;) {
        if (!p->regions) {
            size_t max = p->regions_max ? p->regions_max : 64;
            if (!(p->regions = malloc(8 + 16 * max)))
                return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for rank %d's %zu regions",
                                  n->host.id, target, max);
            p->regions_max = max;
        }
        p->regions[0] = 0; /* a reply without data (the target failed): none */
        struct xport_net_req q = {.kind = XPORT_NET_REGIONS, .len = 8 + 16 * p->regions_max,
                                .token = (uintptr_t)p->regions, .upto = p->ops_out};
        n->replies_pending++;
        int status = n->ops->send(n->ep, target, XPORT_NET_H_REQ, &q, sizeof q, NULL, 0);
        if (status) {
            n->replies_pending--;
            return status;
        }
        xport_net_wait(n, xport_net_replies_in, 0);
        if (p->regions[0] <= p->regions_max)
            return ORMA_SUCCESS;
        p->regions_max = 2 * (size_t)p->regions[0]; /* room to attach more meanwhile */
        free(p->regions);
        p->regions = NULL;
    }
}

int xport_net_dyn_check_(struct xport_net *n, int target, uint64_t addr, size_t len, uint32_t gen)
{
    struct xport_net_peer *p = &n->peer[target];
    if (p->regions_gen == gen && xport_net_regions_cover(p->regions, addr, len))
        return ORMA_SUCCESS;
    int status = xport_net_regions_fetch(n, target);
    if (status)
        return status;
    p->regions_gen = gen;
    if (!xport_net_regions_cover(p->regions, addr, len))
        return util_error(ORMA_ERR_RANGE, "access of %zu bytes at address 0x%llx of rank %d is not inside a region "
                          "attached to the dynamic window (MPI-4.1 12.2.4; over the net transport orma reaches "
                          "attached memory only)", len, (unsigned long long)addr, target);
    return ORMA_SUCCESS;
}

/* The number of layout t at target, sent there first if it is new. */
static int xport_net_type_id(struct xport_net *n, int target, orma_type t, uint32_t *id_p)
{
    for (size_t i = 0; i < n->ntsent; i++)
        if (n->tsent[i].type == t && n->tsent[i].target == target) {
            *id_p = n->tsent[i].id;
            return ORMA_SUCCESS;
        }
    size_t len = 0;
    dtype_serialize_held(t, NULL, 0, &len);
    if (len > XPORT_NET_TYPE_MAX)
        return util_error(ORMA_ERR_UNSUPPORTED, "window %u: a target layout of %zu bytes serialized is more "
                          "than the net transport sends (%zu)", n->host.id, len, (size_t)XPORT_NET_TYPE_MAX);
    unsigned char *buf = malloc(len ? len : 1);
    int status = buf ? dtype_serialize_held(t, buf, len, &len) : util_error(ORMA_ERR_NOMEM, "out of memory");
    if (!status)
        status = xport_net_grow((void **)&n->tsent, &n->captsent, n->ntsent + 1, sizeof *n->tsent);
    uint32_t id = 0;
    for (size_t i = 0; i < n->ntsent; i++)
        if (n->tsent[i].target == target && n->tsent[i].id > id)
            id = n->tsent[i].id;
    /* It must arrive before what uses it: eager messages, which arrive in
     * order, each a part of it at q.offset of q.len bytes. */
    struct xport_net_req q = {.kind = XPORT_NET_TYPE, .tid = id + 1, .round = n->fences, .len = len};
    size_t part = n->ops->eager, at = 0;
    while (!status) {
        q.offset = at;
        status = n->ops->send(n->ep, target, XPORT_NET_H_REQ, &q, sizeof q, buf + at, len - at < part ? len - at : part);
        if ((at += part) >= len)
            break;
    }
    free(buf);
    if (status)
        return status;
    dtype_hold(t);
    n->tsent[n->ntsent++] = (struct xport_net_tsent){t, target, q.tid};
    *id_p = q.tid;
    return ORMA_SUCCESS;
}

/* A buffer the sends of this epoch use, freed after its closing flush. */
static void *xport_net_epoch_buffer(struct xport_net *n, size_t len)
{
    return xport_net_buffer(&n->scratch, &n->nscratch, &n->capscratch, len);
}

/* Where typed data of len bytes coming back goes: a record to unpack it
 * into (dst, count, type), as a token marked XPORT_NET_TOKEN_UNPACK. */
static int xport_net_unpack_token(void *dst, size_t count, orma_type type, size_t len, uint64_t *token_p)
{
    struct xport_net_unpack *u = malloc(sizeof *u + (len ? len : 1));
    if (!u)
        return util_error(ORMA_ERR_NOMEM, "out of memory for %zu bytes of typed data", len);
    u->dst = dst;
    u->count = count;
    u->len = len;
    u->type = type;
    dtype_hold(type);
    *token_p = (uintptr_t)u | XPORT_NET_TOKEN_UNPACK;
    return ORMA_SUCCESS;
}

/* The typed parts of op's request: the layout's number, and the data
 * packed (put, accumulate) or the record its reply unpacks into. */
static int xport_net_typed_req(struct xport_net *n, const struct xport_op *op, struct xport_net_req *q, const void **data_p,
                             size_t *len_p)
{
    int status = xport_net_type_id(n, op->target, op->ttype, &q->tid);
    size_t dsize = op->ttype->size * op->tcount;
    q->tcount = op->tcount;
    q->torigin = op->torigin;
    if (status)
        return status;
    if ((op->kind == XPORT_OP_PUT || op->kind == XPORT_OP_ACC) && op->origin && op->otype) {
        void *packed = xport_net_epoch_buffer(n, dsize);
        if (!packed)
            return util_error(ORMA_ERR_NOMEM, "out of memory packing %zu bytes", dsize);
        dtype_pack(op->origin, op->ocount, op->otype, 0, dsize, packed);
        *data_p = packed;
        *len_p = dsize;
    }
    if (op->kind == XPORT_OP_GET)
        status = xport_net_unpack_token(op->origin, op->ocount, op->otype, dsize, &q->token);
    else if (op->kind == XPORT_OP_ACC && op->result && op->rtype)
        status = xport_net_unpack_token(op->result, op->rcount, op->rtype, dsize, &q->token);
    return status;
}

/* An operation's request and payload (*data_p, *len_p; pair: room for a
 * compare-and-swap's two elements) as if it were untyped (xport_net_req_send
 * packs a typed one); upto and the token count are the sender's. */
static int xport_net_op_req(const struct xport_net *n, const struct xport_op *op, int lock, uint32_t flags,
                          struct xport_net_req *q, const void **data_p, size_t *len_p,
                          unsigned char pair[2 * XPORT_NET_CAS_MAX])
{
    *q = (struct xport_net_req){.lock = (uint8_t)lock,
                              .flags = (uint8_t)flags,
                              .round = n->fences,
                              .offset = op->offset,
                              .len = op->len};
    xport_net_round(n, q);
    *data_p = NULL;
    *len_p = 0;
    switch (op->kind) {
    case XPORT_OP_PUT:
        q->kind = XPORT_NET_PUT;
        *data_p = op->origin;
        *len_p = op->len;
        break;
    case XPORT_OP_GET:
        q->kind = XPORT_NET_GET;
        q->token = (uintptr_t)op->origin;
        break;
    case XPORT_OP_ACC:
        q->kind = XPORT_NET_ACC;
        q->op = op->op;
        q->typeid_ = op->typeid_;
        q->has_origin = op->origin != NULL;
        q->token = (uintptr_t)op->result;
        *data_p = op->origin;
        *len_p = op->origin ? op->len : 0;
        break;
    case XPORT_OP_NOTIFY:
        q->kind = XPORT_NET_NOTIFY;
        q->op = op->notify_op;
        q->notify_id = op->notify_id;
        q->notify_value = op->notify_value;
        q->len = 0;
        break;
    default: /* CAS: the new element, then the one to compare with */
        if (op->len > XPORT_NET_CAS_MAX)
            return util_error(ORMA_ERR_ARG, "compare-and-swap of %zu bytes", op->len);
        q->kind = XPORT_NET_CAS;
        q->typeid_ = op->typeid_;
        q->has_origin = 1;
        q->token = (uintptr_t)op->result;
        memcpy(pair, op->origin, op->len);
        memcpy(pair + op->len, op->compare, op->len);
        *data_p = pair;
        *len_p = 2 * op->len;
        break;
    }
    return ORMA_SUCCESS;
}

/* The request is on its way: its number, and a reply to wait for. */
static void xport_net_req_out(struct xport_net *n, int target, struct xport_net_req *q)
{
    q->upto = ++n->peer[target].ops_out;
    if (q->token)
        n->replies_pending++;
}

/* Send op's request q (made by xport_net_op_req, with lock and flags) as a
 * message of its own, packing a typed operation's data first. */
static int xport_net_req_send(struct xport_net *n, const struct xport_op *op, struct xport_net_req *q, const void *data,
                            size_t len, int lock, uint32_t flags)
{
    if (op->ttype) {
        int status = xport_net_typed_req(n, op, q, &data, &len);
        if (status) { /* the flags still go: the target counts on them */
            if (q->token & XPORT_NET_TOKEN_UNPACK)
                xport_net_unpacked(q->token, NULL, 0);
            int rc = flags ? xport_net_send_sync(n, op->target, lock, flags) : ORMA_SUCCESS;
            return status ? status : rc;
        }
    }
    xport_net_req_out(n, op->target, q);
    return n->ops->send(n->ep, op->target, XPORT_NET_H_REQ, q, sizeof *q, data, len);
}

/* Send one queued operation to its target, with lock (0 or a lock type to
 * take first) and flags. */
int xport_net_send_op(struct xport_net *n, const struct xport_op *op, int lock, uint32_t flags)
{
    struct xport_net_req q;
    const void *data = NULL;
    size_t len = 0;
    unsigned char pair[2 * XPORT_NET_CAS_MAX];
    int status = xport_net_op_req(n, op, lock, flags, &q, &data, &len, pair);
    return status ? status : xport_net_req_send(n, op, &q, data, len, lock, flags);
}

/* ---- batches ([004]'s CH3 sends one packet per operation; over TCP here
 * every message costs some microseconds of system calls at both ends, so
 * small operations to one target share a message, as Open MPI's osc
 * pt2pt aggregates them) ------------------------------------------------ */

/* Send the batch: a lone request as a message of its own. */
static int xport_net_batch_send(struct xport_net *n)
{
    if (!n->batched)
        return ORMA_SUCCESS;
    int status;
    if (n->batched == 1) {
        const struct xport_net_entry *e = (const struct xport_net_entry *)n->batch;
        status = n->ops->send(n->ep, n->batch_target, XPORT_NET_H_REQ, &e->req, sizeof e->req, e + 1, e->len);
    } else {
        struct xport_net_batch_hdr h = {.count = n->batched};
        status = n->ops->send(n->ep, n->batch_target, XPORT_NET_H_BATCH, &h, sizeof h, n->batch, n->nbatch);
    }
    n->nbatch = 0;
    n->batched = 0;
    return status;
}

/* Send op to its target, in the batch when it is small and untyped. */
static int xport_net_send_batched(struct xport_net *n, const struct xport_op *op, uint32_t flags)
{
    struct xport_net_req q;
    const void *data = NULL;
    size_t len = 0;
    unsigned char pair[2 * XPORT_NET_CAS_MAX];
    int status = xport_net_op_req(n, op, 0, flags, &q, &data, &len, pair);
    size_t room = n->ops->eager;
    if (status || op->ttype || xport_net_entry_bytes(len) > room / 4) { /* alone, after the batch */
        int rc = xport_net_batch_send(n);
        status = status ? status : xport_net_req_send(n, op, &q, data, len, 0, flags);
        return rc ? rc : status;
    }
    if (!n->batch && !(n->batch = malloc(room)))
        return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for a batch", n->host.id);
    if (n->nbatch + xport_net_entry_bytes(len) > room || (n->batched && n->batch_target != op->target))
        status = xport_net_batch_send(n);
    xport_net_req_out(n, op->target, &q);
    struct xport_net_entry e = {.len = len, .req = q};
    memcpy(n->batch + n->nbatch, &e, sizeof e);
    if (len)
        memcpy(n->batch + n->nbatch + sizeof e, data, len);
    n->nbatch += xport_net_entry_bytes(len);
    n->batched++;
    n->batch_target = op->target;
    return status;
}

/* What the queue held for a sent operation, let go. */
void xport_net_op_sent(struct xport_net *n, const struct xport_op *op)
{
    n->nnotify -= op->kind == XPORT_OP_NOTIFY;
    orma_type types[3] = {op->otype, op->ttype, op->rtype};
    for (int i = 0; i < 3 && op->ttype; i++)
        if (types[i])
            dtype_release(types[i]);
}

/* Where the last notification queued for target is -- the queue's entries
 * before it are those it must stay behind -- or 0: none. */
static size_t xport_net_last_notify(const struct xport_net *n, int target)
{
    size_t at = 0;
    for (size_t i = 0; n->nnotify && i < n->nqueued; i++)
        if (n->queue[i].target == target && n->queue[i].kind == XPORT_OP_NOTIFY)
            at = i;
    return at;
}

/* Send the queued operations to target (gets_last: gets after the rest,
 * [004]'s lock epochs), the last with flags -- or the flags alone when
 * there is none and flags is not 0 -- and drop them from the queue.  ack:
 * ask for an acknowledgement too, unless the last one is answered anyway
 * (a get, a fetching accumulate): *acked_p says whether it was asked.
 *
 * A notification keeps the operations before it before it: gets are not
 * moved behind it, and those before it are answered from a copy (a target
 * that sees the counter may change the bytes at once). */
int xport_net_send_target(struct xport_net *n, int target, uint32_t flags, int gets_last, int ack, int *acked_p)
{
    int status = ORMA_SUCCESS;
    size_t count = 0, last = SIZE_MAX, notify = xport_net_last_notify(n, target);
    if (notify)
        gets_last = 0;
    for (int pass = 0; pass < 1 + gets_last; pass++)
        for (size_t i = 0; i < n->nqueued; i++) {
            const struct xport_op *op = &n->queue[i];
            if (op->target != target || (gets_last && (op->kind == XPORT_OP_GET) != pass))
                continue;
            count++;
            last = i;
        }
    int answered = count && (n->queue[last].kind == XPORT_OP_GET || n->queue[last].result);
    if (ack && !answered)
        flags |= XPORT_NET_F_ACK;
    if (acked_p)
        *acked_p = (flags & XPORT_NET_F_ACK) != 0;
    for (int pass = 0; pass < 1 + gets_last; pass++)
        for (size_t i = 0; i < n->nqueued; i++) {
            const struct xport_op *op = &n->queue[i];
            if (op->target != target || (gets_last && (op->kind == XPORT_OP_GET) != pass))
                continue;
            uint32_t f = (i == last ? flags : 0) | (i < notify && op->kind == XPORT_OP_GET ? XPORT_NET_F_COPY : 0);
            int rc = xport_net_send_batched(n, op, f);
            if (!status)
                status = rc;
        }
    int sent = xport_net_batch_send(n);
    if (!status)
        status = sent;
    if (!count && flags) {
        int rc = xport_net_send_sync(n, target, 0, flags);
        if (!status)
            status = rc;
    }
    size_t keep = 0;
    for (size_t i = 0; i < n->nqueued; i++)
        if (n->queue[i].target != target)
            n->queue[keep++] = n->queue[i];
        else
            xport_net_op_sent(n, &n->queue[i]);
    n->nqueued = keep;
    return status;
}

int xport_net_has_ops(const struct xport_net *n, int target)
{
    for (size_t i = 0; i < n->nqueued; i++)
        if (n->queue[i].target == target)
            return 1;
    return 0;
}
