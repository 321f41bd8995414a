/* mult.h -- the mult suite on orma-bench's side: seed 003's Cannon matrix
 * multiply (section 4), whose algorithm is written once against li.h
 * (mult_alg.c: li_mult) and runs on every backend; here what only
 * orma-bench does:
 *
 *   the serial reference: rank 0 alone multiplies the whole n x n
 *   matrices with the algorithm's kernel (transpose, then the column
 *   loop), the "p = 1" time of seed 003's Table 1 -- a row of backend and
 *   op "serial", sync and window "none", p 1, bytes n;
 *
 *   the summary, Table 1's layout: per n, the serial time and each
 *   backend's speedup (serial median / parallel median) of put, get and
 *   send, and the one-sided / point-to-point ratios (put and get against
 *   mpi-p2p's send) with the bar "orma's put never slower than send". */
#ifndef BENCH_MULT_H
#define BENCH_MULT_H

#include "bench.h"

/* Collective: rank 0 times the serial product at every n of the run that
 * p ranks can split (mult_size_ok), the others wait.  Returns BENCH_OK,
 * or BENCH_FAIL when a product did not verify (the same on every rank). */
int mult_serial_run(const bench_ctx *ctx);

/* The suite's summary (li_suite.h's mult_summary, mult_summary.c) runs
 * mult_serial_run, then rank 0 prints the tables from this run's results;
 * collective, mult_serial_run's status. */

#endif
