/* Correct: every rank reads overlapping bytes of rank 0's window at once,
 * with orma_get, in one fence epoch ([0, 16) and [8, 24)) and in one
 * lock_all epoch ([4, 20) and [0, 32)).  MPI-4.1 12.7.1: two gets of one
 * location do not conflict.  Expected: no report. */
#include "ck_test.h"

static unsigned char a[16], b[32];

static void expect(const unsigned char *p, size_t from, size_t len)
{
    for (size_t i = 0; i < len; i++)
        CHECK(p[i] == (unsigned char)(from + i + 1));
}

int main(int argc, char **argv)
{
    int rank, n;
    unsigned char *mem;
    orma_win win;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_win(64, (void **)&mem, &win);
    if (rank == 0)
        for (int i = 0; i < 64; i++)
            mem[i] = (unsigned char)(i + 1);
    CHECK_OK(orma_win_fence(0, win));
    CHECK_OK(orma_get(a, 16, ORMA_BYTE, 0, 0, 16, ORMA_BYTE, win));
    CHECK_OK(orma_get(b, 16, ORMA_BYTE, 0, 8, 16, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, win));
    expect(a, 0, 16);
    expect(b, 8, 16);
    CHECK_OK(orma_win_lock_all(0, win));
    CHECK_OK(orma_get(a, 16, ORMA_BYTE, 0, 4, 16, ORMA_BYTE, win));
    CHECK_OK(orma_get(b, 32, ORMA_BYTE, 0, 0, 32, ORMA_BYTE, win));
    CHECK_OK(orma_win_unlock_all(win));
    expect(a, 4, 16);
    expect(b, 0, 32);
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_free(&win));
    ck_finish("ok_get_get");
    return 0;
}
