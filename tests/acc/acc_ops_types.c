/* acc_ops_types.c -- every op on every predefined type, on every window
 * flavour, against the sequential reference of acc_test.h.
 *
 * One plan holds, for each (type, op), an accumulate and a get_accumulate
 * of COUNT elements and a fetch_and_op, each in its own slot between
 * guard bytes.  Every rank runs the plan against its right neighbour (area
 * 0 of the neighbour's window) and against itself (area 1) in one fence
 * epoch.  Pairs that MPI leaves undefined (and op values outside the enum)
 * must fail with ORMA_ERR_OP and write nothing: neither the target slot nor
 * the result buffer.  A second plan of long runs (thousands of elements of
 * a dozen types) follows under an exclusive or a shared lock.  Afterwards
 * each target checks its window, element by element against the reference
 * and byte by byte in between; each origin checks its result buffers and
 * that its origin buffers are unchanged.
 *
 * The setups take the library's different paths to the target: loads and
 * stores into a shared segment, single-copy syscalls into private memory,
 * dynamic windows; areas shifted off every element's alignment, origin
 * and result buffers too; and displacement units that differ between
 * ranks.  Run once as is and once with ORMA_EAGER=0 (every operation of
 * the fence epoch queued until the closing fence). */
#include "acc_plan.h"

enum { COUNT = 5 };

static int rank, nranks, rt, lt;
static struct at_step *plan;
static size_t nsteps, area_size;

static void build_plan(void)
{
    size_t k = 0;
    nsteps = (size_t)ORMA_TYPEID_COUNT * ORMA_OP_COUNT * 3;
    plan = calloc(nsteps, sizeof *plan);
    CHECK(plan != NULL);
    for (int id = 0; id < ORMA_TYPEID_COUNT; id++) {
        for (int op = 0; op < ORMA_OP_COUNT; op++) {
            /* With NO_OP the origin of get_accumulate and fetch_and_op
             * may be NULL: half of the types pass NULL, half a buffer. */
            plan[k++] = (struct at_step){AK_ACC, id, op, COUNT, 0, 0};
            plan[k++] = (struct at_step){AK_GACC, id, op, COUNT, id % 2, 0};
            plan[k++] = (struct at_step){AK_FOP, id, op, 1, (id + 1) % 2, 0};
        }
    }
    CHECK(k == nsteps);
    area_size = at_plan_layout(plan, nsteps);
}

/* Seeds of the target contents and origin data, per rank, area and
 * plan run. */
static uint32_t tseed(int r, int area, unsigned salt)
{
    return at_mix(1000u + (uint32_t)r, (uint32_t)area * 256u + salt);
}

static uint32_t oseed(int r, int area, unsigned salt)
{
    return at_mix(2000u + (uint32_t)r, (uint32_t)area * 256u + salt);
}

/* The step of (id, op, kind). */
static const struct at_step *step_of(int id, int op, int k)
{
    const struct at_step *s = &plan[((size_t)id * ORMA_OP_COUNT + (size_t)op) * 3 + (size_t)k];
    CHECK(s->id == id && s->op == op && s->kind == k);
    return s;
}

/* A window setup: flavour, where the areas start (an odd shift puts every
 * element off its natural alignment), the displacement unit of even and
 * odd ranks (the target's unit scales the displacement), and where the
 * origin's buffers start (an odd oshift misaligns origin and result). */
struct setup {
    int kind;
    size_t shift;
    int du[2];
    size_t oshift;
};

static const struct setup setups[] = {
    {ST_ALLOCATE, 0, {1, 1}, 0},        {ST_CREATE_MALLOC, 0, {1, 1}, 0},
    {ST_CREATE_ALLOCMEM, 0, {1, 1}, 0}, {ST_DYNAMIC_MALLOC, 0, {1, 1}, 0},
    {ST_DYNAMIC_ALLOCMEM, 0, {1, 1}, 0}, {ST_SHARED, 0, {1, 1}, 0},
    {ST_ALLOCATE, 3, {1, 1}, 0},        {ST_CREATE_MALLOC, 5, {1, 1}, 1},
    {ST_SHARED, 7, {1, 1}, 0},          {ST_DYNAMIC_ALLOCMEM, 1, {1, 1}, 0},
    {ST_ALLOCATE, 0, {16, 8}, 0},       {ST_CREATE_MALLOC, 0, {8, 16}, 0},
    {ST_ALLOCATE, 0, {1, 1}, 3},        {ST_SHARED, 0, {1, 1}, 9},
};
enum { NSETUPS = sizeof setups / sizeof setups[0] };

static const struct setup *cur;
static int du_of(int r) { return cur->du[r % 2]; }

/* Collective: st_win_open, or (units other than 1) the same flavours by
 * hand with each rank's unit. */
static void open_win(struct st_win *w, size_t size)
{
    if (cur->du[0] == 1 && cur->du[1] == 1) {
        st_win_open(w, cur->kind, size);
        return;
    }
    w->kind = cur->kind;
    w->size = size;
    w->addr = NULL;
    if (cur->kind == ST_ALLOCATE) {
        CHECK_OK(orma_win_allocate(size, du_of(rank), ORMA_INFO_NULL, (void **)&w->mem, &w->win));
    } else {
        CHECK(cur->kind == ST_CREATE_MALLOC);
        w->mem = malloc(size);
        CHECK(w->mem != NULL);
        CHECK_OK(orma_win_create(w->mem, size, du_of(rank), ORMA_INFO_NULL, &w->win));
    }
}

/* Displacement of byte offset off (from the start of the shifted areas) at
 * rank t. */
static orma_aint disp(const struct st_win *w, int t, size_t off)
{
    off += cur->shift;
    if (w->addr)
        return st_disp(w, t, off);
    CHECK(off % (size_t)du_of(t) == 0);
    return (orma_aint)(off / (size_t)du_of(t));
}

/* Op values outside the enum, aimed at slots whose expected contents stay
 * as they were (NO_OP slots): anything they wrote would show up there. */
static void bad_ops(struct st_win *w, int target, size_t area_off, const unsigned char *obuf,
                    unsigned char *rbuf)
{
    static const int bad[] = {ORMA_OP_COUNT, -1, ORMA_OP_COUNT + 100, 0x7fffffff};
    const struct at_type *t = &at_types[ORMA_TYPEID_INT32];
    const struct at_step *acc = step_of(ORMA_TYPEID_INT32, ORMA_NO_OP, AK_ACC);
    const struct at_step *ga = step_of(ORMA_TYPEID_INT32, ORMA_NO_OP, AK_GACC);
    const struct at_step *fop = step_of(ORMA_TYPEID_INT32, ORMA_NO_OP, AK_FOP);
    /* Results go to the ACC slot of rbuf, which must stay background. */
    unsigned char *junk_result = rbuf + acc->at;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        orma_op op = (orma_op)bad[i];
        CHECK_ERR(orma_accumulate(obuf + acc->at, COUNT, t->type, target, disp(w, target, area_off + acc->at),
                                  COUNT, t->type, op, w->win),
                  ORMA_ERR_OP);
        CHECK_ERR(orma_get_accumulate(obuf + acc->at, COUNT, t->type, junk_result, COUNT, t->type, target,
                                      disp(w, target, area_off + ga->at), COUNT, t->type, op, w->win),
                  ORMA_ERR_OP);
        CHECK_ERR(orma_fetch_and_op(obuf + acc->at, junk_result, t->type, target,
                                    disp(w, target, area_off + fop->at), op, w->win),
                  ORMA_ERR_OP);
    }
}

/* Long runs: counts of thousands, so that a library that works through
 * the target in chunks (a copy syscall at a time, a lock stripe at a
 * time) meets chunk boundaries inside the run -- and, with a shift,
 * inside elements. */
static struct at_step long_plan[] = {
    {AK_ACC, ORMA_TYPEID_INT64, ORMA_SUM, 5000, 0, 0},
    {AK_GACC, ORMA_TYPEID_DOUBLE_INT, ORMA_MAXLOC, 3001, 0, 0},
    {AK_ACC, ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX, ORMA_PROD, 2999, 0, 0},
    {AK_GACC, ORMA_TYPEID_LONG_DOUBLE_INT, ORMA_MINLOC, 2500, 0, 0},
    {AK_ACC, ORMA_TYPEID_UINT8, ORMA_BXOR, 20011, 0, 0},
    {AK_GACC, ORMA_TYPEID_SHORT_INT, ORMA_MAXLOC, 4099, 0, 0},
    {AK_ACC, ORMA_TYPEID_C_BOOL, ORMA_LOR, 9000, 0, 0},
    {AK_GACC, ORMA_TYPEID_FLOAT, ORMA_MAX, 7001, 0, 0},
    {AK_ACC, ORMA_TYPEID_LONG_DOUBLE, ORMA_SUM, 3000, 0, 0},
    {AK_GACC, ORMA_TYPEID_UINT16, ORMA_PROD, 6007, 0, 0},
    {AK_GACC, ORMA_TYPEID_INT32, ORMA_NO_OP, 5003, 1, 0},
    {AK_ACC, ORMA_TYPEID_C_FLOAT_COMPLEX, ORMA_REPLACE, 3003, 0, 0},
    {AK_GACC, ORMA_TYPEID_2INT, ORMA_REPLACE, 2048, 0, 0},
};
enum { NLONG = sizeof long_plan / sizeof long_plan[0] };
static size_t long_size;

/* Buffers of one plan run: origin data, compare values, results, for
 * area 0 (to the right neighbour) and area 1 (to itself). */
struct bufs {
    unsigned char *obuf[2], *cbuf[2], *rbuf[2];
    unsigned char *raw[2][3]; /* as malloc'd, before the shift */
};

static void bufs_make(struct bufs *b, const struct at_step *p, size_t n, size_t size, unsigned salt,
                      const int target[2])
{
    for (int a = 0; a < 2; a++) {
        for (int k = 0; k < 3; k++) {
            b->raw[a][k] = malloc(size + cur->oshift);
            CHECK(b->raw[a][k] != NULL);
        }
        b->obuf[a] = b->raw[a][0] + cur->oshift;
        b->cbuf[a] = b->raw[a][1] + cur->oshift;
        b->rbuf[a] = b->raw[a][2] + cur->oshift;
        rt_fill_bg(b->obuf[a], size);
        rt_fill_bg(b->cbuf[a], size);
        rt_fill_bg(b->rbuf[a], size);
        at_plan_origin(b->obuf[a], b->cbuf[a], p, n, oseed(rank, a, salt), tseed(target[a], a, salt));
    }
}

static void bufs_check(struct bufs *b, const unsigned char *areas, const struct at_step *p, size_t n,
                       size_t size, unsigned salt, const int target[2], const char *what)
{
    for (int a = 0; a < 2; a++) {
        char where[128];
        snprintf(where, sizeof where, "%s, area %d (from rank %d)", what, a, a ? rank : lt);
        at_plan_expect_target(areas + (size_t)a * size, size, p, n, tseed(rank, a, salt),
                              oseed(a ? rank : lt, a, salt), where);
        snprintf(where, sizeof where, "%s, results from rank %d", what, target[a]);
        at_plan_expect_results(b->rbuf[a], size, p, n, tseed(target[a], a, salt), where);
        /* The origin buffers belong to the user again, unchanged. */
        at_plan_expect_origin(b->obuf[a], p, n, oseed(rank, a, salt), where);
        for (int k = 0; k < 3; k++)
            free(b->raw[a][k]);
    }
}

static void run_setup(int si)
{
    struct st_win w;
    struct bufs full, lng;
    const int target[2] = {rt, rank};
    unsigned salt = 2 * (unsigned)si, lsalt = salt + 1;
    size_t long_at = 2 * area_size;
    unsigned char *areas;
    char what[128];
    int lock_type = si % 2 ? ORMA_LOCK_SHARED : ORMA_LOCK_EXCLUSIVE;

    cur = &setups[si];
    snprintf(what, sizeof what, "%s, shift %zu, unit %d/%d, origin shift %zu", st_kind_names[cur->kind],
             cur->shift, cur->du[0], cur->du[1], cur->oshift);
    open_win(&w, cur->shift + 2 * area_size + 2 * long_size);
    areas = w.mem + cur->shift;
    rt_fill_bg(w.mem, cur->shift);
    for (int a = 0; a < 2; a++) {
        rt_fill_bg(areas + (size_t)a * area_size, area_size);
        at_plan_init(areas + (size_t)a * area_size, plan, nsteps, tseed(rank, a, salt));
        rt_fill_bg(areas + long_at + (size_t)a * long_size, long_size);
        at_plan_init(areas + long_at + (size_t)a * long_size, long_plan, NLONG, tseed(rank, a, lsalt));
    }
    bufs_make(&full, plan, nsteps, area_size, salt, target);
    bufs_make(&lng, long_plan, NLONG, long_size, lsalt, target);

    /* The full plan in a fence epoch.  Every other setup opens without a
     * barrier: operations to a target that has not opened yet are
     * queued. */
    CHECK_OK(orma_win_fence(si % 2 ? ORMA_MODE_NOPRECEDE : 0, w.win));
    for (int a = 0; a < 2; a++) {
        at_plan_issue(plan, nsteps, full.obuf[a], full.cbuf[a], full.rbuf[a], target[a],
                      disp(&w, target[a], (size_t)a * area_size), w.addr ? 1 : du_of(target[a]), w.win, NULL,
                      what);
        bad_ops(&w, target[a], (size_t)a * area_size, full.obuf[a], full.rbuf[a]);
    }
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));

    /* The long runs under a lock, exclusive or shared (the shared one must
     * update element by element atomically). */
    for (int a = 0; a < 2; a++) {
        CHECK_OK(orma_win_lock(lock_type, target[a], 0, w.win));
        at_plan_issue(long_plan, NLONG, lng.obuf[a], lng.cbuf[a], lng.rbuf[a], target[a],
                      disp(&w, target[a], long_at + (size_t)a * long_size),
                      w.addr ? 1 : du_of(target[a]), w.win, NULL, what);
        CHECK_OK(orma_win_unlock(target[a], w.win));
    }
    CHECK_OK(orma_barrier());

    RT_EXPECT_BG(w.mem, 0, cur->shift, what);
    bufs_check(&full, areas, plan, nsteps, area_size, salt, target, what);
    bufs_check(&lng, areas + long_at, long_plan, NLONG, long_size, lsalt, target, what);
    CHECK_OK(orma_barrier());
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    at_types_init();
    build_plan();
    long_size = at_plan_layout(long_plan, NLONG);
    for (int si = 0; si < NSETUPS; si++)
        run_setup(si);
    /* The values were chosen so that MINLOC/MAXLOC meet equal values with
     * the smaller index on either side. */
    CHECK(at_ties[0] > 0 && at_ties[1] > 0);
    free(plan);
    CHECK_OK(orma_finalize());
    return 0;
}
