/* fence_deferred.c -- operations to a target that has not opened the epoch.
 *
 * An epoch opened with ORMA_MODE_NOPRECEDE has no barrier, so an origin may
 * issue operations before its target has even called the fence.  Such
 * operations must wait for the target: in each round some ranks are late --
 * they sleep, then store a fresh background into their whole window (and the
 * data their neighbour will get), and only then open the epoch.  A put
 * applied before the target opened would be overwritten by that store; a get
 * served early would return the old contents.  Each rank issues one
 * operation per element, a thousand and more per epoch, so that whatever
 * holds the waiting operations has to grow. */
#include "rma_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

enum { ROUNDS = 6, NPUT = 1000, NGET = 500, G = 8, LATE_MS = 20 };

/* Window in elements: guard, put area, guard, get source, guard. */
enum { PUT_AT = G, GET_AT = PUT_AT + NPUT + G, WIN_LEN = GET_AT + NGET + G };

static int rank, nranks;

static uint32_t bg(int round, size_t i) { return 0xB0000000u | (uint32_t)round << 20 | (uint32_t)i; }

static uint32_t val(int round, int owner, size_t i, int is_get)
{
    return (uint32_t)is_get << 28 | (uint32_t)round << 20 | (uint32_t)owner << 16 | (uint32_t)i;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void expect(const uint32_t *p, size_t i, uint32_t want, int round, const char *what)
{
    if (p[i] != want) {
        fprintf(stderr, "rank %d: round %d: %s: element %zu is %#x, expected %#x\n",
                rank, round, what, i, (unsigned)p[i], (unsigned)want);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    uint32_t *w = NULL, *src, *dst;
    orma_win win = ORMA_WIN_NULL;

    rt_init(&argc, &argv, &rank, &nranks);
    src = malloc(NPUT * sizeof *src);
    dst = malloc((NGET + 2 * G) * sizeof *dst);
    CHECK(src && dst);
    CHECK_OK(orma_win_allocate(WIN_LEN * sizeof *w, (int)sizeof *w, ORMA_INFO_NULL,
                               (void **)&w, &win));

    for (int round = 0; round < ROUNDS; round++) {
        int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
        /* Alternate who is late; with one rank it is late every other round. */
        int late = (rank + round) % 2 == 0;

        for (size_t i = 0; i < NPUT; i++)
            src[i] = val(round, rt, i, 0);
        for (size_t i = 0; i < NGET + 2 * G; i++)
            dst[i] = bg(round, i) ^ 0x0F000000u;
        if (late)
            sleep_ms(LATE_MS);
        for (size_t i = 0; i < WIN_LEN; i++)
            w[i] = bg(round, i);
        for (size_t i = 0; i < NGET; i++)
            w[GET_AT + i] = val(round, rank, i, 1);

        CHECK_OK(orma_win_fence(ORMA_MODE_NOPRECEDE, win));
        for (size_t i = 0; i < NPUT; i++)
            CHECK_OK(orma_put(&src[i], 1, ORMA_UINT32, rt, (orma_aint)(PUT_AT + i), 1,
                              ORMA_UINT32, win));
        for (size_t i = 0; i < NGET; i++)
            CHECK_OK(orma_get(&dst[G + i], 1, ORMA_UINT32, lt, (orma_aint)(GET_AT + i), 1,
                              ORMA_UINT32, win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));

        for (size_t i = 0; i < WIN_LEN; i++) {
            uint32_t want = bg(round, i);
            if (i >= PUT_AT && i < PUT_AT + NPUT)
                want = val(round, rank, i - PUT_AT, 0);
            else if (i >= GET_AT && i < GET_AT + NGET)
                want = val(round, rank, i - GET_AT, 1);
            expect(w, i, want, round, "window");
        }
        for (size_t i = 0; i < NGET + 2 * G; i++)
            expect(dst, i, i >= G && i < G + NGET ? val(round, lt, i - G, 1)
                                                  : bg(round, i) ^ 0x0F000000u,
                   round, "get buffer");
    }

    CHECK_OK(orma_win_free(&win));
    free(src);
    free(dst);
    CHECK_OK(orma_finalize());
    return 0;
}
