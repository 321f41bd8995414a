/* stress_mixed.c -- the two ways an accumulate is made atomic, on the same
 * elements at the same time: single-element fetch_and_ops and small
 * accumulates (hardware atomics on mapped memory) against whole-array
 * accumulates (plain loops under the stripes), from different ranks, in
 * every window flavour under lock_all, shared locks and fence.  A lost
 * update -- a plain loop writing back an element an atomic changed between
 * its read and its write -- leaves an element short of its exact count.
 * At one rank the rank plays both parts. */
#include "sync_test.h"

#include <stdint.h>
#include <stdio.h>

enum { NEL = 48000 }; /* 384000 bytes: six stripes of 64 KB (rma_ctl.h), not a multiple of one */
enum { M_LOCK_ALL, M_LOCK_SHARED, M_FENCE, M_NMODES };
static const char *const mode_names[M_NMODES] = {"lock_all", "lock(shared)", "fence"};

static int rank, nranks;

static int rounds(void) { return 200; }

/* What rank r does in round i: whole-array adds (even ranks, or the only
 * rank), or single-element and 4-element adds (odd ranks, or the only one). */
static int does_array(int r) { return nranks == 1 || r % 2 == 0; }
static int does_atomics(int r) { return nranks == 1 || r % 2 == 1; }
static size_t fop_el(int r, int i) { return ((size_t)i * 97u + (size_t)r * 13u) % NEL; }
static size_t small_el(int r, int i) { return ((size_t)i * 61u + (size_t)r * 7u) % (NEL - 4); }

static void issue(struct st_win *w, int mode, int i, const int64_t *ones, int64_t *fetched)
{
    int target = 0;
    if (mode == M_LOCK_SHARED)
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, target, 0, w->win));
    if (does_array(rank))
        CHECK_OK(orma_accumulate(ones, NEL, ORMA_INT64, target, st_disp(w, target, 0), NEL, ORMA_INT64, ORMA_SUM,
                                 w->win));
    if (does_atomics(rank)) {
        for (int k = 0; k < 8; k++) {
            size_t el = fop_el(rank, i * 8 + k);
            CHECK_OK(orma_fetch_and_op(&ones[0], &fetched[k], ORMA_INT64, target,
                                       st_disp(w, target, el * sizeof(int64_t)), ORMA_SUM, w->win));
        }
        size_t el = small_el(rank, i);
        CHECK_OK(orma_accumulate(ones, 4, ORMA_INT64, target, st_disp(w, target, el * sizeof(int64_t)), 4,
                                 ORMA_INT64, ORMA_SUM, w->win));
    }
    if (mode == M_LOCK_SHARED)
        CHECK_OK(orma_win_unlock(target, w->win));
    else if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_flush(target, w->win));
}

static void run(int kind, int mode)
{
    struct st_win w;
    size_t bytes = NEL * sizeof(int64_t) + 64;
    st_win_open(&w, kind, bytes);
    rt_fill_bg(w.mem, bytes);
    memset(w.mem, 0, NEL * sizeof(int64_t));
    int64_t ones[NEL], fetched[8];
    for (int j = 0; j < NEL; j++)
        ones[j] = 1;
    int R = rounds();
    CHECK_OK(orma_barrier());
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_lock_all(0, w.win));
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(0, w.win));
    for (int i = 0; i < R; i++) {
        issue(&w, mode, i, ones, fetched);
        if (mode == M_FENCE && i % 8 == 7)
            CHECK_OK(orma_win_fence(0, w.win));
    }
    if (mode == M_LOCK_ALL)
        CHECK_OK(orma_win_unlock_all(w.win));
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    CHECK_OK(orma_barrier());
    if (rank == 0) {
        int64_t *want = calloc(NEL, sizeof *want);
        CHECK(want != NULL);
        for (int r = 0; r < nranks; r++) {
            for (int i = 0; i < R; i++) {
                if (does_array(r))
                    for (int j = 0; j < NEL; j++)
                        want[j]++;
                if (does_atomics(r)) {
                    for (int k = 0; k < 8; k++)
                        want[fop_el(r, i * 8 + k)]++;
                    for (int j = 0; j < 4; j++)
                        want[small_el(r, i) + (size_t)j]++;
                }
            }
        }
        const int64_t *got = (const int64_t *)(void *)w.mem;
        for (int j = 0; j < NEL; j++) {
            int64_t v;
            memcpy(&v, &got[j], sizeof v);
            if (v != want[j]) {
                fprintf(stderr, "rank 0: %s, %s: element %d is %lld, expected %lld\n", st_kind_names[kind],
                        mode_names[mode], j, (long long)v, (long long)want[j]);
                exit(1);
            }
        }
        RT_EXPECT_BG(w.mem, NEL * sizeof(int64_t), bytes, "bytes past the array");
        free(want);
    }
    CHECK_OK(orma_barrier());
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    for (int kind = 0; kind < ST_NKINDS; kind++)
        for (int mode = 0; mode < M_NMODES; mode++)
            run(kind, mode);
    CHECK_OK(orma_finalize());
    return 0;
}
