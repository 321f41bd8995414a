/* rma_win.h -- a window as one rank sees it: its own part, and for every
 * target the transport to the target's memory, bound once at creation. */
#ifndef ORMA_RMA_WIN_H
#define ORMA_RMA_WIN_H

#include "rma_ctl.h"
#include "rma_epoch.h"
#include "shm_adopt.h"
#include "shm_seg.h"

#include <orma.h>
#include "util_rlock.h"

#include <stdatomic.h>
#include <stddef.h>

struct net_ops;
struct rma_notify_head;
struct xport_net;
struct rma_dyn_own;
struct xport_ops;
struct rma_box;
struct rma_box_gets;
struct rma_gather;
#include <stdint.h>
#include <sys/types.h>

/* A segment of a dynamic-window target mapped here on first access. */
struct rma_dyn_map {
    uint64_t seq;
    struct shm_seg seg;
    struct rma_dyn_map *next;
};

/* One target, and the transport that reaches its memory (xport.h), bound
 * once at creation (rma_win_create.c): shm when this process maps all of
 * it, cma for private memory (of which the whole pages [lo, hi) may be
 * mapped here as well: shm_adopt.h), none when it exposes nothing.  Targets
 * of dynamic windows have no one transport: each access takes the one of
 * the region it falls in (rma_dynamic.c).  Targets over the net transport
 * queue their operations to it instead (xport_net.h). */
struct rma_target {
    /* what the fast paths read first (rma_comm.h), together */
    char *base;       /* direct, and [lo, hi): base + offset is mapped here */
    uint8_t direct;   /* xp is shm for the whole window: loads and stores
                         on the fast paths (rma_comm.h, rma_acc.h) */
    uint8_t net;      /* reached over the net transport (xport_net.h) */
    uint8_t lock_type;   /* ORMA_LOCK_* held or requested in this epoch, or 0 */
    uint8_t lock_held;   /* the lock word was taken (not with NOCHECK) */
    _Atomic uint32_t ready;  /* == win->access_gen: may be accessed directly now */
    _Atomic uint32_t queued; /* operations queued for this target */
    int disp_unit;
    size_t size;
    const struct xport_ops *xp; /* NULL: dynamic window, or net */
    uintptr_t raddr;  /* cma: the target's base in its own address space */
    size_t lo, hi;    /* cma: the offsets also mapped here, through base */
    pid_t pid;
    int job_rank;        /* its rank in its job, and */
    const char *token;   /* its job's token: the names of its shared objects
                            (boot_name_of) */
    uint8_t foreign;     /* of another job than this rank's (rma_watch.h) */
    uint32_t post_expected;     /* posts from this target my starts have counted */
    uint32_t complete_expected; /* completes from this origin my posts have counted */
    uint8_t in_access;   /* in the group of the open PSCW access epoch */
    uint8_t in_exposure; /* in the group of the open PSCW exposure epoch */
    uint8_t off_node;    /* on another node: reached over the net transport only */
    uint8_t shared;      /* its memory is a shared segment every rank maps:
                            hardware atomics work on it (rma_atomic.h) */
    uint8_t hw;          /* some origin may update its memory, or part of it,
                            with hardware atomics: plain updates drain them */
    uint16_t acc_contended; /* small accumulates we still do with hardware
                               atomics since one found it contended (rma_acc.h) */
    struct rma_box *box; /* our box there (cma targets), or NULL: it empties
                            its boxes when it closes an epoch, and a later
                            epoch reaches it once it has (rma_box.h) */
    uint16_t box_skip;   /* passive boxes still to write out unoffered, and */
    uint8_t box_misses;  /* ... how many offers in a row it left waiting (rma_box.h) */
    uint8_t box_offered; /* our box there holds operations of a passive epoch: offered when emptied */
    uint8_t box_typed;   /* ... packed typed data among them (rma_box_typed.c) */
    struct rma_box_gets *box_gets; /* the gets in it (rma_box.h), or NULL: none yet */
    uint32_t box_run, box_run_end; /* 1 + where the last entry of a typed put's
                                      runs begins, and the box's used then
                                      (rma_box_run), or 0 */
    struct rma_gather *gather; /* our small operations to it that wait for
                                  the flush or unlock of a passive epoch
                                  (rma_gather.h), or NULL: none yet */
    struct rma_ctl_rank *ctl;
    _Atomic uint32_t *hw_busy; /* its hw_busy slots, one per target (rma_stripe.h) */
    _Atomic uint32_t *hw_threads; /* its threads' slots (rma_ctl_hw_threads) */
    uint8_t threads;          /* it runs ORMA_THREAD_MULTIPLE: its threads
                                 update with those slots (rma_stripe.h) */
    _Atomic uint32_t *stripes; /* its accumulate locks (rma_stripe.h) */
    struct shm_seg seg;      /* our mapping of its memory, when we own one */
    struct rma_dyn_map *dyn; /* dynamic windows: its segments mapped here */
    struct shm_seg dyn_table; /* dynamic windows: its region table mapped here */
    uint64_t dyn_table_seq;   /* ... which is "m<seq>-r<its job rank>" (0: none) */
    struct shm_seg notify_seg; /* its notification counters mapped here (rma_notify.h) */
    uint64_t notify_seq;       /* ... which are "m<seq>-r<its job rank>" (0: none) */
};

/* Window info in effect (orma_win_get_info). */
#define RMA_ORDER_RAR 1u
#define RMA_ORDER_RAW 2u
#define RMA_ORDER_WAR 4u
#define RMA_ORDER_WAW 8u
struct rma_win_hints {
    uint32_t acc_ordering; /* RMA_ORDER_* bits; 0: "none" */
    uint8_t same_op;       /* accumulate_ops=same_op */
    uint8_t no_locks;
    uint8_t same_size;
    uint8_t same_disp_unit;
    uint8_t unlock_local;  /* orma_unlock_local=true (xport_net.h) */
    uint8_t noncontig;     /* alloc_shared_noncontig=true: shared windows, given back by get_info */
    uint32_t notify_num;   /* orma_notify_num: this rank's own (not packed: ranks differ) */
    uint8_t check_race;    /* orma_check_race=true: this window's accesses are checked as under
                              ORMA_CHECK=race (rma_race.h); this rank's own */
};

struct rma_win {
    uint32_t index, gen; /* the handle */
    uint32_t id;         /* creation number, the same at every rank */
    int flavor;
    int rank, nranks;
    void *base;
    size_t size;
    int disp_unit;
    _Atomic int epoch_state;  /* enum rma_epoch_state, see rma_epoch.h */
    int drain_acc;            /* RMA_ACC_* of the epoch whose queue a closing
                                 call carries out (rma_comm_drain), or 0 */
    _Atomic uint32_t access_gen; /* changes whenever an access epoch opens or closes */
    uint32_t fence_epoch;     /* the last fence epoch this rank opened */
    uint32_t fence_closes;    /* the fences that closed an epoch (every rank counts all) */
    uint8_t box_in;           /* others may put into our boxes (rma_box.h) */
    _Atomic uint32_t ngathered; /* targets with gathered operations (rma_gather.h) */
    _Atomic uint32_t nboxed;    /* targets whose box is offered when emptied (rma_box.h) */
    uint32_t nboxgets;        /* targets whose box, not offered, holds gets (fence) */
    struct rma_box_types *box_types; /* layouts of typed puts through boxes
                                        (rma_box_typed.c), or NULL: none yet */
    int nocheck;              /* MODE_NOCHECK of the open start or lock_all */
    uint32_t nlocked;         /* targets locked with orma_win_lock */
    uint8_t null_locked;      /* ORMA_PROC_NULL "locked" in the open lock epoch
                                 (api_sync.c): an epoch with nothing behind it */
    uint32_t barrier_episode;
    struct shm_seg ctl_seg;
    struct rma_ctl_header *ctl;
    struct rma_ctl_rank *my_ctl;
    _Atomic uint32_t *my_hw_busy; /* our hw_busy slots, one per target */
    _Atomic uint32_t *my_hw_threads; /* our threads' (rma_ctl_hw_threads) */
    struct shm_seg data_seg;  /* allocate: our part; shared: the whole segment */
    struct shm_adopt adopt;   /* create on private memory: its adopted pages */
    struct rma_target *targets;
    struct xport_op *queue;
    size_t nqueued, queue_cap;
    _Atomic(struct rma_dyn_own *) dyn_own; /* dynamic: our region table (rma_dynamic.c),
                                    or NULL before the first attach */
    struct rma_win_hints hints;
    struct shm_seg notify_seg; /* our notification counters (rma_notify.h), or none */
    struct rma_notify_head *_Atomic notify; /* ... their header, or NULL */
    uint8_t notify_issuing;   /* a notified operation's data goes now (rma_notify.h) */
    uint8_t race_outside;     /* ORMA_CHECK=race: the dynamic window's access just carried out
                                 reached past its attached regions (rma_dynamic.c) */
    struct rma_race_win *race; /* ORMA_CHECK=race: our table and our accesses (rma_race.c), or NULL */
    char *acc_buf;            /* accumulates in chunks (rma_acc.c), or NULL */
    struct xport_net *net;      /* targets over the net transport (xport_net.h), or NULL */
    int net_only;             /* every target but this rank is one of them */
    int leader;               /* the lowest rank on this node: it makes the control segment */
    int local_rank, nlocal;   /* among the ranks on this node (shared-memory barrier) */
    int foreign;              /* ranks of other jobs (connected or spawned, rma_watch.h) */
    int peer_lost;            /* 1 + a rank of another job found gone, or 0 */
    /* ORMA_THREAD_MULTIPLE (rma_mt.h): the thread inside the window's
     * checked paths, and the one inside an active-target synchronization */
    struct util_rlock mt_lock;
    _Atomic(const void *) mt_sync;  /* the thread in fence/PSCW, or NULL */
};

/* The fields above that a thread reads outside the window's lock (rma_mt.h)
 * while another may write them under it: epoch_state, access_gen,
 * ngathered, nboxed, and a target's ready and queued.  Written by one
 * thread at a time, so the writers need no atomic read-modify-write; read
 * and written through these (plain moves on x86). */
#define RMA_LD(field) atomic_load_explicit(&(field), memory_order_acquire)
#define RMA_ST(field, v) atomic_store_explicit(&(field), (v), memory_order_release)
#define RMA_ADD(field, d) RMA_ST(field, RMA_LD(field) + (d))

/* The handle table: a freed or forged handle is detected, never followed.
 * Any thread may look a handle up while another registers a window: the
 * table grows into a new array and the old ones stay (rma_table.c). */
int rma_win_register(struct rma_win *win, orma_win *handle_p);
void rma_win_unregister(struct rma_win *win);
extern _Atomic(struct rma_win *) *_Atomic rma_table __attribute__((visibility("hidden"))); /* rma_table.c */
extern _Atomic uint32_t rma_table_cap __attribute__((visibility("hidden")));
static inline struct rma_win *rma_win_lookup(orma_win handle)
{
    uint64_t low = handle & UINT32_MAX;
    if (low == 0 || low > atomic_load_explicit(&rma_table_cap, memory_order_acquire))
        return NULL;
    _Atomic(struct rma_win *) *table = atomic_load_explicit(&rma_table, memory_order_acquire);
    struct rma_win *win = atomic_load_explicit(&table[low - 1], memory_order_acquire);
    if (!win || win->gen != (uint32_t)(handle >> 32))
        return NULL;
    return win;
}
/* Calls fn on every live window (for orma_finalize). */
void rma_win_foreach(void (*fn)(struct rma_win *));

/* The ranks a window spans, and how they exchange what they know at
 * creation: all of the job's ranks (NULL) or, for liborma-mpi, the ranks of
 * an MPI communicator on this node.  allgather: every rank of the team gives
 * len bytes, all receive size*len in team order; nonzero on failure. */
struct rma_team {
    int rank, size;
    int (*allgather)(void *ctx, const void *mine, size_t len, void *all);
    void *ctx;
    /* The net transport between the team's ranks (net_ops.h), or NULL;
     * net_comm is passed to its open.  It reaches the ranks on other nodes,
     * and with ORMA_TRANSPORT=net every other rank -- except in shared
     * windows, whose memory every rank must load and store. */
    const struct net_ops *net;
    const void *net_comm;
    /* here[r]: team rank r is on this node (in this orma job); NULL: all
     * are. */
    const unsigned char *here;
    /* Its ranks share memory and it has no net transport of its own (teams
     * made by orma_team_split): ORMA_TRANSPORT=net does not apply. */
    int shm_only;
};

/* Collective over team (NULL: the whole job).  arg_status is the caller's verdict on its own
 * arguments: every rank takes part even when its arguments are bad, so that a
 * local error becomes the same failure everywhere instead of a hang. */
int rma_win_create(const struct rma_team *team, int flavor, void *base, size_t size, int disp_unit, const struct rma_win_hints *hints,
                   int arg_status, orma_win *handle_p, struct rma_win **win_p);
int rma_win_free(struct rma_win *win);
/* Local teardown without the collective part (orma_finalize). */
void rma_win_release(struct rma_win *win);

int rma_win_barrier(struct rma_win *win);

/* Dynamic windows */
int rma_win_attach(struct rma_win *win, void *base, size_t size);
int rma_win_detach(struct rma_win *win, const void *base);
/* Dynamic windows: a region of ours (of some bytes) overlapping [lo, hi),
 * its base and size; 0 if none. */
int rma_dyn_attached(struct rma_win *win, uint64_t lo, uint64_t hi, uint64_t *base_p, uint64_t *size_p);
/* Our adopted regions back to private memory and our region table gone
 * (window teardown), then the tables of the others mapped here. */
void rma_dyn_release(struct rma_win *win);
void rma_dyn_unmap(struct rma_win *win);
/* Our own attached regions, consistent: at most max (base, size) pairs
 * into pairs; the number of regions (which may be more than max). */
size_t rma_dyn_regions(struct rma_win *win, uint64_t *pairs, size_t max);

/* Open the net transport's endpoint of a window being created (collective
 * over its ranks): its targets on other nodes -- all but this rank when
 * all -- become net targets (rma_target.net).  rma_net_host.c */
struct net_ops;
struct rma_notify_head;
int rma_net_open(struct rma_win *win, const struct net_ops *ops, const void *comm, int all);

#endif
