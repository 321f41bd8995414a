/* xport_net.c -- a window's endpoint of the net transport: opened and
 * closed with the window, progressed by every wait of this rank (and by
 * the progress thread), its entry points taken one thread at a time. */
#include "xport_net_impl.h"
#include "dtype_derived.h"
#include "util_config.h"
#include "util_log.h"
#include "util_status.h"
#include "util_time.h"
#include "util_wait.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct xport_net *xport_net_all;

int xport_net_grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return ORMA_SUCCESS;
    size_t c = *cap ? 2 * *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (!q)
        return util_error(ORMA_ERR_NOMEM, "net: out of memory for %zu entries", c);
    *p = q;
    *cap = c;
    return ORMA_SUCCESS;
}

/* A buffer of len bytes, kept in the list *bufs (*count of *cap used), or
 * NULL: out of memory. */
void *xport_net_buffer(void ***bufs, size_t *count, size_t *cap, size_t len)
{
    if (xport_net_grow((void **)bufs, cap, *count + 1, sizeof **bufs))
        return NULL;
    void *b = malloc(len ? len : 1);
    if (b)
        (*bufs)[(*count)++] = b;
    return b;
}

/* A message's header, of size bytes, into out: 0, said, when it has
 * another size (what: "a request", "a response"). */
int xport_net_header(const struct xport_net *n, const char *what, int src, const void *hdr, size_t hlen, void *out,
                     size_t size)
{
    if (hlen != size) {
        util_error(ORMA_ERR_PEER, "window %u: %s of %zu bytes from rank %d", n->host.id, what, hlen, src);
        return 0;
    }
    memcpy(out, hdr, size);
    return 1;
}

/* ---- progress --------------------------------------------------------- */

int xport_net_send_out(struct xport_net *n)
{
    int status = ORMA_SUCCESS;
    for (size_t i = 0; i < n->nout; i++) {
        struct xport_net_out o = n->out[i]; /* a send may progress and append */
        int rc = n->ops->send(n->ep, o.dst, XPORT_NET_H_RSP, &o.rsp, sizeof o.rsp, o.data, o.len);
        if (!status)
            status = rc;
        if (!o.owned)
            continue;
        if (o.len <= n->ops->eager ||
            xport_net_grow((void **)&n->scratch, &n->capscratch, n->nscratch + 1, sizeof *n->scratch))
            free(o.owned); /* copied at the send (or, out of memory, leaked into the error) */
        else
            n->scratch[n->nscratch++] = o.owned;
    }
    n->nout = 0;
    return status;
}

/* Complete our sends and free the reply buffers they used.  Replies still
 * queued go first: a handler run inside a send (which progresses when its
 * buffers are all in flight) queues its reply, pointing into our window,
 * and the synchronization call that flushes may end the epoch -- after
 * which the window may change under an unsent reply. */
int xport_net_flush_sends(struct xport_net *n)
{
    int status = ORMA_SUCCESS;
    while (n->nout && !status)
        status = xport_net_send_out(n);
    int rc = n->ops->flush(n->ep);
    if (!status)
        status = rc;
    for (size_t i = 0; i < n->nscratch; i++)
        free(n->scratch[i]);
    n->nscratch = 0;
    return status;
}

static int xport_net_progress(struct xport_net *n)
{
    int status = n->ops->progress(n->ep, NULL);
    if (n->nwaiting)
        xport_net_locks(n);
    int rc = n->nout ? xport_net_send_out(n) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    if (!status && n->nscratch >= 64) /* a passive target frees its reply buffers too */
        status = xport_net_flush_sends(n);
    return status;
}

/* Every entry point holds this (recursive: a wait polls): the progress
 * thread's polls and the rank's own calls take turns. */
static pthread_mutex_t xport_net_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static _Thread_local int xport_net_depth; /* how deep this thread holds it */

static void xport_net_mu_take(void)
{
    pthread_mutex_lock(&xport_net_mu);
    xport_net_depth++;
}

static void xport_net_mu_give(void)
{
    xport_net_depth--;
    pthread_mutex_unlock(&xport_net_mu);
}

static uint64_t xport_net_polled_ns; /* when this rank last polled (under xport_net_mu) */

void xport_net_poll(void)
{
    static int busy; /* a handler that waits (a stripe lock) polls again: not here */
    xport_net_mu_take();
    if (!busy) {
        xport_net_polled_ns = util_time_ns();
        busy = 1;
        for (struct xport_net *n = xport_net_all; n; n = n->next) {
            int status = xport_net_progress(n);
            if (status && !n->status)
                n->status = status;
        }
        busy = 0;
    }
    xport_net_mu_give();
}

/* ORMA_PROGRESS_THREAD=1: a thread polls every XPORT_NET_THREAD_US while
 * net windows exist, so that a target computing (or waiting outside orma)
 * still grants locks and carries out operations ([004] 4.3). */
#define XPORT_NET_THREAD_US 20
int xport_net_thread_ok;
static pthread_t xport_net_thread;
static _Atomic int xport_net_thread_run;

static void *xport_net_thread_main(void *arg)
{
    (void)arg;
    struct timespec ts = {0, XPORT_NET_THREAD_US * 1000};
    while (atomic_load_explicit(&xport_net_thread_run, memory_order_acquire)) {
        xport_net_poll();
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void xport_net_thread_start(void)
{
    static int warned;
    if (!util_config.progress_thread || atomic_load(&xport_net_thread_run))
        return;
    if (!xport_net_thread_ok) {
        if (!warned++)
            util_warn("ORMA_PROGRESS_THREAD=1 needs MPI_THREAD_MULTIPLE from the host MPI: no progress thread");
        return;
    }
    atomic_store(&xport_net_thread_run, 1);
    if (pthread_create(&xport_net_thread, NULL, xport_net_thread_main, NULL)) {
        atomic_store(&xport_net_thread_run, 0);
        util_warn("could not start the progress thread: passive targets progress in orma calls only");
    }
}

static void xport_net_thread_stop(void)
{
    if (atomic_exchange(&xport_net_thread_run, 0))
        pthread_join(xport_net_thread, NULL);
}

static void xport_net_poll_hook(void) { xport_net_poll(); }

int xport_net_active(void) { return util_wait_hook == xport_net_poll_hook; }

/* Poll until cond(n, arg) holds.  Between polls the entry point's hold
 * of xport_net_mu is let go: another thread's entry point (a fence of
 * another window, which the peer this one waits for may be waiting for)
 * goes on meanwhile, as the progress thread's polls do.  So may another
 * thread's entry point on n itself -- its window's other threads mostly
 * wait for the window, but not while one waits for a lock's grant
 * (xport_net_granted): cond must hold however they change n. */
void xport_net_wait(struct xport_net *n, int (*cond)(struct xport_net *, long), long arg)
{
    struct util_backoff b = {0};
    while (!cond(n, arg)) {
        xport_net_poll();
        if (!cond(n, arg)) {
            int entry = xport_net_depth == 1;
            if (entry)
                xport_net_mu_give();
            util_backoff_pause(&b);
            if (entry)
                xport_net_mu_take();
        }
    }
}

/* ---- the entry points: one thread at a time (the progress thread) --- */

/* An entry point polls unless this rank polled in the last
 * XPORT_NET_ENTRY_POLL_NS: a poll costs the host MPI's progress, a system
 * call or more, and a loop of small calls (put and flush_local) paid it in
 * every call -- while what may have arrived since is a microsecond old. */
#define XPORT_NET_ENTRY_POLL_NS 2000
static void xport_net_poll_due(void)
{
    if (util_time_ns() - xport_net_polled_ns >= XPORT_NET_ENTRY_POLL_NS)
        xport_net_poll();
}

/* Every entry point handles what has arrived first: a rank that only
 * calls orma (spinning on a flush of its own memory, say) still serves the
 * others ([004]: the progress engine runs in every call). */
#define XPORT_NET_ENTRY(call)                                                                                  \
    do {                                                                                                     \
        xport_net_mu_take();                                                                     \
        xport_net_poll_due();                                                                                  \
        int status_ = (call);                                                                                \
        xport_net_mu_give();                                                                   \
        return status_;                                                                                      \
    } while (0)

/* Queueing polls every XPORT_NET_POLL_OPS operations only: it is most of an
 * operation's cost. */
#define XPORT_NET_POLL_OPS 16
int xport_net_queue(struct xport_net *n, const struct xport_op *op)
{
    static unsigned calls;
    xport_net_mu_take();
    if (++calls % XPORT_NET_POLL_OPS == 0)
        xport_net_poll();
    int status = xport_net_queue_(n, op);
    xport_net_mu_give();
    return status;
}
int xport_net_notify(struct xport_net *n, const struct xport_op *op) { XPORT_NET_ENTRY(xport_net_notify_(n, op)); }
int xport_net_fence(struct xport_net *n, int closes) { XPORT_NET_ENTRY(xport_net_fence_(n, closes)); }
int xport_net_post(struct xport_net *n, const int *ranks, int count)
{
    XPORT_NET_ENTRY(xport_net_post_(n, ranks, count));
}
int xport_net_complete(struct xport_net *n) { XPORT_NET_ENTRY(xport_net_complete_(n)); }
int xport_net_exposure_done(struct xport_net *n) { XPORT_NET_ENTRY(xport_net_exposure_done_(n)); }
int xport_net_unlock(struct xport_net *n, int target, int lock, int local)
{
    XPORT_NET_ENTRY(xport_net_unlock_(n, target, lock, local));
}
int xport_net_ask(struct xport_net *n, int target, int lock) { XPORT_NET_ENTRY(xport_net_ask_(n, target, lock)); }
int xport_net_granted(struct xport_net *n, int target) { XPORT_NET_ENTRY(xport_net_granted_(n, target)); }
int xport_net_dyn_check(struct xport_net *n, int target, uint64_t addr, size_t len, uint32_t gen)
{
    XPORT_NET_ENTRY(xport_net_dyn_check_(n, target, addr, len, gen));
}
int xport_net_flush(struct xport_net *n, int target, int local) { XPORT_NET_ENTRY(xport_net_flush_(n, target, local)); }

/* ---- the endpoint ---------------------------------------------------- */

int xport_net_open(struct xport_net **n_p, const struct xport_net_host *host, const struct net_ops *ops,
                   const void *comm, const unsigned char *is_net)
{
    struct xport_net *n = calloc(1, sizeof *n);
    if (!n || !(n->peer = calloc((size_t)host->nranks, sizeof *n->peer))) {
        free(n);
        return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for the net transport", host->id);
    }
    n->ops = ops;
    n->host = *host;
    int status = ops->open(comm, &n->ep);
    if (!status && (ops->rank(n->ep) != host->rank || ops->size(n->ep) != host->nranks))
        status = util_error(ORMA_ERR_INTERNAL, "window %u: the net endpoint's ranks are not the window's",
                            host->id);
    struct net_handler req = {xport_net_req_place, xport_net_req_deliver, n};
    struct net_handler rsp = {xport_net_rsp_place, xport_net_rsp_deliver, n};
    struct net_handler batch = {NULL, xport_net_batch_deliver, n}; /* one slot's at most */
    if (!status)
        status = ops->handle(n->ep, XPORT_NET_H_REQ, &req);
    if (!status)
        status = ops->handle(n->ep, XPORT_NET_H_BATCH, &batch);
    if (!status)
        status = ops->handle(n->ep, XPORT_NET_H_RSP, &rsp);
    if (status) {
        if (n->ep)
            ops->close(&n->ep);
        free(n->peer);
        free(n);
        return status;
    }
    int nnet = 0;
    for (int r = 0; r < host->nranks; r++) {
        n->peer[r].net = r != host->rank && is_net[r];
        nnet += n->peer[r].net;
    }
    *n_p = n;
    xport_net_mu_take();
    n->next = xport_net_all;
    xport_net_all = n;
    util_wait_hook = xport_net_poll_hook;
    xport_net_mu_give();
    xport_net_thread_start();
    util_info("window %u: %d of its %d ranks over the net transport (%s)", host->id, nnet, host->nranks, ops->name);
    return ORMA_SUCCESS;
}

/* Close (collective) or abandon (local) an endpoint. */
static int xport_net_end(struct xport_net **n_p, int collective)
{
    struct xport_net *n = *n_p;
    if (!n)
        return ORMA_SUCCESS;
    int nranks = n->host.nranks;
    xport_net_mu_take();
    int status = ORMA_SUCCESS, rc = ORMA_SUCCESS;
    if (collective) {
        /* Polled like any other window while it closes (its waits call
         * util_wait_hook): a peer may begin a passive epoch on us after we
         * entered the free -- legal, since a passive target's involvement
         * has no end to wait for -- and its lock must be granted and its
         * operations answered, or neither of us leaves. */
        status = xport_net_send_out(n);
        rc = n->ops->close(&n->ep);
    } else {
        n->ops->abandon(&n->ep);
    }
    for (struct xport_net **pp = &xport_net_all; *pp; pp = &(*pp)->next)
        if (*pp == n) {
            *pp = n->next;
            break;
        }
    int last = !xport_net_all;
    if (last)
        util_wait_hook = NULL;
    xport_net_mu_give();
    if (last)
        xport_net_thread_stop();
    for (int r = 0; r < nranks; r++) {
        free(n->peer[r].act);
        free(n->peer[r].regions);
        while (n->peer[r].parked) {
            struct xport_net_parked *k = n->peer[r].parked;
            n->peer[r].parked = k->next;
            xport_net_parked_free(k);
        }
        while (n->peer[r].early) {
            struct xport_net_parked *k = n->peer[r].early;
            n->peer[r].early = k->next;
            xport_net_parked_free(k);
        }
    }
    for (size_t i = 0; i < n->nscratch; i++)
        free(n->scratch[i]);
    for (size_t i = 0; i < n->nheld; i++)
        free(n->held[i]);
    for (size_t i = 0; i < n->ntsent; i++)
        dtype_release(n->tsent[i].type);
    for (int r = 0; r < nranks; r++) {
        for (size_t i = 0; i < n->peer[r].ntypes; i++)
            if (n->peer[r].types[i] && !n->peer[r].types[i]->predefined)
                dtype_derived_free(n->peer[r].types[i]);
        free(n->peer[r].types);
        free(n->peer[r].tpart);
    }
    void *arrays[] = {n->tsent, n->scratch, n->held, n->batch, n->out, n->queue, n->peer, n};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(arrays[i]);
    *n_p = NULL;
    return status ? status : rc;
}

int xport_net_close(struct xport_net **n_p) { return xport_net_end(n_p, 1); }
void xport_net_abandon(struct xport_net **n_p) { xport_net_end(n_p, 0); }
