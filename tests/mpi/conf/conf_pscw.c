/* conf_pscw.c -- MPI-4.1 section 12.5.2 (General Active Target
 * Synchronization), on every window flavour:
 *  - MPI_Win_post/MPI_Win_wait open and close an exposure epoch to the
 *    origins of a group, MPI_Win_start/MPI_Win_complete an access epoch to
 *    the targets of a group; the RMA calls of the access epoch are complete
 *    at the origin when MPI_Win_complete returns (get results in place,
 *    origin buffers free) and at the target when MPI_Win_wait returns (its
 *    local loads see the data);
 *  - groups of every shape: ring neighbours, all the other ranks, a subset
 *    of ranks (the others make no call at all), several origins to one
 *    target, empty groups (the calls return and nothing moves);
 *  - a rank in an exposure and an access epoch at once, its own target
 *    among others;
 *  - MPI_Win_test, called until it returns true, ends the exposure epoch
 *    like MPI_Win_wait: the data are there;
 *  - an origin may call MPI_Win_start before its target calls
 *    MPI_Win_post: the start or the first RMA call may wait, and the data
 *    must arrive;
 *  - groups are groups of processes: built from a sub-communicator (whose
 *    ranks differ from the window's), they name the same processes, and a
 *    rank in them is translated to the window's group for the RMA calls;
 *  - epochs repeated on the same window with new data each time. */
#include "conf.h"

#include <unistd.h>

#define N 32 /* ints per rank */

/* The background again, by local stores outside any exposure epoch (the
 * next post makes them public), once every rank is done reading. */
static void reset(struct mt_win *w)
{
    MPI_Barrier(MPI_COMM_WORLD);
    fill_bg_int(w->base, N, rank);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The group of the ranks listed (MPI_COMM_WORLD's, the window's group),
 * each once. */
static MPI_Group group_of(const int *ranks, int n)
{
    int uniq[8], m = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < m; j++)
            seen |= uniq[j] == ranks[i];
        if (!seen)
            uniq[m++] = ranks[i];
    }
    MPI_Group world, g;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, m, uniq, &g);
    MPI_Group_free(&world);
    return g;
}

/* Value of rank r at index i in round k. */
static int round_val(int r, int k, long i) { return conf_val(r, i) + 10000 * (k + 1); }

/* Ring epochs, repeated: every rank exposes its window to its left
 * neighbour and itself, and accesses its right neighbour and itself --
 * in both epochs at once.  Each round puts new values. */
static void ring(struct mt_win *w)
{
    int right = conf_right(), left = conf_left();
    int in[2] = {left, rank}, out[2] = {right, rank};
    MPI_Group expose = group_of(in, 2), access = group_of(out, 2);
    int src[N], want[N];
    int *g = guarded_alloc(4 * sizeof(int));
    reset(w);
    fill_bg_int(want, N, rank);
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < N; i++)
            src[i] = round_val(rank, k, i);
        for (int i = 0; i < 4; i++)
            g[i] = -7;
        OK(MPI_Win_post(expose, 0, w->win));
        OK(MPI_Win_start(access, 0, w->win));
        OK(MPI_Put(src, 4, MPI_INT, right, mt_disp(w, right, 0), 4, MPI_INT, w->win));
        OK(MPI_Put(src + 8, 2, MPI_INT, rank, mt_disp(w, rank, 8), 2, MPI_INT, w->win));
        /* index 16 + k: the neighbour's background, untouched in the epoch */
        OK(MPI_Get(g, 4, MPI_INT, right, mt_disp(w, right, 16 + k), 4, MPI_INT, w->win));
        OK(MPI_Win_complete(w->win));
        /* complete at the origin: the get's data are in, src is free */
        for (int i = 0; i < 4; i++)
            expect("ring: get done when MPI_Win_complete returns", i, g[i], bg(right, 16 + k + i));
        guarded_check(g, 4 * sizeof(int), "ring: get done when MPI_Win_complete returns");
        for (int i = 0; i < N; i++)
            src[i] = -1;
        OK(MPI_Win_wait(w->win));
        for (int i = 0; i < 4; i++)
            want[i] = round_val(left, k, i);
        want[8] = round_val(rank, k, 8);
        want[9] = round_val(rank, k, 9);
        conf_expect_ints("ring: target memory when MPI_Win_wait returns", w->base, want, N);
    }
    guarded_free(g);
    MPI_Group_free(&expose);
    MPI_Group_free(&access);
}

/* Every rank exposes to all the others and accesses all the others: a
 * put into the slot named by the origin's rank, and an accumulate from
 * each to one place.  On one rank both groups are empty. */
static void all_others(struct mt_win *w)
{
    int others[8], n = 0;
    for (int r = 0; r < size; r++)
        if (r != rank)
            others[n++] = r;
    MPI_Group g = group_of(others, n);
    int src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    OK(MPI_Win_post(g, 0, w->win));
    OK(MPI_Win_start(g, 0, w->win));
    for (int j = 0; j < n; j++) {
        int t = others[j];
        OK(MPI_Put(src + 4 * rank, 4, MPI_INT, t, mt_disp(w, t, 4 * rank), 4, MPI_INT, w->win));
        OK(MPI_Accumulate(src + 30, 1, MPI_INT, t, mt_disp(w, t, 30), 1, MPI_INT, MPI_SUM, w->win));
    }
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    fill_bg_int(want, N, rank);
    for (int j = 0; j < n; j++) {
        for (int i = 4 * others[j]; i < 4 * others[j] + 4; i++)
            want[i] = conf_val(others[j], i);
        want[30] += conf_val(others[j], 30);
    }
    conf_expect_ints("all the others: target memory when MPI_Win_wait returns", w->base, want, N);
    MPI_Group_free(&g);
}

/* Only some ranks take part: rank 1 exposes its window to the even ranks,
 * which access it; the other odd ranks make no RMA call at all. */
static void subset(struct mt_win *w)
{
    int evens[4], n = 0;
    for (int r = 0; r < size; r += 2)
        evens[n++] = r;
    int src[N], got[3], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    fill_bg_int(want, N, rank);
    if (size > 1 && rank == 1) {
        MPI_Group g = group_of(evens, n);
        OK(MPI_Win_post(g, 0, w->win));
        OK(MPI_Win_wait(w->win));
        for (int j = 0; j < n; j++)
            for (int i = 2 * evens[j]; i < 2 * evens[j] + 2; i++)
                want[i] = conf_val(evens[j], i);
        MPI_Group_free(&g);
    } else if (size > 1 && rank % 2 == 0) {
        int one = 1;
        MPI_Group g = group_of(&one, 1);
        OK(MPI_Win_start(g, 0, w->win));
        OK(MPI_Put(src + 2 * rank, 2, MPI_INT, 1, mt_disp(w, 1, 2 * rank), 2, MPI_INT, w->win));
        OK(MPI_Get(got, 3, MPI_INT, 1, mt_disp(w, 1, 20), 3, MPI_INT, w->win));
        OK(MPI_Win_complete(w->win));
        for (int i = 0; i < 3; i++)
            expect("a subset: get from the one target", i, got[i], bg(1, 20 + i));
        MPI_Group_free(&g);
    }
    conf_expect_ints("a subset of ranks in the epochs", w->base, want, N);
}

/* Empty groups: an exposure epoch to nobody and an access epoch to
 * nobody, closed by MPI_Win_wait, or by MPI_Win_test returning true. */
static void empty_groups(struct mt_win *w)
{
    MPI_Group none = group_of(NULL, 0);
    int want[N];
    reset(w);
    fill_bg_int(want, N, rank);
    OK(MPI_Win_post(none, 0, w->win));
    OK(MPI_Win_start(none, 0, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    OK(MPI_Win_start(none, 0, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_post(none, 0, w->win));
    int flag = 0;
    for (long i = 0; !flag; i++) {
        OK(MPI_Win_test(w->win, &flag));
        if (i > 100000000L)
            fail("MPI_Win_test of an exposure epoch to nobody never returns true");
    }
    conf_expect_ints("epochs of empty groups", w->base, want, N);
    MPI_Group_free(&none);
}

/* The pairs of the next tests: an even rank accesses the odd rank after
 * it; a last even rank without a partner sits out.  On one rank, the rank
 * is its own pair (only where that cannot block). */
static int partner(void)
{
    if (rank % 2 == 0)
        return rank + 1 < size ? rank + 1 : -1;
    return rank - 1;
}

/* The target polls MPI_Win_test until it is true, while its origin is
 * late to start; then the data are in. */
static void test_polling(struct mt_win *w)
{
    int p = partner(), src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    fill_bg_int(want, N, rank);
    if (size == 1) {
        MPI_Group self = group_of(&rank, 1);
        OK(MPI_Win_post(self, 0, w->win));
        OK(MPI_Win_start(self, 0, w->win));
        OK(MPI_Put(src, 5, MPI_INT, 0, mt_disp(w, 0, 3), 5, MPI_INT, w->win));
        OK(MPI_Win_complete(w->win));
        for (int i = 3; i < 8; i++)
            want[i] = conf_val(0, i - 3);
        MPI_Group_free(&self);
    } else if (p >= 0) {
        MPI_Group g = group_of(&p, 1);
        if (rank % 2 == 0) {
            usleep(20000);
            OK(MPI_Win_start(g, 0, w->win));
            OK(MPI_Put(src, 5, MPI_INT, p, mt_disp(w, p, 3), 5, MPI_INT, w->win));
            OK(MPI_Win_complete(w->win));
        } else {
            OK(MPI_Win_post(g, 0, w->win));
            for (int i = 3; i < 8; i++)
                want[i] = conf_val(p, i - 3);
        }
        MPI_Group_free(&g);
    }
    if (size == 1 || (p >= 0 && rank % 2 == 1)) {
        int flag = 0;
        for (long i = 0; !flag; i++) {
            OK(MPI_Win_test(w->win, &flag));
            if (i > 100000000L)
                fail("MPI_Win_test never returns true");
        }
    }
    conf_expect_ints("after MPI_Win_test returned true", w->base, want, N);
}

/* The origin starts and puts before its target posts. */
static void start_before_post(struct mt_win *w)
{
    int p = partner(), src[N], want[N], got[2];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    fill_bg_int(want, N, rank);
    if (size > 1 && p >= 0) {
        MPI_Group g = group_of(&p, 1);
        if (rank % 2 == 0) {
            OK(MPI_Win_start(g, 0, w->win));
            OK(MPI_Put(src + 10, 6, MPI_INT, p, mt_disp(w, p, 10), 6, MPI_INT, w->win));
            OK(MPI_Get(got, 2, MPI_INT, p, mt_disp(w, p, 0), 2, MPI_INT, w->win));
            OK(MPI_Win_complete(w->win));
            for (int i = 0; i < 2; i++)
                expect("start before post: the get", i, got[i], bg(p, i));
        } else {
            usleep(100000); /* the origin's start comes first */
            OK(MPI_Win_post(g, 0, w->win));
            OK(MPI_Win_wait(w->win));
            for (int i = 10; i < 16; i++)
                want[i] = conf_val(p, i);
        }
        MPI_Group_free(&g);
    }
    conf_expect_ints("start before post: target memory", w->base, want, N);
}

/* Groups from a sub-communicator whose ranks run backwards: the even
 * and the odd ranks each make a ring of their own. */
static void sub_communicator(struct mt_win *w)
{
    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &sub);
    int srank, ssize;
    MPI_Comm_rank(sub, &srank);
    MPI_Comm_size(sub, &ssize);
    int snext = (srank + 1) % ssize, sprev = (srank + ssize - 1) % ssize;
    MPI_Group sgroup, wgroup, to, from;
    MPI_Comm_group(sub, &sgroup);
    MPI_Win_get_group(w->win, &wgroup);
    MPI_Group_incl(sgroup, 1, &snext, &to);
    MPI_Group_incl(sgroup, 1, &sprev, &from);
    int target, origin;
    MPI_Group_translate_ranks(sgroup, 1, &snext, wgroup, &target);
    MPI_Group_translate_ranks(sgroup, 1, &sprev, wgroup, &origin);
    /* reversed order: the next in the sub-communicator is two below in
     * the window's group, or, after the lowest, the highest of the same
     * parity */
    int highest = rank;
    while (highest + 2 < size)
        highest += 2;
    expect("window rank of the next in the sub-communicator", 0, target, rank >= 2 ? rank - 2 : highest);

    int src[N], want[N];
    for (int i = 0; i < N; i++)
        src[i] = conf_val(rank, i);
    reset(w);
    OK(MPI_Win_post(from, 0, w->win));
    OK(MPI_Win_start(to, 0, w->win));
    OK(MPI_Put(src + 24, 4, MPI_INT, target, mt_disp(w, target, 24), 4, MPI_INT, w->win));
    OK(MPI_Win_complete(w->win));
    OK(MPI_Win_wait(w->win));
    fill_bg_int(want, N, rank);
    for (int i = 24; i < 28; i++)
        want[i] = conf_val(origin, i);
    conf_expect_ints("groups of a sub-communicator", w->base, want, N);
    MPI_Group_free(&to);
    MPI_Group_free(&from);
    MPI_Group_free(&sgroup);
    MPI_Group_free(&wgroup);
    MPI_Comm_free(&sub);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    ring(w);
    all_others(w);
    subset(w);
    empty_groups(w);
    test_polling(w);
    start_before_post(w);
    sub_communicator(w);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_pscw");
}
