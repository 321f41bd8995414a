/* rma_net.c -- a window's endpoint of the net transport: opened and
 * closed with the window, progressed by every wait of this rank (and by
 * the progress thread), its entry points taken one thread at a time. */
#include "rma_net_impl.h"
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

static struct rma_net *rma_net_all;

int rma_net_grow(void **p, size_t *cap, size_t need, size_t size)
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

/* ---- progress --------------------------------------------------------- */

int rma_net_send_out(struct rma_net *n)
{
    int status = ORMA_SUCCESS;
    for (size_t i = 0; i < n->nout; i++) {
        struct rma_net_out o = n->out[i]; /* a send may progress and append */
        int rc = n->ops->send(n->ep, o.dst, RMA_NET_H_RSP, &o.rsp, sizeof o.rsp, o.data, o.len);
        if (!status)
            status = rc;
        if (!o.owned)
            continue;
        if (o.len <= n->ops->eager ||
            rma_net_grow((void **)&n->scratch, &n->capscratch, n->nscratch + 1, sizeof *n->scratch))
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
int rma_net_flush_sends(struct rma_net *n)
{
    int status = ORMA_SUCCESS;
    while (n->nout && !status)
        status = rma_net_send_out(n);
    int rc = n->ops->flush(n->ep);
    if (!status)
        status = rc;
    for (size_t i = 0; i < n->nscratch; i++)
        free(n->scratch[i]);
    n->nscratch = 0;
    return status;
}

static int rma_net_progress(struct rma_net *n)
{
    int status = n->ops->progress(n->ep, NULL);
    if (n->nwaiting)
        rma_net_locks(n);
    int rc = n->nout ? rma_net_send_out(n) : ORMA_SUCCESS;
    if (!status)
        status = rc;
    if (!status && n->nscratch >= 64) /* a passive target frees its reply buffers too */
        status = rma_net_flush_sends(n);
    return status;
}

/* Every rma_net call holds this (recursive: a wait polls): the progress
 * thread's polls and the rank's own calls take turns. */
static pthread_mutex_t rma_net_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static uint64_t rma_net_polled_ns; /* when this rank last polled (under rma_net_mu) */

void rma_net_poll(void)
{
    static int busy; /* a handler that waits (a stripe lock) polls again: not here */
    pthread_mutex_lock(&rma_net_mu);
    if (!busy) {
        rma_net_polled_ns = util_time_ns();
        busy = 1;
        for (struct rma_net *n = rma_net_all; n; n = n->next) {
            int status = rma_net_progress(n);
            if (status && !n->status)
                n->status = status;
        }
        busy = 0;
    }
    pthread_mutex_unlock(&rma_net_mu);
}

/* ORMA_PROGRESS_THREAD=1: a thread polls every RMA_NET_THREAD_US while
 * net windows exist, so that a target computing (or waiting outside orma)
 * still grants locks and carries out operations ([004] 4.3). */
#define RMA_NET_THREAD_US 20
int rma_net_thread_ok;
static pthread_t rma_net_thread;
static _Atomic int rma_net_thread_run;

static void *rma_net_thread_main(void *arg)
{
    (void)arg;
    struct timespec ts = {0, RMA_NET_THREAD_US * 1000};
    while (atomic_load_explicit(&rma_net_thread_run, memory_order_acquire)) {
        rma_net_poll();
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void rma_net_thread_start(void)
{
    static int warned;
    if (!util_config.progress_thread || atomic_load(&rma_net_thread_run))
        return;
    if (!rma_net_thread_ok) {
        if (!warned++)
            util_warn("ORMA_PROGRESS_THREAD=1 needs MPI_THREAD_MULTIPLE from the host MPI: no progress thread");
        return;
    }
    atomic_store(&rma_net_thread_run, 1);
    if (pthread_create(&rma_net_thread, NULL, rma_net_thread_main, NULL)) {
        atomic_store(&rma_net_thread_run, 0);
        util_warn("could not start the progress thread: passive targets progress in orma calls only");
    }
}

static void rma_net_thread_stop(void)
{
    if (atomic_exchange(&rma_net_thread_run, 0))
        pthread_join(rma_net_thread, NULL);
}

static void rma_net_poll_hook(void) { rma_net_poll(); }

int rma_net_active(void) { return util_wait_hook == rma_net_poll_hook; }

/* Poll until cond(n, arg) holds. */
void rma_net_wait(struct rma_net *n, int (*cond)(struct rma_net *, long), long arg)
{
    struct util_backoff b = {0};
    while (!cond(n, arg)) {
        rma_net_poll();
        if (!cond(n, arg))
            util_backoff_pause(&b);
    }
}

/* ---- the entry points: one thread at a time (the progress thread) --- */

/* An entry point polls unless this rank polled in the last
 * RMA_NET_ENTRY_POLL_NS: a poll costs the host MPI's progress, a system
 * call or more, and a loop of small calls (put and flush_local) paid it in
 * every call -- while what may have arrived since is a microsecond old. */
#define RMA_NET_ENTRY_POLL_NS 2000
static void rma_net_poll_due(void)
{
    if (util_time_ns() - rma_net_polled_ns >= RMA_NET_ENTRY_POLL_NS)
        rma_net_poll();
}

/* Every entry point handles what has arrived first: a rank that only
 * calls orma (spinning on a flush of its own memory, say) still serves the
 * others ([004]: the progress engine runs in every call). */
#define RMA_NET_ENTRY(call)                                                                                  \
    do {                                                                                                     \
        pthread_mutex_lock(&rma_net_mu);                                                                     \
        rma_net_poll_due();                                                                                  \
        int status_ = (call);                                                                                \
        pthread_mutex_unlock(&rma_net_mu);                                                                   \
        return status_;                                                                                      \
    } while (0)

/* Queueing polls every RMA_NET_POLL_OPS operations only: it is most of an
 * operation's cost. */
#define RMA_NET_POLL_OPS 16
int rma_net_queue(struct rma_win *win, const struct rma_op *op)
{
    static unsigned calls;
    pthread_mutex_lock(&rma_net_mu);
    if (++calls % RMA_NET_POLL_OPS == 0)
        rma_net_poll();
    int status = rma_net_queue_(win, op);
    pthread_mutex_unlock(&rma_net_mu);
    return status;
}
int rma_net_fence(struct rma_win *win, int closes) { RMA_NET_ENTRY(rma_net_fence_(win, closes)); }
int rma_net_post(struct rma_win *win, const int *ranks, int n, int assert)
{
    RMA_NET_ENTRY(rma_net_post_(win, ranks, n, assert));
}
int rma_net_complete(struct rma_win *win) { RMA_NET_ENTRY(rma_net_complete_(win)); }
int rma_net_exposure_done(struct rma_win *win) { RMA_NET_ENTRY(rma_net_exposure_done_(win)); }
int rma_net_unlock(struct rma_win *win, int target, int lock) { RMA_NET_ENTRY(rma_net_unlock_(win, target, lock)); }
int rma_net_acquire(struct rma_win *win, int target, int lock) { RMA_NET_ENTRY(rma_net_acquire_(win, target, lock)); }
int rma_net_dyn_check(struct rma_win *win, int target, uint64_t addr, size_t len)
{
    RMA_NET_ENTRY(rma_net_dyn_check_(win, target, addr, len));
}
int rma_net_flush(struct rma_win *win, int target, int local)
{
    RMA_NET_ENTRY(rma_net_flush_(win, target, local));
}

/* ---- the endpoint ---------------------------------------------------- */

int rma_net_open(struct rma_win *win, const struct net_ops *ops, const void *comm, int all)
{
    struct rma_net *n = calloc(1, sizeof *n);
    if (!n || !(n->peer = calloc((size_t)win->nranks, sizeof *n->peer))) {
        free(n);
        return util_error(ORMA_ERR_NOMEM, "window %u: out of memory for the net transport", win->id);
    }
    n->ops = ops;
    n->win = win;
    int status = ops->open(comm, &n->ep);
    if (!status && (ops->rank(n->ep) != win->rank || ops->size(n->ep) != win->nranks))
        status = util_error(ORMA_ERR_INTERNAL, "window %u: the net endpoint's ranks are not the window's",
                            win->id);
    struct net_handler req = {rma_net_req_place, rma_net_req_deliver, n};
    struct net_handler rsp = {rma_net_rsp_place, rma_net_rsp_deliver, n};
    struct net_handler batch = {NULL, rma_net_batch_deliver, n}; /* one slot's at most */
    if (!status)
        status = ops->handle(n->ep, RMA_NET_H_REQ, &req);
    if (!status)
        status = ops->handle(n->ep, RMA_NET_H_BATCH, &batch);
    if (!status)
        status = ops->handle(n->ep, RMA_NET_H_RSP, &rsp);
    if (status) {
        if (n->ep)
            ops->close(&n->ep);
        free(n->peer);
        free(n);
        return status;
    }
    int nnet = 0;
    for (int r = 0; r < win->nranks; r++)
        if (r != win->rank && (all || win->targets[r].off_node)) {
            struct rma_target *t = &win->targets[r];
            t->net = 1; /* no other transport reaches it any more */
            t->direct = 0;
            t->lo = t->hi = 0;
            nnet++;
        }
    win->net = n;
    pthread_mutex_lock(&rma_net_mu);
    n->next = rma_net_all;
    rma_net_all = n;
    util_wait_hook = rma_net_poll_hook;
    pthread_mutex_unlock(&rma_net_mu);
    rma_net_thread_start();
    util_info("window %u: %d of its %d ranks over the net transport (%s)", win->id, nnet, win->nranks, ops->name);
    return ORMA_SUCCESS;
}

/* Close (collective) or abandon (local) win's endpoint. */
static int rma_net_end(struct rma_win *win, int collective)
{
    struct rma_net *n = win->net;
    if (!n)
        return ORMA_SUCCESS;
    pthread_mutex_lock(&rma_net_mu);
    int status = ORMA_SUCCESS, rc = ORMA_SUCCESS;
    if (collective) {
        /* Polled like any other window while it closes (its waits call
         * util_wait_hook): a peer may begin a passive epoch on us after we
         * entered the free -- legal, since a passive target's involvement
         * has no end to wait for -- and its lock must be granted and its
         * operations answered, or neither of us leaves. */
        status = rma_net_send_out(n);
        rc = n->ops->close(&n->ep);
    } else {
        n->ops->abandon(&n->ep);
    }
    for (struct rma_net **pp = &rma_net_all; *pp; pp = &(*pp)->next)
        if (*pp == n) {
            *pp = n->next;
            break;
        }
    int last = !rma_net_all;
    if (last)
        util_wait_hook = NULL;
    pthread_mutex_unlock(&rma_net_mu);
    if (last)
        rma_net_thread_stop();
    for (int r = 0; r < win->nranks; r++) {
        free(n->peer[r].act);
        free(n->peer[r].regions);
        while (n->peer[r].parked) {
            struct rma_net_parked *k = n->peer[r].parked;
            n->peer[r].parked = k->next;
            rma_net_parked_free(k);
        }
        while (n->peer[r].early) {
            struct rma_net_parked *k = n->peer[r].early;
            n->peer[r].early = k->next;
            rma_net_parked_free(k);
        }
    }
    for (size_t i = 0; i < n->nscratch; i++)
        free(n->scratch[i]);
    for (size_t i = 0; i < n->nheld; i++)
        free(n->held[i]);
    for (size_t i = 0; i < n->ntsent; i++)
        dtype_release(n->tsent[i].type);
    for (int r = 0; r < win->nranks; r++) {
        for (size_t i = 0; i < n->peer[r].ntypes; i++)
            if (n->peer[r].types[i] && !n->peer[r].types[i]->predefined)
                dtype_derived_free(n->peer[r].types[i]);
        free(n->peer[r].types);
    }
    free(n->tsent);
    free(n->scratch);
    free(n->held);
    free(n->batch);
    free(n->out);
    free(n->queue);
    free(n->peer);
    free(n);
    win->net = NULL;
    return status ? status : rc;
}

int rma_net_close(struct rma_win *win) { return rma_net_end(win, 1); }
void rma_net_abandon(struct rma_win *win) { rma_net_end(win, 0); }
