/* pp_orma.c -- the orma backend of the pingpong series (pp_loop.h): its
 * calls are orma's (pp_orma_calls.h), the rows under backend "orma". */
#include <string.h>

#include "pingpong.h"

#include "pp_orma_calls.h"
#include "pp_loop.h"

int pp_orma_series(const bench_ctx *ctx, const char *op, const char *kind)
{
    pp_state s;
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    s.backend = "orma";
    s.prog = "orma-bench";
    s.op = pp_op_by_name(op);
    if (s.op == PP_NOP)
        return BENCH_USAGE; /* filtered before, not reached */
    s.kind = kind;
    s.me = ctx->rank;
    s.peer = 1 - ctx->rank;
    return pp_series(&s);
}
