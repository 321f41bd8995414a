/* Bug: a put with a derived target datatype that overlaps another origin's
 * contiguous put on exactly one block, in one fence epoch.  Rank 0's
 * window is a 4x4 matrix of int32 (row-major).  Rank 1 puts column 0
 * (a vector: 4 blocks of one element, stride 4: elements 0, 4, 8, 12);
 * rank 2 puts elements 5..8 contiguously, which covers the gap between
 * two blocks and the block at element 8 -- bytes [32, 36) only.
 * MPI-4.1 12.7.1: conflicting accesses are judged location by location
 * (the bytes a datatype's type map reaches, not its extent): the two puts
 * of one epoch both update element 8, which is erroneous.
 * Expected: one "overlapping puts" report, target rank 0, ranks 1 and 2,
 * bytes [32, 36). */
#include "ck_test.h"

static int32_t src[4]; /* the epoch's until it closes */

static CK_BUG void bug_vector_overlaps_block(int rank, orma_win win, orma_type column)
{
    for (int i = 0; i < 4; i++)
        src[i] = 100 * rank + i;
    if (rank == 1)
        CHECK_OK(orma_put_typed(src, 4, ORMA_INT32, 0, 0, 1, column, win));
    if (rank == 2)
        CHECK_OK(orma_put_typed(src, 4, ORMA_INT32, 0, 5 * sizeof(int32_t), 4, ORMA_INT32, win));
}

int main(int argc, char **argv)
{
    int rank, n;
    int32_t *mem;
    orma_win win;
    orma_type column;
    ck_init(&argc, &argv, 3, &rank, &n);
    CHECK_OK(orma_type_vector(4, 1, 4, ORMA_INT32, &column));
    CHECK_OK(orma_type_commit(&column));
    ck_win(16 * sizeof(int32_t), (void **)&mem, &win);
    if (rank == 0)
        for (int i = 0; i < 16; i++)
            mem[i] = -1;
    CHECK_OK(orma_win_fence(0, win));
    bug_vector_overlaps_block(rank, win, column);
    CHECK_OK(orma_win_fence(0, win));
    if (rank == 0) {
        CK_I32(mem, 0, 100);
        CK_I32(mem, 4, 101);
        CK_I32(mem, 12, 103);
        CK_I32(mem, 5, 200);
        CK_I32(mem, 6, 201);
        CK_I32(mem, 7, 202);
        if (mem[8] != 102 && mem[8] != 203) {
            fprintf(stderr, "rank 0: element 8 is %d, expected 102 or 203\n", (int)mem[8]);
            exit(1);
        }
        int untouched[] = {1, 2, 3, 9, 10, 11, 13, 14, 15};
        for (size_t i = 0; i < sizeof untouched / sizeof *untouched; i++)
            CK_I32(mem, untouched[i], -1);
    }
    CHECK_OK(orma_win_free(&win));
    CHECK_OK(orma_type_free(&column));
    ck_finish("bug_vector_block");
    return 0;
}
