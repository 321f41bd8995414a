/* acc_typed_fetch.c -- orma_get_accumulate_typed and the request-based
 * typed calls, on every window flavour.
 *   - Every rank adds 1, ROUNDS times, to each element of a strided target
 *     layout at rank 0, fetching the old values into a result layout of yet
 *     another shape (fence, lock_all with and without requests, exclusive
 *     locks).  Each element is read and updated in one atomic step, so the
 *     values fetched for element k over all ranks and rounds must be
 *     exactly bg_k + 0 .. bg_k + n*ROUNDS - 1, each once; no byte of the
 *     result buffer outside its layout and no byte of the window outside
 *     the target layout may change.
 *   - NO_OP with a NULL origin is an atomic typed read.
 *   - rput_typed / rget_typed / raccumulate_typed round trips, and the
 *     refusals (outside passive epochs, bad result layouts). */
#include "sync_test.h"

#include <stdint.h>
#include <stdio.h>

enum { NEL = 2048, NDATA = 600, ROUNDS = 10 };
enum { M_FENCE, M_LOCK_ALL, M_LOCK_ALL_REQ, M_LOCK_EXCL, M_N };
static const char *const mode_names[M_N] = {"fence", "lock_all", "lock_all+requests", "lock(exclusive)"};

static int rank, nranks;

/* Element k of the origin (vector 120 x 5, stride 9), target (vector
 * 100 x 6, stride 16) and result (vector 200 x 3, stride -4, so the
 * buffer is walked backwards) layouts, as int64 indices from each
 * layout's origin. */
static size_t o_index(size_t k) { return k / 5 * 9 + k % 5; }
static size_t t_index(size_t k) { return k / 6 * 16 + k % 6; }
static ptrdiff_t r_index(size_t k) { return -(ptrdiff_t)(k / 3) * 4 + (ptrdiff_t)(k % 3); }
#define R_SPAN (199 * 4 + 3) /* int64s the result layout reaches */
#define R_ORIGIN (199 * 4)   /* where its origin is in the buffer */

static uint64_t bg_elem(const unsigned char *bg, size_t k)
{
    uint64_t v;
    memcpy(&v, bg + t_index(k) * 8, 8);
    return v;
}

/* Every fetched value of element k, gathered at rank 0, is bg_k + j for a
 * distinct j < n * ROUNDS. */
static void check_fetched(const char *what, const uint64_t *all, const unsigned char *bg)
{
    size_t total = (size_t)nranks * ROUNDS;
    unsigned char *seen = malloc(total);
    CHECK(seen != NULL);
    for (size_t k = 0; k < NDATA; k++) {
        memset(seen, 0, total);
        for (size_t s = 0; s < total; s++) {
            uint64_t j = all[s * NDATA + k] - bg_elem(bg, k);
            if (j >= total || seen[j]) {
                fprintf(stderr, "rank 0: %s: element %zu fetched bg+%llu (from rank %zu, round %zu): %s\n", what,
                        k, (unsigned long long)j, s / ROUNDS, s % ROUNDS, j >= total ? "out of range" : "twice");
                exit(1);
            }
            seen[j] = 1;
        }
    }
    free(seen);
}

static void run(int kind, int mode, orma_type otype, orma_type ttype, orma_type rtype)
{
    struct st_win w, g;
    size_t bytes = NEL * sizeof(int64_t);
    st_win_open(&w, kind, bytes);
    rt_fill_bg(w.mem, bytes);
    size_t gbytes = (size_t)nranks * ROUNDS * NDATA * 8;
    st_win_open(&g, ST_ALLOCATE, gbytes);
    int64_t *origin = calloc(o_index(NDATA - 1) + 1, sizeof *origin);
    unsigned char *rbuf = malloc(R_SPAN * 8);
    uint64_t *mine = malloc((size_t)ROUNDS * NDATA * 8);
    CHECK(origin && rbuf && mine);
    for (size_t k = 0; k < NDATA; k++)
        origin[o_index(k)] = 1;
    CHECK_OK(orma_barrier());
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(0, w.win));
    if (mode == M_LOCK_ALL || mode == M_LOCK_ALL_REQ)
        CHECK_OK(orma_win_lock_all(0, w.win));
    int64_t *result = (int64_t *)(void *)rbuf + R_ORIGIN;
    for (int i = 0; i < ROUNDS; i++) {
        rt_fill_bg(rbuf, R_SPAN * 8);
        if (mode == M_LOCK_EXCL)
            CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, w.win));
        if (mode == M_LOCK_ALL_REQ) {
            orma_request req = ORMA_REQUEST_NULL;
            CHECK_OK(orma_rget_accumulate_typed(origin, 1, otype, result, 1, rtype, 0, st_disp(&w, 0, 0), 1, ttype,
                                                ORMA_SUM, w.win, &req));
            CHECK_OK(orma_wait(&req));
            CHECK(req == ORMA_REQUEST_NULL);
        } else {
            CHECK_OK(orma_get_accumulate_typed(origin, 1, otype, result, 1, rtype, 0, st_disp(&w, 0, 0), 1, ttype,
                                               ORMA_SUM, w.win));
        }
        if (mode == M_LOCK_EXCL)
            CHECK_OK(orma_win_unlock(0, w.win));
        if (mode == M_LOCK_ALL || mode == M_LOCK_ALL_REQ)
            CHECK_OK(orma_win_flush(0, w.win));
        if (mode == M_FENCE) /* the result belongs to the epoch until it closes */
            CHECK_OK(orma_win_fence(0, w.win));
        /* outside the result layout nothing changed */
        unsigned char *want = malloc(R_SPAN * 8);
        CHECK(want != NULL);
        rt_fill_bg(want, R_SPAN * 8);
        for (size_t k = 0; k < NDATA; k++) {
            size_t at = (size_t)(R_ORIGIN + r_index(k)) * 8;
            memcpy(&mine[(size_t)i * NDATA + k], rbuf + at, 8);
            memcpy(want + at, rbuf + at, 8);
        }
        if (memcmp(want, rbuf, R_SPAN * 8)) {
            fprintf(stderr, "rank %d: %s, %s: a result byte outside the result layout changed\n", rank,
                    st_kind_names[kind], mode_names[mode]);
            exit(1);
        }
        free(want);
    }
    if (mode == M_FENCE)
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    if (mode == M_LOCK_ALL || mode == M_LOCK_ALL_REQ)
        CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());

    /* NO_OP: an atomic typed read of the final values, no origin */
    rt_fill_bg(rbuf, R_SPAN * 8);
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, 0, 0, w.win));
    CHECK_OK(orma_get_accumulate_typed(NULL, 0, ORMA_INT64, result, 1, rtype, 0, st_disp(&w, 0, 0), 1, ttype,
                                       ORMA_NO_OP, w.win));
    CHECK_OK(orma_win_unlock(0, w.win));
    unsigned char bg[NEL * 8];
    rt_fill_bg(bg, sizeof bg);
    for (size_t k = 0; k < NDATA; k++)
        if ((uint64_t)result[r_index(k)] != bg_elem(bg, k) + (uint64_t)nranks * ROUNDS) {
            fprintf(stderr, "rank %d: %s, %s: NO_OP read element %zu wrong\n", rank, st_kind_names[kind],
                    mode_names[mode], k);
            exit(1);
        }

    /* gather every fetched value at rank 0 */
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, g.win));
    CHECK_OK(orma_put(mine, (size_t)ROUNDS * NDATA, ORMA_UINT64, 0, (orma_aint)((size_t)rank * ROUNDS * NDATA * 8),
                      (size_t)ROUNDS * NDATA, ORMA_UINT64, g.win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, g.win));
    if (rank == 0) {
        char what[96];
        snprintf(what, sizeof what, "%s, %s", st_kind_names[kind], mode_names[mode]);
        check_fetched(what, (const uint64_t *)(void *)g.mem, bg);
        unsigned char *want = malloc(bytes);
        CHECK(want != NULL);
        rt_fill_bg(want, bytes);
        for (size_t k = 0; k < NDATA; k++) {
            uint64_t v = bg_elem(want, k) + (uint64_t)nranks * ROUNDS;
            memcpy(want + t_index(k) * 8, &v, 8);
        }
        for (size_t b = 0; b < bytes; b++)
            if (w.mem[b] != want[b]) {
                fprintf(stderr, "rank 0: %s: window byte %zu is 0x%02x, expected 0x%02x\n", what, b, w.mem[b],
                        want[b]);
                exit(1);
            }
        free(want);
    }
    CHECK_OK(orma_barrier());
    free(origin);
    free(rbuf);
    free(mine);
    st_win_close(&g);
    st_win_close(&w);
}

/* rput_typed of a strided layout into the right neighbour's window,
 * rget_typed back into another layout, raccumulate_typed on top. */
static void run_requests(int kind, orma_type otype, orma_type ttype, orma_type rtype)
{
    struct st_win w;
    size_t bytes = NEL * sizeof(int64_t);
    st_win_open(&w, kind, bytes);
    rt_fill_bg(w.mem, bytes);
    int right = (rank + 1) % nranks;
    int64_t *origin = calloc(o_index(NDATA - 1) + 1, sizeof *origin);
    int64_t *back = calloc(R_SPAN, sizeof *back);
    CHECK(origin && back);
    for (size_t k = 0; k < NDATA; k++)
        origin[o_index(k)] = (int64_t)(rank * 100000 + (int)k);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, w.win));
    orma_request req[3];
    CHECK_OK(orma_rput_typed(origin, 1, otype, right, st_disp(&w, right, 0), 1, ttype, w.win, &req[0]));
    CHECK_OK(orma_wait(&req[0]));
    CHECK_OK(orma_win_flush(right, w.win));
    CHECK_OK(orma_rget_typed(back + R_ORIGIN, 1, rtype, right, st_disp(&w, right, 0), 1, ttype, w.win, &req[1]));
    CHECK_OK(orma_wait(&req[1]));
    CHECK_OK(orma_raccumulate_typed(origin, 1, otype, right, st_disp(&w, right, 0), 1, ttype, ORMA_SUM, w.win,
                                    &req[2]));
    CHECK_OK(orma_wait(&req[2]));
    CHECK(req[1] == ORMA_REQUEST_NULL && req[2] == ORMA_REQUEST_NULL);
    CHECK_OK(orma_win_unlock_all(w.win));
    for (size_t k = 0; k < NDATA; k++)
        if (back[R_ORIGIN + r_index(k)] != origin[o_index(k)]) {
            fprintf(stderr, "rank %d: %s: rget_typed element %zu wrong\n", rank, st_kind_names[kind], k);
            exit(1);
        }
    CHECK_OK(orma_barrier());
    int left = (rank + nranks - 1) % nranks;
    unsigned char *want = malloc(bytes);
    CHECK(want != NULL);
    rt_fill_bg(want, bytes);
    for (size_t k = 0; k < NDATA; k++) {
        int64_t v = 2 * (int64_t)(left * 100000 + (int)k);
        memcpy(want + t_index(k) * 8, &v, 8);
    }
    if (memcmp(want, w.mem, bytes)) {
        fprintf(stderr, "rank %d: %s: window after rput/raccumulate_typed wrong\n", rank, st_kind_names[kind]);
        exit(1);
    }
    CHECK_OK(orma_barrier());
    free(want);
    free(origin);
    free(back);
    st_win_close(&w);
}

static void refusals(orma_type ttype, orma_type rtype)
{
    struct st_win w;
    st_win_open(&w, ST_ALLOCATE, NEL * 8);
    rt_fill_bg(w.mem, NEL * 8);
    int64_t buf[4 * NEL];
    double dbuf[8];
    orma_type dvec, uncommitted;
    CHECK_OK(orma_type_vector(2, 1, 2, ORMA_DOUBLE, &dvec));
    CHECK_OK(orma_type_commit(&dvec));
    CHECK_OK(orma_type_contiguous(2, ORMA_INT64, &uncommitted));
    orma_request req = ORMA_REQUEST_NULL;
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_fence(0, w.win));
    CHECK_ERR(orma_rput_typed(buf, 1, ttype, 0, 0, 1, ttype, w.win, &req), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_raccumulate_typed(buf, 1, ttype, 0, 0, 1, ttype, ORMA_SUM, w.win, &req), ORMA_ERR_RMA_SYNC);
    CHECK(req == ORMA_REQUEST_NULL);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    CHECK_OK(orma_win_lock_all(0, w.win));
    CHECK_ERR(orma_rget_typed(buf, 1, ttype, 0, 0, 1, ttype, w.win, NULL), ORMA_ERR_ARG);
    /* result of another basic type, of another size, missing, uncommitted */
    CHECK_ERR(orma_get_accumulate_typed(buf, 2, ORMA_INT64, dbuf, 1, dvec, 0, 0, 2, ORMA_INT64, ORMA_SUM, w.win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate_typed(buf, 1, ttype, buf, 2, rtype, 0, 0, 1, ttype, ORMA_SUM, w.win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate_typed(buf, 1, ttype, NULL, 1, rtype, 0, 0, 1, ttype, ORMA_SUM, w.win),
              ORMA_ERR_ARG);
    CHECK_ERR(orma_get_accumulate_typed(buf, 2, ORMA_INT64, buf, 1, uncommitted, 0, 0, 2, ORMA_INT64, ORMA_SUM,
                                        w.win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate_typed(buf, 1, ttype, buf, 1, rtype, 0, 0, 1, ttype, ORMA_MINLOC, w.win),
              ORMA_ERR_OP);
    CHECK_ERR(orma_get_accumulate_typed(buf, 1, ttype, buf, 1, rtype, 0, NEL * 8 - 8, 1, ttype, ORMA_SUM, w.win),
              ORMA_ERR_RANGE);
    CHECK_OK(orma_win_unlock_all(w.win));
    CHECK_OK(orma_barrier());
    RT_EXPECT_BG(w.mem, 0, NEL * 8, "window after refused typed calls");
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_type_free(&dvec));
    CHECK_OK(orma_type_free(&uncommitted));
    st_win_close(&w);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    orma_type otype, ttype, rtype;
    CHECK_OK(orma_type_vector(120, 5, 9, ORMA_INT64, &otype));
    CHECK_OK(orma_type_vector(100, 6, 16, ORMA_INT64, &ttype));
    CHECK_OK(orma_type_vector(200, 3, -4, ORMA_INT64, &rtype));
    CHECK_OK(orma_type_commit(&otype));
    CHECK_OK(orma_type_commit(&ttype));
    CHECK_OK(orma_type_commit(&rtype));
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        for (int mode = 0; mode < M_N; mode++)
            run(kind, mode, otype, ttype, rtype);
        run_requests(kind, otype, ttype, rtype);
    }
    refusals(ttype, rtype);
    CHECK_OK(orma_type_free(&otype));
    CHECK_OK(orma_type_free(&ttype));
    CHECK_OK(orma_type_free(&rtype));
    CHECK_OK(orma_finalize());
    return 0;
}
