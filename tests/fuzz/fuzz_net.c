/* fuzz_net.c -- a fuzz target for what a rank does with the net
 * transport's messages (xport_net_target.c, xport_net_origin.c): requests
 * alone and in batches, large payloads placed first, and the
 * acknowledgement and error responses -- each taken apart however wrong
 * it is, answered with an error or ignored, never a crash.  A reply's
 * token is an address the origin gave with its request, trusted as its
 * own: replies are not fuzzed.
 *
 * The endpoint is opened on a real window of a one-rank job (its own rank
 * the source of every message) over a wire of this program's, whose sends
 * read every byte they are given and drop it.  The input is a script: each
 * step a message built from the next bytes (fields from lists of values
 * around the window's edges and the limits, and raw ones), or a fence, a
 * post, a poll.  Every input gets a fresh endpoint, the window's lock free. */
#include "fuzz.h"
#include "rma_win.h"
#include "xport_net_impl.h"
#include "dtype_serial.h"

#include <orma.h>
#include <stdlib.h>
#include <string.h>

#define WIN_BYTES 16384
#define FUZZ_LARGE_MAX 65536

static struct net_handler fuzz_handlers[3];
static struct rma_win *fuzz_win;
static unsigned char fuzz_types[2][512]; /* layouts serialized, as a TYPE's parts carry them */
static size_t fuzz_type_len[2];
static volatile unsigned char fuzz_sink;

static int fuzz_open(const void *comm, struct net_ep **ep_p)
{
    static char ep;
    (void)comm;
    *ep_p = (struct net_ep *)&ep;
    return ORMA_SUCCESS;
}
static int fuzz_close(struct net_ep **ep_p)
{
    *ep_p = NULL;
    return ORMA_SUCCESS;
}
static void fuzz_abandon(struct net_ep **ep_p) { *ep_p = NULL; }
static int fuzz_handle(struct net_ep *ep, int id, const struct net_handler *h)
{
    (void)ep;
    fuzz_handlers[id] = *h;
    return ORMA_SUCCESS;
}
/* Every byte of a response is read: a reply from outside the window shows. */
static int fuzz_send(struct net_ep *ep, int dst, int id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    (void)ep;
    unsigned char x = (unsigned char)(dst + id);
    for (size_t i = 0; i < hlen; i++)
        x ^= ((const unsigned char *)hdr)[i];
    for (size_t i = 0; i < len; i++)
        x ^= ((const unsigned char *)data)[i];
    fuzz_sink = x;
    return ORMA_SUCCESS;
}
static int fuzz_flush(struct net_ep *ep)
{
    (void)ep;
    return ORMA_SUCCESS;
}
static int fuzz_progress(struct net_ep *ep, int *n_p)
{
    (void)ep;
    if (n_p)
        *n_p = 0;
    return ORMA_SUCCESS;
}
static int fuzz_sum_scatter(struct net_ep *ep, const uint32_t *counts, uint32_t *mine)
{
    (void)ep;
    *mine = counts[0];
    return ORMA_SUCCESS;
}
static int fuzz_rank(const struct net_ep *ep)
{
    (void)ep;
    return 0;
}
static int fuzz_size(const struct net_ep *ep)
{
    (void)ep;
    return 1;
}

static const struct net_ops fuzz_ops = {.name = "fuzz", .eager = 8192 - 16 - 64, .open = fuzz_open,
                                        .close = fuzz_close, .abandon = fuzz_abandon, .handle = fuzz_handle,
                                        .send = fuzz_send, .flush = fuzz_flush, .progress = fuzz_progress,
                                        .sum_scatter = fuzz_sum_scatter, .rank = fuzz_rank, .size = fuzz_size};

static void fuzz_finalize(void) { orma_finalize(); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("ORMA_LOG_LEVEL", "none", 0); /* most messages are refused, on purpose */
    orma_info info;
    orma_win w;
    void *base;
    orma_type t[2];
    if (orma_init(NULL, NULL) || orma_info_create(&info) || orma_info_set(info, "orma_notify_num", "4") ||
        orma_win_allocate(WIN_BYTES, 1, info, &base, &w) || orma_type_vector(5, 2, 3, ORMA_INT32, &t[0]) ||
        orma_type_commit(&t[0]) || orma_type_contiguous(3, ORMA_DOUBLE, &t[1]) || orma_type_commit(&t[1]))
        abort();
    for (int i = 0; i < 2; i++)
        if (dtype_serialize(t[i], fuzz_types[i], sizeof fuzz_types[i], &fuzz_type_len[i]) || orma_type_free(&t[i]))
            abort();
    orma_info_free(&info);
    fuzz_win = rma_win_lookup(w);
    atexit(fuzz_finalize);
    return 0;
}

struct fuzz_in {
    const uint8_t *p, *end;
};

static uint8_t fuzz_byte(struct fuzz_in *in) { return in->p < in->end ? *in->p++ : 0; }

/* A number where handlers go wrong: around the window's edges, the
 * limits, or raw. */
static uint64_t fuzz_num(struct fuzz_in *in)
{
    static const uint64_t picks[] = {0, 1, 7, 8, 16, 24, 64, WIN_BYTES - 8, WIN_BYTES - 1, WIN_BYTES, WIN_BYTES + 1,
                                     8192, UINT32_MAX, INT64_MAX, UINT64_MAX, UINT64_MAX - 7, (uint64_t)1 << 62};
    uint8_t b = fuzz_byte(in);
    if (b < 0xc0)
        return picks[b % (sizeof picks / sizeof *picks)];
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | fuzz_byte(in);
    return v;
}

static void fuzz_request(struct fuzz_in *in, struct xport_net_req *q)
{
    memset(q, 0, sizeof *q);
    q->kind = (uint8_t)(fuzz_byte(in) % 10); /* XPORT_NET_NOTIFY is 7: a few kinds past it */
    q->op = fuzz_byte(in);
    if (q->op < 0x80)
        q->op %= ORMA_OP_COUNT + 1;
    q->lock = (uint8_t)(fuzz_byte(in) % 4);
    q->flags = fuzz_byte(in);
    q->typeid_ = fuzz_byte(in);
    if (q->typeid_ < 0x80)
        q->typeid_ %= ORMA_TYPEID_COUNT + 1;
    if (q->typeid_ == ORMA_TYPEID_C_BOOL) /* a bool holding 2..255 is undefined in C, whoever wrote it */
        q->typeid_ = ORMA_TYPEID_BYTE;
    q->has_origin = (uint8_t)(fuzz_byte(in) & 1);
    q->tid = (uint32_t)(fuzz_byte(in) % 4);
    q->round = (uint32_t)(fuzz_byte(in) % 3);
    q->offset = fuzz_num(in);
    q->len = fuzz_num(in);
    q->upto = fuzz_byte(in) % 8;
    q->token = fuzz_byte(in) & 1 ? 0x1000 : 0; /* echoed only */
    q->tcount = fuzz_num(in);
    q->torigin = (int64_t)fuzz_num(in);
}

/* The payload of a request: a layout serialized whole (TYPE), or bytes of
 * the input. */
static const void *fuzz_payload(struct fuzz_in *in, struct xport_net_req *q, size_t *len_p)
{
    int t = fuzz_byte(in) % 4;
    if (q->kind == XPORT_NET_TYPE && t < 2) {
        q->offset = 0;
        q->len = fuzz_type_len[t];
        *len_p = fuzz_type_len[t];
        return fuzz_types[t];
    }
    size_t len = fuzz_byte(in);
    if (len > (size_t)(in->end - in->p))
        len = (size_t)(in->end - in->p);
    const void *p = in->p;
    in->p += len;
    *len_p = len;
    return p;
}

/* A request as net_am hands it over: a large one's place first (its bytes
 * the input's, then zeros), then deliver. */
static void fuzz_deliver(struct fuzz_in *in, int large)
{
    struct xport_net_req q;
    size_t len;
    fuzz_request(in, &q);
    const void *data = fuzz_payload(in, &q, &len);
    const struct net_handler *h = &fuzz_handlers[XPORT_NET_H_REQ];
    if (!large) {
        h->deliver(h->arg, 0, &q, sizeof q, data, len);
        return;
    }
    size_t big = (size_t)(fuzz_num(in) % FUZZ_LARGE_MAX) + fuzz_ops.eager + 1;
    char *at = h->place(h->arg, 0, &q, sizeof q, big);
    if (at) {
        memset(at, 0, big);
        memcpy(at, data, len < big ? len : big);
    }
    h->deliver(h->arg, 0, &q, sizeof q, at, big);
}

/* Up to four requests in one batch, the count in its header as the input
 * says (sometimes more than there are). */
static void fuzz_batch(struct fuzz_in *in)
{
    static unsigned char buf[4 * (sizeof(struct xport_net_entry) + 256 + XPORT_NET_ENTRY_ALIGN)];
    struct xport_net_batch_hdr bh = {.count = fuzz_byte(in) % 6};
    size_t used = 0;
    for (uint32_t i = 0; i < 4 && i < bh.count; i++) {
        struct xport_net_entry e = {0};
        size_t len;
        fuzz_request(in, &e.req);
        const void *data = fuzz_payload(in, &e.req, &len);
        if (len > 256)
            len = 256;
        e.len = fuzz_byte(in) == 0xff ? fuzz_num(in) : len; /* a length past the batch's end, at times */
        memcpy(buf + used, &e, sizeof e);
        memcpy(buf + used + sizeof e, data, len);
        used += xport_net_entry_bytes(len);
    }
    size_t cut = fuzz_byte(in) == 0xff ? fuzz_byte(in) : 0;
    const struct net_handler *h = &fuzz_handlers[XPORT_NET_H_BATCH];
    h->deliver(h->arg, 0, &bh, sizeof bh, buf, used > cut ? used - cut : 0);
}

/* An acknowledgement, an error with its text, or a kind no target sends. */
static void fuzz_response(struct fuzz_in *in)
{
    struct xport_net_rsp r = {.kind = (uint8_t)(XPORT_NET_ACK + fuzz_byte(in) % 4), .status = (int32_t)fuzz_num(in)};
    size_t hlen = fuzz_byte(in) == 0xff ? sizeof r - 1 : sizeof r, len = fuzz_byte(in);
    if (len > (size_t)(in->end - in->p))
        len = (size_t)(in->end - in->p);
    const struct net_handler *h = &fuzz_handlers[XPORT_NET_H_RSP];
    h->deliver(h->arg, 0, &r, hlen, in->p, len);
    in->p += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct xport_net *n;
    if (rma_net_open(fuzz_win, &fuzz_ops, NULL, 0))
        abort();
    n = fuzz_win->net;
    struct fuzz_in in = {data, data + size};
    while (in.p < in.end) {
        switch (fuzz_byte(&in) % 8) {
        case 0:
        case 1:
        case 2:
            fuzz_deliver(&in, 0);
            break;
        case 3:
            fuzz_deliver(&in, 1);
            break;
        case 4:
            fuzz_batch(&in);
            break;
        case 5:
            fuzz_response(&in);
            break;
        case 6: /* our fence, or our post to ourself: what waited for it goes in */
            if (fuzz_byte(&in) & 1)
                xport_net_fenced_to(n, n->fences + 1);
            else
                n->peer[0].posts_out++, xport_net_unpark(n);
            break;
        default:
            xport_net_poll();
            break;
        }
    }
    xport_net_poll();
    xport_net_abandon(&fuzz_win->net);
    /* a lock a request held, or waits for, goes with the endpoint */
    atomic_store(&fuzz_win->my_ctl->lock_req, 0);
    atomic_store(&fuzz_win->my_ctl->lock_done, 0);
    return 0;
}
