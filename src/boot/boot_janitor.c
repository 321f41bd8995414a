/* boot_janitor.c -- no shared object outlives its job.
 *
 * orma-run removes what its ranks leave behind when the job ends, but
 * jobs started another way (liborma-mpi: boot_job_external) have no
 * launcher of ours, and a launcher killed together with its ranks cleans up
 * nothing.  So every job keeps a liveness file: every rank holds a shared
 * flock(2) on "<prefix>live" from start to finish, and the kernel drops the
 * lock of a process however it dies.  Whoever can take the lock
 * exclusively knows that nobody of the job is left, and removes all of the
 * job's objects: the last rank to finish, and any later job starting on
 * the node (rank 0 sweeps /dev/shm for dead jobs of its user before it
 * creates anything). */
#include "boot_job.h"
#include "util_log.h"
#include "util_status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A liveness file younger than this may belong to a job whose ranks are
 * still between creating it and locking it: left alone. */
#define BOOT_LIVE_GRACE_S 2

#define BOOT_LIVE_SUFFIX "live"

static int boot_live_fd = -1;

int boot_sweep_token(const char *token)
{
    char prefix[96];
    size_t plen = (size_t)snprintf(prefix, sizeof prefix, "orma-%u-%s-", (unsigned)getuid(), token);
    /* The liveness file first: a rank of the job still running sees it gone
     * and removes whatever it creates from now on (shm_seg_guard), so that
     * nothing is made after the sweep has looked. */
    char live[128];
    snprintf(live, sizeof live, "/%s" BOOT_LIVE_SUFFIX, prefix);
    int removed = !shm_unlink(live);
    DIR *dir = opendir("/dev/shm");
    if (!dir)
        return removed;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (strncmp(e->d_name, prefix, plen))
            continue;
        if (!unlinkat(dirfd(dir), e->d_name, 0))
            removed++;
        else if (errno != ENOENT)
            util_log(UTIL_LOG_WARN, "cannot remove /dev/shm/%s: %s", e->d_name, strerror(errno));
    }
    closedir(dir);
    return removed;
}

/* The liveness file of a job that is gone: sweep the job.  name is the
 * file's name in /dev/shm, token its job's. */
static void boot_janitor_try(const char *name, const char *token)
{
    char path[300];
    snprintf(path, sizeof path, "/%s", name);
    int fd = shm_open(path, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0)
        return;
    struct stat st;
    if (!fstat(fd, &st) && time(NULL) - st.st_mtime >= BOOT_LIVE_GRACE_S && !flock(fd, LOCK_EX | LOCK_NB)) {
        int n = boot_sweep_token(token);
        util_log(UTIL_LOG_INFO, "removed %d shared-memory object%s of a job that ended without cleaning up", n,
                 n == 1 ? "" : "s");
    }
    close(fd);
}

void boot_janitor_sweep(void)
{
    char head[32];
    size_t hlen = (size_t)snprintf(head, sizeof head, "orma-%u-", (unsigned)getuid());
    size_t slen = strlen("-" BOOT_LIVE_SUFFIX);
    DIR *dir = opendir("/dev/shm");
    if (!dir)
        return;
    char found[64][48]; /* tokens of liveness files; the rest waits for the next sweep */
    int n = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && n < 64) {
        size_t len = strlen(e->d_name);
        if (len <= hlen + slen || strncmp(e->d_name, head, hlen) ||
            strcmp(e->d_name + len - slen, "-" BOOT_LIVE_SUFFIX))
            continue;
        size_t tlen = len - hlen - slen;
        if (tlen >= sizeof found[0])
            continue;
        memcpy(found[n], e->d_name + hlen, tlen);
        found[n++][tlen] = 0;
    }
    closedir(dir);
    for (int i = 0; i < n; i++) {
        if (!strcmp(found[i], boot_job.token))
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.31s%.47s-" BOOT_LIVE_SUFFIX, head, found[i]);
        boot_janitor_try(name, found[i]);
    }
}

static char boot_live_path[SHM_NAME_MAX + 16];

/* Whether this job's liveness file is gone: it is being torn down. */
static int boot_live_gone(void)
{
    return access(boot_live_path, F_OK) != 0 && errno == ENOENT;
}

int boot_live_hold(void)
{
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, BOOT_LIVE_SUFFIX);
    snprintf(boot_live_path, sizeof boot_live_path, "/dev/shm%s", name);
    boot_live_fd = shm_open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (boot_live_fd < 0)
        return util_error(ORMA_ERR_SYS, "cannot create %s: %s", name, strerror(errno));
    if (flock(boot_live_fd, LOCK_SH)) {
        int err = errno;
        close(boot_live_fd);
        boot_live_fd = -1;
        return util_error(ORMA_ERR_SYS, "cannot lock %s: %s", name, strerror(err));
    }
    shm_seg_job_gone = boot_live_gone;
    return ORMA_SUCCESS;
}

void boot_live_release(void)
{
    if (boot_live_fd < 0)
        return;
    shm_seg_job_gone = NULL; /* the last rank sweeps what is left */
    flock(boot_live_fd, LOCK_UN);
    if (!flock(boot_live_fd, LOCK_EX | LOCK_NB))
        boot_sweep_token(boot_job.token); /* the last one out */
    close(boot_live_fd);
    boot_live_fd = -1;
}
