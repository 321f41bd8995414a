/* as_def_test.c -- the as suite's data (bench/as/as_def.h), in one process:
 *   - words are never 0 and differ between repetitions, senders and
 *     receivers; the total exchange's fill words differ at every position
 *     and between samples;
 *   - an area filled as P ranks' total exchange leaves it passes as_check,
 *     and each kind of damage is caught: a stale stamp (the repetition
 *     before), a stale fill (the sample before), a word of another
 *     sender, two slots exchanged, a guard word written, a word past the
 *     slots;
 *   - the default sizes are h = p, 2p, ... words, in bytes. */
#include <stdlib.h>
#include <string.h>

#include "as_def.h"
#include "check.h"

static void check_words(void)
{
    for (uint64_t q = 0; q < 64; q++)
        for (int s = 0; s < 4; s++)
            for (int d = 0; d < 4; d++) {
                uint32_t w = as_word(q, s, d, 0);
                CHECK(w != 0);
                CHECK(w != as_word(q + 1, s, d, 0));
                CHECK(w != as_word(q, (s + 1) % 4, d, 0));
                CHECK(w != as_word(q, s, (d + 1) % 4, 0));
            }
    uint32_t base = as_fill_base(7, 1, 2);
    CHECK(base != as_fill_base(8, 1, 2) && base != as_fill_base(7, 2, 1));
    for (size_t i = 1; i < 4096; i++) {
        CHECK(as_fill_word(base, i) != 0);
        CHECK(as_fill_word(base, i) != as_fill_word(base, i - 1));
        CHECK(as_fill_word(base, i) != as_fill_word(as_fill_base(8, 1, 2), i));
    }
}

/* Rank me's area after a total exchange of h words per pair whose sample
 * began at first and whose last repetition was last. */
static void fill(uint32_t *a, size_t h, int p, int me, uint64_t first,
                 uint64_t last)
{
    memset(a, 0, as_area_words(h, p) * sizeof *a);
    for (int s = 0; s < p; s++) {
        uint32_t *slot = a + as_slot(h, s);
        slot[0] = as_word(last, s, me, 0);
        for (size_t i = 1; i < h; i++)
            slot[i] = as_fill_word(as_fill_base(first, s, me), i);
    }
}

static int ok(const uint32_t *got, const uint32_t *want, size_t h, int p)
{
    char msg[192];
    return as_check(got, want, 0, as_area_words(h, p), h, p, msg, sizeof msg);
}

static void check_damage(size_t h, int p)
{
    size_t n = as_area_words(h, p);
    uint32_t *want = malloc(n * sizeof *want);
    uint32_t *got = malloc(n * sizeof *got);
    CHECK(want != NULL && got != NULL);
    int me = p - 1;
    fill(want, h, p, me, 100, 109);
    fill(got, h, p, me, 100, 109);
    CHECK(ok(got, want, h, p));

    fill(got, h, p, me, 100, 108); /* missed the last repetition */
    CHECK(!ok(got, want, h, p));
    if (h > 1) {
        fill(got, h, p, me, 90, 109); /* the fill of the sample before */
        CHECK(!ok(got, want, h, p));
    }
    fill(got, h, p, me, 100, 109);
    size_t w = as_slot(h, 0) + h / 2;
    got[w] = h / 2 ? as_fill_word(as_fill_base(100, 1 % p, me), h / 2)
                   : as_word(109, 1 % p, me, 0);
    CHECK(p == 1 || !ok(got, want, h, p)); /* another sender's word */
    got[w] = want[w];
    if (p > 1) {
        memcpy(got + as_slot(h, 0), want + as_slot(h, 1), h * sizeof *got);
        memcpy(got + as_slot(h, 1), want + as_slot(h, 0), h * sizeof *got);
        CHECK(!ok(got, want, h, p)); /* slots exchanged */
        memcpy(got, want, n * sizeof *got);
    }
    got[as_slot(h, 0) + h] = 1; /* the guard after slot 0 */
    CHECK(!ok(got, want, h, p));
    got[as_slot(h, 0) + h] = 0;
    got[n - 1] = 1; /* the last guard */
    CHECK(!ok(got, want, h, p));
    got[n - 1] = 0;
    CHECK(ok(got, want, h, p));
    free(got);
    free(want);
}

static void check_sizes(void)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    as_default_sizes(&o, 3);
    CHECK(o.nsizes == 15 && o.sizes[0] == 12 && o.sizes[14] == 3 * 16384 * 4);
    o.quick = 1;
    as_default_sizes(&o, 2);
    CHECK(o.nsizes == 7 && o.sizes[0] == 8 && o.sizes[6] == 8192 * 4);
    CHECK(as_words_of(8) == 2 && as_words_of(6) == 0 && as_words_of(0) == 0);
    CHECK(as_words_of(AS_MAX_H * 4 + 4) == 0);
}

int main(void)
{
    check_words();
    static const size_t hs[] = {1, 2, 3, 64, 1000};
    for (int p = 1; p <= 5; p++)
        for (size_t i = 0; i < sizeof hs / sizeof hs[0]; i++)
            check_damage(hs[i], p);
    check_sizes();
    return 0;
}
