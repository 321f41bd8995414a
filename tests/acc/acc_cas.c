/* acc_cas.c -- compare_and_swap on every predefined type.
 *
 * For every type two calls, one whose compare value matches the target
 * and one whose compare value differs from it only in its top bit (so a
 * compare of fewer bytes than the element would miss it; C_BOOL: the
 * other truth value): each must
 * return the old value, and only the first may change the target.  The
 * types MPI refuses (CHAR, floating, complex, the pairs) must fail with
 * ORMA_ERR_TYPE and write neither target nor result.  Run to the right
 * neighbour and to the rank itself, under fence and under lock_all, on
 * every flavour.
 *
 * Then atomicity: every rank increments its own byte, its own 16-bit and
 * 32-bit word of one 64-bit word group at rank 0, and one shared 64-bit
 * counter, each by compare-and-swap loops; neighbouring narrow elements
 * belong to other ranks, so a CAS that works on a wider word than its
 * element loses their updates. */
#include "acc_plan.h"

enum { M_FENCE, M_LOCK_ALL, NMODES };
enum { INCREMENTS = 40 };

static int rank, nranks, rt, lt;
static struct at_step *plan;
static size_t nsteps, area_size;

static void build_plan(void)
{
    size_t k = 0;
    nsteps = 2 * (size_t)ORMA_TYPEID_COUNT;
    plan = calloc(nsteps, sizeof *plan);
    CHECK(plan != NULL);
    for (int id = 0; id < ORMA_TYPEID_COUNT; id++)
        for (int match = 0; match < 2; match++)
            plan[k++] = (struct at_step){AK_CAS, id, 0, 1, match, 0};
    area_size = at_plan_layout(plan, nsteps);
}

static uint32_t tseed(int r, int a, unsigned e) { return at_mix(7000u + (uint32_t)r, e * 4u + (uint32_t)a); }
static uint32_t oseed(int r, int a, unsigned e) { return at_mix(8000u + (uint32_t)r, e * 4u + (uint32_t)a); }

static void types_epoch(struct st_win *w, int mode, unsigned e)
{
    unsigned char *obuf[2], *cbuf[2], *rbuf[2];
    const int target[2] = {rt, rank};
    char what[2][96];

    for (int a = 0; a < 2; a++) {
        unsigned char *area = w->mem + (size_t)a * area_size;
        rt_fill_bg(area, area_size);
        at_plan_init(area, plan, nsteps, tseed(rank, a, e));
        obuf[a] = malloc(area_size);
        cbuf[a] = malloc(area_size);
        rbuf[a] = malloc(area_size);
        CHECK(obuf[a] && cbuf[a] && rbuf[a]);
        rt_fill_bg(obuf[a], area_size);
        rt_fill_bg(cbuf[a], area_size);
        rt_fill_bg(rbuf[a], area_size);
        at_plan_origin(obuf[a], cbuf[a], plan, nsteps, oseed(rank, a, e), tseed(target[a], a, e));
        snprintf(what[a], sizeof what[a], "%s, %s to rank %d on %s", mode == M_FENCE ? "fence" : "lock_all",
                 a ? "itself" : "neighbour", target[a], st_kind_names[w->kind]);
    }
    if (mode == M_FENCE) {
        CHECK_OK(orma_win_fence(0, w->win));
    } else {
        CHECK_OK(orma_barrier());
        CHECK_OK(orma_win_lock_all(0, w->win));
    }
    for (int a = 0; a < 2; a++)
        at_plan_issue(plan, nsteps, obuf[a], cbuf[a], rbuf[a], target[a],
                      st_disp(w, target[a], (size_t)a * area_size), 1, w->win, NULL, what[a]);
    if (mode == M_FENCE) {
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w->win));
    } else {
        CHECK_OK(orma_win_unlock_all(w->win));
        CHECK_OK(orma_barrier());
    }
    for (int a = 0; a < 2; a++) {
        at_plan_expect_target(w->mem + (size_t)a * area_size, area_size, plan, nsteps, tseed(rank, a, e),
                              oseed(a ? rank : lt, a, e), what[a]);
        at_plan_expect_results(rbuf[a], area_size, plan, nsteps, tseed(target[a], a, e), what[a]);
        at_plan_expect_origin(obuf[a], plan, nsteps, oseed(rank, a, e), what[a]);
        /* The compare buffer is input only. */
        {
            unsigned char *c2 = malloc(area_size), *o2 = malloc(area_size);
            CHECK(c2 && o2);
            rt_fill_bg(c2, area_size);
            at_plan_origin(o2, c2, plan, nsteps, oseed(rank, a, e), tseed(target[a], a, e));
            for (size_t i = 0; i < nsteps; i++) {
                const struct at_type *t = &at_types[plan[i].id];
                AT_EXPECT(t, cbuf[a] + plan[i].at, c2 + plan[i].at, 1, "compare buffer after the epoch");
            }
            free(c2);
            free(o2);
        }
        free(obuf[a]);
        free(cbuf[a]);
        free(rbuf[a]);
    }
    CHECK_OK(orma_barrier());
}

/* Layout of the atomicity area at rank 0: bytes, 16-bit and 32-bit words,
 * one per rank, then the shared counter. */
enum { U8_AT = 0, U16_AT = 16, U32_AT = 32, CNT_AT = 64, ATOM_SIZE = 72 };

/* One increment of the element at disp by a compare-and-swap loop: read
 * it (fetch_and_op NO_OP), try old -> old + 1, retry while another rank got
 * in first.  Every call completes at the flush that follows it. */
static void cas_increment(struct st_win *w, orma_type type, size_t size, size_t off)
{
    uint64_t old = 0, next, seen = 0;
    orma_aint d = st_disp(w, 0, off);
    for (int tries = 0;; tries++) {
        CHECK(tries < 1000000);
        old = 0;
        CHECK_OK(orma_fetch_and_op(NULL, &old, type, 0, d, ORMA_NO_OP, w->win));
        CHECK_OK(orma_win_flush(0, w->win));
        if (size < 8)
            CHECK((old >> (8 * size)) == 0);
        next = old + 1;
        seen = 0;
        CHECK_OK(orma_compare_and_swap(&next, &old, &seen, type, 0, d, w->win));
        CHECK_OK(orma_win_flush(0, w->win));
        /* Only the element's bytes of seen are written (little-endian). */
        if (size < 8)
            CHECK((seen >> (8 * size)) == 0);
        if (seen == old)
            return;
    }
}

static void atomicity(struct st_win *w)
{
    if (rank == 0) {
        memset(w->mem, 0, ATOM_SIZE);
        w->mem[U8_AT + 15] = 0xA5; /* beyond the ranks' bytes: must stay */
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w->win));
    for (int k = 0; k < INCREMENTS; k++) {
        cas_increment(w, ORMA_UINT8, 1, U8_AT + (size_t)rank);
        cas_increment(w, ORMA_UINT16, 2, U16_AT + 2 * (size_t)rank);
        cas_increment(w, ORMA_UINT32, 4, U32_AT + 4 * (size_t)rank);
        cas_increment(w, ORMA_UINT64, 8, CNT_AT);
    }
    CHECK_OK(orma_win_unlock_all(w->win));
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        uint64_t cnt;
        for (int r = 0; r < 8; r++) {
            uint16_t v16;
            uint32_t v32;
            unsigned want = r < nranks ? INCREMENTS : 0;
            memcpy(&v16, w->mem + U16_AT + 2 * (size_t)r, sizeof v16);
            memcpy(&v32, w->mem + U32_AT + 4 * (size_t)r, sizeof v32);
            if (w->mem[U8_AT + r] != want || v16 != want || v32 != want) {
                fprintf(stderr, "rank 0: CAS increments of rank %d on %s: u8 %u, u16 %u, u32 %u; expected %u\n",
                        r, st_kind_names[w->kind], w->mem[U8_AT + r], v16, v32, want);
                exit(1);
            }
        }
        CHECK(w->mem[U8_AT + 15] == 0xA5);
        memcpy(&cnt, w->mem + CNT_AT, sizeof cnt);
        CHECK(cnt == (uint64_t)nranks * INCREMENTS);
    }
    CHECK_OK(orma_barrier());
}

int main(int argc, char **argv)
{
    unsigned e = 0;
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    CHECK(nranks <= 8);
    at_types_init();
    build_plan();
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        size_t size = 2 * area_size > ATOM_SIZE ? 2 * area_size : ATOM_SIZE;
        st_win_open(&w, kind, size);
        for (int mode = 0; mode < NMODES; mode++)
            types_epoch(&w, mode, e++);
        atomicity(&w);
        st_win_close(&w);
    }
    free(plan);
    CHECK_OK(orma_finalize());
    return 0;
}
