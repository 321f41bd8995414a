/* stress_counter.c -- fetch_and_op SUM is an atomic fetch-and-add.
 *
 * Every rank, R rounds per phase, adds a step to each of seven counters at
 * one target with orma_fetch_and_op and keeps the value it fetched.  The
 * counters sit side by side so that an element updated through a wider
 * word (a byte emulated by a compare-and-swap on its word, say) would
 * clobber its neighbours:
 *   int8 +3 and int8 -1 (both wrap many times), int16 +517 (wraps),
 *   int32 +1, int64 +1, double +1, long double +0.5 (16 bytes).
 * Phases: every window flavour times every epoch kind (fence, PSCW, lock
 * shared, lock exclusive, lock_all, and a mix of the three lock kinds in
 * one phase), the target moving from rank to rank; R is larger on the
 * flavours reached by hardware atomics, whose operations are much faster.
 * With N = nranks * R:
 *  - each counter ends at N steps (modulo its width): a lost update or a
 *    double application shows here;
 *  - the fetched values of all ranks together are exactly the N states
 *    0, step, ..., (N-1) step (for the wrapping ones: the same multiset of
 *    residues): two ranks that fetched the same state -- the signature of
 *    a read-modify-write that is not atomic -- leave one state twice and
 *    another never;
 *  - each rank's own fetched values grow in issue order (accumulates of
 *    one origin to one location take effect in order), and within an
 *    exclusive lock epoch they are consecutive (nobody else got in);
 *  - every byte around the counters, at the target and elsewhere, keeps
 *    its background. */
#include "stress_test.h"

enum { WSIZE = 128, NCTR = 7, EPOCHS = 8, BASE_ROUNDS = 2048, MAPPED_FACTOR = 32 };

struct ctr {
    int id;
    size_t off;
    int width; /* bits of a counter that wraps, 0 for one that must not */
    int64_t step;
    const char *name;
};

enum { C_I8UP, C_I8DN, C_I16, C_I32, C_I64, C_DBL, C_LDBL };

static const struct ctr ctrs[NCTR] = {
    {C_I8UP, 32, 8, 3, "int8 (+3)"},
    {C_I8DN, 33, 8, -1, "int8 (-1)"},
    {C_I16, 34, 16, 517, "int16 (+517)"},
    {C_I32, 36, 0, 1, "int32"},
    {C_I64, 40, 0, 1, "int64"},
    {C_DBL, 48, 0, 1, "double"},
    {C_LDBL, 64, 0, 1, "long double (+0.5)"},
};

/* Bytes the counters may change: [32, 56) and the 16 of the long double. */
static int counter_byte(size_t i)
{
    return (i >= 32 && i < 56) || (i >= 64 && i < 80);
}

union val {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    double d;
    long double ld;
};

static orma_type ctr_type(int id)
{
    switch (id) {
    case C_I8UP:
    case C_I8DN:
        return ORMA_INT8;
    case C_I16:
        return ORMA_INT16;
    case C_I32:
        return ORMA_INT32;
    case C_I64:
        return ORMA_INT64;
    case C_DBL:
        return ORMA_DOUBLE;
    default:
        return ORMA_LONG_DOUBLE;
    }
}

static void ctr_step(int id, union val *v)
{
    memset(v, 0, sizeof *v);
    switch (id) {
    case C_I8UP: v->i8 = 3; break;
    case C_I8DN: v->i8 = -1; break;
    case C_I16: v->i16 = 517; break;
    case C_I32: v->i32 = 1; break;
    case C_I64: v->i64 = 1; break;
    case C_DBL: v->d = 1.0; break;
    default: v->ld = 0.5L; break;
    }
}

static int rank, nranks;
static unsigned long interleaved; /* fetches that followed another rank's */

/* A value of counter c as the number of steps it stands for (not wrapping)
 * or its residue modulo 2^width (wrapping).  A floating value that is no
 * whole number of steps is itself a failure. */
static int64_t ctr_units(const struct ctr *c, const union val *v, const char *what)
{
    switch (c->id) {
    case C_I8UP:
    case C_I8DN: return (uint8_t)v->i8;
    case C_I16: return (uint16_t)v->i16;
    case C_I32: return v->i32;
    case C_I64: return v->i64;
    case C_DBL:
        if (v->d != (double)(int64_t)v->d || v->d < 0 || v->d > 1e15)
            SX_FAIL("%s: %s counter holds %.17g, not a whole number of steps", what, c->name, v->d);
        return (int64_t)v->d;
    default:
        if (v->ld * 2 != (long double)(int64_t)(v->ld * 2) || v->ld < 0 || v->ld > 1e15L)
            SX_FAIL("%s: %s counter holds %.21Lg, not a whole number of steps", what, c->name, v->ld);
        return (int64_t)(v->ld * 2);
    }
}

/* What the counter must show after k steps, in ctr_units' terms. */
static int64_t ctr_expect(const struct ctr *c, int64_t k)
{
    if (!c->width)
        return k;
    return (int64_t)((uint64_t)(k * c->step) & ((UINT64_C(1) << c->width) - 1));
}

/* The target: every fetched state exactly once (or, for the wrapping
 * counters, the multiset of residues of 0, step, ..., (N-1) step). */
static void check_fetched(const struct ctr *c, const int64_t *all, size_t per_rank, unsigned rounds, int ci,
                          const char *what)
{
    int64_t n = (int64_t)nranks * rounds;
    int64_t m = c->width ? (int64_t)1 << c->width : n;
    int *seen = calloc((size_t)m, sizeof *seen), *want = calloc((size_t)m, sizeof *want);
    CHECK(seen && want);
    for (int64_t k = 0; k < n; k++)
        want[ctr_expect(c, k)]++;
    for (int r = 0; r < nranks; r++)
        for (unsigned i = 0; i < rounds; i++) {
            int64_t u = all[(size_t)r * per_rank + (size_t)ci * rounds + i];
            if (u < 0 || u >= m || ++seen[u] > want[u])
                SX_FAIL("%s: %s counter: rank %d fetched state %lld in round %u, seen %d times, "
                        "expected at most %d (every state 0..%lld steps once)", what, c->name, r,
                        (long long)u, i, u >= 0 && u < m ? seen[u] : 0, u >= 0 && u < m ? want[u] : 0,
                        (long long)n - 1);
        }
    for (int64_t u = 0; u < m; u++)
        if (seen[u] != want[u])
            SX_FAIL("%s: %s counter: state %lld fetched %d times, expected %d", what, c->name,
                    (long long)u, seen[u], want[u]);
    free(seen);
    free(want);
}

static void phase(struct st_win *w, struct sx_gather *g, int mode, int target, unsigned rounds,
                  unsigned seed)
{
    char what[96];
    union val *res = calloc((size_t)rounds * NCTR, sizeof *res);
    int64_t *units = malloc((size_t)rounds * NCTR * sizeof *units);
    int *excl = calloc(EPOCHS, sizeof *excl);
    unsigned per = rounds / EPOCHS;
    CHECK(res && units && excl);
    snprintf(what, sizeof what, "%s, %s, target %d", st_kind_names[w->kind], sx_mode_names[mode], target);

    rt_fill_bg(w->mem, WSIZE);
    if (rank == target) {
        union val zero;
        memset(&zero, 0, sizeof zero);
        for (int c = 0; c < NCTR; c++) {
            size_t sz = 0;
            CHECK_OK(orma_type_size(ctr_type(ctrs[c].id), &sz));
            memcpy(w->mem + ctrs[c].off, &zero, sz);
        }
    }
    CHECK_OK(orma_barrier());
    sx_start();

    /* The origin buffers belong to the epoch until it closes: an
     * operation may be queued and read its origin only then. */
    union val steps[NCTR];
    for (int c = 0; c < NCTR; c++)
        ctr_step(ctrs[c].id, &steps[c]);

    struct sx_epoch e;
    sx_epoch_init(&e, w->win, mode, target, seed);
    for (unsigned b = 0; b < EPOCHS; b++) {
        sx_begin(&e);
        excl[b] = e.used == SX_LOCK_EXCL;
        for (unsigned i = b * per; i < (b + 1) * per; i++) {
            for (int c = 0; c < NCTR; c++) {
                CHECK_OK(orma_fetch_and_op(&steps[c], &res[i * NCTR + (unsigned)c], ctr_type(ctrs[c].id), target,
                                           st_disp(w, target, ctrs[c].off), ORMA_SUM, w->win));
            }
            /* Now and then complete the operations mid-epoch, so that
             * flush and the later operations overlap other ranks. */
            if (sx_can_flush(&e) && i % 37 == 2)
                CHECK_OK(orma_win_flush(target, w->win));
        }
        sx_end(&e);
    }
    sx_epoch_fini(&e);

    /* Local checks: in issue order the states grow; under an exclusive
     * lock they follow each other without a gap. */
    for (int c = 0; c < NCTR; c++) {
        const struct ctr *ct = &ctrs[c];
        int64_t mod = ct->width ? (int64_t)1 << ct->width : 0;
        for (unsigned i = 0; i < rounds; i++) {
            int64_t u = ctr_units(ct, &res[i * NCTR + (unsigned)c], what);
            units[(size_t)c * rounds + i] = u;
            if (i == 0)
                continue;
            int64_t prev = units[(size_t)c * rounds + i - 1];
            interleaved += ct->id == C_I64 && u != prev + 1;
            if (!ct->width && u <= prev)
                SX_FAIL("%s: %s counter: round %u fetched %lld after %lld: one origin's updates took "
                        "effect out of order or one was lost", what, ct->name, i, (long long)u,
                        (long long)prev);
            if (excl[i / per] && i % per) {
                int64_t want = ct->width ? (int64_t)(((uint64_t)prev + (uint64_t)ct->step) & (uint64_t)(mod - 1))
                                         : prev + 1;
                if (u != want)
                    SX_FAIL("%s: %s counter: round %u under an exclusive lock fetched %lld, expected %lld",
                            what, ct->name, i, (long long)u, (long long)want);
            }
        }
    }

    CHECK_OK(orma_barrier());
    sx_gather(g, units, (size_t)rounds * NCTR, target);
    if (rank == target) {
        int64_t n = (int64_t)nranks * rounds;
        for (int c = 0; c < NCTR; c++) {
            union val v;
            size_t sz = 0;
            memset(&v, 0, sizeof v);
            CHECK_OK(orma_type_size(ctr_type(ctrs[c].id), &sz));
            memcpy(&v, w->mem + ctrs[c].off, sz);
            int64_t u = ctr_units(&ctrs[c], &v, what), want = ctr_expect(&ctrs[c], n);
            if (u != want)
                SX_FAIL("%s: %s counter ends at %lld, expected %lld (%lld updates of %d ranks)", what,
                        ctrs[c].name, (long long)u, (long long)want, (long long)n, nranks);
            check_fetched(&ctrs[c], g->buf, g->per_rank, rounds, c, what);
        }
        for (size_t i = 0; i < WSIZE; i++)
            if (!counter_byte(i) && w->mem[i] != rt_bg(i))
                rt_fail(__FILE__, __LINE__, what, i, w->mem[i], rt_bg(i));
    } else {
        RT_EXPECT_BG(w->mem, 0, WSIZE, what);
    }
    CHECK_OK(orma_barrier());
    free(res);
    free(units);
    free(excl);
}

int main(int argc, char **argv)
{
    unsigned nph = 0;
    struct sx_gather g;

    rt_init(&argc, &argv, &rank, &nranks);
    sx_open();
    sx_gather_open(&g, (size_t)sx_rounds(BASE_ROUNDS) * sx_mapped_factor(MAPPED_FACTOR) * NCTR);
    for (int kind = 0; kind < ST_NKINDS; kind++) {
        struct st_win w;
        st_win_open(&w, kind, WSIZE);
        for (int mode = 0; mode < SX_NMODES; mode++, nph++)
            phase(&w, &g, mode, (int)(nph % (unsigned)nranks), sx_rounds_for(kind, BASE_ROUNDS, MAPPED_FACTOR),
                  nph);
        st_win_close(&w);
    }
    sx_gather_close(&g);
    sx_close();
    if (rank == 0)
        printf("stress_counter: %u phases of %u or %u rounds of %d fetch_and_op per rank, %d ranks: ok (rank 0 "
               "found another rank's update before its next %lu times)\n", nph, sx_rounds(BASE_ROUNDS),
               sx_rounds(BASE_ROUNDS) * sx_mapped_factor(MAPPED_FACTOR), NCTR, nranks, interleaved);
    CHECK_OK(orma_finalize());
    return 0;
}
