/* xport_net_impl.h -- the net transport's side of a window:
 * what travels (requests origin -> target, responses back), the state of
 * a window's endpoint, and the functions its files share:
 *   xport_net.c         progress, the progress thread, entry points, endpoint
 *   xport_net_target.c  what a target does with a request
 *   xport_net_origin.c  operations sent, responses received
 *   xport_net_sync.c    the protocols of xport_net.h
 * Every function here runs with xport_net_mu held (xport_net.c). */
#ifndef ORMA_XPORT_NET_IMPL_H
#define ORMA_XPORT_NET_IMPL_H

#include "xport_net.h"

#include <orma.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

enum { XPORT_NET_H_REQ = 0, XPORT_NET_H_RSP = 1, XPORT_NET_H_BATCH = 2 }; /* handler numbers */

/* XPORT_NET_H_BATCH: several small requests to one target in one message,
 * handled in order as if each had come alone.  Header: struct
 * xport_net_batch_hdr; payload: entries of a struct xport_net_entry, the
 * request's payload, and padding to XPORT_NET_ENTRY_ALIGN bytes (a payload
 * lies as aligned as in a message of its own). */
struct xport_net_batch_hdr {
    uint32_t count;
    uint32_t pad[3];
};
#define XPORT_NET_ENTRY_ALIGN 16

/* What an origin sends a target (struct xport_net_req.kind). */
enum { XPORT_NET_SYNC, XPORT_NET_PUT, XPORT_NET_GET, XPORT_NET_ACC, XPORT_NET_CAS, XPORT_NET_TYPE, XPORT_NET_REGIONS,
       XPORT_NET_NOTIFY };
/* XPORT_NET_REGIONS: the regions attached to a dynamic window there, as a
 * reply of at most len bytes: their count, then (base, size) pairs, uint64_t
 * each, as many as fit (a count past them: ask again with room for all).
 * Handled at once, whatever locks wait: it reads no window memory. */
/* XPORT_NET_NOTIFY: raise the target's notification counter notify_id by op
 * (ORMA_NOTIFY_ADD, _SET) and notify_value -- an operation of its own,
 * counted as the others, whose raise is an action at its own upto: once
 * every operation of the origin's before it is handled.  No payload (one is
 * refused), offset and len 0. */
/* What a target sends an origin (struct xport_net_rsp.kind). */
enum { XPORT_NET_REPLY, XPORT_NET_ACK, XPORT_NET_ERR };

/* Windows of up to this many ranks close fences without a collective
 * (xport_net_sync.c). */
#define XPORT_NET_DIRECT_FENCE 8

/* What a target does once upto of the origin's operations are handled. */
#define XPORT_NET_F_FENCE 1u   /* the origin's last of a fence epoch */
#define XPORT_NET_F_DONE 2u    /* its last of a PSCW access epoch (complete) */
#define XPORT_NET_F_RELEASE 4u /* release the lock it holds here */
#define XPORT_NET_F_ACK 8u     /* acknowledge */
#define XPORT_NET_F_START 16u  /* sent in a PSCW access epoch: round is its number
                                (this origin's to this target, from 1); the
                                target holds it until it has posted as often */
#define XPORT_NET_F_COPY 32u   /* GET: reply from a copy of the bytes, not from
                                the window: a notification sent behind it may
                                let the target change them (xport_net_notify) */
/* The flags that are actions at the target (the others say how to handle
 * the request itself). */
#define XPORT_NET_F_ACTS (XPORT_NET_F_FENCE | XPORT_NET_F_DONE | XPORT_NET_F_RELEASE | XPORT_NET_F_ACK)
/* An action no request flag names: raise a notification counter
 * (XPORT_NET_NOTIFY). */
#define XPORT_NET_A_NOTIFY 256u

struct xport_net_req {
    uint8_t kind;
    uint8_t op;         /* ACC: enum orma_op */
    uint8_t lock;       /* 0, or the ORMA_LOCK_* to hold before anything else */
    uint8_t flags;      /* XPORT_NET_F_* */
    uint16_t typeid_;   /* ACC, CAS */
    uint8_t has_origin; /* ACC: 0 without origin data (NO_OP) */
    uint8_t pad;
    union {
        uint32_t tid;   /* typed: the target layout, as the origin numbered
                           it (TYPE: the number it gives); else 0 */
        uint32_t notify_id; /* NOTIFY: the counter */
    };
    uint32_t round;     /* the fences the origin had made (xport_net.h); with
                           XPORT_NET_F_START, its PSCW access epoch */
    uint64_t offset, len; /* the bytes reached at the target */
    uint64_t upto;      /* the flags act once this many of the origin's
                           operations (this one included) are handled */
    uint64_t token;     /* GET, ACC with a result, CAS: where the reply goes,
                           an address at the origin (with
                           XPORT_NET_TOKEN_UNPACK: a struct xport_net_unpack's);
                           else 0 */
    union {
        uint64_t tcount;       /* typed: elements of the target layout */
        uint64_t notify_value; /* NOTIFY */
    };
    int64_t torigin;    /* typed: where its origin is, from offset */
};
_Static_assert(sizeof(struct xport_net_req) <= 64, "a request header fits net_am's");

struct xport_net_entry { /* of a batch */
    uint64_t len; /* the payload's bytes, after this */
    uint64_t pad;
    struct xport_net_req req;
};
_Static_assert(sizeof(struct xport_net_entry) % XPORT_NET_ENTRY_ALIGN == 0, "payloads stay aligned");
/* The bytes of a batch entry with a payload of len bytes, padding included. */
static inline size_t xport_net_entry_bytes(size_t len)
{
    size_t b = sizeof(struct xport_net_entry) + len;
    return (b + XPORT_NET_ENTRY_ALIGN - 1) / XPORT_NET_ENTRY_ALIGN * XPORT_NET_ENTRY_ALIGN;
}

/* The largest element of a compare-and-swap (it travels with its compare
 * value). */
#define XPORT_NET_CAS_MAX 16

/* Marks a token that is a struct xport_net_unpack: no user-space address
 * has the top bit (Linux keeps the upper half for the kernel), while any
 * other bit may be set -- a get into an odd address is common. */
#define XPORT_NET_TOKEN_UNPACK (UINT64_C(1) << 63)

/* Typed data coming back (get, get_accumulate): packed on the wire,
 * unpacked into the origin's layout when it lands. */
struct xport_net_unpack {
    void *dst;
    size_t count, len;
    orma_type type;
    _Alignas(16) unsigned char buf[];
};

/* A layout serialized travels in eager messages of its parts (TYPE: offset
 * and len say where the part goes in how many bytes); at most this long. */
#define XPORT_NET_TYPE_MAX ((size_t)1 << 30)

/* A layout sent to a target once ([004] section 6: cached there). */
struct xport_net_tsent {
    orma_type type;
    int target;
    uint32_t id;
};

struct xport_net_rsp {
    uint8_t kind;
    uint8_t pad[3];
    int32_t status; /* ERR */
    uint64_t token; /* REPLY */
};

struct xport_net_action {
    uint64_t upto;
    uint32_t flags;    /* XPORT_NET_F_ACTS, XPORT_NET_A_NOTIFY */
    uint32_t notify_id; /* A_NOTIFY: the request's */
    uint64_t notify_value;
    uint8_t notify_op;
};

/* A request that waits at the target for its lock, kept whole. */
struct xport_net_parked {
    struct xport_net_parked *next;
    struct xport_net_req req;
    size_t len;
    void *own;             /* the payload, a large one's buffer taken over; */
    unsigned char data[];  /* else a copy here */
};
/* A parked request's payload (NULL: none), and its end. */
static inline const void *xport_net_parked_data(const struct xport_net_parked *k)
{
    return k->own ? k->own : k->len ? k->data : NULL;
}
static inline void xport_net_parked_free(struct xport_net_parked *k)
{
    free(k->own);
    free(k);
}

/* A response waiting to be sent: handlers never send (a send may progress,
 * and so run handlers inside handlers); xport_net_progress sends these. */
struct xport_net_out {
    int dst;
    struct xport_net_rsp rsp;
    const void *data;
    size_t len;
    void *owned; /* freed once the send no longer needs it */
};

enum { XPORT_NET_UNLOCKED, XPORT_NET_WAITING, XPORT_NET_HELD };

struct xport_net_peer {
    uint8_t net;        /* reached through this endpoint */
    /* this rank as origin, the peer as target */
    uint64_t ops_out;   /* operations sent to it */
    uint32_t starts_out; /* our PSCW access epochs to it, completed or open */
    uint32_t acks_in, acks_want;
    uint8_t asked;      /* the lock of this epoch was asked for there */
    uint32_t grant_ack; /* the acknowledgement that says xport_net_ask's lock
                           request was granted (a lock asked for lazily, with
                           the operations, leaves it as it was) */
    uint64_t unacked;   /* operations sent to it since its last acknowledgement */
    uint8_t fence_sent; /* operations went to it in this fence epoch before
                           its close (xport_net_notify): the close flags it */
    /* this rank as target, the peer as origin */
    uint64_t ops_in;    /* its operations handled here */
    uint32_t done_in;   /* its completes received */
    uint32_t posts_out; /* our posts to it (with NOCHECK too) */
    struct xport_net_action *act;
    size_t nact, capact;
    uint8_t lock_state; /* XPORT_NET_UNLOCKED, WAITING, HELD */
    uint8_t lock_type;
    uint64_t ticket;
    struct xport_net_parked *parked, *parked_tail; /* its requests behind its lock */
    struct xport_net_parked *early, *early_tail;   /* from fences we have not made yet,
                                                    or epochs we have not posted */
    orma_type *types;   /* the layouts it sent, by its number - 1 */
    size_t ntypes, captypes;
    unsigned char *tpart; /* the parts of the next one so far (TYPE) */
    size_t tpart_len, tpart_got;
    /* a dynamic window: its regions as it told us in the access epoch
     * regions_gen (the window's count of them; it may detach between epochs) */
    uint64_t *regions;
    size_t regions_max; /* pairs regions has room for */
    uint32_t regions_gen;
};

struct xport_net {
    const struct net_ops *ops;
    struct net_ep *ep;
    struct xport_net_host host; /* the window above */
    struct xport_net_peer *peer;
    struct xport_op *queue; /* operations of the open epoch, in issue order */
    size_t nqueued, capqueue;
    size_t nnotify;         /* NOTIFY operations among them */
    uint64_t fence_expect, fence_in;
    uint32_t fences;      /* fences made on this window (every rank makes all) */
    uint32_t start_round; /* not 0: requests go with XPORT_NET_F_START and this round */
    uint64_t replies_pending;
    int status;         /* the first error a target reported */
    uint32_t nwaiting;  /* lock requests waiting here */
    struct xport_net_out *out;
    size_t nout, capout;
    void **scratch;     /* reply buffers to free after the next flush */
    size_t nscratch, capscratch;
    void **held;        /* large payloads' buffers (xport_net_scratch_new) */
    size_t nheld, capheld;
    unsigned char *batch; /* requests for batch_target, to go in one message */
    size_t nbatch;        /* bytes of batch used */
    uint32_t batched;     /* requests in it */
    int batch_target;
    struct xport_net_tsent *tsent; /* layouts sent, held until the window goes */
    size_t ntsent, captsent;
    struct xport_net *next;
};

/* Grow *p (cap entries of size bytes) to hold need; says so when it cannot. */
int xport_net_grow(void **p, size_t *cap, size_t need, size_t size);
/* A buffer of len bytes, kept in the list *bufs (*count of *cap used), or
 * NULL: out of memory. */
void *xport_net_buffer(void ***bufs, size_t *count, size_t *cap, size_t len);
/* A message's header, of size bytes, into out: 0, said, when it has
 * another size (what: "a request", "a response"). */
int xport_net_header(const struct xport_net *n, const char *what, int src, const void *hdr, size_t hlen, void *out,
                     size_t size);

/* xport_net_target.c */
/* Queue a response to dst (sent by xport_net_progress; owned: freed once
 * the send needs it no more). */
void xport_net_respond(struct xport_net *n, int dst, int kind, uint64_t token, const void *data, size_t len,
                     void *owned, int status);
/* An error response to dst: status, with the message util_error just made
 * (the ERR response's payload: its text, without a terminating NUL). */
void xport_net_fail(struct xport_net *n, int dst, int status);
void *xport_net_req_place(void *arg, int src, const void *hdr, size_t hlen, size_t len);
void xport_net_req_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len);
void xport_net_batch_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len);
void xport_net_locks(struct xport_net *n);

/* xport_net_origin.c */
void *xport_net_rsp_place(void *arg, int src, const void *hdr, size_t hlen, size_t len);
void xport_net_rsp_deliver(void *arg, int src, const void *hdr, size_t hlen, const void *data, size_t len);
void xport_net_unpacked(uint64_t token, const void *data, size_t len);
int xport_net_send_sync(struct xport_net *n, int target, int lock, uint32_t flags);
int xport_net_send_op(struct xport_net *n, const struct xport_op *op, int lock, uint32_t flags);
void xport_net_op_sent(struct xport_net *n, const struct xport_op *op);
int xport_net_send_target(struct xport_net *n, int target, uint32_t flags, int gets_last, int ack, int *acked_p);
int xport_net_has_ops(const struct xport_net *n, int target);

/* xport_net.c */
int xport_net_send_out(struct xport_net *n);
int xport_net_flush_sends(struct xport_net *n);
void xport_net_wait(struct xport_net *n, int (*cond)(struct xport_net *, long), long arg);
/* A condition for it: every reply this rank waits for is in. */
int xport_net_replies_in(struct xport_net *n, long arg);
int xport_net_take_status(struct xport_net *n, int status);

/* xport_net_target.c, for the synchronizations */
void xport_net_regions_reply(struct xport_net *n, int src, const struct xport_net_req *q);
/* We have made this many fences: the requests sent after them go in. */
void xport_net_fenced_to(struct xport_net *n, uint32_t fences);
/* The requests held for a fence or post since made go in. */
void xport_net_unpark(struct xport_net *n);

/* The entry points' bodies (xport_net.h), called with xport_net_mu held:
 * queue and dyn_check in xport_net_origin.c, the rest in xport_net_sync.c */
int xport_net_queue_(struct xport_net *n, const struct xport_op *op);
int xport_net_dyn_check_(struct xport_net *n, int target, uint64_t addr, size_t len, uint32_t gen);
int xport_net_notify_(struct xport_net *n, const struct xport_op *op);
int xport_net_fence_(struct xport_net *n, int closes);
int xport_net_post_(struct xport_net *n, const int *ranks, int count);
int xport_net_complete_(struct xport_net *n);
int xport_net_exposure_done_(struct xport_net *n);
int xport_net_unlock_(struct xport_net *n, int target, int lock, int local);
int xport_net_ask_(struct xport_net *n, int target, int lock);
int xport_net_granted_(struct xport_net *n, int target);
int xport_net_flush_(struct xport_net *n, int target, int local);

#endif
