/* mpib_util.c -- see mpib.h: failing loudly, the clock, small agreements
 * between the two ranks. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "mpib.h"

void mpib_fail(int rc, const char *call, const char *file, int line)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0, rank = -1;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "error %d", rc);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "orma-bench-mpi-%s: rank %d: %s:%d: %s failed: %s\n",
            MPIB_VARIANT, rank, file, line, call, msg);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, BENCH_FAIL);
    exit(BENCH_FAIL);
}

void *mpib_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "orma-bench-mpi-%s: out of memory (%zu bytes)\n",
                MPIB_VARIANT, n);
        MPI_Abort(MPI_COMM_WORLD, BENCH_FAIL);
        exit(BENCH_FAIL);
    }
    return p;
}

double mpib_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int mpib_count(size_t n)
{
    _Static_assert(BENCH_SIZE_LIMIT <= INT_MAX, "sizes fit an MPI count");
    return (int)n;
}

long mpib_bcast_long(long v)
{
    MPIB_CHECK(MPI_Bcast(&v, 1, MPI_LONG, 0, MPI_COMM_WORLD));
    return v;
}

int mpib_all_ok(int ok)
{
    int all = 0;
    MPIB_CHECK(MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND,
                             MPI_COMM_WORLD));
    return all;
}
