/* unit_epoch.c -- the epoch table against an independent model of MPI's
 * rules, for every sequence of up to 7 synchronization events from "no
 * epoch" (illegal events are checked and not followed), plus the messages
 * illegal calls leave and the named sequences of the issue. */
#include "check.h"
#include "rma_epoch.h"
#include "util_log.h"
#include "util_status.h"

enum { M_NONE, M_FENCE_MAYBE, M_FENCE_OPS, M_START, M_LOCK, M_LOCK_ALL };

struct model {
    int access;
    int locks; /* targets locked with lock */
    int post;  /* exposure epoch open */
};

static int in(int a, int x, int y, int z) { return a == x || a == y || a == z; }

/* 0 and the new model, or -1 when MPI forbids the event. */
static int model_apply(struct model *m, int ev)
{
    int a = m->access;
    switch (ev) {
    case RMA_EV_FENCE:
    case RMA_EV_FENCE_NOPRECEDE:
    case RMA_EV_FENCE_NOSUCCEED:
    case RMA_EV_FENCE_NOPRECEDE_NOSUCCEED: {
        int noprecede = ev == RMA_EV_FENCE_NOPRECEDE || ev == RMA_EV_FENCE_NOPRECEDE_NOSUCCEED;
        int nosucceed = ev == RMA_EV_FENCE_NOSUCCEED || ev == RMA_EV_FENCE_NOPRECEDE_NOSUCCEED;
        if (m->post || in(a, M_START, M_LOCK, M_LOCK_ALL) || (noprecede && a == M_FENCE_OPS))
            return -1;
        m->access = nosucceed ? M_NONE : M_FENCE_MAYBE;
        return 0;
    }
    case RMA_EV_OP:
        if (a == M_NONE)
            return -1;
        if (a == M_FENCE_MAYBE)
            m->access = M_FENCE_OPS;
        return 0;
    case RMA_EV_FREE:
        if (m->post || !(a == M_NONE || a == M_FENCE_MAYBE))
            return -1;
        m->access = M_NONE;
        return 0;
    case RMA_EV_POST:
        if (m->post || a == M_FENCE_OPS)
            return -1;
        if (a == M_FENCE_MAYBE)
            m->access = M_NONE;
        m->post = 1;
        return 0;
    case RMA_EV_START:
        if (!(a == M_NONE || a == M_FENCE_MAYBE))
            return -1;
        m->access = M_START;
        return 0;
    case RMA_EV_COMPLETE:
        if (a != M_START)
            return -1;
        m->access = M_NONE;
        return 0;
    case RMA_EV_WAIT:
        if (!m->post)
            return -1;
        m->post = 0;
        return 0;
    case RMA_EV_TEST:
        return m->post ? 0 : -1;
    case RMA_EV_LOCK:
        if (!in(a, M_NONE, M_FENCE_MAYBE, M_LOCK))
            return -1;
        m->access = M_LOCK;
        m->locks++;
        return 0;
    case RMA_EV_UNLOCK:
    case RMA_EV_UNLOCK_LAST:
        if (a != M_LOCK)
            return -1;
        if (--m->locks == 0)
            m->access = M_NONE;
        return 0;
    case RMA_EV_LOCK_ALL:
        if (!(a == M_NONE || a == M_FENCE_MAYBE))
            return -1;
        m->access = M_LOCK_ALL;
        return 0;
    case RMA_EV_UNLOCK_ALL:
        if (a != M_LOCK_ALL)
            return -1;
        m->access = M_NONE;
        return 0;
    case RMA_EV_FLUSH:
        return a == M_LOCK || a == M_LOCK_ALL ? 0 : -1;
    }
    return -1;
}

static const int model_to_access[] = {RMA_ACC_NONE, RMA_ACC_FENCE_MAYBE, RMA_ACC_FENCE, RMA_ACC_START,
                                      RMA_ACC_LOCK, RMA_ACC_LOCK_ALL};

static long transitions, refusals;

static void walk(int state, struct model m, int depth)
{
    if (depth == 0)
        return;
    for (int ev = 0; ev < RMA_EV_NEVENTS; ev++) {
        /* the caller picks unlock or unlock-last by its count of locks */
        if (m.access == M_LOCK && ((ev == RMA_EV_UNLOCK && m.locks == 1) || (ev == RMA_EV_UNLOCK_LAST && m.locks > 1)))
            continue;
        struct model next = m;
        int want = model_apply(&next, ev);
        _Atomic int s = state; /* a window's state is an atomic (rma_win.h) */
        int rc = rma_epoch_apply(&s, ev);
        transitions++;
        if (want) {
            refusals++;
            CHECK(rc == ORMA_ERR_RMA_SYNC);
            CHECK(s == state); /* an illegal call changes nothing */
            CHECK(strstr(orma_error_message(), "rank 0: ") == orma_error_message());
            CHECK(strstr(orma_error_message(), rma_epoch_event_name(ev)));
            continue;
        }
        if (rc != ORMA_SUCCESS)
            fprintf(stderr, "refused %s in %s: %s\n", rma_epoch_event_name(ev), rma_epoch_state_name(state),
                    orma_error_message());
        CHECK(rc == ORMA_SUCCESS);
        CHECK(RMA_EPOCH_ACCESS(s) == model_to_access[next.access]);
        CHECK(RMA_EPOCH_EXPOSURE(s) == (next.post ? RMA_EXP_POST : RMA_EXP_NONE));
        if (ev == RMA_EV_FREE)
            continue; /* the window is gone */
        walk(s, next, depth - 1);
    }
}

static void expect(_Atomic int *s, int ev, int ok)
{
    int rc = rma_epoch_apply(s, ev);
    if (ok)
        CHECK_OK(rc);
    else
        CHECK(rc == ORMA_ERR_RMA_SYNC);
}

int main(void)
{
    util_set_rank(0);
    util_log_level = UTIL_LOG_NONE; /* many expected errors */
    rma_epoch_init();
    for (int s = 0; s < RMA_EPOCH_NSTATES; s++)
        for (int e = 0; e < RMA_EV_NEVENTS; e++) {
            const struct rma_epoch_rule *r = &rma_epoch_table[s][e];
            CHECK(r->next >= -1 && r->next < RMA_EPOCH_NSTATES);
            CHECK((r->next < 0) == (r->reason != NULL)); /* every refusal says why */
        }
    walk(RMA_EPOCH_NONE, (struct model){M_NONE, 0, 0}, 7);

    /* the sequences the issue names */
    _Atomic int s = RMA_EPOCH_NONE;
    expect(&s, RMA_EV_OP, 0);         /* put before any epoch */
    expect(&s, RMA_EV_UNLOCK, 0);     /* unlock without lock */
    expect(&s, RMA_EV_WAIT, 0);       /* wait without post */
    expect(&s, RMA_EV_COMPLETE, 0);   /* complete without start */
    expect(&s, RMA_EV_START, 1);
    expect(&s, RMA_EV_START, 0);      /* start twice */
    expect(&s, RMA_EV_OP, 1);
    expect(&s, RMA_EV_COMPLETE, 1);
    expect(&s, RMA_EV_OP, 0);         /* put after complete */
    expect(&s, RMA_EV_FENCE, 1);
    expect(&s, RMA_EV_OP, 1);
    expect(&s, RMA_EV_LOCK, 0);       /* lock inside a fence epoch */
    expect(&s, RMA_EV_FREE, 0);       /* free with an epoch open */
    expect(&s, RMA_EV_FENCE_NOSUCCEED, 1);
    expect(&s, RMA_EV_POST, 1);
    expect(&s, RMA_EV_FREE, 0);       /* free with an exposure epoch open */
    expect(&s, RMA_EV_WAIT, 1);
    expect(&s, RMA_EV_LOCK_ALL, 1);
    expect(&s, RMA_EV_UNLOCK, 0);     /* unlock inside lock_all */
    expect(&s, RMA_EV_FLUSH, 1);
    expect(&s, RMA_EV_UNLOCK_ALL, 1);
    expect(&s, RMA_EV_FLUSH, 0);      /* flush outside passive target */
    expect(&s, RMA_EV_FREE, 1);
    printf("unit_epoch: %ld transitions checked, %ld refused\n", transitions, refusals);
    return 0;
}
