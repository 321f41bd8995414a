/* Correct: a halo exchange of many steps, with fences, then post-start-
 * complete-wait, then shared locks (ck_halo.h): every rank puts into the
 * same bytes of its neighbours at every step, ordered by the step's
 * synchronization.  The tables recycle the records of each closed epoch
 * and switch between the modes' rules; none may meet a record of an
 * earlier step.
 * Expected: no report. */
#include "ck_halo.h"

int main(int argc, char **argv)
{
    int rank, n;
    ck_init(&argc, &argv, 2, &rank, &n);
    ck_halo_run(rank, n, NULL);
    ck_finish("ok_halo_modes");
    return 0;
}
