/* bind.c -- see bind.h. */
#include "bind.h"

int bench_bind_rank(int rank, cpu_set_t *saved)
{
    if (sched_getaffinity(0, sizeof *saved, saved) != 0) {
        CPU_ZERO(saved);
        return -1;
    }
    int count = CPU_COUNT(saved);
    if (count < 2 || rank < 0)
        return -1;
    int want = rank % count;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, saved) || want-- > 0)
            continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 ? cpu : -1;
    }
    return -1;
}

void bench_bind_restore(const cpu_set_t *saved)
{
    if (CPU_COUNT(saved) > 0)
        (void)sched_setaffinity(0, sizeof *saved, saved);
}
