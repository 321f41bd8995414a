/* turns.h -- MPI jobs that run beside orma-bench's own ranks and take
 * turns with them, batch by batch (the mt and notify suites): rank 0 of
 * orma-bench starts a job at once, and in every slot of the suite's
 * schedule hands it the turn through a FIFO ("g": go) and waits until
 * its batch is done ("d": done, on another FIFO).  A job waiting for its
 * turn sleeps in read(), so a batch has the cores to itself, and every
 * backend's batch of a slot runs within milliseconds of the others' --
 * ratios between backends are paired, not taken between jobs minutes
 * apart on a machine whose speed changes by the minute.
 *
 * The job's program gets the two FIFOs' paths as its last two arguments
 * (go, then done) and opens them in that order; readers of its processes
 * read go, a byte each per turn (all of its ranks, when none of them may
 * poll while another program's batch runs), and one of them writes done
 * -- after the readers have met (a barrier), so that none reads a byte of
 * this turn as its next turn's. */
#ifndef BENCH_TURNS_H
#define BENCH_TURNS_H

#include <sys/types.h>

typedef struct bench_turn_job {
    char name[48]; /* "mpi-rma/openmpi", for the notes */
    pid_t pid;     /* -1: ended */
    int go, done;  /* the FIFOs, -1 when closed */
    int readers;   /* bytes of go per turn */
    int failed;
    double *us;    /* its samples, laid out as its suite says (0: none) */
    char dir[32], go_path[64], done_path[64], out_path[64];
} bench_turn_job;

/* Starts argv (launcher and program with its arguments, NULL-terminated,
 * at most 32 entries; the FIFOs' paths are appended) with its stdout into
 * a file of its own, and waits until it has opened go (it may take
 * BENCH_TURN_START_S); us gets room for nsamples samples.  0, or -1 with
 * a FAIL note naming the job.  A program starting jobs first calls
 * bench_turn_jobs_begin: a job that dies leaves its FIFO without a
 * reader, and a write then fails with EPIPE, which is handled, rather
 * than raise a signal that ends the program. */
#define BENCH_TURN_START_S 120.0
int bench_turn_job_start(bench_turn_job *j, const char *name, const char *const *argv, int readers,
                         size_t nsamples);
void bench_turn_jobs_begin(void);

/* The turns of jobs[0..n) in a slot of round, around this program's own
 * batches: its place among them rotates from round to round (round % (n
 * + 1); the calibration round, -1, as 0), the jobs before it take their
 * turn before its batches (after = 0), the others after them (after = 1).
 * A turn is readers bytes to go, then the job's byte on done within
 * limit_s seconds; a job that ended or did not answer is stopped and
 * noted (FAIL), and passed over from then on. */
void bench_turn_jobs_give(bench_turn_job *jobs, int n, int round, int after, double limit_s);

/* Ends jobs[0..n): go closed (a job sees its end of the turns), each job
 * waited for (BENCH_TURN_START_S at most), and, when it ended with status
 * 0, its stdout read: read(plan, line, us) takes its sample lines (1), and
 * of the others "note TEXT" becomes a note, "fail TEXT" a FAIL note that
 * fails the job; a job that failed is noted (its rows are left out).  The
 * FIFOs and files removed, SIGPIPE's handling restored.  0, or -1 when a
 * job failed.  bench_turn_jobs_free gives the samples back. */
typedef int (*bench_turn_read_fn)(const void *plan, const char *line, double *us);
int bench_turn_jobs_finish(bench_turn_job *jobs, int n, bench_turn_read_fn read, const void *plan);
void bench_turn_jobs_free(bench_turn_job *jobs, int n);

/* The job's side (no orma, no MPI: both programs link turn_peer.c).
 * bench_turn_peer_open opens go for reading, and done for writing when
 * writer is 1, in the order orma-bench opens them; wait reads the byte of
 * a turn, done writes one.  0, or -1 after saying why on stderr (EOF on
 * go: orma-bench stopped handing turns). */
typedef struct bench_turn_peer {
    int go, done;
} bench_turn_peer;
int bench_turn_peer_open(bench_turn_peer *p, const char *go, const char *done, int writer);
int bench_turn_peer_wait(bench_turn_peer *p);
int bench_turn_peer_done(bench_turn_peer *p);
void bench_turn_peer_close(bench_turn_peer *p);

#endif
