/* shm_cma.h -- single-copy transfers to and from another process's private
 * memory (process_vm_writev/readv: "cross-memory attach").  Synchronous: when
 * a call returns, the bytes are in place. */
#ifndef ORMA_SHM_CMA_H
#define ORMA_SHM_CMA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

int shm_cma_write(pid_t pid, uintptr_t remote, const void *local, size_t len);
int shm_cma_read(pid_t pid, uintptr_t remote, void *local, size_t len);

/* n pieces at once: local[i] and remote[i] have the same length.  The
 * arrays are consumed (their entries advanced).  write: local to remote. */
struct iovec;
int shm_cma_vec(pid_t pid, struct iovec *local, struct iovec *remote, size_t n, int write);
/* The same with lists of their own lengths (nl, nr <= IOV_MAX), the same
 * bytes in all: the kernel streams one into the other, so runs contiguous
 * on one side only are one entry there.  Both lists are consumed. */
int shm_cma_vec_apart(pid_t pid, struct iovec *local, size_t nl, struct iovec *remote, size_t nr, int write);

/* Let any process of this user use the calls above on us (needed where Yama
 * restricts ptrace to descendants). */
void shm_cma_allow_peers(void);

#endif
