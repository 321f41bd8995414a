/* floor_xcopy.c -- the put round trip on directly mapped memory done with
 * memcpy and flags: both receive buffers live in one shared window, so, as
 * in the orma round trip, every line a rank writes was just read by its
 * owner on the other core.  The same-pattern floor of put on allocate. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "flag.h"
#include "floor.h"
#include "floor_rt.h"

static int xcopy_send(void *arg, const unsigned char *from, size_t n)
{
    memcpy(arg, from, n);
    return 0;
}

int bench_floor_xcopy(const bench_ctx *ctx)
{
    size_t max = bench_opts_max_size(ctx->opts);
    bench_flag_win fw;
    bench_flag_win_open(max, &fw);
    floor_rt rt = {"xcopy", "shared", NULL, NULL, NULL, NULL, xcopy_send,
                   NULL};
    if (ctx->rank <= 1) {
        int peer = 1 - ctx->rank;
        rt.recv = fw.buf[ctx->rank];
        rt.mine = fw.flag[ctx->rank];
        rt.peer = fw.flag[peer];
        rt.arg = fw.buf[peer];
    }
    if (ctx->rank == 0) {
        rt.src = bench_xmalloc(max);
        memset(rt.src, 0, max);
    }
    int st = floor_rt_series(ctx, &rt);
    free(rt.src);
    bench_flag_win_close(&fw);
    return st;
}
