/* rma_epoch.c -- the transition rules of rma_epoch.h.
 *
 * One table per component.  An entry is SAME (the event does not concern
 * this component), GO(next) or NO("why").  The combined rule for a state and
 * an event is illegal if either component refuses, else both components
 * move.  rma_epoch_init folds them into rma_epoch_table once. */
#include "rma_epoch.h"
#include "util_status.h"

#define SAME {-2, 0}
#define NO(why) {-1, why}

#define ACC(s) {RMA_ACC_##s, 0}
static const struct rma_epoch_rule rma_access_rules[RMA_ACC_N][RMA_EV_NEVENTS] = {
    [RMA_ACC_NONE] = {
        [RMA_EV_FENCE] = ACC(FENCE_MAYBE), [RMA_EV_FENCE_NOPRECEDE] = ACC(FENCE_MAYBE),
        [RMA_EV_FENCE_NOSUCCEED] = ACC(NONE), [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = ACC(NONE),
        [RMA_EV_OP] = NO("no access epoch is open (fence, start, lock or lock_all first)"),
        [RMA_EV_FREE] = SAME, [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = ACC(START),
        [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (orma_win_start first)"),
        [RMA_EV_LOCK] = ACC(LOCK),
        [RMA_EV_UNLOCK] = NO("the target is not locked"), [RMA_EV_UNLOCK_LAST] = NO("the target is not locked"),
        [RMA_EV_LOCK_ALL] = ACC(LOCK_ALL),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open"),
        [RMA_EV_FLUSH] = NO("flush needs a lock or lock_all epoch"),
    },
    [RMA_ACC_FENCE_MAYBE] = { /* the fence turns out to have opened nothing unless an op follows */
        [RMA_EV_FENCE] = ACC(FENCE_MAYBE), [RMA_EV_FENCE_NOPRECEDE] = ACC(FENCE_MAYBE),
        [RMA_EV_FENCE_NOSUCCEED] = ACC(NONE), [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = ACC(NONE),
        [RMA_EV_OP] = ACC(FENCE), [RMA_EV_FREE] = ACC(NONE),
        [RMA_EV_POST] = ACC(NONE), [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = ACC(START),
        [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (orma_win_start first)"),
        [RMA_EV_LOCK] = ACC(LOCK),
        [RMA_EV_UNLOCK] = NO("the target is not locked"), [RMA_EV_UNLOCK_LAST] = NO("the target is not locked"),
        [RMA_EV_LOCK_ALL] = ACC(LOCK_ALL),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open"),
        [RMA_EV_FLUSH] = NO("flush needs a lock or lock_all epoch"),
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
        [RMA_EV_UNLOCK] = NO("the target is not locked"), [RMA_EV_UNLOCK_LAST] = NO("the target is not locked"),
        [RMA_EV_LOCK_ALL] = NO("a fence epoch with operations is open"),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open"),
        [RMA_EV_FLUSH] = NO("flush needs a lock or lock_all epoch"),
    },
    [RMA_ACC_START] = {
        [RMA_EV_FENCE] = NO("a PSCW access epoch is open (orma_win_complete first)"),
        [RMA_EV_FENCE_NOPRECEDE] = NO("a PSCW access epoch is open (orma_win_complete first)"),
        [RMA_EV_FENCE_NOSUCCEED] = NO("a PSCW access epoch is open (orma_win_complete first)"),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = NO("a PSCW access epoch is open (orma_win_complete first)"),
        [RMA_EV_OP] = ACC(START),
        [RMA_EV_FREE] = NO("a PSCW access epoch is open"),
        [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = NO("a PSCW access epoch is already open"),
        [RMA_EV_COMPLETE] = ACC(NONE),
        [RMA_EV_LOCK] = NO("a PSCW access epoch is open"),
        [RMA_EV_UNLOCK] = NO("the target is not locked"), [RMA_EV_UNLOCK_LAST] = NO("the target is not locked"),
        [RMA_EV_LOCK_ALL] = NO("a PSCW access epoch is open"),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open"),
        [RMA_EV_FLUSH] = NO("flush needs a lock or lock_all epoch"),
    },
    [RMA_ACC_LOCK] = {
        [RMA_EV_FENCE] = NO("a lock epoch is open (unlock first)"),
        [RMA_EV_FENCE_NOPRECEDE] = NO("a lock epoch is open (unlock first)"),
        [RMA_EV_FENCE_NOSUCCEED] = NO("a lock epoch is open (unlock first)"),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = NO("a lock epoch is open (unlock first)"),
        [RMA_EV_OP] = ACC(LOCK),
        [RMA_EV_FREE] = NO("a lock epoch is open"),
        [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = NO("a lock epoch is open"),
        [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (a lock epoch is)"),
        [RMA_EV_LOCK] = ACC(LOCK), [RMA_EV_UNLOCK] = ACC(LOCK), [RMA_EV_UNLOCK_LAST] = ACC(NONE),
        [RMA_EV_LOCK_ALL] = NO("a lock epoch is open"),
        [RMA_EV_UNLOCK_ALL] = NO("no lock_all epoch is open (a lock epoch is)"),
        [RMA_EV_FLUSH] = ACC(LOCK),
    },
    [RMA_ACC_LOCK_ALL] = {
        [RMA_EV_FENCE] = NO("a lock_all epoch is open (unlock_all first)"),
        [RMA_EV_FENCE_NOPRECEDE] = NO("a lock_all epoch is open (unlock_all first)"),
        [RMA_EV_FENCE_NOSUCCEED] = NO("a lock_all epoch is open (unlock_all first)"),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = NO("a lock_all epoch is open (unlock_all first)"),
        [RMA_EV_OP] = ACC(LOCK_ALL),
        [RMA_EV_FREE] = NO("a lock_all epoch is open"),
        [RMA_EV_POST] = SAME, [RMA_EV_WAIT] = SAME, [RMA_EV_TEST] = SAME,
        [RMA_EV_START] = NO("a lock_all epoch is open"),
        [RMA_EV_COMPLETE] = NO("no PSCW access epoch is open (a lock_all epoch is)"),
        [RMA_EV_LOCK] = NO("a lock_all epoch is open"),
        [RMA_EV_UNLOCK] = NO("a lock_all epoch is open (unlock_all, not unlock)"),
        [RMA_EV_UNLOCK_LAST] = NO("a lock_all epoch is open (unlock_all, not unlock)"),
        [RMA_EV_LOCK_ALL] = NO("a lock_all epoch is already open"),
        [RMA_EV_UNLOCK_ALL] = ACC(NONE),
        [RMA_EV_FLUSH] = ACC(LOCK_ALL),
    },
};

#define EXP(s) {RMA_EXP_##s, 0}
static const struct rma_epoch_rule rma_exposure_rules[RMA_EXP_N][RMA_EV_NEVENTS] = {
    [RMA_EXP_NONE] = {
        [RMA_EV_FENCE] = SAME, [RMA_EV_FENCE_NOPRECEDE] = SAME, [RMA_EV_FENCE_NOSUCCEED] = SAME,
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = SAME, [RMA_EV_OP] = SAME, [RMA_EV_FREE] = SAME,
        [RMA_EV_POST] = EXP(POST),
        [RMA_EV_START] = SAME, [RMA_EV_COMPLETE] = SAME,
        [RMA_EV_WAIT] = NO("no exposure epoch is open (orma_win_post first)"),
        [RMA_EV_TEST] = NO("no exposure epoch is open (orma_win_post first)"),
        [RMA_EV_LOCK] = SAME, [RMA_EV_UNLOCK] = SAME, [RMA_EV_UNLOCK_LAST] = SAME,
        [RMA_EV_LOCK_ALL] = SAME, [RMA_EV_UNLOCK_ALL] = SAME, [RMA_EV_FLUSH] = SAME,
    },
    [RMA_EXP_POST] = {
        [RMA_EV_FENCE] = NO("a PSCW exposure epoch is open (orma_win_wait first)"),
        [RMA_EV_FENCE_NOPRECEDE] = NO("a PSCW exposure epoch is open (orma_win_wait first)"),
        [RMA_EV_FENCE_NOSUCCEED] = NO("a PSCW exposure epoch is open (orma_win_wait first)"),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = NO("a PSCW exposure epoch is open (orma_win_wait first)"),
        [RMA_EV_OP] = SAME,
        [RMA_EV_FREE] = NO("a PSCW exposure epoch is open"),
        [RMA_EV_POST] = NO("a PSCW exposure epoch is already open"),
        [RMA_EV_START] = SAME, [RMA_EV_COMPLETE] = SAME,
        [RMA_EV_WAIT] = EXP(NONE), [RMA_EV_TEST] = EXP(POST),
        [RMA_EV_LOCK] = SAME, [RMA_EV_UNLOCK] = SAME, [RMA_EV_UNLOCK_LAST] = SAME,
        [RMA_EV_LOCK_ALL] = SAME, [RMA_EV_UNLOCK_ALL] = SAME, [RMA_EV_FLUSH] = SAME,
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

int rma_epoch_apply(int *state_p, int event)
{
    const struct rma_epoch_rule *rule = &rma_epoch_table[*state_p][event];
    if (rule->next < 0)
        return util_error(ORMA_ERR_RMA_SYNC, "%s is not allowed in state \"%s\": %s", rma_epoch_event_name(event),
                          rma_epoch_state_name(*state_p), rule->reason);
    *state_p = rule->next;
    return ORMA_SUCCESS;
}
