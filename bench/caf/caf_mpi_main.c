/* caf_mpi_main.c -- orma-bench-caf-mpi's command line (caf_mpi.h). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "caf_mpi.h"

static int cm_usage(int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: orma-bench-caf-mpi pp OP [SECONDS] | himeno SIZE MODE [SECONDS] | "
                        "prk KERNEL [SECONDS]\n");
    return 2;
}

/* SECONDS, when given: a positive number, else -1. */
static double cm_seconds(int argc, char **argv, int at)
{
    if (argc <= at)
        return 2;
    char *end;
    double s = strtod(argv[at], &end);
    return *end == '\0' && s > 0 ? s : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, rc;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc >= 3 && !strcmp(argv[1], "pp") && cm_seconds(argc, argv, 3) > 0)
        rc = cm_pp(argv[2], cm_seconds(argc, argv, 3));
    else if (argc >= 4 && !strcmp(argv[1], "himeno") && cm_seconds(argc, argv, 4) > 0)
        rc = cm_himeno(argv[2], argv[3], cm_seconds(argc, argv, 4));
    else if (argc >= 3 && !strcmp(argv[1], "prk") && cm_seconds(argc, argv, 3) > 0)
        rc = cm_prk(argv[2], cm_seconds(argc, argv, 3));
    else
        rc = cm_usage(rank);
    if (rc != 0)
        MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return 0;
}
