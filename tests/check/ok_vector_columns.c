/* Correct: ranks 1 and 2 put interleaved columns of the same rows of rank
 * 0's 4x4 int32 matrix (window created on malloc'd memory) in one fence
 * epoch: rank 1 the even columns, rank 2 the odd ones, each with a vector
 * type (8 blocks of one element, stride 2).  The two types' extents
 * overlap almost entirely, their bytes never: MPI-4.1 12.7.1 judges
 * conflicts location by location, so there is no conflict.  Rank 1 then
 * reads the odd columns back with the same type in the next epoch.
 * Expected: no report. */
#include "ck_test.h"

static int32_t src[8], back[8];

static void put_columns(int rank, orma_win win, orma_type cols)
{
    for (int i = 0; i < 8; i++)
        src[i] = 100 * rank + i;
    if (rank == 1 || rank == 2)
        CHECK_OK(orma_put_typed(src, 8, ORMA_INT32, 0, (rank - 1) * (orma_aint)sizeof(int32_t), 1, cols, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    orma_win win;
    orma_type cols;
    ck_init(&argc, &argv, 3, &rank, &n);
    int32_t *mem = malloc(16 * sizeof(int32_t));
    CHECK(mem != NULL);
    for (int i = 0; i < 16; i++)
        mem[i] = -1;
    CHECK_OK(orma_type_vector(8, 1, 2, ORMA_INT32, &cols));
    CHECK_OK(orma_type_commit(&cols));
    CHECK_OK(orma_win_create(mem, 16 * sizeof(int32_t), 1, ORMA_INFO_NULL, &win));
    CHECK_OK(orma_win_fence(0, win));
    put_columns(rank, win, cols);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 1)
        CHECK_OK(orma_get_typed(back, 8, ORMA_INT32, 0, sizeof(int32_t), 1, cols, win));
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0)
        for (int i = 0; i < 16; i++)
            CK_I32(mem, i, (i % 2 ? 200 : 100) + i / 2);
    if (rank == 1)
        for (int i = 0; i < 8; i++)
            CK_I32(back, i, 200 + i);
    CHECK_OK(orma_win_free(&win));
    CHECK_OK(orma_type_free(&cols));
    free(mem);
    ck_finish("ok_vector_columns");
    return 0;
}
