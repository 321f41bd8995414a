/* ghost_def.c -- see ghost_def.h. */
#include <stdio.h>

#include "ghost_def.h"
#include "pattern.h"
#include "reps.h"

const char *const ghost_sync_names[] = {"p2p", "fence", "pscw", "lock", "notify", NULL};

const char *const ghost_dir_names[] = {"left", "right", "down", "up"};

const char *ghost_op_name(ghost_sync m)
{
    return m == GHOST_P2P ? "isend" : "put";
}

const char *ghost_window_name(ghost_sync m)
{
    return m == GHOST_P2P ? "none" : "allocate";
}

/* Seed 004 Table 1's sizes.  --quick keeps them all (the table is the
 * point) and shortens each point instead (reps.h). */
static const size_t ghost_sizes[] = {16, 64, 256, 1024, 16384, 65536, 262144};

void ghost_default_sizes(bench_opts *o)
{
    if (o->sizes_given)
        return;
    o->nsizes = (int)(sizeof ghost_sizes / sizeof ghost_sizes[0]);
    for (int i = 0; i < o->nsizes; i++)
        o->sizes[i] = ghost_sizes[i];
}

/* As MPI_Dims_create(p, 2): the two factors closest to each other, the
 * larger first. */
static void dims_create(int p, int dims[2])
{
    int d1 = 1;
    for (int f = 1; (long)f * f <= p; f++)
        if (p % f == 0)
            d1 = f;
    dims[0] = p / d1;
    dims[1] = d1;
}

static int rank_of(const ghost_grid *g, int c0, int c1)
{
    c0 = (c0 + g->dims[0]) % g->dims[0];
    c1 = (c1 + g->dims[1]) % g->dims[1];
    return c0 * g->dims[1] + c1;
}

void ghost_grid_init(int p, int rank, ghost_grid *g)
{
    static const int opposite[GHOST_NDIR] = {GHOST_RIGHT, GHOST_LEFT, GHOST_UP,
                                             GHOST_DOWN};
    g->p = p;
    g->rank = rank;
    dims_create(p, g->dims);
    g->coords[0] = rank / g->dims[1];
    g->coords[1] = rank % g->dims[1];
    int c0 = g->coords[0], c1 = g->coords[1];
    g->nbr[GHOST_LEFT] = rank_of(g, c0 - 1, c1);
    g->nbr[GHOST_RIGHT] = rank_of(g, c0 + 1, c1);
    g->nbr[GHOST_DOWN] = rank_of(g, c0, c1 - 1);
    g->nbr[GHOST_UP] = rank_of(g, c0, c1 + 1);
    for (int j = 0; j < GHOST_NDIR; j++)
        g->src[j] = g->nbr[opposite[j]];
    /* Ascending and without repeats: a group may name a rank once. */
    g->ndistinct = 0;
    for (int r = 0; r < p; r++)
        for (int j = 0; j < GHOST_NDIR; j++)
            if (g->nbr[j] == r) {
                g->distinct[g->ndistinct++] = r;
                break;
            }
}

/* Distinct for distinct (batch, half, sender < 2^16, direction). */
static uint64_t body_seed(uint64_t batch, unsigned half, int sender, int j)
{
    return ((((batch << 1) | half) << 16 | (unsigned)sender) << 2 | (unsigned)j) + 1;
}

void ghost_fill_batch(unsigned char *send, size_t n, int rank, uint64_t batch)
{
    for (unsigned h = 0; h < 2; h++)
        for (int j = 0; j < GHOST_NDIR; j++)
            bench_pattern_fill(send + (h * GHOST_NDIR + (size_t)j) * n, n,
                               body_seed(batch, h, rank, j));
}

static unsigned char guard_byte(int rank, int k, size_t i)
{
    return (unsigned char)(0xa5u ^ (unsigned)(rank * 29 + k * 7) ^ (unsigned)i);
}

static size_t guard_disp(size_t n, int k)
{
    return (size_t)k * (n + GHOST_GUARD);
}

void ghost_area_reset(unsigned char *area, size_t n, int rank)
{
    memset(area, 0, ghost_area_size(n));
    for (int k = 0; k <= GHOST_NDIR; k++)
        for (size_t i = 0; i < GHOST_GUARD; i++)
            area[guard_disp(n, k) + i] = guard_byte(rank, k, i);
}

static size_t first_diff(const unsigned char *a, const unsigned char *b,
                         size_t n)
{
    size_t i = 0;
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

int ghost_area_check(const unsigned char *area, const ghost_grid *g,
                     size_t n, uint64_t batch, uint64_t step,
                     unsigned char *scratch, char *msg, size_t len)
{
    for (int j = 0; j < GHOST_NDIR; j++) {
        int from = g->src[j];
        bench_pattern_fill(scratch, n,
                           body_seed(batch, (unsigned)(step & 1), from, j));
        ghost_stamp_segment(scratch, n, ghost_stamp_word(step, from, j));
        const unsigned char *slot = area + ghost_slot_disp(n, j);
        size_t i = first_diff(slot, scratch, n);
        if (i < n) {
            snprintf(msg, len, "slot %d (%s, from rank %d), %zu bytes, step "
                     "%llu: byte %zu is 0x%02x, expected 0x%02x", j,
                     ghost_dir_names[j], from, n, (unsigned long long)step, i,
                     slot[i], scratch[i]);
            return 0;
        }
    }
    for (int k = 0; k <= GHOST_NDIR; k++)
        for (size_t i = 0; i < GHOST_GUARD; i++) {
            unsigned char want = guard_byte(g->rank, k, i);
            unsigned char got = area[guard_disp(n, k) + i];
            if (got != want) {
                snprintf(msg, len, "guard %d (before %s), %zu-byte slots, "
                         "step %llu: byte %zu is 0x%02x, expected 0x%02x", k,
                         k < GHOST_NDIR ? "slot" : "the end", n,
                         (unsigned long long)step, i, got, want);
                return 0;
            }
        }
    return 1;
}

double ghost_batch_seconds(const bench_opts *o)
{
    /* Well below a scheduler tick (4 ms here), so that on a busy machine
     * most batches run unpreempted (2 ms batches mostly did not); long
     * enough that the clock and the skew of the barrier before it are a
     * few per cent. */
    return o->quick ? 100e-6 : 200e-6;
}

long ghost_max_batches(const bench_opts *o)
{
    return o->reps > 0 ? o->reps : BENCH_MAX_REPS;
}

long ghost_calibrate(const bench_opts *o, ghost_batch_fn fn, void *arg, uint64_t *batch_p, double *last_s)
{
    return bench_iters_calibrate(fn, arg, batch_p, GHOST_WARMUP_STEPS, GHOST_MIN_STEPS, GHOST_MAX_ITERS,
                                 ghost_batch_seconds(o), last_s);
}

long ghost_measure(const bench_opts *o, ghost_batch_fn fn, void *arg,
                   uint64_t *batch_p, double *us)
{
    double t;
    long iters = ghost_calibrate(o, fn, arg, batch_p, &t);
    long nb = bench_reps_for(o, t);
    for (long i = 0; i < nb; i++)
        us[i] = fn(arg, iters, (*batch_p)++) * 1e6 / (double)iters;
    return nb;
}
