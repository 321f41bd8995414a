/* boot_job.c -- joining a job started by orma-run, or being a job of one. */
#include "boot_job.h"
#include "shm_barrier.h"
#include "util_config.h"
#include "util_log.h"
#include "util_random.h"
#include "util_status.h"
#include "util_time.h"
#include "util_wait.h"

#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BOOT_MAGIC 0x6f726d61u /* "orma" */
#define BOOT_OPEN_TIMEOUT_NS (UINT64_C(60) * 1000000000)

/* The job segment.  Written once by rank 0 (header) and by each rank in its
 * own slot; the barrier's flags have one writer each. */
struct boot_job_shared {
    _Atomic uint32_t magic; /* rank 0, last, once the rest is initialized */
    uint32_t size;          /* rank 0 */
    char pad[56];
    /* followed by the barrier (shm_barrier_size(size) bytes), then
     * size * BOOT_SLOT_SIZE bytes of exchange slots, then the CPU each
     * rank last waited on, one uint32 per rank (util_wait_share_cpus) */
};

struct boot_job boot_job = {.rank = 0, .size = 1, .status_fd = -1};

static struct {
    int set, rank, size;
    char token[sizeof boot_job.token];
} boot_ext;

static int boot_token_valid(const char *t)
{
    size_t n = strlen(t);
    return n >= 16 && n < sizeof boot_job.token && strspn(t, "0123456789abcdef") == n;
}

int boot_job_external(int rank, int size, const char *token)
{
    if (size < 1 || rank < 0 || rank >= size || !token || !boot_token_valid(token))
        return util_error(ORMA_ERR_ARG, "boot_job_external: rank %d of %d with token \"%s\" is not a job", rank,
                          size, token ? token : "(null)");
    boot_ext.set = 1;
    boot_ext.rank = rank;
    boot_ext.size = size;
    snprintf(boot_ext.token, sizeof boot_ext.token, "%s", token);
    return ORMA_SUCCESS;
}

int boot_job_is_external(void) { return boot_ext.set; }

static size_t boot_seg_size(int n)
{
    return sizeof(struct boot_job_shared) + shm_barrier_size(n) + (size_t)n * BOOT_SLOT_SIZE +
           (size_t)n * sizeof(uint32_t);
}

static void *boot_barrier_mem(void) { return (char *)boot_job.shared + sizeof(struct boot_job_shared); }

static char *boot_slots(void) { return (char *)boot_barrier_mem() + shm_barrier_size(boot_job.size); }

static _Atomic uint32_t *boot_cpus(void)
{
    return (_Atomic uint32_t *)(void *)(boot_slots() + (size_t)boot_job.size * BOOT_SLOT_SIZE);
}

void boot_job_name(char *buf, size_t len, const char *fmt, ...)
{
    int n = snprintf(buf, len, "%s", boot_job.prefix);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Rank 0 may not have created the segment yet: retry until it exists and is
 * initialized.  If rank 0 died, the launcher ends the job. */
static int boot_job_map_segment(const char *name, size_t len)
{
    struct util_backoff backoff = {0};
    uint64_t deadline = util_time_ns() + BOOT_OPEN_TIMEOUT_NS;
    int saved = util_log_level;
    for (;;) {
        util_log_level = UTIL_LOG_NONE; /* "not there yet" is expected */
        int status = shm_seg_open(name, len, &boot_job.seg);
        util_log_level = saved;
        if (status == ORMA_SUCCESS) {
            boot_job.shared = boot_job.seg.base;
            if (atomic_load_explicit(&boot_job.shared->magic, memory_order_acquire) == BOOT_MAGIC)
                return ORMA_SUCCESS;
            shm_seg_unmap(&boot_job.seg);
        }
        if (util_time_ns() > deadline)
            return util_error(ORMA_ERR_PEER, "job segment %s did not appear within 60 s", name);
        util_backoff_pause(&backoff);
    }
}

int boot_job_start(void)
{
    boot_job.pid = getpid();
    int launched = util_config.boot_rank >= 0;
    if (boot_ext.set) {
        boot_job.rank = boot_ext.rank;
        boot_job.size = boot_ext.size;
        boot_job.status_fd = -1;
        snprintf(boot_job.token, sizeof boot_job.token, "%s", boot_ext.token);
    } else if (launched) {
        if (util_config.boot_size < 1 || util_config.boot_rank >= util_config.boot_size ||
            !boot_token_valid(util_config.boot_job))
            return util_error(ORMA_ERR_PEER, "inconsistent launcher settings (ORMA_BOOT_RANK=%d, "
                              "ORMA_BOOT_SIZE=%d): start jobs with orma-run",
                              util_config.boot_rank, util_config.boot_size);
        boot_job.rank = util_config.boot_rank;
        boot_job.size = util_config.boot_size;
        boot_job.status_fd = util_config.boot_fd;
        snprintf(boot_job.token, sizeof boot_job.token, "%s", util_config.boot_job);
    } else {
        boot_job.rank = 0;
        boot_job.size = 1;
        boot_job.status_fd = -1;
        int status = util_random_hex(16, boot_job.token);
        if (status)
            return status;
    }
    util_set_rank(boot_job.rank);
    util_wait_tune(boot_job.size);
    snprintf(boot_job.prefix, sizeof boot_job.prefix, "/orma-%u-%s-", (unsigned)getuid(), boot_job.token);
    boot_job.barrier_episode = 0;
    /* Every job holds a liveness file, launched by orma-run or not: a
     * launcher killed together with its ranks (SIGKILL to the process group,
     * a container stopped) cleans up nothing, and the next job's rank 0 then
     * sweeps what they left. */
    if (boot_job.rank == 0)
        boot_janitor_sweep();
    int status = boot_live_hold();
    if (status)
        return status;
    if (boot_job.size == 1)
        return ORMA_SUCCESS;

    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "job");
    size_t len = boot_seg_size(boot_job.size);
    if (boot_job.rank == 0) {
        status = shm_seg_create(name, len, &boot_job.seg);
        if (status)
            return status;
        boot_job.shared = boot_job.seg.base;
        boot_job.shared->size = (uint32_t)boot_job.size;
        atomic_store_explicit(&boot_job.shared->magic, BOOT_MAGIC, memory_order_release);
    } else {
        status = boot_job_map_segment(name, len);
        if (status)
            return status;
        if (boot_job.shared->size != (uint32_t)boot_job.size) {
            shm_seg_unmap(&boot_job.seg);
            return util_error(ORMA_ERR_PEER, "job segment is for %u ranks, this rank expects %d",
                              boot_job.shared->size, boot_job.size);
        }
    }
    boot_job_barrier();
    if (boot_job.rank == 0)
        shm_seg_unlink(name); /* everybody has it mapped */
    util_wait_share_cpus(boot_cpus(), boot_job.size, boot_job.rank);
    return ORMA_SUCCESS;
}

void boot_job_barrier(void)
{
    if (boot_job.size > 1)
        shm_barrier_wait(boot_barrier_mem(), boot_job.size, boot_job.rank, &boot_job.barrier_episode);
}

void boot_job_allgather(const void *mine, size_t len, void *all)
{
    shm_allgather(boot_job.size > 1 ? boot_barrier_mem() : NULL, boot_job.size > 1 ? boot_slots() : NULL,
                  BOOT_SLOT_SIZE, boot_job.size, boot_job.rank, &boot_job.barrier_episode, mine, len, all);
}

void boot_job_finish(void)
{
    if (boot_job.status_fd >= 0) {
        int32_t rank = util_config.boot_slot >= 0 ? util_config.boot_slot : boot_job.rank;
        ssize_t rc;
        do
            rc = write(boot_job.status_fd, &rank, sizeof rank);
        while (rc < 0 && errno == EINTR);
        close(boot_job.status_fd);
        boot_job.status_fd = -1;
    }
    util_wait_share_cpus(NULL, 0, 0);
    if (boot_job.shared)
        shm_seg_unmap(&boot_job.seg);
    boot_job.shared = NULL;
    boot_live_release();
}
