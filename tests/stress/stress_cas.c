/* stress_cas.c -- orma_compare_and_swap is atomic.
 *
 * Spinlock (every flavour; the lock word int64 or int32 in turn): every
 * rank R times takes a lock word at rank t by compare-and-swap (0 -> its
 * rank + 1) under lock_all or shared locks, with a flush after each try;
 * holding it, it reads two plain counters at rank t + 1 with get + flush,
 * checks that they are equal, and writes both incremented with put (a
 * flush and a yield in between now and then), flushes, and releases the
 * word -- by compare-and-swap back to 0, by fetch_and_op REPLACE (both
 * must return its own mark: nobody else may have written a held lock) or
 * by accumulate REPLACE.  Two holders at once leave the counters short of
 * nranks * R or make a holder see them differ.
 *
 * Ladder (every flavour x every epoch kind; int8, int16, int32, int64 side
 * by side): over four epochs every rank issues CAS(compare c, swap c + 1)
 * for c = v0 .. v0 + K - 1 in order (the int8 and int16 ladders are
 * shorter than their ranges, so that no late CAS can match them again a
 * lap later).  The word only climbs, so each step is won by exactly one
 * rank, the word ends at v0 + K, and a rank's CAS(c) returns a value in
 * [c, v0 + K], never less than the one before (its own CAS(c - 1) has
 * taken effect).  A compare-and-swap that is not atomic lets two ranks win
 * one step.  Every eighth step a rank repeats its CAS with junk to swap
 * in: the word has climbed past, so it must not match (even for a lone
 * rank).
 *
 * Tickets (every flavour x the lock kinds; int64 and int32): a lock-free
 * counter -- read, CAS(cur -> cur + 1), retry with the value returned --
 * hands out every number 0..N-1 exactly once, in increasing order to each
 * rank, consecutively inside an exclusive lock epoch; it ends at N. */
#include "stress_test.h"

enum { WSIZE = 128, OFF_LOCK = 40, OFF_A = 64, OFF_B = 96 };
enum { LADDER_EPOCHS = 4, K8 = 60, K16 = 16000, BASE_LADDER = 1024, BASE_LOCKS = 200, BASE_TICKETS = 512,
       TEPOCHS = 8, MAPPED_FACTOR = 32 };

union ival {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
};

struct itype {
    size_t size;
    size_t off; /* ladder: where this width's word is */
    const char *name;
};

static const struct itype ladder_types[4] = {
    {1, 33, "int8"}, {2, 34, "int16"}, {4, 36, "int32"}, {8, 40, "int64"}};

static orma_type itype_handle(size_t size)
{
    return size == 1 ? ORMA_INT8 : size == 2 ? ORMA_INT16 : size == 4 ? ORMA_INT32 : ORMA_INT64;
}

static union ival ival(size_t size, int64_t v)
{
    union ival u;
    memset(&u, 0, sizeof u);
    switch (size) {
    case 1: u.i8 = (int8_t)v; break;
    case 2: u.i16 = (int16_t)v; break;
    case 4: u.i32 = (int32_t)v; break;
    default: u.i64 = v; break;
    }
    return u;
}

static int64_t ival_get(size_t size, const union ival *u)
{
    switch (size) {
    case 1: return u->i8;
    case 2: return u->i16;
    case 4: return u->i32;
    default: return u->i64;
    }
}

static int64_t mem_get(size_t size, const unsigned char *p)
{
    union ival u;
    memcpy(&u, p, size);
    return ival_get(size, &u);
}

static void mem_set(size_t size, unsigned char *p, int64_t v)
{
    union ival u = ival(size, v);
    memcpy(p, &u, size);
}

static int rank, nranks;

/* ---- spinlock ----------------------------------------------------------- */

static void spin_acquire(struct st_win *w, size_t wsize, int t, int64_t mark)
{
    union ival want = ival(wsize, mark), zero = ival(wsize, 0), old;
    double t0 = orma_wtime();
    for (unsigned tries = 0;; tries++) {
        CHECK_OK(orma_compare_and_swap(&want, &zero, &old, itype_handle(wsize), t, st_disp(w, t, OFF_LOCK), w->win));
        CHECK_OK(orma_win_flush(t, w->win));
        int64_t o = ival_get(wsize, &old);
        if (o == 0)
            return;
        if (o < 1 || o > nranks || o == mark)
            SX_FAIL("%s: lock word holds %lld, expected 0 or another rank's mark 1..%d", st_kind_names[w->kind],
                    (long long)o, nranks);
        if (orma_wtime() - t0 > ST_WAIT_LIMIT)
            SX_FAIL("%s: lock word still held by mark %lld after %.0f s", st_kind_names[w->kind], (long long)o,
                    ST_WAIT_LIMIT);
        /* The holder may be waiting for this core. */
        sched_yield();
    }
}

static void spin_release(struct st_win *w, size_t wsize, int t, int64_t mark, unsigned i)
{
    union ival zero = ival(wsize, 0), me = ival(wsize, mark), old = ival(wsize, -7);
    orma_aint d = st_disp(w, t, OFF_LOCK);
    switch (i % 3) {
    case 0:
        CHECK_OK(orma_compare_and_swap(&zero, &me, &old, itype_handle(wsize), t, d, w->win));
        break;
    case 1:
        CHECK_OK(orma_fetch_and_op(&zero, &old, itype_handle(wsize), t, d, ORMA_REPLACE, w->win));
        break;
    default:
        CHECK_OK(orma_accumulate(&zero, 1, itype_handle(wsize), t, d, 1, itype_handle(wsize), ORMA_REPLACE, w->win));
        old = me;
        break;
    }
    CHECK_OK(orma_win_flush(t, w->win));
    if (ival_get(wsize, &old) != mark)
        SX_FAIL("%s: releasing the lock word found %lld, expected this rank's mark %lld", st_kind_names[w->kind],
                (long long)ival_get(wsize, &old), (long long)mark);
}

static void spinlock_phase(struct st_win *w, int variant, unsigned rounds, unsigned ph)
{
    size_t wsize = ph % 2 ? 4 : 8;
    int t = (int)(ph % (unsigned)nranks), t2 = (t + 1) % nranks;
    int64_t mark = rank + 1;
    char what[96];
    snprintf(what, sizeof what, "spinlock, %s, int%zu word at %d, counters at %d, %s", st_kind_names[w->kind],
             wsize * 8, t, t2, variant ? "shared locks" : "lock_all");

    rt_fill_bg(w->mem, WSIZE);
    if (rank == t)
        mem_set(wsize, w->mem + OFF_LOCK, 0);
    if (rank == t2) {
        mem_set(8, w->mem + OFF_A, 0);
        mem_set(8, w->mem + OFF_B, 0);
    }
    CHECK_OK(orma_barrier());

    if (variant) {
        int lo = t < t2 ? t : t2, hi = t < t2 ? t2 : t;
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, lo, 0, w->win));
        if (hi != lo)
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, hi, 0, w->win));
    } else {
        CHECK_OK(orma_win_lock_all(0, w->win));
    }
    sx_start();
    for (unsigned i = 0; i < rounds; i++) {
        int64_t a = -1, b = -2;
        spin_acquire(w, wsize, t, mark);
        CHECK_OK(orma_get(&a, 1, ORMA_INT64, t2, st_disp(w, t2, OFF_A), 1, ORMA_INT64, w->win));
        CHECK_OK(orma_get(&b, 1, ORMA_INT64, t2, st_disp(w, t2, OFF_B), 1, ORMA_INT64, w->win));
        CHECK_OK(orma_win_flush(t2, w->win));
        if (a != b || a < 0 || a >= (int64_t)nranks * rounds)
            SX_FAIL("%s: round %u holding the lock read counters %lld and %lld: another rank is inside", what, i,
                    (long long)a, (long long)b);
        a++;
        b++;
        CHECK_OK(orma_put(&a, 1, ORMA_INT64, t2, st_disp(w, t2, OFF_A), 1, ORMA_INT64, w->win));
        if (i % 4 == 1) {
            /* Hold the lock across a reschedule: other ranks now spin on
             * the word while the counters are half updated. */
            CHECK_OK(orma_win_flush(t2, w->win));
            sched_yield();
        }
        CHECK_OK(orma_put(&b, 1, ORMA_INT64, t2, st_disp(w, t2, OFF_B), 1, ORMA_INT64, w->win));
        CHECK_OK(orma_win_flush(t2, w->win));
        spin_release(w, wsize, t, mark, i + (unsigned)rank);
    }
    if (variant) {
        CHECK_OK(orma_win_unlock(t, w->win));
        if (t2 != t)
            CHECK_OK(orma_win_unlock(t2, w->win));
    } else {
        CHECK_OK(orma_win_unlock_all(w->win));
    }
    CHECK_OK(orma_barrier());

    int64_t want = (int64_t)nranks * rounds;
    if (rank == t && mem_get(wsize, w->mem + OFF_LOCK) != 0)
        SX_FAIL("%s: lock word ends at %lld, expected 0", what, (long long)mem_get(wsize, w->mem + OFF_LOCK));
    if (rank == t2 && (mem_get(8, w->mem + OFF_A) != want || mem_get(8, w->mem + OFF_B) != want))
        SX_FAIL("%s: counters end at %lld and %lld, expected %lld", what, (long long)mem_get(8, w->mem + OFF_A),
                (long long)mem_get(8, w->mem + OFF_B), (long long)want);
    size_t lock_end = rank == t ? OFF_LOCK + wsize : OFF_LOCK;
    RT_EXPECT_BG(w->mem, 0, OFF_LOCK, what);
    RT_EXPECT_BG(w->mem, lock_end, OFF_A, what);
    RT_EXPECT_BG(w->mem, rank == t2 ? OFF_A + 8 : OFF_A, OFF_B, what);
    RT_EXPECT_BG(w->mem, rank == t2 ? OFF_B + 8 : OFF_B, WSIZE, what);
    CHECK_OK(orma_barrier());
}

/* ---- ladder ------------------------------------------------------------- */

static unsigned ladder_len; /* steps per epoch of the wider words (scaled) */

/* Steps per epoch of word l: the int8 and int16 ladders must stay below
 * 256 and 65536 steps in all, or a late CAS could match the value again
 * one lap later. */
static unsigned ladder_steps(int l)
{
    return l == 0 ? K8 : l == 1 && ladder_len > K16 ? K16 : ladder_len;
}

static size_t lidx(int l, int ep, unsigned c) { return ((size_t)l * LADDER_EPOCHS + (size_t)ep) * ladder_len + c; }

static void ladder_phase(struct st_win *w, struct sx_gather *g, int mode, int target, unsigned ph)
{
    char what[96];
    size_t n = 4 * LADDER_EPOCHS * (size_t)ladder_len;
    union ival *res = malloc(n * sizeof *res), *sw = malloc(n * sizeof *sw), *cmp = malloc(n * sizeof *cmp);
    union ival *stale = malloc(n * sizeof *stale);
    int64_t *won = calloc(n, sizeof *won);
    CHECK(res && sw && cmp && stale && won);
    snprintf(what, sizeof what, "ladder, %s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    rt_fill_bg(w->mem, WSIZE);
    /* Each word starts somewhere else, the int8 one near its wrap. */
    int64_t start[4] = {120, -300, (1 << 20) - 77, ((int64_t)1 << 40) - 5};
    /* A value no ladder reaches (the int16 one wraps past -300 + 64000). */
    const int64_t junk[4] = {112, -1000, (1 << 20) - 1077, ((int64_t)1 << 40) - 1005};
    if (rank == target)
        for (int l = 0; l < 4; l++)
            mem_set(ladder_types[l].size, w->mem + ladder_types[l].off, start[l]);
    for (int l = 0; l < 4; l++)
        for (int ep = 0; ep < LADDER_EPOCHS; ep++)
            for (unsigned c = 0; c < ladder_steps(l); c++) {
                size_t sz = ladder_types[l].size, i = lidx(l, ep, c);
                int64_t v = start[l] + (int64_t)ep * ladder_steps(l) + c;
                cmp[i] = ival(sz, v);
                sw[i] = ival(sz, v + 1);
                res[i] = stale[i] = ival(sz, -99);
            }
    union ival junks[4];
    for (int l = 0; l < 4; l++)
        junks[l] = ival(ladder_types[l].size, junk[l]);
    CHECK_OK(orma_barrier());
    sx_start();

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, ph);
    for (int ep = 0; ep < LADDER_EPOCHS; ep++) {
        sx_begin(&e);
        for (unsigned c = 0; c < ladder_len; c++)
            for (int l = 0; l < 4; l++) {
                if (c >= ladder_steps(l))
                    continue;
                size_t sz = ladder_types[l].size, i = lidx(l, ep, c);
                orma_aint d = st_disp(w, target, ladder_types[l].off);
                CHECK_OK(orma_compare_and_swap(&sw[i], &cmp[i], &res[i], itype_handle(sz), target, d, w->win));
                /* Now and then the same compare again, with junk to swap
                 * in: the word has climbed past it (this rank's own CAS
                 * came first), so it must not match -- also when this
                 * rank is alone. */
                if (c % 8 == 7)
                    CHECK_OK(orma_compare_and_swap(&junks[l], &cmp[i], &stale[i], itype_handle(sz), target, d,
                                                   w->win));
            }
        sx_end(&e);
    }
    sx_epoch_fini(&e);

    /* In the passive kinds the ranks' epochs do not line up, so the
     * bounds are those of the whole ladder: step s = ep K + c. */
    for (int l = 0; l < 4; l++) {
        size_t sz = ladder_types[l].size;
        uint64_t mask = sz == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * sz)) - 1;
        int64_t prev = 0, top = (int64_t)LADDER_EPOCHS * ladder_steps(l);
        for (int ep = 0; ep < LADDER_EPOCHS; ep++) {
            for (unsigned c = 0; c < ladder_steps(l); c++) {
                size_t i = lidx(l, ep, c);
                int64_t s = (int64_t)ep * ladder_steps(l) + c;
                /* The value seen, as steps above the ladder's foot. */
                int64_t rel = (int64_t)(((uint64_t)ival_get(sz, &res[i]) - (uint64_t)start[l]) & mask);
                if (rel < s || rel > top || rel < prev)
                    SX_FAIL("%s: %s epoch %d: CAS(%lld -> %lld) returned %lld, which is %lld steps above the "
                            "start %lld; expected %lld..%lld steps and at least the %lld of the CAS before",
                            what, ladder_types[l].name, ep, (long long)ival_get(sz, &cmp[i]),
                            (long long)ival_get(sz, &sw[i]), (long long)ival_get(sz, &res[i]), (long long)rel,
                            (long long)start[l], (long long)s, (long long)top, (long long)prev);
                prev = rel;
                won[i] = rel == s;
                if (c % 8 == 7) {
                    rel = (int64_t)(((uint64_t)ival_get(sz, &stale[i]) - (uint64_t)start[l]) & mask);
                    if (rel <= s || rel > top || rel < prev)
                        SX_FAIL("%s: %s epoch %d: a second CAS(%lld -> junk) returned %lld, which is %lld steps "
                                "above the start %lld; expected %lld..%lld steps", what, ladder_types[l].name, ep,
                                (long long)ival_get(sz, &cmp[i]), (long long)ival_get(sz, &stale[i]), (long long)rel,
                                (long long)start[l], (long long)s + 1, (long long)top);
                    prev = rel;
                }
            }
        }
    }
    CHECK_OK(orma_barrier());
    sx_gather(g, won, n, target);
    if (rank == target) {
        for (int l = 0; l < 4; l++) {
            size_t sz = ladder_types[l].size;
            union ival end = ival(sz, start[l] + (int64_t)LADDER_EPOCHS * ladder_steps(l));
            int64_t want = ival_get(sz, &end);
            int64_t got = mem_get(sz, w->mem + ladder_types[l].off);
            if (got != want)
                SX_FAIL("%s: %s word ends at %lld, expected %lld", what, ladder_types[l].name, (long long)got,
                        (long long)want);
            for (int ep = 0; ep < LADDER_EPOCHS; ep++)
                for (unsigned c = 0; c < ladder_steps(l); c++) {
                    int winners = 0;
                    int64_t v = start[l] + (int64_t)ep * ladder_steps(l) + c;
                    for (int r = 0; r < nranks; r++)
                        winners += (int)g->buf[(size_t)r * g->per_rank + lidx(l, ep, c)];
                    if (winners != 1)
                        SX_FAIL("%s: %s epoch %d: step %lld -> %lld won by %d ranks, expected exactly 1", what,
                                ladder_types[l].name, ep, (long long)v, (long long)v + 1, winners);
                }
        }
        RT_EXPECT_BG(w->mem, 0, 33, what);
        RT_EXPECT_BG(w->mem, 48, WSIZE, what);
    } else {
        RT_EXPECT_BG(w->mem, 0, WSIZE, what);
    }
    CHECK_OK(orma_barrier());
    free(res);
    free(sw);
    free(cmp);
    free(stale);
    free(won);
}

/* ---- tickets ------------------------------------------------------------ */

static int64_t take_ticket(struct st_win *w, size_t sz, int t, size_t off, int64_t *guess)
{
    union ival cur = ival(sz, *guess), next, old;
    double t0 = orma_wtime();
    for (;;) {
        next = ival(sz, ival_get(sz, &cur) + 1);
        CHECK_OK(orma_compare_and_swap(&next, &cur, &old, itype_handle(sz), t, st_disp(w, t, off), w->win));
        CHECK_OK(orma_win_flush(t, w->win));
        if (ival_get(sz, &old) == ival_get(sz, &cur)) {
            *guess = ival_get(sz, &cur) + 1;
            return ival_get(sz, &cur);
        }
        cur = old;
        CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
        sched_yield();
    }
}

static void ticket_phase(struct st_win *w, struct sx_gather *g, int mode, int target, unsigned rounds, unsigned ph)
{
    static const size_t offs[2] = {48, 56}, sizes[2] = {8, 4};
    char what[96];
    int64_t *tk = malloc(2 * rounds * sizeof *tk), guess[2] = {0, 0};
    unsigned per = rounds / TEPOCHS;
    int *excl = calloc(TEPOCHS, sizeof *excl);
    CHECK(tk && excl);
    snprintf(what, sizeof what, "tickets, %s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    rt_fill_bg(w->mem, WSIZE);
    if (rank == target)
        for (int l = 0; l < 2; l++)
            mem_set(sizes[l], w->mem + offs[l], 0);
    CHECK_OK(orma_barrier());
    sx_start();

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, ph);
    for (unsigned b = 0; b < TEPOCHS; b++) {
        sx_begin(&e);
        excl[b] = e.used == SX_LOCK_EXCL;
        for (unsigned i = b * per; i < (b + 1) * per; i++)
            for (int l = 0; l < 2; l++)
                tk[(size_t)l * rounds + i] = take_ticket(w, sizes[l], target, offs[l], &guess[l]);
        sx_end(&e);
    }
    sx_epoch_fini(&e);

    int64_t n = (int64_t)nranks * rounds;
    for (int l = 0; l < 2; l++)
        for (unsigned i = 0; i < rounds; i++) {
            int64_t v = tk[(size_t)l * rounds + i], prev = i ? tk[(size_t)l * rounds + i - 1] : -1;
            if (v < 0 || v >= n || v <= prev || (excl[i / per] && i % per && v != prev + 1))
                SX_FAIL("%s: int%zu ticket %u is %lld after %lld (%s epoch), expected one of 0..%lld, above the "
                        "last%s", what, sizes[l] * 8, i, (long long)v, (long long)prev,
                        excl[i / per] ? "exclusive" : "shared", (long long)n - 1,
                        excl[i / per] && i % per ? " and next to it" : "");
        }
    CHECK_OK(orma_barrier());
    sx_gather(g, tk, 2 * (size_t)rounds, target);
    if (rank == target) {
        char *seen = calloc((size_t)n, 1);
        CHECK(seen);
        for (int l = 0; l < 2; l++) {
            int64_t fin = mem_get(sizes[l], w->mem + offs[l]);
            if (fin != n)
                SX_FAIL("%s: int%zu ticket counter ends at %lld, expected %lld", what, sizes[l] * 8,
                        (long long)fin, (long long)n);
            memset(seen, 0, (size_t)n);
            for (int r = 0; r < nranks; r++)
                for (unsigned i = 0; i < rounds; i++) {
                    int64_t v = g->buf[(size_t)r * g->per_rank + (size_t)l * rounds + i];
                    if (seen[v]++)
                        SX_FAIL("%s: int%zu ticket %lld handed out twice (rank %d has it too)", what, sizes[l] * 8,
                                (long long)v, r);
                }
        }
        free(seen);
        RT_EXPECT_BG(w->mem, 0, 48, what);
        RT_EXPECT_BG(w->mem, 60, WSIZE, what);
    } else {
        RT_EXPECT_BG(w->mem, 0, WSIZE, what);
    }
    CHECK_OK(orma_barrier());
    free(tk);
    free(excl);
}

int main(int argc, char **argv)
{
    static const int ticket_modes[3] = {SX_LOCK_SHARED, SX_LOCK_ALL, SX_MIXED};
    unsigned locks = sx_rounds(BASE_LOCKS), ph = 0;
    struct sx_gather gl, gt;

    rt_init(&argc, &argv, &rank, &nranks);
    sx_open();
    sx_gather_open(&gl, 4 * LADDER_EPOCHS * (size_t)sx_rounds(BASE_LADDER) * sx_mapped_factor(MAPPED_FACTOR));
    sx_gather_open(&gt, 2 * (size_t)sx_rounds(BASE_TICKETS) * sx_mapped_factor(MAPPED_FACTOR));
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        unsigned tickets = sx_rounds_for(kind, BASE_TICKETS, MAPPED_FACTOR);
        ladder_len = sx_rounds_for(kind, BASE_LADDER, MAPPED_FACTOR);
        st_win_open(&w, kind, WSIZE);
        for (int v = 0; v < 2; v++)
            spinlock_phase(&w, v, locks, ph++);
        for (int mode = 0; mode < SX_NMODES; mode++, ph++)
            ladder_phase(&w, &gl, mode, (int)(ph % (unsigned)nranks), ph);
        for (int m = 0; m < 3; m++, ph++)
            ticket_phase(&w, &gt, ticket_modes[m], (int)(ph % (unsigned)nranks), tickets, ph);
        st_win_close(&w);
    }
    sx_gather_close(&gt);
    sx_gather_close(&gl);
    sx_close();
    unsigned f = sx_mapped_factor(MAPPED_FACTOR);
    if (rank == 0)
        printf("stress_cas: %u phases (spinlock %u, ladder %d x %u or %u, tickets %u or %u per rank), %d ranks: ok\n",
               ph, locks, LADDER_EPOCHS, sx_rounds(BASE_LADDER), sx_rounds(BASE_LADDER) * f, sx_rounds(BASE_TICKETS),
               sx_rounds(BASE_TICKETS) * f, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
