/* shm_left.h -- what a job left in /dev/shm: the drivers that start
 * orma-run themselves (tests/launcher, tests/bsp) check that a job's
 * shared-memory objects are gone, however it ended. */
#ifndef ORMA_TEST_SHM_LEFT_H
#define ORMA_TEST_SHM_LEFT_H

#include "check.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The objects of the job with this token still in /dev/shm, each named on
 * stderr. */
static inline int shm_objects_of(const char *token)
{
    char prefix[96];
    snprintf(prefix, sizeof prefix, "orma-%u-%s-", (unsigned)getuid(), token);
    DIR *dir = opendir("/dev/shm");
    CHECK(dir);
    int count = 0;
    struct dirent *e;
    while ((e = readdir(dir)))
        if (!strncmp(e->d_name, prefix, strlen(prefix))) {
            fprintf(stderr, "left behind: /dev/shm/%s\n", e->d_name);
            count++;
        }
    closedir(dir);
    return count;
}

#endif
