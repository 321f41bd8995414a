/* contend.h -- --contend: busy-loop processes that keep every core of the
 * machine busy while a run measures, as other jobs would.
 *
 * Rank 0 of the orma job forks BENCH_CONTEND_PER_CPU processes per online
 * CPU, unpinned and at normal priority, each spinning on arithmetic.  They
 * die with the rank that forked them (PR_SET_PDEATHSIG), and that rank
 * kills and reaps them when the run ends, on exit() and on SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT.  The MPI jobs of the MPI backends (pp_mpi.h) run
 * while they do: they are not passed --contend and start none of their
 * own. */
#ifndef BENCH_CONTEND_H
#define BENCH_CONTEND_H

#define BENCH_CONTEND_PER_CPU 2

/* Starts the busy loops (call on one rank only).  Returns how many run, or
 * -1 after printing why they could not all be started (none then run). */
int bench_contend_start(void);

/* Kills and reaps them; harmless when none run. */
void bench_contend_stop(void);

/* How many run (0: none). */
int bench_contend_count(void);

#endif
