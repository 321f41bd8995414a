/* usage.h -- what a process holds of the system: the job's objects in
 * /dev/shm, open file descriptors, memory mappings (those of /dev/shm
 * objects apart), counted before and after a test's windows come and go
 * to find what they leak. */
#ifndef ORMA_TEST_USAGE_H
#define ORMA_TEST_USAGE_H

#include "check.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The names of this job's /dev/shm objects start with buf
 * (orma-<uid>-<ORMA_BOOT_JOB>-), or NULL: no token (not under orma-run). */
static inline const char *usage_shm_prefix(char *buf, size_t len)
{
    const char *token = getenv("ORMA_BOOT_JOB");
    if (!token)
        return NULL;
    snprintf(buf, len, "orma-%u-%s-", (unsigned)getuid(), token);
    return buf;
}

/* Entries of dir whose names start with prefix. */
static inline int usage_count_dir(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    CHECK(d != NULL);
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && strncmp(e->d_name, prefix, strlen(prefix)) == 0)
            n++;
    closedir(d);
    return n;
}

/* Lines of path, and of those the ones containing `needle`. */
static inline void usage_count_lines(const char *path, const char *needle, int *all_p, int *match_p)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    CHECK(f != NULL);
    *all_p = *match_p = 0;
    while (fgets(line, sizeof line, f)) {
        ++*all_p;
        *match_p += strstr(line, needle) != NULL;
    }
    fclose(f);
}

struct usage {
    int shm, fds, maps, shm_maps;
};

static inline struct usage usage_now(const char *shm_prefix)
{
    struct usage u;
    u.shm = shm_prefix ? usage_count_dir("/dev/shm", shm_prefix) : 0;
    u.fds = usage_count_dir("/proc/self/fd", "");
    usage_count_lines("/proc/self/maps", "/dev/shm/", &u.maps, &u.shm_maps);
    return u;
}

#endif
