/* pp_atomic.c -- the accumulate-family pingpong ops on an orma window: the
 * plan and checks of pp_acc.h applied to the series' buffers.  Rank 0
 * checks its window and results after every round trip (inside the timed
 * batch, as for put).  Rank 1 checks its results after every round trip
 * too (they are not echoed back, as put's data is), but its window only
 * after each repetition, untimed: inside a batch rank 0 may already be
 * updating it. */
#include <stdio.h>

#include "pp.h"

static void set_up(pp_state *s)
{
    s->acc.op = s->op;
    s->acc.me = s->me;
    s->acc.peer = s->peer;
    s->acc.n = s->n;
}

void pp_atomic_begin(pp_state *s)
{
    set_up(s);
    pp_acc_begin(&s->acc, s->rep, s->w.base, s->send);
}

void pp_atomic_next(pp_state *s)
{
    pp_acc_next(&s->acc, s->rep, s->send);
}

int pp_atomic_verify(pp_state *s, int window)
{
    const char *what;
    size_t i;
    uint64_t want, got;
    if (pp_acc_check(&s->acc, window ? s->w.base : NULL, s->recv, &what, &i,
                     &want, &got))
        return 1;
    /* The first bad repetition of a point only; the loop goes on so that
     * both ranks keep making the same collective calls. */
    if (s->ok)
        fprintf(stderr, "orma-bench: rank %d: %s+%s on %s window, %zu bytes, "
                "repetition %llu: %s element %zu is 0x%016llx, expected "
                "0x%016llx\n", s->me, pp_op_names[s->op],
                pp_sync_names[s->sync], s->w.kind, s->n,
                (unsigned long long)s->rep, what, i,
                (unsigned long long)got, (unsigned long long)want);
    s->ok = 0;
    return 0;
}
