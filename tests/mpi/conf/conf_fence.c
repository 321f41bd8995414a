/* conf_fence.c -- MPI-4.1 section 12.5.1 (Fence), on every window flavour:
 *  - the RMA calls issued between two fences complete at the second fence,
 *    at the origin (get results are in place, origin buffers may be
 *    reused) and at the target (puts and accumulates are in the target's
 *    memory, seen by its local loads once its fence returns);
 *  - an epoch in which nobody communicates (fence right after fence)
 *    changes nothing;
 *  - fences back to back, each epoch carrying new data: every epoch's
 *    data arrive at its closing fence, a get in the next epoch reads them,
 *    and a location rewritten in every epoch holds the latest value;
 *  - a fence is collective, yet only some ranks need communicate in an
 *    epoch: the others just call fence;
 *  - MPI_MODE_NOPRECEDE on the fence that opens a sequence of epochs and
 *    MPI_MODE_NOSUCCEED on the one that closes it; after NOSUCCEED the
 *    window may be used in a passive target epoch, and a later fence
 *    sequence starts again;
 *  - local stores to the window made before a fence are seen by the other
 *    ranks' gets after it (12.7: a store becomes visible in the public
 *    copy at the latest when the next fence completes);
 *  - a rank may be its own target. */
#include "conf.h"

#define N 32 /* ints per rank */
#define SLOT 4 /* ints per slot of the back-to-back epochs */
#define EPOCHS 5

/* This rank's whole window is the background again (local stores), made
 * public by a fence that also opens the next epoch. */
static void reset(struct mt_win *w)
{
    fill_bg_int(w->base, N, rank);
    OK(MPI_Win_fence(0, w->win));
}

/* Put, get and accumulate in one epoch; all complete at the closing fence.
 * Then the origin buffers are reused, and an empty epoch changes nothing. */
static void epoch_completes(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N], acc = conf_val(rank, 10), want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    int *g = guarded_alloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++)
        g[i] = -7;

    reset(w);
    OK(MPI_Put(src + 4, 4, MPI_INT, right, mt_disp(w, right, 4), 4, MPI_INT, w->win));
    OK(MPI_Get(g, 4, MPI_INT, left, mt_disp(w, left, 20), 4, MPI_INT, w->win));
    OK(MPI_Accumulate(&acc, 1, MPI_INT, 0, mt_disp(w, 0, 10), 1, MPI_INT, MPI_SUM, w->win));
    OK(MPI_Win_fence(0, w->win));

    /* the get: complete at the origin */
    for (int i = 0; i < 4; i++)
        expect("get completed by the closing fence", i, g[i], bg(left, 20 + i));
    guarded_check(g, 4 * sizeof(int), "get completed by the closing fence");
    /* the put and the accumulates: complete at the target */
    fill_bg_int(want, N, rank);
    for (int i = 4; i < 8; i++)
        want[i] = conf_val(left, i);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            want[10] += conf_val(r, 10);
    conf_expect_ints("put and accumulate completed by the closing fence", w->base, want, N);

    /* The origin buffers are ours again: changing them now changes
     * nothing at the targets, nor does an epoch with no calls. */
    for (int i = 0; i < N; i++)
        src[i] = -1;
    acc = -1;
    g[0] = -1;
    OK(MPI_Win_fence(0, w->win));
    OK(MPI_Win_fence(0, w->win));
    conf_expect_ints("after reusing the origin buffers and an empty epoch", w->base, want, N);
    guarded_free(g);
}

/* Value of rank r's put at index i in epoch k: new in every epoch. */
static int epoch_val(int r, int k, long i) { return conf_val(r, i) + 10000 * (k + 1); }

/* The two slots rewritten in turns, epoch after epoch. */
static int turn_slot(int k) { return N - (k % 2 == 0 ? 2 : 1) * SLOT; }

/* Whether index i of a window is written in epoch k of back_to_back. */
static int written_in(int k, int i)
{
    return k < EPOCHS &&
           ((i >= k * SLOT && i < (k + 1) * SLOT) || (i >= turn_slot(k) && i < turn_slot(k) + SLOT));
}

/* EPOCHS epochs back to back.  In epoch k every rank puts slot k of its
 * right neighbour, rewrites one of two slots there (in turns), and gets
 * slot k - 1 of the same neighbour, which it put in the epoch before.
 * After each fence the target checks its memory by local loads, except
 * where the next epoch's puts may already be landing. */
static void back_to_back(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N], got[SLOT], want[N];
    const int *p = w->base;
    reset(w);
    fill_bg_int(want, N, rank);
    for (int k = 0; k < EPOCHS; k++) {
        for (int i = 0; i < N; i++)
            src[i] = epoch_val(rank, k, i);
        for (int i = 0; i < SLOT; i++)
            got[i] = -7;
        int t = turn_slot(k);
        OK(MPI_Put(src + k * SLOT, SLOT, MPI_INT, right, mt_disp(w, right, k * SLOT), SLOT, MPI_INT,
                   w->win));
        OK(MPI_Put(src + t, SLOT, MPI_INT, right, mt_disp(w, right, t), SLOT, MPI_INT, w->win));
        if (k > 0)
            OK(MPI_Get(got, SLOT, MPI_INT, right, mt_disp(w, right, (k - 1) * SLOT), SLOT, MPI_INT,
                       w->win));
        OK(MPI_Win_fence(0, w->win));
        for (int i = 0; i < N; i++)
            if (written_in(k, i))
                want[i] = epoch_val(left, k, i);
        for (int i = 0; i < N; i++)
            if (!written_in(k + 1, i))
                expect("back-to-back epochs, target memory after the epoch's fence", i, p[i], want[i]);
        for (int i = 0; k > 0 && i < SLOT; i++)
            expect("back-to-back epochs, get of the previous epoch's put", i, got[i],
                   epoch_val(rank, k - 1, (k - 1) * SLOT + i));
    }
    OK(MPI_Win_fence(0, w->win));
    conf_expect_ints("after back-to-back epochs", w->base, want, N);
}

/* Epochs in which only some ranks communicate: the even ranks put, then
 * only the last rank gets, from everybody. */
static void some_ranks(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    if (rank % 2 == 0)
        OK(MPI_Put(src + 12, 6, MPI_INT, right, mt_disp(w, right, 12), 6, MPI_INT, w->win));
    OK(MPI_Win_fence(0, w->win));
    fill_bg_int(want, N, rank);
    if (left % 2 == 0)
        for (int i = 12; i < 18; i++)
            want[i] = conf_val(left, i);
    conf_expect_ints("an epoch in which only the even ranks put", w->base, want, N);

    int *all = NULL;
    if (rank == size - 1) {
        all = guarded_alloc((size_t)size * 6 * sizeof(int));
        for (int r = 0; r < size; r++)
            OK(MPI_Get(all + 6 * r, 6, MPI_INT, r, mt_disp(w, r, 12), 6, MPI_INT, w->win));
    }
    OK(MPI_Win_fence(0, w->win));
    if (all) {
        for (int r = 0; r < size; r++) {
            int l = (r + size - 1) % size;
            for (int i = 0; i < 6; i++)
                expect("an epoch in which only the last rank gets", 6L * r + i, all[6 * r + i],
                       l % 2 == 0 ? conf_val(l, 12 + i) : bg(r, 12 + i));
        }
        guarded_check(all, (size_t)size * 6 * sizeof(int), "an epoch in which only the last rank gets");
        guarded_free(all);
    }
    conf_expect_ints("after an epoch in which only the last rank gets", w->base, want, N);
}

/* A sequence of epochs opened by MPI_MODE_NOPRECEDE and closed by
 * MPI_MODE_NOSUCCEED, then a passive target epoch on the same window,
 * then a new sequence. */
static void precede_succeed(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int src[N], want[N], got[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);

    /* close whatever the previous fence opened: nothing was issued since */
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    fill_bg_int(w->base, N, rank);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    OK(MPI_Put(src, 3, MPI_INT, right, mt_disp(w, right, 0), 3, MPI_INT, w->win));
    OK(MPI_Win_fence(0, w->win));
    OK(MPI_Put(src + N - 3, 3, MPI_INT, right, mt_disp(w, right, N - 3), 3, MPI_INT, w->win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    fill_bg_int(want, N, rank);
    for (int i = 0; i < 3; i++) {
        want[i] = conf_val(left, i);
        want[N - 3 + i] = conf_val(left, N - 3 + i);
    }
    conf_expect_ints("epochs from a NOPRECEDE fence to a NOSUCCEED fence", w->base, want, N);

    /* no fence epoch is open now: a lock epoch may follow */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Get(got, N, MPI_INT, right, mt_disp(w, right, 0), N, MPI_INT, w->win));
    OK(MPI_Win_unlock(right, w->win));
    for (int i = 0; i < N; i++)
        expect("a passive target epoch after NOSUCCEED", i, got[i],
               i < 3 || i >= N - 3 ? conf_val(rank, i) : bg(right, i));
    MPI_Barrier(MPI_COMM_WORLD);

    /* and a new sequence of fence epochs */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    OK(MPI_Put(src + 5, 1, MPI_INT, right, mt_disp(w, right, 5), 1, MPI_INT, w->win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    want[5] = conf_val(left, 5);
    conf_expect_ints("a second NOPRECEDE..NOSUCCEED sequence", w->base, want, N);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win)); /* the fence the next test expects */
}

/* Local stores before a fence, gets by the neighbours after it. */
static void stores_then_gets(struct mt_win *w)
{
    int right = conf_right();
    int got[8];
    reset(w);
    /* an epoch in which nobody accesses this window: local stores */
    int *p = w->base;
    for (int i = 8; i < 16; i++)
        p[i] = conf_val(rank, i);
    OK(MPI_Win_fence(0, w->win));
    for (int i = 0; i < 8; i++)
        got[i] = -7;
    OK(MPI_Get(got, 8, MPI_INT, right, mt_disp(w, right, 8), 8, MPI_INT, w->win));
    OK(MPI_Win_fence(0, w->win));
    for (int i = 0; i < 8; i++)
        expect("a get after a fence of what the target stored before it", i, got[i],
               conf_val(right, 8 + i));
    /* and stored again, in a later epoch, then read by a get again */
    for (int i = 8; i < 16; i++)
        p[i] = conf_val(rank, i) + 50000;
    OK(MPI_Win_fence(0, w->win));
    OK(MPI_Get(got, 8, MPI_INT, right, mt_disp(w, right, 8), 8, MPI_INT, w->win));
    OK(MPI_Win_fence(0, w->win));
    for (int i = 0; i < 8; i++)
        expect("a get after a fence of what the target stored again", i, got[i],
               conf_val(right, 8 + i) + 50000);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    epoch_completes(w);
    back_to_back(w);
    some_ranks(w);
    precede_succeed(w);
    stores_then_gets(w);
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_fence");
}
