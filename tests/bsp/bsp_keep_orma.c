/* bsp_keep_orma.c -- a program that calls orma_init itself before
 * bsp_begin keeps orma (bsp.h): bsp_nprocs before bsp_begin is orma's
 * size, bsp_pid is the orma rank, a BSP superstep works, bsp_end returns
 * on every process, and afterwards orma is still initialized and usable:
 * every rank puts a word into rank 0's window, and rank 0 sees them all. */
#include "bsp_test.h"

#include <orma.h>

int main(int argc, char **argv)
{
    CHECK(orma_init(&argc, &argv) == ORMA_SUCCESS);
    int rank = orma_rank(), size = orma_size();
    CHECK(size >= 1 && rank >= 0 && rank < size);
    CHECK_EQ(bsp_nprocs(), size);

    bsp_begin(size);
    bt_pid = bsp_pid();
    CHECK_EQ(bt_pid, rank);
    CHECK_EQ(bsp_nprocs(), size);
    int got[2] = {-1, -1};
    bsp_push_reg(got, (int)sizeof got);
    bsp_sync();
    int mine = 700 + bt_pid;
    bsp_put((bt_pid + 1) % size, &mine, got, 0, (int)sizeof mine);
    bsp_sync();
    CHECK_EQ(got[0], 700 + (bt_pid + size - 1) % size);
    CHECK_EQ(got[1], -1);
    bsp_pop_reg(got);
    bsp_sync();
    bsp_end();

    /* every process is back, with orma */
    int flag = 0;
    CHECK(orma_initialized(&flag) == ORMA_SUCCESS);
    CHECK_EQ(flag, 1);
    void *base;
    orma_win win;
    CHECK(orma_win_allocate((size_t)size * sizeof(int), sizeof(int), ORMA_INFO_NULL, &base, &win) == ORMA_SUCCESS);
    int *words = base;
    for (int i = 0; i < size; i++)
        words[i] = -1;
    CHECK(orma_win_fence(0, win) == ORMA_SUCCESS);
    int word = 900 + rank;
    CHECK(orma_put(&word, 1, ORMA_INT, 0, rank, 1, ORMA_INT, win) == ORMA_SUCCESS);
    CHECK(orma_win_fence(0, win) == ORMA_SUCCESS);
    if (rank == 0)
        for (int i = 0; i < size; i++)
            CHECK_EQ(words[i], 900 + i);
    CHECK(orma_win_free(&win) == ORMA_SUCCESS);
    CHECK(orma_finalize() == ORMA_SUCCESS);
    return 0;
}
