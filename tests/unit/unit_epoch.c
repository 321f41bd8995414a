/* unit_epoch.c -- the epoch table against an independent model, for every
 * sequence of up to 6 events from "no epoch" (7^... all of them), plus the
 * message an illegal call leaves. */
#include "check.h"
#include "rma_epoch.h"
#include "util_log.h"
#include "util_status.h"

/* The model: is an epoch possibly open, and were operations issued in it. */
struct model {
    int open;
    int ops;
};

static int model_apply(struct model *m, int ev)
{
    switch (ev) {
    case RMA_EV_FENCE:
        m->open = 1;
        m->ops = 0;
        return 0;
    case RMA_EV_FENCE_NOPRECEDE:
        if (m->ops)
            return -1;
        m->open = 1;
        return 0;
    case RMA_EV_FENCE_NOSUCCEED:
        m->open = 0;
        m->ops = 0;
        return 0;
    case RMA_EV_FENCE_NOPRECEDE_NOSUCCEED:
        if (m->ops)
            return -1;
        m->open = 0;
        return 0;
    case RMA_EV_OP:
        if (!m->open)
            return -1;
        m->ops = 1;
        return 0;
    case RMA_EV_FREE:
        if (m->ops)
            return -1;
        m->open = 0;
        return 0;
    }
    return -1;
}

static long sequences;

static void walk(int state, struct model m, int depth)
{
    if (depth == 0)
        return;
    for (int ev = 0; ev < RMA_EV_NEVENTS; ev++) {
        struct model next = m;
        int want = model_apply(&next, ev);
        int s = state;
        int rc = rma_epoch_apply(&s, ev);
        sequences++;
        if (want) {
            CHECK(rc == ORMA_ERR_RMA_SYNC);
            CHECK(s == state); /* an illegal call changes nothing */
            CHECK(strstr(orma_error_message(), "rank 0: ") == orma_error_message());
            CHECK(strstr(orma_error_message(), rma_epoch_event_name(ev)));
            continue;
        }
        CHECK(rc == ORMA_SUCCESS);
        /* the state must encode exactly what the model knows */
        CHECK((s == RMA_EPOCH_NONE) == (!next.open && !next.ops));
        CHECK((s == RMA_EPOCH_FENCE) == (next.ops == 1));
        if (ev == RMA_EV_FREE)
            continue; /* the window is gone */
        walk(s, next, depth - 1);
    }
}

int main(void)
{
    util_set_rank(0);
    util_log_level = UTIL_LOG_NONE; /* thousands of expected errors */
    for (int s = 0; s < RMA_EPOCH_NSTATES; s++)
        for (int e = 0; e < RMA_EV_NEVENTS; e++) {
            const struct rma_epoch_rule *r = &rma_epoch_table[s][e];
            CHECK(r->next >= -1 && r->next < RMA_EPOCH_NSTATES);
            CHECK((r->next < 0) == (r->reason != NULL)); /* every refusal says why */
        }
    walk(RMA_EPOCH_NONE, (struct model){0, 0}, 6);
    /* named sequences of the issue */
    int s = RMA_EPOCH_NONE;
    CHECK(rma_epoch_apply(&s, RMA_EV_OP) == ORMA_ERR_RMA_SYNC); /* put before any fence */
    CHECK_OK(rma_epoch_apply(&s, RMA_EV_FENCE));
    CHECK_OK(rma_epoch_apply(&s, RMA_EV_OP));
    CHECK(rma_epoch_apply(&s, RMA_EV_FREE) == ORMA_ERR_RMA_SYNC); /* free with an epoch open */
    CHECK(rma_epoch_apply(&s, RMA_EV_FENCE_NOPRECEDE) == ORMA_ERR_RMA_SYNC);
    CHECK_OK(rma_epoch_apply(&s, RMA_EV_FENCE_NOSUCCEED));
    CHECK(rma_epoch_apply(&s, RMA_EV_OP) == ORMA_ERR_RMA_SYNC); /* put after the last fence */
    CHECK_OK(rma_epoch_apply(&s, RMA_EV_FREE));
    printf("unit_epoch: %ld transitions checked\n", sequences);
    return 0;
}
