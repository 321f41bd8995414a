/* nt_ops.c -- every notified operation on every window flavour in every
 * epoch kind.
 *
 * Operations: puts, gets and accumulates (SUM, MAX, BXOR, REPLACE, MIN) of
 * predefined types and of derived ones on either side, operations of no
 * data, and operations to ORMA_PROC_NULL; each raises a counter of its own
 * by ORMA_NOTIFY_ADD or ORMA_NOTIFY_SET.  Every rank aims them at its right
 * neighbour and waits for its left neighbour's, one by one: as soon as a
 * counter has reached its value the target checks the operation's slot
 * (its bytes, and the guards around them), and after a get's it writes
 * the slot over, which the origin must not see -- its get had read the
 * bytes already.  After each epoch every byte of the window and every
 * counter is checked (ORMA_PROC_NULL's still 0).  Expected images come
 * from orma_pack/orma_unpack and the accumulate tests' reference.
 *
 * Four rounds of every epoch kind on each flavour: allocate, create on
 * malloc'd and on orma_alloc_mem memory, dynamic with a malloc'd and with
 * an orma_alloc_mem region; with the argument "shared", allocate_shared
 * alone (skipped where the ranks share no memory).  Counters are asked for by info at creation or made
 * afterwards, a different number at each rank.  At one rank every rank is
 * its own neighbour. */
#include "acc_test.h"
#include "nt_test.h"

enum { SLOT = 1152, GUARD = 64, AREA = SLOT - 2 * GUARD, ROUNDS = 4 /* of every epoch kind */ };

enum { K_PUT, K_GET, K_ACC };

struct op {
    const char *name;
    int kind;
    orma_type ot, tt;
    size_t ocount, tcount;
    int aop, elem; /* accumulates: op and element type id */
    int nop;
    uint64_t value;
    int none;      /* 1: to ORMA_PROC_NULL */
    int empty;     /* 1: no data, NULL origin */
};

enum { NOPS = 21 };
static struct op ops[NOPS];
static orma_type vec_int, idx_i64, struct_a, struct_b, sub_short, hvec_short, vec_i32, idx_i16;

static int rank, nranks, rt, lt;
static unsigned char src[NOPS][AREA];
static unsigned char res[NOPS][SLOT], res_want[NOPS][SLOT];
static unsigned char *want, *image_rt;

static void types_build(void)
{
    CHECK_OK(orma_type_vector(6, 2, 3, ORMA_INT, &vec_int));
    size_t bl[3] = {2, 3, 4};
    orma_aint d[3] = {0, 5, 11};
    CHECK_OK(orma_type_indexed(3, bl, d, ORMA_INT64, &idx_i64));
    size_t sbl[3] = {1, 2, 1};
    orma_aint da[3] = {0, 8, 24}, db[3] = {4, 16, 0};
    orma_type sts[3] = {ORMA_INT, ORMA_DOUBLE, ORMA_CHAR};
    CHECK_OK(orma_type_struct(3, sbl, da, sts, &struct_a));
    CHECK_OK(orma_type_struct(3, sbl, db, sts, &struct_b));
    size_t sizes[2] = {6, 8}, subs[2] = {3, 4}, starts[2] = {2, 1};
    CHECK_OK(orma_type_subarray(2, sizes, subs, starts, ORMA_ORDER_C, ORMA_SHORT, &sub_short));
    CHECK_OK(orma_type_hvector(4, 3, 10, ORMA_SHORT, &hvec_short));
    CHECK_OK(orma_type_vector(4, 2, 3, ORMA_INT32, &vec_i32));
    size_t ibl[3] = {3, 1, 2};
    orma_aint id[3] = {4, 0, 8};
    CHECK_OK(orma_type_indexed(3, ibl, id, ORMA_INT16, &idx_i16));
    orma_type *all[] = {&vec_int, &idx_i64, &struct_a, &struct_b, &sub_short, &hvec_short, &vec_i32, &idx_i16};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_OK(orma_type_commit(all[i]));
}

static void types_free(void)
{
    orma_type *all[] = {&vec_int, &idx_i64, &struct_a, &struct_b, &sub_short, &hvec_short, &vec_i32, &idx_i16};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        CHECK_OK(orma_type_free(all[i]));
}

static void ops_build(void)
{
    const int A = ORMA_NOTIFY_ADD, S = ORMA_NOTIFY_SET;
    struct op list[NOPS] = {
        {"put 8 bytes", K_PUT, ORMA_BYTE, ORMA_BYTE, 8, 8, 0, 0, A, 1, 0, 0},
        {"put 250 ints", K_PUT, ORMA_INT, ORMA_INT, 250, 250, 0, 0, S, 77, 0, 0},
        {"put vector -> ints", K_PUT, vec_int, ORMA_INT, 1, 12, 0, 0, A, 2, 0, 0},
        {"put int64s -> indexed", K_PUT, ORMA_INT64, idx_i64, 9, 1, 0, 0, A, 1, 0, 0},
        {"put struct -> struct", K_PUT, struct_a, struct_b, 2, 2, 0, 0, A, 3, 0, 0},
        {"put subarray -> hvector", K_PUT, sub_short, hvec_short, 1, 1, 0, 0, S, 1, 0, 0},
        {"get 64 bytes", K_GET, ORMA_BYTE, ORMA_BYTE, 64, 64, 0, 0, A, 1, 0, 0},
        {"get vector -> ints", K_GET, ORMA_INT, vec_int, 12, 1, 0, 0, A, 1, 0, 0},
        {"get int64s -> indexed", K_GET, idx_i64, ORMA_INT64, 1, 9, 0, 0, S, 5, 0, 0},
        {"accumulate SUM int64", K_ACC, ORMA_INT64, ORMA_INT64, 16, 16, ORMA_SUM, ORMA_TYPEID_INT64, A, 1, 0, 0},
        {"accumulate MAX int32", K_ACC, ORMA_INT32, ORMA_INT32, 8, 8, ORMA_MAX, ORMA_TYPEID_INT32, S, 3, 0, 0},
        {"accumulate BXOR uint8", K_ACC, ORMA_UINT8, ORMA_UINT8, 24, 24, ORMA_BXOR, ORMA_TYPEID_UINT8, A, 1, 0, 0},
        {"accumulate REPLACE double", K_ACC, ORMA_DOUBLE, ORMA_DOUBLE, 5, 5, ORMA_REPLACE, ORMA_TYPEID_DOUBLE, A, 4,
         0, 0},
        {"accumulate SUM int32s -> vector", K_ACC, ORMA_INT32, vec_i32, 8, 1, ORMA_SUM, ORMA_TYPEID_INT32, A, 1, 0,
         0},
        {"accumulate MIN indexed -> int16s", K_ACC, idx_i16, ORMA_INT16, 1, 6, ORMA_MIN, ORMA_TYPEID_INT16, A, 1, 0,
         0},
        {"put of no data", K_PUT, ORMA_BYTE, ORMA_BYTE, 0, 0, 0, 0, A, 5, 0, 1},
        {"get of no data", K_GET, ORMA_INT, ORMA_INT, 0, 0, 0, 0, S, 9, 0, 1},
        {"accumulate of no data", K_ACC, ORMA_INT64, ORMA_INT64, 0, 0, ORMA_SUM, ORMA_TYPEID_INT64, A, 1, 0, 1},
        {"put to ORMA_PROC_NULL", K_PUT, ORMA_BYTE, ORMA_BYTE, 8, 8, 0, 0, A, 1, 1, 0},
        {"get from ORMA_PROC_NULL", K_GET, ORMA_BYTE, ORMA_BYTE, 8, 8, 0, 0, S, 2, 1, 0},
        {"accumulate to ORMA_PROC_NULL", K_ACC, ORMA_INT64, ORMA_INT64, 2, 2, ORMA_SUM, ORMA_TYPEID_INT64, A, 1, 1,
         0},
    };
    memcpy(ops, list, sizeof ops);
}

/* The streams: op j's origin data from rank o, and the data area of slot
 * j at rank t, in round it. */
static unsigned src_seed(int j, int o, int it)
{
    return (unsigned)(it * 4099 + j * 131 + o * 7 + 1);
}

static unsigned area_seed(int j, int t, int it)
{
    return (unsigned)(it * 4099 + j * 131 + t * 7 + 50000);
}

/* Element stream seed of data area b (AREA bytes) for elements of type id. */
static void fill_elems(unsigned char *b, int id, unsigned seed)
{
    const struct at_type *t = &at_types[id];
    for (size_t k = 0; k + t->size <= AREA; k++)
        if (k % t->size == 0)
            at_gen(t, seed, k / t->size, b + k);
}

static void src_fill(unsigned char *b, int j, int o, int it)
{
    if (ops[j].kind == K_ACC)
        fill_elems(b, ops[j].elem, src_seed(j, o, it));
    else
        rt_fill_data(b, AREA, src_seed(j, o, it), 0);
}

/* The window of rank t as it is before round it: background, with data in
 * the areas that gets read and accumulates update. */
static void image_fill(unsigned char *img, size_t size, int t, int it)
{
    rt_fill_bg(img, size);
    for (int j = 0; j < NOPS; j++) {
        unsigned char *area = img + (size_t)j * SLOT + GUARD;
        if (ops[j].kind == K_GET)
            rt_fill_data(area, AREA, area_seed(j, t, it), 0);
        else if (ops[j].kind == K_ACC)
            fill_elems(area, ops[j].elem, area_seed(j, t, it));
    }
}

/* count elements of type at from, packed: their bytes in typemap order. */
static size_t pack(const unsigned char *from, size_t count, orma_type type, unsigned char *packed)
{
    size_t pos = 0;
    CHECK_OK(orma_pack(from, count, type, packed, AREA, &pos));
    return pos;
}

static void unpack(const unsigned char *packed, size_t len, unsigned char *to, size_t count, orma_type type)
{
    size_t pos = 0;
    CHECK_OK(orma_unpack(packed, len, &pos, to, count, type));
    CHECK(pos == len);
}

/* The effect of rank lt's op j (round it) on this rank's window image. */
static void apply_arrival(int j, int it)
{
    const struct op *p = &ops[j];
    unsigned char *area = want + (size_t)j * SLOT + GUARD, o[AREA], a[AREA], b[AREA];
    if (p->none || p->empty || p->kind == K_GET)
        return;
    src_fill(o, j, lt, it);
    size_t n = pack(o, p->ocount, p->ot, a);
    if (p->kind == K_ACC) {
        const struct at_type *t = &at_types[p->elem];
        CHECK(pack(area, p->tcount, p->tt, b) == n);
        for (size_t k = 0; k < n; k += t->size)
            at_apply(t, p->aop, b + k, a + k);
        memcpy(a, b, n);
    }
    unpack(a, n, area, p->tcount, p->tt);
}

/* What op j's get brings from rank rt: its area in typemap order, laid out
 * in the origin's type amid the result buffer's background. */
static void result_expect(int j)
{
    const struct op *p = &ops[j];
    unsigned char a[AREA];
    rt_fill_bg(res_want[j], SLOT);
    if (p->kind != K_GET || p->none || p->empty)
        return;
    size_t n = pack(image_rt + (size_t)j * SLOT + GUARD, p->tcount, p->tt, a);
    unpack(a, n, res_want[j] + GUARD, p->ocount, p->ot);
}

static void expect_bytes(const unsigned char *got, const unsigned char *w, size_t from, size_t to, const char *what,
                         const char *epoch, const char *flavour)
{
    for (size_t i = from; i < to; i++)
        if (got[i] != w[i]) {
            fprintf(stderr, "rank %d: %s, %s on %s: byte %zu is 0x%02x, expected 0x%02x\n", rank, what, epoch,
                    flavour, i, got[i], w[i]);
            exit(1);
        }
}

static void issue(const struct st_win *w, int j)
{
    const struct op *p = &ops[j];
    int target = p->none ? ORMA_PROC_NULL : rt;
    orma_aint disp = p->none ? 0 : st_disp(w, rt, (size_t)j * SLOT + GUARD);
    void *o = p->empty ? NULL : src[j];
    if (p->kind == K_PUT)
        CHECK_OK(orma_put_notify(o, p->ocount, p->ot, target, disp, p->tcount, p->tt, w->win, j, p->nop, p->value));
    else if (p->kind == K_GET)
        CHECK_OK(orma_get_notify(p->empty ? NULL : res[j] + GUARD, p->ocount, p->ot, target, disp, p->tcount, p->tt,
                                 w->win, j, p->nop, p->value));
    else
        CHECK_OK(orma_accumulate_notify(o, p->ocount, p->ot, target, disp, p->tcount, p->tt, p->aop, w->win, j,
                                        p->nop, p->value));
}

/* Rank lt's op j has arrived once its counter says so: its slot holds what
 * it must, at once.  A get's area is then ours again: written over. */
static void consume(const struct st_win *w, int j, int it, const char *epoch)
{
    const struct op *p = &ops[j];
    const char *fl = st_kind_names[w->kind];
    if (p->none)
        return;
    nt_step("%s on %s: waiting for \"%s\" from rank %d", epoch, fl, p->name, lt);
    CHECK_OK(orma_notify_wait(w->win, j, p->value));
    apply_arrival(j, it);
    expect_bytes(w->mem, want, (size_t)j * SLOT, (size_t)(j + 1) * SLOT, p->name, epoch, fl);
    if (p->kind == K_GET) {
        unsigned char *area = w->mem + (size_t)j * SLOT + GUARD;
        rt_fill_data(area, AREA, area_seed(j, rank, it) ^ 0x5a5a5u, 0);
        memcpy(want + (size_t)j * SLOT + GUARD, area, AREA);
    }
}

static void round_run(struct st_win *w, int epoch_kind, int it, size_t nctr)
{
    const char *en = nt_epoch_names[epoch_kind], *fl = st_kind_names[w->kind];
    struct nt_epoch e;
    uint64_t ctr_want[NOPS + 4] = {0};

    nt_step("%s on %s: set-up", en, fl);
    image_fill(want, w->size, rank, it);
    memcpy(w->mem, want, w->size);
    image_fill(image_rt, w->size, rt, it);
    for (int j = 0; j < NOPS; j++) {
        src_fill(src[j], j, rank, it);
        result_expect(j);
        rt_fill_bg(res[j], SLOT);
        ctr_want[j] = ops[j].none ? 0 : ops[j].value;
    }
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());

    nt_epoch_open(&e, epoch_kind, w->win, rt, lt);
    for (int j = 0; j < NOPS; j++) {
        issue(w, j);
        if (nt_net() || ops[j].kind == K_GET)
            nt_epoch_push(&e);
        if (nt_passive(epoch_kind) && ops[j].kind == K_GET)
            expect_bytes(res[j], res_want[j], 0, SLOT, ops[j].name, en, fl);
        if (nt_epoch_early(&e))
            consume(w, j, it, en);
    }
    nt_step("%s on %s: closing", en, fl);
    nt_epoch_close(&e);
    for (int j = 0; j < NOPS && !nt_epoch_early(&e); j++)
        consume(w, j, it, en);
    CHECK_OK(orma_barrier());

    nt_step("%s on %s: checks", en, fl);
    expect_bytes(w->mem, want, 0, w->size, "window after the epoch", en, fl);
    for (int j = 0; j < NOPS; j++)
        expect_bytes(res[j], res_want[j], 0, SLOT, ops[j].name, en, fl);
    nt_expect_counters(w->win, nctr, ctr_want, en);
    CHECK_OK(orma_barrier());
}

static void flavour_run(int kind, int by_info)
{
    struct st_win w;
    size_t size = (size_t)NOPS * SLOT, nctr = NOPS + (size_t)(rank % 4);
    nt_step("%s: creation", st_kind_names[kind]);
    nt_win_open(&w, kind, size, nctr, by_info);
    want = malloc(size);
    image_rt = malloc(size);
    CHECK(want != NULL && image_rt != NULL);
    for (int it = 0; it < ROUNDS; it++)
        for (int e = 0; e < NT_NEPOCHS; e++)
            round_run(&w, e, (kind * ROUNDS + it) * NT_NEPOCHS + e, nctr);
    free(want);
    free(image_rt);
    st_win_close(&w);
}

/* allocate_shared: exit 77 (at every rank alike) where it is refused. */
static void shared_or_skip(void)
{
    void *base = NULL;
    orma_win win = ORMA_WIN_NULL;
    int rc = orma_win_allocate_shared(64, 1, ORMA_INFO_NULL, &base, &win);
    if (rc == ORMA_ERR_UNSUPPORTED) {
        if (rank == 0)
            printf("nt_ops shared: %s: skipped\n", orma_error_message());
        CHECK_OK(orma_finalize());
        exit(77);
    }
    CHECK_OK(rc);
    CHECK_OK(orma_win_free(&win));
}

int main(int argc, char **argv)
{
    nt_init(&argc, &argv, &rank, &nranks, &rt, &lt);
    at_types_init();
    types_build();
    ops_build();
    int shared = argc > 1 && !strcmp(argv[1], "shared");
    if (shared) {
        shared_or_skip();
        flavour_run(ST_SHARED, 1);
        flavour_run(ST_SHARED, 0);
    } else {
        for (int kind = 0; kind < ST_NKINDS; kind++)
            if (kind != ST_SHARED)
                flavour_run(kind, kind % 2);
    }
    types_free();
    char what[96];
    snprintf(what, sizeof what, "nt_ops%s, %d operations x %d epoch kinds x %d rounds", shared ? " shared" : "", NOPS,
             NT_NEPOCHS, ROUNDS);
    nt_finish(what);
    return 0;
}
