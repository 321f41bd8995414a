/* api_group.h -- groups: ordered lists of distinct ranks of a window. */
#ifndef ORMA_API_GROUP_H
#define ORMA_API_GROUP_H

#include <orma.h>

#define API_GROUP_MAGIC 0x67727570u

struct orma_group_s {
    uint32_t magic;
    int n;
    int ranks[]; /* ranks of the window, distinct */
};

/* ORMA_SUCCESS when group is a live group whose ranks are below nranks. */
int api_group_check(const char *call, orma_group group, int nranks);

#endif
