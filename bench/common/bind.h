/* bind.h -- pinning a rank to a core of its own, for the suites whose
 * numbers depend on where the scheduler puts the ranks (latency).  Left
 * alone on a busy 2-core machine, the two ranks of an orma-run job that
 * wait for each other were seen sharing one core for whole runs, every
 * synchronization then costing a context switch (put+fence: 3.6 instead
 * of 0.5 us).  Pinning puts every backend's ranks alike, as OSU's runs
 * under Open MPI are (its mpirun binds 2 ranks to a core each by default).
 * No orma or MPI here: both programs use it. */
#ifndef BENCH_BIND_H
#define BENCH_BIND_H

#include <sched.h>

/* Pin the calling thread to the (rank mod count)-th CPU it may run on,
 * after saving its CPU set into *saved.  Returns that CPU, or -1 when
 * fewer than 2 CPUs are allowed or the kernel refused (the thread is left
 * as it was). */
int bench_bind_rank(int rank, cpu_set_t *saved);

/* Give the thread back the CPUs of *saved (before starting processes that
 * would inherit the pinning). */
void bench_bind_restore(const cpu_set_t *saved);

#endif
