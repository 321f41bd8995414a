/* stress_overlap.c -- concurrent SUM accumulates over overlapping ranges.
 *
 * The target holds one array per type -- int32, int64, double and long
 * double complex (32 bytes, beyond any hardware atomic) -- of L elements.
 * Rank r's array of N elements covers [r*S, r*S + N), S = N/4, so
 * neighbouring ranks overlap on three quarters of their range and the last
 * elements are covered by nobody.  Half the rounds update a rank's range
 * in one call (the complex array straddles a 4096-byte boundary of the
 * window, so such a call spans more than one of the library's lock
 * stripes); the others two elements at a time, upwards on even ranks and
 * downwards on odd ones, so that ranks cross each other on the same
 * elements instead of trailing each other at the same speed.  Each phase
 * (every window flavour x every epoch kind) has two parts:
 *
 * Sums: R rounds, every rank adds arrays of small increments -- int32 a,
 * int64 a * (2^33 + 1) (both halves of the word move), double a/4, complex
 * a/2 - 3a/4 i -- with orma_accumulate in even rounds and
 * orma_get_accumulate in odd ones.  Every element must end at exactly its
 * initial value plus every increment aimed at it (all values are exact in
 * binary), elements no range covers and the bytes between the arrays keep
 * theirs.  Each old value returned is checked: it lies between the initial
 * value plus this rank's earlier increments (same-origin order) and the
 * final value minus its later ones, grows in issue order, is whole in the
 * unit of the increments (an int64 torn between its halves is not a
 * multiple of 2^33 + 1), and for the complex type keeps imag = -1.5 real
 * relative to the start (a 32-byte element torn between two updates does
 * not).
 *
 * States: R2 rounds of orma_get_accumulate only, every rank adding the
 * same d(e) to element e.  Element e then runs through the states
 * start + m d(e), m = 0 .. cover(e) R2 - 1, and every state is returned to
 * exactly one caller: the target gathers the m of all ranks and checks
 * each appears once -- two callers that saw the same state got a
 * read-modify-write that was not atomic. */
#include "stress_test.h"

enum { N = 48, S = N / 4, L = N + 3 * S + 4, NT = 4, LOW = 64, GAP = 64, PAIRS = 2, PART_EPOCHS = 3, BASE_R1 = 96,
       BASE_R2 = 96, MAPPED_FACTOR = 4 };
enum { T_I32, T_I64, T_DBL, T_LDC };

static const size_t esz[NT] = {4, 8, 8, 2 * sizeof(long double)};
static const char *const tname[NT] = {"int32", "int64", "double", "long double complex"};
static size_t aoff[NT + 1]; /* where each array starts; aoff[NT]: the window size */

static orma_type thandle(int t)
{
    return t == T_I32 ? ORMA_INT32 : t == T_I64 ? ORMA_INT64 : t == T_DBL ? ORMA_DOUBLE : ORMA_C_LONG_DOUBLE_COMPLEX;
}

/* An element's value whatever its type (im: complex only). */
struct cval {
    long double re, im;
};

static void cv_store(int t, unsigned char *p, struct cval v)
{
    switch (t) {
    case T_I32: { int32_t x = (int32_t)v.re; memcpy(p, &x, 4); break; }
    case T_I64: { int64_t x = (int64_t)v.re; memcpy(p, &x, 8); break; }
    case T_DBL: { double x = (double)v.re; memcpy(p, &x, 8); break; }
    default: {
        /* A complex number is laid out as an array of its two parts. */
        long double x[2] = {v.re, v.im};
        memcpy(p, x, sizeof x);
        break;
    }
    }
}

static struct cval cv_load(int t, const unsigned char *p)
{
    struct cval v = {0, 0};
    switch (t) {
    case T_I32: { int32_t x; memcpy(&x, p, 4); v.re = x; break; }
    case T_I64: { int64_t x; memcpy(&x, p, 8); v.re = (long double)x; break; }
    case T_DBL: { double x; memcpy(&x, p, 8); v.re = x; break; }
    default: {
        long double x[2];
        memcpy(x, p, sizeof x);
        v.re = x[0];
        v.im = x[1];
        break;
    }
    }
    return v;
}

static struct cval cv_add(struct cval a, struct cval b)
{
    struct cval c = {a.re + b.re, a.im + b.im};
    return c;
}

static struct cval cv_sub(struct cval a, struct cval b)
{
    struct cval c = {a.re - b.re, a.im - b.im};
    return c;
}

static int cv_eq(struct cval a, struct cval b) { return a.re == b.re && a.im == b.im; }

/* The increment "a" in type t's form. */
static struct cval scaled(int t, long double a)
{
    struct cval v = {a, 0};
    switch (t) {
    case T_I64: v.re = a * (long double)((INT64_C(1) << 33) + 1); break;
    case T_DBL: v.re = a / 4; break;
    case T_LDC: v.re = a / 2; v.im = -a * 3 / 4; break;
    default: break;
    }
    return v;
}

/* The unit every difference of states is a whole multiple of. */
static long double unit(int t)
{
    return t == T_I64 ? (long double)((INT64_C(1) << 33) + 1) : t == T_DBL ? 0.25L : t == T_LDC ? 0.5L : 1;
}

static struct cval start_val(int t, int e)
{
    struct cval v = {1000 + e, 0};
    if (t == T_I64)
        v.re = (long double)(INT64_C(3) << 40) + e;
    if (t == T_LDC)
        v.im = -e;
    return v;
}

static int rank, nranks;
static unsigned r1, r2;

static long double incr(unsigned ph, int r, unsigned k, int j)
{
    return (long double)(1 + (unsigned)(r * 7 + j * 3) % 5 + (k + ph) % 3);
}

static int covered_by(int r, int e) { return r < nranks && e >= r * S && e < r * S + N; }

static int cover(int e)
{
    int c = 0;
    for (int r = 0; r < nranks; r++)
        c += covered_by(r, e);
    return c;
}

static long double d2(int e) { return (long double)(1 + e % 3); }

/* Element e of type t after the sums. */
static struct cval after_sums(int t, int e, unsigned ph)
{
    struct cval v = start_val(t, e);
    for (int r = 0; r < nranks; r++)
        if (covered_by(r, e))
            for (unsigned k = 0; k < r1; k++)
                v = cv_add(v, scaled(t, incr(ph, r, k, e - r * S)));
    return v;
}

static void print_cv(char *buf, size_t len, int t, struct cval v)
{
    if (t == T_LDC)
        snprintf(buf, len, "%.6Lf%+.6Lfi", v.re, v.im);
    else
        snprintf(buf, len, "%.6Lf", v.re);
}

/* An old value rank got for element e: whole units above the start and,
 * complex, imag = -1.5 real relative to the start. */
static void check_shape(const char *what, int t, int e, struct cval old, unsigned k)
{
    struct cval rel = cv_sub(old, start_val(t, e));
    long double q = rel.re / unit(t);
    char s[96];
    print_cv(s, sizeof s, t, old);
    if (q != (long double)(int64_t)q || (t == T_LDC && rel.im != -1.5L * rel.re))
        SX_FAIL("%s: %s element %d: round %u returned %s, which no sequence of updates reaches (torn?)", what,
                tname[t], e, k, s);
}

static void phase(struct st_win *w, struct sx_gather *g, int mode, int target, unsigned ph)
{
    char what[96], s1[96], s2[96];
    size_t stride = (size_t)N * sizeof(long double) * 2;
    unsigned char *src = malloc((size_t)(r1 + r2) * NT * stride), *res = calloc((size_t)(r1 + r2) * NT, stride);
    int64_t *ms = malloc((size_t)NT * r2 * N * sizeof *ms);
    CHECK(src && res && ms);
    snprintf(what, sizeof what, "%s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    rt_fill_bg(w->mem, aoff[NT]);
    if (rank == target)
        for (int t = 0; t < NT; t++)
            for (int e = 0; e < L; e++)
                cv_store(t, w->mem + aoff[t] + (size_t)e * esz[t], start_val(t, e));
    for (unsigned k = 0; k < r1 + r2; k++)
        for (int t = 0; t < NT; t++)
            for (int j = 0; j < N; j++)
                cv_store(t, src + (k * NT + (unsigned)t) * stride + (size_t)j * esz[t],
                         scaled(t, k < r1 ? incr(ph, rank, k, j) : d2(rank * S + j)));
    CHECK_OK(orma_barrier());
    sx_start();

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, ph);
    for (unsigned b = 0; b < 2 * PART_EPOCHS; b++) {
        unsigned from = b < PART_EPOCHS ? b * (r1 / PART_EPOCHS) : r1 + (b - PART_EPOCHS) * (r2 / PART_EPOCHS);
        unsigned to = from + (b < PART_EPOCHS ? r1 : r2) / PART_EPOCHS;
        if (b == PART_EPOCHS) {
            CHECK_OK(orma_barrier()); /* the sums are complete: the states begin */
            sx_start();
        }
        sx_begin(&e);
        for (unsigned k = from; k < to; k++) {
            /* The types in the same order on every rank, so that ranks
             * running side by side collide, but shifted by the rank in
             * every third round. */
            for (int i = 0; i < NT; i++) {
                int t = (i + (int)k + (k % 3 == 2 ? rank : 0)) % NT;
                for (int ci = 0; ci < N / PAIRS; ci++) {
                    /* Two ranks sweeping a range the same way at the
                     * same speed never meet on an element; two sweeping
                     * it both ways cross. */
                    int whole = k % 4 < 2, c = rank % 2 ? N / PAIRS - 1 - ci : ci;
                    if (whole && ci > 0)
                        break;
                    size_t at = whole ? 0 : (size_t)c * PAIRS * esz[t], n = whole ? N : PAIRS;
                    orma_type ty = thandle(t);
                    unsigned char *s = src + (k * NT + (unsigned)t) * stride + at;
                    orma_aint d = st_disp(w, target, aoff[t] + (size_t)(rank * S) * esz[t] + at);
                    if (k < r1 && k % 2 == 0)
                        CHECK_OK(orma_accumulate(s, n, ty, target, d, n, ty, ORMA_SUM, w->win));
                    else
                        CHECK_OK(orma_get_accumulate(s, n, ty, res + (k * NT + (unsigned)t) * stride + at, n, ty,
                                                     target, d, n, ty, ORMA_SUM, w->win));
                }
            }
            if (sx_can_flush(&e) && k % 5 == 1)
                CHECK_OK(orma_win_flush(target, w->win));
        }
        sx_end(&e);
    }
    sx_epoch_fini(&e);

    for (int t = 0; t < NT; t++)
        for (int j = 0; j < N; j++) {
            int el = rank * S + j;
            struct cval fin1 = after_sums(t, el, ph), own = start_val(t, el), last = start_val(t, el);
            struct cval later = {0, 0};
            for (unsigned k = 0; k < r1; k++)
                later = cv_add(later, scaled(t, incr(ph, rank, k, j)));
            for (unsigned k = 0; k < r1; k++) {
                struct cval c = scaled(t, incr(ph, rank, k, j));
                if (k % 2) {
                    struct cval old = cv_load(t, res + (k * NT + (unsigned)t) * stride + (size_t)j * esz[t]);
                    struct cval hi = cv_sub(fin1, later);
                    check_shape(what, t, el, old, k);
                    print_cv(s1, sizeof s1, t, old);
                    if (old.re < own.re || old.re > hi.re || (k > 1 && old.re <= last.re)) {
                        print_cv(s2, sizeof s2, t, own);
                        SX_FAIL("%s: %s element %d: get_accumulate in round %u returned %s; expected at least %s "
                                "(this rank's earlier increments), at most %.6Lf (the final value less its later "
                                "ones), above the %.6Lf returned before", what, tname[t], el, k, s1, s2, hi.re,
                                last.re);
                    }
                    last = old;
                }
                own = cv_add(own, c);
                later = cv_sub(later, c);
            }
            long double last_m = -1;
            for (unsigned k = r1; k < r1 + r2; k++) {
                struct cval old = cv_load(t, res + (k * NT + (unsigned)t) * stride + (size_t)j * esz[t]);
                long double m = (old.re - fin1.re) / scaled(t, d2(el)).re;
                check_shape(what, t, el, old, k);
                if (m <= last_m)
                    SX_FAIL("%s: %s element %d: round %u returned the state %.2Lf steps past the sums, after %.2Lf "
                            "in this rank's round before: its own updates took effect out of order", what, tname[t],
                            el, k, m, last_m);
                last_m = m;
                if (m != (long double)(int64_t)m || m < (long double)(k - r1) ||
                    m > (long double)cover(el) * r2 - (r1 + r2 - k)) {
                    print_cv(s1, sizeof s1, t, old);
                    SX_FAIL("%s: %s element %d: get_accumulate in round %u returned %s = %.2Lf steps of %.2Lf past "
                            "the sums, expected a whole number in %u..%Lf", what, tname[t], el, k, s1, m,
                            scaled(t, d2(el)).re, k - r1, (long double)cover(el) * r2 - (r1 + r2 - k));
                }
                ms[((size_t)t * r2 + (k - r1)) * N + (size_t)j] = (int64_t)m;
            }
        }

    CHECK_OK(orma_barrier());
    sx_gather(g, ms, (size_t)NT * r2 * N, target);
    if (rank == target) {
        char *seen = malloc((size_t)nranks * r2 + 1);
        CHECK(seen);
        for (int t = 0; t < NT; t++) {
            for (int el = 0; el < L; el++) {
                struct cval want = after_sums(t, el, ph), got = cv_load(t, w->mem + aoff[t] + (size_t)el * esz[t]);
                struct cval step = scaled(t, d2(el));
                want.re += step.re * cover(el) * r2;
                want.im += step.im * cover(el) * r2;
                if (!cv_eq(got, want)) {
                    print_cv(s1, sizeof s1, t, got);
                    print_cv(s2, sizeof s2, t, want);
                    SX_FAIL("%s: %s element %d (covered by %d ranks) ends at %s, expected %s", what, tname[t], el,
                            cover(el), s1, s2);
                }
                memset(seen, 0, (size_t)nranks * r2 + 1);
                for (int r = 0; r < nranks; r++) {
                    if (!covered_by(r, el))
                        continue;
                    for (unsigned k = 0; k < r2; k++) {
                        int64_t m = g->buf[(size_t)r * g->per_rank + ((size_t)t * r2 + k) * N + (size_t)(el - r * S)];
                        if (seen[m]++)
                            SX_FAIL("%s: %s element %d: state %lld steps past the sums returned twice (to rank %d in "
                                    "round %u and before)", what, tname[t], el, (long long)m, r, r1 + k);
                    }
                }
            }
            RT_EXPECT_BG(w->mem, aoff[t] + L * esz[t], aoff[t + 1], what);
        }
        free(seen);
        RT_EXPECT_BG(w->mem, 0, aoff[0], what);
    } else {
        RT_EXPECT_BG(w->mem, 0, aoff[NT], what);
    }
    CHECK_OK(orma_barrier());
    free(src);
    free(res);
    free(ms);
}

int main(int argc, char **argv)
{
    unsigned nph = 0;
    struct sx_gather g;

    rt_init(&argc, &argv, &rank, &nranks);
    if (nranks > 4) {
        /* Ranges are laid out for at most four ranks. */
        CHECK_OK(orma_finalize());
        return 77;
    }
    aoff[0] = LOW;
    for (int t = 0; t < NT; t++)
        aoff[t + 1] = aoff[t] + L * esz[t] + GAP;
    sx_open();
    sx_gather_open(&g, (size_t)NT * sx_rounds(BASE_R2) * sx_mapped_factor(MAPPED_FACTOR) * N);
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, aoff[NT]);
        r1 = sx_rounds_for(kind, BASE_R1, MAPPED_FACTOR);
        r2 = sx_rounds_for(kind, BASE_R2, MAPPED_FACTOR);
        for (int mode = 0; mode < SX_NMODES; mode++, nph++)
            phase(&w, &g, mode, (int)(nph % (unsigned)nranks), nph);
        st_win_close(&w);
    }
    sx_gather_close(&g);
    sx_close();
    if (rank == 0)
        printf("stress_overlap: %u phases of (%u or %u) + (%u or %u) rounds x %d types x %d elements, %d ranks: ok\n",
               nph, sx_rounds(BASE_R1), sx_rounds(BASE_R1) * sx_mapped_factor(MAPPED_FACTOR), sx_rounds(BASE_R2),
               sx_rounds(BASE_R2) * sx_mapped_factor(MAPPED_FACTOR), NT, N, nranks);
    CHECK_OK(orma_finalize());
    return 0;
}
