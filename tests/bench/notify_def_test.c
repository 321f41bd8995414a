/* notify_def_test.c -- the notify suite's plan and data
 * (bench/notify/nt_def.h), in one process:
 *   - the plan survives its command line (the MPI job's), points come in
 *     the order of the parts, and a sample line reads back where it was;
 *   - a pipeline simulated with memcpy between a producer's sources and a
 *     consumer's ring verifies at every size and item count, and each
 *     kind of damage is caught: a byte of an item, an item that did not
 *     arrive (its slot holds the item before), two slots exchanged, a
 *     stale batch, a stamp that is not the item's. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "nt_def.h"

static void check_plan(void)
{
    nt_plan p, q;
    memset(&p, 0, sizeof p);
    p.parts[NT_PINGPONG] = p.parts[NT_GHOST] = 1;
    p.kinds[NT_FLOOR] = p.kinds[NT_NOTIFY] = p.kinds[NT_P2P] = p.kinds[NT_LOCK] = 1;
    p.sizes[NT_PINGPONG][0] = NT_PINGPONG_BYTES;
    p.nsizes[NT_PINGPONG] = 1;
    p.sizes[NT_PIPELINE][0] = 8;
    p.sizes[NT_PIPELINE][1] = 4 << 20;
    p.nsizes[NT_PIPELINE] = 2;
    p.sizes[NT_GHOST][0] = 16;
    p.sizes[NT_GHOST][1] = 1024;
    p.sizes[NT_GHOST][2] = 65536;
    p.nsizes[NT_GHOST] = 3;
    p.rounds = 7;
    p.quick = 1;
    char args[NT_PLAN_ARGS][256];
    nt_plan_format(&p, args);
    char *argv[NT_PLAN_ARGS];
    for (int i = 0; i < NT_PLAN_ARGS; i++)
        argv[i] = args[i];
    CHECK(nt_plan_parse(&q, argv) == 0);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    /* pingpong's one point, then ghost's (the pipeline is not measured) */
    CHECK(nt_npoints(&q) == 4);
    int part;
    size_t bytes;
    nt_point(&q, 0, &part, &bytes);
    CHECK(part == NT_PINGPONG && bytes == NT_PINGPONG_BYTES);
    nt_point(&q, 3, &part, &bytes);
    CHECK(part == NT_GHOST && bytes == 65536);
    CHECK(nt_max_bytes(&q, NT_PIPELINE) == 0 && nt_max_bytes(&q, NT_GHOST) == 65536);
    double *us = calloc(nt_nsamples(&q), sizeof *us);
    CHECK(us != NULL);
    CHECK(nt_read_sample(&q, "sample 2 lock 6 1.250000\n", us) == 1);
    CHECK(us[nt_at(&q, 2, NT_LOCK, 6)] == 1.25);
    CHECK(nt_read_sample(&q, "sample 4 lock 0 1.0\n", us) == 0);
    CHECK(nt_read_sample(&q, "sample 1 lock 7 1.0\n", us) == 0);
    CHECK(nt_read_sample(&q, "note something\n", us) == 0);
    free(us);
    strcpy(args[4], "0");
    CHECK(nt_plan_parse(&q, argv) != 0);
    strcpy(args[4], "3");
    strcpy(args[1], "floor,bogus");
    CHECK(nt_plan_parse(&q, argv) != 0);
}

typedef struct sim {
    size_t n, stride;
    unsigned char *src, *slots, *scratch;
} sim;

/* items items of batch, item skip (if any) not sent. */
static void sim_batch(sim *s, uint64_t batch, long items, long skip)
{
    nt_fill_sources(s->src, s->stride, s->n, batch, 0);
    for (long i = 0; i < items; i++) {
        int k = (int)(i % NT_SLOTS);
        unsigned char *src = s->src + (size_t)k * s->stride;
        nt_stamp(src, s->n, nt_item_word(batch, (uint64_t)i, 0));
        if (i != skip)
            memcpy(s->slots + (size_t)k * s->stride, src, s->n);
        CHECK(i == skip || nt_stamped(s->slots + (size_t)k * s->stride, s->n, nt_item_word(batch, (uint64_t)i, 0)));
    }
}

static int sim_ok(sim *s, uint64_t batch, long items)
{
    char msg[256];
    return nt_slots_check(s->slots, s->stride, s->n, batch, items, 0, s->scratch, msg, sizeof msg);
}

static void check_pipeline(size_t n)
{
    sim s = {n, (n + 63) & ~(size_t)63, NULL, NULL, NULL};
    s.src = calloc(NT_SLOTS, s.stride);
    s.slots = calloc(NT_SLOTS, s.stride);
    s.scratch = malloc(n);
    CHECK(s.src && s.slots && s.scratch);
    static const long counts[] = {1, 3, NT_SLOTS, NT_SLOTS + 1, 5 * NT_SLOTS + 3};
    for (uint64_t b = 0; b < sizeof counts / sizeof counts[0]; b++) {
        sim_batch(&s, b, counts[b], -1);
        CHECK(sim_ok(&s, b, counts[b]));
    }
    long items = 4 * NT_SLOTS + 5;
    /* the last item did not arrive: its slot holds the item before */
    sim_batch(&s, 10, items, items - 1);
    CHECK(!sim_ok(&s, 10, items));
    /* one in the middle of the ring */
    sim_batch(&s, 11, items, items - 3);
    CHECK(!sim_ok(&s, 11, items));
    /* whole, but checked as another batch */
    sim_batch(&s, 12, items, -1);
    CHECK(sim_ok(&s, 12, items));
    CHECK(!sim_ok(&s, 13, items));
    /* a byte of an item */
    unsigned char *slot = s.slots + 2 * s.stride;
    slot[n / 2] ^= 1;
    CHECK(!sim_ok(&s, 12, items));
    slot[n / 2] ^= 1;
    CHECK(sim_ok(&s, 12, items));
    /* two slots exchanged */
    memcpy(s.scratch, s.slots, n);
    memcpy(s.slots, s.slots + s.stride, n);
    memcpy(s.slots + s.stride, s.scratch, n);
    CHECK(!sim_ok(&s, 12, items));
    /* stamps: another item's, another sender's */
    nt_stamp(s.scratch, n, nt_item_word(12, 5, 0));
    CHECK(nt_stamped(s.scratch, n, nt_item_word(12, 5, 0)));
    CHECK(!nt_stamped(s.scratch, n, nt_item_word(12, 6, 0)));
    CHECK(!nt_stamped(s.scratch, n, nt_item_word(12, 5, 1)));
    CHECK(!nt_stamped(s.scratch, n, nt_item_word(13, 5, 0)));
    free(s.src);
    free(s.slots);
    free(s.scratch);
}

int main(void)
{
    check_plan();
    static const size_t sizes[] = {1, 7, 8, 16, 100, 4096, 65536};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        check_pipeline(sizes[i]);
    return 0;
}
