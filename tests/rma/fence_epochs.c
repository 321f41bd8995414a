/* fence_epochs.c -- many fence epochs in a row, checked after every fence.
 *
 * The window holds two halves; in epoch k the puts go to half k % 2, so the
 * half written in epoch k-1 can be checked (and read by gets) while epoch k
 * runs without conflicting with its puts.  Each half has one slot per origin
 * rank, separated by guard elements.  The schedule mixes:
 *   ALL      every rank puts to every rank (itself included);
 *   IDLE_ONE one rank issues nothing, the others put to everyone;
 *   MIXED    each rank puts to some targets and gets from the others;
 *   GETONLY  only gets (the opening fence asserts ORMA_MODE_NOPUT);
 *   EMPTY    no operation at all (NOPUT; the next fence NOPRECEDE).
 * Values depend on the epoch, origin, target and element, so data of an
 * earlier epoch or of another origin is detected.  A get in epoch k reads
 * what puts of earlier epochs left at the target.  Every rank tracks the
 * epoch that last wrote each slot of every rank, which is what it expects to
 * find there. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>

enum { EPOCHS = 500, S = 24, GAP = 3, G = 4, GG = 2 };
enum kind { ALL, IDLE_ONE, MIXED, GETONLY, EMPTY };

static int rank, nranks;
static size_t per;        /* elements of one slot plus its trailing gap */
static size_t half_len;   /* elements of one half */
static size_t win_len;    /* elements of the window */
static int *state;        /* [t][h][s]: epoch that last wrote the slot, -1 none */

static uint64_t bg(size_t idx) { return UINT64_C(0xDEADBEEF00000000) | idx; }
static uint64_t gbg(size_t idx) { return UINT64_C(0xFEEDFACE00000000) | idx; }

static uint64_t val(int k, int s, int t, size_t j)
{
    return ((uint64_t)(k + 1) << 40) | ((uint64_t)s << 32) | ((uint64_t)t << 24) | j;
}

static size_t half_start(int h) { return G + (size_t)h * half_len; }
static size_t slot_start(int h, int s) { return half_start(h) + (size_t)s * per; }

static int *state_at(int t, int h, int s)
{
    return &state[((size_t)t * 2 + (size_t)h) * (size_t)nranks + (size_t)s];
}

static enum kind kind_of(int k)
{
    if (k == 0)
        return ALL;
    if (k % 11 == 5)
        return GETONLY;
    if (k % 13 == 6)
        return EMPTY;
    if (k % 7 == 3)
        return MIXED;
    if (k % 5 == 2)
        return IDLE_ONE;
    return ALL;
}

/* Does rank r put to rank t in epoch k? */
static int puts_to(int k, int r, int t)
{
    switch (kind_of(k)) {
    case ALL: return 1;
    case IDLE_ONE: return r != (k / 5) % nranks;
    case MIXED: return (t + r + k) % 2 == 0;
    default: return 0;
    }
}

static int gets_from(int k, int r, int t)
{
    switch (kind_of(k)) {
    case MIXED: return (t + r + k) % 2 != 0;
    case GETONLY: return 1;
    default: return 0;
    }
}

/* Assert of fence k (fence k opens epoch k; fence EPOCHS closes the last). */
static int assert_of(int k)
{
    int a = 0;
    if (k == 0)
        return ORMA_MODE_NOPRECEDE;       /* nothing to complete yet */
    if (k == EPOCHS)
        return ORMA_MODE_NOSUCCEED | ORMA_MODE_NOSTORE;
    if (kind_of(k - 1) == EMPTY)
        a |= ORMA_MODE_NOPRECEDE;         /* epoch k-1 issued nothing */
    if (kind_of(k) == GETONLY || kind_of(k) == EMPTY)
        a |= ORMA_MODE_NOPUT;             /* nobody puts in epoch k */
    if (k % 3 == 1)
        a |= ORMA_MODE_NOSTORE;           /* the loop never stores locally */
    return a;
}

/* What element idx of rank t's window must hold now. */
static uint64_t expect_at(int t, size_t idx)
{
    size_t rel, slot, j;
    int e;
    if (idx < G || idx >= G + 2 * half_len)
        return bg(idx);
    rel = idx - G;
    slot = rel / per;
    j = rel % per;
    if (j >= S)
        return bg(idx);
    e = *state_at(t, (int)(slot / (size_t)nranks), (int)(slot % (size_t)nranks));
    return e < 0 ? bg(idx) : val(e, (int)(slot % (size_t)nranks), t, j);
}

static void expect_window(const uint64_t *w, size_t from, size_t to, int k,
                          const char *what)
{
    for (size_t idx = from; idx < to; idx++)
        if (w[idx] != expect_at(rank, idx)) {
            fprintf(stderr, "rank %d: after epoch %d: %s: element %zu is %#llx, "
                    "expected %#llx\n", rank, k, what, idx,
                    (unsigned long long)w[idx],
                    (unsigned long long)expect_at(rank, idx));
            exit(1);
        }
}

/* Guards and gaps are never written; they may be read at any time. */
static void expect_guards(const uint64_t *w, int k)
{
    expect_window(w, 0, G, k, "front guard");
    expect_window(w, G + 2 * half_len, win_len, k, "back guard");
    for (int h = 0; h < 2; h++)
        for (int s = 0; s < nranks; s++)
            expect_window(w, slot_start(h, s) + S, slot_start(h, s) + per, k,
                          "gap after a slot");
}

static void expect_get(const uint64_t *g, size_t glen, int t, int h, int k)
{
    for (size_t i = 0; i < glen; i++) {
        uint64_t want = (i < GG || i >= GG + half_len)
                            ? gbg(i)
                            : expect_at(t, half_start(1 - h) + i - GG);
        if (g[i] != want) {
            fprintf(stderr, "rank %d: epoch %d: get from %d: element %zu is "
                    "%#llx, expected %#llx\n", rank, k, t, i,
                    (unsigned long long)g[i], (unsigned long long)want);
            exit(1);
        }
    }
}

/* Origin data of epoch k, and get buffers back to their background.  Only
 * called while no operation of this rank is pending. */
static void fill_buffers(int k, uint64_t *obuf, uint64_t *gbuf, size_t glen)
{
    for (int t = 0; t < nranks; t++) {
        uint64_t *o = obuf + (size_t)t * S, *g = gbuf + (size_t)t * glen;
        for (size_t j = 0; j < S; j++)
            o[j] = val(k, rank, t, j);
        for (size_t i = 0; i < glen; i++)
            g[i] = gbg(i);
    }
}

int main(int argc, char **argv)
{
    uint64_t *w = NULL, *obuf, *gbuf;
    size_t glen;
    orma_win win = ORMA_WIN_NULL;

    rt_init(&argc, &argv, &rank, &nranks);
    per = S + GAP;
    half_len = (size_t)nranks * per;
    win_len = G + 2 * half_len + G;
    glen = half_len + 2 * GG;
    state = malloc(2 * (size_t)nranks * (size_t)nranks * sizeof *state);
    obuf = malloc((size_t)nranks * S * sizeof *obuf);
    gbuf = malloc((size_t)nranks * glen * sizeof *gbuf);
    CHECK(state && obuf && gbuf);
    for (size_t i = 0; i < 2 * (size_t)nranks * (size_t)nranks; i++)
        state[i] = -1;

    CHECK_OK(orma_win_allocate(win_len * sizeof *w, (int)sizeof *w, ORMA_INFO_NULL,
                               (void **)&w, &win));
    for (size_t i = 0; i < win_len; i++)
        w[i] = bg(i);

    fill_buffers(0, obuf, gbuf, glen);
    CHECK_OK(orma_win_fence(assert_of(0), win));
    for (int k = 0; k < EPOCHS; k++) {
        int h = k % 2;

        for (int t = 0; t < nranks; t++) {
            if (puts_to(k, rank, t))
                CHECK_OK(orma_put(obuf + (size_t)t * S, S, ORMA_UINT64, t,
                                  (orma_aint)slot_start(h, rank), S, ORMA_UINT64, win));
            else if (gets_from(k, rank, t))
                CHECK_OK(orma_get(gbuf + (size_t)t * glen + GG, half_len, ORMA_UINT64,
                                  t, (orma_aint)half_start(1 - h), half_len,
                                  ORMA_UINT64, win));
        }
        /* Closes epoch k and (but for the last) opens epoch k+1. */
        CHECK_OK(orma_win_fence(assert_of(k + 1), win));

        /* The gets read half 1-h, which epoch k did not write: compare with
         * the state before this epoch's puts are recorded. */
        for (int t = 0; t < nranks; t++)
            if (gets_from(k, rank, t))
                expect_get(gbuf + (size_t)t * glen, glen, t, h, k);
        for (int r = 0; r < nranks; r++)
            for (int t = 0; t < nranks; t++)
                if (puts_to(k, r, t))
                    *state_at(t, h, r) = k;

        /* Half h holds epoch k's puts; epoch k+1 writes only half 1-h, and
         * epoch k+2 cannot reach this rank before it opens it. */
        expect_window(w, half_start(h), half_start(h) + half_len, k,
                      "half written in the epoch");
        expect_guards(w, k);
        fill_buffers(k + 1, obuf, gbuf, glen);
    }
    /* No epoch is open: the whole window can be compared. */
    expect_window(w, 0, win_len, EPOCHS - 1, "whole window at the end");
    CHECK_OK(orma_win_free(&win));
    free(state);
    free(obuf);
    free(gbuf);
    CHECK_OK(orma_finalize());
    return 0;
}
