/* rma_epoch.h -- the epoch state of one window at one rank, in one place.
 *
 * Every synchronization call and every operation is an event; the table in
 * rma_epoch.c says, for each state and event, the next state or why the call
 * is illegal.  The model is MPI's: besides "no epoch" and "fence epoch with
 * operations", the state after a fence is "a fence may have opened an epoch"
 * (a fence both closes and opens, and which it did is known only by what
 * follows). */
#ifndef ORMA_RMA_EPOCH_H
#define ORMA_RMA_EPOCH_H

enum rma_epoch_state {
    RMA_EPOCH_NONE,        /* no access or exposure epoch */
    RMA_EPOCH_FENCE_MAYBE, /* a fence may have opened an epoch; nothing issued */
    RMA_EPOCH_FENCE,       /* fence epoch with operations issued */
    RMA_EPOCH_NSTATES
};

enum rma_epoch_event {
    RMA_EV_FENCE,                    /* fence without NOPRECEDE/NOSUCCEED */
    RMA_EV_FENCE_NOPRECEDE,          /* opens only */
    RMA_EV_FENCE_NOSUCCEED,          /* closes only */
    RMA_EV_FENCE_NOPRECEDE_NOSUCCEED,
    RMA_EV_OP,                       /* put, get */
    RMA_EV_FREE,
    RMA_EV_NEVENTS
};

struct rma_epoch_rule {
    signed char next;   /* next state, or -1: illegal */
    const char *reason; /* why it is illegal */
};

extern const struct rma_epoch_rule rma_epoch_table[RMA_EPOCH_NSTATES][RMA_EV_NEVENTS];

const char *rma_epoch_state_name(int state);
const char *rma_epoch_event_name(int event);

/* Apply event to *state_p: ORMA_SUCCESS and the new state, or
 * ORMA_ERR_RMA_SYNC with a message naming the rank, call and state. */
int rma_epoch_apply(int *state_p, int event);

/* The next state without changing anything: -1 when illegal. */
static inline int rma_epoch_peek(int state, int event) { return rma_epoch_table[state][event].next; }

#endif
