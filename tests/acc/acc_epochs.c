/* acc_epochs.c -- the accumulate family in every epoch kind, on every
 * window flavour.
 *
 * Small checks: a plan of accumulate, get_accumulate, fetch_and_op and
 * compare_and_swap calls on a few types (and one undefined pair and one
 * refused type, which must fail with ORMA_ERR_OP without disturbing the
 * epoch) runs against the right neighbour and against the rank itself;
 * a chain of REPLACE calls to one location must take effect in the order
 * issued (the default accumulate_ordering); and every rank adds to
 * counters at rank 0 (fetch_and_op and accumulate SUM), so that
 * concurrent updates of one location meet in every epoch kind.  Epoch
 * kinds: fence, PSCW, a shared or an exclusive lock per target, lock_all
 * closed by one of the flush calls (results checked after the flush,
 * before unlock_all).  Each target checks its whole window after the epoch.
 *
 * Large arrays: every rank adds 100000 doubles (SUM) and XORs 64 KiB of
 * int32 (BXOR) into one target under an exclusive lock (serialized), under
 * a shared lock and under lock_all (concurrent, element-wise atomic), and
 * in a fence epoch, with small updates (1 to 65 doubles, one int32) to
 * places inside the arrays before and after; the target checks every
 * element against the exact sum.  After the lock rounds another rank replaces the
 * doubles with get_accumulate REPLACE (exclusive) or reads the int32 with
 * get_accumulate NO_OP (shared) and checks what it got.
 *
 * Late target: in fence and PSCW epochs, calls queued for a target that
 * has not opened yet and calls made directly once it has must take effect
 * in the order issued.
 *
 * Race: single-element fetch_and_op and whole-run accumulates on the same
 * elements, at once from different ranks, for a fixed time; no update may
 * be lost. */
#include "acc_plan.h"

enum { M_FENCE, M_PSCW, M_LOCK_SHARED, M_LOCK_EXCL, M_LOCK_ALL, NMODES };
static const char *const mode_names[NMODES] = {"fence", "PSCW", "shared lock", "exclusive lock",
                                               "lock_all"};

enum { NDBL = 100000, NI32 = 65536 / 4, ROUNDS = 2 };

static int rank, nranks, rt, lt;

static struct at_step plan[] = {
    {AK_ACC, ORMA_TYPEID_INT32, ORMA_SUM, 7, 0, 0},
    {AK_GACC, ORMA_TYPEID_DOUBLE, ORMA_PROD, 5, 0, 0},
    {AK_FOP, ORMA_TYPEID_INT64, ORMA_SUM, 1, 0, 0},
    {AK_CAS, ORMA_TYPEID_UINT64, 0, 1, 1, 0},
    {AK_CAS, ORMA_TYPEID_INT32, 0, 1, 0, 0},
    {AK_GACC, ORMA_TYPEID_UINT16, ORMA_NO_OP, 3, 1, 0},
    {AK_ACC, ORMA_TYPEID_C_DOUBLE_COMPLEX, ORMA_REPLACE, 2, 0, 0},
    {AK_ACC, ORMA_TYPEID_DOUBLE_INT, ORMA_MAXLOC, 4, 0, 0},
    {AK_GACC, ORMA_TYPEID_SHORT_INT, ORMA_MINLOC, 4, 0, 0},
    {AK_FOP, ORMA_TYPEID_UINT8, ORMA_BXOR, 1, 0, 0},
    {AK_ACC, ORMA_TYPEID_C_BOOL, ORMA_LXOR, 3, 0, 0},
    {AK_FOP, ORMA_TYPEID_FLOAT, ORMA_MIN, 1, 0, 0},
    {AK_CAS, ORMA_TYPEID_INT8, 0, 1, 1, 0},
    {AK_GACC, ORMA_TYPEID_LONG_DOUBLE, ORMA_SUM, 2, 0, 0},
    {AK_ACC, ORMA_TYPEID_DOUBLE, ORMA_BAND, 2, 0, 0},
    {AK_CAS, ORMA_TYPEID_DOUBLE, 0, 1, 1, 0},
};
enum { NSTEPS = sizeof plan / sizeof plan[0] };

/* Window layout: two plan areas (0: from the left neighbour, 1: from this
 * rank), two ordering slots (same), the counters (used at rank 0), then
 * the large arrays. */
static size_t area_size;
static size_t ord_at(int a) { return 2 * area_size + 16 * (size_t)a; }
static size_t cnt_at(void) { return 2 * area_size + 32; }  /* int64 */
static size_t cnt4_at(void) { return 2 * area_size + 48; } /* int32[4] */
static size_t big_at(void) { return at_round16(2 * area_size + 64) + 64; }
static size_t bigi_at(void) { return big_at() + NDBL * sizeof(double) + 64; }
static size_t win_size(void) { return bigi_at() + NI32 * sizeof(int32_t) + 64; }

static uint32_t tseed(int r, int a, unsigned e) { return at_mix(5000u + (uint32_t)r, e * 4u + (uint32_t)a); }
static uint32_t oseed(int r, int a, unsigned e) { return at_mix(6000u + (uint32_t)r, e * 4u + (uint32_t)a); }
static int64_t ord_val(int o, unsigned e, int k)
{
    return (int64_t)(e * 1000u + (unsigned)o * 10u + (unsigned)k) * -7;
}
static int64_t cnt_init(unsigned e) { return INT64_C(1) << 40 | e; }
static int32_t cnt4_init(unsigned e, int j) { return (int32_t)(e * 100u) - j; }

/* Buffers of the origin side of one epoch; they belong to the epoch until
 * it is closed (or flushed). */
struct side {
    unsigned char *obuf[2], *cbuf[2], *rbuf[2];
    int64_t ord_src[2][3], ord_res[2][2];
    int64_t cnt_add, cnt_res;
    int32_t cnt4_add[4];
};

static void issue_to(struct st_win *w, struct side *sd, int t, const char *what)
{
    const int target[2] = {rt, rank};
    for (int a = 0; a < 2; a++) {
        if (target[a] != t)
            continue;
        at_plan_issue(plan, NSTEPS, sd->obuf[a], sd->cbuf[a], sd->rbuf[a], t,
                      st_disp(w, t, (size_t)a * area_size), 1, w->win, NULL, what);
        /* REPLACE, REPLACE, get_accumulate REPLACE, fetch NO_OP: each sees
         * the one before. */
        orma_aint d = st_disp(w, t, ord_at(a));
        CHECK_OK(orma_accumulate(&sd->ord_src[a][0], 1, ORMA_INT64, t, d, 1, ORMA_INT64, ORMA_REPLACE,
                                 w->win));
        CHECK_OK(orma_accumulate(&sd->ord_src[a][1], 1, ORMA_INT64, t, d, 1, ORMA_INT64, ORMA_REPLACE,
                                 w->win));
        CHECK_OK(orma_get_accumulate(&sd->ord_src[a][2], 1, ORMA_INT64, &sd->ord_res[a][0], 1, ORMA_INT64,
                                     t, d, 1, ORMA_INT64, ORMA_REPLACE, w->win));
        CHECK_OK(orma_fetch_and_op(NULL, &sd->ord_res[a][1], ORMA_INT64, t, d, ORMA_NO_OP, w->win));
    }
    if (t == 0) {
        CHECK_OK(orma_fetch_and_op(&sd->cnt_add, &sd->cnt_res, ORMA_INT64, 0, st_disp(w, 0, cnt_at()),
                                   ORMA_SUM, w->win));
        CHECK_OK(orma_accumulate(sd->cnt4_add, 4, ORMA_INT32, 0, st_disp(w, 0, cnt4_at()), 4, ORMA_INT32,
                                 ORMA_SUM, w->win));
    }
}

/* What the origin must have got back once its operations completed. */
static void check_side(struct side *sd, unsigned e, const char *what)
{
    const int target[2] = {rt, rank};
    int64_t total = (int64_t)nranks * (nranks + 1) / 2;
    for (int a = 0; a < 2; a++) {
        at_plan_expect_results(sd->rbuf[a], area_size, plan, NSTEPS, tseed(target[a], a, e), what);
        at_plan_expect_origin(sd->obuf[a], plan, NSTEPS, oseed(rank, a, e), what);
        if (sd->ord_res[a][0] != ord_val(rank, e, 1) || sd->ord_res[a][1] != ord_val(rank, e, 2)) {
            fprintf(stderr, "rank %d: %s: ordered REPLACE chain to rank %d returned %lld, %lld; "
                    "expected %lld, %lld\n", rank, what, target[a], (long long)sd->ord_res[a][0],
                    (long long)sd->ord_res[a][1], (long long)ord_val(rank, e, 1),
                    (long long)ord_val(rank, e, 2));
            exit(1);
        }
    }
    /* Our own addition is not in what we fetched; the others' may be. */
    CHECK(sd->cnt_res >= cnt_init(e) && sd->cnt_res <= cnt_init(e) + total - sd->cnt_add);
}

static orma_group group_of(orma_win win, const int *want, int n)
{
    orma_group all = ORMA_GROUP_NULL, g = ORMA_GROUP_NULL;
    int ranks[8], k = 0;
    CHECK(n <= 8);
    /* Ascending, without duplicates. */
    for (int r = 0; r < nranks; r++)
        for (int i = 0; i < n; i++)
            if (want[i] == r) {
                ranks[k++] = r;
                break;
            }
    CHECK_OK(orma_win_get_group(win, &all));
    CHECK_OK(orma_group_incl(all, k, ranks, &g));
    CHECK_OK(orma_group_free(&all));
    return g;
}

static int is_target(int r) { return r == rt || r == rank || r == 0; }

static void small_epoch(struct st_win *w, int mode, unsigned e)
{
    struct side sd;
    char what[128];
    const int target[2] = {rt, rank};

    snprintf(what, sizeof what, "%s on %s, epoch %u", mode_names[mode], st_kind_names[w->kind], e);
    for (int a = 0; a < 2; a++) {
        unsigned char *area = w->mem + (size_t)a * area_size;
        int64_t v = ord_val(-1, e, a);
        rt_fill_bg(area, area_size);
        at_plan_init(area, plan, NSTEPS, tseed(rank, a, e));
        memcpy(w->mem + ord_at(a), &v, sizeof v);
        sd.obuf[a] = malloc(area_size);
        sd.cbuf[a] = malloc(area_size);
        sd.rbuf[a] = malloc(area_size);
        CHECK(sd.obuf[a] && sd.cbuf[a] && sd.rbuf[a]);
        rt_fill_bg(sd.obuf[a], area_size);
        rt_fill_bg(sd.cbuf[a], area_size);
        rt_fill_bg(sd.rbuf[a], area_size);
        at_plan_origin(sd.obuf[a], sd.cbuf[a], plan, NSTEPS, oseed(rank, a, e), tseed(target[a], a, e));
        for (int k = 0; k < 3; k++)
            sd.ord_src[a][k] = ord_val(rank, e, k);
        sd.ord_res[a][0] = sd.ord_res[a][1] = 0;
    }
    {
        int64_t c = cnt_init(e);
        memcpy(w->mem + cnt_at(), &c, sizeof c);
        for (int j = 0; j < 4; j++) {
            int32_t c4 = cnt4_init(e, j);
            memcpy(w->mem + cnt4_at() + 4 * (size_t)j, &c4, sizeof c4);
            sd.cnt4_add[j] = (rank + 1) * (j + 1);
        }
        sd.cnt_add = rank + 1;
        sd.cnt_res = -1;
    }

    switch (mode) {
    case M_FENCE:
        CHECK_OK(orma_win_fence(e % 2 ? ORMA_MODE_NOPRECEDE : 0, w->win));
        for (int t = 0; t < nranks; t++)
            if (is_target(t))
                issue_to(w, &sd, t, what);
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));
        break;
    case M_PSCW: {
        /* Exposed to the left neighbour, itself, and (rank 0) everyone;
         * accessing the right neighbour, itself and rank 0. */
        int exp_ranks[3] = {lt, rank, rank == 0 ? -1 : lt}, acc_ranks[3] = {rt, rank, 0};
        orma_group ge, ga;
        if (rank == 0) {
            orma_group all = ORMA_GROUP_NULL;
            CHECK_OK(orma_win_get_group(w->win, &all));
            ge = all;
        } else {
            ge = group_of(w->win, exp_ranks, 3);
        }
        ga = group_of(w->win, acc_ranks, 3);
        CHECK_OK(orma_win_post(ge, 0, w->win));
        CHECK_OK(orma_win_start(ga, 0, w->win));
        for (int t = 0; t < nranks; t++)
            if (is_target(t))
                issue_to(w, &sd, t, what);
        CHECK_OK(orma_win_complete(w->win));
        CHECK_OK(orma_win_wait(w->win));
        CHECK_OK(orma_group_free(&ge));
        CHECK_OK(orma_group_free(&ga));
        break;
    }
    case M_LOCK_SHARED:
    case M_LOCK_EXCL:
        CHECK_OK(orma_barrier()); /* every target is initialized */
        for (int t = 0; t < nranks; t++) {
            if (!is_target(t))
                continue;
            CHECK_OK(orma_win_lock(mode == M_LOCK_EXCL ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, t, 0,
                                   w->win));
            issue_to(w, &sd, t, what);
            CHECK_OK(orma_win_unlock(t, w->win));
        }
        break;
    default:
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock_all(0, w->win));
        for (int t = 0; t < nranks; t++)
            if (is_target(t))
                issue_to(w, &sd, t, what);
        /* The results must be there after the flush, before unlock_all. */
        switch (e % 4) {
        case 0:
            for (int t = 0; t < nranks; t++)
                if (is_target(t))
                    CHECK_OK(orma_win_flush(t, w->win));
            break;
        case 1: CHECK_OK(orma_win_flush_all(w->win)); break;
        case 2:
            for (int t = 0; t < nranks; t++)
                if (is_target(t))
                    CHECK_OK(orma_win_flush_local(t, w->win));
            break;
        default: CHECK_OK(orma_win_flush_local_all(w->win)); break;
        }
        check_side(&sd, e, what);
        CHECK_OK(orma_win_unlock_all(w->win));
        break;
    }
    check_side(&sd, e, what);
    CHECK_OK(orma_barrier()); /* every epoch to this rank is closed */
    CHECK_OK(orma_win_sync(w->win));

    for (int a = 0; a < 2; a++) {
        int64_t v;
        at_plan_expect_target(w->mem + (size_t)a * area_size, area_size, plan, NSTEPS, tseed(rank, a, e),
                              oseed(a ? rank : lt, a, e), what);
        memcpy(&v, w->mem + ord_at(a), sizeof v);
        if (v != ord_val(a ? rank : lt, e, 2)) {
            fprintf(stderr, "rank %d: %s: ordered REPLACE chain left %lld in area %d, expected %lld\n", rank,
                    what, (long long)v, a, (long long)ord_val(a ? rank : lt, e, 2));
            exit(1);
        }
    }
    if (rank == 0) {
        int64_t c;
        int64_t total = (int64_t)nranks * (nranks + 1) / 2;
        memcpy(&c, w->mem + cnt_at(), sizeof c);
        CHECK(c == cnt_init(e) + total);
        for (int j = 0; j < 4; j++) {
            int32_t c4;
            memcpy(&c4, w->mem + cnt4_at() + 4 * (size_t)j, sizeof c4);
            CHECK(c4 == cnt4_init(e, j) + (int32_t)total * (j + 1));
        }
    }
    for (int a = 0; a < 2; a++) {
        free(sd.obuf[a]);
        free(sd.cbuf[a]);
        free(sd.rbuf[a]);
    }
    CHECK_OK(orma_barrier()); /* nobody re-initializes a window still being checked */
}

/* A late target: odd ranks open their epoch (fence or post) at once and
 * issue a first REPLACE and SUM to their right neighbour, which (even)
 * sleeps before opening, so these are queued; once the neighbour's flag
 * says it has opened, the next calls go straight to its memory -- and must
 * still take effect after the queued ones. */
static struct st_flags fl;

static void late_target(struct st_win *w, int pscw, unsigned e)
{
    int late = nranks > 1 && rank % 2 == 0;
    int64_t v[3] = {ord_val(rank, e, 0), ord_val(rank, e, 1), ord_val(rank, e, 2)};
    int64_t add[2] = {rank + 1, 100 * (rank + 1)}, res[2] = {0, 0}, init[2] = {-5, 7};
    orma_aint d0 = st_disp(w, rt, ord_at(0)), d1 = st_disp(w, rt, ord_at(1));
    orma_group gpost = ORMA_GROUP_NULL, gstart = ORMA_GROUP_NULL;
    char what[96];

    snprintf(what, sizeof what, "late target, %s on %s", pscw ? "PSCW" : "fence", st_kind_names[w->kind]);
    memcpy(w->mem + ord_at(0), &init[0], sizeof init[0]);
    memcpy(w->mem + ord_at(1), &init[1], sizeof init[1]);
    if (pscw) {
        gpost = group_of(w->win, &lt, 1);
        gstart = group_of(w->win, &rt, 1);
    }
    CHECK_OK(orma_barrier());
    if (late)
        st_sleep_ms(30);
    if (pscw) {
        CHECK_OK(orma_win_post(gpost, 0, w->win));
        CHECK_OK(orma_win_start(gstart, 0, w->win));
    } else {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, w->win));
    }
    atomic_store(st_flag(&fl, rank, 0), e);

    CHECK_OK(orma_accumulate(&v[0], 1, ORMA_INT64, rt, d0, 1, ORMA_INT64, ORMA_REPLACE, w->win));
    CHECK_OK(orma_accumulate(&add[0], 1, ORMA_INT64, rt, d1, 1, ORMA_INT64, ORMA_SUM, w->win));
    ST_WAIT_FLAG(st_flag(&fl, rt, 0), e, "the neighbour's epoch");
    CHECK_OK(orma_accumulate(&v[1], 1, ORMA_INT64, rt, d0, 1, ORMA_INT64, ORMA_REPLACE, w->win));
    CHECK_OK(orma_get_accumulate(&v[2], 1, ORMA_INT64, &res[0], 1, ORMA_INT64, rt, d0, 1, ORMA_INT64,
                                 ORMA_REPLACE, w->win));
    CHECK_OK(orma_fetch_and_op(&add[1], &res[1], ORMA_INT64, rt, d1, ORMA_SUM, w->win));

    if (pscw) {
        CHECK_OK(orma_win_complete(w->win));
        CHECK_OK(orma_win_wait(w->win));
        CHECK_OK(orma_group_free(&gpost));
        CHECK_OK(orma_group_free(&gstart));
    } else {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));
    }
    if (res[0] != v[1] || res[1] != init[1] + add[0]) {
        fprintf(stderr, "rank %d: %s: got %lld and %lld back, expected %lld and %lld\n", rank, what,
                (long long)res[0], (long long)res[1], (long long)v[1], (long long)(init[1] + add[0]));
        exit(1);
    }
    {
        int64_t got0, got1, want0 = ord_val(lt, e, 2), want1 = init[1] + 101 * (lt + 1);
        memcpy(&got0, w->mem + ord_at(0), sizeof got0);
        memcpy(&got1, w->mem + ord_at(1), sizeof got1);
        if (got0 != want0 || got1 != want1) {
            fprintf(stderr, "rank %d: %s: window holds %lld and %lld, expected %lld and %lld\n", rank, what,
                    (long long)got0, (long long)got1, (long long)want0, (long long)want1);
            exit(1);
        }
    }
    CHECK_OK(orma_barrier());
}

/* Large arrays: values are integers (exact sums in any order). */
static double big_base(size_t i, unsigned e) { return (double)(i % 1000) - 500.0 + e; }
static double big_add(size_t i, int r, unsigned e) { return (double)((i * 7 + (size_t)r * 13 + e) % 512) - 100.0; }
static double big_new(size_t i, unsigned e) { return (double)(i % 777) * 2.0 - (double)e; }
static int32_t bigi_base(size_t i, unsigned e) { return (int32_t)at_mix((uint32_t)i, e); }
static int32_t bigi_add(size_t i, int r, unsigned e)
{
    return (int32_t)at_mix((uint32_t)i ^ 0x5bd1e995u, e * 64u + (unsigned)r);
}

/* Small updates inside the large arrays: SMALL of them per rank, of 1 to
 * 65 doubles (SUM: up to and just past 512 bytes, some across a 4 KiB
 * boundary) and one int32 (fetch_and_op BXOR) each, at places that depend
 * on the rank and overlap the other ranks' large updates.  A library that
 * takes a different path for small updates (hardware atomics) than for
 * large ones (locks and plain loops) must keep the two apart. */
enum { SMALL = 50, SMALL_LEN = 65 };
static int small_len(int k)
{
    static const int lens[] = {8, 1, 64, 65, 31, 2};
    return lens[k % 6];
}
static size_t small_pos(int r, int k, unsigned e)
{
    return ((size_t)k * 7919 + (size_t)r * 104729 + e * 13) % (NDBL - SMALL_LEN);
}
static double small_val(int r, int k, int j) { return (double)((r * 31 + k * 7 + j) % 50 - 20); }
static size_t smalli_pos(int r, int k, unsigned e) { return ((size_t)k * 331 + (size_t)r * 7 + e) % NI32; }
static int32_t smalli_val(int r, int k, unsigned e)
{
    return (int32_t)at_mix((uint32_t)(r * 1000 + k), e ^ 0xabcu);
}

enum { B_EXCL, B_SHARED, B_LOCK_ALL, B_FENCE, NBIG };
static const char *const big_names[NBIG] = {"exclusive lock", "shared lock", "lock_all", "fence"};

static void small_updates(struct st_win *w, int T, unsigned e, int from, int to, double *vals, int32_t *ivals,
                          int32_t *ires)
{
    for (int k = from; k < to; k++) {
        size_t n = (size_t)small_len(k);
        for (size_t j = 0; j < n; j++)
            vals[k * SMALL_LEN + (int)j] = small_val(rank, k, (int)j);
        ivals[k] = smalli_val(rank, k, e);
        CHECK_OK(orma_accumulate(vals + k * SMALL_LEN, n, ORMA_DOUBLE, T,
                                 st_disp(w, T, big_at() + small_pos(rank, k, e) * sizeof(double)), n, ORMA_DOUBLE,
                                 ORMA_SUM, w->win));
        CHECK_OK(orma_fetch_and_op(&ivals[k], &ires[k], ORMA_INT32, T,
                                   st_disp(w, T, bigi_at() + smalli_pos(rank, k, e) * sizeof(int32_t)), ORMA_BXOR,
                                   w->win));
    }
}

static void big_round(struct st_win *w, int mode, unsigned e)
{
    int T = (int)(e % (unsigned)nranks), reader = (T + 1) % nranks;
    int excl = mode == B_EXCL;
    int lock_type = excl ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED;
    double *add = malloc(NDBL * sizeof *add), *got = NULL, *vals = malloc(SMALL * SMALL_LEN * sizeof *vals);
    int32_t *addi = malloc(NI32 * sizeof *addi), ivals[SMALL], ires[SMALL];
    char what[128];

    snprintf(what, sizeof what, "large arrays, %s on %s", big_names[mode], st_kind_names[w->kind]);
    CHECK(add && addi && vals);
    if (rank == T) {
        rt_fill_bg(w->mem + big_at() - 64, 64);
        for (size_t i = 0; i < NDBL; i++) {
            double v = big_base(i, e);
            memcpy(w->mem + big_at() + i * sizeof v, &v, sizeof v);
        }
        for (size_t i = 0; i < NI32; i++) {
            int32_t v = bigi_base(i, e);
            memcpy(w->mem + bigi_at() + i * sizeof v, &v, sizeof v);
        }
    }
    for (size_t i = 0; i < NDBL; i++)
        add[i] = big_add(i, rank, e);
    for (size_t i = 0; i < NI32; i++)
        addi[i] = bigi_add(i, rank, e);
    CHECK_OK(orma_barrier());
    switch (mode) {
    case B_EXCL:
    case B_SHARED: CHECK_OK(orma_win_lock(lock_type, T, 0, w->win)); break;
    case B_LOCK_ALL: CHECK_OK(orma_win_lock_all(0, w->win)); break;
    default: CHECK_OK(orma_win_fence(0, w->win)); break;
    }
    small_updates(w, T, e, 0, SMALL / 2, vals, ivals, ires);
    CHECK_OK(orma_accumulate(add, NDBL, ORMA_DOUBLE, T, st_disp(w, T, big_at()), NDBL, ORMA_DOUBLE, ORMA_SUM,
                             w->win));
    CHECK_OK(orma_accumulate(addi, NI32, ORMA_INT32, T, st_disp(w, T, bigi_at()), NI32, ORMA_INT32, ORMA_BXOR,
                             w->win));
    small_updates(w, T, e, SMALL / 2, SMALL, vals, ivals, ires);
    switch (mode) {
    case B_EXCL:
    case B_SHARED: CHECK_OK(orma_win_unlock(T, w->win)); break;
    case B_LOCK_ALL: CHECK_OK(orma_win_unlock_all(w->win)); break;
    default: CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win)); break;
    }
    CHECK_OK(orma_barrier());

    if (rank == T) {
        double *want = malloc(NDBL * sizeof *want);
        int32_t *wanti = malloc(NI32 * sizeof *wanti);
        CHECK(want && wanti);
        for (size_t i = 0; i < NDBL; i++) {
            want[i] = big_base(i, e);
            for (int r = 0; r < nranks; r++)
                want[i] += big_add(i, r, e);
        }
        for (size_t i = 0; i < NI32; i++) {
            wanti[i] = bigi_base(i, e);
            for (int r = 0; r < nranks; r++)
                wanti[i] ^= bigi_add(i, r, e);
        }
        for (int r = 0; r < nranks; r++)
            for (int k = 0; k < SMALL; k++) {
                for (int j = 0; j < small_len(k); j++)
                    want[small_pos(r, k, e) + (size_t)j] += small_val(r, k, j);
                wanti[smalli_pos(r, k, e)] ^= smalli_val(r, k, e);
            }
        CHECK_OK(orma_win_sync(w->win));
        for (size_t i = 0; i < NDBL; i++) {
            double v;
            memcpy(&v, w->mem + big_at() + i * sizeof v, sizeof v);
            if (v != want[i]) {
                fprintf(stderr, "rank %d: %s: double %zu is %g, expected %g\n", rank, what, i, v, want[i]);
                exit(1);
            }
        }
        for (size_t i = 0; i < NI32; i++) {
            int32_t v;
            memcpy(&v, w->mem + bigi_at() + i * sizeof v, sizeof v);
            if (v != wanti[i]) {
                fprintf(stderr, "rank %d: %s: int32 %zu is 0x%x, expected 0x%x\n", rank, what, i,
                        (unsigned)v, (unsigned)wanti[i]);
                exit(1);
            }
        }
        /* The guards around the arrays. */
        RT_EXPECT_BG(w->mem + big_at() - 64, 0, 64, what);
        free(want);
        free(wanti);
    }
    CHECK_OK(orma_barrier());

    /* One rank reads the result back through the accumulate family. */
    if (rank == reader && (mode == B_EXCL || mode == B_SHARED)) {
        got = malloc((excl ? NDBL * sizeof(double) : NI32 * sizeof(int32_t)) + 64);
        CHECK(got != NULL);
        CHECK_OK(orma_win_lock(lock_type, T, 0, w->win));
        if (excl) {
            for (size_t i = 0; i < NDBL; i++)
                add[i] = big_new(i, e);
            CHECK_OK(orma_get_accumulate(add, NDBL, ORMA_DOUBLE, got, NDBL, ORMA_DOUBLE, T,
                                         st_disp(w, T, big_at()), NDBL, ORMA_DOUBLE, ORMA_REPLACE, w->win));
        } else {
            CHECK_OK(orma_get_accumulate(NULL, 0, ORMA_INT32, got, NI32, ORMA_INT32, T,
                                         st_disp(w, T, bigi_at()), NI32, ORMA_INT32, ORMA_NO_OP, w->win));
        }
        CHECK_OK(orma_win_unlock(T, w->win));
        /* Compare with the target's memory, which nobody changes now
         * (the target checked it above). */
        if (excl) {
            for (size_t i = 0; i < NDBL; i++) {
                double want = big_base(i, e);
                for (int r = 0; r < nranks; r++)
                    want += big_add(i, r, e);
                for (int r = 0; r < nranks; r++)
                    for (int k = 0; k < SMALL; k++)
                        if (i >= small_pos(r, k, e) && i < small_pos(r, k, e) + (size_t)small_len(k))
                            want += small_val(r, k, (int)(i - small_pos(r, k, e)));
                if (got[i] != want) {
                    fprintf(stderr, "rank %d: %s: get_accumulate REPLACE returned %g at %zu, expected %g\n",
                            rank, what, got[i], i, want);
                    exit(1);
                }
            }
        } else {
            const int32_t *gi = (const int32_t *)(void *)got;
            for (size_t i = 0; i < NI32; i++) {
                int32_t want = bigi_base(i, e);
                for (int r = 0; r < nranks; r++)
                    want ^= bigi_add(i, r, e);
                for (int r = 0; r < nranks; r++)
                    for (int k = 0; k < SMALL; k++)
                        if (smalli_pos(r, k, e) == i)
                            want ^= smalli_val(r, k, e);
                if (gi[i] != want) {
                    fprintf(stderr, "rank %d: %s: get_accumulate NO_OP returned 0x%x at %zu, expected 0x%x\n",
                            rank, what, (unsigned)gi[i], i, (unsigned)want);
                    exit(1);
                }
            }
        }
        free(got);
    }
    CHECK_OK(orma_barrier());
    if (rank == T && excl) {
        for (size_t i = 0; i < NDBL; i++) {
            double v;
            memcpy(&v, w->mem + big_at() + i * sizeof v, sizeof v);
            if (v != big_new(i, e)) {
                fprintf(stderr, "rank %d: %s: double %zu is %g after REPLACE, expected %g\n", rank, what, i, v,
                        big_new(i, e));
                exit(1);
            }
        }
    }
    CHECK_OK(orma_barrier());
    free(add);
    free(addi);
    free(vals);
}

/* A race of the two ways of updating one element: for RACE_MS, even
 * ranks fetch_and_op +1 on a few elements of a run at rank 0 (single
 * elements: hardware atomics where the memory is mapped) while odd ranks
 * add 1 to the whole run again and again (8 KiB: locks and plain loops),
 * all under lock_all.  Each rank counts what it did and adds its counts
 * to a tally at rank 0; every element must equal exactly the updates
 * made to it.  At one rank the rank does both, in turn.  The sweepers'
 * origin buffer is misaligned on purpose: a library that copies such a run
 * through an aligned buffer holds it for microseconds between reading the
 * target and writing it back, long enough for a lost update to show. */
enum { RACE_LEN = 1024, RACE_HOT = 8, RACE_MS = 30 };
static size_t race_hot(int j) { return (size_t)j * (RACE_LEN / RACE_HOT) + (size_t)j * 3 + 1; }

static void race(struct st_win *w)
{
    unsigned char *raw = malloc(RACE_LEN * sizeof(int64_t) + 1), *ones = raw + 1;
    int64_t counts[RACE_HOT + 1] = {0}, one = 1, old = 0;
    int hammer = rank % 2 == 0, sweeper = rank % 2 == 1 || nranks == 1;
    char what[64];

    snprintf(what, sizeof what, "race of atomic and plain updates on %s", st_kind_names[w->kind]);
    CHECK(raw != NULL);
    for (int i = 0; i < RACE_LEN; i++)
        memcpy(ones + (size_t)i * sizeof one, &one, sizeof one);
    if (rank == 0) {
        memset(w->mem + big_at(), 0, RACE_LEN * sizeof(int64_t));
        memset(w->mem + bigi_at(), 0, (RACE_HOT + 1) * sizeof(int64_t));
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    {
        double t0 = orma_wtime();
        for (unsigned k = 0; orma_wtime() - t0 < RACE_MS / 1000.0; k++) {
            if (hammer) {
                int j = (int)(k % RACE_HOT);
                CHECK_OK(orma_fetch_and_op(&one, &old, ORMA_INT64, 0,
                                           st_disp(w, 0, big_at() + race_hot(j) * sizeof(int64_t)), ORMA_SUM,
                                           w->win));
                counts[j]++;
            }
            if (sweeper && (!hammer || k % 64 == 0)) {
                CHECK_OK(orma_accumulate(ones, RACE_LEN, ORMA_INT64, 0, st_disp(w, 0, big_at()), RACE_LEN,
                                         ORMA_INT64, ORMA_SUM, w->win));
                counts[RACE_HOT]++;
            }
        }
    }
    CHECK_OK(orma_win_flush(0, w->win));
    CHECK_OK(orma_accumulate(counts, RACE_HOT + 1, ORMA_INT64, 0, st_disp(w, 0, bigi_at()), RACE_HOT + 1,
                             ORMA_INT64, ORMA_SUM, w->win));
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        int64_t tally[RACE_HOT + 1], v;
        memcpy(tally, w->mem + bigi_at(), sizeof tally);
        for (size_t i = 0; i < RACE_LEN; i++) {
            int64_t want = tally[RACE_HOT];
            for (int j = 0; j < RACE_HOT; j++)
                if (race_hot(j) == i)
                    want += tally[j];
            memcpy(&v, w->mem + big_at() + i * sizeof v, sizeof v);
            if (v != want) {
                fprintf(stderr, "rank 0: %s: element %zu is %lld, expected %lld (%lld sweeps)\n", what, i,
                        (long long)v, (long long)want, (long long)tally[RACE_HOT]);
                exit(1);
            }
        }
    }
    CHECK_OK(orma_barrier());
    free(raw);
}

int main(int argc, char **argv)
{
    unsigned e = 0;
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    at_types_init();
    area_size = at_plan_layout(plan, NSTEPS);
    st_flags_open(&fl, 1);
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, win_size());
        for (unsigned r = 0; r < ROUNDS; r++)
            for (int mode = 0; mode < NMODES; mode++)
                small_epoch(&w, mode, e++);
        late_target(&w, 0, e++);
        late_target(&w, 1, e++);
        for (int mode = 0; mode < NBIG; mode++)
            big_round(&w, mode, e++);
        race(&w);
        st_win_close(&w);
    }
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
