/* nt_wrap.c -- counters that wrap around, and counters set back to 0.
 *  1. The comparison, on counters set locally: a counter c has reached
 *     every value v with c - v, as a signed 64-bit number, >= 0 -- so
 *     c - 2^63 + 1 but not c - 2^63, and c + 1 not at all; around 0 and
 *     UINT64_MAX alike, for test, wait, waitany and waitall.
 *  2. Across the wrap: a counter set near UINT64_MAX (by its rank, or by
 *     its left neighbour's notified put with ORMA_NOTIFY_SET) is raised by
 *     the neighbour's notified puts past it, one round at a time; each
 *     wait for the next value returns neither early (its message is there
 *     at once) nor never.  An add of 0 changes nothing; an add of
 *     UINT64_MAX takes one away.
 *  3. Reset and reuse: the counter set to 0 by its rank (and then by its
 *     neighbour's ORMA_NOTIFY_SET 0), and rounds counted from 0 again.
 * Windows: allocate, and dynamic with a malloc'd region; lock_all epochs,
 * each operation flushed before the next. */
#include "nt_test.h"

enum { ROUNDS = 12, LEN = 40, STRIDE = 64 };
enum { C_WRAP, C_ACK, C_AUX, NCTR };

static int rank, nranks, rt, lt;
static const uint64_t half = UINT64_C(1) << 63;

static void expect_test(orma_win win, int id, uint64_t v, int want)
{
    int flag = -1;
    CHECK_OK(orma_notify_test(win, id, v, &flag));
    if (flag != want) {
        uint64_t c = 0;
        CHECK_OK(orma_notify_read(win, id, &c));
        fprintf(stderr, "rank %d: counter %llu reaching %llu: test says %d, expected %d\n", rank,
                (unsigned long long)c, (unsigned long long)v, flag, want);
        exit(1);
    }
}

static void comparison(orma_win win)
{
    static const uint64_t cs[] = {0, 1, 5, UINT64_C(1) << 63, (UINT64_C(1) << 63) - 1, UINT64_MAX, UINT64_MAX - 3};
    nt_step("comparisons on counters set locally");
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        uint64_t c = cs[i];
        CHECK_OK(orma_notify_set(win, C_WRAP, c));
        expect_test(win, C_WRAP, c, 1);
        expect_test(win, C_WRAP, c - 1, 1);
        expect_test(win, C_WRAP, c + 1, 0);
        expect_test(win, C_WRAP, c - half + 1, 1);
        expect_test(win, C_WRAP, c - half, 0);
        expect_test(win, C_WRAP, c + half - 1, 0);
        CHECK_OK(orma_notify_wait(win, C_WRAP, c));
        CHECK_OK(orma_notify_wait(win, C_WRAP, c - half + 1));
        /* one counter past the wrap, one short of it */
        CHECK_OK(orma_notify_set(win, C_ACK, c + 2));
        int ids[2] = {C_WRAP, C_ACK};
        uint64_t vals[2] = {c + 1, c + 2};
        size_t index = 9;
        CHECK_OK(orma_notify_waitany(win, 2, ids, vals, &index));
        CHECK(index == 1);
        vals[0] = c - 7;
        CHECK_OK(orma_notify_waitall(win, 2, ids, vals));
        CHECK_OK(orma_notify_waitany(win, 2, ids, vals, &index));
        CHECK(index == 0);
    }
    uint64_t v = 1;
    CHECK_OK(orma_notify_set(win, C_WRAP, 0));
    CHECK_OK(orma_notify_read(win, C_WRAP, &v));
    CHECK(v == 0);
    CHECK_OK(orma_notify_set(win, C_ACK, 0));
}

static unsigned seed_of(int phase, int r, int origin)
{
    return (unsigned)(phase * 7717 + r * 31 + origin * 5 + 3);
}

/* To rt: message r of this phase, raising counter id by nop and v. */
static void send(const struct st_win *w, int phase, int r, int id, int nop, uint64_t v)
{
    unsigned char msg[LEN];
    size_t at = (size_t)r * STRIDE;
    rt_fill_data(msg, LEN, seed_of(phase, r, rank), at);
    CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, rt, st_disp(w, rt, at), LEN, ORMA_BYTE, w->win, id, nop, v));
    CHECK_OK(orma_win_flush(rt, w->win));
}

/* To rt: no data, counter id raised by 1. */
static void poke(const struct st_win *w, int id)
{
    CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w->win, id, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_win_flush(rt, w->win));
}

static void wait_for(const struct st_win *w, int phase, int r, int id, uint64_t v)
{
    nt_step("phase %d round %d: waiting for counter %d to reach %llu", phase, r, id, (unsigned long long)v);
    CHECK_OK(orma_notify_wait(w->win, id, v));
}

/* Counter id is exactly v: the origin waits for our reply before it
 * sends more, so nothing else can have come. */
static void expect_count(const struct st_win *w, int phase, int r, int id, uint64_t v)
{
    uint64_t c = 0;
    CHECK_OK(orma_notify_read(w->win, id, &c));
    if (c != v) {
        fprintf(stderr, "rank %d: phase %d round %d: counter %d is %llu, expected %llu\n", rank, phase, r, id,
                (unsigned long long)c, (unsigned long long)v);
        exit(1);
    }
}

/* lt's message r of this phase is in place. */
static void expect_message(const struct st_win *w, int phase, int r)
{
    size_t at = (size_t)r * STRIDE;
    RT_EXPECT_DATA(w->mem, at, LEN, seed_of(phase, r, lt), at, "message when the counter says so");
    RT_EXPECT_BG(w->mem, at + LEN, at + STRIDE, "bytes after a message");
}

/* Lock step with the neighbours: our reply raises counter C_ACK of lt,
 * and we wait for rt's, so each wait knows what the counter will be. */
static void reply(const struct st_win *w, uint64_t *acked)
{
    CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, lt, 0, 0, ORMA_BYTE, w->win, C_ACK, ORMA_NOTIFY_ADD, 1));
    CHECK_OK(orma_win_flush(lt, w->win));
    CHECK_OK(orma_notify_wait(w->win, C_ACK, ++*acked));
}

static void across_wrap(struct st_win *w)
{
    uint64_t start = UINT64_MAX - 5, acked = 0, aux = 0;
    nt_step("across the wrap on %s", st_kind_names[w->kind]);
    rt_fill_bg(w->mem, w->size);
    CHECK_OK(orma_notify_set(w->win, C_WRAP, start));
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    /* phase 1: adds of 1 from UINT64_MAX - 5 to 6 */
    for (int r = 0; r < ROUNDS; r++) {
        send(w, 1, r, C_WRAP, ORMA_NOTIFY_ADD, 1);
        wait_for(w, 1, r, C_WRAP, start + (uint64_t)r + 1);
        expect_count(w, 1, r, C_WRAP, start + (uint64_t)r + 1);
        expect_message(w, 1, r);
        if (r == ROUNDS - 1) {
            expect_test(w->win, C_WRAP, start + ROUNDS + 1, 0);
            expect_test(w->win, C_WRAP, start, 1);
            /* behind the value phase 2 sets, so that its wait waits */
            CHECK_OK(orma_notify_set(w->win, C_WRAP, UINT64_MAX - 100));
        }
        reply(w, &acked);
    }
    /* phase 2: the origin sets it near the end, then adds 0 and 1 or
     * UINT64_MAX (one less: a wait cannot tell it came, a poke of another
     * counter does) in turn */
    send(w, 2, 0, C_WRAP, ORMA_NOTIFY_SET, UINT64_MAX - 1);
    wait_for(w, 2, 0, C_WRAP, UINT64_MAX - 1);
    expect_count(w, 2, 0, C_WRAP, UINT64_MAX - 1);
    expect_message(w, 2, 0);
    reply(w, &acked);
    uint64_t c = UINT64_MAX - 1;
    for (int r = 1; r < ROUNDS; r++) {
        uint64_t add = r % 3 == 0 ? UINT64_MAX : 1;
        send(w, 2, r, C_WRAP, ORMA_NOTIFY_ADD, 0);
        send(w, 2, r + ROUNDS, C_WRAP, ORMA_NOTIFY_ADD, add);
        c += add;
        if (add == 1) {
            wait_for(w, 2, r, C_WRAP, c);
        } else {
            poke(w, C_AUX);
            wait_for(w, 2, r, C_AUX, ++aux);
        }
        expect_count(w, 2, r, C_WRAP, c);
        expect_message(w, 2, r);
        expect_message(w, 2, r + ROUNDS);
        reply(w, &acked);
    }
    CHECK(c == 3);
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    uint64_t want[NCTR] = {c, acked, aux};
    nt_expect_counters(w->win, NCTR, want, "across the wrap");
    CHECK_OK(orma_barrier());
}

static void reset_reuse(struct st_win *w)
{
    uint64_t acked = 0;
    nt_step("reset and reuse on %s", st_kind_names[w->kind]);
    rt_fill_bg(w->mem, w->size);
    CHECK_OK(orma_notify_set(w->win, C_WRAP, half + 12345));
    CHECK_OK(orma_notify_set(w->win, C_WRAP, 0)); /* reset before anyone raises it */
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    for (int r = 0; r < ROUNDS; r++) {
        /* adds of 1000, then (after the target's reset) adds of 1 */
        int second = r >= ROUNDS / 2;
        uint64_t v = second ? (uint64_t)(r - ROUNDS / 2) + 1 : 1000 * ((uint64_t)r + 1);
        send(w, 3, r, C_WRAP, ORMA_NOTIFY_ADD, second ? 1 : 1000);
        wait_for(w, 3, r, C_WRAP, v);
        expect_count(w, 3, r, C_WRAP, v);
        expect_message(w, 3, r);
        if (r == ROUNDS / 2 - 1) { /* before our reply lets the origin go on */
            CHECK_OK(orma_notify_set(w->win, C_WRAP, 0));
            expect_test(w->win, C_WRAP, 1, 0);
        }
        reply(w, &acked);
    }
    /* the origin resets it: a set of 0 that carries no data, then a
     * round that adds 7 (13 if the set were lost) */
    CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, rt, 0, 0, ORMA_BYTE, w->win, C_WRAP, ORMA_NOTIFY_SET, 0));
    CHECK_OK(orma_win_flush(rt, w->win));
    send(w, 4, 0, C_WRAP, ORMA_NOTIFY_ADD, 7);
    wait_for(w, 4, 0, C_WRAP, 7);
    expect_count(w, 4, 0, C_WRAP, 7);
    expect_message(w, 4, 0);
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    uint64_t want[NCTR] = {7, acked, 0};
    nt_expect_counters(w->win, NCTR, want, "reset and reuse");
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_DYNAMIC_MALLOC};
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct st_win w;
        nt_win_open(&w, kinds[k], 2 * ROUNDS * STRIDE, NCTR, k == 0);
        comparison(w.win);
        CHECK_OK(orma_barrier());
        across_wrap(&w);
        reset_reuse(&w);
        st_win_close(&w);
    }
    nt_finish("nt_wrap");
    return 0;
}
