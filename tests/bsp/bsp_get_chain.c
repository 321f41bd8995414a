/* bsp_get_chain.c -- chained bsp_gets: every get of a superstep reads its
 * source as it is at the END of the superstep, before any put or get of
 * the superstep has landed -- also when the source is itself the
 * destination of another get of the same superstep, on this process or on
 * another.
 *
 * Every process has three registered areas X, Y and Z and an unregistered
 * buffer W, each between guard bytes.  In every superstep each process
 * issues its gets, then rewrites the first n bytes of X, Y and Z with this
 * superstep's late values (what the gets must see), and calls bsp_sync.
 * Variants, for n = 8 B, 4 KB and 256 KB, each in both program orders:
 *   self   get(right, X) -> Y and get(me, Y) -> W: W is this process's
 *          late Y, not what the first get brought into it;
 *   cross  get(right, X) -> Y and get(left, Y) -> W: W is the left
 *          neighbour's late Y, whether or not that neighbour's own get
 *          into Y has been served yet;
 *   three  get(right, X) -> Y, get(left, Y) -> Z, get(right, Z) -> W:
 *          Z is the left neighbour's late Y, W the right neighbour's late Z;
 *   put    cross, and a put from the left neighbour into the first half of
 *          this process's Y: the put lands after the gets, so Y's first
 *          half is the put's data, its second half the right neighbour's
 *          late X, and W (read by the get) is the late Y without the put.
 * After every sync each area and W must hold exactly what is expected,
 * guards included. */
#include "bsp_test.h"

enum { G = 64, NMAX = 256 * 1024 };

enum { V_SELF, V_CROSS, V_THREE, V_PUT, NVAR };
static const char *const var_name[NVAR] = {"self", "cross", "three", "put"};

static int p, me, right, left, step;

/* An area: NMAX bytes between guards; want is its image. */
struct area {
    unsigned char *buf, *want;
    const char *name;
};

static unsigned char *at(struct area *a) { return a->buf + G; }

static void area_new(struct area *a, const char *name)
{
    a->buf = bt_alloc(NMAX + 2 * G);
    a->want = bt_alloc(NMAX + 2 * G);
    a->name = name;
    bt_guard(a->buf, G);
    bt_guard(a->buf + G + NMAX, G);
    bt_fill(a->buf + G, NMAX, bt_seed(BT_INIT, 0, me, 0, name[0]), 0);
    memcpy(a->want, a->buf, NMAX + 2 * G);
}

static void area_free(struct area *a)
{
    free(a->buf);
    free(a->want);
}

/* Process q's late value of area `which` ('X', 'Y', 'Z') in superstep s. */
static unsigned late(int s, int q, int which)
{
    return bt_seed(BT_LATE, s, q, -1, which);
}

/* this process's late write: the first n bytes, in the image too */
static void write_late(struct area *a, int which, size_t n)
{
    bt_fill(at(a), n, late(step, me, which), 0);
    bt_fill(a->want + G, n, late(step, me, which), 0);
}

static void check(struct area *a, int var, int order, size_t n)
{
    char what[160];
    snprintf(what, sizeof what, "%s after superstep %d (variant %s, order %d, %zu bytes; guards: first and last %d)",
             a->name, step, var_name[var], order, n, G);
    CHECK_SAME(a->buf, a->want, NMAX + 2 * G, what);
}

static void run(struct area *x, struct area *y, struct area *z, struct area *w, int var, int order, size_t n)
{
    unsigned char *src = NULL;
    /* the gets; order 1 issues them in reverse */
    if (var == V_THREE) {
        if (!order) {
            bsp_get(right, at(x), 0, at(y), (int)n);
            bsp_get(left, at(y), 0, at(z), (int)n);
            bsp_get(right, at(z), 0, at(w), (int)n);
        } else {
            bsp_get(right, at(z), 0, at(w), (int)n);
            bsp_get(left, at(y), 0, at(z), (int)n);
            bsp_get(right, at(x), 0, at(y), (int)n);
        }
    } else {
        int from = var == V_SELF ? me : left;
        if (!order) {
            bsp_get(right, at(x), 0, at(y), (int)n);
            bsp_get(from, at(y), 0, at(w), (int)n);
        } else {
            bsp_get(from, at(y), 0, at(w), (int)n);
            bsp_get(right, at(x), 0, at(y), (int)n);
        }
    }
    if (var == V_PUT) {
        src = bt_alloc(n / 2);
        bt_fill(src, n / 2, bt_seed(BT_DATA, step, me, right, 0), 0);
        bsp_put(right, src, at(y), 0, (int)(n / 2));
        bt_fill(src, n / 2, bt_seed(BT_JUNK, step, me, right, 0), 0); /* read during the call */
    }
    /* nothing lands before the sync */
    check(y, var, order, n);
    check(w, var, order, n);
    /* the values at the end of the superstep; let the others issue their
     * gets first, so that a get served early would see the old ones */
    bt_sleep_ms(2);
    write_late(x, 'X', n);
    write_late(y, 'Y', n);
    write_late(z, 'Z', n);
    bsp_sync();

    /* what landed */
    bt_fill(y->want + G, n, late(step, right, 'X'), 0);
    if (var == V_THREE) {
        bt_fill(z->want + G, n, late(step, left, 'Y'), 0);
        bt_fill(w->want + G, n, late(step, right, 'Z'), 0);
    } else {
        bt_fill(w->want + G, n, late(step, var == V_SELF ? me : left, 'Y'), 0);
    }
    if (var == V_PUT)
        bt_fill(y->want + G, n / 2, bt_seed(BT_DATA, step, left, me, 0), 0);
    check(x, var, order, n);
    check(y, var, order, n);
    check(z, var, order, n);
    check(w, var, order, n);
    free(src);
    step++;
}

int main(void)
{
    bt_begin_ring(&me, &p, &left, &right);

    struct area x, y, z, w;
    area_new(&x, "X");
    area_new(&y, "Y");
    area_new(&z, "Z");
    area_new(&w, "W (unregistered)");
    bsp_push_reg(at(&x), NMAX);
    bsp_push_reg(at(&y), NMAX);
    bsp_push_reg(at(&z), NMAX);
    bsp_sync();
    step++;

    static const size_t sizes[] = {8, 4096, NMAX};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int var = 0; var < NVAR; var++)
            for (int order = 0; order < 2; order++)
                run(&x, &y, &z, &w, var, order, sizes[i]);

    bsp_pop_reg(at(&z));
    bsp_pop_reg(at(&y));
    bsp_pop_reg(at(&x));
    bsp_sync();
    area_free(&x);
    area_free(&y);
    area_free(&z);
    area_free(&w);
    bsp_end();
    return 0;
}
