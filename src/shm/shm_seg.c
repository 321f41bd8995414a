/* shm_seg.c -- POSIX shared-memory segments. */
#include "shm_seg.h"
#include "util_status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

size_t shm_page_size(void)
{
    static size_t page;
    if (!page)
        page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static size_t shm_round_up(size_t size)
{
    size_t page = shm_page_size();
    if (size == 0)
        return page;
    return (size + page - 1) / page * page;
}

int shm_seg_create(const char *name, size_t size, struct shm_seg *seg_p)
{
    size_t len = shm_round_up(size);
    if (len < size)
        return util_error(ORMA_ERR_NOMEM, "shared segment of %zu bytes is too large", size);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return util_error(ORMA_ERR_SYS, "cannot create shared segment %s: %s", name, strerror(errno));
    int status;
    if (ftruncate(fd, (off_t)len)) {
        status = util_error(errno == ENOSPC ? ORMA_ERR_NOMEM : ORMA_ERR_SYS,
                            "cannot size shared segment %s to %zu bytes: %s", name, len, strerror(errno));
        goto err_unlink;
    }
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        status = util_error(ORMA_ERR_NOMEM, "cannot map shared segment %s (%zu bytes): %s", name, len,
                            strerror(errno));
        goto err_unlink;
    }
    close(fd);
    seg_p->base = base;
    seg_p->size = len;
    snprintf(seg_p->name, sizeof seg_p->name, "%s", name);
    shm_seg_guard(name);
    return ORMA_SUCCESS;

err_unlink:
    close(fd);
    shm_unlink(name);
    return status;
}

int shm_seg_open(const char *name, size_t size, struct shm_seg *seg_p)
{
    int missing = 0;
    int status = shm_seg_open_if(name, size, seg_p, &missing);
    if (!status && missing)
        status = util_error(ORMA_ERR_PEER, "cannot open shared segment %s: %s", name, strerror(ENOENT));
    return status;
}

int shm_seg_open_if(const char *name, size_t size, struct shm_seg *seg_p, int *missing_p)
{
    *missing_p = 0;
    int fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0 && errno == ENOENT) {
        *missing_p = 1;
        return ORMA_SUCCESS;
    }
    if (fd < 0)
        return util_error(ORMA_ERR_SYS, "cannot open shared segment %s: %s", name, strerror(errno));
    int status;
    struct stat st;
    if (fstat(fd, &st)) {
        status = util_error(ORMA_ERR_SYS, "cannot stat shared segment %s: %s", name, strerror(errno));
        goto err_close;
    }
    size_t len = size ? shm_round_up(size) : (size_t)st.st_size;
    if ((size_t)st.st_size < len || len == 0) {
        status = util_error(ORMA_ERR_PEER, "shared segment %s holds %zu bytes, expected %zu", name,
                            (size_t)st.st_size, len);
        goto err_close;
    }
    void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        status = util_error(ORMA_ERR_NOMEM, "cannot map shared segment %s: %s", name, strerror(errno));
        goto err_close;
    }
    close(fd);
    seg_p->base = base;
    seg_p->size = len;
    snprintf(seg_p->name, sizeof seg_p->name, "%s", name);
    return ORMA_SUCCESS;

err_close:
    close(fd);
    return status;
}

void shm_seg_unlink(const char *name) { shm_unlink(name); }

int (*shm_seg_job_gone)(void);

void shm_seg_guard(const char *name)
{
    if (shm_seg_job_gone && shm_seg_job_gone())
        shm_unlink(name);
}

void shm_seg_unmap(struct shm_seg *seg)
{
    if (seg->base)
        munmap(seg->base, seg->size);
    seg->base = NULL;
    seg->size = 0;
}
