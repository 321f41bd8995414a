/* conf_win_free.c -- MPI-4.1 section 12.2.5 (Window Destruction),
 * MPI_Win_free:
 *  - it sets the handle to MPI_WIN_NULL, for every flavour;
 *  - it completes the RMA of the epochs before it: after it returns, the
 *    memory of a create or dynamic window (the user's again) holds what
 *    fence, PSCW and lock epochs wrote into it;
 *  - it is collective, and no process returns from it before every
 *    process has called it (the window has no no_locks): a peer that
 *    begins a lock epoch late, after its target entered MPI_Win_free,
 *    still reaches the target's memory, for every flavour;
 *  - memory still attached to a dynamic window becomes detached when the
 *    window is freed (no MPI_Win_detach needed);
 *  - a fence that closed the last epoch leaves no epoch open, with or
 *    without MPI_MODE_NOSUCCEED;
 *  - many windows, of every flavour, freed in the reverse order of their
 *    creation: each one's memory intact until it is freed, the others
 *    still usable; a window over a sub-communicator freed among windows
 *    over MPI_COMM_WORLD;
 *  - freeing a window while an epoch is open (lock, lock_all, PSCW, a
 *    fence epoch with an operation in it) is erroneous: MPI_ERR_RMA_SYNC,
 *    with MPI_ERRORS_RETURN on the window (see freed_in_epoch()). */
#include "conf.h"

#include <time.h>

#define N 16 /* ints per rank */

static void pause_ms(int ms)
{
    struct timespec t = {0, ms * 1000000L};
    nanosleep(&t, NULL);
}

/* MPI_Win_free of a window opened by mt_win_open, leaving its memory to
 * the caller (dynamic: still attached) and checking the handle. */
static void free_keeping_memory(struct mt_win *w)
{
    OK(MPI_Win_free(&w->win));
    if (w->win != MPI_WIN_NULL)
        fail("MPI_Win_free left the handle of a %s window", mt_flavor_name[w->flavor]);
}

/* The memory of a create or dynamic window after its free: 4 ints of the
 * left neighbour's at `at`, the background elsewhere; then it is freed. */
static void expect_after_free(const char *what, struct mt_win *w, int at)
{
    if (w->flavor == MT_CREATE || w->flavor == MT_DYNAMIC) {
        const int *p = w->base;
        conf_expect_bg(what, p, at, rank, 0);
        conf_expect_vals(what, p + at, 4, conf_left(), at);
        conf_expect_bg(what, p + at + 4, N - at - 4, rank, at + 4);
        free(w->base);
    }
    free(w->addr);
    w->base = NULL;
    w->addr = NULL;
}

static void open_bg(struct mt_win *w, enum mt_flavor f)
{
    mt_win_open(w, f, N * sizeof(int), sizeof(int));
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
    fill_bg_int(w->base, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Epochs closed just before the free: fence (with and without
 * MPI_MODE_NOSUCCEED) and PSCW (lock epochs: late()). */
static void completes(enum mt_flavor f)
{
    int src[N], right = conf_right(), left = conf_left();
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    struct mt_win w;

    open_bg(&w, f);
    OK(MPI_Win_fence(MPI_MODE_NOPRECEDE, w.win));
    OK(MPI_Put(src + 3, 4, MPI_INT, right, mt_disp(&w, right, 3), 4, MPI_INT, w.win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
    free_keeping_memory(&w);
    expect_after_free("free after a fence epoch (MPI_MODE_NOSUCCEED)", &w, 3);

    if (f == MT_CREATE || !conf_flavor_here(MT_CREATE)) {
        open_bg(&w, f);
        OK(MPI_Win_fence(0, w.win));
        OK(MPI_Put(src + 5, 4, MPI_INT, right, mt_disp(&w, right, 5), 4, MPI_INT, w.win));
        OK(MPI_Win_fence(0, w.win));
        free_keeping_memory(&w); /* the last fence opened no epoch */
        expect_after_free("free after a fence epoch (fence 0)", &w, 5);
    }

    open_bg(&w, f);
    MPI_Group world, to, from;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &right, &to);
    MPI_Group_incl(world, 1, &left, &from);
    OK(MPI_Win_post(from, 0, w.win));
    OK(MPI_Win_start(to, 0, w.win));
    OK(MPI_Put(src + 7, 4, MPI_INT, right, mt_disp(&w, right, 7), 4, MPI_INT, w.win));
    OK(MPI_Win_complete(w.win));
    OK(MPI_Win_wait(w.win));
    free_keeping_memory(&w);
    expect_after_free("free after a PSCW epoch", &w, 7);
    MPI_Group_free(&to);
    MPI_Group_free(&from);
    MPI_Group_free(&world);
}

/* 12 windows of every flavour this run has; each rank puts into its right
 * neighbour's; freed from the last made to the first, each checked (its
 * own memory) before its free, and one of those left read by get. */
enum { NWIN = 12 };

static void reverse(void)
{
    struct mt_win w[NWIN];
    enum mt_flavor fl[MT_FLAVORS];
    int nf = 0;
    for (int f = 0; f < MT_FLAVORS; f++)
        if (conf_flavor_here((enum mt_flavor)f))
            fl[nf++] = (enum mt_flavor)f;
    int right = conf_right(), left = conf_left();
    int src[NWIN][4];
    for (int k = 0; k < NWIN; k++) {
        open_bg(&w[k], fl[k % nf]);
        for (int i = 0; i < 4; i++)
            src[k][i] = 1000000 * (rank + 1) + 1000 * k + i;
    }
    for (int k = 0; k < NWIN; k++) {
        OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w[k].win));
        OK(MPI_Put(src[k], 4, MPI_INT, right, mt_disp(&w[k], right, k % (N - 4)), 4, MPI_INT, w[k].win));
        OK(MPI_Win_unlock(right, w[k].win));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = NWIN - 1; k >= 0; k--) {
        int at = k % (N - 4);
        OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w[k].win));
        const int *p = w[k].base;
        for (int i = 0; i < N; i++)
            expect("a window's memory while later windows are freed", k * 100 + i, p[i],
                   i >= at && i < at + 4 ? 1000000 * (left + 1) + 1000 * k + i - at : bg(rank, i));
        OK(MPI_Win_unlock(rank, w[k].win));
        if (k == NWIN / 2) {
            /* halfway: the rest still works as RMA windows */
            int got[4];
            OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w[k].win));
            OK(MPI_Get(got, 4, MPI_INT, right, mt_disp(&w[k], right, at), 4, MPI_INT, w[k].win));
            OK(MPI_Win_unlock(right, w[k].win));
            for (int i = 0; i < 4; i++)
                expect("get from a window made before others that were freed", i, got[i], src[k][i]);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        mt_win_close(&w[k]);
    }
}

/* A window over a split of MPI_COMM_WORLD freed between two over the
 * world, which stay usable.  The halves make their windows in turn: Open
 * MPI 4.1.4 alone cannot make windows over the two disjoint halves at
 * once (osc/rdma names its shared-memory file after the communicator's
 * context id, which the halves share; conf_win_create tests that). */
static void among_others(void)
{
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    int *a, *c, *s;
    MPI_Win wa, ws = MPI_WIN_NULL, wc;
    OK(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &a, &wa));
    for (int turn = 0; turn < 2; turn++) {
        if (rank % 2 == turn)
            OK(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, half, &s, &ws));
        MPI_Barrier(MPI_COMM_WORLD);
    }
    OK(MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &c, &wc));
    fill_bg_int(a, N, rank);
    fill_bg_int(c, N, rank);
    OK(MPI_Win_free(&ws));
    if (ws != MPI_WIN_NULL)
        fail("MPI_Win_free left the handle of a window over a split communicator");
    int right = conf_right(), got[N];
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wa));
    OK(MPI_Get(got, N, MPI_INT, right, 0, N, MPI_INT, wa));
    OK(MPI_Win_unlock(right, wa));
    conf_expect_bg("a window made before one freed over a split", got, N, right, 0);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, wc));
    OK(MPI_Get(got, N, MPI_INT, right, 0, N, MPI_INT, wc));
    OK(MPI_Win_unlock(right, wc));
    conf_expect_bg("a window made after one freed over a split", got, N, right, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_free(&wc));
    OK(MPI_Win_free(&wa));
    MPI_Comm_free(&half);
}

/* MPI_Win_free in an open epoch is erroneous.  MPICH 4.0 detects it for
 * every kind of epoch (MPI_ERR_RMA_SYNC, the window left as it was);
 * Open MPI 4.1.4 detects none and frees the window, so its own runs make
 * no such call.  After the error the epoch is closed and the window
 * freed properly. */
static void freed_in_epoch(enum mt_flavor f, int epoch)
{
    int right = conf_right(), v = conf_val(rank, 0);
    struct mt_win w;
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    open_bg(&w, f);
    switch (epoch) {
    case 0:
        OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w.win));
        break;
    case 1:
        OK(MPI_Win_lock_all(0, w.win));
        break;
    case 2:
        OK(MPI_Win_post(world, 0, w.win));
        OK(MPI_Win_start(world, 0, w.win));
        break;
    default:
        OK(MPI_Win_fence(0, w.win));
        OK(MPI_Put(&v, 1, MPI_INT, right, mt_disp(&w, right, 0), 1, MPI_INT, w.win));
        break;
    }
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_free(&w.win));
    if (w.win == MPI_WIN_NULL) /* the program cannot go on */
        fail("a failed MPI_Win_free (epoch %d, %s window) set the handle to MPI_WIN_NULL", epoch,
             mt_flavor_name[f]);
    switch (epoch) {
    case 0:
        OK(MPI_Win_unlock(right, w.win));
        break;
    case 1:
        OK(MPI_Win_unlock_all(w.win));
        break;
    case 2:
        OK(MPI_Win_complete(w.win));
        OK(MPI_Win_wait(w.win));
        break;
    default:
        OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, w.win));
        break;
    }
    mt_win_close(&w);
    MPI_Group_free(&world);
}

/* Lock epochs begun late: the even ranks wait 100 ms first, so that
 * their (odd) targets are already in MPI_Win_free, which must wait for
 * them -- the target's memory is still there to be read and written.
 * (Last in the program: an implementation that does not wait hangs.) */
static void late(enum mt_flavor f)
{
    int src[N], right = conf_right();
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    struct mt_win w;
    open_bg(&w, f);
    if (rank % 2 == 0)
        pause_ms(100);
    int got[N];
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w.win));
    OK(MPI_Put(src + 9, 4, MPI_INT, right, mt_disp(&w, right, 9), 4, MPI_INT, w.win));
    OK(MPI_Get(got, 9, MPI_INT, right, mt_disp(&w, right, 0), 9, MPI_INT, w.win));
    OK(MPI_Win_unlock(right, w.win));
    free_keeping_memory(&w);
    conf_expect_bg("a get in a lock epoch begun while the target was freeing the window", got, 9, right, 0);
    expect_after_free("free after a lock epoch begun late", &w, 9);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int f = 0; f < MT_FLAVORS; f++)
        if (conf_flavor_here((enum mt_flavor)f))
            completes((enum mt_flavor)f);
    reverse();
    among_others();
    /* each kind of epoch on two flavours (on one rank with Open MPI alone,
     * all on the two it has) */
    for (int f = 0, j = 0; f < MT_FLAVORS; f++)
        if (conf_flavor_here((enum mt_flavor)f)) {
            freed_in_epoch((enum mt_flavor)f, j % 4);
            freed_in_epoch((enum mt_flavor)f, (j + 2) % 4);
            if (!conf_flavor_here(MT_CREATE)) {
                freed_in_epoch((enum mt_flavor)f, (j + 1) % 4);
                freed_in_epoch((enum mt_flavor)f, (j + 3) % 4);
            }
            j++;
        }
    for (int f = 0; f < MT_FLAVORS; f++)
        if (conf_flavor_here((enum mt_flavor)f))
            late((enum mt_flavor)f);
    return conf_done("conf_win_free");
}
