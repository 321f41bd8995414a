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

/* Let any process of this user use the calls above on us (needed where Yama
 * restricts ptrace to descendants). */
void shm_cma_allow_peers(void);

#endif
