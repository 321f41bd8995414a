/* put_typed_paths.c -- the ways a typed put or get is carried out, each
 * checked byte for byte: transposes of elements of 4 to 24 bytes (the
 * tiled strided copy, either side transposed, row counts that are no
 * multiple of a tile), rows of long runs cut into a transpose's elements,
 * and thousands of short scattered runs (more than one system call's
 * iovecs), on memory the peers map (allocate), on malloc'd memory of a size
 * and start that leave partial pages (a create window whose whole pages
 * are mapped and whose ends are reached by system calls: a typed put
 * across that edge), and on memory orma never maps (a shared anonymous
 * mapping of the owner alone: every run by system calls, or through the
 * origin's box at the target, rma_box.h).  Under fence, PSCW and lock.  The target must hold exactly the origin's data in typemap
 * order at the bytes the target layout names, every other byte untouched;
 * a typed get must fill exactly the origin layout's bytes.  The expected
 * images come from orma_pack/orma_unpack (tests/dtype checks those). */
#include "rma_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* AT: where the target layouts begin, in the first page (partial in a
 * create window); AT_INSIDE: in its whole pages, every run mapped */
enum { WBYTES = 262144, AT = 1000, AT_INSIDE = 3 * 4096 + 40, NKINDS = 3, NPAIRS = 10 };
static const char *const kind_names[NKINDS] = {"allocate", "create (partial pages)", "create (never mapped)"};

static int rank, nranks;

struct win {
    orma_win win;
    unsigned char *mem;
    void *own;
    size_t own_len;
};

static void win_open(struct win *w, int kind)
{
    memset(w, 0, sizeof *w);
    if (kind == 0) {
        CHECK_OK(orma_win_allocate(WBYTES, 1, ORMA_INFO_NULL, (void **)&w->mem, &w->win));
    } else if (kind == 1) {
        /* 7 bytes into a block that is not a whole number of pages */
        w->own = malloc(WBYTES + 7);
        CHECK(w->own != NULL);
        w->mem = (unsigned char *)w->own + 7;
        CHECK_OK(orma_win_create(w->mem, WBYTES, 1, ORMA_INFO_NULL, &w->win));
    } else {
        w->own_len = WBYTES;
        w->own = mmap(NULL, w->own_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        CHECK(w->own != MAP_FAILED);
        w->mem = w->own;
        CHECK_OK(orma_win_create(w->mem, WBYTES, 1, ORMA_INFO_NULL, &w->win));
    }
}

static void win_close(struct win *w, int kind)
{
    CHECK_OK(orma_win_free(&w->win));
    if (kind == 1)
        free(w->own);
    else if (kind == 2)
        munmap(w->own, w->own_len);
}

struct layout_pair {
    char name[64];
    orma_type o, t;
};

/* b x b elements of el (a contiguous of bytes), rows of n = b + 3: as a
 * vector of rows and as columns (a vector of single elements resized to
 * one element, repeated). */
static void transpose(orma_type el, size_t elsize, size_t b, orma_type *rows, orma_type *cols)
{
    size_t n = b + 3;
    orma_type col, colr;
    CHECK_OK(orma_type_vector(b, b, (orma_aint)n, el, rows));
    CHECK_OK(orma_type_vector(b, 1, (orma_aint)n, el, &col));
    CHECK_OK(orma_type_resized(col, 0, (orma_aint)elsize, &colr));
    CHECK_OK(orma_type_contiguous(b, colr, cols));
    CHECK_OK(orma_type_free(&col));
    CHECK_OK(orma_type_free(&colr));
}

/* count distinct sorted indices below limit, one per slice. */
static void picks(orma_aint *v, size_t count, size_t limit, unsigned salt)
{
    size_t slice = limit / count;
    for (size_t i = 0; i < count; i++)
        v[i] = (orma_aint)(i * slice + (i * 2654435761u + salt) % slice);
}

static void build(struct layout_pair *p, int which)
{
    static const size_t elsizes[4] = {4, 8, 16, 24};
    p->o = p->t = NULL;
    if (which < 6) { /* transposes: 0-3 target transposed, 4-5 origin */
        size_t elsize = elsizes[which < 4 ? which : which - 2], b = which % 2 ? 13 : 20;
        orma_type el, rows, cols;
        CHECK_OK(orma_type_contiguous(elsize, ORMA_BYTE, &el));
        transpose(el, elsize, b, &rows, &cols);
        CHECK_OK(orma_type_free(&el));
        snprintf(p->name, sizeof p->name, "%zu x %zu transpose of %zu bytes%s", b, b, elsize,
                 which < 4 ? "" : ", origin side");
        p->o = which < 4 ? rows : cols;
        p->t = which < 4 ? cols : rows;
    } else if (which == 6) { /* 3000 runs of 4 bytes each side, differently scattered */
        enum { N = 3000 };
        orma_aint *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
        CHECK(a && b);
        picks(a, N, 16000, 1);
        picks(b, N, 16000, 7);
        CHECK_OK(orma_type_indexed_block(N, 1, a, ORMA_INT, &p->o));
        CHECK_OK(orma_type_indexed_block(N, 1, b, ORMA_INT, &p->t));
        free(a);
        free(b);
        snprintf(p->name, sizeof p->name, "3000 scattered ints");
    } else if (which >= 8) {
        /* a struct of two nested fields, the target's the origin's moved:
         * 8 both fields alike (one walk), 9 each by its own amount (field
         * by field); 18000 runs, more than a layout is flattened with */
        orma_type in, f0, f1;
        CHECK_OK(orma_type_vector(500, 1, 2, ORMA_INT, &in)); /* runs of 4 bytes */
        CHECK_OK(orma_type_hvector(24, 1, 4000, in, &f0));
        CHECK_OK(orma_type_hvector(12, 1, 4000, in, &f1));
        size_t bl[2] = {1, 1};
        orma_aint od[2] = {0, 100000}, td[2] = {40, which == 8 ? 100040 : 100100};
        orma_type fs[2] = {f0, f1};
        CHECK_OK(orma_type_struct(2, bl, od, fs, &p->o));
        CHECK_OK(orma_type_struct(2, bl, td, fs, &p->t));
        CHECK_OK(orma_type_free(&in));
        CHECK_OK(orma_type_free(&f0));
        CHECK_OK(orma_type_free(&f1));
        snprintf(p->name, sizeof p->name, "struct of nested fields moved %s", which == 8 ? "alike" : "apart");
    } else { /* 1200 runs of 12 bytes into contiguous, and back */
        enum { N = 1200 };
        orma_aint *a = malloc(N * sizeof *a);
        CHECK(a != NULL);
        picks(a, N, 4800, 3);
        for (size_t i = 0; i < N; i++)
            a[i] *= 3; /* whole triples, never overlapping */
        CHECK_OK(orma_type_indexed_block(N, 3, a, ORMA_FLOAT, &p->o));
        CHECK_OK(orma_type_contiguous(3 * N, ORMA_FLOAT, &p->t));
        free(a);
        snprintf(p->name, sizeof p->name, "1200 scattered float triples -> contiguous");
    }
    CHECK_OK(orma_type_commit(&p->o));
    CHECK_OK(orma_type_commit(&p->t));
}

/* want: the background, with (src, otype) unpacked into (want + at,
 * ttype). */
static void expect(orma_type ot, const unsigned char *src, orma_type tt, unsigned char *want, size_t at,
                   size_t wbytes)
{
    size_t size, pos = 0;
    CHECK_OK(orma_type_size(ot, &size));
    unsigned char *packed = malloc(size ? size : 1);
    CHECK(packed != NULL);
    CHECK_OK(orma_pack(src, 1, ot, packed, size, &pos));
    rt_fill_bg(want, wbytes);
    pos = 0;
    CHECK_OK(orma_unpack(packed, size, &pos, want + at, 1, tt));
    free(packed);
}

static void compare(const unsigned char *got, const unsigned char *want, size_t n, const char *what, int kind,
                    const struct layout_pair *p, int use_lock)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "rank %d: %s, %s, %s: %s: byte %zu is 0x%02x, expected 0x%02x\n", rank,
                    kind_names[kind], p->name, use_lock == 2 ? "pscw" : use_lock ? "lock" : "fence", what, i, got[i],
                    want[i]);
            exit(1);
        }
}

static void run(int kind, int pair, int use_lock, size_t at)
{
    struct layout_pair p;
    build(&p, pair);
    struct win w;
    win_open(&w, kind);
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    unsigned seed = (unsigned)(kind * 100 + pair * 10 + use_lock);
    unsigned char *src = malloc(WBYTES), *want = malloc(WBYTES), *got = malloc(WBYTES);
    CHECK(src && want && got);

    /* put: rank r's origin buffer into rank rt's window at at */
    rt_fill_data(src, WBYTES, seed + (unsigned)rank, 0);
    rt_fill_bg(w.mem, WBYTES);
    CHECK_OK(orma_barrier());
    if (use_lock == 2) { /* PSCW: we expose to lt, access rt */
        orma_group all, from, to;
        CHECK_OK(orma_win_get_group(w.win, &all));
        CHECK_OK(orma_group_incl(all, 1, &lt, &from));
        CHECK_OK(orma_group_incl(all, 1, &rt, &to));
        CHECK_OK(orma_win_post(from, 0, w.win));
        CHECK_OK(orma_win_start(to, 0, w.win));
        CHECK_OK(orma_put_typed(src + 512, 1, p.o, rt, (orma_aint)at, 1, p.t, w.win));
        CHECK_OK(orma_win_complete(w.win));
        CHECK_OK(orma_win_wait(w.win));
        CHECK_OK(orma_group_free(&all));
        CHECK_OK(orma_group_free(&from));
        CHECK_OK(orma_group_free(&to));
    } else if (use_lock) {
        CHECK_OK(orma_win_lock_all(0, w.win));
        CHECK_OK(orma_put_typed(src + 512, 1, p.o, rt, (orma_aint)at, 1, p.t, w.win));
        CHECK_OK(orma_win_flush(rt, w.win));
        CHECK_OK(orma_win_unlock_all(w.win));
        CHECK_OK(orma_barrier());
    } else {
        CHECK_OK(orma_win_fence(0, w.win));
        CHECK_OK(orma_put_typed(src + 512, 1, p.o, rt, (orma_aint)at, 1, p.t, w.win));
        CHECK_OK(orma_win_fence(0, w.win));
    }
    CHECK_OK(orma_win_sync(w.win));
    rt_fill_data(src, WBYTES, seed + (unsigned)lt, 0); /* what lt sent us */
    expect(p.o, src + 512, p.t, want, at, WBYTES);
    compare(w.mem, want, WBYTES, "put: window", kind, &p, use_lock);

    /* get: lt's window holds what lt - 1 sent; read it back through the
     * origin layout of a background buffer */
    rt_fill_bg(got, WBYTES);
    CHECK_OK(orma_barrier());
    if (use_lock) {
        CHECK_OK(orma_win_lock(ORMA_LOCK_SHARED, lt, 0, w.win));
        CHECK_OK(orma_get_typed(got + 512, 1, p.o, lt, (orma_aint)at, 1, p.t, w.win));
        CHECK_OK(orma_win_unlock(lt, w.win));
    } else {
        CHECK_OK(orma_win_fence(0, w.win));
        CHECK_OK(orma_get_typed(got + 512, 1, p.o, lt, (orma_aint)at, 1, p.t, w.win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, w.win));
    }
    rt_fill_data(src, WBYTES, seed + (unsigned)((lt + nranks - 1) % nranks), 0);
    expect(p.o, src + 512, p.o, want, 512, WBYTES);
    compare(got, want, WBYTES, "get: buffer", kind, &p, use_lock);

    CHECK_OK(orma_barrier());
    free(src);
    free(want);
    free(got);
    win_close(&w, kind);
    CHECK_OK(orma_type_free(&p.o));
    CHECK_OK(orma_type_free(&p.t));
}

int main(int argc, char **argv)
{
    /* These windows' partial pages must stay private, as the paths under
     * test need: a process of one thread would have them adopted too
     * (ORMA_ADOPT=2, shm_adopt.h).  A run that sets ORMA_ADOPT keeps it. */
    setenv("ORMA_ADOPT", "1", 0);
    rt_init(&argc, &argv, &rank, &nranks);
    for (int kind = 0; kind < NKINDS; kind++)
        for (int pair = 0; pair < NPAIRS; pair++)
            for (int lock = 0; lock < 3; lock++) {
                run(kind, pair, lock, AT);
                if (kind == 1)
                    run(kind, pair, lock, AT_INSIDE);
            }
    CHECK_OK(orma_finalize());
    return 0;
}
