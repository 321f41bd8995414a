/* nt_pipeline.c -- producer and consumer, as programs use notified puts:
 * every rank streams messages into slots of its right neighbour's window
 * and consumes its left neighbour's, for many rounds, with payloads of 8
 * bytes to 1 MiB.
 *
 * Message i goes into slot i % NSLOT and raises the consumer's data
 * counter (by 1, or set to i + 1 in odd rounds: the same count either
 * way).  The consumer checks the whole slot and its guards as soon as the
 * counter has reached i + 1 -- by orma_notify_wait, or by polling
 * orma_notify_test in odd rounds -- and answers with a notified put of the
 * round's number into the producer's acknowledgement cell of that slot,
 * raising the producer's reply counter; the producer writes a slot again
 * only once the reply for its previous message says it was consumed, and
 * checks the number in the cell.  At the end both counters hold the
 * number of rounds exactly.
 *
 * Flavours: allocate, create on malloc'd memory, dynamic with a malloc'd
 * region; epochs: lock_all, shared locks of the two neighbours, and (on
 * shared memory, where a notification does not wait for the epoch to
 * close) one fence and one PSCW epoch around all the rounds. */
#include "nt_test.h"

enum { NSLOT = 3, GUARD = 64, MAXLEN = 1 << 20 };
enum { C_DATA, C_ACK, NCTR };
static const size_t lens[] = {8, 64, 1000, 4096, 65536 + 8, MAXLEN};
#define NLENS (sizeof lens / sizeof lens[0])

static int rank, nranks, rt, lt;
static unsigned char *src[NSLOT];
static uint64_t acks[NSLOT];

/* The window: NSLOT slots of len bytes, each between guards, then one
 * acknowledgement cell per slot. */
static size_t slot_at(size_t len, int s)
{
    return GUARD + (size_t)s * (len + GUARD);
}

static size_t ack_at(size_t len, int s)
{
    return slot_at(len, NSLOT) + (size_t)s * (8 + GUARD);
}

static unsigned seed_of(size_t len, int round, int origin)
{
    return (unsigned)len * 2654435761u ^ (unsigned)round * 40503u ^ (unsigned)origin * 977u;
}

/* Not more than about 4 MiB a run, at least a few rounds past the slots. */
static int rounds_of(size_t len)
{
    size_t r = ((size_t)4 << 20) / len;
    return r > 300 ? 300 : r < 2 * NSLOT ? 2 * NSLOT : (int)r;
}

static void produce(const struct st_win *w, int e, size_t len, int i)
{
    int s = i % NSLOT;
    if (i >= NSLOT) {
        /* the slot's previous message must have been consumed */
        uint64_t done = (uint64_t)(i - NSLOT + 1), cell;
        CHECK_OK(orma_notify_wait(w->win, C_ACK, done));
        memcpy(&cell, w->mem + ack_at(len, s), sizeof cell);
        if (cell != done) {
            fprintf(stderr, "rank %d: %s on %s, %zu bytes: acknowledgement of round %d reads %llu\n", rank,
                    nt_pair_names[e], st_kind_names[w->kind], len, i - NSLOT, (unsigned long long)cell);
            exit(1);
        }
    }
    rt_fill_data(src[s], len, seed_of(len, i, rank), 0);
    int nop = i % 2 ? ORMA_NOTIFY_SET : ORMA_NOTIFY_ADD;
    uint64_t v = i % 2 ? (uint64_t)i + 1 : 1;
    CHECK_OK(orma_put_notify(src[s], len, ORMA_BYTE, rt, st_disp(w, rt, slot_at(len, s)), len, ORMA_BYTE, w->win,
                             C_DATA, nop, v));
    nt_pair_push(e, w->win, rt);
}

static void consume(const struct st_win *w, int e, size_t len, int i)
{
    int s = i % NSLOT, flag = 0;
    size_t at = slot_at(len, s);
    if (i % 2) {
        CHECK_OK(orma_notify_wait(w->win, C_DATA, (uint64_t)i + 1));
    } else {
        for (;;) {
            CHECK_OK(orma_notify_test(w->win, C_DATA, (uint64_t)i + 1, &flag));
            if (flag)
                break;
            sched_yield();
        }
    }
    RT_EXPECT_BG(w->mem, at - GUARD, at, "guard before a slot");
    RT_EXPECT_DATA(w->mem, at, len, seed_of(len, i, lt), 0, "message as its counter says it arrived");
    RT_EXPECT_BG(w->mem, at + len, at + len + GUARD, "guard after a slot");
    acks[s] = (uint64_t)i + 1;
    CHECK_OK(orma_put_notify(&acks[s], 8, ORMA_BYTE, lt, st_disp(w, lt, ack_at(len, s)), 8, ORMA_BYTE, w->win,
                             C_ACK, ORMA_NOTIFY_ADD, 1));
    nt_pair_push(e, w->win, lt);
}

static void run(struct st_win *w, int e, size_t len)
{
    int rounds = rounds_of(len);
    nt_step("pipeline, %s on %s, %zu bytes: set-up", nt_pair_names[e], st_kind_names[w->kind], len);
    rt_fill_bg(w->mem, w->size);
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    nt_step("pipeline, %s on %s, %zu bytes: %d rounds", nt_pair_names[e], st_kind_names[w->kind], len, rounds);
    nt_pair_open(e, w->win, rt, lt);
    for (int i = 0; i < rounds; i++) {
        produce(w, e, len, i);
        consume(w, e, len, i);
    }
    CHECK_OK(orma_notify_wait(w->win, C_ACK, (uint64_t)rounds));
    nt_pair_close(e, w->win, rt, lt);
    CHECK_OK(orma_barrier());
    /* the last messages in their slots, the last acknowledgements */
    for (int i = rounds - NSLOT; i < rounds; i++) {
        int s = i % NSLOT;
        uint64_t cell;
        RT_EXPECT_DATA(w->mem, slot_at(len, s), len, seed_of(len, i, lt), 0, "slot after the run");
        memcpy(&cell, w->mem + ack_at(len, s), sizeof cell);
        CHECK(cell == (uint64_t)i + 1);
        RT_EXPECT_BG(w->mem, ack_at(len, s) + 8, ack_at(len, s + 1), "guard after a cell");
    }
    RT_EXPECT_BG(w->mem, ack_at(len, NSLOT), w->size, "window past the cells");
    uint64_t ctr_want[NCTR] = {(uint64_t)rounds, (uint64_t)rounds};
    nt_expect_counters(w->win, NCTR, ctr_want, "pipeline");
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_DYNAMIC_MALLOC};
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    for (int s = 0; s < NSLOT; s++) {
        src[s] = malloc(MAXLEN);
        CHECK(src[s] != NULL);
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct st_win w;
        nt_win_open(&w, kinds[k], ack_at(MAXLEN, NSLOT) + GUARD, NCTR, k % 2);
        for (int e = 0; e < NT_NPAIRS; e++)
            for (size_t l = 0; l < NLENS && nt_pair_runs(e); l++)
                run(&w, e, lens[l]);
        st_win_close(&w);
    }
    for (int s = 0; s < NSLOT; s++)
        free(src[s]);
    nt_finish("nt_pipeline");
    return 0;
}
