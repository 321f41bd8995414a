/* nt_threads.c -- notified puts from several threads of each rank at once
 * (ORMA_THREAD_MULTIPLE), in one lock_all epoch the main thread opens.
 *
 * Thread t of every rank streams messages into slot t of its right
 * neighbour, raising data counter t there, and consumes slot t of its own
 * window from thread t of its left neighbour: it checks the slot as soon as
 * counter t has reached the round, then answers with a notified put of no
 * data raising reply counter t of the producer, which waits for it before
 * it writes the slot again.  Every few rounds each thread also adds into
 * one cell of the neighbour with a notified accumulate that raises a
 * counter all threads share.  So several threads wait on counters of one
 * window at once while others raise them.  At the end every slot holds
 * its last message, every gap and guard its background, the cell its sum,
 * each counter its exact count.  With 2 and 4 threads; windows: allocate
 * and create on malloc'd memory. */
#include "nt_test.h"
#include "thr_test.h"

enum { ROUNDS = 250, SUM_EVERY = 4 };

static int rank, nranks, rt, lt;

struct ctx {
    struct st_win w;
    struct thr_layout l;
};

/* Counters: data t, reply t, then the shared one. */
static int c_data(int t) { return t; }
static int c_reply(const struct ctx *c, int t) { return c->l.nthreads + t; }
static int c_all(const struct ctx *c) { return 2 * c->l.nthreads; }

static unsigned seed_last(int origin, int t)
{
    return thr_seed(7, origin, t, (ROUNDS - 1) & 0xff, origin == lt ? rank : rt);
}

static int64_t addend(int origin, int t, int i)
{
    return (int64_t)origin * 1000 + t * 10 + i;
}

static void body(struct thr_team *team, int t)
{
    struct ctx *c = team->ctx;
    const struct thr_layout *l = &c->l;
    orma_win win = c->w.win;
    unsigned char src[THR_SLICE];
    int64_t one;
    /* every thread's slice at rt is the one of (rank, t); ours here is (lt, t) */
    size_t out = thr_slice(l, rank, t), in = thr_slice(l, lt, t), cell = thr_cell(l, 0, 0);

    thr_sync(team);
    for (int i = 0; i < ROUNDS; i++) {
        if (i > 0)
            CHECK_OK(orma_notify_wait(win, c_reply(c, t), (uint64_t)i));
        rt_fill_data(src, THR_SLICE, thr_seed(7, rank, t, i & 0xff, rt), out);
        CHECK_OK(orma_put_notify(src, THR_SLICE, ORMA_BYTE, rt, st_disp(&c->w, rt, out), THR_SLICE, ORMA_BYTE, win,
                                 c_data(t), ORMA_NOTIFY_ADD, 1));
        CHECK_OK(orma_win_flush(rt, win));
        if (i % SUM_EVERY == 0) {
            one = addend(rank, t, i);
            CHECK_OK(orma_accumulate_notify(&one, 1, ORMA_INT64, rt, st_disp(&c->w, rt, cell), 1, ORMA_INT64,
                                            ORMA_SUM, win, c_all(c), ORMA_NOTIFY_ADD, 1));
            CHECK_OK(orma_win_flush(rt, win));
        }

        CHECK_OK(orma_notify_wait(win, c_data(t), (uint64_t)i + 1));
        RT_EXPECT_DATA(c->w.mem, in, THR_SLICE, thr_seed(7, lt, t, i & 0xff, rank), in,
                       "a thread's message when its counter says so");
        RT_EXPECT_BG(c->w.mem, in + THR_SLICE, in + THR_SLICE + THR_GAP, "gap after a message");
        CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, lt, 0, 0, ORMA_BYTE, win, c_reply(c, t), ORMA_NOTIFY_ADD, 1));
        CHECK_OK(orma_win_flush(lt, win));
    }
    CHECK_OK(orma_notify_wait(win, c_reply(c, t), ROUNDS));
    thr_sync(team);
}

static void run(int kind, int nthreads)
{
    struct ctx c;
    nt_step("%d threads on %s", nthreads, st_kind_names[kind]);
    thr_layout_make(&c.l, nranks, nthreads, 0);
    size_t nctr = 2 * (size_t)nthreads + 1;
    nt_win_open(&c.w, kind, c.l.size, nctr, nthreads == 2);
    thr_layout_fill(&c.l, c.w.mem);
    CHECK_OK(orma_win_sync(c.w.win));
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, c.w.win));
    thr_run(nthreads, body, &c);
    CHECK_OK(orma_win_unlock_all(c.w.win));
    CHECK_OK(orma_barrier());

    nt_step("%d threads on %s: checks", nthreads, st_kind_names[kind]);
    const struct thr_layout *l = &c.l;
    RT_EXPECT_BG(c.w.mem, 0, l->slices, "guard");
    for (int o = 0; o < nranks; o++)
        for (int t = 0; t < nthreads; t++) {
            size_t at = thr_slice(l, o, t);
            if (o == lt)
                RT_EXPECT_DATA(c.w.mem, at, THR_SLICE, seed_last(o, t), at, "last message of a thread");
            else
                RT_EXPECT_BG(c.w.mem, at, at + THR_SLICE, "slice of a rank that sends us nothing");
            RT_EXPECT_BG(c.w.mem, at + THR_SLICE, at + THR_SLICE + THR_GAP, "gap");
        }
    int64_t sum = 0;
    for (int t = 0; t < nthreads; t++)
        for (int i = 0; i < ROUNDS; i += SUM_EVERY)
            sum += addend(lt, t, i);
    THR_EXPECT_I64(thr_i64(c.w.mem, thr_cell(l, 0, 0)), sum, "the cell every thread adds to");
    for (size_t off = thr_cell(l, 0, 0) + 8; off < l->tail; off += 8)
        THR_EXPECT_I64(thr_i64(c.w.mem, off), 0, "a cell nobody writes");
    RT_EXPECT_BG(c.w.mem, l->tail, l->size, "guard at the end");
    uint64_t want[16] = {0};
    CHECK(nctr <= 16);
    for (int t = 0; t < nthreads; t++) {
        want[c_data(t)] = ROUNDS;
        want[c_reply(&c, t)] = ROUNDS;
    }
    want[c_all(&c)] = (uint64_t)nthreads * ((ROUNDS + SUM_EVERY - 1) / SUM_EVERY);
    nt_expect_counters(c.w.win, nctr, want, "threads");
    CHECK_OK(orma_barrier());
    st_win_close(&c.w);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    thr_init(&rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    run(ST_ALLOCATE, 2);
    run(ST_CREATE_MALLOC, 4);
    run(ST_ALLOCATE, 4);
    nt_finish("nt_threads");
    return 0;
}
