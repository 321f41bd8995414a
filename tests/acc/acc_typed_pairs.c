/* acc_typed_pairs.c -- typed accumulates of the pair types whose elements
 * hold padding (ORMA_DOUBLE_INT: 12 data bytes in 16; ORMA_SHORT_INT: a
 * short, 2 bytes of padding, an int), on every window flavour:
 *   - every rank MINLOCs a strided origin layout into a differently strided
 *     target layout of rank 0 (fence), then MAXLOCs the SHORT_INT layout
 *     under lock_all; the result is checked element by element against the
 *     MPI rule (the extreme value, the lowest index on ties), and no byte
 *     outside the target elements' data -- their padding included -- may
 *     change;
 *   - get_accumulate_typed NO_OP reads the result back into a third layout
 *     whose padding must stay as it was. */
#include "sync_test.h"

#include <stdio.h>

enum { N = 300 };

static int rank, nranks;

static double dval(int r, size_t k) { return (double)((r * 7 + (int)k * 3) % 11) - 5.0; }
static short sval(int r, size_t k) { return (short)((r * 5 + (int)k * 7) % 13); }

/* The MPI MINLOC (MAXLOC: max) of every rank's (value, rank). */
static void expect_d(size_t k, double *v, int *idx)
{
    *v = dval(0, k);
    *idx = 0;
    for (int r = 1; r < nranks; r++)
        if (dval(r, k) < *v) {
            *v = dval(r, k);
            *idx = r;
        }
}

static void expect_s(size_t k, short *v, int *idx)
{
    *v = sval(0, k);
    *idx = 0;
    for (int r = 1; r < nranks; r++)
        if (sval(r, k) > *v) {
            *v = sval(r, k);
            *idx = r;
        }
}

static void fail(int kind, const char *what, size_t at)
{
    fprintf(stderr, "rank %d: %s: %s wrong at %zu\n", rank, st_kind_names[kind], what, at);
    exit(1);
}

static void run(int kind, orma_type dorig, orma_type dtarg, orma_type sorig, orma_type starg)
{
    /* DOUBLE_INT elements at 2k of the window, SHORT_INT ones after them */
    size_t dbytes = 2 * N * sizeof(struct orma_double_int), bytes = dbytes + 3 * N * sizeof(struct orma_short_int);
    struct st_win w;
    st_win_open(&w, kind, bytes);
    rt_fill_bg(w.mem, bytes);
    struct orma_double_int *dsrc = calloc(3 * N, sizeof *dsrc);
    struct orma_short_int *ssrc = calloc(N, sizeof *ssrc);
    CHECK(dsrc && ssrc);
    for (size_t k = 0; k < N; k++) {
        dsrc[3 * k] = (struct orma_double_int){dval(rank, k), rank};
        ssrc[k] = (struct orma_short_int){sval(rank, k), rank};
    }
    CHECK_OK(orma_barrier());
    /* the target elements start as (+inf-ish, big index) and (-1, big) */
    if (rank == 0) {
        for (size_t k = 0; k < N; k++) {
            struct orma_double_int d = {1e300, 1 << 30};
            memcpy(w.mem + 2 * k * sizeof d + 0, &d.value, sizeof d.value);
            memcpy(w.mem + 2 * k * sizeof d + offsetof(struct orma_double_int, index), &d.index, sizeof d.index);
            struct orma_short_int s = {-1, 1 << 30};
            size_t at = dbytes + 3 * k * sizeof s;
            memcpy(w.mem + at, &s.value, sizeof s.value);
            memcpy(w.mem + at + offsetof(struct orma_short_int, index), &s.index, sizeof s.index);
        }
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_fence(0, w.win));
    CHECK_OK(orma_accumulate_typed(dsrc, 1, dorig, 0, st_disp(&w, 0, 0), 1, dtarg, ORMA_MINLOC, w.win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    CHECK_OK(orma_win_lock_all(0, w.win));
    CHECK_OK(orma_accumulate_typed(ssrc, 1, sorig, 0, st_disp(&w, 0, dbytes), 1, starg, ORMA_MAXLOC,
                                   w.win));
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());

    /* read back with NO_OP into a layout with gaps */
    struct orma_double_int *back = malloc(3 * N * sizeof *back);
    CHECK(back != NULL);
    memset(back, 0xA5, 3 * N * sizeof *back);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, w.win));
    CHECK_OK(orma_get_accumulate_typed(NULL, 0, NULL, back, 1, dorig, 0, st_disp(&w, 0, 0), 1, dtarg, ORMA_NO_OP,
                                       w.win));
    CHECK_OK(orma_win_unlock(0, w.win));
    for (size_t k = 0; k < N; k++) {
        double v;
        int idx;
        expect_d(k, &v, &idx);
        if (back[3 * k].value != v || back[3 * k].index != idx)
            fail(kind, "DOUBLE_INT MINLOC read back", k);
        const unsigned char *b = (const unsigned char *)&back[3 * k];
        for (size_t p = 12; p < sizeof back[0]; p++) /* the padding of the result elements */
            if (b[p] != 0xA5)
                fail(kind, "result padding", k);
        for (int g = 1; g < 3; g++) {
            const unsigned char *gap = (const unsigned char *)&back[3 * k + (size_t)g];
            for (size_t p = 0; p < sizeof back[0]; p++)
                if (gap[p] != 0xA5)
                    fail(kind, "result between elements", k);
        }
    }
    if (rank == 0) {
        unsigned char *want = malloc(bytes);
        CHECK(want != NULL);
        rt_fill_bg(want, bytes);
        for (size_t k = 0; k < N; k++) {
            double v;
            short sv;
            int idx;
            expect_d(k, &v, &idx);
            memcpy(want + 2 * k * 16, &v, 8);
            memcpy(want + 2 * k * 16 + 8, &idx, 4);
            expect_s(k, &sv, &idx);
            size_t at = dbytes + 3 * k * sizeof(struct orma_short_int);
            memcpy(want + at, &sv, 2);
            memcpy(want + at + offsetof(struct orma_short_int, index), &idx, 4);
        }
        for (size_t b = 0; b < bytes; b++)
            if (w.mem[b] != want[b])
                fail(kind, "window byte", b);
        free(want);
    }
    CHECK_OK(orma_barrier());
    free(back);
    free(dsrc);
    free(ssrc);
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    orma_type dorig, dtarg, sorig, starg;
    CHECK_OK(orma_type_vector(N, 1, 3, ORMA_DOUBLE_INT, &dorig));
    CHECK_OK(orma_type_vector(N, 1, 2, ORMA_DOUBLE_INT, &dtarg));
    CHECK_OK(orma_type_contiguous(N, ORMA_SHORT_INT, &sorig));
    CHECK_OK(orma_type_vector(N, 1, 3, ORMA_SHORT_INT, &starg));
    CHECK_OK(orma_type_commit(&dorig));
    CHECK_OK(orma_type_commit(&dtarg));
    CHECK_OK(orma_type_commit(&sorig));
    CHECK_OK(orma_type_commit(&starg));
    for (int kind = 0; kind < ST_NKINDS; kind++)
        run(kind, dorig, dtarg, sorig, starg);
    CHECK_OK(orma_type_free(&dorig));
    CHECK_OK(orma_type_free(&dtarg));
    CHECK_OK(orma_type_free(&sorig));
    CHECK_OK(orma_type_free(&starg));
    CHECK_OK(orma_finalize());
    return 0;
}
