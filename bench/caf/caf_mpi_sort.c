/* caf_mpi_sort.c -- what the MPI counterparts share (caf_mpi.h): the
 * batches' times in order, before min/median/max. */
#include "caf_mpi.h"

void cm_sort(double *x, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double t = x[j];
            x[j] = x[j - 1];
            x[j - 1] = t;
        }
}
