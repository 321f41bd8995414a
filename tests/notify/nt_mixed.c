/* nt_mixed.c -- notified accumulates among plain ones: the order of
 * accumulates from one origin to one location holds across both kinds
 * (info accumulate_ordering is "rar,raw,war,waw" by default), although a
 * notified one goes at once while plain ones may wait in a queue, a box
 * or a gather for the epoch's end.
 *
 * In every epoch kind each rank adds 1 three times to a cell of its right
 * neighbour, replaces it with 100 notifying counter 0, adds 1, and adds 10
 * notifying counter 1.  When counter 0 has reached 1 the cell is 100 or
 * more (never 103: the three adds came first), when counter 1 has, 110 or
 * 111; after the epoch exactly 111.  A second cell gets the same with
 * every operation on four elements, so that larger accumulates take
 * their own paths.  Windows: allocate, and create on malloc'd memory
 * (boxes and gathers under ORMA_ADOPT=0). */
#include "nt_test.h"

enum { NELEM = 4, CELL1 = 64, CELL2 = 128, SIZE = 256 };

static int rank, nranks, rt, lt;
static int64_t ones[NELEM] = {1, 1, 1, 1}, hundreds[NELEM] = {100, 100, 100, 100},
               tens[NELEM] = {10, 10, 10, 10};

/* Every element of the cell at is one of the values allowed. */
static void cell_expect(const unsigned char *mem, size_t at, size_t n, const int64_t *allowed, size_t nallowed,
                        const char *what, const char *epoch)
{
    for (size_t i = 0; i < n; i++) {
        int64_t v;
        int ok = 0;
        memcpy(&v, mem + at + 8 * i, sizeof v);
        for (size_t k = 0; k < nallowed; k++)
            ok |= v == allowed[k];
        if (!ok) {
            fprintf(stderr, "rank %d: %s, %s: element %zu of the cell at %zu is %lld, expected %lld%s\n", rank,
                    what, epoch, i, at, (long long)v, (long long)allowed[0],
                    nallowed > 1 ? " or another of its set" : "");
            exit(1);
        }
    }
}

static const int64_t after_replace[] = {100, 101, 111}, after_last[] = {111, 110}, after_epoch[] = {111};
#define NOF(a) (sizeof (a) / sizeof (a)[0])

/* The sequence to rt's cell at, of n elements each. */
static void issue(const struct st_win *w, const struct nt_epoch *e, size_t at, size_t n, int first_id)
{
    orma_aint d = st_disp(w, rt, at);
    for (int k = 0; k < 3; k++)
        CHECK_OK(orma_accumulate(ones, n, ORMA_INT64, rt, d, n, ORMA_INT64, ORMA_SUM, w->win));
    CHECK_OK(orma_accumulate_notify(hundreds, n, ORMA_INT64, rt, d, n, ORMA_INT64, ORMA_REPLACE, w->win, first_id,
                                    ORMA_NOTIFY_ADD, 1));
    nt_epoch_push(e);
    CHECK_OK(orma_accumulate(ones, n, ORMA_INT64, rt, d, n, ORMA_INT64, ORMA_SUM, w->win));
    CHECK_OK(orma_accumulate_notify(tens, n, ORMA_INT64, rt, d, n, ORMA_INT64, ORMA_SUM, w->win, first_id + 1,
                                    ORMA_NOTIFY_ADD, 1));
    nt_epoch_push(e);
}

static void consume(const struct st_win *w, size_t at, size_t n, int first_id, const char *epoch)
{
    CHECK_OK(orma_notify_wait(w->win, first_id, 1));
    cell_expect(w->mem, at, n, after_replace, NOF(after_replace), "when the replace's counter has come",
                epoch);
    CHECK_OK(orma_notify_wait(w->win, first_id + 1, 1));
    cell_expect(w->mem, at, n, after_last, NOF(after_last), "when the last add's counter has come", epoch);
}

static void run(struct st_win *w, int kind)
{
    const char *en = nt_epoch_names[kind];
    struct nt_epoch e;
    nt_step("plain and notified accumulates, %s on %s", en, st_kind_names[w->kind]);
    rt_fill_bg(w->mem, SIZE);
    memset(w->mem + CELL1, 0, 8);
    memset(w->mem + CELL2, 0, 8 * NELEM);
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    nt_epoch_open(&e, kind, w->win, rt, lt);
    issue(w, &e, CELL1, 1, 0);
    issue(w, &e, CELL2, NELEM, 2);
    if (nt_epoch_early(&e)) {
        consume(w, CELL1, 1, 0, en);
        consume(w, CELL2, NELEM, 2, en);
    }
    nt_epoch_close(&e);
    if (!nt_epoch_early(&e)) {
        consume(w, CELL1, 1, 0, en);
        consume(w, CELL2, NELEM, 2, en);
    }
    CHECK_OK(orma_barrier());
    cell_expect(w->mem, CELL1, 1, after_epoch, 1, "after the epoch", en);
    cell_expect(w->mem, CELL2, NELEM, after_epoch, 1, "after the epoch", en);
    RT_EXPECT_BG(w->mem, 0, CELL1, "window before the cells");
    RT_EXPECT_BG(w->mem, CELL1 + 8, CELL2, "window between the cells");
    RT_EXPECT_BG(w->mem, CELL2 + 8 * NELEM, SIZE, "window after the cells");
    uint64_t want[4] = {1, 1, 1, 1};
    nt_expect_counters(w->win, 4, want, en);
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC};
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct st_win w;
        nt_win_open(&w, kinds[k], SIZE, 4, 1);
        for (int e = 0; e < NT_NEPOCHS; e++)
            run(&w, e);
        st_win_close(&w);
    }
    nt_finish("nt_mixed");
    return 0;
}
