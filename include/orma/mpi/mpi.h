/* orma/mpi/mpi.h -- the host MPI's own mpi.h, then Intel MPI's notified
 * one-sided extension (orma/mpix_notify.h), so that a program written for
 * Intel MPI builds unchanged against Open MPI or MPICH with this directory
 * first on its include path, and runs with liborma-mpi preloaded:
 *
 *   mpicc.openmpi -I<prefix>/include/orma/mpi prog.c -o prog
 *   mpirun.openmpi -n 4 -x LD_PRELOAD=<prefix>/lib/liborma-mpi-openmpi.so ./prog
 *
 * (README.md, "MPI programs").  The host's mpi.h is the next one on the
 * path (#include_next: GCC and Clang); the compiler wrappers of both hosts
 * put their own include directory after the program's -I. */
#ifndef ORMA_MPI_MPI_H
#define ORMA_MPI_MPI_H

/* a system header, as the host's: no -pedantic warning for #include_next */
#pragma GCC system_header

#include_next <mpi.h>

#include "../mpix_notify.h"

#endif
