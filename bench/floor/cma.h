/* cma.h -- raw process_vm_writev for the floors that write into another
 * rank's private memory (cma, cma_rt). */
#ifndef BENCH_CMA_H
#define BENCH_CMA_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Let any process write into this one: under Yama ptrace_scope 1 only a
 * declared tracer may; failing (no Yama) is fine. */
void bench_cma_allow_peers(void);

/* One process_vm_writev of n bytes from src to address dst of pid.
 * Returns 0, or -1 after printing why. */
int bench_cma_write(pid_t pid, const void *src, uintptr_t dst, size_t n);

/* Tries to write 1 byte; returns 0 or the errno. */
int bench_cma_try(pid_t pid, const void *src, uintptr_t dst);

#endif
