/* rma_epoch.h -- the epoch state of one window at one rank, in one place.
 *
 * The model is MPI's: an *access* state (none; "a fence may have opened an
 * epoch"; fence epoch with operations; PSCW start; passive-target lock of
 * one or more targets; lock_all) and an *exposure* state (none; PSCW post).
 * Access epochs are disjoint; an exposure epoch may overlap an access epoch
 * of PSCW or passive kind.  A fence is both, so nothing else may be open.
 *
 * Every synchronization call and every operation is an event.  The rules
 * are two small tables in rma_epoch.c, one per component, combined into one
 * state x event table at start-up: for each, the next state or why the call
 * is illegal.  Which targets are locked or in the start group is the
 * caller's bookkeeping; this table knows only the kinds of epoch. */
#ifndef ORMA_RMA_EPOCH_H
#define ORMA_RMA_EPOCH_H

enum rma_access {
    RMA_ACC_NONE,
    RMA_ACC_FENCE_MAYBE, /* after a fence, nothing issued yet */
    RMA_ACC_FENCE,       /* fence epoch with operations issued */
    RMA_ACC_START,       /* PSCW access epoch */
    RMA_ACC_LOCK,        /* one or more per-target locks */
    RMA_ACC_LOCK_ALL,
    RMA_ACC_N
};

enum rma_exposure { RMA_EXP_NONE, RMA_EXP_POST, RMA_EXP_N };

/* A state is access * RMA_EXP_N + exposure. */
#define RMA_EPOCH_STATE(acc, exp) ((acc) * RMA_EXP_N + (exp))
#define RMA_EPOCH_ACCESS(state) ((state) / RMA_EXP_N)
#define RMA_EPOCH_EXPOSURE(state) ((state) % RMA_EXP_N)
#define RMA_EPOCH_NSTATES (RMA_ACC_N * RMA_EXP_N)
#define RMA_EPOCH_NONE RMA_EPOCH_STATE(RMA_ACC_NONE, RMA_EXP_NONE)

enum rma_epoch_event {
    RMA_EV_FENCE,                    /* fence without NOPRECEDE/NOSUCCEED */
    RMA_EV_FENCE_NOPRECEDE,          /* opens only */
    RMA_EV_FENCE_NOSUCCEED,          /* closes only */
    RMA_EV_FENCE_NOPRECEDE_NOSUCCEED,
    RMA_EV_OP,          /* put, get, ... */
    RMA_EV_FREE,        /* orma_win_free */
    RMA_EV_POST,
    RMA_EV_START,
    RMA_EV_COMPLETE,
    RMA_EV_WAIT,        /* wait, or a test that finds the epoch complete */
    RMA_EV_TEST,        /* a test that finds it still open */
    RMA_EV_LOCK,
    RMA_EV_UNLOCK,      /* other targets stay locked */
    RMA_EV_UNLOCK_LAST, /* the last locked target */
    RMA_EV_LOCK_ALL,
    RMA_EV_UNLOCK_ALL,
    RMA_EV_FLUSH,       /* flush, flush_all, flush_local, flush_local_all */
    RMA_EV_NEVENTS
};

struct rma_epoch_rule {
    signed char next;   /* next state, or -1: illegal */
    const char *reason; /* why it is illegal */
};

/* Fill the combined table (idempotent; orma_init calls it). */
void rma_epoch_init(void);

extern struct rma_epoch_rule rma_epoch_table[RMA_EPOCH_NSTATES][RMA_EV_NEVENTS];

const char *rma_epoch_state_name(int state);
const char *rma_epoch_event_name(int event);

/* Apply event to *state_p (a window's: threads read it, rma_win.h):
 * ORMA_SUCCESS and the new state, or ORMA_ERR_RMA_SYNC with a message
 * naming the rank, call and state. */
int rma_epoch_apply(_Atomic int *state_p, int event);

/* The next state without changing anything: -1 when illegal. */
static inline int rma_epoch_peek(int state, int event) { return rma_epoch_table[state][event].next; }

#endif
