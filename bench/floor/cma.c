/* cma.c -- see cma.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>

#include "cma.h"

void bench_cma_allow_peers(void)
{
    (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
}

int bench_cma_write(pid_t pid, const void *src, uintptr_t dst, size_t n)
{
    struct iovec local = {(void *)src, n};
    struct iovec remote = {(void *)dst, n};
    ssize_t w = process_vm_writev(pid, &local, 1, &remote, 1, 0);
    if (w == (ssize_t)n)
        return 0;
    if (w < 0)
        fprintf(stderr, "orma-bench: process_vm_writev of %zu bytes: %s\n",
                n, strerror(errno));
    else
        fprintf(stderr, "orma-bench: process_vm_writev wrote %zd of %zu bytes\n",
                w, n);
    return -1;
}

int bench_cma_try(pid_t pid, const void *src, uintptr_t dst)
{
    struct iovec local = {(void *)src, 1};
    struct iovec remote = {(void *)dst, 1};
    if (process_vm_writev(pid, &local, 1, &remote, 1, 0) == 1)
        return 0;
    return errno != 0 ? errno : EIO;
}
