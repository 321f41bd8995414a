/* progress.h -- the progress line of a long run: one line on stderr,
 * rewritten in place ("\r", erase to the end of the line), naming the suite,
 * what is being measured and its size, the points done of those expected
 * and, once a few points have been timed, an estimate of the time left:
 *
 *   pingpong: orma put+lock dynamic 8  (79/271, 3 s, about 9 s left)
 *
 * Shown only when stderr is a terminal and --quiet was not given, and only
 * from PROGRESS_AFTER_S into the run, so that short runs and logs never see
 * it.  When stdout is the same terminal, writing a row there must first
 * erase the line (bench_progress_hide): the next point draws it again.
 * One process, one line: orma-bench's rank 0 and the MPI backends' program
 * (bench/mpi) each keep their own.  No clock but CLOCK_MONOTONIC, no orma
 * or MPI call, so that both programs link it. */
#ifndef BENCH_PROGRESS_H
#define BENCH_PROGRESS_H

#include <stddef.h>

/* suite begins the line, and must outlive the run; enabled is 0 on ranks
 * other than 0 and with --quiet. */
void bench_progress_open(const char *suite, int enabled);

/* Add n to the points the run expects to measure (a suite that calls it
 * gets an estimate of the time left; one that does not, the count alone). */
void bench_progress_expect(long n);

/* A point begins: what is being measured (e.g. "orma put+fence allocate"),
 * bytes its size (0: none). */
void bench_progress_point(const char *what, size_t bytes);

/* Something that is not a point is under way, such as an MPI job
 * (pp_mpi.c): the line names it, with the time since the run began. */
void bench_progress_status(const char *what);

/* 1 when the line may be shown: then a long wait calls bench_progress_tick
 * now and then, so that the elapsed time moves. */
int bench_progress_on(void);
void bench_progress_tick(void);

/* Erase the line if it is shown and stdout is the same terminal: before a
 * row or note is printed there. */
void bench_progress_hide(void);

/* Erase the line for good. */
void bench_progress_close(void);

#endif
