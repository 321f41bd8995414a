/* multiput_def.c -- see multiput_def.h. */
#include <string.h>

#include "lat_def.h"
#include "multiput_def.h"

const char *const multiput_op_names[] = {"put1", "put2", "put4", "put8",
                                         "put16", NULL};
const int multiput_pieces[] = {1, 2, 4, 8, 16};

const char *const multiput_sync_names[] = {"fence", "pscw", "lock", "flush",
                                           NULL};

static const size_t sizes[] = {64, 256, 1024, 4096, 16384, 65536, 262144,
                               1048576, 4194304};
/* --quick stops at 1 MB: at 4 MB a point of the 16 batches' minimum
 * takes ~0.1-0.5 s per backend, most of a quick run. */
static const size_t quick_sizes[] = {64, 1024, 16384, 262144, 1048576};

void multiput_default_options(bench_opts *o)
{
    if (o->windows == NULL)
        o->windows = MULTIPUT_WINDOWS;
    if (o->sizes_given)
        return;
    const size_t *sz = o->quick ? quick_sizes : sizes;
    o->nsizes = o->quick ? (int)(sizeof quick_sizes / sizeof *quick_sizes)
                         : (int)(sizeof sizes / sizeof *sizes);
    for (int i = 0; i < o->nsizes; i++)
        o->sizes[i] = sz[i];
}

int multiput_sync_on(const bench_opts *o, int m)
{
    if (!bench_list_has(o->syncs, lat_sync_names[m]))
        return 0;
    for (int i = 0; multiput_sync_names[i] != NULL; i++)
        if (strcmp(multiput_sync_names[i], lat_sync_names[m]) == 0)
            return 1;
    return 0;
}

int multiput_series(lat_rma_set *set)
{
    const bench_opts *o = set->s[0]->opts;
    int st = BENCH_OK;
    for (int i = 0; i < o->nsizes && st == BENCH_OK; i++) {
        size_t n = o->sizes[i];
        for (int m = 0; m < LAT_NSYNC && st == BENCH_OK; m++) {
            if (!multiput_sync_on(o, m))
                continue;
            for (int j = 0; multiput_op_names[j] != NULL && st == BENCH_OK;
                 j++) {
                int k = multiput_pieces[j];
                if (!bench_list_has(o->ops, multiput_op_names[j]) ||
                    n < (size_t)k)
                    continue;
                if (lat_rma_point(set, multiput_op_names[j], n,
                                  (lat_sync)m, k) != 0)
                    st = BENCH_FAIL;
            }
        }
    }
    return st;
}
