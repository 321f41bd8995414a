/* acc_private.c -- small accumulates to memory the origins cannot map: a
 * window on a sub-page malloc'd block and one on memory orma never maps
 * (a shared anonymous mapping of the owner alone), beside allocate.  Such
 * accumulates may travel in the origin's box at the target and be applied
 * by the target, or taken back and applied by the origin (rma_box.h); both
 * must be atomic against each other and against every other accumulate,
 * each applied exactly once, in the order issued, their results right.
 *
 * Every rank, rank 0 too, updates rank 0 in one epoch: K accumulates SUM
 * to one counter, K fetch_and_ops SUM to another (the n*K values fetched
 * must be exactly 0 .. n*K-1, each rank's increasing), one compare_and_swap
 * to a slot (exactly one wins, the others read the winner), a BXOR of its
 * own bit, a chain of three get_accumulate REPLACE to a double of its own
 * (each result the value before: order and fetch), and rank 1 (or 0 alone)
 * a chain of long (300 bytes: not boxed) and short REPLACEs over the same
 * bytes, which must land in the order issued.  Epochs: fence, PSCW, shared
 * and exclusive locks, lock_all closed by flush, and lock_all while rank 0
 * only polls with orma_win_sync for the counters to arrive (the target
 * serving the boxes).  Rank 0 then checks its whole window, every byte no
 * operation names still the background. */
#include "rma_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { WBYTES = 512, K = 5, ROUNDS = 3 };
enum { O_ACC = 0, O_FOP = 8, O_CAS = 16, O_BX = 24, O_DBL = 32, O_LONG = 96, LONG_N = 75, O_END = 400 };
enum { K_ALLOCATE, K_SUBPAGE, K_PRIVATE, NKINDS };
enum { M_FENCE, M_PSCW, M_SHARED, M_EXCL, M_LOCK_ALL, M_POLLED, NMODES };
static const char *const kind_names[NKINDS] = {"allocate", "sub-page malloc", "never mapped"};
static const char *const mode_names[NMODES] = {"fence", "PSCW", "shared lock", "exclusive lock", "lock_all",
                                               "lock_all, target polling"};

static int rank, nranks;

struct win {
    orma_win win;
    unsigned char *mem;
    void *own;
};

static void win_open(struct win *w, int kind)
{
    memset(w, 0, sizeof *w);
    if (kind == K_ALLOCATE) {
        CHECK_OK(orma_win_allocate(WBYTES, 1, ORMA_INFO_NULL, (void **)&w->mem, &w->win));
        return;
    }
    if (kind == K_SUBPAGE) {
        w->own = malloc(WBYTES + 8);
        CHECK(w->own != NULL);
        w->mem = (unsigned char *)w->own + 8;
    } else {
        w->own = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        CHECK(w->own != MAP_FAILED);
        w->mem = w->own;
    }
    CHECK_OK(orma_win_create(w->mem, WBYTES, 1, ORMA_INFO_NULL, &w->win));
}

static void win_close(struct win *w, int kind)
{
    CHECK_OK(orma_win_free(&w->win));
    if (kind == K_SUBPAGE)
        free(w->own);
    else if (kind == K_PRIVATE)
        munmap(w->own, 4096);
}

static double dval(int round, int r, int i)
{
    return round * 1000.0 + r * 10.0 + i + 0.25;
}

/* The window before a round: the background, the counters 0, the doubles
 * -1.  Rank 0's memory, or the expected image. */
static void reset(unsigned char *m)
{
    rt_fill_bg(m, WBYTES);
    int64_t zero = 0;
    memcpy(m + O_ACC, &zero, 8);
    memcpy(m + O_FOP, &zero, 8);
    memcpy(m + O_CAS, &zero, 8);
    memcpy(m + O_BX, &zero, 4);
    for (int i = 0; i < 4; i++) {
        double d = -1.0;
        memcpy(m + O_DBL + 8 * i, &d, 8);
    }
}

struct res {
    int64_t fop[K];
    int64_t cas;
    double dbl[3];
};

/* This rank's updates of rank 0 (the epoch is open); polled: the
 * counters alone.  The origin buffers belong to the epoch until it
 * closes: static. */
static void updates(orma_win win, int round, int polled, struct res *res)
{
    static int64_t one = 1, mine, zero;
    static int32_t bit;
    for (int k = 0; k < K; k++) {
        CHECK_OK(orma_accumulate(&one, 1, ORMA_INT64, 0, O_ACC, 1, ORMA_INT64, ORMA_SUM, win));
        CHECK_OK(orma_fetch_and_op(&one, &res->fop[k], ORMA_INT64, 0, O_FOP, ORMA_SUM, win));
    }
    if (polled)
        return;
    mine = rank + 1;
    CHECK_OK(orma_compare_and_swap(&mine, &zero, &res->cas, ORMA_INT64, 0, O_CAS, win));
    bit = (int32_t)(1u << rank);
    CHECK_OK(orma_accumulate(&bit, 1, ORMA_INT32, 0, O_BX, 1, ORMA_INT32, ORMA_BXOR, win));
    static double v[3];
    for (int i = 0; i < 3; i++) {
        v[i] = dval(round, rank, i);
        CHECK_OK(orma_get_accumulate(&v[i], 1, ORMA_DOUBLE, &res->dbl[i], 1, ORMA_DOUBLE, 0, O_DBL + 8 * rank, 1,
                                     ORMA_DOUBLE, ORMA_REPLACE, win));
    }
    if (rank != 1 % nranks)
        return;
    static int32_t a[LONG_N], c[LONG_N], b[2], d;
    for (int i = 0; i < LONG_N; i++) {
        a[i] = round * 100000 + i;
        c[i] = -(round * 100000 + i);
    }
    b[0] = b[1] = 77;
    d = 99;
    CHECK_OK(orma_accumulate(a, LONG_N, ORMA_INT32, 0, O_LONG, LONG_N, ORMA_INT32, ORMA_REPLACE, win));
    CHECK_OK(orma_accumulate(b, 2, ORMA_INT32, 0, O_LONG, 2, ORMA_INT32, ORMA_REPLACE, win));
    CHECK_OK(orma_accumulate(c, LONG_N, ORMA_INT32, 0, O_LONG, LONG_N, ORMA_INT32, ORMA_REPLACE, win));
    CHECK_OK(orma_accumulate(&d, 1, ORMA_INT32, 0, O_LONG + 4, 1, ORMA_INT32, ORMA_REPLACE, win));
}

static void fail(int kind, int mode, int round, const char *what)
{
    fprintf(stderr, "rank %d: %s window, %s, round %d: %s\n", rank, kind_names[kind], mode_names[mode], round, what);
    exit(1);
}

static int cmp64(const void *a, const void *b)
{
    orma_aint x = *(const orma_aint *)a, y = *(const orma_aint *)b;
    return (x > y) - (x < y);
}

/* Rank 0, polled mode: wait with orma_win_sync until the others' counters
 * are all there. */
static void poll_counters(struct win *w, int64_t want)
{
    for (;;) {
        CHECK_OK(orma_win_sync(w->win));
        int64_t acc = __atomic_load_n((int64_t *)(void *)(w->mem + O_ACC), __ATOMIC_ACQUIRE);
        int64_t fop = __atomic_load_n((int64_t *)(void *)(w->mem + O_FOP), __ATOMIC_ACQUIRE);
        if (acc == want && fop == want)
            return;
    }
}

static void round_run(struct win *w, int kind, int mode, int round)
{
    int polled = mode == M_POLLED, active = !polled || rank != 0;
    int nact = polled ? nranks - 1 : nranks;
    struct res res;
    memset(&res, 0, sizeof res);
    if (rank == 0)
        reset(w->mem);
    CHECK_OK(orma_barrier());
    orma_group all = ORMA_GROUP_NULL, zero = ORMA_GROUP_NULL;
    int z = 0;
    switch (mode) {
    case M_FENCE:
        CHECK_OK(orma_win_fence(0, w->win));
        updates(w->win, round, 0, &res);
        CHECK_OK(orma_win_fence(0, w->win));
        break;
    case M_PSCW:
        CHECK_OK(orma_win_get_group(w->win, &all));
        CHECK_OK(orma_group_incl(all, 1, &z, &zero));
        if (rank == 0)
            CHECK_OK(orma_win_post(all, 0, w->win));
        CHECK_OK(orma_win_start(zero, 0, w->win));
        updates(w->win, round, 0, &res);
        CHECK_OK(orma_win_complete(w->win));
        if (rank == 0)
            CHECK_OK(orma_win_wait(w->win));
        CHECK_OK(orma_group_free(&all));
        CHECK_OK(orma_group_free(&zero));
        break;
    case M_SHARED:
    case M_EXCL:
        CHECK_OK(orma_win_lock(mode == M_EXCL ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, 0, 0, w->win));
        updates(w->win, round, 0, &res);
        CHECK_OK(orma_win_unlock(0, w->win));
        break;
    default:
        if (active) {
            CHECK_OK(orma_win_lock_all(0, w->win));
            updates(w->win, round, polled, &res);
            CHECK_OK(orma_win_flush(0, w->win));
            for (int k = 1; k < K; k++) /* flushed: the results are there */
                if (res.fop[k] <= res.fop[k - 1])
                    fail(kind, mode, round, "fetch_and_op results out of order after the flush");
            CHECK_OK(orma_win_unlock_all(w->win));
        } else {
            poll_counters(w, (int64_t)nact * K);
        }
        break;
    }
    CHECK_OK(orma_barrier());

    /* the fetched counters: n*K distinct values 0 .. n*K-1, ours rising */
    orma_aint mine[K + 1], *every = malloc(sizeof *every * (size_t)nranks * (K + 1));
    CHECK(every != NULL);
    for (int k = 0; k < K; k++)
        mine[k] = active ? (orma_aint)res.fop[k] : -1;
    mine[K] = active && !polled ? (orma_aint)res.cas : -1;
    for (int k = 1; k < K && active; k++)
        if (res.fop[k] <= res.fop[k - 1])
            fail(kind, mode, round, "fetch_and_op results out of order");
    rt_exchange_aint(mine, K + 1, every);
    orma_aint *fops = malloc(sizeof *fops * (size_t)nranks * K);
    CHECK(fops != NULL);
    int nf = 0, winners = 0;
    orma_aint winner = -1;
    for (int r = 0; r < nranks; r++) {
        for (int k = 0; k < K; k++)
            if (every[r * (K + 1) + k] >= 0)
                fops[nf++] = every[r * (K + 1) + k];
        if (!polled && every[r * (K + 1) + K] == 0) {
            winners++;
            winner = r;
        }
    }
    qsort(fops, (size_t)nf, sizeof *fops, cmp64);
    if (nf != nact * K)
        fail(kind, mode, round, "fetch_and_op results missing");
    for (int i = 0; i < nf; i++)
        if (fops[i] != i)
            fail(kind, mode, round, "fetch_and_op results are not 0 .. n*K-1 (an update lost or applied twice)");
    if (!polled) {
        if (winners != 1)
            fail(kind, mode, round, "compare_and_swap: not exactly one winner");
        if (res.cas != 0 && res.cas != winner + 1)
            fail(kind, mode, round, "compare_and_swap: a loser read something other than the winner's value");
        if (res.dbl[0] != -1.0 || res.dbl[1] != dval(round, rank, 0) || res.dbl[2] != dval(round, rank, 1))
            fail(kind, mode, round, "get_accumulate REPLACE chain: results are not the values before");
    }

    if (rank == 0) { /* the whole window */
        unsigned char want[WBYTES];
        reset(want);
        int64_t n = (int64_t)nact * K, cas = winner + 1;
        memcpy(want + O_ACC, &n, 8);
        memcpy(want + O_FOP, &n, 8);
        if (!polled) {
            memcpy(want + O_CAS, &cas, 8);
            int32_t bx = 0;
            for (int r = 0; r < nranks; r++)
                bx ^= (int32_t)(1u << r);
            memcpy(want + O_BX, &bx, 4);
            for (int r = 0; r < nranks; r++) {
                double d = dval(round, r, 2);
                memcpy(want + O_DBL + 8 * r, &d, 8);
            }
            for (int i = 0; i < LONG_N; i++) {
                int32_t c = i == 1 ? 99 : -(round * 100000 + i);
                memcpy(want + O_LONG + 4 * i, &c, 4);
            }
        }
        for (size_t i = 0; i < WBYTES; i++)
            if (w->mem[i] != want[i]) {
                char what[96];
                snprintf(what, sizeof what, "byte %zu of the window is 0x%02x, expected 0x%02x", i, w->mem[i],
                         want[i]);
                fail(kind, mode, round, what);
            }
    }
    free(every);
    free(fops);
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    /* These windows' partial pages must stay private, as the paths under
     * test need: a process of one thread would have them adopted too
     * (ORMA_ADOPT=2, shm_adopt.h).  A run that sets ORMA_ADOPT keeps it. */
    setenv("ORMA_ADOPT", "1", 0);
    rt_init(&argc, &argv, &rank, &nranks);
    CHECK(nranks <= 4);
    for (int kind = 0; kind < NKINDS; kind++)
        for (int mode = 0; mode < NMODES; mode++) {
            if (mode == M_POLLED && nranks == 1)
                continue;
            struct win w;
            win_open(&w, kind);
            for (int round = 0; round < ROUNDS; round++)
                round_run(&w, kind, mode, round);
            win_close(&w, kind);
        }
    CHECK_OK(orma_finalize());
    return 0;
}
