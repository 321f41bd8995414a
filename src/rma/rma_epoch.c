/* rma_epoch.c -- the transition table of rma_epoch.h. */
#include "rma_epoch.h"
#include "util_status.h"

#define OK(s) {RMA_EPOCH_##s, 0}
#define NO(why) {-1, why}

const struct rma_epoch_rule rma_epoch_table[RMA_EPOCH_NSTATES][RMA_EV_NEVENTS] = {
    [RMA_EPOCH_NONE] = {
        [RMA_EV_FENCE] = OK(FENCE_MAYBE),
        [RMA_EV_FENCE_NOPRECEDE] = OK(FENCE_MAYBE),
        [RMA_EV_FENCE_NOSUCCEED] = OK(NONE),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = OK(NONE),
        [RMA_EV_OP] = NO("no access epoch is open (call orma_win_fence first)"),
        [RMA_EV_FREE] = OK(NONE),
    },
    [RMA_EPOCH_FENCE_MAYBE] = {
        [RMA_EV_FENCE] = OK(FENCE_MAYBE),
        [RMA_EV_FENCE_NOPRECEDE] = OK(FENCE_MAYBE),
        [RMA_EV_FENCE_NOSUCCEED] = OK(NONE),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] = OK(NONE),
        [RMA_EV_OP] = OK(FENCE),
        [RMA_EV_FREE] = OK(NONE),
    },
    [RMA_EPOCH_FENCE] = {
        [RMA_EV_FENCE] = OK(FENCE_MAYBE),
        [RMA_EV_FENCE_NOPRECEDE] = NO("ORMA_MODE_NOPRECEDE asserted but operations were issued in the epoch"),
        [RMA_EV_FENCE_NOSUCCEED] = OK(NONE),
        [RMA_EV_FENCE_NOPRECEDE_NOSUCCEED] =
            NO("ORMA_MODE_NOPRECEDE asserted but operations were issued in the epoch"),
        [RMA_EV_OP] = OK(FENCE),
        [RMA_EV_FREE] = NO("a fence epoch with operations is still open (close it with orma_win_fence)"),
    },
};

static const char *const rma_state_names[RMA_EPOCH_NSTATES] = {
    "no epoch", "fence (may have opened an epoch)", "fence epoch with operations"};

static const char *const rma_event_names[RMA_EV_NEVENTS] = {
    "fence", "fence(NOPRECEDE)", "fence(NOSUCCEED)", "fence(NOPRECEDE|NOSUCCEED)", "operation", "window free"};

const char *rma_epoch_state_name(int state)
{
    return state >= 0 && state < RMA_EPOCH_NSTATES ? rma_state_names[state] : "invalid state";
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
