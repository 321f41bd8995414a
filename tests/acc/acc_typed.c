/* acc_typed.c -- orma_accumulate_typed: every rank adds, many times, a
 * strided origin layout into a differently strided target layout at rank
 * 0, on every window flavour under fence, lock_all and exclusive locks.
 * The k-th origin element must land on the k-th target element, every
 * addition counted exactly once (element-wise atomic), and no other byte
 * of the window may change.  Also the refusals: mixed basic types, an op
 * the type lacks, uncommitted types. */
#include "sync_test.h"

#include <stdint.h>
#include <stdio.h>

enum { NEL = 2048, NDATA = 600, ROUNDS = 12 };
enum { M_FENCE, M_LOCK_ALL, M_LOCK_EXCL, M_N };
static const char *const mode_names[M_N] = {"fence", "lock_all", "lock(exclusive)"};

static int rank, nranks;

/* Element k of the origin layout (vector 120 x 5, stride 9) and of the
 * target layout (vector 100 x 6, stride 16), as indices of int64. */
static size_t o_index(size_t k) { return k / 5 * 9 + k % 5; }
static size_t t_index(size_t k) { return k / 6 * 16 + k % 6; }
static int64_t value(int r, size_t k) { return (int64_t)(r + 1) * 1000 + (int64_t)(k % 97); }

static void run(int kind, int mode, orma_type otype, orma_type ttype)
{
    struct st_win w;
    size_t bytes = NEL * sizeof(int64_t);
    st_win_open(&w, kind, bytes);
    rt_fill_bg(w.mem, bytes);
    int64_t *origin = calloc(o_index(NDATA - 1) + 1, sizeof *origin);
    CHECK(origin != NULL);
    for (size_t k = 0; k < NDATA; k++)
        origin[o_index(k)] = value(rank, k);
    CHECK_OK(orma_barrier());
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(0, w.win));
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_lock_all(0, w.win));
    for (int i = 0; i < ROUNDS; i++) {
        if (mode == M_LOCK_EXCL)
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, w.win));
        CHECK_OK(orma_accumulate_typed(origin, 1, otype, 0, st_disp(&w, 0, 0), 1, ttype, ORMA_SUM, w.win));
        if (mode == M_LOCK_EXCL)
            CHECK_OK(orma_win_unlock(0, w.win));
        if (mode == M_LOCK_ALL)
            CHECK_OK(orma_win_flush(0, w.win));
    }
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        /* the background, read as int64, plus every rank's rounds */
        unsigned char *want = malloc(bytes);
        CHECK(want != NULL);
        rt_fill_bg(want, bytes);
        for (size_t k = 0; k < NDATA; k++) {
            int64_t v;
            memcpy(&v, want + t_index(k) * sizeof v, sizeof v);
            for (int r = 0; r < nranks; r++)
                v = (int64_t)((uint64_t)v + (uint64_t)value(r, k) * ROUNDS);
            memcpy(want + t_index(k) * sizeof v, &v, sizeof v);
        }
        for (size_t i = 0; i < bytes; i++)
            if (w.mem[i] != want[i]) {
                fprintf(stderr, "rank 0: %s, %s: window byte %zu (int64 %zu) is 0x%02x, expected 0x%02x\n",
                        st_kind_names[kind], mode_names[mode], i, i / 8, w.mem[i], want[i]);
                exit(1);
            }
        free(want);
    }
    CHECK_OK(orma_barrier());
    free(origin);
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    orma_type otype, ttype, mixed, uncommitted;
    CHECK_OK(orma_type_vector(120, 5, 9, ORMA_INT64, &otype));
    CHECK_OK(orma_type_vector(100, 6, 16, ORMA_INT64, &ttype));
    CHECK_OK(orma_type_commit(&otype));
    CHECK_OK(orma_type_commit(&ttype));
    for (int kind = 0; kind < ST_NKINDS; kind++)
        for (int mode = 0; mode < M_N; mode++)
            run(kind, mode, otype, ttype);

    /* refusals, before anything is written */
    size_t bl[2] = {1, 1};
    orma_aint d[2] = {0, 8};
    orma_type ts[2] = {ORMA_INT64, ORMA_DOUBLE};
    CHECK_OK(orma_type_struct(2, bl, d, ts, &mixed));
    CHECK_OK(orma_type_commit(&mixed));
    CHECK_OK(orma_type_contiguous(2, ORMA_INT64, &uncommitted));
    struct st_win w;
    st_win_open(&w, ST_ALLOCATE, 64);
    rt_fill_bg(w.mem, 64);
    int64_t two[2] = {1, 2};
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w.win));
    CHECK_ERR(orma_accumulate_typed(two, 1, mixed, 0, 0, 1, mixed, ORMA_SUM, w.win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate_typed(two, 1, uncommitted, 0, 0, 2, ORMA_INT64, ORMA_SUM, w.win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate_typed(two, 2, ORMA_INT64, 0, 0, 1, otype, ORMA_SUM, w.win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate_typed(two, 2, ORMA_INT64, 0, 0, 2, ORMA_INT64, ORMA_MAXLOC, w.win), ORMA_ERR_OP);
    CHECK_ERR(orma_accumulate_typed(two, 1, ttype, 0, 0, 1, ttype, ORMA_SUM, w.win), ORMA_ERR_RANGE);
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());
    RT_EXPECT_BG(w.mem, 0, 64, "window after refused accumulates");
    CHECK_OK(orma_barrier());
    st_win_close(&w);
    CHECK_OK(orma_type_free(&mixed));
    CHECK_OK(orma_type_free(&uncommitted));
    CHECK_OK(orma_type_free(&otype));
    CHECK_OK(orma_type_free(&ttype));
    CHECK_OK(orma_finalize());
    return 0;
}
