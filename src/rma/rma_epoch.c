/* rma_epoch.c -- the transition rules of rma_epoch.h.
 *
 * One table per component.  An entry is SAME (the event does not concern
 * this component), GO(next) or NO("why").  The combined rule for a state and
 * an event is illegal if either component refuses, else both components
 * move.  rma_epoch_init folds them into rma_epoch_table once. */
#include "rma_epoch.h"

#include <stdatomic.h>
#include "util_status.h"

#define SAME {-2, 0}
#define NO(why) {-1, why}
/* Events that always meet the same rule in a state. */
#define FENCES(...) \
    [RMA_EV_FENCE] = __VA_ARGS__, [RMA_EV_FENCE_NOPRECEDE] = __VA_ARGS__, [RMA_EV_FENCE_NOSUCCEED] = __VA_ARGS__, \
    [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = __VA_ARGS__
#define UNLOCKS(...) [RMA_EV_UNLOCK] = __VA_ARGS__, [RMA_EV_UNLOCK_LAST] = __VA_ARGS__
#define PASSIVE(...) \
    [RMA_EV_LOCK] = __VA_ARGS__, UNLOCKS(__VA_ARGS__), [RMA_EV_LOCK_ALL] = __VA_ARGS__, \
    [RMA_EV_UNLOCK_ALL] = __VA_ARGS__, [RMA_EV_FLUSH] = __VA_ARGS__
/* No passive epoch is open: what ends or flushes one is refused. */
#define NOT_LOCKED \
    UNLOCKS(NO("the target is not locked")), [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open"), \
    [RMA_EV_FLUSH] = NO("flush needs a lock or lock_all epoch")
/* Access epoch s is open (what: "a lock epoch"; closer: the call that
 * closes it): operations go, no fence, no free, and exposure is another
 * component's. */
#define OPEN(s, what, closer) \
    [RMA_EV_OP] = ACC(s), FENCES(NO(what " is open (" closer " first)")), [RMA_EV_FREE] = NO(what " is open"), \
    [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME
/* ... a passive one: flushes too, and no PSCW epoch may begin or end. */
#define OPEN_PASSIVE(s, what, closer) \
    OPEN(s, what, closer), [RMA_EV_FLUSH] = ACC(s), [RMA_EV_START] = NO(what " is open"), \
    [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (" what " is)")
/* No epoch is open yet: any may be. */
#define OPENS \
    [RMA_EV_FENCE] = ACC(FENCE_MAYBE), [RMA_EV_FENCE_NOPRECEDE] = ACC(FENCE_MAYBE), \
    [RMA_EV_FENCE_NOSUCCEED] = ACC(NONE), [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = ACC(NONE), \
    [RMA_EV_START] = ACC(START), [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (orma_win_start first)"), \
    [RMA_EV_LOCK] = ACC(LOCK), [RMA_EV_LOCK_ALL] = ACC(LOCK_ALL), NOT_LOCKED

#define ACC(s) {RMA_ACC_##s, 0}
static const struct rma_epoch_rule rma_access_rules[RMA_ACC_N][RMA_EV_NEVENTS] = {
    [RMA_ACC_NONE] = {
        OPENS,
        [RMA_EV_OP] = NO("no access epoch is open (fence, start, lock or lock_all first)"),
        [RMA_EV_FREE] = SAME, [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
    },
    [RMA_ACC_FENCE_MAYBE] = { /* the fence turns out to have opened nothing unless an op follows */
        OPENS,
        [RMA_EV_OP] = ACC(FENCE), [RMA_EV_FREE] = ACC(NONE),
        [RMA_EV_POST] = ACC(NONE), [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
    },
    [RMA_ACC_FENCE] = {
        [RMA_EV_FENCE] = ACC(FENCE_MAYBE),
        [RMA_EV_FENCE_NOPRECEDE] = NO("ORMA_MODE_NOPRECEDE asserted but operations were issued in the epoch"),
        [RMA_EV_FENCE_NOSUCCEED] = ACC(NONE),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = NO("ORMA_MODE_NOPRECEDE asserted but operations were issued in the epoch"),
        [RMA_EV_OP] = ACC(FENCE),
        [RMA_EV_FREE] = NO("a fence epoch with operations is still open (close it with orma_win_fence)"),
        [RMA_EV_POST] = NO("a fence epoch with operations is open"),
        [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = NO("a fence epoch with operations is open"),
        [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (a fence epoch is)"),
        [RMA_EV_LOCK] = NO("a fence epoch with operations is open"),
        [RMA_EV_LOCK_ALL] = NO("a fence epoch with operations is open"),
        NOT_LOCKED,
    },
    [RMA_ACC_START] = {
        OPEN(START, "a PSCW access epoch", "orma_win_complete"),
        [RMA_EV_START] = NO("a PSCW access epoch is already open"),
        [RMA_EV_COMPLETE] = ACC(NONE),
        [RMA_EV_LOCK] = NO("a PSCW access epoch is open"),
        [RMA_EV_LOCK_ALL] = NO("a PSCW access epoch is open"),
        NOT_LOCKED,
    },
    [RMA_ACC_LOCK] = {
        OPEN_PASSIVE(LOCK, "a lock epoch", "unlock"),
        [RMA_EV_LOCK] = ACC(LOCK), [RMA_EV_UNLOCK] = ACC(LOCK), [RMA_EV_UNLOCK_LAST] = ACC(NONE),
        [RMA_EV_LOCK_ALL] = NO("a lock epoch is open"),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open (a lock epoch is)"),
    },
    [RMA_ACC_LOCK_ALL] = {
        OPEN_PASSIVE(LOCK_ALL, "a lock_all epoch", "unlock_all"),
        [RMA_EV_LOCK] = NO("a lock_all epoch is open"),
        UNLOCKS(NO("a lock_all epoch is open (unlock_all, not unlock)")),
        [RMA_EV_LOCK_ALL] = NO("a lock_all epoch is already open"),
        [RMA_EV_UNLOCK_ALL] = ACC(NONE),
    },
};

#define EXP(s) {RMA_EXP_##s, 0}
static const struct rma_epoch_rule rma_exposure_rules[RMA_EXP_N][RMA_EV_NEVENTS] = {
    [RMA_EXP_NONE] = {
        FENCES(SAME), [RMA_EV_OP] = SAME, [RMA_EV_FREE] = SAME,
        [RMA_EV_POST] = EXP(POST),
        [RMA_EV_START] = SAME, [RMA_EV_COMPLETE] = SAME,
        [RMA_EV_WAIT] = NO("no exposure epoch is open (orma_win_post first)"),
        [RMA_EV_TEST] = NO("no exposure epoch is open (orma_win_post first)"),
        PASSIVE(SAME),
    },
    [RMA_EXP_POST] = {
        FENCES(NO("a PSCW exposure epoch is open (orma_win_wait first)")),
        [RMA_EV_OP] = SAME,
        [RMA_EV_FREE] = NO("a PSCW exposure epoch is open"),
        [RMA_EV_POST] = NO("a PSCW exposure epoch is already open"),
        [RMA_EV_START] = SAME, [RMA_EV_COMPLETE] = SAME,
        [RMA_EV_WAIT] = EXP(NONE), [RMA_EV_TEST] = EXP(POST),
        PASSIVE(SAME),
    },
};

struct rma_epoch_rule rma_epoch_table[RMA_EPOCH_NSTATES][RMA_EV_NEVENTS];

void rma_epoch_init(void)
{
    for (int a = 0; a < RMA_ACC_N; a++) {
        for (int x = 0; x < RMA_EXP_N; x++) {
            for (int e = 0; e < RMA_EV_NEVENTS; e++) {
                const struct rma_epoch_rule *ra = &rma_access_rules[a][e], *rx = &rma_exposure_rules[x][e];
                struct rma_epoch_rule *r = &rma_epoch_table[RMA_EPOCH_STATE(a, x)][e];
                if (ra->next == -1 || rx->next == -1) {
                    r->next = -1;
                    r->reason = ra->next == -1 ? ra->reason : rx->reason;
                } else {
                    int na = ra->next == -2 ? a : ra->next, nx = rx->next == -2 ? x : rx->next;
                    r->next = (signed char)RMA_EPOCH_STATE(na, nx);
                    r->reason = 0;
                }
            }
        }
    }
}

static const char *const rma_access_names[RMA_ACC_N] = {
    "no access epoch", "fence (may have opened an epoch)", "fence epoch with operations",
    "PSCW access epoch", "lock epoch", "lock_all epoch"};

static const char *const rma_event_names[RMA_EV_NEVENTS] = {
    "fence", "fence(NOPRECEDE)", "fence(NOSUCCEED)", "fence(NOPRECEDE|NOSUCCEED)", "operation",
    "window free", "post", "start", "complete", "wait", "test", "lock", "unlock", "unlock",
    "lock_all", "unlock_all", "flush"};

const char *rma_epoch_state_name(int state)
{
    static const char *const with_post[RMA_ACC_N] = {
        "exposure epoch", "invalid state", "invalid state", "PSCW access and exposure epochs",
        "lock epoch and exposure epoch", "lock_all epoch and exposure epoch"};
    if (state < 0 || state >= RMA_EPOCH_NSTATES)
        return "invalid state";
    int a = RMA_EPOCH_ACCESS(state);
    return RMA_EPOCH_EXPOSURE(state) == RMA_EXP_POST ? with_post[a] : rma_access_names[a];
}

const char *rma_epoch_event_name(int event)
{
    return event >= 0 && event < RMA_EV_NEVENTS ? rma_event_names[event] : "invalid event";
}

int rma_epoch_apply(_Atomic int *state_p, int event)
{
    int state = atomic_load_explicit(state_p, memory_order_relaxed);
    const struct rma_epoch_rule *rule = &rma_epoch_table[state][event];
    if (rule->next < 0)
        return util_error(ORMA_ERR_RMA_SYNC, "%s is not allowed in state \"%s\": %s", rma_epoch_event_name(event),
                          rma_epoch_state_name(state), rule->reason);
    atomic_store_explicit(state_p, rule->next, memory_order_release);
    return ORMA_SUCCESS;
}
