/* caf_mpi.h -- orma-bench-caf-mpi-<variant>: the caf suite's measurements
 * written in plain MPI, the counterparts of the coarray program
 * caf_bench.f90 (same definitions, same output lines; caf_suite.c runs
 * both and sets them side by side):
 *
 *   orma-bench-caf-mpi pp OP [SECONDS]            caf_mpi_pp.c
 *   orma-bench-caf-mpi himeno SIZE MODE [SECONDS] caf_mpi_himeno.c
 *   orma-bench-caf-mpi prk KERNEL [SECONDS]       caf_mpi_prk.c
 *
 * Each returns the process's exit status (0, or 1 after a message on
 * stderr naming the rank and the problem); rank 0 prints the result
 * lines. */
#ifndef BENCH_CAF_MPI_H
#define BENCH_CAF_MPI_H

int cm_pp(const char *op, double seconds);
int cm_himeno(const char *size, const char *mode, double seconds);
int cm_prk(const char *kernel, double seconds);

/* Sorts x[0..n) ascending (the batches' times, before min/median/max). */
void cm_sort(double *x, int n);

#endif
