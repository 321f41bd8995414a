/* rma_notify.c -- notification counters: ours made and given back, the
 * others' mapped, raised and waited on (rma_notify.h). */
#include "rma_notify.h"
#include "rma_heap.h"
#include "xport_net.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "util_status.h"

#include <stdlib.h>

static size_t rma_notify_bytes(size_t n)
{
    return sizeof(struct rma_notify_head) + n * sizeof(struct rma_notify_ctr);
}

int rma_notify_alloc(struct rma_win *win, size_t n)
{
    if (atomic_load_explicit(&win->notify, memory_order_acquire))
        return util_error(ORMA_ERR_NOTIFY, "window %u: rank %d has notification counters already (free them first)",
                          win->id, win->rank);
    if (n > ORMA_NOTIFY_MAX)
        return util_error(ORMA_ERR_NOTIFY, "window %u: rank %d asked for %zu notification counters, more than %u",
                          win->id, win->rank, n, ORMA_NOTIFY_MAX);
    if (!n)
        return ORMA_SUCCESS;
    uint64_t seq = rma_heap_seq_new();
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)seq, boot_job.rank);
    /* The name stays while the counters live: origins map them at their
     * first notified operation, whenever that is (a killed job's go with
     * its other objects, as orma_alloc_mem's blocks). */
    int status = shm_seg_create(name, rma_notify_bytes(n), &win->notify_seg);
    if (status)
        return status;
    struct rma_notify_head *h = win->notify_seg.base;
    h->n = n;
    atomic_store_explicit(&win->notify, h, memory_order_release);
    atomic_store_explicit(&win->my_ctl->notify_seq, seq, memory_order_release);
    return ORMA_SUCCESS;
}

void rma_notify_free(struct rma_win *win)
{
    if (!atomic_load_explicit(&win->notify, memory_order_acquire))
        return;
    atomic_store_explicit(&win->my_ctl->notify_seq, 0, memory_order_release);
    atomic_store_explicit(&win->notify, NULL, memory_order_release);
    shm_seg_unlink(win->notify_seg.name);
    shm_seg_unmap(&win->notify_seg);
}

void rma_notify_release(struct rma_win *win)
{
    if (win->my_ctl)
        rma_notify_free(win);
    for (int r = 0; win->targets && r < win->nranks; r++) {
        shm_seg_unmap(&win->targets[r].notify_seg);
        win->targets[r].notify_seq = 0;
    }
}

static int rma_notify_none(struct rma_win *win, int target, const char *call)
{
    return util_error(ORMA_ERR_NOTIFY, "%s: window %u: rank %d has no notification counters (rank %d asking)", call,
                      win->id, target, win->rank);
}

static int rma_notify_bad_id(struct rma_win *win, int target, int id, uint64_t n, const char *call)
{
    return util_error(ORMA_ERR_NOTIFY, "%s: window %u: rank %d has %llu notification counters, and rank %d named "
                      "counter %d", call, win->id, target, (unsigned long long)n, win->rank, id);
}

/* Target's counters as they are now, mapped here (target not net). */
static int rma_notify_map(struct rma_win *win, int target, const char *call, struct rma_notify_head **h_p)
{
    if (target == win->rank) {
        *h_p = atomic_load_explicit(&win->notify, memory_order_acquire);
        return *h_p ? ORMA_SUCCESS : rma_notify_none(win, target, call);
    }
    struct rma_target *t = &win->targets[target];
    uint64_t seq = atomic_load_explicit(&t->ctl->notify_seq, memory_order_acquire);
    if (!seq)
        return rma_notify_none(win, target, call);
    if (seq != t->notify_seq) {
        char name[SHM_NAME_MAX];
        boot_name_of(name, sizeof name, t->token, "m%llu-r%d", (unsigned long long)seq, t->job_rank);
        struct shm_seg seg;
        int missing = 0;
        int status = shm_seg_open_if(name, 0, &seg, &missing);
        if (status)
            return status;
        if (missing) /* given back since we read the name */
            return rma_notify_none(win, target, call);
        shm_seg_unmap(&t->notify_seg);
        t->notify_seg = seg;
        t->notify_seq = seq;
    }
    struct rma_notify_head *h = t->notify_seg.base;
    if (t->notify_seg.size < sizeof *h || t->notify_seg.size < rma_notify_bytes(h->n))
        return util_error(ORMA_ERR_PEER, "%s: window %u: rank %d's notification counters are damaged", call, win->id,
                          target);
    *h_p = h;
    return ORMA_SUCCESS;
}

int rma_notify_check(struct rma_win *win, int target, int id, const char *call, struct rma_notify_head **h_p)
{
    *h_p = NULL;
    if (id < 0)
        return util_error(ORMA_ERR_NOTIFY, "%s: window %u: rank %d named notification counter %d of rank %d", call,
                          win->id, win->rank, id, target);
    if (target != win->rank && win->targets[target].net)
        return ORMA_SUCCESS; /* the target checks */
    int status = rma_notify_map(win, target, call, h_p);
    if (status)
        return status;
    return (uint64_t)id < (*h_p)->n ? ORMA_SUCCESS : rma_notify_bad_id(win, target, id, (*h_p)->n, call);
}

int rma_notify_issue(struct rma_win *win, int target, struct rma_notify_head *h, int id, int nop, uint64_t value)
{
    if (h) {
        rma_notify_apply(h, (uint32_t)id, nop, value);
        return ORMA_SUCCESS;
    }
    struct xport_op op = {.kind = XPORT_OP_NOTIFY, .target = target, .notify_id = (uint32_t)id,
                          .notify_op = (uint8_t)nop, .notify_value = value};
    return xport_net_notify(win->net, &op);
}

int rma_notify_host(struct rma_win *win, const struct xport_op *op, int origin)
{
    struct rma_notify_head *h = atomic_load_explicit(&win->notify, memory_order_acquire);
    if (!h)
        return util_error(ORMA_ERR_NOTIFY, "window %u: rank %d notified counter %u of rank %d, which has none",
                          win->id, origin, op->notify_id, win->rank);
    if (op->notify_id >= h->n)
        return util_error(ORMA_ERR_NOTIFY, "window %u: rank %d notified counter %u of rank %d, which has %llu",
                          win->id, origin, op->notify_id, win->rank, (unsigned long long)h->n);
    if (op->notify_op != ORMA_NOTIFY_ADD && op->notify_op != ORMA_NOTIFY_SET)
        return util_error(ORMA_ERR_PEER, "window %u: rank %d sent notification op %u", win->id, origin,
                          op->notify_op);
    rma_notify_apply(h, op->notify_id, op->notify_op, op->notify_value);
    return ORMA_SUCCESS;
}

int rma_notify_own(struct rma_win *win, int id, const char *call, _Atomic uint64_t **ctr_p)
{
    struct rma_notify_head *h = atomic_load_explicit(&win->notify, memory_order_acquire);
    if (!h)
        return util_error(ORMA_ERR_NOTIFY, "%s: window %u: rank %d has no notification counters", call, win->id,
                          win->rank);
    if (id < 0 || (uint64_t)id >= h->n)
        return util_error(ORMA_ERR_NOTIFY, "%s: window %u: rank %d has %llu notification counters, not counter %d",
                          call, win->id, win->rank, (unsigned long long)h->n, id);
    *ctr_p = &rma_notify_ctrs(h)[id].value;
    return ORMA_SUCCESS;
}

struct rma_notify_waiting {
    struct rma_notify_ctr *ctrs;
    size_t n;
    const int *ids;
    const uint64_t *values;
    int any;
    size_t index;
};

/* 1 when the wait is over. */
static int rma_notify_done(void *ctx)
{
    struct rma_notify_waiting *w = ctx;
    for (size_t i = 0; i < w->n; i++) {
        uint64_t v = atomic_load_explicit(&w->ctrs[w->ids[i]].value, memory_order_acquire);
        if (rma_notify_reached(v, w->values[i])) {
            if (w->any) {
                w->index = i;
                return 1;
            }
        } else if (!w->any) {
            return 0;
        }
    }
    return !w->any;
}

int rma_notify_wait(struct rma_win *win, size_t n, const int *ids, const uint64_t *values, int any,
                    size_t *index_p)
{
    struct rma_notify_head *h = atomic_load_explicit(&win->notify, memory_order_acquire);
    struct rma_notify_waiting w = {.ctrs = h ? rma_notify_ctrs(h) : NULL, .n = n, .ids = ids, .values = values,
                                   .any = any};
    if (!rma_notify_done(&w))
        util_wait_cond(&h->bump, rma_notify_done, &w);
    if (index_p)
        *index_p = w.index;
    return ORMA_SUCCESS;
}
