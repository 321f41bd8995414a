/* sync_random.c -- long random sequences of epochs against a model.
 *
 * All ranks draw the same pseudo-random plan (same seed): for each epoch a
 * window (allocate, create on malloc'd memory, dynamic on orma_alloc_mem,
 * shared) and a kind -- fence (opened with or without a barrier, sometimes
 * chained into the next), PSCW with random origin/target pairs (sometimes
 * with NOCHECK, sometimes closed by test polling), lock with random targets
 * and lock types (all held at once in rank order, or one after the other),
 * lock_all (sometimes NOCHECK) with flushes.  Each window is cut into slots;
 * in an epoch a slot of a target is written by at most one origin allowed
 * to access that target, or stored into locally by its owner, or left
 * alone -- and only slots left alone are read with gets.  So no two
 * accesses conflict, and every rank can keep a model of every window.
 * Before a post or an opening fence an owner may also store into any slot
 * of its own: the epoch's puts must land after that store, its gets see
 * it.  PSCW targets check their window right after wait, before any
 * barrier could hide an origin that had not finished.
 * Gets are checked against the model, and after every epoch (but one a
 * chained fence keeps open) each rank checks its whole window; at the end
 * every rank reads every window.
 *
 * Usage: sync_random [epochs [seed]]. */
#include "sync_test.h"

enum { NSLOTS = 24, SLOT = 64, WSIZE = NSLOTS * SLOT, NWIN = 4, GUARD = 8, MAXR = 8 };
enum { E_FENCE, E_PSCW, E_LOCK, E_LOCK_ALL, NEPOCH_KINDS };
enum { OP_PUT, OP_GET };

static const char *const epoch_names[NEPOCH_KINDS] = {"fence", "PSCW", "lock", "lock_all"};
static const int win_kinds[NWIN] = {ST_ALLOCATE, ST_CREATE_MALLOC, ST_DYNAMIC_ALLOCMEM, ST_SHARED};

static int rank, nranks;
static uint64_t rng;

struct op {
    int kind, o, t;
    size_t at, len; /* byte offset in the target's window */
    unsigned seed;  /* puts */
    unsigned char *buf;
};

struct plan {
    int win, kind, variant;
    int acc[MAXR][MAXR];    /* origin may access target */
    int locktype[MAXR][MAXR];
    int ls_slot[MAXR];      /* local store of each owner, or -1 */
    size_t ls_at, ls_len[MAXR], ls_off[MAXR];
    unsigned ls_seed[MAXR];
    int pre_slot[MAXR];     /* slot stored by its owner before the epoch opens, or -1 */
    unsigned pre_seed[MAXR];
    struct op *ops;
    size_t nops;
};

static struct st_win wins[NWIN];
static unsigned char *model[NWIN][MAXR];
static int fence_open[NWIN];
static struct op *ops_pool;
static unsigned char *arena;
static size_t arena_size;

static unsigned rnd(unsigned n) { return st_rand_below(&rng, n); }

static void make_plan(struct plan *p, unsigned e)
{
    int state[MAXR][NSLOTS]; /* 0 free, 1 written, 2 stored locally */
    size_t used = 0;

    memset(state, 0, sizeof state);
    p->win = (int)rnd(NWIN);
    p->kind = (int)rnd(NEPOCH_KINDS);
    p->variant = (int)rnd(4);
    p->nops = 0;
    p->ops = ops_pool;
    for (int o = 0; o < nranks; o++)
        for (int t = 0; t < nranks; t++) {
            int all = p->kind == E_FENCE || p->kind == E_LOCK_ALL;
            p->acc[o][t] = all || rnd(2);
            p->locktype[o][t] = rnd(2) ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED;
        }
    /* Before a post or an opening fence the owner may store anywhere: the
     * epoch's puts must land after it and its gets must see it. */
    for (int t = 0; t < nranks; t++) {
        int pre_ok = p->kind == E_PSCW || (p->kind == E_FENCE && !fence_open[p->win]);
        p->pre_slot[t] = pre_ok && rnd(2) ? (int)rnd(NSLOTS) : -1;
        p->pre_seed[t] = e * 131u + 7u * (unsigned)t + 5u;
    }
    for (int t = 0; t < nranks; t++) {
        p->ls_slot[t] = -1;
        if (rnd(2)) {
            int s = (int)rnd(NSLOTS);
            p->ls_slot[t] = s;
            state[t][s] = 2;
            p->ls_off[t] = rnd(SLOT);
            p->ls_len[t] = 1 + rnd((unsigned)(SLOT - p->ls_off[t]));
            p->ls_seed[t] = e * 131u + 7u * (unsigned)t + 3u;
        }
    }
    for (int t = 0; t < nranks; t++)
        for (int s = 0; s < NSLOTS; s++) {
            int cand[MAXR], nc = 0;
            if (state[t][s] || rnd(3) != 0)
                continue;
            for (int o = 0; o < nranks; o++)
                if (p->acc[o][t])
                    cand[nc++] = o;
            if (nc == 0)
                continue;
            struct op *op = &p->ops[p->nops++];
            op->kind = OP_PUT;
            op->o = cand[rnd((unsigned)nc)];
            op->t = t;
            size_t off = rnd(SLOT);
            op->len = 1 + rnd((unsigned)(SLOT - off));
            op->at = (size_t)s * SLOT + off;
            op->seed = e * 977u + (unsigned)s * 13u + (unsigned)op->o;
            state[t][s] = 1;
        }
    for (int o = 0; o < nranks; o++) {
        unsigned nget = rnd(5);
        for (unsigned i = 0; i < nget; i++) {
            int t = (int)rnd((unsigned)nranks), s = (int)rnd(NSLOTS);
            if (!p->acc[o][t] || state[t][s])
                continue;
            struct op *op = &p->ops[p->nops++];
            size_t off = rnd(SLOT);
            op->kind = OP_GET;
            op->o = o;
            op->t = t;
            op->len = 1 + rnd((unsigned)(SLOT - off));
            op->at = (size_t)s * SLOT + off;
            op->seed = 0;
        }
    }
    /* Shuffle (the same at every rank): puts and gets to several targets
     * interleave. */
    for (size_t i = p->nops; i > 1; i--) {
        size_t j = rnd((unsigned)i);
        struct op tmp = p->ops[i - 1];
        p->ops[i - 1] = p->ops[j];
        p->ops[j] = tmp;
    }
    /* Buffers of this rank's operations, with guards around each. */
    for (size_t i = 0; i < p->nops; i++) {
        struct op *op = &p->ops[i];
        if (op->o != rank)
            continue;
        CHECK(used + op->len + 2 * GUARD <= arena_size);
        op->buf = arena + used + GUARD;
        used += op->len + 2 * GUARD;
        rt_fill_bg(op->buf - GUARD, op->len + 2 * GUARD);
        if (op->kind == OP_PUT)
            rt_fill_data(op->buf, op->len, op->seed, op->at);
    }
}

static void issue(const struct plan *p, const struct op *op)
{
    const struct st_win *w = &wins[p->win];
    orma_aint d = st_disp(w, op->t, op->at);
    if (op->kind == OP_PUT)
        CHECK_OK(orma_put(op->buf, op->len, ORMA_BYTE, op->t, d, op->len, ORMA_BYTE, w->win));
    else
        CHECK_OK(orma_get(op->buf, op->len, ORMA_BYTE, op->t, d, op->len, ORMA_BYTE, w->win));
}

static void issue_all(const struct plan *p, int only_target)
{
    for (size_t i = 0; i < p->nops; i++)
        if (p->ops[i].o == rank && (only_target < 0 || p->ops[i].t == only_target))
            issue(p, &p->ops[i]);
}

static void local_store(const struct plan *p)
{
    if (p->ls_slot[rank] < 0)
        return;
    size_t at = (size_t)p->ls_slot[rank] * SLOT + p->ls_off[rank];
    rt_fill_data(wins[p->win].mem + at, p->ls_len[rank], p->ls_seed[rank], at);
}

static void pre_store(const struct plan *p)
{
    if (p->pre_slot[rank] < 0)
        return;
    size_t at = (size_t)p->pre_slot[rank] * SLOT;
    rt_fill_data(wins[p->win].mem + at, SLOT, p->pre_seed[rank], at);
}

static orma_group group_from(orma_win win, const int *member)
{
    orma_group all = ORMA_GROUP_NULL, g = ORMA_GROUP_NULL;
    int ranks[MAXR], n = 0;
    for (int r = 0; r < nranks; r++)
        if (member[r])
            ranks[n++] = r;
    CHECK_OK(orma_win_get_group(win, &all));
    CHECK_OK(orma_group_incl(all, n, ranks, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

/* Close the fence epochs left open on other windows, or on this one
 * when this epoch is not a fence. */
static void close_fences(const struct plan *p)
{
    for (int k = 0; k < NWIN; k++)
        if (fence_open[k] && (k != p->win || p->kind != E_FENCE)) {
            CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, wins[k].win));
            fence_open[k] = 0;
        }
}

static void run_epoch(const struct plan *p)
{
    orma_win win = wins[p->win].win;

    close_fences(p);
    switch (p->kind) {
    case E_FENCE:
        pre_store(p);
        if (!fence_open[p->win])
            CHECK_OK(orma_win_fence(p->variant & 1 ? ORMA_MODE_NOPRECEDE : 0, win));
        local_store(p);
        issue_all(p, -1);
        /* Chain into the next epoch, or close for good. */
        fence_open[p->win] = (p->variant & 2) != 0;
        CHECK_OK(orma_win_fence(fence_open[p->win] ? 0 : ORMA_MODE_NOSUCCEED, win));
        return;
    case E_PSCW: {
        int origins[MAXR], targets[MAXR], nocheck = p->variant == 3;
        for (int r = 0; r < nranks; r++) {
            origins[r] = p->acc[r][rank];
            targets[r] = p->acc[rank][r];
        }
        orma_group go = group_from(win, origins), gt = group_from(win, targets);
        pre_store(p);
        CHECK_OK(orma_win_post(go, nocheck ? ORMA_MODE_NOCHECK : 0, win));
        if (nocheck)
            CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_start(gt, nocheck ? ORMA_MODE_NOCHECK : 0, win));
        local_store(p);
        issue_all(p, -1);
        CHECK_OK(orma_win_complete(win));
        if (p->variant == 1) {
            st_test_until_done(win);
        } else {
            CHECK_OK(orma_win_wait(win));
        }
        CHECK_OK(orma_group_free(&go));
        CHECK_OK(orma_group_free(&gt));
        /* Every origin of ours has completed: our window is final now,
         * before any barrier (apply_and_check looks at it). */
        return;
    }
    case E_LOCK:
        local_store(p);
        if (p->variant & 1) {
            /* All targets held at once, taken in rank order. */
            int nlocked = 0;
            for (int t = 0; t < nranks; t++)
                if (p->acc[rank][t]) {
                    CHECK_OK(orma_win_lock(p->locktype[rank][t], t, 0, win));
                    nlocked++;
                }
            issue_all(p, -1);
            if ((p->variant & 2) && nlocked) /* flush needs an open epoch */
                CHECK_OK(orma_win_flush_all(win));
            for (int t = nranks - 1; t >= 0; t--)
                if (p->acc[rank][t])
                    CHECK_OK(orma_win_unlock(t, win));
        } else {
            for (int t = 0; t < nranks; t++) {
                if (!p->acc[rank][t])
                    continue;
                CHECK_OK(orma_win_lock(p->locktype[rank][t], t, 0, win));
                issue_all(p, t);
                if (p->variant & 2)
                    CHECK_OK(orma_win_flush_local(t, win));
                CHECK_OK(orma_win_unlock(t, win));
            }
        }
        break;
    default:
        CHECK_OK(orma_win_lock_all(p->variant == 2 ? ORMA_MODE_NOCHECK : 0, win));
        local_store(p);
        for (size_t i = 0; i < p->nops; i++) {
            if (p->ops[i].o != rank)
                continue;
            issue(p, &p->ops[i]);
            if (p->variant == 1 && i % 3 == 0)
                CHECK_OK(orma_win_flush(p->ops[i].t, win));
        }
        if (p->variant == 3)
            CHECK_OK(orma_win_flush_local_all(win));
        CHECK_OK(orma_win_unlock_all(win));
        break;
    }
    /* Passive epochs end for each rank on its own: wait until all have,
     * so that our window is final and the next epoch may read what this
     * one wrote. */
    CHECK_OK(orma_barrier());
}

static void fail_epoch(unsigned e, uint64_t seed, const struct plan *p, const char *what,
                       int t, size_t at, unsigned got, unsigned want)
{
    fprintf(stderr, "rank %d: seed %llu, epoch %u (%s, variant %d, window %s): %s of rank %d: "
            "byte %zu is 0x%02x, expected 0x%02x\n", rank, (unsigned long long)seed, e,
            epoch_names[p->kind], p->variant, st_kind_names[win_kinds[p->win]], what, t, at,
            got, want);
    exit(1);
}

static void apply_and_check(const struct plan *p, unsigned e, uint64_t seed)
{
    unsigned char *m;

    for (int t = 0; t < nranks; t++)
        if (p->pre_slot[t] >= 0) {
            size_t at = (size_t)p->pre_slot[t] * SLOT;
            rt_fill_data(model[p->win][t] + at, SLOT, p->pre_seed[t], at);
        }
    /* Gets read slots nobody touched in this epoch: the model before it. */
    for (size_t i = 0; i < p->nops; i++) {
        const struct op *op = &p->ops[i];
        if (op->o != rank || op->kind != OP_GET)
            continue;
        m = model[p->win][op->t];
        for (size_t j = 0; j < op->len; j++)
            if (op->buf[j] != m[op->at + j])
                fail_epoch(e, seed, p, "get", op->t, op->at + j, op->buf[j], m[op->at + j]);
    }
    for (size_t i = 0; i < p->nops; i++) {
        const struct op *op = &p->ops[i];
        if (op->o != rank)
            continue;
        for (size_t j = 0; j < GUARD; j++)
            if (op->buf[-1 - (ptrdiff_t)j] != rt_bg(GUARD - 1 - j) ||
                op->buf[op->len + j] != rt_bg(GUARD + op->len + j))
                fail_epoch(e, seed, p, "guard of an origin buffer", op->t, op->at, 0, 0);
    }
    for (size_t i = 0; i < p->nops; i++) {
        const struct op *op = &p->ops[i];
        if (op->kind == OP_PUT)
            rt_fill_data(model[p->win][op->t] + op->at, op->len, op->seed, op->at);
    }
    for (int t = 0; t < nranks; t++)
        if (p->ls_slot[t] >= 0) {
            size_t at = (size_t)p->ls_slot[t] * SLOT + p->ls_off[t];
            rt_fill_data(model[p->win][t] + at, p->ls_len[t], p->ls_seed[t], at);
        }
    /* Our own window, every byte -- unless a chained fence left the epoch
     * open, when the next epoch's puts may already be arriving.  The
     * barrier keeps them away until the check is done. */
    if (fence_open[p->win])
        return;
    m = model[p->win][rank];
    for (size_t j = 0; j < WSIZE; j++)
        if (wins[p->win].mem[j] != m[j])
            fail_epoch(e, seed, p, "own window", rank, j, wins[p->win].mem[j], m[j]);
    /* (After PSCW this barrier also ends everybody's epoch, so that the
     * next may read what this one wrote.) */
    CHECK_OK(orma_barrier());
}

/* Every rank reads every window of every rank and compares with the model. */
static void final_check(uint64_t seed)
{
    unsigned char *buf = malloc(WSIZE);
    CHECK(buf != NULL);
    for (int k = 0; k < NWIN; k++) {
        if (fence_open[k])
            CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, wins[k].win));
        fence_open[k] = 0;
        for (int t = 0; t < nranks; t++) {
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, t, 0, wins[k].win));
            CHECK_OK(orma_get(buf, WSIZE, ORMA_BYTE, t, st_disp(&wins[k], t, 0), WSIZE, ORMA_BYTE,
                              wins[k].win));
            CHECK_OK(orma_win_unlock(t, wins[k].win));
            for (size_t j = 0; j < WSIZE; j++)
                if (buf[j] != model[k][t][j]) {
                    fprintf(stderr, "rank %d: seed %llu: final read of %s window of rank %d: byte "
                            "%zu is 0x%02x, expected 0x%02x\n", rank, (unsigned long long)seed,
                            st_kind_names[win_kinds[k]], t, j, buf[j], model[k][t][j]);
                    exit(1);
                }
        }
    }
    free(buf);
}

int main(int argc, char **argv)
{
    unsigned epochs = 1000;
    uint64_t seed = 20240611;
    struct plan p;

    rt_init(&argc, &argv, &rank, &nranks);
    if (argc > 1)
        epochs = (unsigned)strtoul(argv[1], NULL, 10);
    if (argc > 2)
        seed = strtoull(argv[2], NULL, 10);
    CHECK(nranks <= MAXR);
    rng = seed * 0x9E3779B97F4A7C15ull + 1;

    ops_pool = malloc((size_t)nranks * (NSLOTS + 8) * sizeof *ops_pool);
    arena_size = (size_t)nranks * (NSLOTS + 8) * (SLOT + 2 * GUARD);
    arena = malloc(arena_size);
    CHECK(ops_pool && arena);
    for (int k = 0; k < NWIN; k++) {
        st_win_open(&wins[k], win_kinds[k], WSIZE);
        rt_fill_bg(wins[k].mem, WSIZE);
        for (int t = 0; t < nranks; t++) {
            model[k][t] = malloc(WSIZE);
            CHECK(model[k][t] != NULL);
            rt_fill_bg(model[k][t], WSIZE);
        }
    }
    CHECK_OK(orma_barrier());

    for (unsigned e = 0; e < epochs; e++) {
        make_plan(&p, e);
        run_epoch(&p);
        apply_and_check(&p, e, seed);
    }
    final_check(seed);
    if (rank == 0)
        printf("%u epochs, seed %llu\n", epochs, (unsigned long long)seed);

    for (int k = 0; k < NWIN; k++) {
        st_win_close(&wins[k]);
        for (int t = 0; t < nranks; t++)
            free(model[k][t]);
    }
    free(ops_pool);
    free(arena);
    CHECK_OK(orma_finalize());
    return 0;
}
