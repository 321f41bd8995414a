/* acc_errors.c -- argument errors of accumulate, get_accumulate,
 * fetch_and_op, compare_and_swap and their request-based forms.
 *
 * Each bad call must return exactly the documented code with a message
 * naming the rank (CHECK_ERR), write nothing -- neither the target window
 * nor the result buffer -- and leave the epoch as it was: the errors are
 * made inside a fence epoch and inside a lock_all epoch, and afterwards
 * every byte of every window and buffer is checked, and a correct epoch
 * follows.  A fence epoch in which every call failed must close with
 * ORMA_MODE_NOPRECEDE: a failed call issued no operation.  Range errors
 * are made on every flavour (dynamic windows: outside the attached
 * region).  The checks are local: all ranks make the same bad calls, so the
 * collective calls stay matched. */
#include "acc_test.h"

#include <limits.h>

static int rank, nranks, rt;

enum { DU = 4 };
/* Sizes differ between ranks, so a range check must use the target's. */
static size_t wsize(int r) { return 64 + 4 * (size_t)r; }

/* Not a type object, suitably aligned so that a library that follows it
 * does not fault before rejecting it. */
static struct {
    uint64_t words[32];
} junk = {{0x5555555555555555u, 0x7777777777777777u}};

static _Alignas(16) unsigned char res[64];
static _Alignas(16) int32_t src[16];

static void expect_res_untouched(const char *what)
{
    RT_EXPECT_BG(res, 0, sizeof res, what);
}

/* Every call here is wrong in exactly one way; win holds an open epoch to
 * rt: fence, or (passive) lock_all, where the request-based calls are
 * allowed. */
static void bad_calls(orma_win win, orma_win freed, int passive)
{
    orma_type junk_type = (orma_type)(void *)&junk;
    orma_request req = AT_REQ_UNSET;
    int32_t *r32 = (int32_t *)(void *)res, cmp = 0;
    size_t ts = wsize(rt);
    orma_aint last = (orma_aint)(ts / DU); /* first displacement past the end */
    const orma_win bad_wins[] = {ORMA_WIN_NULL, freed, (orma_win)0x1234567};
    const int bad_ranks[] = {-1, nranks, INT_MAX, INT_MIN};
    const int bad_ops[] = {-1, ORMA_OP_COUNT, ORMA_OP_COUNT + 7, INT_MAX};

    for (size_t i = 0; i < sizeof bad_wins / sizeof bad_wins[0]; i++) {
        orma_win w = bad_wins[i];
        CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, w), ORMA_ERR_WIN);
        CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, w),
                  ORMA_ERR_WIN);
        CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, 1, ORMA_SUM, w), ORMA_ERR_WIN);
        CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, 1, w), ORMA_ERR_WIN);
        CHECK_ERR(orma_raccumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, w, &req), ORMA_ERR_WIN);
        CHECK_ERR(orma_rget_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, w,
                                       &req),
                  ORMA_ERR_WIN);
    }
    for (size_t i = 0; i < sizeof bad_ranks / sizeof bad_ranks[0]; i++) {
        int t = bad_ranks[i];
        CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, t, 1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_RANK);
        CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, t, 1, 2, ORMA_INT32, ORMA_SUM, win),
                  ORMA_ERR_RANK);
        CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, t, 1, ORMA_SUM, win), ORMA_ERR_RANK);
        CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, t, 1, win), ORMA_ERR_RANK);
    }

    /* NULL buffers with elements to move. */
    CHECK_ERR(orma_accumulate(NULL, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_accumulate(NULL, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_REPLACE, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_get_accumulate(NULL, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_ARG);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, NULL, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_ARG);
    CHECK_ERR(orma_get_accumulate(NULL, 0, ORMA_INT32, NULL, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_NO_OP,
                                  win),
              ORMA_ERR_ARG);
    CHECK_ERR(orma_fetch_and_op(NULL, r32, ORMA_INT32, rt, 1, ORMA_SUM, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_fetch_and_op(src, NULL, ORMA_INT32, rt, 1, ORMA_SUM, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_fetch_and_op(NULL, NULL, ORMA_INT32, rt, 1, ORMA_NO_OP, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_compare_and_swap(NULL, &cmp, r32, ORMA_INT32, rt, 1, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_compare_and_swap(src, NULL, r32, ORMA_INT32, rt, 1, win), ORMA_ERR_ARG);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, NULL, ORMA_INT32, rt, 1, win), ORMA_ERR_ARG);

    /* Types: not a type, or origin/result type other than the target's
     * (even of the same size), or counts that differ. */
    CHECK_ERR(orma_accumulate(src, 2, junk_type, rt, 1, 2, junk_type, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate(src, 2, NULL, rt, 1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_fetch_and_op(src, r32, junk_type, rt, 1, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_fetch_and_op(src, r32, NULL, rt, 1, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, junk_type, rt, 1, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_UINT32, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 1, ORMA_INT64, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 3, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_accumulate(src, 3, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_REPLACE, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_UINT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_FLOAT, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 3, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 1, ORMA_INT64, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_TYPE);
    CHECK_ERR(orma_get_accumulate(src, 1, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_TYPE);
    if (passive)
        CHECK_ERR(orma_raccumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_UINT32, ORMA_SUM, win, &req),
                  ORMA_ERR_TYPE);

    /* Displacements. */
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, -1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_DISP);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, -8, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_DISP);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, -1, ORMA_SUM, win), ORMA_ERR_DISP);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, INTPTR_MIN, win), ORMA_ERR_DISP);
    if (passive)
        CHECK_ERR(orma_raccumulate(src, 2, ORMA_INT32, rt, -1, 2, ORMA_INT32, ORMA_SUM, win, &req),
                  ORMA_ERR_DISP);

    /* Range: past the end of the target's window (the target's size, not
     * ours), by a whole element or by part of one. */
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, last - 1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_RANGE);
    CHECK_ERR(orma_accumulate(src, 16, ORMA_INT32, rt, last - 15, 16, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_RANGE);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, last, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, last, ORMA_SUM, win), ORMA_ERR_RANGE);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT64, rt, last - 1, ORMA_SUM, win), ORMA_ERR_RANGE);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT64, rt, last - 1, win), ORMA_ERR_RANGE);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, INTPTR_MAX / 2, win), ORMA_ERR_RANGE);
    if (passive)
        CHECK_ERR(orma_rget_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, last - 1, 2, ORMA_INT32,
                                       ORMA_SUM, win, &req),
                  ORMA_ERR_RANGE);
    /* Pairs span their extent: 40 bytes hold 3 x 12 bytes of
     * ORMA_DOUBLE_INT data but not 3 x 16 bytes of extent, and 2 x 20
     * bytes of ORMA_LONG_DOUBLE_INT data but not 2 x 32. */
    CHECK_ERR(orma_accumulate(res, 3, ORMA_DOUBLE_INT, rt, last - 10, 3, ORMA_DOUBLE_INT, ORMA_MAXLOC, win),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_get_accumulate(NULL, 0, ORMA_DOUBLE_INT, res, 3, ORMA_DOUBLE_INT, rt, last - 10, 3,
                                  ORMA_DOUBLE_INT, ORMA_NO_OP, win),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_accumulate(res, 2, ORMA_LONG_DOUBLE_INT, rt, last - 10, 2, ORMA_LONG_DOUBLE_INT, ORMA_MINLOC,
                              win),
              ORMA_ERR_RANGE);
    CHECK_ERR(orma_fetch_and_op(res, res + 32, ORMA_LONG_DOUBLE_INT, rt, last - 7, ORMA_MAXLOC, win),
              ORMA_ERR_RANGE);

    /* Ops outside the enum, and ops not defined for the type. */
    for (size_t i = 0; i < sizeof bad_ops / sizeof bad_ops[0]; i++) {
        orma_op op = (orma_op)bad_ops[i];
        CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, op, win), ORMA_ERR_OP);
        CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, op, win),
                  ORMA_ERR_OP);
        CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, 1, op, win), ORMA_ERR_OP);
        if (passive) {
            CHECK_ERR(orma_raccumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, op, win, &req), ORMA_ERR_OP);
            CHECK_ERR(orma_rget_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, op, win,
                                           &req),
                      ORMA_ERR_OP);
        }
    }
    CHECK_ERR(orma_accumulate(src, 2, ORMA_FLOAT, rt, 1, 2, ORMA_FLOAT, ORMA_BXOR, win), ORMA_ERR_OP);
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_MINLOC, win), ORMA_ERR_OP);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_2INT, rt, 1, ORMA_SUM, win), ORMA_ERR_OP);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_FLOAT, rt, 1, win), ORMA_ERR_TYPE);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_CHAR, rt, 1, win), ORMA_ERR_TYPE);
    CHECK(req == AT_REQ_UNSET); /* no failed call wrote the request */
    expect_res_untouched("result buffer after refused calls");
}

/* Correct calls that move nothing, at the edges of the target's window. */
static void good_noops(orma_win win)
{
    size_t ts = wsize(rt);
    orma_aint last = (orma_aint)(ts / DU);
    CHECK_OK(orma_accumulate(NULL, 0, ORMA_INT32, rt, 1, 0, ORMA_INT32, ORMA_SUM, win));
    CHECK_OK(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_NO_OP, win));
    CHECK_OK(orma_accumulate(res, 3, ORMA_DOUBLE_INT, rt, last - 12, 3, ORMA_DOUBLE_INT, ORMA_NO_OP, win));
    CHECK_OK(orma_accumulate(res, 1, ORMA_LONG_DOUBLE_INT, rt, last - 8, 1, ORMA_LONG_DOUBLE_INT, ORMA_NO_OP,
                             win));
    CHECK_OK(orma_accumulate(src, 1, ORMA_INT32, rt, last - 1, 1, ORMA_INT32, ORMA_NO_OP, win));
    expect_res_untouched("result buffer after NO_OP calls");
}

/* Calls outside any epoch, or to a rank outside the epoch. */
static void sync_errors(orma_win win, const char *when)
{
    int32_t *r32 = (int32_t *)(void *)res, cmp = 0;
    orma_request req = AT_REQ_UNSET;
    CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_accumulate(src, 0, ORMA_INT32, rt, 1, 0, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, 1, ORMA_SUM, win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, 1, win), ORMA_ERR_RMA_SYNC);
    CHECK_ERR(orma_raccumulate(src, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32, ORMA_SUM, win, &req),
              ORMA_ERR_RMA_SYNC);
    CHECK(req == AT_REQ_UNSET);
    expect_res_untouched(when);
}

/* Range errors on every flavour: past the end of the target's part (of a
 * shared segment, too: the next rank's part is not ours to reach), and for
 * dynamic windows before, after and far from the attached region -- where
 * orma refuses what lies outside the regions: in check mode and over the
 * net transport (else it carries such accesses out, as MPICH does, and
 * these would write into the allocator's memory). */
static void flavour_ranges(void)
{
    const char *transport = getenv("ORMA_TRANSPORT");
    int strict = at_check_mode() || (transport && !strcmp(transport, "net"));
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        if ((kind == ST_DYNAMIC_MALLOC || kind == ST_DYNAMIC_ALLOCMEM) && !strict)
            continue;
        struct st_win w;
        size_t mysize = 64 + 8 * (size_t)rank, tsize = 64 + 8 * (size_t)rt;
        int32_t *r32 = (int32_t *)(void *)res, cmp = 0;
        orma_aint end;

        st_win_open(&w, kind, mysize);
        end = st_disp(&w, rt, tsize);
        rt_fill_bg(w.mem, mysize);
        CHECK_OK(orma_win_fence(0, w.win));
        CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, end - 4, 2, ORMA_INT32, ORMA_SUM, w.win),
                  ORMA_ERR_RANGE);
        CHECK_ERR(orma_accumulate(src, 16, ORMA_INT32, rt, end - 60, 16, ORMA_INT32, ORMA_REPLACE, w.win),
                  ORMA_ERR_RANGE);
        CHECK_ERR(orma_get_accumulate(src, 2, ORMA_INT32, r32, 2, ORMA_INT32, rt, end, 2, ORMA_INT32, ORMA_SUM,
                                      w.win),
                  ORMA_ERR_RANGE);
        CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT64, rt, end - 4, ORMA_SUM, w.win), ORMA_ERR_RANGE);
        CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, end, w.win), ORMA_ERR_RANGE);
        CHECK_ERR(orma_accumulate(res, 3, ORMA_DOUBLE_INT, rt, end - 40, 3, ORMA_DOUBLE_INT, ORMA_MAXLOC, w.win),
                  ORMA_ERR_RANGE);
        if (w.addr) {
            orma_aint start = st_disp(&w, rt, 0);
            CHECK_ERR(orma_accumulate(src, 2, ORMA_INT32, rt, start - 4, 2, ORMA_INT32, ORMA_SUM, w.win),
                      ORMA_ERR_RANGE);
            CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, rt, start - 64, ORMA_SUM, w.win), ORMA_ERR_RANGE);
            CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, rt, 64, w.win), ORMA_ERR_RANGE);
            CHECK_ERR(orma_get_accumulate(NULL, 0, ORMA_INT32, r32, 2, ORMA_INT32, rt, end + 4096, 2, ORMA_INT32,
                                          ORMA_NO_OP, w.win),
                      ORMA_ERR_RANGE);
        }
        /* The failed calls issued nothing: the epoch may close as one
         * without operations. */
        AT_RC(orma_win_fence(ORMA_MODE_NOPRECEDE | ORMA_MODE_NOSUCCEED, w.win), ORMA_SUCCESS,
              st_kind_names[kind]);
        /* The last element fits. */
        CHECK_OK(orma_win_fence(0, w.win));
        CHECK_OK(orma_accumulate(src, 1, ORMA_INT32, rt, end - 4, 1, ORMA_INT32, ORMA_NO_OP, w.win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
        RT_EXPECT_BG(w.mem, 0, mysize, st_kind_names[kind]);
        expect_res_untouched(st_kind_names[kind]);
        CHECK_OK(orma_barrier());
        st_win_close(&w);
    }
}

/* With ORMA_NO_OP get_accumulate ignores its origin arguments: any
 * buffer, count and type (orma.h), and is an atomic read. */
static void no_op_origin(orma_win win)
{
    int32_t got[4];
    const orma_type t[3] = {ORMA_DOUBLE, ORMA_INT64, NULL};
    const size_t counts[3] = {0, 5, 0};
    const void *bufs[3] = {NULL, src, NULL};
    for (int i = 0; i < 3; i++) {
        unsigned char want[8];
        rt_fill_bg((unsigned char *)got, sizeof got);
        CHECK_OK(orma_win_fence(0, win));
        CHECK_OK(orma_get_accumulate(bufs[i], counts[i], t[i], got + 1, 2, ORMA_INT32, rt, 1, 2, ORMA_INT32,
                                     ORMA_NO_OP, win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
        for (size_t j = 0; j < 8; j++)
            want[j] = rt_bg(DU + j);
        CHECK(memcmp(got + 1, want, 8) == 0);
        RT_EXPECT_BG((unsigned char *)got, 0, 4, "before the NO_OP result");
        RT_EXPECT_BG((unsigned char *)got, 12, 16, "after the NO_OP result");
    }
}

/* Outside the job every call fails with ORMA_ERR_NOT_INIT (orma_rank is
 * negative then, so CHECK_ERR does not look for a rank in the message). */
static void not_init(orma_win win, const char *when)
{
    int32_t *r32 = (int32_t *)(void *)res, cmp = 0;
    orma_request req = AT_REQ_UNSET;
    orma_info info = ORMA_INFO_NULL;
    CHECK_ERR(orma_accumulate(src, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_get_accumulate(src, 1, ORMA_INT32, r32, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win),
              ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_fetch_and_op(src, r32, ORMA_INT32, 0, 0, ORMA_SUM, win), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_compare_and_swap(src, &cmp, r32, ORMA_INT32, 0, 0, win), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_raccumulate(src, 1, ORMA_INT32, 0, 0, 1, ORMA_INT32, ORMA_SUM, win, &req), ORMA_ERR_NOT_INIT);
    CHECK_ERR(orma_win_get_info(win, &info), ORMA_ERR_NOT_INIT);
    CHECK(req == AT_REQ_UNSET && info == ORMA_INFO_NULL);
    expect_res_untouched(when);
}

int main(int argc, char **argv)
{
    unsigned char *mine = NULL, *other = NULL;
    orma_win win = ORMA_WIN_NULL, freed = ORMA_WIN_NULL;
    int32_t one = 1;

    for (int i = 0; i < 16; i++)
        src[i] = 1000 + i;
    rt_fill_bg(res, sizeof res);
    not_init(win, "before orma_init");

    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    at_types_init();

    /* A handle that was live once; a library that handed its value out
     * again would break "a freed handle is detected". */
    CHECK_OK(orma_win_allocate(16, 1, ORMA_INFO_NULL, (void **)&other, &freed));
    {
        orma_win keep = freed;
        CHECK_OK(orma_win_free(&keep));
    }
    CHECK_OK(orma_win_allocate(wsize(rank), DU, ORMA_INFO_NULL, (void **)&mine, &win));
    rt_fill_bg(mine, wsize(rank));
    CHECK_OK(orma_barrier());

    sync_errors(win, "before the first fence");
    CHECK_OK(orma_win_fence(0, win));
    bad_calls(win, freed, 0);
    /* The failed calls issued nothing (orma.h: on an error nothing was
     * changed), so the epoch may close as one without operations. */
    CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE | ORMA_MODE_NOSUCCEED, win));
    CHECK_OK(orma_win_fence(0, win));
    good_noops(win);
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    sync_errors(win, "after a fence with NOSUCCEED");
    if (nranks > 1) {
        /* PSCW and lock epochs that do not include the target. */
        orma_group all = ORMA_GROUP_NULL, g = ORMA_GROUP_NULL;
        CHECK_OK(orma_win_get_group(win, &all));
        CHECK_OK(orma_group_incl(all, 1, &rank, &g));
        CHECK_OK(orma_win_post(g, 0, win));
        CHECK_OK(orma_win_start(g, 0, win));
        sync_errors(win, "PSCW epoch to another rank");
        CHECK_OK(orma_win_complete(win));
        CHECK_OK(orma_win_wait(win));
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rank, 0, win));
        sync_errors(win, "lock epoch on another rank");
        CHECK_OK(orma_win_unlock(rank, win));
        CHECK_OK(orma_group_free(&g));
        CHECK_OK(orma_group_free(&all));
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_lock_all(0, win));
    bad_calls(win, freed, 1);
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_barrier());
    RT_EXPECT_BG(mine, 0, wsize(rank), "window after refused calls");
    CHECK_OK(orma_barrier());
    no_op_origin(win);
    RT_EXPECT_BG(mine, 0, wsize(rank), "window after NO_OP reads");
    CHECK_OK(orma_barrier());
    flavour_ranges();

    /* The epochs still work: accumulate into the right neighbour. */
    CHECK_OK(orma_win_fence(0, win));
    CHECK_OK(orma_accumulate(&one, 1, ORMA_INT32, rt, 2, 1, ORMA_INT32, ORMA_REPLACE, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    {
        int32_t v;
        memcpy(&v, mine + 2 * DU, sizeof v);
        CHECK(v == 1);
        RT_EXPECT_BG(mine, 0, 2 * DU, "window after the correct epoch");
        RT_EXPECT_BG(mine, 3 * DU, wsize(rank), "window after the correct epoch");
    }
    {
        orma_win old = win;
        CHECK_OK(orma_win_free(&win));
        CHECK_OK(orma_finalize());
        not_init(old, "after orma_finalize");
    }
    return 0;
}
