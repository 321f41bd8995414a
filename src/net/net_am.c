/* net_am.c -- see net_am.h.  Every MPI call is a PMPI_ one: under
 * liborma-mpi the MPI_ names are orma's or a profiling tool's. */
#include "net_am.h"
#include "util_status.h"
#include "util_wait.h"

#include <orma.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NET_TAG_AM = 1, NET_TAG_DATA = 2 };
/* A large payload goes in pieces MPI's int count can hold. */
#define NET_AM_CHUNK (1 << 30)

/* The first bytes of every message; then hlen header bytes, then (eager)
 * the payload. */
struct net_wire {
    uint16_t id;
    uint16_t hlen;
    uint32_t seq; /* per source and destination: the order of sending */
    uint64_t len; /* payload bytes */
};

/* Whether a message travels whole in one slot (eager): sender and receiver
 * decide it alike from the wire's hlen and len. */
static int net_eager(size_t hlen, uint64_t len)
{
    return sizeof(struct net_wire) + hlen + len <= NET_AM_SLOT_BYTES;
}

/* A large payload of len bytes goes as net_chunks(len) messages; chunk c
 * is the bytes [c * NET_AM_CHUNK, + net_chunk_len(len, c)). */
static int net_chunks(size_t len) { return (int)((len + NET_AM_CHUNK - 1) / NET_AM_CHUNK); }
static int net_chunk_len(size_t len, int c)
{
    size_t off = (size_t)c * NET_AM_CHUNK;
    return (int)(len - off < NET_AM_CHUNK ? len - off : NET_AM_CHUNK);
}

/* A slot's message, arrived but waiting for an earlier one of its source
 * (matched to another slot and not complete yet). */
struct net_slot {
    unsigned char buf[NET_AM_SLOT_BYTES];
    int full, src;
    uint32_t seq;
};

/* A large payload on its way in. */
struct net_large {
    int src, id, nreq;
    size_t hlen, len;
    unsigned char hdr[NET_AM_HDR_MAX];
    void *dst, *scratch; /* scratch: the place was NULL */
    MPI_Request *reqs;
};

struct net_am {
    MPI_Comm comm;
    int rank, size;
    struct net_handler handlers[NET_AM_HANDLERS];
    struct net_slot *slots;
    MPI_Request rreq[NET_AM_SLOTS];
    unsigned char (*sbuf)[NET_AM_SLOT_BYTES];
    MPI_Request sreq[NET_AM_SENDS];
    MPI_Request *dreq; /* large payloads being sent */
    int ndreq, capdreq;
    struct net_large *large; /* large payloads being received */
    int nlarge, caplarge;
    uint32_t *seq_out, *seq_in; /* per rank: next seq to send to, to deliver from */
    unsigned char *large_from;  /* per rank: its large payload on the way in
                                   (its later messages wait behind it) */
    uint64_t *sent_to;          /* messages sent to each rank */
    uint64_t received;          /* messages delivered here */
    int nfull;                  /* slots arrived and not yet handled */
};

static int net_mpi_error(const struct net_am *am, const char *what, int rc)
{
    char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (PMPI_Error_string(rc, text, &n) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", rc);
    return util_error(ORMA_ERR_PEER, "net: %s failed (%d ranks): %s", what, am ? am->size : 0, text);
}

/* Whether all n requests are complete (inactive ones are), freeing those
 * that are.  A status of our own: MPICH's declarations make GCC check
 * MPI_STATUSES_IGNORE as an array. */
static int net_test_all(struct net_am *am, MPI_Request *r, int n, int *done_p)
{
    int done = 1;
    for (int i = 0; i < n; i++) {
        int flag = 1;
        MPI_Status st;
        if (r[i] != MPI_REQUEST_NULL) {
            int rc = PMPI_Test(&r[i], &flag, &st);
            if (rc != MPI_SUCCESS)
                return net_mpi_error(am, "testing a request", rc);
        }
        done &= flag;
    }
    *done_p = done;
    return ORMA_SUCCESS;
}

static int net_post_slot(struct net_am *am, int i)
{
    am->slots[i].full = 0;
    int rc = PMPI_Irecv(am->slots[i].buf, NET_AM_SLOT_BYTES, MPI_BYTE, MPI_ANY_SOURCE, NET_TAG_AM, am->comm,
                        &am->rreq[i]);
    return rc == MPI_SUCCESS ? ORMA_SUCCESS : net_mpi_error(am, "posting a receive", rc);
}

/* Everything of am, at any stage of its making; receives still posted are
 * cancelled (at close, after every message to us has come). */
static void net_am_free(struct net_am *am)
{
    for (int i = 0; i < NET_AM_SLOTS; i++)
        if (am->rreq[i] != MPI_REQUEST_NULL) {
            PMPI_Cancel(&am->rreq[i]);
            PMPI_Wait(&am->rreq[i], MPI_STATUS_IGNORE);
        }
    for (int i = 0; i < am->nlarge; i++) { /* only after an error */
        free(am->large[i].scratch);
        free(am->large[i].reqs);
    }
    if (am->comm != MPI_COMM_NULL)
        PMPI_Comm_free(&am->comm);
    free(am->slots);
    free(am->sbuf);
    free(am->dreq);
    free(am->large);
    free(am->seq_out);
    free(am->seq_in);
    free(am->large_from);
    free(am->sent_to);
    free(am);
}

/* Whether the launcher's variables say that some rank runs on another
 * node; without them, it may. */
static int net_may_span_nodes(void)
{
    static const char *const vars[][2] = {
        {"OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_SIZE"}, /* Open MPI's mpirun */
        {"MPI_LOCALNRANKS", "PMI_SIZE"},                         /* MPICH's Hydra */
    };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *local = getenv(vars[i][0]), *all = getenv(vars[i][1]);
        if (local && all)
            return strcmp(local, all) != 0;
    }
    return 1;
}

/* UCX sends a message from its rendezvous threshold on ("auto": a few KB
 * over TCP) by a handshake -- ready to send, ready to receive, data -- in
 * which the receiver must take part before the send can complete.  The net
 * transport's payloads beyond a slot arrive unexpected (their receive is
 * posted when their header is handled), so every one of 8-64 KB paid the
 * trips in full: such puts took 1.1-3.5x the host's own MPI_Put under
 * MPICH over UCX/TCP, and 0.5-0.9x with these sent eagerly.  64 KB is Open
 * MPI's own eager limit over TCP.  The setting changes the program's own
 * point-to-point messages of that size too, which is why the user's value,
 * if any, wins -- and why a job on one node, without ORMA_TRANSPORT=net,
 * is left alone. */
void net_am_prepare_host(int forced)
{
    if (getenv("UCX_RNDV_THRESH") || !(forced || net_may_span_nodes()))
        return;
    char v[32];
    snprintf(v, sizeof v, "%d", NET_AM_UCX_EAGER + 1); /* UCX: eager below the threshold */
    setenv("UCX_RNDV_THRESH", v, 0);
}

int net_am_open(MPI_Comm comm, struct net_am **am_p)
{
    struct net_am *am = calloc(1, sizeof *am);
    if (!am)
        return util_error(ORMA_ERR_NOMEM, "net: no memory for the active-message engine");
    am->comm = MPI_COMM_NULL;
    for (int i = 0; i < NET_AM_SENDS; i++)
        am->sreq[i] = MPI_REQUEST_NULL;
    for (int i = 0; i < NET_AM_SLOTS; i++)
        am->rreq[i] = MPI_REQUEST_NULL;
    int status = ORMA_SUCCESS;
    int rc = PMPI_Comm_dup(comm, &am->comm);
    if (rc != MPI_SUCCESS) {
        am->comm = MPI_COMM_NULL;
        status = net_mpi_error(NULL, "duplicating the communicator", rc);
        goto err;
    }
    PMPI_Comm_set_errhandler(am->comm, MPI_ERRORS_RETURN);
    PMPI_Comm_rank(am->comm, &am->rank);
    PMPI_Comm_size(am->comm, &am->size);
    am->slots = calloc(NET_AM_SLOTS, sizeof *am->slots);
    am->sbuf = malloc(NET_AM_SENDS * sizeof *am->sbuf);
    am->seq_out = calloc((size_t)am->size, sizeof *am->seq_out);
    am->seq_in = calloc((size_t)am->size, sizeof *am->seq_in);
    am->large_from = calloc((size_t)am->size, 1);
    am->sent_to = calloc((size_t)am->size, sizeof *am->sent_to);
    if (!am->slots || !am->sbuf || !am->seq_out || !am->seq_in || !am->sent_to || !am->large_from) {
        status = util_error(ORMA_ERR_NOMEM, "net: no memory for the buffers of %d ranks", am->size);
        goto err;
    }
    for (int i = 0; i < NET_AM_SLOTS && !status; i++)
        status = net_post_slot(am, i);
    if (status)
        goto err;
    *am_p = am;
    return ORMA_SUCCESS;
err:
    net_am_free(am);
    return status;
}

int net_am_handle(struct net_am *am, int id, const struct net_handler *h)
{
    if (id < 0 || id >= NET_AM_HANDLERS)
        return util_error(ORMA_ERR_ARG, "net: handler %d is not in 0..%d", id, NET_AM_HANDLERS - 1);
    am->handlers[id] = *h;
    return ORMA_SUCCESS;
}

int net_am_rank(const struct net_am *am) { return am->rank; }
int net_am_size(const struct net_am *am) { return am->size; }

static void net_deliver(struct net_am *am, int src, int id, const void *hdr, size_t hlen, const void *data,
                        size_t len)
{
    const struct net_handler *h = &am->handlers[id];
    if (h->deliver)
        h->deliver(h->arg, src, hdr, hlen, data, len);
    am->received++;
}

/* Post the receives of a large payload announced by w from src. */
static int net_large_begin(struct net_am *am, int src, const struct net_wire *w, const unsigned char *hdr)
{
    if (am->nlarge == am->caplarge) {
        int cap = am->caplarge ? 2 * am->caplarge : 8;
        struct net_large *l = realloc(am->large, (size_t)cap * sizeof *l);
        if (!l)
            return util_error(ORMA_ERR_NOMEM, "net: no memory to receive a payload from rank %d", src);
        am->large = l;
        am->caplarge = cap;
    }
    struct net_large *l = &am->large[am->nlarge];
    memset(l, 0, sizeof *l);
    l->src = src;
    l->id = w->id;
    l->hlen = w->hlen;
    l->len = (size_t)w->len;
    memcpy(l->hdr, hdr, w->hlen);
    const struct net_handler *h = &am->handlers[w->id];
    l->dst = h->place ? h->place(h->arg, src, hdr, w->hlen, l->len) : NULL;
    char *to = l->dst;
    if (!to) {
        to = l->scratch = malloc(l->len);
        if (!to)
            return util_error(ORMA_ERR_NOMEM, "net: no memory to drop %zu bytes from rank %d", l->len, src);
    }
    l->nreq = net_chunks(l->len);
    l->reqs = malloc((size_t)l->nreq * sizeof *l->reqs);
    if (!l->reqs) {
        free(l->scratch);
        return util_error(ORMA_ERR_NOMEM, "net: no memory to receive from rank %d", src);
    }
    for (int c = 0; c < l->nreq; c++) {
        int rc = PMPI_Irecv(to + (size_t)c * NET_AM_CHUNK, net_chunk_len(l->len, c), MPI_BYTE, src, NET_TAG_DATA,
                            am->comm, &l->reqs[c]);
        if (rc != MPI_SUCCESS) /* the engine is broken from here on: say so */
            return net_mpi_error(am, "posting a payload receive", rc);
    }
    am->nlarge++;
    am->large_from[src] = 1;
    return ORMA_SUCCESS;
}

/* Deliver the large payloads that have landed, keeping the others in
 * their order (at most one per source: its later messages wait). */
static int net_large_progress(struct net_am *am, int *n_p)
{
    int kept = 0;
    for (int i = 0; i < am->nlarge; i++) {
        struct net_large *l = &am->large[i];
        int done = 0, status = net_test_all(am, l->reqs, l->nreq, &done);
        if (status)
            return status;
        if (!done) {
            am->large[kept++] = *l;
            continue;
        }
        am->large_from[l->src] = 0;
        net_deliver(am, l->src, l->id, l->hdr, l->hlen, l->dst, l->len);
        free(l->scratch);
        free(l->reqs);
        (*n_p)++;
    }
    am->nlarge = kept;
    return ORMA_SUCCESS;
}

/* Handle slot i's message (the next of its source); repost the slot. */
static int net_slot_dispatch(struct net_am *am, int i, int *n_p)
{
    struct net_slot *s = &am->slots[i];
    struct net_wire w;
    memcpy(&w, s->buf, sizeof w);
    const unsigned char *hdr = s->buf + sizeof w;
    am->seq_in[s->src]++;
    int status = ORMA_SUCCESS;
    if (net_eager(w.hlen, w.len)) {
        net_deliver(am, s->src, w.id, hdr, w.hlen, hdr + w.hlen, (size_t)w.len);
        (*n_p)++;
    } else {
        status = net_large_begin(am, s->src, &w, hdr);
    }
    int st = net_post_slot(am, i);
    return status ? status : st;
}

int net_am_progress(struct net_am *am, int *delivered_p)
{
    int n = 0, status = ORMA_SUCCESS;
    int idx[NET_AM_SLOTS], count = 0;
    MPI_Status st[NET_AM_SLOTS];
    int rc = PMPI_Testsome(NET_AM_SLOTS, am->rreq, &count, idx, st);
    if (rc != MPI_SUCCESS)
        return net_mpi_error(am, "testing the receives", rc);
    for (int k = 0; count != MPI_UNDEFINED && k < count; k++) {
        struct net_slot *s = &am->slots[idx[k]];
        struct net_wire w;
        memcpy(&w, s->buf, sizeof w);
        s->full = 1;
        s->src = st[k].MPI_SOURCE;
        s->seq = w.seq;
        am->nfull++;
    }
    /* Slots complete in any order; a source's messages are handled in the
     * order it sent them (their seq), none while a large payload of the
     * source's is still on its way in.  Each that lands may free the
     * messages behind it. */
    for (;;) {
        for (int again = am->nfull > 0; again && !status;) {
            again = 0;
            for (int i = 0; i < NET_AM_SLOTS && !status; i++) {
                struct net_slot *s = &am->slots[i];
                if (s->full && s->seq == am->seq_in[s->src] && !am->large_from[s->src]) {
                    am->nfull--;
                    status = net_slot_dispatch(am, i, &n);
                    again = am->nfull > 0;
                }
            }
        }
        int before = n;
        if (status || !am->nlarge || (status = net_large_progress(am, &n)) || n == before || !am->nfull)
            break;
    }
    if (delivered_p)
        *delivered_p = n;
    return status;
}

/* A free send buffer's index, progressing until one is. */
static int net_send_buffer(struct net_am *am, int *i_p)
{
    for (;;) {
        for (int i = 0; i < NET_AM_SENDS; i++)
            if (am->sreq[i] == MPI_REQUEST_NULL) {
                *i_p = i;
                return ORMA_SUCCESS;
            }
        int count = 0, idx[NET_AM_SENDS];
        MPI_Status st[NET_AM_SENDS];
        int rc = PMPI_Testsome(NET_AM_SENDS, am->sreq, &count, idx, st);
        if (rc != MPI_SUCCESS)
            return net_mpi_error(am, "testing the sends", rc);
        if (count > 0 && count != MPI_UNDEFINED)
            continue;
        int status = net_am_progress(am, NULL);
        if (status)
            return status;
    }
}

static int net_data_send(struct net_am *am, int dst, const void *data, size_t len)
{
    int nreq = net_chunks(len);
    if (am->ndreq + nreq > am->capdreq) {
        int cap = am->capdreq ? 2 * am->capdreq : 16;
        while (cap < am->ndreq + nreq)
            cap *= 2;
        MPI_Request *r = realloc(am->dreq, (size_t)cap * sizeof *r);
        if (!r)
            return util_error(ORMA_ERR_NOMEM, "net: no memory to send %zu bytes to rank %d", len, dst);
        am->dreq = r;
        am->capdreq = cap;
    }
    for (int c = 0; c < nreq; c++) {
        int rc = PMPI_Isend((const char *)data + (size_t)c * NET_AM_CHUNK, net_chunk_len(len, c), MPI_BYTE, dst,
                            NET_TAG_DATA, am->comm, &am->dreq[am->ndreq]);
        if (rc != MPI_SUCCESS)
            return net_mpi_error(am, "sending a payload", rc);
        am->ndreq++;
    }
    return ORMA_SUCCESS;
}

int net_am_send(struct net_am *am, int dst, int id, const void *hdr, size_t hlen, const void *data, size_t len)
{
    if (dst < 0 || dst >= am->size)
        return util_error(ORMA_ERR_RANK, "net: destination %d is not in 0..%d", dst, am->size - 1);
    if (id < 0 || id >= NET_AM_HANDLERS || hlen > NET_AM_HDR_MAX || (hlen && !hdr) || (len && !data))
        return util_error(ORMA_ERR_ARG, "net: message to rank %d with handler %d, a header of %zu bytes (at most "
                          "%d) at %p and a payload of %zu bytes at %p", dst, id, hlen, NET_AM_HDR_MAX, hdr, len, data);
    int i = 0, status = net_send_buffer(am, &i);
    if (status)
        return status;
    struct net_wire w = {.id = (uint16_t)id, .hlen = (uint16_t)hlen, .seq = am->seq_out[dst], .len = len};
    int eager = net_eager(hlen, len);
    unsigned char *b = am->sbuf[i];
    memcpy(b, &w, sizeof w);
    if (hlen)
        memcpy(b + sizeof w, hdr, hlen);
    if (eager && len)
        memcpy(b + sizeof w + hlen, data, len);
    int rc = PMPI_Isend(b, (int)(sizeof w + hlen + (eager ? len : 0)), MPI_BYTE, dst, NET_TAG_AM, am->comm,
                        &am->sreq[i]);
    if (rc != MPI_SUCCESS)
        return net_mpi_error(am, "sending a message", rc);
    am->seq_out[dst]++;
    am->sent_to[dst]++;
    return eager ? ORMA_SUCCESS : net_data_send(am, dst, data, len);
}

/* Until the large payloads' sends are complete, and (all) the eager
 * messages' too. */
static int net_am_complete(struct net_am *am, int all)
{
    for (;;) {
        int sends = 1, data = 0;
        int status = all ? net_test_all(am, am->sreq, NET_AM_SENDS, &sends) : ORMA_SUCCESS;
        if (!status)
            status = net_test_all(am, am->dreq, am->ndreq, &data);
        if (status)
            return status;
        if (data)
            am->ndreq = 0;
        if (sends && data)
            return ORMA_SUCCESS;
        /* Our sends may need the peers' progress, and theirs ours. */
        status = net_am_progress(am, NULL);
        if (status)
            return status;
    }
}

/* An eager message's buffer is ours (a copy): its send need not be done. */
int net_am_flush(struct net_am *am) { return net_am_complete(am, 0); }

/* Until the collective req completes, progressing meanwhile: a peer still
 * flushing may need our receives before it can reach the collective. */
static int net_am_wait_collective(struct net_am *am, MPI_Request *req, int rc, const char *what)
{
    int status = ORMA_SUCCESS;
    for (int done = 0; rc == MPI_SUCCESS && !status && !done;) {
        MPI_Status st;
        rc = PMPI_Test(req, &done, &st);
        if (rc == MPI_SUCCESS && !done)
            status = net_am_progress(am, NULL);
        if (rc == MPI_SUCCESS && !done && util_wait_hook) /* the layers above: their other endpoints */
            util_wait_hook();
    }
    if (rc != MPI_SUCCESS)
        status = net_mpi_error(am, what, rc);
    return status;
}

int net_am_sum_scatter(struct net_am *am, const uint32_t *counts, uint32_t *mine)
{
    MPI_Request req;
    int rc = PMPI_Ireduce_scatter_block(counts, mine, 1, MPI_UINT32_T, MPI_SUM, am->comm, &req);
    return net_am_wait_collective(am, &req, rc, "summing the counts of a synchronization");
}

void net_am_abandon(struct net_am **am_p)
{
    net_am_free(*am_p);
    *am_p = NULL;
}

int net_am_close(struct net_am **am_p)
{
    struct net_am *am = *am_p;
    int status = net_am_complete(am, 1);
    uint64_t expected = 0;
    int *ones = NULL;
    if (!status && !(ones = malloc((size_t)am->size * sizeof *ones)))
        status = util_error(ORMA_ERR_NOMEM, "net: no memory to close");
    if (!status) {
        for (int r = 0; r < am->size; r++)
            ones[r] = 1;
        MPI_Request req;
        int rc = PMPI_Ireduce_scatter(am->sent_to, &expected, ones, MPI_UINT64_T, MPI_SUM, am->comm, &req);
        status = net_am_wait_collective(am, &req, rc, "counting the messages in flight");
    }
    free(ones);
    while (!status && (am->received < expected || am->nlarge)) {
        status = net_am_progress(am, NULL);
        if (util_wait_hook)
            util_wait_hook();
    }
    net_am_free(am);
    *am_p = NULL;
    return status;
}

/* The table (net_ops.h): an endpoint is a net_am. */
static int net_ops_open(const void *comm, struct net_ep **ep_p)
{
    return net_am_open(*(const MPI_Comm *)comm, (struct net_am **)ep_p);
}
static int net_ops_close(struct net_ep **ep_p) { return net_am_close((struct net_am **)ep_p); }
static void net_ops_abandon(struct net_ep **ep_p) { net_am_abandon((struct net_am **)ep_p); }
static int net_ops_handle(struct net_ep *ep, int id, const struct net_handler *h)
{
    return net_am_handle((struct net_am *)ep, id, h);
}
static int net_ops_send(struct net_ep *ep, int dst, int id, const void *hdr, size_t hlen, const void *data,
                        size_t len)
{
    return net_am_send((struct net_am *)ep, dst, id, hdr, hlen, data, len);
}
static int net_ops_flush(struct net_ep *ep) { return net_am_flush((struct net_am *)ep); }
static int net_ops_progress(struct net_ep *ep, int *n_p) { return net_am_progress((struct net_am *)ep, n_p); }
static int net_ops_sum_scatter(struct net_ep *ep, const uint32_t *counts, uint32_t *mine)
{
    return net_am_sum_scatter((struct net_am *)ep, counts, mine);
}
static int net_ops_rank(const struct net_ep *ep) { return net_am_rank((const struct net_am *)ep); }
static int net_ops_size(const struct net_ep *ep) { return net_am_size((const struct net_am *)ep); }

const struct net_ops net_am_ops = {
    .name = "mpi",
    .eager = NET_AM_SLOT_BYTES - sizeof(struct net_wire) - NET_AM_HDR_MAX,
    .open = net_ops_open,
    .close = net_ops_close,
    .abandon = net_ops_abandon,
    .handle = net_ops_handle,
    .send = net_ops_send,
    .flush = net_ops_flush,
    .progress = net_ops_progress,
    .sum_scatter = net_ops_sum_scatter,
    .rank = net_ops_rank,
    .size = net_ops_size,
};
