/* li_suites.h -- the suites written with li.h (seed 003's As, Mult and
 * Rdx), each defined once in its algorithm's file and compiled into both
 * programs: orma-bench runs them on orma and BSPlib (li_suite.c), the MPI
 * program on the host MPIs' one- and two-sided calls (mpi/mpib_li.c).  A
 * new one is a row in each of those two tables (and in suites.c). */
#ifndef BENCH_LI_SUITES_H
#define BENCH_LI_SUITES_H

#include "li.h"

extern const li_suite li_as;   /* as_alg.c */
extern const li_suite li_mult; /* mult_alg.c */
extern const li_suite li_rdx;  /* rdx_alg.c */

#endif
