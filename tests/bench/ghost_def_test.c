/* ghost_def_test.c -- the ghost suite's grid and data (bench/ghost/ghost_def.h),
 * in one process:
 *   - the grid is MPI_Dims_create's, neighbours are symmetric (what rank r
 *     puts in direction j lands in slot j of a rank whose sender for slot
 *     j is r), small grids repeat neighbours as the suite says;
 *   - steps simulated with memcpy between P areas verify at every P, and
 *     each kind of damage is caught: a byte of a slot, a guard byte, a
 *     slot that missed the last step (it holds the step before), a slot
 *     written by the wrong sender or direction, a stale batch. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ghost_def.h"

#define MAXP 16

static void check_grid(int p, int d0, int d1)
{
    ghost_grid g;
    ghost_grid_init(p, 0, &g);
    CHECK(g.dims[0] == d0 && g.dims[1] == d1);
}

static void check_small_grids(void)
{
    check_grid(1, 1, 1);
    check_grid(2, 2, 1);
    check_grid(3, 3, 1);
    check_grid(4, 2, 2);
    check_grid(6, 3, 2);
    check_grid(7, 7, 1);
    check_grid(12, 4, 3);
    check_grid(16, 4, 4);

    ghost_grid g;
    ghost_grid_init(1, 0, &g);
    for (int j = 0; j < GHOST_NDIR; j++)
        CHECK(g.nbr[j] == 0 && g.src[j] == 0);
    CHECK(g.ndistinct == 1 && g.distinct[0] == 0);

    /* 2x1: left and right are the other rank, down and up this one. */
    ghost_grid_init(2, 0, &g);
    CHECK(g.nbr[GHOST_LEFT] == 1 && g.nbr[GHOST_RIGHT] == 1);
    CHECK(g.nbr[GHOST_DOWN] == 0 && g.nbr[GHOST_UP] == 0);
    CHECK(g.ndistinct == 2 && g.distinct[0] == 0 && g.distinct[1] == 1);

    /* 2x2, rank 3 at (1,1): left and right (0,1) = 1, down and up (1,0) = 2. */
    ghost_grid_init(4, 3, &g);
    CHECK(g.nbr[GHOST_LEFT] == 1 && g.nbr[GHOST_RIGHT] == 1);
    CHECK(g.nbr[GHOST_DOWN] == 2 && g.nbr[GHOST_UP] == 2);
    CHECK(g.ndistinct == 2 && g.distinct[0] == 1 && g.distinct[1] == 2);
}

static void check_symmetry(int p)
{
    ghost_grid g[MAXP];
    for (int r = 0; r < p; r++)
        ghost_grid_init(p, r, &g[r]);
    for (int r = 0; r < p; r++)
        for (int j = 0; j < GHOST_NDIR; j++) {
            CHECK(g[r].nbr[j] >= 0 && g[r].nbr[j] < p);
            CHECK(g[g[r].nbr[j]].src[j] == r);
            /* Whoever puts to r is one of r's neighbours: one group
             * serves PSCW as exposure and access group. */
            int in = 0;
            for (int k = 0; k < g[r].ndistinct; k++)
                in |= g[r].distinct[k] == g[r].src[j];
            CHECK(in);
        }
}

typedef struct sim {
    int p;
    size_t n;
    ghost_grid g[MAXP];
    unsigned char *area[MAXP], *send[MAXP], *scratch;
    uint64_t step;
} sim;

static void sim_open(sim *s, int p, size_t n)
{
    s->p = p;
    s->n = n;
    s->step = 0;
    for (int r = 0; r < p; r++) {
        ghost_grid_init(p, r, &s->g[r]);
        s->area[r] = malloc(ghost_area_size(n));
        s->send[r] = malloc(ghost_send_size(n));
        CHECK(s->area[r] != NULL && s->send[r] != NULL);
        ghost_area_reset(s->area[r], n, r);
    }
    s->scratch = malloc(n);
    CHECK(s->scratch != NULL);
}

static void sim_close(sim *s)
{
    for (int r = 0; r < s->p; r++) {
        free(s->area[r]);
        free(s->send[r]);
    }
    free(s->scratch);
}

/* One step; skip_rank's put in direction skip_dir is not made. */
static void sim_step(sim *s, int skip_rank, int skip_dir)
{
    for (int r = 0; r < s->p; r++) {
        const unsigned char *d = ghost_step_data(s->send[r], s->n, s->step,
                                                 r);
        for (int j = 0; j < GHOST_NDIR; j++)
            if (r != skip_rank || j != skip_dir)
                memcpy(s->area[s->g[r].nbr[j]] + ghost_slot_disp(s->n, j),
                       d + (size_t)j * s->n, s->n);
    }
    s->step++;
}

static void sim_batch(sim *s, uint64_t batch, int steps, int skip_rank,
                      int skip_dir)
{
    for (int r = 0; r < s->p; r++)
        ghost_fill_batch(s->send[r], s->n, r, batch);
    for (int i = 0; i < steps; i++)
        sim_step(s, i == steps - 1 ? skip_rank : -1, skip_dir);
}

static int sim_ok(sim *s, int r, uint64_t batch)
{
    char msg[256];
    return ghost_area_check(s->area[r], &s->g[r], s->n, batch, s->step - 1,
                            s->scratch, msg, sizeof msg);
}

static void check_steps(int p, size_t n)
{
    sim s;
    sim_open(&s, p, n);
    for (uint64_t b = 0; b < 3; b++) {
        sim_batch(&s, b, (int)b + 1, -1, 0);
        for (int r = 0; r < p; r++)
            CHECK(sim_ok(&s, r, b));
    }
    /* A slot that missed the last step holds the one before: rejected,
     * at every size (the halves differ everywhere, the stamps too). */
    sim_batch(&s, 3, 4, 0, GHOST_UP);
    int victim = s.g[0].nbr[GHOST_UP];
    CHECK(!sim_ok(&s, victim, 3));
    /* Verified as another batch: rejected where the body is more than
     * the stamps (16 bytes and less are all stamp, which the step
     * numbers alone tell apart). */
    sim_batch(&s, 4, 2, -1, 0);
    CHECK(n <= 16 || !sim_ok(&s, 0, 5));
    CHECK(sim_ok(&s, 0, 4));
    /* A byte in the middle of a slot, then a guard byte. */
    unsigned char *slot = s.area[0] + ghost_slot_disp(n, GHOST_DOWN);
    slot[n / 2] ^= 1;
    CHECK(!sim_ok(&s, 0, 4));
    slot[n / 2] ^= 1;
    CHECK(sim_ok(&s, 0, 4));
    s.area[0][ghost_slot_disp(n, GHOST_RIGHT) + n] ^= 0x80;
    CHECK(!sim_ok(&s, 0, 4));
    s.area[0][ghost_slot_disp(n, GHOST_RIGHT) + n] ^= 0x80;
    s.area[0][ghost_area_size(n) - 1] ^= 0x80;
    CHECK(!sim_ok(&s, 0, 4));
    s.area[0][ghost_area_size(n) - 1] ^= 0x80;
    CHECK(sim_ok(&s, 0, 4));
    /* Slots 0 and 1 exchanged: each holds its data from the wrong
     * direction (and, on a grid wider than 2, sender). */
    memcpy(s.scratch, s.area[0] + ghost_slot_disp(n, 0), n);
    memmove(s.area[0] + ghost_slot_disp(n, 0),
            s.area[0] + ghost_slot_disp(n, 1), n);
    memcpy(s.area[0] + ghost_slot_disp(n, 1), s.scratch, n);
    CHECK(!sim_ok(&s, 0, 4));
    sim_close(&s);
}

int main(void)
{
    check_small_grids();
    for (int p = 1; p <= MAXP; p++)
        check_symmetry(p);
    static const size_t sizes[] = {1, 7, 8, 16, 100, 4096};
    for (int p = 1; p <= 6; p++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            check_steps(p, sizes[i]);
    return 0;
}
