/* lat_def.c -- see lat_def.h. */
#include <stdlib.h>
#include <string.h>

#include "lat_def.h"

const char *const lat_sync_names[] = {"fence", "pscw",  "lock",
                                      "lock_all", "flush", "flush_local",
                                      NULL};

const char *const lat_op_names[] = {"put", "get", "acc", NULL};

const char *const lat_window_kinds[] = {"allocate", "create",
                                        "create_allocmem", "dynamic",
                                        "dynamic_allocmem", "shared",
                                        "create_fit", "stack", NULL};

int lat_window_direct(const char *kind)
{
    if (strcmp(kind, "create_fit") == 0 || strcmp(kind, "stack") == 0)
        return 0;
    const char *adopt = getenv("ORMA_ADOPT");
    if (adopt == NULL || strcmp(adopt, "0") != 0)
        return 1;
    return strcmp(kind, "create") != 0 && strcmp(kind, "dynamic") != 0;
}

size_t lat_window_guard(const char *kind)
{
    return strcmp(kind, "create_fit") == 0 ? 0 : LAT_GUARD;
}

int lat_ops_per_iter(lat_sync sync)
{
    return sync == LAT_FENCE || sync == LAT_PSCW ? 2 : 1;
}

long lat_skip(size_t n)
{
    return n > LAT_LARGE ? 10 : 100;
}

long lat_iters_max(size_t n)
{
    return n > LAT_LARGE ? 1000 : 10000;
}

long lat_iters_for(size_t n, double iter_s)
{
    long max = lat_iters_max(n);
    if (!(iter_s > 0.0))
        return max;
    double k = LAT_BATCH_S / iter_s;
    if (k < LAT_MIN_ITERS)
        return LAT_MIN_ITERS;
    return k > (double)max ? max : (long)k;
}
