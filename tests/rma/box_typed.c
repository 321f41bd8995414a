/* box_typed.c -- typed puts to memory the origin never maps (a shared
 * anonymous mapping of the owner alone), packed into the origin's box at
 * the target and unpacked there (rma_box_typed.c): in one part (a few KB),
 * in many parts across boxes (fence, PSCW), left in the origin's memory for
 * the target to read (passive epochs), or carried out by the origin itself
 * run by run when the target does not empty its box (it is not inside orma,
 * or is an origin waiting on its own flush).
 *
 * Each rank puts to its right neighbour, under fence, PSCW, lock and
 * lock_all.  In the passive epochs the ranks take turns: in one half the
 * even ranks are origins while the odd ones poll orma_win_sync (they empty
 * their boxes) or, in the sleeping rounds, sleep first; in the other half
 * the roles swap.  One epoch holds three typed puts of different layouts
 * to disjoint parts of the window, with plain small puts between them (box
 * entries of their own), so that parts of one put share boxes with other
 * entries.  Layouts: thousands of scattered 4-byte runs, rows of 96 bytes,
 * six runs of 900 bytes, a struct of hindexed runs of 1..300 bytes with a
 * negative lower bound and three elements, a 3D subarray (not flat), and 5
 * runs of 8 bytes (short enough to go as runs); the origin's side a
 * different layout of the same data.  Then a layout built again
 * identically, and 300 distinct layouts each put once (more than a window
 * sends packed: the rest go as runs).  Every byte of every window is
 * checked: the data where the target layout puts it, the background
 * everywhere else. */
#include "rma_test.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { WBYTES = 1 << 20, NLAYOUTS = 6, NSIZES = 3 };
enum { M_FENCE, M_PSCW, M_LOCK, M_LOCK_ALL, M_LOCK_SLEEP, NMODES };
static const char *const mode_names[NMODES] = {"fence", "pscw", "lock", "lock_all", "lock, target asleep"};
/* the three typed puts of an epoch and the small puts between them */
static const size_t region_at[3] = {64, 400000, 720000};
static const size_t region_len[3] = {330000, 310000, 300000};
enum { SMALL_AT = 1040000, NSMALL = 4, SMALL_LEN = 24 };

static int rank, nranks;

struct layout {
    char name[80];
    orma_type o, t; /* origin and target layouts of the same data */
    size_t tcount;   /* elements of t (o: one element) */
    orma_aint tdisp; /* where t's origin goes in the region */
};

/* count sorted distinct picks below limit, one per slice. */
static void picks(orma_aint *v, size_t count, size_t limit, unsigned salt)
{
    size_t slice = limit / count;
    for (size_t i = 0; i < count; i++)
        v[i] = (orma_aint)(i * slice + (i * 2654435761u + salt) % slice);
}

static void commit(orma_type *t)
{
    CHECK_OK(orma_type_commit(t));
}

/* An origin layout of size bytes: blocks of 5 bytes 9 apart, then the
 * rest after a gap of 3. */
static orma_type origin_layout(size_t size)
{
    orma_type v, tail, t;
    size_t blocks = size / 5, rest = size % 5;
    CHECK_OK(orma_type_vector(blocks, 5, 9, ORMA_BYTE, &v));
    CHECK_OK(orma_type_contiguous(rest, ORMA_BYTE, &tail));
    size_t bl[2] = {1, 1};
    orma_aint d[2] = {0, (orma_aint)(blocks * 9 + 3)};
    orma_type f[2] = {v, tail};
    CHECK_OK(orma_type_struct(2, bl, d, f, &t));
    CHECK_OK(orma_type_free(&v));
    CHECK_OK(orma_type_free(&tail));
    commit(&t);
    return t;
}

/* Layout which at scale s (0 small, 1 a few KB, 2 tens to hundreds of KB),
 * reaching at most lim bytes of its region. */
static void build(struct layout *l, int which, int s, size_t lim)
{
    static const size_t scale[NSIZES] = {1, 12, 300};
    size_t k = scale[s];
    l->tcount = 1;
    l->tdisp = 0;
    if (which == 0) { /* scattered ints */
        size_t n = 30 * k, spread = 8 * 4 * n < lim ? 8 * n : lim / 4;
        orma_aint *v = malloc(n * sizeof *v);
        CHECK(v != NULL);
        picks(v, n, spread, 5);
        CHECK_OK(orma_type_indexed_block(n, 1, v, ORMA_INT, &l->t));
        free(v);
        snprintf(l->name, sizeof l->name, "%zu scattered ints", n);
    } else if (which == 1) { /* rows of 96 bytes, stride 160 */
        size_t n = 3 * k;
        CHECK_OK(orma_type_vector(n, 24, 40, ORMA_FLOAT, &l->t));
        snprintf(l->name, sizeof l->name, "%zu rows of 96 bytes", n);
    } else if (which == 2) { /* six runs of 900 bytes, far apart */
        CHECK_OK(orma_type_vector(6, 900, (orma_aint)(900 + 37 * k), ORMA_BYTE, &l->t));
        snprintf(l->name, sizeof l->name, "6 runs of 900 bytes");
    } else if (which == 3) { /* struct of hindexed runs of 1..300 bytes, lb < 0, 3 elements */
        size_t n = k + 1;
        size_t *bl = malloc(n * sizeof *bl);
        orma_aint *d = malloc(n * sizeof *d);
        CHECK(bl && d);
        orma_aint at = -16; /* data before the element's origin too */
        for (size_t i = 0; i < n; i++) {
            bl[i] = 1 + (i * 131u + 7u) % 300u;
            d[i] = at;
            at += (orma_aint)bl[i] + 5 + (orma_aint)(i % 11);
        }
        orma_type h, r;
        CHECK_OK(orma_type_hindexed(n, bl, d, ORMA_BYTE, &h));
        /* the element begins 40 bytes before its origin, the next 64 bytes
         * after its data */
        CHECK_OK(orma_type_resized(h, -40, at + 104, &r));
        CHECK_OK(orma_type_contiguous(1, r, &l->t));
        CHECK_OK(orma_type_free(&h));
        CHECK_OK(orma_type_free(&r));
        l->tcount = 3;
        l->tdisp = 40;
        free(bl);
        free(d);
        snprintf(l->name, sizeof l->name, "3 elements of %zu hindexed runs from -16, lb -40", n);
    } else if (which == 4) { /* a 3D subarray of doubles (not flat) */
        size_t e = s == 0 ? 4 : s == 1 ? 10 : 24;
        size_t sizes[3] = {e + 2, e + 3, e + 4}, sub[3] = {e, e, e - 1}, starts[3] = {1, 2, 3};
        CHECK_OK(orma_type_subarray(3, sizes, sub, starts, ORMA_ORDER_C, ORMA_DOUBLE, &l->t));
        snprintf(l->name, sizeof l->name, "%zu^3 subarray of doubles", e);
    } else { /* 5 runs of 8 bytes */
        CHECK_OK(orma_type_vector(5, 1, 3, ORMA_DOUBLE, &l->t));
        snprintf(l->name, sizeof l->name, "5 runs of 8 bytes");
    }
    commit(&l->t);
    size_t size;
    CHECK_OK(orma_type_size(l->t, &size));
    l->o = origin_layout(size * l->tcount);
}

static void layout_free(struct layout *l)
{
    CHECK_OK(orma_type_free(&l->o));
    CHECK_OK(orma_type_free(&l->t));
}

/* The origin's buffer for l from origin r, op j of epoch e: its bytes. */
static unsigned char *origin_data(const struct layout *l, int r, unsigned e, int j, size_t *len_p)
{
    orma_aint lb, ext;
    CHECK_OK(orma_type_get_extent(l->o, &lb, &ext));
    size_t len = (size_t)(lb + ext) + 16;
    unsigned char *p = malloc(len);
    CHECK(p != NULL);
    rt_fill_data(p, len, (unsigned)r * 7919u + e * 31u + (unsigned)j, 0);
    *len_p = len;
    return p;
}

/* want: what origin r's epoch e leaves in the window of its target. */
static void expect(unsigned char *want, struct layout *ls, int r, unsigned e)
{
    for (int j = 0; j < 3; j++) {
        size_t len, size, pos = 0;
        unsigned char *src = origin_data(&ls[j], r, e, j, &len);
        CHECK_OK(orma_type_size(ls[j].o, &size));
        unsigned char *packed = malloc(size + 1);
        CHECK(packed != NULL);
        CHECK_OK(orma_pack(src, 1, ls[j].o, packed, size, &pos));
        pos = 0;
        CHECK_OK(orma_unpack(packed, size, &pos, want + region_at[j] + (size_t)ls[j].tdisp, ls[j].tcount, ls[j].t));
        free(packed);
        free(src);
    }
    for (int i = 0; i < NSMALL; i++)
        rt_fill_data(want + SMALL_AT + (size_t)i * SMALL_LEN, SMALL_LEN, (unsigned)r * 13u + e + (unsigned)i, 0);
}

/* Origin's part of epoch e: three typed puts and the small puts between;
 * the buffers (src[0..3], small) stay untouched until the epoch closes. */
static void puts_to(int target, struct layout *ls, unsigned e, orma_win win, unsigned char **src,
                    unsigned char (*small)[SMALL_LEN])
{
    for (int j = 0; j < 3; j++) {
        size_t len;
        src[j] = origin_data(&ls[j], rank, e, j, &len);
        CHECK_OK(orma_put_typed(src[j], 1, ls[j].o, target, (orma_aint)region_at[j] + ls[j].tdisp, ls[j].tcount,
                                ls[j].t, win));
        for (int i = j; i < NSMALL; i += 3) {
            rt_fill_data(small[i], SMALL_LEN, (unsigned)rank * 13u + e + (unsigned)i, 0);
            CHECK_OK(orma_put(small[i], SMALL_LEN, ORMA_BYTE, target,
                              (orma_aint)(SMALL_AT + (size_t)i * SMALL_LEN), SMALL_LEN, ORMA_BYTE, win));
        }
    }
}

struct win {
    orma_win win;
    unsigned char *mem;
    orma_win fw; /* flags: fl[0] counts the epochs done into us */
    _Atomic uint64_t *fl;
};

static void check_window(const struct win *w, struct layout *ls, int from, unsigned e, const char *what)
{
    unsigned char *want = malloc(WBYTES);
    CHECK(want != NULL);
    rt_fill_bg(want, WBYTES);
    if (from >= 0)
        expect(want, ls, from, e);
    for (size_t i = 0; i < WBYTES; i++)
        if (w->mem[i] != want[i]) {
            fprintf(stderr, "rank %d: %s, epoch %u from rank %d (%s; %s; %s): byte %zu is 0x%02x, expected 0x%02x\n",
                    rank, what, e, from, ls[0].name, ls[1].name, ls[2].name, i, w->mem[i], want[i]);
            exit(1);
        }
    free(want);
}

/* A passive target while its left neighbour puts: asleep first (asleep),
 * then emptying its boxes until the neighbour says it is done (one added
 * to our flag word after its unlock). */
static void serve(struct win *w, int asleep)
{
    if (asleep)
        usleep(20000);
    while (atomic_load_explicit(w->fl, memory_order_acquire) == 0)
        CHECK_OK(orma_win_sync(w->win));
    atomic_store_explicit(w->fl, 0, memory_order_relaxed);
}

/* The neighbour told: we are done putting to it. */
static void tell(struct win *w, int target)
{
    uint64_t one = 1;
    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, target, 0, w->fw));
    CHECK_OK(orma_accumulate(&one, 1, ORMA_UINT64, target, 0, 1, ORMA_UINT64, ORMA_SUM, w->fw));
    CHECK_OK(orma_win_unlock(target, w->fw));
}

/* One epoch of mode m: origin r puts to (r + 1) % n; every window checked. */
static void epoch(struct win *w, int m, struct layout *ls, unsigned e)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    unsigned char *src[3] = {NULL, NULL, NULL}, small[NSMALL][SMALL_LEN];
    rt_fill_bg(w->mem, WBYTES);
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    if (m == M_FENCE) {
        CHECK_OK(orma_win_fence(0, w->win));
        puts_to(rt, ls, e, w->win, src, small);
        CHECK_OK(orma_win_fence(0, w->win));
    } else if (m == M_PSCW) {
        orma_group all, from, to;
        CHECK_OK(orma_win_get_group(w->win, &all));
        CHECK_OK(orma_group_incl(all, 1, &lt, &from));
        CHECK_OK(orma_group_incl(all, 1, &rt, &to));
        CHECK_OK(orma_win_post(from, 0, w->win));
        CHECK_OK(orma_win_start(to, 0, w->win));
        puts_to(rt, ls, e, w->win, src, small);
        CHECK_OK(orma_win_complete(w->win));
        CHECK_OK(orma_win_wait(w->win));
        CHECK_OK(orma_group_free(&all));
        CHECK_OK(orma_group_free(&from));
        CHECK_OK(orma_group_free(&to));
    } else {
        /* two turns: origins of one parity while the others are targets */
        for (int turn = 0; turn < 2; turn++) {
            int origin = rank % 2 == turn;
            if (nranks == 1 ? turn == 0 : origin) {
                if (m == M_LOCK_ALL)
                    CHECK_OK(orma_win_lock_all(0, w->win));
                else
                    CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w->win));
                puts_to(rt, ls, e, w->win, src, small);
                if (m == M_LOCK_ALL) {
                    CHECK_OK(orma_win_flush(rt, w->win));
                    CHECK_OK(orma_win_unlock_all(w->win));
                } else {
                    CHECK_OK(orma_win_unlock(rt, w->win));
                }
                if (nranks > 1)
                    tell(w, rt);
            }
            if (nranks > 1 && lt % 2 == turn) /* our left neighbour puts to us now */
                serve(w, m == M_LOCK_SLEEP);
            CHECK_OK(orma_barrier());
        }
    }
    CHECK_OK(orma_barrier());
    CHECK_OK(orma_win_sync(w->win));
    check_window(w, ls, lt, e, mode_names[m]);
    for (int j = 0; j < 3; j++)
        free(src[j]);
}

/* 300 distinct layouts of 40 scattered ints, each put once under one lock
 * (flushed every 50), interleaved so that none overlaps another: layout i
 * takes ints i, i + 300, i + 600, ...  More than a window packs; the rest
 * go as runs. */
static void many_layouts(struct win *w)
{
    enum { NL = 300, NI = 40 };
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    rt_fill_bg(w->mem, WBYTES);
    CHECK_OK(orma_win_sync(w->win));
    CHECK_OK(orma_barrier());
    static int32_t src[NL][NI];
    for (int turn = 0; turn < 2; turn++) {
        if (nranks == 1 ? turn == 0 : rank % 2 == turn) {
            CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, w->win));
            for (int i = 0; i < NL; i++) {
                orma_aint d[NI];
                for (int k = 0; k < NI; k++) {
                    d[k] = i + NL * k;
                    src[i][k] = (int32_t)(rank * 1000003 + i * NI + k);
                }
                orma_type t;
                CHECK_OK(orma_type_indexed_block(NI, 1, d, ORMA_INT32, &t));
                commit(&t);
                CHECK_OK(orma_put_typed(src[i], NI, ORMA_INT32, rt, 0, 1, t, w->win));
                CHECK_OK(orma_type_free(&t)); /* the put holds on to it */
                if (i % 50 == 49)
                    CHECK_OK(orma_win_flush(rt, w->win));
            }
            CHECK_OK(orma_win_unlock(rt, w->win));
            if (nranks > 1)
                tell(w, rt);
        }
        if (nranks > 1 && lt % 2 == turn)
            serve(w, 0);
        CHECK_OK(orma_barrier());
    }
    CHECK_OK(orma_win_sync(w->win));
    int32_t *got = (int32_t *)(void *)w->mem;
    for (int i = 0; i < NL; i++)
        for (int k = 0; k < NI; k++)
            if (got[i + NL * k] != (int32_t)(lt * 1000003 + i * NI + k)) {
                fprintf(stderr, "rank %d: 300 layouts: int %d (layout %d, element %d) is %d, expected %d\n", rank,
                        i + NL * k, i, k, (int)got[i + NL * k], (int)(lt * 1000003 + i * NI + k));
                exit(1);
            }
    RT_EXPECT_BG(w->mem, (size_t)NL * NI * 4, WBYTES, "300 layouts: past the ints");
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    struct win w;
    w.mem = mmap(NULL, WBYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    CHECK(w.mem != MAP_FAILED);
    CHECK_OK(orma_win_create(w.mem, WBYTES, 1, ORMA_INFO_NULL, &w.win));
    CHECK_OK(orma_win_allocate(64, 1, ORMA_INFO_NULL, (void **)&w.fl, &w.fw));
    atomic_store(w.fl, 0);
    CHECK_OK(orma_barrier());
    unsigned e = 0;
    for (int s = 0; s < NSIZES; s++)
        for (int m = 0; m < NMODES; m++)
            for (int first = 0; first < NLAYOUTS; first++) {
                struct layout ls[3];
                for (int j = 0; j < 3; j++)
                    build(&ls[j], (first + 2 * j) % NLAYOUTS, s, region_len[j]);
                epoch(&w, m, ls, e++);
                /* the same layouts built again: the same bytes, new handles */
                if (first == 0) {
                    for (int j = 0; j < 3; j++) {
                        layout_free(&ls[j]);
                        build(&ls[j], (first + 2 * j) % NLAYOUTS, s, region_len[j]);
                    }
                    epoch(&w, m, ls, e++);
                }
                for (int j = 0; j < 3; j++)
                    layout_free(&ls[j]);
            }
    many_layouts(&w);
    CHECK_OK(orma_win_free(&w.fw));
    CHECK_OK(orma_win_free(&w.win));
    munmap(w.mem, WBYTES);
    CHECK_OK(orma_finalize());
    return 0;
}
