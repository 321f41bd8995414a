/* nt_run.c -- the notify suite's loops and schedule (nt_run.h). */
#include "nt_run.h"

#include <stdio.h>
#include <string.h>

#include "reps.h"

/* Uncounted round trips at the head of a ping-pong batch: the peer may
 * still be waking up from the turns. */
#define NT_PP_WARM 4

static void nt_bad_stamp(nt_calls *c, int rank, const char *what, uint64_t item, uint64_t batch)
{
    if (c->ok)
        fprintf(stderr, "orma-bench: notify: rank %d: %s: %s %llu of batch %llu does not carry its stamps when its "
                "count says it arrived\n", rank, c->name, what, (unsigned long long)item, (unsigned long long)batch);
    c->ok = 0;
}

double nt_pingpong(const nt_env *e, nt_calls *c, long iters, uint64_t batch)
{
    const size_t n = NT_PINGPONG_BYTES;
    int me = e->rank, peer = 1 - me;
    if (c->begin)
        c->begin(c->arg, NT_PINGPONG, iters + NT_PP_WARM);
    e->barrier(e->arg);
    double t0 = 0;
    for (long i = -NT_PP_WARM; i < iters; i++) {
        if (i == 0)
            t0 = e->now();
        uint64_t item = (uint64_t)(i + NT_PP_WARM);
        if (me == 0) {
            nt_stamp(c->src, n, nt_item_word(batch, item, me));
            c->put(c->arg, c->src, n, 0, ++c->sent);
        }
        c->wait(c->arg, 0, ++c->got);
        if (!nt_stamped(c->slots, n, nt_item_word(batch, item, peer)))
            nt_bad_stamp(c, me, "round trip", item, batch);
        if (me == 1) {
            nt_stamp(c->src, n, nt_item_word(batch, item, me));
            c->put(c->arg, c->src, n, 0, ++c->sent);
        }
    }
    double t = e->now() - t0;
    return (double)e->bcast(e->arg, (long)(t * 1e12)) * 1e-12;
}

/* The producer: item i from source buffer i % NT_SLOTS into slot i %
 * NT_SLOTS, once the consumer's credit for item i - NT_SLOTS is back --
 * that item is used, so its slot may be written, and its source buffer
 * was read (its bytes arrived). */
static void nt_produce(nt_calls *c, size_t n, long items, uint64_t batch)
{
    uint64_t base = c->credits_got;
    for (long i = 0; i < items; i++) {
        int k = (int)(i % NT_SLOTS);
        if (i >= NT_SLOTS)
            c->wait_credit(c->arg, base + (uint64_t)(i - NT_SLOTS) + 1);
        unsigned char *src = c->src + (size_t)k * c->stride;
        nt_stamp(src, n, nt_item_word(batch, (uint64_t)i, 0));
        c->put(c->arg, src, n, k, ++c->sent);
    }
    c->credits_got = base + (uint64_t)items;
    c->wait_credit(c->arg, c->credits_got);
}

static void nt_consume(nt_calls *c, size_t n, long items, uint64_t batch)
{
    for (long i = 0; i < items; i++) {
        int k = (int)(i % NT_SLOTS);
        c->wait(c->arg, k, ++c->got);
        if (!nt_stamped(c->slots + (size_t)k * c->stride, n, nt_item_word(batch, (uint64_t)i, 0)))
            nt_bad_stamp(c, 1, "item", (uint64_t)i, batch);
        c->credit(c->arg, k, ++c->credits_sent);
    }
}

double nt_pipeline(const nt_env *e, nt_calls *c, size_t n, long items, uint64_t batch, unsigned char *scratch)
{
    if (e->rank == 0)
        nt_fill_sources(c->src, c->stride, n, batch, 0);
    if (c->begin)
        c->begin(c->arg, NT_PIPELINE, e->rank == 1 ? items : 0);
    e->barrier(e->arg);
    double t0 = e->now(), t = 0;
    if (e->rank == 0) {
        nt_produce(c, n, items, batch);
        t = e->now() - t0;
    } else {
        nt_consume(c, n, items, batch);
        char msg[192];
        if (!nt_slots_check(c->slots, c->stride, n, batch, items, 0, scratch, msg, sizeof msg)) {
            if (c->ok)
                fprintf(stderr, "orma-bench: notify: rank 1: %s pipeline: %s\n", c->name, msg);
            c->ok = 0;
        }
    }
    return (double)e->bcast(e->arg, (long)(t * 1e12)) * 1e-12;
}

double nt_sample_us(int part, int kind, double seconds, long iters)
{
    double us = seconds * 1e6 / (double)iters;
    return part == NT_PINGPONG && kind != NT_FLOOR ? us / 2 : us;
}

/* bench_iters_calibrate's batch: one kind of one point. */
struct nt_cal {
    const nt_prog *prog;
    int part, kind;
    size_t bytes;
};

static double nt_cal_batch(void *arg, long iters, uint64_t batch)
{
    struct nt_cal *c = arg;
    return c->prog->batch(c->prog->arg, c->part, c->kind, c->bytes, iters, batch);
}

/* This program's kinds of part, in the order of round (rotated). */
static int nt_order(const nt_prog *prog, int part, int round, int *kinds)
{
    int all[NT_NKINDS], n = 0;
    for (int k = 0; k < NT_NKINDS; k++)
        if (prog->has(prog->arg, part, k))
            all[n++] = k;
    for (int i = 0; i < n; i++)
        kinds[i] = all[(i + (round < 0 ? 0 : round)) % n];
    return n;
}

static long nt_calibrate(const nt_plan *p, const nt_prog *prog, int part, int kind, size_t bytes, uint64_t *batch)
{
    struct nt_cal c = {prog, part, kind, bytes};
    double last;
    return bench_iters_calibrate(nt_cal_batch, &c, batch, nt_warm_iters(part), nt_first_iters(part), NT_MAX_ITERS,
                                 nt_batch_seconds(p, part), &last);
}

int nt_run(const nt_plan *p, const nt_prog *prog, double *samples)
{
    uint64_t batch = 0;
    int st = 0;
    for (int i = 0; i < nt_npoints(p); i++) {
        int part;
        size_t bytes;
        nt_point(p, i, &part, &bytes);
        long iters[NT_NKINDS] = {0};
        int kinds[NT_NKINDS];
        prog->begin(prog->arg, part, bytes);
        for (int r = -1; r < p->rounds; r++) {
            if (prog->turn(prog->arg, i, r, 0))
                return -1;
            int n = nt_order(prog, part, r, kinds);
            for (int j = 0; j < n; j++) {
                int k = kinds[j];
                if (r < 0)
                    iters[k] = nt_calibrate(p, prog, part, k, bytes, &batch);
                else
                    samples[nt_at(p, i, k, r)] =
                        nt_sample_us(part, k, prog->batch(prog->arg, part, k, bytes, iters[k], batch++), iters[k]);
            }
            if (prog->turn(prog->arg, i, r, 1))
                return -1;
        }
        for (int k = 0; k < NT_NKINDS; k++)
            if (prog->has(prog->arg, part, k) && !prog->verified(prog->arg, part, k, bytes)) {
                memset(&samples[nt_at(p, i, k, 0)], 0, (size_t)p->rounds * sizeof *samples);
                st = -1;
            }
    }
    return st;
}
