/* conf_assert.c -- MPI-4.1 section 12.5.5 (Assertions), on every window
 * flavour: each assertion a synchronization call accepts, given where it
 * holds, leaves the data right; and 0 is always right.
 *  - MPI_Win_fence: MPI_MODE_NOPRECEDE (no RMA calls of this rank to
 *    complete; given by all ranks), MPI_MODE_NOSUCCEED (none will follow
 *    before the next fence; given by all ranks), MPI_MODE_NOSTORE (no local
 *    stores since the last synchronization), MPI_MODE_NOPUT (no puts or
 *    accumulates to this window until the next fence); NOSTORE and NOPUT
 *    are local and may differ between ranks; several ORed, all four at
 *    once;
 *  - MPI_Win_post: MPI_MODE_NOCHECK (the matching starts come after a
 *    barrier, with MPI_MODE_NOCHECK too, as the standard requires of both
 *    sides), MPI_MODE_NOSTORE, MPI_MODE_NOPUT (the origins only get);
 *  - MPI_Win_start: MPI_MODE_NOCHECK (the matching posts are done);
 *  - MPI_Win_lock and MPI_Win_lock_all: MPI_MODE_NOCHECK where no other
 *    process holds or asks for a conflicting lock meanwhile. */
#include "conf.h"

#define N 32 /* ints per rank */

/* Fence assertions, a whole sequence on a window not used since it was
 * made (the first fence completes nothing: NOPRECEDE). */
static void fence_asserts(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N], got[4], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    fill_bg_int(w->base, N, rank);
    fill_bg_int(want, N, rank);

    /* local stores before it, none of this rank's RMA calls to complete */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win));
    OK(MPI_Put(src, 4, MPI_INT, right, mt_disp(w, right, 0), 4, MPI_INT, w->win));
    /* no stores since the last fence; the next epoch only gets (NOPUT);
     * the odd ranks keep NOPUT to themselves: it is a local assertion */
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | (rank % 2 ? 0 : MPI_MODE_NOPUT), w->win));
    for (int i = 0; i < 4; i++)
        want[i] = conf_val(left, i);
    conf_expect_ints("fence(NOPRECEDE) .. fence(NOSTORE | NOPUT)", w->base, want, N);
    for (int i = 0; i < 4; i++)
        got[i] = -7;
    OK(MPI_Get(got, 4, MPI_INT, right, mt_disp(w, right, 0), 4, MPI_INT, w->win));
    /* nothing follows before the next fence */
    OK(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOSUCCEED, w->win));
    for (int i = 0; i < 4; i++)
        expect("a get closed by fence(NOSTORE | NOPUT | NOSUCCEED)", i, got[i], conf_val(rank, i));
    conf_expect_ints("fence(NOSTORE | NOPUT | NOSUCCEED)", w->base, want, N);

    /* a new sequence: loads (not stores) since the last fence */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE, w->win));
    int one = conf_val(rank, 8);
    OK(MPI_Accumulate(&one, 1, MPI_INT, right, mt_disp(w, right, 8), 1, MPI_INT, MPI_SUM, w->win));
    OK(MPI_Win_fence(0, w->win));
    want[8] += conf_val(left, 8);
    /* not where the next epoch's puts may already land */
    for (int i = 0; i < N; i++)
        if (i != 9 && i != 10)
            expect("fence(NOPRECEDE | NOSTORE) .. fence(0)", i, ((const int *)w->base)[i], want[i]);
    OK(MPI_Put(src + 9, 2, MPI_INT, right, mt_disp(w, right, 9), 2, MPI_INT, w->win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win));
    want[9] = conf_val(left, 9);
    want[10] = conf_val(left, 10);
    conf_expect_ints("fence(0) .. fence(NOSUCCEED)", w->base, want, N);

    /* a fence that completes nothing and starts nothing, with no stores
     * before it and no puts until the next fence: all four assertions */
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, w->win));
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED | MPI_MODE_NOSTORE, w->win));
    conf_expect_ints("fence with all four assertions", w->base, want, N);
    MPI_Barrier(MPI_COMM_WORLD);
}

static MPI_Group group_of(int r)
{
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &r, &g);
    MPI_Group_free(&world);
    return g;
}

/* Post and start assertions, in ring epochs. */
static void pscw_asserts(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N], got[4], want[N];
    MPI_Group from = group_of(left), to = group_of(right);
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    MPI_Barrier(MPI_COMM_WORLD);
    fill_bg_int(w->base, N, rank);
    fill_bg_int(want, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);

    /* 0 on both: stores were made since the last synchronization */
    OK(MPI_Win_post(from, 0, w->win));
    OK(MPI_Win_start(to, 0, w->win));
    OK(MPI_Put(src + 12, 2, MPI_INT, right, mt_disp(w, right, 12), 2, MPI_INT, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    want[12] = conf_val(left, 12);
    want[13] = conf_val(left, 13);
    conf_expect_ints("post(0), start(0)", w->base, want, N);

    /* NOCHECK on both sides: every post is done before any start (the
     * barrier); no stores since the last wait: NOSTORE.
     * Open MPI 4.1 alone: post(NOCHECK) and start(NOCHECK) after an
     * earlier post/start epoch of the window lose the data -- on one rank
     * MPI_Win_wait never returns, on three ranks of an allocate_shared
     * window the puts do not arrive.  Its runs give 0 on both sides. */
    int nocheck = conf_host_ok(CONF_NOT_OPEN_MPI) ? MPI_MODE_NOCHECK : 0;
    OK(MPI_Win_post(from, nocheck | MPI_MODE_NOSTORE, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_start(to, nocheck, w->win));
    OK(MPI_Put(src + 14, 2, MPI_INT, right, mt_disp(w, right, 14), 2, MPI_INT, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    want[14] = conf_val(left, 14);
    want[15] = conf_val(left, 15);
    conf_expect_ints("post(NOCHECK | NOSTORE), barrier, start(NOCHECK)", w->base, want, N);

    /* the origins only get: NOPUT */
    OK(MPI_Win_post(from, MPI_MODE_NOPUT | MPI_MODE_NOSTORE, w->win));
    OK(MPI_Win_start(to, 0, w->win));
    OK(MPI_Get(got, 4, MPI_INT, right, mt_disp(w, right, 12), 4, MPI_INT, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    for (int i = 0; i < 4; i++)
        expect("a get in an exposure epoch posted with NOPUT", i, got[i], conf_val(rank, 12 + i));
    conf_expect_ints("post(NOPUT | NOSTORE)", w->base, want, N);

    /* all three on post, NOCHECK on start */
    OK(MPI_Win_post(from, nocheck | MPI_MODE_NOSTORE | MPI_MODE_NOPUT, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_start(to, nocheck, w->win));
    OK(MPI_Get(got, 2, MPI_INT, right, mt_disp(w, right, 14), 2, MPI_INT, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    for (int i = 0; i < 2; i++)
        expect("a get in an epoch posted with all three assertions", i, got[i], conf_val(rank, 14 + i));
    conf_expect_ints("post(NOCHECK | NOSTORE | NOPUT)", w->base, want, N);
    MPI_Group_free(&from);
    MPI_Group_free(&to);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_MODE_NOCHECK on lock and lock_all; 0 on both. */
static void lock_asserts(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    fill_bg_int(w->base, N, rank);
    OK(MPI_Win_unlock(rank, w->win));
    fill_bg_int(want, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);

    /* MPICH 4.0 alone: after an epoch of MPI_Win_lock(MPI_MODE_NOCHECK),
     * later lock epochs of the same target hang (see conf_lock.c).  Its
     * runs lock with 0 there; lock_all takes NOCHECK in every run. */
    int nocheck = conf_host_ok(CONF_NOT_MPICH) ? MPI_MODE_NOCHECK : 0;

    /* in this phase only the left neighbour locks a rank */
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, nocheck, w->win));
    OK(MPI_Put(src + 16, 2, MPI_INT, right, mt_disp(w, right, 16), 2, MPI_INT, w->win));
    OK(MPI_Win_unlock(right, w->win));
    want[16] = conf_val(left, 16);
    want[17] = conf_val(left, 17);
    conf_expect_window("exclusive lock with MPI_MODE_NOCHECK", w, want, N);

    /* shared locks only, of every rank, by every rank: none conflicts */
    for (int t = 0; t < size; t++) {
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, nocheck, w->win));
        OK(MPI_Put(src + 20 + rank, 1, MPI_INT, t, mt_disp(w, t, 20 + rank), 1, MPI_INT, w->win));
        OK(MPI_Win_unlock(t, w->win));
    }
    for (int r = 0; r < size; r++)
        want[20 + r] = conf_val(r, 20 + r);
    conf_expect_window("shared locks with MPI_MODE_NOCHECK", w, want, N);

    OK(MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
    for (int t = 0; t < size; t++)
        OK(MPI_Put(src + 24 + rank, 1, MPI_INT, t, mt_disp(w, t, 24 + rank), 1, MPI_INT, w->win));
    OK(MPI_Win_unlock_all(w->win));
    for (int r = 0; r < size; r++)
        want[24 + r] = conf_val(r, 24 + r);
    conf_expect_window("lock_all with MPI_MODE_NOCHECK", w, want, N);

    OK(MPI_Win_lock_all(0, w->win));
    OK(MPI_Put(src + 28, 1, MPI_INT, right, mt_disp(w, right, 28), 1, MPI_INT, w->win));
    OK(MPI_Win_unlock_all(w->win));
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Put(src + 29, 1, MPI_INT, right, mt_disp(w, right, 29), 1, MPI_INT, w->win));
    OK(MPI_Win_unlock(right, w->win));
    want[28] = conf_val(left, 28);
    want[29] = conf_val(left, 29);
    conf_expect_window("lock_all(0) and lock(0)", w, want, N);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    fence_asserts(w);
    pscw_asserts(w);
    lock_asserts(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_assert");
}
