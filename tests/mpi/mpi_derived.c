/* mpi_derived.c -- MPI_Put, MPI_Get and MPI_Accumulate with derived
 * datatypes on both sides: vector, indexed, struct, subarray and resized
 * types, the two sides laid out differently with equal type signatures;
 * MPI_WCHAR, and (MPICH) a struct bounded by MPI-1's MPI_UB marker.
 * Each case lists, independently of MPI's type engine, the int offsets of
 * its elements on each side; the window (three regions: put, get source,
 * accumulate) and the get's result buffer are checked in full against
 * those lists, so a misplaced, missing or extra element is caught. */
#include "mpi_test.h"

#define R 64          /* ints per region */
#define MAXE 16       /* elements per case at most */

struct tcase {
    const char *name;
    MPI_Datatype otype, ttype; /* origin and target types */
    int ocount, tcount;
    int n;                     /* ints moved */
    int ooff[MAXE], toff[MAXE];
    int disp;                  /* target displacement in ints */
    int replace;               /* accumulate with MPI_REPLACE: the types lack MPI_SUM */
};

static int data(int r, int i) { return 100000 * (r + 1) + i; }

static void check_size(const struct tcase *c)
{
    int osz = 0, tsz = 0;
    MPI_Type_size(c->otype, &osz);
    MPI_Type_size(c->ttype, &tsz);
    if ((long)osz * c->ocount != (long)c->n * (long)sizeof(int) ||
        (long)tsz * c->tcount != (long)c->n * (long)sizeof(int))
        fail("%s: type sizes %d x %d and %d x %d do not hold %d ints", c->name, osz, c->ocount, tsz, c->tcount, c->n);
}

static void run_case(struct mt_win *w, const struct tcase *c)
{
    int *mem = w->base;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *origin = guarded_alloc(R * sizeof(int));
    int *result = guarded_alloc(R * sizeof(int));
    for (int i = 0; i < R; i++)
        origin[i] = data(rank, i), result[i] = -1;
    check_size(c);
    fill_bg_int(mem, 3 * R, rank);
    MPI_Win_fence(MPI_MODE_NOPRECEDE, w->win);
    MPI_Put(origin, c->ocount, c->otype, right, c->disp, c->tcount, c->ttype, w->win);
    MPI_Get(result, c->ocount, c->otype, left, R + c->disp, c->tcount, c->ttype, w->win);
    MPI_Accumulate(origin, c->ocount, c->otype, right, 2 * R + c->disp, c->tcount, c->ttype,
                   c->replace ? MPI_REPLACE : MPI_SUM, w->win);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);

    int want[3 * R], wres[R];
    for (int i = 0; i < 3 * R; i++)
        want[i] = bg(rank, i);
    for (int i = 0; i < R; i++)
        wres[i] = -1;
    for (int j = 0; j < c->n; j++) {
        want[c->disp + c->toff[j]] = data(left, c->ooff[j]);
        if (c->replace)
            want[2 * R + c->disp + c->toff[j]] = data(left, c->ooff[j]);
        else
            want[2 * R + c->disp + c->toff[j]] += data(left, c->ooff[j]);
        wres[c->ooff[j]] = bg(left, R + c->disp + c->toff[j]);
    }
    char what[96];
    snprintf(what, sizeof what, "%s: window", c->name);
    for (int i = 0; i < 3 * R; i++)
        expect(what, i, mem[i], want[i]);
    snprintf(what, sizeof what, "%s: get result", c->name);
    for (int i = 0; i < R; i++)
        expect(what, i, result[i], wres[i]);
    guarded_check(origin, R * sizeof(int), c->name);
    guarded_check(result, R * sizeof(int), c->name);
    guarded_free(origin);
    guarded_free(result);
}

static void cases(struct mt_win *w)
{
    struct tcase c;
    MPI_Datatype t1, t2, tmp;

    /* 1. contiguous 12 ints -> vector(4 blocks of 3, stride 5). */
    memset(&c, 0, sizeof c);
    c.name = "contiguous to vector";
    MPI_Type_contiguous(12, MPI_INT, &t1);
    MPI_Type_vector(4, 3, 5, MPI_INT, &t2);
    c.otype = t1, c.ttype = t2, c.ocount = c.tcount = 1, c.n = 12, c.disp = 2;
    for (int j = 0; j < 12; j++)
        c.ooff[j] = j, c.toff[j] = (j / 3) * 5 + j % 3;
    MPI_Type_commit(&t1), MPI_Type_commit(&t2);
    run_case(w, &c);
    MPI_Type_free(&t1), MPI_Type_free(&t2);

    /* 2. indexed {1 at 10, 3 at 0, 2 at 5} -> 6 MPI_INTs (predefined). */
    memset(&c, 0, sizeof c);
    c.name = "indexed to predefined";
    int bl[3] = {1, 3, 2}, dp[3] = {10, 0, 5};
    MPI_Type_indexed(3, bl, dp, MPI_INT, &t1);
    MPI_Type_commit(&t1);
    c.otype = t1, c.ttype = MPI_INT, c.ocount = 1, c.tcount = 6, c.n = 6, c.disp = 3;
    int io[6] = {10, 0, 1, 2, 5, 6};
    for (int j = 0; j < 6; j++)
        c.ooff[j] = io[j], c.toff[j] = j;
    run_case(w, &c);
    MPI_Type_free(&t1);

    /* 3. struct {int @0, 2 ints @12 bytes, int @28 bytes} resized to 10
     * ints, count 2 -> vector(2 blocks of 4, stride 6) at 20. */
    memset(&c, 0, sizeof c);
    c.name = "struct to vector";
    int sbl[3] = {1, 2, 1};
    MPI_Aint sdp[3] = {0, 3 * sizeof(int), 7 * sizeof(int)};
    MPI_Datatype sty[3] = {MPI_INT, MPI_INT, MPI_INT};
    MPI_Type_create_struct(3, sbl, sdp, sty, &tmp);
    MPI_Type_create_resized(tmp, 0, 10 * sizeof(int), &t1);
    MPI_Type_free(&tmp);
    MPI_Type_vector(2, 4, 6, MPI_INT, &t2);
    MPI_Type_commit(&t1), MPI_Type_commit(&t2);
    c.otype = t1, c.ttype = t2, c.ocount = 2, c.tcount = 1, c.n = 8, c.disp = 20;
    int so[8] = {0, 3, 4, 7, 10, 13, 14, 17}, st[8] = {0, 1, 2, 3, 6, 7, 8, 9};
    for (int j = 0; j < 8; j++)
        c.ooff[j] = so[j], c.toff[j] = st[j];
    run_case(w, &c);
    MPI_Type_free(&t1), MPI_Type_free(&t2);

    /* 4. vector(12 blocks of 1, stride 2) -> subarray 3x4 at (2,3) of a
     * 6x8 C-order array. */
    memset(&c, 0, sizeof c);
    c.name = "vector to subarray";
    int sizes[2] = {6, 8}, subs[2] = {3, 4}, starts[2] = {2, 3};
    MPI_Type_vector(12, 1, 2, MPI_INT, &t1);
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t2);
    MPI_Type_commit(&t1), MPI_Type_commit(&t2);
    c.otype = t1, c.ttype = t2, c.ocount = c.tcount = 1, c.n = 12, c.disp = 0;
    for (int j = 0; j < 12; j++)
        c.ooff[j] = 2 * j, c.toff[j] = (2 + j / 4) * 8 + 3 + j % 4;
    run_case(w, &c);
    MPI_Type_free(&t1), MPI_Type_free(&t2);

    /* 5. hindexed-block of pairs -> int resized to an extent of 3 ints,
     * count 5 (a strided target without a vector). */
    memset(&c, 0, sizeof c);
    c.name = "hindexed_block to resized";
    MPI_Aint hd[3] = {8 * sizeof(int), 1 * sizeof(int), 20 * sizeof(int)};
    MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &tmp);
    /* 6 ints from the origin, 5 + 1: the last target element is a plain
     * MPI_INT after the 5 resized ones, by a struct. */
    MPI_Type_create_resized(MPI_INT, 0, 3 * sizeof(int), &t2);
    MPI_Datatype parts[2] = {t2, MPI_INT};
    int pbl[2] = {5, 1};
    MPI_Aint pdp[2] = {0, 16 * sizeof(int)};
    MPI_Datatype t3;
    MPI_Type_create_struct(2, pbl, pdp, parts, &t3);
    MPI_Type_commit(&tmp), MPI_Type_commit(&t3);
    c.otype = tmp, c.ttype = t3, c.ocount = c.tcount = 1, c.n = 6, c.disp = 30;
    int ho[6] = {8, 9, 1, 2, 20, 21}, ht[6] = {0, 3, 6, 9, 12, 16};
    for (int j = 0; j < 6; j++)
        c.ooff[j] = ho[j], c.toff[j] = ht[j];
    run_case(w, &c);
    MPI_Type_free(&tmp), MPI_Type_free(&t2), MPI_Type_free(&t3);

    /* 6. 12 MPI_WCHARs both sides (a predefined type orma takes by its
     * size: wchar_t is an int here), characters: MPI_REPLACE. */
    memset(&c, 0, sizeof c);
    c.name = "MPI_WCHAR";
    c.otype = c.ttype = MPI_WCHAR, c.ocount = c.tcount = 12, c.n = 12, c.disp = 40, c.replace = 1;
    for (int j = 0; j < 12; j++)
        c.ooff[j] = c.toff[j] = j;
    run_case(w, &c);

#if defined(MPI_UB) && !defined(OPEN_MPI)
    /* 7. (MPICH's mpi.h, which keeps MPI-1's MPI_UB: Open MPI's C11 one
     * refuses the name) 12 ints -> 3 columns of a 4x5 int matrix, a column
     * type whose MPI_UB marker makes its extent one int: a transpose. */
    memset(&c, 0, sizeof c);
    c.name = "struct with MPI_UB";
    MPI_Type_vector(4, 1, 5, MPI_INT, &tmp);
    MPI_Datatype cparts[2] = {tmp, MPI_UB};
    int cbl[2] = {1, 1};
    MPI_Aint cdp[2] = {0, sizeof(int)};
    MPI_Type_create_struct(2, cbl, cdp, cparts, &t2);
    MPI_Type_commit(&t2);
    c.otype = MPI_INT, c.ttype = t2, c.ocount = 12, c.tcount = 3, c.n = 12, c.disp = 10;
    for (int j = 0; j < 12; j++)
        c.ooff[j] = j, c.toff[j] = j / 4 + (j % 4) * 5;
    run_case(w, &c);
    MPI_Type_free(&tmp), MPI_Type_free(&t2);
#endif
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    struct mt_win w;
    mt_win_open(&w, MT_ALLOCATE, 3 * R * sizeof(int), sizeof(int));
    cases(&w);
    mt_win_close(&w);
    mt_win_open(&w, MT_CREATE, 3 * R * sizeof(int), sizeof(int));
    cases(&w);
    mt_win_close(&w);
    mt_finalize();
    return 0;
}
