/* util_time.h -- the clock of orma_wtime and of every timeout. */
#ifndef ORMA_UTIL_TIME_H
#define ORMA_UTIL_TIME_H

#include <stdint.h>
#include <time.h>

static inline uint64_t util_time_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

#endif
