/* boot_job.h -- how a job starts and its ranks find each other.
 *
 * Under orma-run (ORMA_BOOT_* set) rank 0 creates the job segment, the others
 * map it, and once all have, rank 0 unlinks its name.  The segment holds the
 * job barrier and one exchange slot per rank for allgathers.  Without
 * orma-run the process is a job of one rank and needs no segment.
 *
 * Every shared object of the job is named by boot_job_name():
 * "/orma-<uid>-<token>-<what>", so the launcher can remove whatever a crashed
 * job left. */
#ifndef ORMA_BOOT_JOB_H
#define ORMA_BOOT_JOB_H

#include "shm_seg.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BOOT_SLOT_SIZE 256 /* bytes one rank contributes to an allgather */

struct boot_job {
    int rank;
    int size;
    pid_t pid;
    int status_fd;   /* the launcher's finalize pipe, or -1 */
    char token[40];  /* random, 32 hex digits */
    char prefix[80]; /* "/orma-<uid>-<token>-" */
    struct shm_seg seg;
    struct boot_job_shared *shared;
    uint32_t barrier_episode;
};

extern struct boot_job boot_job;

/* Join the job described by util_config (after util_config_load), or by
 * boot_job_external when that was called. */
int boot_job_start(void);

/* Describe the job from another bootstrap than orma-run (liborma-mpi: the
 * node's MPI ranks), before orma_init: this process is rank of size, and
 * every rank was given the same token (16..39 lower-case hex digits).
 * Without a launcher nobody removes shared objects after a crash, so they
 * are unlinked as soon as every rank has them mapped. */
int boot_job_external(int rank, int size, const char *token);

/* Whether boot_job_external was called (liborma-mpi's bootstrap). */
int boot_job_is_external(void);

/* Leave it: tell the launcher this rank finalized and unmap. */
void boot_job_finish(void);

/* Barrier over every rank of the job. */
void boot_job_barrier(void);

/* Every rank contributes len <= BOOT_SLOT_SIZE bytes; all receive size*len
 * bytes in rank order.  Collective. */
void boot_job_allgather(const void *mine, size_t len, void *all);

/* boot_janitor.c: unlink every shared object of the job with this token
 * (its launcher's clean-up, or an abort); the number removed. */
int boot_sweep_token(const char *token);

/* Jobs without orma-run: hold the liveness lock (every rank, at start),
 * drop it (at finish; the last one out sweeps the job), and remove the
 * objects of this user's jobs that died holding none (rank 0, at start). */
int boot_live_hold(void);
void boot_live_release(void);
void boot_janitor_sweep(void);

/* "/orma-<uid>-<token>-" followed by the formatted suffix. */
void boot_job_name(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
