#include "shm_cma.h"
#include "util_status.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>

void shm_cma_allow_peers(void)
{
#ifdef PR_SET_PTRACER
    prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
#endif
}

static int shm_cma_error(int err, pid_t pid, uintptr_t remote, size_t len, const char *what)
{
    int status = ORMA_ERR_SYS;
    if (err == ESRCH)
        status = ORMA_ERR_PEER;
    else if (err == EFAULT)
        status = ORMA_ERR_RANGE;
    return util_error(status, "single-copy %s of %zu bytes at address 0x%lx of pid %d failed: %s", what,
                      len, (unsigned long)remote, (int)pid, strerror(err));
}

/* One contiguous piece, as many calls as the kernel takes for it. */
static int shm_cma_one(pid_t pid, uintptr_t remote, char *local, size_t len, int write)
{
    while (len) {
        struct iovec l = {.iov_base = local, .iov_len = len};
        struct iovec r = {.iov_base = (void *)remote, .iov_len = len};
        ssize_t n = write ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return shm_cma_error(n < 0 ? errno : EFAULT, pid, remote, len, write ? "write" : "read");
        }
        local += n;
        remote += (uintptr_t)n;
        len -= (size_t)n;
    }
    return ORMA_SUCCESS;
}

int shm_cma_write(pid_t pid, uintptr_t remote, const void *local, size_t len)
{
    return shm_cma_one(pid, remote, (char *)local, len, 1);
}

int shm_cma_read(pid_t pid, uintptr_t remote, void *local, size_t len)
{
    return shm_cma_one(pid, remote, local, len, 0);
}

int shm_cma_vec(pid_t pid, struct iovec *local, struct iovec *remote, size_t n, int write)
{
    size_t i = 0;
    while (i < n) {
        if (local[i].iov_len == 0) {
            i++;
            continue;
        }
        unsigned long cnt = n - i < IOV_MAX ? (unsigned long)(n - i) : IOV_MAX;
        ssize_t k = write ? process_vm_writev(pid, local + i, cnt, remote + i, cnt, 0)
                          : process_vm_readv(pid, local + i, cnt, remote + i, cnt, 0);
        if (k <= 0) {
            if (k < 0 && errno == EINTR)
                continue;
            return shm_cma_error(k < 0 ? errno : EFAULT, pid, (uintptr_t)remote[i].iov_base, remote[i].iov_len,
                                 write ? "write" : "read");
        }
        size_t done = (size_t)k;
        while (done) { /* a partial transfer stops anywhere: advance both sides alike */
            size_t step = done < local[i].iov_len ? done : local[i].iov_len;
            local[i].iov_base = (char *)local[i].iov_base + step;
            remote[i].iov_base = (char *)remote[i].iov_base + step;
            local[i].iov_len -= step;
            remote[i].iov_len -= step;
            done -= step;
            if (local[i].iov_len == 0)
                i++;
        }
    }
    return ORMA_SUCCESS;
}

/* Advance *v (of *n entries) past done bytes. */
static void shm_cma_skip(struct iovec **v, size_t *n, size_t done)
{
    while (done && *n) {
        size_t step = done < (*v)->iov_len ? done : (*v)->iov_len;
        (*v)->iov_base = (char *)(*v)->iov_base + step;
        (*v)->iov_len -= step;
        done -= step;
        if ((*v)->iov_len == 0) {
            (*v)++;
            (*n)--;
        }
    }
    while (*n && (*v)->iov_len == 0) {
        (*v)++;
        (*n)--;
    }
}

int shm_cma_vec_apart(pid_t pid, struct iovec *local, size_t nl, struct iovec *remote, size_t nr, int write)
{
    shm_cma_skip(&local, &nl, 0);
    shm_cma_skip(&remote, &nr, 0);
    while (nl && nr) {
        ssize_t k = write ? process_vm_writev(pid, local, nl, remote, nr, 0)
                          : process_vm_readv(pid, local, nl, remote, nr, 0);
        if (k <= 0) {
            if (k < 0 && errno == EINTR)
                continue;
            return shm_cma_error(k < 0 ? errno : EFAULT, pid, (uintptr_t)remote->iov_base, remote->iov_len,
                                 write ? "write" : "read");
        }
        shm_cma_skip(&local, &nl, (size_t)k); /* a partial transfer stops anywhere */
        shm_cma_skip(&remote, &nr, (size_t)k);
    }
    return ORMA_SUCCESS;
}
