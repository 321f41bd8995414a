/* stress_order.c -- one origin's accumulates to one location take effect
 * in issue order, and concurrent atomic reads see only states in between.
 *
 * Every rank owns one location per type at the phase's target -- int64,
 * int8, double, long double, long double complex, DOUBLE_INT -- and
 * applies to it a sequence of operations with different ops (REPLACE,
 * SUM, PROD, MIN, MAX, the bitwise and logical ops, MINLOC, MAXLOC as the
 * type allows), K in each of E epochs, drawn so that each state differs
 * from the DISTINCT states before it (all of them, but for int8 in long
 * runs).  The steps are issued as accumulate, get_accumulate,
 * fetch_and_op, and in the lock kinds raccumulate and rget_accumulate.
 * The same rank reads its location back now and then (NO_OP
 * get_accumulate without an origin, or NO_OP fetch_and_op without one)
 * and after each step reads another rank's location the same way.
 *
 * Every rank can draw every rank's sequence, so:
 *  - a step that returns the old value returns exactly the state before
 *    it, and a read-back exactly the state after the last step: later
 *    operations of one origin must not overtake earlier ones, nor be
 *    applied to a stale value;
 *  - a read of another rank's location returns one of that sequence's
 *    states (a value none has is a torn or lost update, or the ops applied
 *    in another order), and one reader's reads of one location never go
 *    back to an earlier state.  In the lock kinds the ranks' epochs do
 *    not line up, so any state of the whole sequence may be seen;
 *  - the location ends at the last state, and every byte around the
 *    locations keeps its background.
 * Phases: every window flavour x every epoch kind. */
#include "stress_test.h"

enum { K = 24, SLOT = 32, LOW = 64, BASE_EPOCHS = 16, MAPPED_FACTOR = 8, DISTINCT = 100 };
enum { Y_I64, Y_I8, Y_DBL, Y_LDBL, Y_LDC, Y_DI, NY };

static const char *const yname[NY] = {"int64", "int8", "double", "long double", "long double complex",
                                      "DOUBLE_INT"};
static const size_t yext[NY] = {8, 1, 8, sizeof(long double), 2 * sizeof(long double),
                                sizeof(struct orma_double_int)};

static orma_type yhandle(int y)
{
    static const int ids[NY] = {ORMA_TYPEID_INT64, ORMA_TYPEID_INT8, ORMA_TYPEID_DOUBLE, ORMA_TYPEID_LONG_DOUBLE,
                                ORMA_TYPEID_C_LONG_DOUBLE_COMPLEX, ORMA_TYPEID_DOUBLE_INT};
    return ORMA_PREDEFINED(ids[y]);
}

/* A value of any of the types: i for the integers, re for the floating
 * ones, re + im i for the complex, (re, idx) for DOUBLE_INT. */
struct gv {
    int64_t i;
    long double re, im;
    int idx;
};

static void gv_store(int y, unsigned char *p, struct gv v)
{
    switch (y) {
    case Y_I64: memcpy(p, &v.i, 8); break;
    case Y_I8: { int8_t x = (int8_t)v.i; memcpy(p, &x, 1); break; }
    case Y_DBL: { double x = (double)v.re; memcpy(p, &x, 8); break; }
    case Y_LDBL: memcpy(p, &v.re, sizeof v.re); break;
    case Y_LDC: {
        long double x[2] = {v.re, v.im}; /* a complex is an array of its parts */
        memcpy(p, x, sizeof x);
        break;
    }
    default: {
        struct orma_double_int x;
        memset(&x, 0, sizeof x);
        x.value = (double)v.re;
        x.index = v.idx;
        memcpy(p, &x, sizeof x);
        break;
    }
    }
}

static struct gv gv_load(int y, const unsigned char *p)
{
    struct gv v = {0, 0, 0, 0};
    switch (y) {
    case Y_I64: memcpy(&v.i, p, 8); break;
    case Y_I8: { int8_t x; memcpy(&x, p, 1); v.i = x; break; }
    case Y_DBL: { double x; memcpy(&x, p, 8); v.re = x; break; }
    case Y_LDBL: memcpy(&v.re, p, sizeof v.re); break;
    case Y_LDC: {
        long double x[2];
        memcpy(x, p, sizeof x);
        v.re = x[0];
        v.im = x[1];
        break;
    }
    default: {
        struct orma_double_int x;
        memcpy(&x, p, sizeof x);
        v.re = x.value;
        v.idx = x.index;
        break;
    }
    }
    return v;
}

static int gv_eq(struct gv a, struct gv b) { return a.i == b.i && a.re == b.re && a.im == b.im && a.idx == b.idx; }

static void gv_print(char *buf, size_t len, int y, struct gv v)
{
    switch (y) {
    case Y_I64:
    case Y_I8: snprintf(buf, len, "%lld", (long long)v.i); break;
    case Y_LDC: snprintf(buf, len, "%.4Lf%+.4Lfi", v.re, v.im); break;
    case Y_DI: snprintf(buf, len, "(%.4Lf, %d)", v.re, v.idx); break;
    default: snprintf(buf, len, "%.6Lf", v.re); break;
    }
}

/* The sequential semantics of op on type y. */
static struct gv apply(int y, orma_op op, struct gv s, struct gv v)
{
    struct gv r = s;
    if (op == ORMA_REPLACE)
        return v;
    if (y == Y_I64 || y == Y_I8) {
        int64_t a = s.i, b = v.i, x = a;
        switch (op) {
        case ORMA_SUM: x = (int64_t)((uint64_t)a + (uint64_t)b); break;
        case ORMA_PROD: x = (int64_t)((uint64_t)a * (uint64_t)b); break;
        case ORMA_MIN: x = a < b ? a : b; break;
        case ORMA_MAX: x = a > b ? a : b; break;
        case ORMA_BAND: x = a & b; break;
        case ORMA_BOR: x = a | b; break;
        case ORMA_BXOR: x = a ^ b; break;
        case ORMA_LAND: x = a && b; break;
        case ORMA_LOR: x = a || b; break;
        case ORMA_LXOR: x = !a != !b; break;
        default: break;
        }
        r.i = y == Y_I8 ? (int8_t)x : x;
    } else if (y == Y_DI) {
        int better = op == ORMA_MINLOC ? v.re < s.re : v.re > s.re;
        if (better || (v.re == s.re && v.idx < s.idx))
            r = v;
    } else if (y == Y_LDC) {
        if (op == ORMA_SUM) {
            r.re = s.re + v.re;
            r.im = s.im + v.im;
        } else {
            r.re = s.re * v.re - s.im * v.im;
            r.im = s.re * v.im + s.im * v.re;
        }
    } else {
        switch (op) {
        case ORMA_SUM: r.re = s.re + v.re; break;
        case ORMA_PROD: r.re = s.re * v.re; break;
        case ORMA_MIN: r.re = s.re < v.re ? s.re : v.re; break;
        case ORMA_MAX: r.re = s.re > v.re ? s.re : v.re; break;
        default: break;
        }
    }
    return r;
}

/* Values whose every partial result is exact in the narrowest type. */
static int in_bounds(int y, struct gv v)
{
    switch (y) {
    case Y_I64: return v.i > -(INT64_C(1) << 40) && v.i < (INT64_C(1) << 40);
    case Y_I8: return 1;
    case Y_LDC: return v.re > -1e6L && v.re < 1e6L && v.im > -1e6L && v.im < 1e6L;
    default: return v.re > -1e6L && v.re < 1e6L && v.re * 1024 == (long double)(int64_t)(v.re * 1024);
    }
}

struct step {
    orma_op op;
    struct gv v;
};

static long double pick(uint64_t *rng, int lo, int hi)
{
    return (long double)lo + (long double)st_rand_below(rng, (unsigned)(hi - lo + 1));
}

/* Draw n steps from state s0 such that each new state differs from the
 * DISTINCT states before it (all of them, unless int8 runs out of values):
 * a read then tells which step it followed. */
static void draw(int y, uint64_t seed, struct gv s0, unsigned n, struct step *steps, struct gv *st)
{
    static const orma_op iops[] = {ORMA_REPLACE, ORMA_SUM, ORMA_PROD, ORMA_MIN, ORMA_MAX, ORMA_BAND,
                                   ORMA_BOR, ORMA_BXOR, ORMA_LAND, ORMA_LOR, ORMA_LXOR};
    static const orma_op fops[] = {ORMA_REPLACE, ORMA_SUM, ORMA_PROD, ORMA_MIN, ORMA_MAX};
    static const orma_op cops[] = {ORMA_REPLACE, ORMA_SUM, ORMA_PROD};
    static const orma_op pops[] = {ORMA_REPLACE, ORMA_MINLOC, ORMA_MAXLOC};
    static const long double fmul[] = {2, -1, 0.5L, -0.5L, 3};
    static const int cmul[][2] = {{0, 1}, {1, 1}, {-1, 0}, {2, 0}, {1, -1}, {0, -1}};
    uint64_t rng = seed * 0x9E3779B97F4A7C15ull + 12345u;
    st[0] = s0;
    for (unsigned k = 0; k < n; k++) {
        int ok = 0;
        for (int tries = 0; tries < 10000 && !ok; tries++) {
            struct step c;
            memset(&c, 0, sizeof c);
            switch (y) {
            case Y_I64:
            case Y_I8:
                c.op = iops[st_rand_below(&rng, sizeof iops / sizeof iops[0])];
                c.v.i = c.op == ORMA_PROD ? (int64_t)pick(&rng, -3, 3)
                        : c.op >= ORMA_BAND && c.op <= ORMA_BXOR ? (int64_t)(st_rand(&rng) & 0xFFFF) - 0x8000
                        : c.op >= ORMA_LAND && c.op <= ORMA_LXOR ? (int64_t)pick(&rng, 0, 2)
                        : (int64_t)pick(&rng, -200, 200);
                if (y == Y_I8)
                    c.v.i = (int8_t)c.v.i;
                break;
            case Y_DBL:
            case Y_LDBL:
                c.op = fops[st_rand_below(&rng, sizeof fops / sizeof fops[0])];
                c.v.re = c.op == ORMA_PROD ? fmul[st_rand_below(&rng, 5)] : pick(&rng, -256, 256) / 4;
                break;
            case Y_LDC:
                c.op = cops[st_rand_below(&rng, sizeof cops / sizeof cops[0])];
                if (c.op == ORMA_PROD) {
                    unsigned m = st_rand_below(&rng, 6);
                    c.v.re = cmul[m][0];
                    c.v.im = cmul[m][1];
                } else {
                    c.v.re = pick(&rng, -40, 40);
                    c.v.im = pick(&rng, -40, 40);
                }
                break;
            default:
                c.op = pops[st_rand_below(&rng, 3)];
                c.v.re = pick(&rng, -20, 20);
                c.v.idx = (int)pick(&rng, 0, 99);
                break;
            }
            struct gv next = apply(y, c.op, st[k], c.v);
            ok = in_bounds(y, next);
            for (unsigned j = k + 1 > DISTINCT ? k + 1 - DISTINCT : 0; j <= k && ok; j++)
                ok = !gv_eq(next, st[j]);
            if (ok) {
                steps[k] = c;
                st[k + 1] = next;
            }
        }
        CHECK(ok);
    }
}

static int rank, nranks;
static size_t area, wsize;

static size_t loc_off(int y, int q) { return LOW + (size_t)y * area + (size_t)q * SLOT; }

static struct gv initial(int y, int q)
{
    struct gv v = {0, 0, 0, 0};
    if (y == Y_I64 || y == Y_I8)
        v.i = y == Y_I8 ? 10 + q : 1000 + q;
    else
        v.re = 3 + q;
    if (y == Y_LDC)
        v.im = -q;
    if (y == Y_DI)
        v.idx = 50 + q;
    return v;
}

static uint64_t seq_seed(unsigned ph, int y, int q)
{
    return ((uint64_t)ph * 16 + (uint64_t)y) * 256 + (uint64_t)q + 1;
}

/* Where a step's or a read's result lands, and what it must hold. */
struct got {
    unsigned char buf[SLOT];
};

static void expect_exact(const char *what, int y, const struct got *g, struct gv want, int k, const char *which)
{
    struct gv v = gv_load(y, g->buf);
    if (!gv_eq(v, want)) {
        char s1[64], s2[64];
        gv_print(s1, sizeof s1, y, v);
        gv_print(s2, sizeof s2, y, want);
        SX_FAIL("%s: %s, own location: %s at step %d returned %s, expected %s", what, yname[y], which, k, s1, s2);
    }
}

/* Every rank's sequences of a phase, E K steps per type. */
struct seqs {
    unsigned n;            /* steps: epochs * K */
    struct step *steps;    /* [(q * NY + y) * n + s] */
    struct gv *st;         /* [(q * NY + y) * (n + 1) + s]: the state after s steps */
};

static struct step *seq_step(const struct seqs *z, int q, int y, unsigned s)
{
    return &z->steps[((size_t)q * NY + (size_t)y) * z->n + s];
}

static struct gv *seq_state(const struct seqs *z, int q, int y, unsigned s)
{
    return &z->st[((size_t)q * NY + (size_t)y) * (z->n + 1) + s];
}

static void epoch(struct st_win *w, struct sx_epoch *e, int target, unsigned ep, const struct seqs *z,
                  unsigned (*last)[NY], const char *what)
{
    struct got old[NY][K], back[NY][K], other[NY][K];
    unsigned char src[NY][K][SLOT];
    int who[NY][K];
    orma_request req[2 * NY * K];
    size_t nreq = 0;
    unsigned s0 = ep * K;

    memset(old, 0xA5, sizeof old);
    memset(back, 0xA5, sizeof back);
    memset(other, 0xA5, sizeof other);

    sx_begin(e);
    int passive = sx_can_flush(e);
    for (int k = 0; k < K; k++) {
        for (int y = 0; y < NY; y++) {
            orma_type t = yhandle(y);
            orma_aint mine = st_disp(w, target, loc_off(y, rank));
            const struct step *sp = seq_step(z, rank, y, s0 + (unsigned)k);
            int how = (k + rank + (int)ep + y) % 6;
            gv_store(y, src[y][k], sp->v);
            switch (how) {
            case 1:
                CHECK_OK(orma_get_accumulate(src[y][k], 1, t, old[y][k].buf, 1, t, target, mine, 1, t, sp->op,
                                             w->win));
                break;
            case 2:
                CHECK_OK(orma_fetch_and_op(src[y][k], old[y][k].buf, t, target, mine, sp->op, w->win));
                break;
            case 4:
                if (passive)
                    CHECK_OK(orma_raccumulate(src[y][k], 1, t, target, mine, 1, t, sp->op, w->win, &req[nreq++]));
                else
                    CHECK_OK(orma_accumulate(src[y][k], 1, t, target, mine, 1, t, sp->op, w->win));
                break;
            case 5:
                if (passive)
                    CHECK_OK(orma_rget_accumulate(src[y][k], 1, t, old[y][k].buf, 1, t, target, mine, 1, t, sp->op,
                                                  w->win, &req[nreq++]));
                else
                    CHECK_OK(orma_get_accumulate(src[y][k], 1, t, old[y][k].buf, 1, t, target, mine, 1, t, sp->op,
                                                 w->win));
                break;
            default:
                CHECK_OK(orma_accumulate(src[y][k], 1, t, target, mine, 1, t, sp->op, w->win));
                break;
            }
            /* Read back after some steps: what was just issued must be
             * in, whatever path it took. */
            if (how == 3)
                CHECK_OK(orma_get_accumulate(NULL, 0, t, back[y][k].buf, 1, t, target, mine, 1, t, ORMA_NO_OP,
                                             w->win));
            else if (how == 4)
                CHECK_OK(orma_fetch_and_op(NULL, back[y][k].buf, t, target, mine, ORMA_NO_OP, w->win));
            /* And read somebody else's location. */
            int q = nranks > 1 ? (rank + 1 + (k + y) % (nranks - 1)) % nranks : rank;
            who[y][k] = q;
            orma_aint theirs = st_disp(w, target, loc_off(y, q));
            if (k % 2)
                CHECK_OK(orma_fetch_and_op(NULL, other[y][k].buf, t, target, theirs, ORMA_NO_OP, w->win));
            else
                CHECK_OK(orma_get_accumulate(src[y][k], 1, t, other[y][k].buf, 1, t, target, theirs, 1, t,
                                             ORMA_NO_OP, w->win));
        }
        if (passive && k % 7 == 3)
            CHECK_OK(orma_win_flush(target, w->win));
    }
    if (nreq) {
        /* Test one request until it is done, wait for the rest. */
        int flag = 0;
        double t0 = orma_wtime();
        while (!flag) {
            CHECK_OK(orma_test(&req[0], &flag));
            CHECK(orma_wtime() - t0 < ST_WAIT_LIMIT);
        }
        CHECK(req[0] == ORMA_REQUEST_NULL);
        CHECK_OK(orma_waitall(nreq, req));
        for (size_t i = 0; i < nreq; i++)
            CHECK(req[i] == ORMA_REQUEST_NULL);
    }
    sx_end(e);

    for (int y = 0; y < NY; y++) {
        for (int k = 0; k < K; k++) {
            unsigned s = s0 + (unsigned)k;
            int how = (k + rank + (int)ep + y) % 6;
            if (how == 1 || how == 2 || how == 5)
                expect_exact(what, y, &old[y][k], *seq_state(z, rank, y, s), k, "the step's fetch");
            if (how == 3 || how == 4)
                expect_exact(what, y, &back[y][k], *seq_state(z, rank, y, s + 1), k, "the read-back after the step");
            /* A read of rank q's location: one of q's states, not before
             * the one this rank saw last (the first match from there on:
             * if any order of states explains the reads, that one does).
             * The ranks' epochs line up only in the active kinds, so the
             * whole sequence is allowed. */
            int q = who[y][k];
            struct gv v = gv_load(y, other[y][k].buf);
            unsigned j = last[q][y];
            if (q == rank)
                j = gv_eq(v, *seq_state(z, q, y, s + 1)) ? s + 1 : z->n + 1;
            else
                while (j <= z->n && !gv_eq(v, *seq_state(z, q, y, j)))
                    j++;
            if (j > z->n) {
                char s1[64], s2[64];
                gv_print(s1, sizeof s1, y, v);
                gv_print(s2, sizeof s2, y, *seq_state(z, q, y, last[q][y]));
                SX_FAIL("%s: %s: read %d of epoch %u of rank %d's location returned %s, which is none of the states "
                        "of its sequence from the %u-th (%s, seen before) on", what, yname[y], k, ep, q, s1,
                        last[q][y], s2);
            }
            last[q][y] = j;
        }
    }
}

static void phase(struct st_win *w, int mode, int target, unsigned epochs, unsigned ph)
{
    char what[96];
    struct seqs z;
    unsigned (*last)[NY] = calloc((size_t)nranks, sizeof *last);
    z.n = epochs * K;
    z.steps = malloc((size_t)nranks * NY * z.n * sizeof *z.steps);
    z.st = malloc((size_t)nranks * NY * (z.n + 1) * sizeof *z.st);
    CHECK(last && z.steps && z.st);
    snprintf(what, sizeof what, "%s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    rt_fill_bg(w->mem, wsize);
    for (int q = 0; q < nranks; q++)
        for (int y = 0; y < NY; y++) {
            draw(y, seq_seed(ph, y, q), initial(y, q), z.n, seq_step(&z, q, y, 0), seq_state(&z, q, y, 0));
            if (rank == target)
                gv_store(y, w->mem + loc_off(y, q), initial(y, q));
        }
    CHECK_OK(orma_barrier());
    sx_start();

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, ph);
    for (unsigned ep = 0; ep < epochs; ep++)
        epoch(w, &e, target, ep, &z, last, what);
    sx_epoch_fini(&e);
    CHECK_OK(orma_barrier());

    if (rank == target) {
        for (int y = 0; y < NY; y++) {
            for (int q = 0; q < nranks; q++) {
                struct gv v = gv_load(y, w->mem + loc_off(y, q)), want = *seq_state(&z, q, y, z.n);
                if (!gv_eq(v, want)) {
                    char s1[64], s2[64];
                    gv_print(s1, sizeof s1, y, v);
                    gv_print(s2, sizeof s2, y, want);
                    SX_FAIL("%s: %s location of rank %d ends at %s, expected %s", what, yname[y], q, s1, s2);
                }
                RT_EXPECT_BG(w->mem, loc_off(y, q) + yext[y], loc_off(y, q) + SLOT, what);
            }
            RT_EXPECT_BG(w->mem, loc_off(y, nranks), loc_off(y + 1, 0), what);
        }
        RT_EXPECT_BG(w->mem, 0, LOW, what);
        RT_EXPECT_BG(w->mem, loc_off(NY, 0), wsize, what);
    } else {
        RT_EXPECT_BG(w->mem, 0, wsize, what);
    }
    CHECK_OK(orma_barrier());
    free(z.steps);
    free(z.st);
    free(last);
}

int main(int argc, char **argv)
{
    unsigned nph = 0;

    rt_init(&argc, &argv, &rank, &nranks);
    if (nranks > 64) {
        CHECK_OK(orma_finalize());
        return 77;
    }
    sx_open();
    area = (size_t)nranks * SLOT + 32;
    wsize = loc_off(NY, 0) + 64;
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, wsize);
        for (int mode = 0; mode < SX_NMODES; mode++, nph++)
            phase(&w, mode, (int)(nph % (unsigned)nranks), sx_rounds_for(kind, BASE_EPOCHS, MAPPED_FACTOR), nph);
        st_win_close(&w);
    }
    sx_close();
    if (rank == 0)
        printf("stress_order: %u phases of %u or %u epochs x %d types x %d steps, %d ranks: ok\n", nph,
               sx_rounds(BASE_EPOCHS), sx_rounds(BASE_EPOCHS) * sx_mapped_factor(MAPPED_FACTOR), NY, K, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
