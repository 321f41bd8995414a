/* thr_atomics.c -- atomic updates of one element from many threads of
 * every rank, by every way orma updates it, at once.
 *
 * Under ORMA_THREAD_MULTIPLE a single-element fetch_and_op or
 * compare_and_swap on memory every rank maps is a hardware atomic with a
 * busy counter of the thread's own; an accumulate of many elements is a
 * plain loop under the target's stripes, which must wait for every such
 * update in flight; threads past the slots the process has take the
 * stripes too (rma_stripe.h).  Here, in one lock_all epoch, the threads of
 * every rank update counters of every rank: some with fetch_and_op, some
 * with an accumulate of all the counters at once, some with a
 * compare_and_swap loop; each counter must end at exactly the number of
 * increments aimed at it -- a lost update or a torn one shows -- and the
 * guards around the counters unchanged.
 *
 * Teams of 3 and of 10 threads (more than the slots: some take the
 * stripes), one after the other, so the second team also takes slots the
 * first gave back when its threads ended; windows of every flavour: those
 * whose memory every rank maps take hardware atomics, the others (malloc'd
 * memory) the stripes alone. */
#include "thr_test.h"

#define NCTR 16  /* counters at each rank */
#define ITER 64  /* updates per thread */
#define GUARD 64 /* bytes of guard on each side */

enum kind { BY_FOP, BY_ACC, BY_CAS, NKINDS };

static int rank, nranks;

/* Read by accumulates that may complete after the call returns: not on a
 * stack. */
static const int64_t ones[NCTR] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

struct ctx {
    struct st_win w;
    orma_win win;
};

static int target_of(int origin, int t, int i) { return (origin + t + i) % nranks; }
static enum kind kind_of(int t) { return (enum kind)(t % NKINDS); }
static size_t counter(int i) { return GUARD + (size_t)(i % NCTR) * sizeof(int64_t); }
static orma_aint at(const struct ctx *c, int r, size_t off) { return st_disp(&c->w, r, off); }

static void by_cas(struct ctx *c, int r, size_t off)
{
    int64_t seen, want, got;
    CHECK_OK(orma_fetch_and_op(NULL, &seen, ORMA_INT64, r, at(c, r, off), ORMA_NO_OP, c->win));
    CHECK_OK(orma_win_flush(r, c->win));
    for (;;) {
        want = seen + 1;
        CHECK_OK(orma_compare_and_swap(&want, &seen, &got, ORMA_INT64, r, at(c, r, off), c->win));
        CHECK_OK(orma_win_flush(r, c->win));
        if (got == seen)
            return;
        CHECK(got > seen); /* counters only grow */
        seen = got;
    }
}

static void run(struct thr_team *team, int t)
{
    struct ctx *c = team->ctx;
    if (t == 0)
        CHECK_OK(orma_win_lock_all(0, c->win));
    thr_sync(team);
    for (int i = 0; i < ITER; i++) {
        int r = target_of(rank, t, i);
        int64_t one = 1, before = -1;
        switch (kind_of(t)) {
        case BY_FOP:
            CHECK_OK(orma_fetch_and_op(&one, &before, ORMA_INT64, r, at(c, r, counter(i)), ORMA_SUM, c->win));
            break;
        case BY_ACC:
            CHECK_OK(orma_accumulate(ones, NCTR, ORMA_INT64, r, at(c, r, GUARD), NCTR, ORMA_INT64, ORMA_SUM, c->win));
            break;
        default:
            by_cas(c, r, counter(i));
            break;
        }
        if (i % 8 == 7 || kind_of(t) == BY_FOP) {
            CHECK_OK(orma_win_flush(r, c->win));
            if (kind_of(t) == BY_FOP)
                CHECK(before >= 0);
        }
    }
    thr_sync(team);
    if (t == 0)
        CHECK_OK(orma_win_unlock_all(c->win));
}

/* What counter k of this rank must hold when teams of nt threads at every
 * rank are done. */
static int64_t expected(int nt, int k)
{
    int64_t n = 0;
    for (int o = 0; o < nranks; o++)
        for (int t = 0; t < nt; t++)
            for (int i = 0; i < ITER; i++)
                if (target_of(o, t, i) == rank && (kind_of(t) == BY_ACC || i % NCTR == k))
                    n++;
    return n;
}

int main(void)
{
    static const int counts[] = {3, 10};
    thr_init(&rank, &nranks);
    const size_t size = GUARD + NCTR * sizeof(int64_t) + GUARD;
    for (int f = 0; f < ST_NKINDS; f++)
        for (size_t n = 0; n < sizeof counts / sizeof counts[0]; n++) {
            int nt = counts[n];
            struct ctx c;
            st_win_open(&c.w, f, size);
            c.win = c.w.win;
            unsigned char *mem = c.w.mem;
            rt_fill_bg(mem, GUARD);
            memset(mem + GUARD, 0, NCTR * sizeof(int64_t));
            for (size_t i = GUARD + NCTR * sizeof(int64_t); i < size; i++)
                mem[i] = rt_bg(i);
            CHECK_OK(orma_barrier());

            thr_run(nt, run, &c);

            CHECK_OK(orma_barrier());
            RT_EXPECT_BG(mem, 0, GUARD, "guard before the counters");
            for (int k = 0; k < NCTR; k++)
                THR_EXPECT_I64(thr_i64(mem, counter(k)), expected(nt, k), "counter");
            RT_EXPECT_BG(mem, GUARD + NCTR * sizeof(int64_t), size, "guard after the counters");
            CHECK_OK(orma_barrier());
            st_win_close(&c.w);
            if (rank == 0)
                printf("thr_atomics: %s window, %d threads per rank, %d ranks: ok\n", st_kind_names[f], nt, nranks);
        }
    CHECK_OK(orma_finalize());
    return 0;
}
