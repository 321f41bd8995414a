/* race_pp.c -- the race suite's pingpong part (race.h): the pingpong
 * suite's round trips (pp_loop.h, with orma's calls of pp_orma_calls.h)
 * on an allocate window made with or without orma_check_race, a point at
 * a time and a batch of repetitions at a time, so that a checked and an
 * unchecked series can take turns inside one point.  The repetitions are
 * pingpong's own: the same round trip, data, checks and settling. */
#include <stdlib.h>
#include <string.h>

#include "race.h"

#include "pp_orma_calls.h"
/* The series driver of pp_loop.h (pp_series and its points) is not used
 * here: its repetitions are, batch by batch. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "pp_loop.h"
#pragma GCC diagnostic pop

struct race_pp {
    pp_state s;
};

race_pp *race_pp_open(const bench_ctx *ctx, int part, size_t max, int checked, const char *syncs)
{
    race_pp *r = bench_xmalloc(sizeof *r);
    memset(r, 0, sizeof *r);
    pp_state *s = &r->s;
    s->ctx = ctx;
    s->backend = race_side_backends[checked ? RACE_ON : RACE_OFF];
    s->prog = "orma-bench race";
    s->op = part == RACE_GET ? PP_GET : PP_PUT;
    s->kind = "allocate";
    s->me = ctx->rank;
    s->peer = 1 - ctx->rank;
    s->send = bench_xmalloc(max);
    s->recv = bench_xmalloc(max);
    memset(s->send, 0, max);
    memset(s->recv, 0, max);
    pp_sync_series_open(s, syncs);
    orma_info info = ORMA_INFO_NULL;
    if (checked) {
        BENCH_CHECK(orma_info_create(&info));
        BENCH_CHECK(orma_info_set(info, "orma_check_race", "true"));
    }
    BENCH_CHECK(bench_window_open_info(ctx->ctl, "allocate", max, info, &s->w));
    if (checked)
        BENCH_CHECK(orma_info_free(&info));
    pp_sync_window_open(s);
    return r;
}

void race_pp_close(race_pp *r)
{
    pp_state *s = &r->s;
    pp_sync_window_close(s);
    bench_window_close(&s->w);
    pp_sync_series_close(s);
    free(s->send);
    free(s->recv);
    free(r);
}

void race_pp_begin(race_pp *r, size_t n, int mode)
{
    pp_state *s = &r->s;
    s->n = n;
    s->sync = (pp_sync)mode;
    s->ok = 1;
    pp_prepare(s);
    pp_sync_point_begin(s);
}

double race_pp_batch(race_pp *r, long iters, double *us)
{
    pp_state *s = &r->s;
    double t0 = ppb_now(), sum = 0;
    for (long i = 0; i < iters; i++) {
        double sec;
        pp_repetition(s, &sec);
        sum += sec;
    }
    double wall = ppb_now() - t0;
    /* rank 0's clock, as pingpong's samples: picoseconds, integers both
     * ranks agree on */
    sum = (double)ppb_bcast(s, (long)(sum * 1e12)) * 1e-12;
    wall = (double)ppb_bcast(s, (long)(wall * 1e12)) * 1e-12;
    *us = sum * 1e6 / (double)iters;
    return wall;
}

int race_pp_end(race_pp *r)
{
    pp_state *s = &r->s;
    pp_sync_point_end(s);
    int ok = ppb_all_ok(s, s->ok);
    if (!ok && s->me == 0)
        fprintf(stderr, "orma-bench: race: %s: %s+%s on allocate window, %zu bytes: data did not verify\n",
                s->backend, pp_op_names[s->op], pp_sync_names[s->sync], s->n);
    return ok;
}
