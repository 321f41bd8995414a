/* conf_flush.c -- MPI-4.1 section 12.5.4 (Flush and Sync), on every
 * window flavour, inside passive target epochs that stay open:
 *  - MPI_Win_flush(rank) completes the calls to that target at origin and
 *    target: after it (and a barrier), another origin's get reads the data;
 *    a get issued after a flushed put of the same place reads the put's
 *    data; a flushed get's result is in place;
 *  - MPI_Win_flush_all does the same for every target;
 *  - MPI_Win_flush_local(rank) and MPI_Win_flush_local_all complete the
 *    calls at the origin only: a put's origin buffer may then be reused
 *    (the target still gets the old data), a get's result is in place;
 *  - in a lock epoch of one target (MPI_Win_lock, shared or exclusive),
 *    of several targets at once (flushed one by one), and of all
 *    (MPI_Win_lock_all);
 *  - MPI_Win_sync in a lock_all epoch: a local store, MPI_Win_sync and a
 *    barrier, then others' gets see it; others' flushed puts, a barrier and
 *    MPI_Win_sync, then local loads see them;
 *  - a flush of any kind with nothing issued succeeds and changes nothing;
 *  - a flushed MPI_Fetch_and_op's result is in place, and results from all
 *    ranks are distinct (each increment saw the previous ones). */
#include "conf.h"

#define N 32 /* ints per rank */


/* Inside an epoch that can reach every rank: get n ints at index at of
 * target t, flush, and expect conf_val(writer, at + i). */
static void expect_remote(const char *what, struct mt_win *w, int t, int at, int n, int writer)
{
    int got[N];
    for (int i = 0; i < n; i++)
        got[i] = -7;
    OK(MPI_Get(got, n, MPI_INT, t, mt_disp(w, t, at), n, MPI_INT, w->win));
    OK(MPI_Win_flush(t, w->win));
    for (int i = 0; i < n; i++)
        expect(what, at + i, got[i], conf_val(writer, at + i));
}

/* MPI_Win_flush and MPI_Win_flush_all in a lock_all epoch: the data are
 * at the target for another origin to read, before any unlock. */
static void flush_complete(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    OK(MPI_Win_lock_all(0, w->win));
    OK(MPI_Put(src, 4, MPI_INT, right, mt_disp(w, right, 0), 4, MPI_INT, w->win));
    OK(MPI_Win_flush(right, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    /* the left neighbour's data came from its own left neighbour */
    expect_remote("after MPI_Win_flush, another origin's get", w, left, 0, 4, (left + size - 1) % size);

    for (int t = 0; t < size; t++)
        OK(MPI_Put(src + 4 + rank, 1, MPI_INT, t, mt_disp(w, t, 4 + rank), 1, MPI_INT, w->win));
    OK(MPI_Win_flush_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    int *got = guarded_alloc((size_t)size * size * sizeof(int));
    for (int t = 0; t < size; t++)
        OK(MPI_Get(got + t * size, size, MPI_INT, t, mt_disp(w, t, 4), size, MPI_INT, w->win));
    OK(MPI_Win_flush_all(w->win));
    for (int t = 0; t < size; t++)
        for (int r = 0; r < size; r++)
            expect("after MPI_Win_flush_all, gets of every rank", (long)t * size + r, got[t * size + r],
                   conf_val(r, 4 + r));
    guarded_check(got, (size_t)size * size * sizeof(int), "gets after MPI_Win_flush_all");
    guarded_free(got);

    /* a put, flushed, then a get of the same place: the put's data */
    for (int k = 0; k < 3; k++) {
        int v = conf_val(rank, 12) + 10000 * k, back = -7;
        OK(MPI_Put(&v, 1, MPI_INT, right, mt_disp(w, right, 12), 1, MPI_INT, w->win));
        OK(MPI_Win_flush(right, w->win));
        OK(MPI_Get(&back, 1, MPI_INT, right, mt_disp(w, right, 12), 1, MPI_INT, w->win));
        OK(MPI_Win_flush(right, w->win));
        expect("a get after a flushed put of the same place", k, back, v);
    }
    OK(MPI_Win_unlock_all(w->win));
    int want[N];
    fill_bg_int(want, N, rank);
    for (int i = 0; i < 4; i++)
        want[i] = conf_val(left, i);
    for (int r = 0; r < size; r++)
        want[4 + r] = conf_val(r, 4 + r);
    want[12] = conf_val(left, 12) + 20000;
    conf_expect_window("after the flushed epoch", w, want, N);
}

/* MPI_Win_flush_local and MPI_Win_flush_local_all: origin buffers free,
 * get results in place; the target gets what the buffer held at the
 * call. */
static void flush_local(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N], got[4];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    OK(MPI_Win_lock_all(0, w->win));
    OK(MPI_Put(src + 16, 4, MPI_INT, right, mt_disp(w, right, 16), 4, MPI_INT, w->win));
    OK(MPI_Get(got, 4, MPI_INT, right, mt_disp(w, right, 24), 4, MPI_INT, w->win));
    OK(MPI_Win_flush_local(right, w->win));
    for (int i = 0; i < 4; i++) {
        expect("a get's result after MPI_Win_flush_local", i, got[i], bg(right, 24 + i));
        src[16 + i] = -1; /* the put's buffer is free */
    }

    int *all = guarded_alloc((size_t)size * sizeof(int));
    for (int t = 0; t < size; t++) {
        OK(MPI_Put(src + 20 + rank, 1, MPI_INT, t, mt_disp(w, t, 20 + rank), 1, MPI_INT, w->win));
        OK(MPI_Get(all + t, 1, MPI_INT, t, mt_disp(w, t, 28), 1, MPI_INT, w->win));
    }
    OK(MPI_Win_flush_local_all(w->win));
    for (int t = 0; t < size; t++)
        expect("a get's result after MPI_Win_flush_local_all", t, all[t], bg(t, 28));
    guarded_check(all, (size_t)size * sizeof(int), "gets flushed by MPI_Win_flush_local_all");
    guarded_free(all);
    src[20 + rank] = -1;
    OK(MPI_Win_unlock_all(w->win));

    int want[N];
    fill_bg_int(want, N, rank);
    for (int i = 16; i < 20; i++)
        want[i] = conf_val(left, i);
    for (int r = 0; r < size; r++)
        want[20 + r] = conf_val(r, 20 + r);
    conf_expect_window("puts whose buffers were reused after a local flush", w, want, N);
}

/* Flush in an epoch of one target (shared, then exclusive), and in lock
 * epochs of several targets held at once, flushed one by one. */
static void flush_lock_epochs(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    for (int type = 0; type < 2; type++) {
        int lt = type ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, at = type ? 8 : 0, back[3];
        OK(MPI_Win_lock(lt, right, 0, w->win));
        OK(MPI_Put(src + at, 3, MPI_INT, right, mt_disp(w, right, at), 3, MPI_INT, w->win));
        OK(MPI_Win_flush(right, w->win));
        OK(MPI_Get(back, 3, MPI_INT, right, mt_disp(w, right, at), 3, MPI_INT, w->win));
        OK(MPI_Win_flush(right, w->win));
        for (int i = 0; i < 3; i++)
            expect(type ? "flush in an exclusive lock epoch" : "flush in a shared lock epoch", i, back[i],
                   conf_val(rank, at + i));
        OK(MPI_Win_unlock(right, w->win));
    }

    /* shared locks of every rank, one put each, flushes backwards; a
     * barrier, and the puts are seen by a get of another origin, still
     * inside the epochs.  The barrier first: a rank holding these locks
     * through the next barrier must not keep out a late exclusive lock. */
    MPI_Barrier(MPI_COMM_WORLD);
    for (int t = 0; t < size; t++)
        OK(MPI_Win_lock(MPI_LOCK_SHARED, t, 0, w->win));
    for (int t = 0; t < size; t++)
        OK(MPI_Put(src + 12 + rank, 1, MPI_INT, t, mt_disp(w, t, 12 + rank), 1, MPI_INT, w->win));
    for (int t = size - 1; t >= 0; t--)
        OK(MPI_Win_flush(t, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        expect_remote("flushed in lock epochs of several targets", w, right, 12 + r, 1, r);
    for (int t = 0; t < size; t++)
        OK(MPI_Win_unlock(t, w->win));

    int want[N];
    fill_bg_int(want, N, rank);
    for (int i = 0; i < 3; i++) {
        want[i] = conf_val(left, i);
        want[8 + i] = conf_val(left, 8 + i);
    }
    for (int r = 0; r < size; r++)
        want[12 + r] = conf_val(r, 12 + r);
    conf_expect_window("after flushes in lock epochs", w, want, N);
}

/* MPI_Win_sync in a lock_all epoch, both ways between local memory and
 * RMA. */
static void win_sync(struct mt_win *w)
{
    int right = conf_right(), left = conf_left(), src[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    conf_reset(w, N);
    int *p = w->base;
    OK(MPI_Win_lock_all(0, w->win));
    /* local stores, made public by MPI_Win_sync, read by a neighbour */
    for (int i = 20; i < 24; i++)
        p[i] = conf_val(rank, i);
    OK(MPI_Win_sync(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    expect_remote("a get of local stores followed by MPI_Win_sync", w, right, 20, 4, right);
    MPI_Barrier(MPI_COMM_WORLD);

    /* a neighbour's flushed put, seen by local loads after MPI_Win_sync */
    OK(MPI_Put(src + 24, 4, MPI_INT, right, mt_disp(w, right, 24), 4, MPI_INT, w->win));
    OK(MPI_Win_flush(right, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_sync(w->win));
    for (int i = 24; i < 28; i++)
        expect("local loads after MPI_Win_sync of a flushed put", i, p[i], conf_val(left, i));
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Flushes of every kind with nothing issued; then MPI_Fetch_and_op,
 * flushed, from every rank to one counter. */
static void flush_nothing_and_fetch(struct mt_win *w)
{
    int right = conf_right(), want[N];
    conf_reset(w, N);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, w->win));
    OK(MPI_Win_flush(right, w->win));
    OK(MPI_Win_flush_local(right, w->win));
    OK(MPI_Win_flush_all(w->win));
    OK(MPI_Win_flush_local_all(w->win));
    OK(MPI_Win_unlock(right, w->win));
    OK(MPI_Win_lock_all(0, w->win));
    for (int t = 0; t < size; t++) {
        OK(MPI_Win_flush(t, w->win));
        OK(MPI_Win_flush_local(t, w->win));
    }
    OK(MPI_Win_flush_all(w->win));
    OK(MPI_Win_flush_local_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);

    int one = 1, old = -7;
    OK(MPI_Fetch_and_op(&one, &old, MPI_INT, 0, mt_disp(w, 0, 31), MPI_SUM, w->win));
    OK(MPI_Win_flush(0, w->win));
    OK(MPI_Win_unlock_all(w->win));
    int *olds = malloc((size_t)size * sizeof(int));
    MPI_Allgather(&old, 1, MPI_INT, olds, 1, MPI_INT, MPI_COMM_WORLD);
    /* each rank saw the counter after 0 .. size - 1 increments, once */
    for (int k = 0; k < size; k++) {
        int seen = 0;
        for (int r = 0; r < size; r++)
            seen += olds[r] == bg(0, 31) + k;
        expect("ranks whose flushed MPI_Fetch_and_op saw this many increments", k, seen, 1);
    }
    free(olds);
    fill_bg_int(want, N, rank);
    if (rank == 0)
        want[31] += size;
    conf_expect_window("after flushes of nothing and a counter", w, want, N);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    flush_complete(w);
    flush_local(w);
    flush_lock_epochs(w);
    win_sync(w);
    flush_nothing_and_fetch(w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_flush");
}
