/* Each rank writes its number into the window of the next rank. */
#include <orma.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    orma_init(&argc, &argv);
    int rank = orma_rank(), size = orma_size();
    int *slot;
    orma_win win;
    orma_win_allocate(sizeof(int), sizeof(int), ORMA_INFO_NULL, (void **)&slot, &win);
    *slot = -1;

    orma_win_fence(ORMA_MODE_NOPRECEDE, win);
    orma_put(&rank, 1, ORMA_INT, (rank + 1) % size, 0, 1, ORMA_INT, win);
    orma_win_fence(ORMA_MODE_NOSUCCEED, win);

    int got = *slot;
    printf("rank %d of %d received %d\n", rank, size, got);
    orma_win_free(&win);
    orma_finalize();
    return got == (rank + size - 1) % size ? 0 : 1;
}
