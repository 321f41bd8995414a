/* shm_seg.h -- named shared-memory segments (POSIX shm, /dev/shm).
 *
 * Segments are created O_EXCL with mode 0600; their names are chosen by the
 * caller (boot_job_name gives "/orma-<uid>-<token>-<what>").  A mapping stays
 * valid after the name is unlinked, so owners unlink as soon as every peer
 * has mapped the segment. */
#ifndef ORMA_SHM_SEG_H
#define ORMA_SHM_SEG_H

#include <stddef.h>

#define SHM_NAME_MAX 96

struct shm_seg {
    void *base;
    size_t size; /* mapped length (a multiple of the page size) */
    char name[SHM_NAME_MAX];
};

/* Create, size and map a new segment of at least size bytes (zero-filled). */
int shm_seg_create(const char *name, size_t size, struct shm_seg *seg_p);

/* Map an existing segment.  size 0 maps the whole object. */
int shm_seg_open(const char *name, size_t size, struct shm_seg *seg_p);

/* The same, for a name that may be gone (its owner replaced it): then
 * ORMA_SUCCESS, *missing_p = 1, nothing mapped and nothing said. */
int shm_seg_open_if(const char *name, size_t size, struct shm_seg *seg_p, int *missing_p);

/* Remove the name (the mapping stays).  A missing name is not an error. */
void shm_seg_unlink(const char *name);

void shm_seg_unmap(struct shm_seg *seg);

/* Set by a job that no launcher of orma's cleans up after (liborma-mpi):
 * whether the job is being torn down (an aborting rank removed its
 * liveness file before sweeping its objects, boot_janitor.c).  Asked right
 * after an object is created, so that one made by a rank still running
 * while another sweeps does not outlive the job: shm_seg_guard unlinks
 * the name again (the mapping stays). */
extern int (*shm_seg_job_gone)(void);
void shm_seg_guard(const char *name);

size_t shm_page_size(void);

#endif
