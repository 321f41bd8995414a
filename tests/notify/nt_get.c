/* nt_get.c -- notified gets: the target's counter says its bytes have been
 * read, so it may write them over at once.
 *
 * Each rank serves its left neighbour: in round i it stores message i in
 * one buffer of its window and tells the neighbour so (a notified put of
 * no data); the neighbour reads it with orma_get_notify, which raises the
 * server's read counter -- orma_notify_test said it had not before -- and
 * the server writes message i + 1 over the buffer as soon as the counter
 * has reached i + 1.  The reader finds message i whole, after its flush
 * (passive epochs) or after the epoch (fence and PSCW, on shared memory):
 * had the counter been raised before the bytes were read, it would find
 * some of message i + 1.  Odd rounds read with derived types: every other
 * 16 bytes of the buffer (a vector at the target) into a contiguous run.
 * Sizes 8 bytes to 1 MiB; windows: allocate, create on malloc'd memory,
 * dynamic with an orma_alloc_mem region. */
#include "nt_test.h"

enum { GUARD = 64, MAXLEN = 1 << 20, BLOCK = 16 };
enum { C_READY, C_READ, NCTR };
static const size_t lens[] = {8, 4096, MAXLEN};
#define NLENS (sizeof lens / sizeof lens[0])

static int rank, nranks, rt, lt;
static unsigned char **got; /* got[i]: round i's result, between guards */
static int maxrounds;

static int rounds_of(size_t len)
{
    return len >= MAXLEN ? 6 : len >= 4096 ? 60 : 150;
}

static unsigned seed_of(size_t len, int i, int server)
{
    return (unsigned)len * 2246822519u ^ (unsigned)i * 3266489917u ^ (unsigned)server * 668265263u;
}

/* Round i reads with types when it is odd and the message has blocks. */
static int typed(size_t len, int i)
{
    return i % 2 && len >= 2 * BLOCK;
}

/* Store message i in our buffer and tell lt, whose reads have not come. */
static void publish(const struct st_win *w, int e, size_t len, int i)
{
    int flag = -1;
    rt_fill_data(w->mem + GUARD, len, seed_of(len, i, rank), 0);
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_notify_test(w->win, C_READ, (uint64_t)i + 1, &flag));
    CHECK(flag == 0);
    CHECK_OK(orma_put_notify(NULL, 0, ORMA_BYTE, lt, 0, 0, ORMA_BYTE, w->win, C_READY, ORMA_NOTIFY_ADD, 1));
    nt_pair_push(e, w->win, lt);
}

/* What round i brings: the whole message, or its even blocks packed. */
static void expect_result(size_t len, int i, const char *what)
{
    unsigned char *p = got[i];
    size_t n = typed(len, i) ? len / 2 : len;
    RT_EXPECT_BG(p, 0, GUARD, what);
    for (size_t k = 0; k < n; k++) {
        size_t from = typed(len, i) ? k / BLOCK * 2 * BLOCK + k % BLOCK : k;
        unsigned char want = rt_data(seed_of(len, i, rt), from);
        if (p[GUARD + k] != want)
            rt_fail(__FILE__, __LINE__, what, GUARD + k, p[GUARD + k], want);
    }
    RT_EXPECT_BG(p, GUARD + n, GUARD + len + GUARD, what);
}

static void fetch(const struct st_win *w, int e, size_t len, int i, orma_type vec)
{
    CHECK_OK(orma_notify_wait(w->win, C_READY, (uint64_t)i + 1));
    orma_aint at = st_disp(w, rt, GUARD);
    if (typed(len, i))
        CHECK_OK(orma_get_notify(got[i] + GUARD, len / 2, ORMA_BYTE, rt, at, 1, vec, w->win, C_READ, ORMA_NOTIFY_ADD,
                                 1));
    else
        CHECK_OK(orma_get_notify(got[i] + GUARD, len, ORMA_BYTE, rt, at, len, ORMA_BYTE, w->win, C_READ,
                                 ORMA_NOTIFY_ADD, 1));
    if (nt_pair_passive(e)) {
        CHECK_OK(orma_win_flush(rt, w->win));
        expect_result(len, i, "get after its flush");
    }
}

static void run(struct st_win *w, int e, size_t len)
{
    int rounds = rounds_of(len);
    orma_type vec = NULL;
    nt_step("gets, %s on %s, %zu bytes", nt_pair_names[e], st_kind_names[w->kind], len);
    CHECK(rounds <= maxrounds);
    if (len >= 2 * BLOCK) {
        CHECK_OK(orma_type_vector(len / (2 * BLOCK), BLOCK, 2 * BLOCK, ORMA_BYTE, &vec));
        CHECK_OK(orma_type_commit(&vec));
    }
    for (int i = 0; i < rounds; i++)
        rt_fill_bg(got[i], len + 2 * GUARD);
    rt_fill_bg(w->mem, w->size);
    CHECK_OK(orma_barrier());
    nt_pair_open(e, w->win, rt, lt);
    for (int i = 0; i < rounds; i++) {
        publish(w, e, len, i);
        fetch(w, e, len, i, vec);
        CHECK_OK(orma_notify_wait(w->win, C_READ, (uint64_t)i + 1));
        /* what lt read of it is not ours to keep: the next message
         * (or a last one nobody reads) goes over it now */
        if (i == rounds - 1)
            rt_fill_data(w->mem + GUARD, len, seed_of(len, rounds, rank), 0);
    }
    nt_pair_close(e, w->win, rt, lt);
    for (int i = 0; i < rounds; i++)
        expect_result(len, i, "get after the epoch");
    RT_EXPECT_BG(w->mem, 0, GUARD, "guard before the buffer");
    RT_EXPECT_BG(w->mem, GUARD + len, w->size, "window after the buffer");
    CHECK_OK(orma_barrier());
    uint64_t want[NCTR] = {(uint64_t)rounds, (uint64_t)rounds};
    nt_expect_counters(w->win, NCTR, want, "gets");
    if (vec)
        CHECK_OK(orma_type_free(&vec));
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    static const int kinds[] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_DYNAMIC_ALLOCMEM};
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    maxrounds = rounds_of(8);
    got = malloc((size_t)maxrounds * sizeof *got);
    CHECK(got != NULL);
    for (int i = 0; i < maxrounds; i++) {
        size_t room = (size_t)rounds_of(MAXLEN) > (size_t)i ? MAXLEN : 4096;
        got[i] = malloc(room + 2 * GUARD);
        CHECK(got[i] != NULL);
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        struct st_win w;
        nt_win_open(&w, kinds[k], MAXLEN + 2 * GUARD, NCTR, k != 1);
        for (int e = 0; e < NT_NPAIRS; e++)
            for (size_t l = 0; l < NLENS && nt_pair_runs(e); l++)
                run(&w, e, lens[l]);
        st_win_close(&w);
    }
    for (int i = 0; i < maxrounds; i++)
        free(got[i]);
    free(got);
    nt_finish("nt_get");
    return 0;
}
