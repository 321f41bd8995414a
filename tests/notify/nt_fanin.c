/* nt_fanin.c -- counters raised by many origins at once, and the waits
 * on several counters.
 *  1. All to one: every rank (the root too) puts ROUNDS messages into its
 *     own slot at the root, each adding origin + 1 to one counter, adds
 *     into one cell with notified accumulates that count on a second, and
 *     sets a third (each origin's value sequence rising).  orma_notify_test
 *     says no before the origins start and yes once the root's waits have
 *     returned; the counters end exactly at their sums, the cell at its
 *     sum, the set counter at the last value of one of the origins.
 *  2. Every rank to all: each origin puts one message per round into a
 *     slot of its own at every target, raising a counter of its own there,
 *     and accumulates into a common cell, raising a common counter.  The
 *     target follows the origins with orma_notify_waitany over the
 *     per-origin counters, checking each message as soon as its counter
 *     says it is there, then orma_notify_waitall over all of them.
 *  3. orma_notify_waitany picks the lowest index among the counters that
 *     have reached their values (set locally to known values), and
 *     orma_notify_waitall over counters that all have returns at once.
 * Every origin flushes each operation before it issues the next, so the
 * rounds of one origin arrive in order over any transport.  Windows:
 * allocate, and create on malloc'd memory. */
#include "nt_test.h"

enum { ROUNDS = 100, LEN = 48, GAP = 16, GUARD = 64 };

static int rank, nranks;

/* Counters: one per origin, then these. */
static int c_all(void) { return nranks; }
static int c_sum(void) { return nranks + 1; }
static int c_acc(void) { return nranks + 2; }
static int c_set(void) { return nranks + 3; }
static size_t nctrs(void) { return (size_t)nranks + 4; }

/* The window: a slot per origin for part 1, one per (origin, round) for
 * part 2, two int64 cells, each followed by a gap that nobody writes. */
static size_t slot1(int o) { return GUARD + (size_t)o * (LEN + GAP); }
static size_t slot2(int o, int r) { return slot1(nranks) + ((size_t)o * ROUNDS + (size_t)r) * (LEN + GAP); }
static size_t cell1(void) { return slot2(nranks, 0); }
static size_t cell2(void) { return cell1() + 8 + GAP; }
static size_t win_size(void) { return cell2() + 8 + GUARD; }

static unsigned seed_of(int part, int o, int r, int t)
{
    return (unsigned)(part * 1000003 + o * 7919 + r * 131 + t * 17 + 1);
}

static void expect_i64(const unsigned char *mem, size_t at, int64_t want, const char *what)
{
    int64_t v;
    memcpy(&v, mem + at, sizeof v);
    if (v != want) {
        fprintf(stderr, "rank %d: %s is %lld, expected %lld\n", rank, what, (long long)v, (long long)want);
        exit(1);
    }
}

static void reset(struct st_win *w)
{
    int64_t zero = 0;
    rt_fill_bg(w->mem, w->size);
    memcpy(w->mem + cell1(), &zero, 8);
    memcpy(w->mem + cell2(), &zero, 8);
    CHECK_OK(orma_win_sync(w->win));
}

/* The bytes of this rank's window that no operation writes. */
static void expect_gaps(const struct st_win *w, const char *what)
{
    RT_EXPECT_BG(w->mem, 0, GUARD, what);
    for (int o = 0; o < nranks; o++) {
        RT_EXPECT_BG(w->mem, slot1(o) + LEN, slot1(o) + LEN + GAP, what);
        for (int r = 0; r < ROUNDS; r++)
            RT_EXPECT_BG(w->mem, slot2(o, r) + LEN, slot2(o, r) + LEN + GAP, what);
    }
    RT_EXPECT_BG(w->mem, cell1() + 8, cell2(), what);
    RT_EXPECT_BG(w->mem, cell2() + 8, w->size, what);
}

static void all_to_one(struct st_win *w, int root)
{
    unsigned char msg[LEN];
    int64_t one = 0;
    uint64_t sum = 0, total = 0;
    int flag = -1;

    nt_step("all to root %d on %s", root, st_kind_names[w->kind]);
    reset(w);
    for (int o = 0; o < nranks; o++)
        sum += (uint64_t)(o + 1);
    if (rank == root) {
        CHECK_OK(orma_notify_test(w->win, c_sum(), 1, &flag));
        CHECK(flag == 0);
        CHECK_OK(orma_notify_test(w->win, c_acc(), 0, &flag));
        CHECK(flag == 1); /* 0 has been reached by any counter */
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    for (int r = 0; r < ROUNDS; r++) {
        orma_aint at = st_disp(w, root, slot1(rank));
        rt_fill_data(msg, LEN, seed_of(1, rank, r, root), slot1(rank));
        CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, root, at, LEN, ORMA_BYTE, w->win, c_sum(), ORMA_NOTIFY_ADD,
                                 (uint64_t)rank + 1));
        CHECK_OK(orma_win_flush(root, w->win));
        one = (int64_t)(rank + 1) * (r + 1);
        CHECK_OK(orma_accumulate_notify(&one, 1, ORMA_INT64, root, st_disp(w, root, cell1()), 1, ORMA_INT64,
                                        ORMA_SUM, w->win, c_acc(), ORMA_NOTIFY_ADD, 1));
        CHECK_OK(orma_win_flush(root, w->win));
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, root, 0, 0, ORMA_BYTE, w->win, c_set(), ORMA_NOTIFY_SET,
                                 (uint64_t)(rank + 1) * 1000 + (uint64_t)r));
        CHECK_OK(orma_win_flush(root, w->win));
    }
    if (rank == root) {
        total = sum * ROUNDS;
        CHECK_OK(orma_notify_wait(w->win, c_sum(), total));
        for (int o = 0; o < nranks; o++)
            RT_EXPECT_DATA(w->mem, slot1(o), LEN, seed_of(1, o, ROUNDS - 1, root), slot1(o), "last message");
        CHECK_OK(orma_notify_wait(w->win, c_acc(), (uint64_t)nranks * ROUNDS));
        expect_i64(w->mem, cell1(), (int64_t)sum * (ROUNDS * (ROUNDS + 1) / 2), "the common cell");
        CHECK_OK(orma_notify_test(w->win, c_sum(), total, &flag));
        CHECK(flag == 1);
        CHECK_OK(orma_notify_test(w->win, c_sum(), total + 1, &flag));
        CHECK(flag == 0);
    }
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    if (rank == root) {
        uint64_t v = 0;
        int found = 0;
        CHECK_OK(orma_notify_read(w->win, c_set(), &v));
        for (int o = 0; o < nranks; o++)
            found |= v == (uint64_t)(o + 1) * 1000 + ROUNDS - 1;
        if (!found) {
            fprintf(stderr, "rank %d: the counter every rank set ends at %llu, no origin's last value\n", rank,
                    (unsigned long long)v);
            exit(1);
        }
    }
    uint64_t want[64] = {0};
    CHECK(nctrs() <= 64);
    if (rank == root) {
        want[c_sum()] = total;
        want[c_acc()] = (uint64_t)nranks * ROUNDS;
        CHECK_OK(orma_notify_read(w->win, c_set(), &want[c_set()]));
    }
    nt_expect_counters(w->win, nctrs(), want, "all to one");
    expect_gaps(w, "window after all to one");
    CHECK_OK(orma_barrier());
}

/* Messages of origin o from round from on, up to (not including) to. */
static void expect_rounds(const struct st_win *w, int o, uint64_t from, uint64_t to)
{
    for (uint64_t r = from; r < to; r++)
        RT_EXPECT_DATA(w->mem, slot2(o, (int)r), LEN, seed_of(2, o, (int)r, rank), slot2(o, (int)r),
                       "message as its origin's counter says it arrived");
}

static void all_to_all(struct st_win *w)
{
    unsigned char msg[LEN];
    int ids[64];
    uint64_t vals[64], seen[64] = {0};
    int64_t one;

    nt_step("every rank to all on %s", st_kind_names[w->kind]);
    CHECK(nranks + 1 <= 64);
    reset(w);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < nranks; k++) {
            int t = (rank + k) % nranks;
            rt_fill_data(msg, LEN, seed_of(2, rank, r, t), slot2(rank, r));
            CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, t, st_disp(w, t, slot2(rank, r)), LEN, ORMA_BYTE, w->win,
                                     rank, ORMA_NOTIFY_ADD, 1));
            CHECK_OK(orma_win_flush(t, w->win));
            one = rank + r + 1;
            CHECK_OK(orma_accumulate_notify(&one, 1, ORMA_INT64, t, st_disp(w, t, cell2()), 1, ORMA_INT64, ORMA_SUM,
                                            w->win, c_all(), ORMA_NOTIFY_ADD, 1));
            CHECK_OK(orma_win_flush(t, w->win));
        }
    /* Follow the origins: wait for any of them to have sent more. */
    for (;;) {
        size_t n = 0, index = (size_t)-1;
        int pending[64];
        for (int o = 0; o < nranks; o++)
            if (seen[o] < ROUNDS) {
                pending[n] = o;
                ids[n] = o;
                vals[n++] = seen[o] + 1;
            }
        if (!n)
            break;
        CHECK_OK(orma_notify_waitany(w->win, n, ids, vals, &index));
        CHECK(index < n);
        int o = pending[index];
        uint64_t v = 0;
        CHECK_OK(orma_notify_read(w->win, o, &v));
        CHECK(v >= vals[index] && v <= ROUNDS);
        expect_rounds(w, o, seen[o], v);
        seen[o] = v;
    }
    for (int o = 0; o < nranks; o++) {
        ids[o] = o;
        vals[o] = ROUNDS;
    }
    ids[nranks] = c_all();
    vals[nranks] = (uint64_t)nranks * ROUNDS;
    CHECK_OK(orma_notify_waitall(w->win, (size_t)nranks + 1, ids, vals));
    int64_t cell = 0;
    for (int o = 0; o < nranks; o++)
        for (int r = 0; r < ROUNDS; r++)
            cell += o + r + 1;
    expect_i64(w->mem, cell2(), cell, "the cell every rank adds to");
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    for (int o = 0; o < nranks; o++)
        expect_rounds(w, o, 0, ROUNDS);
    uint64_t want[64] = {0};
    for (int o = 0; o < nranks; o++)
        want[o] = ROUNDS;
    want[c_all()] = (uint64_t)nranks * ROUNDS;
    nt_expect_counters(w->win, nctrs(), want, "every rank to all");
    expect_gaps(w, "window after every rank to all");
    CHECK_OK(orma_barrier());
}

/* Counters set here to known values; no origin touches them. */
static void waits_local(struct st_win *w)
{
    nt_step("waitany and waitall on counters set locally");
    CHECK_OK(orma_notify_set(w->win, 0, 5));
    CHECK_OK(orma_notify_set(w->win, c_all(), 7));
    CHECK_OK(orma_notify_set(w->win, c_sum(), 7));
    int ids[4] = {c_acc(), c_all(), c_sum(), 0};
    uint64_t vals[4] = {1, 7, 8, 5};
    size_t index = 99;
    CHECK_OK(orma_notify_waitany(w->win, 4, ids, vals, &index));
    CHECK(index == 1); /* c_all, not the later 0 */
    vals[1] = 8;
    CHECK_OK(orma_notify_waitany(w->win, 4, ids, vals, &index));
    CHECK(index == 3);
    CHECK_OK(orma_notify_waitany(w->win, 1, &ids[3], &vals[3], &index));
    CHECK(index == 0);
    int ready[3] = {0, c_all(), c_sum()};
    uint64_t reached[3] = {5, 6, 7};
    CHECK_OK(orma_notify_waitall(w->win, 3, ready, reached));
    CHECK_OK(orma_notify_waitall(w->win, 0, ready, reached));
    uint64_t want[64] = {0};
    want[0] = 5;
    want[c_all()] = 7;
    want[c_sum()] = 7;
    nt_expect_counters(w->win, nctrs(), want, "counters set locally");
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC};
    rt_init(&argc, &argv, &rank, &nranks);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct st_win w;
        nt_win_open(&w, kinds[k], win_size(), nctrs(), k == 0);
        for (int root = 0; root < nranks; root++)
            all_to_one(&w, root);
        all_to_all(&w);
        waits_local(&w);
        st_win_close(&w);
    }
    nt_finish("nt_fanin");
    return 0;
}
