/* team.c -- teams (orma_team_*): the predefined ones, splits by colour and
 * key (nested, with ranks joining none), rank translation, barriers, and
 * windows of every flavour on a team, whose ranks are the team's; bad
 * handles, colours and ranks refused with a message and no hang; a window
 * outlives the team it was made on.  1-4 ranks. */
#include "rma_test.h"

#include <stdint.h>

#define PART 256 /* bytes of each rank's part of the windows below */

static int world_rank, world_size;

/* The world ranks of the team with this rank's parity, ordered by key
 * -rank: from the highest down.  Returns the size, *mine this rank's place. */
static int parity_members(int *members, int *mine)
{
    int n = 0;
    for (int r = world_size - 1; r >= 0; r--)
        if (r % 2 == world_rank % 2) {
            if (r == world_rank)
                *mine = n;
            members[n++] = r;
        }
    return n;
}

static void check_predefined(void)
{
    int rank, size;
    CHECK_OK(orma_team_rank(ORMA_TEAM_WORLD, &rank));
    CHECK_OK(orma_team_size(ORMA_TEAM_WORLD, &size));
    CHECK(rank == world_rank && size == world_size);
    /* under orma-run every rank shares this node */
    CHECK_OK(orma_team_rank(ORMA_TEAM_SHARED, &rank));
    CHECK_OK(orma_team_size(ORMA_TEAM_SHARED, &size));
    CHECK(rank == world_rank && size == world_size);
    for (int r = 0; r < world_size; r++) {
        int t = -1;
        CHECK_OK(orma_team_translate_rank(ORMA_TEAM_WORLD, r, ORMA_TEAM_SHARED, &t));
        CHECK(t == r);
    }
    CHECK_OK(orma_team_barrier(ORMA_TEAM_WORLD));
    CHECK_OK(orma_team_barrier(ORMA_TEAM_SHARED));
}

/* A put ring over the team's window: each rank puts its stream into the
 * next team rank's part, at an offset that depends on the sender; the rest
 * of every part keeps its background. */
static void check_ring(orma_team team, orma_win win, unsigned char *part, int trank, int tsize, int fence)
{
    for (size_t i = 0; i < PART; i++)
        part[i] = rt_bg(i);
    unsigned char src[64];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = rt_data((unsigned)trank + 1, i);
    int to = (trank + 1) % tsize, from = (trank + tsize - 1) % tsize;
    size_t off = 16 + (size_t)trank * 8, off_in = 16 + (size_t)from * 8;
    if (fence) {
        CHECK_OK(orma_win_fence(0, win));
        CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, to, (orma_aint)off, sizeof src, ORMA_BYTE, win));
        CHECK_OK(orma_win_fence(0, win));
    } else {
        CHECK_OK(orma_team_barrier(team)); /* every part holds its background */
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, to, 0, win));
        CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, to, (orma_aint)off, sizeof src, ORMA_BYTE, win));
        CHECK_OK(orma_win_unlock(to, win));
        CHECK_OK(orma_team_barrier(team));
    }
    for (size_t i = 0; i < PART; i++) {
        int in = i >= off_in && i < off_in + sizeof src;
        unsigned char want = in ? rt_data((unsigned)from + 1, i - off_in) : rt_bg(i);
        if (part[i] != want) {
            fprintf(stderr, "rank %d (team rank %d of %d): byte %zu is 0x%02x, expected 0x%02x\n", world_rank, trank,
                    tsize, i, part[i], want);
            exit(1);
        }
    }
}

static void check_windows(orma_team team, int trank, int tsize)
{
    /* allocate */
    void *base = NULL;
    orma_win win;
    CHECK_OK(orma_win_allocate_team(team, PART, 1, ORMA_INFO_NULL, &base, &win));
    orma_group g;
    int gsize = 0;
    CHECK_OK(orma_win_get_group(win, &g));
    CHECK_OK(orma_group_size(g, &gsize));
    CHECK(gsize == tsize);
    CHECK_OK(orma_group_free(&g));
    CHECK_ERR(orma_put(base, 1, ORMA_BYTE, tsize, 0, 1, ORMA_BYTE, win), ORMA_ERR_RANK);
    check_ring(team, win, base, trank, tsize, 1);
    check_ring(team, win, base, trank, tsize, 0);
    CHECK_OK(orma_win_free(&win));

    /* create, on malloc'd memory */
    unsigned char *mem = malloc(PART);
    CHECK(mem);
    CHECK_OK(orma_win_create_team(team, mem, PART, 1, ORMA_INFO_NULL, &win));
    check_ring(team, win, mem, trank, tsize, 1);
    CHECK_OK(orma_win_free(&win));
    free(mem);

    /* allocate_shared: each rank's part, loaded directly */
    CHECK_OK(orma_win_allocate_shared_team(team, PART, 1, ORMA_INFO_NULL, &base, &win));
    for (int r = 0; r < tsize; r++) {
        size_t sz = 0;
        int du = 0;
        void *b = NULL;
        CHECK_OK(orma_win_shared_query(win, r, &sz, &du, &b));
        CHECK(sz == PART && du == 1 && b);
        if (r == trank)
            CHECK(b == base);
    }
    check_ring(team, win, base, trank, tsize, 1);
    CHECK_OK(orma_win_free(&win));

    /* dynamic: each rank attaches a part and tells its address through a
     * team window */
    CHECK_OK(orma_win_create_dynamic_team(team, ORMA_INFO_NULL, &win));
    mem = malloc(PART);
    CHECK(mem);
    CHECK_OK(orma_win_attach(win, mem, PART));
    orma_aint *addrs = NULL;
    orma_win aw;
    CHECK_OK(orma_win_allocate_team(team, (size_t)tsize * sizeof *addrs, sizeof *addrs, ORMA_INFO_NULL,
                                    (void **)&addrs, &aw));
    orma_aint me = (orma_aint)(uintptr_t)mem;
    CHECK_OK(orma_win_fence(0, aw));
    for (int r = 0; r < tsize; r++)
        CHECK_OK(orma_put(&me, sizeof me, ORMA_BYTE, r, trank, sizeof me, ORMA_BYTE, aw));
    CHECK_OK(orma_win_fence(0, aw));
    for (size_t i = 0; i < PART; i++)
        mem[i] = rt_bg(i);
    unsigned char src[32];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = rt_data(77u + (unsigned)trank, i);
    int to = (trank + 1) % tsize, from = (trank + tsize - 1) % tsize;
    CHECK_OK(orma_win_fence(0, win));
    CHECK_OK(orma_put(src, sizeof src, ORMA_BYTE, to, addrs[to] + 40, sizeof src, ORMA_BYTE, win));
    CHECK_OK(orma_win_fence(0, win));
    for (size_t i = 0; i < PART; i++)
        CHECK(mem[i] == (i >= 40 && i < 40 + sizeof src ? rt_data(77u + (unsigned)from, i - 40) : rt_bg(i)));
    CHECK_OK(orma_win_free(&aw));
    CHECK_OK(orma_win_detach(win, mem));
    CHECK_OK(orma_win_free(&win));
    free(mem);
}

/* Barriers: in round k every rank of the team writes k into its slot of a
 * shared team window before the barrier; after it, every slot holds k. */
static void check_barrier(orma_team team, int trank, int tsize)
{
    volatile int *slots = NULL;
    orma_win win;
    CHECK_OK(orma_win_allocate_shared_team(team, sizeof(int), sizeof(int), ORMA_INFO_NULL, (void **)&slots, &win));
    size_t sz;
    int du;
    void *first;
    CHECK_OK(orma_win_shared_query(win, 0, &sz, &du, &first));
    volatile int *all = first;
    for (int k = 1; k <= 50; k++) {
        all[trank] = k;
        CHECK_OK(orma_team_barrier(team));
        for (int r = 0; r < tsize; r++)
            CHECK(all[r] == k || all[r] == k + 1);
        CHECK_OK(orma_team_barrier(team)); /* nobody writes k + 1 before all have read */
    }
    (void)slots;
    CHECK_OK(orma_win_free(&win));
}

static void check_split(void)
{
    int members[4], mine = -1;
    int n = parity_members(members, &mine);
    orma_team par = ORMA_TEAM_NULL;
    CHECK_OK(orma_team_split(ORMA_TEAM_WORLD, world_rank % 2, -world_rank, &par));
    CHECK(par != ORMA_TEAM_NULL);
    int trank, tsize;
    CHECK_OK(orma_team_rank(par, &trank));
    CHECK_OK(orma_team_size(par, &tsize));
    CHECK(tsize == n && trank == mine);
    for (int t = 0; t < tsize; t++) {
        int w = -1, back = -1;
        CHECK_OK(orma_team_translate_rank(par, t, ORMA_TEAM_WORLD, &w));
        CHECK(w == members[t]);
        CHECK_OK(orma_team_translate_rank(ORMA_TEAM_WORLD, w, par, &back));
        CHECK(back == t);
    }
    for (int r = 0; r < world_size; r++) {
        int t = -2;
        CHECK_OK(orma_team_translate_rank(ORMA_TEAM_WORLD, r, par, &t));
        CHECK(r % 2 == world_rank % 2 ? t >= 0 : t == ORMA_UNDEFINED);
    }
    CHECK_ERR(orma_team_translate_rank(par, tsize, ORMA_TEAM_WORLD, &trank), ORMA_ERR_RANK);
    CHECK_OK(orma_team_rank(par, &trank));

    check_windows(par, trank, tsize);
    check_barrier(par, trank, tsize);
    check_barrier(ORMA_TEAM_WORLD, world_rank, world_size);
    check_barrier(ORMA_TEAM_SHARED, world_rank, world_size);

    /* Nested: the parity team's rank 0 joins none; the others one team. */
    orma_team sub = ORMA_TEAM_NULL;
    CHECK_OK(orma_team_split(par, trank == 0 ? ORMA_UNDEFINED : 7, trank, &sub));
    if (trank == 0) {
        CHECK(sub == ORMA_TEAM_NULL);
    } else {
        int srank, ssize;
        CHECK_OK(orma_team_rank(sub, &srank));
        CHECK_OK(orma_team_size(sub, &ssize));
        CHECK(ssize == tsize - 1 && srank == trank - 1);
        int w = -1;
        CHECK_OK(orma_team_translate_rank(sub, srank, ORMA_TEAM_WORLD, &w));
        CHECK(w == world_rank);
        check_windows(sub, srank, ssize);
    }

    /* A window outlives its team. */
    void *base;
    orma_win win;
    CHECK_OK(orma_win_allocate_team(par, PART, 1, ORMA_INFO_NULL, &base, &win));
    if (sub != ORMA_TEAM_NULL)
        CHECK_OK(orma_team_free(&sub));
    CHECK(sub == ORMA_TEAM_NULL);
    CHECK_OK(orma_team_free(&par));
    CHECK(par == ORMA_TEAM_NULL);
    check_ring(ORMA_TEAM_WORLD, win, base, trank, tsize, 1);
    CHECK_OK(orma_win_free(&win));

    /* The whole world as one team, in reverse order. */
    orma_team rev;
    CHECK_OK(orma_team_split(ORMA_TEAM_WORLD, 0, world_size - world_rank, &rev));
    CHECK_OK(orma_team_rank(rev, &trank));
    CHECK(trank == world_size - 1 - world_rank);
    check_windows(rev, trank, world_size);
    CHECK_OK(orma_team_free(&rev));
}

static void check_errors(void)
{
    int x;
    CHECK_ERR(orma_team_rank(ORMA_TEAM_NULL, &x), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_size((orma_team)&x, &x), ORMA_ERR_ARG); /* made up */
    CHECK_ERR(orma_team_rank(ORMA_TEAM_WORLD, NULL), ORMA_ERR_ARG);
    orma_team t = ORMA_TEAM_WORLD;
    CHECK_ERR(orma_team_free(&t), ORMA_ERR_ARG);
    t = ORMA_TEAM_SHARED;
    CHECK_ERR(orma_team_free(&t), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_translate_rank(ORMA_TEAM_WORLD, -1, ORMA_TEAM_SHARED, &x), ORMA_ERR_RANK);
    CHECK_ERR(orma_team_translate_rank(ORMA_TEAM_WORLD, 0, ORMA_TEAM_NULL, &x), ORMA_ERR_ARG);
    CHECK_ERR(orma_team_barrier(ORMA_TEAM_NULL), ORMA_ERR_ARG);
    orma_win win;
    void *base;
    CHECK_ERR(orma_win_allocate_team(ORMA_TEAM_NULL, 8, 1, ORMA_INFO_NULL, &base, &win), ORMA_ERR_ARG);

    /* A bad colour at the last rank fails the split everywhere, with no
     * team made and nobody left waiting; the next split works. */
    orma_team bad = ORMA_TEAM_WORLD;
    int colour = world_rank == world_size - 1 ? -5 : 0;
    int rc = orma_team_split(ORMA_TEAM_WORLD, colour, 0, &bad);
    if (world_rank == world_size - 1)
        CHECK_ERR(rc, ORMA_ERR_ARG);
    else
        CHECK_ERR(rc, ORMA_ERR_PEER);
    CHECK(bad == ORMA_TEAM_WORLD); /* untouched */
    CHECK_ERR(orma_team_split(ORMA_TEAM_WORLD, 0, 0, NULL), ORMA_ERR_ARG);
    orma_team good;
    CHECK_OK(orma_team_split(ORMA_TEAM_WORLD, 1, 0, &good));
    int size;
    CHECK_OK(orma_team_size(good, &size));
    CHECK(size == world_size);
    orma_team stale = good;
    CHECK_OK(orma_team_free(&good));
    CHECK_ERR(orma_team_rank(stale, &x), ORMA_ERR_ARG);
}

/* Every rank on a node of its own (MPICH with MPIR_CVAR_NOLOCAL=1 under
 * mpirun): ORMA_TEAM_SHARED is this rank alone, a team over ranks of
 * several nodes fails at every rank of the parent alike -- members and the
 * ranks joining none -- without a hang, and teams of one rank work. */
static void check_nodes(void)
{
    int rank, size, w = -1;
    CHECK_OK(orma_team_rank(ORMA_TEAM_SHARED, &rank));
    CHECK_OK(orma_team_size(ORMA_TEAM_SHARED, &size));
    CHECK(rank == 0 && size == 1);
    CHECK_OK(orma_team_translate_rank(ORMA_TEAM_SHARED, 0, ORMA_TEAM_WORLD, &w));
    CHECK(w == world_rank);
    CHECK_OK(orma_team_barrier(ORMA_TEAM_SHARED));
    CHECK_OK(orma_team_barrier(ORMA_TEAM_WORLD));
    for (int round = 0; round < 3; round++) {
        orma_team t = ORMA_TEAM_WORLD;
        int colour = world_rank == 0 ? ORMA_UNDEFINED : 1; /* ranks 1.. together, on separate nodes */
        int rc = orma_team_split(ORMA_TEAM_WORLD, colour, 0, &t);
        if (world_size > 2 && world_rank > 0)
            CHECK_ERR(rc, ORMA_ERR_UNSUPPORTED);
        else if (world_size > 2)
            CHECK_ERR(rc, ORMA_ERR_PEER);
        else /* two ranks: rank 1 alone, which works */
            CHECK_OK(rc);
        if (!rc && t != ORMA_TEAM_NULL)
            CHECK_OK(orma_team_free(&t));
    }
    orma_team alone;
    CHECK_OK(orma_team_split(ORMA_TEAM_WORLD, world_rank, 0, &alone));
    CHECK_OK(orma_team_size(alone, &size));
    CHECK(size == 1);
    check_windows(alone, 0, 1);
    check_windows(ORMA_TEAM_SHARED, 0, 1);
    CHECK_OK(orma_team_free(&alone));
}

int main(void)
{
    CHECK_OK(orma_init(NULL, NULL));
    world_rank = orma_rank();
    world_size = orma_size();
    int shared = 0;
    CHECK_OK(orma_team_size(ORMA_TEAM_SHARED, &shared));
    if (shared < world_size) {
        check_nodes();
        CHECK_OK(orma_finalize());
        return 0;
    }
    check_predefined();
    check_split();
    check_errors();
    /* A team still held at finalize is let go of there. */
    orma_team kept;
    CHECK_OK(orma_team_split(ORMA_TEAM_SHARED, 0, 0, &kept));
    CHECK_OK(orma_finalize());
    return 0;
}
