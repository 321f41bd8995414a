/* bsp_pop_null.c -- pops of NULL-ident registrations out of LIFO order.
 *
 * Some processes (the owners) push two areas A and B of real memory, in
 * that order; the others push NULL with size 0 for both (bsp.h: a process
 * that holds none of an area pushes size 0, ident NULL or not).  Then the
 * owners pop A, the older one, while the others pop NULL: that pop is the
 * one of A everywhere, and B stays registered.  Checked: puts to B on every
 * owner (the others name it by NULL, their latest registration of it) land
 * before, in the superstep of and after the pop; A's memory, popped, is
 * never written again; later supersteps push and pop other areas
 * normally, and pop B in the end.
 *
 * Owners: process 0 alone; every process but 0; and (3 processes or more)
 * the last process alone.  At 1 process only the first applies. */
#include "bsp_test.h"

enum { G = 32, NA = 96, NB = 128, SLOT = 8, NC = 64 };

static int p, me, right, left, step;

struct area {
    unsigned char buf[G + 256 + G], want[G + 256 + G];
    size_t size;
    const char *name;
};

static unsigned char *at(struct area *a) { return a->buf + G; }

static void area_init(struct area *a, size_t size, const char *name)
{
    a->size = size;
    a->name = name;
    bt_guard(a->buf, sizeof a->buf);
    bt_fill(at(a), size, bt_seed(BT_BG, step, -1, me, (int)size), 0);
    memcpy(a->want, a->buf, sizeof a->buf);
}

static void area_check(struct area *a, const char *owners, const char *when)
{
    char what[200];
    snprintf(what, sizeof what, "%s (owners: %s) %s (guards: first and last %d bytes)", a->name, owners, when, G);
    CHECK_SAME(a->buf, a->want, sizeof a->buf, what);
}

/* every process puts SLOT bytes into its slot of B on every owner, through
 * its own ident of B (NULL on the others) */
static void put_b(int (*owner)(int), void *b_ident, int tag)
{
    unsigned char src[SLOT];
    for (int q = 0; q < p; q++) {
        if (!owner(q))
            continue;
        bt_fill(src, SLOT, bt_seed(BT_DATA, step, me, q, tag), 0);
        bsp_put(q, src, b_ident, me * SLOT, SLOT);
        memset(src, 0, sizeof src);
    }
}

/* on an owner: the slots of B that put_b of superstep s filled */
static void landed_b(struct area *b, int s, int tag)
{
    for (int r = 0; r < p; r++)
        bt_fill(b->want + G + (size_t)r * SLOT, SLOT, bt_seed(BT_DATA, s, r, me, tag), 0);
}

static int owner_p0(int q) { return q == 0; }
static int owner_not_p0(int q) { return q != 0; }
static int owner_last(int q) { return q == p - 1; }

static void run(int (*owner)(int), const char *owners)
{
    int mine = owner(me);
    struct area a, b, c;
    area_init(&a, NA, "area A");
    area_init(&b, NB, "area B");
    CHECK((size_t)p * SLOT <= NB);
    void *a_ident = mine ? at(&a) : NULL, *b_ident = mine ? at(&b) : NULL;

    bsp_push_reg(a_ident, mine ? NA : 0);
    bsp_push_reg(b_ident, mine ? NB : 0);
    bsp_sync();
    step++;

    /* both registered: puts to B through every process's ident; an owner
     * also puts into its own A */
    put_b(owner, b_ident, 1);
    unsigned char sa[16];
    if (mine) {
        bt_fill(sa, sizeof sa, bt_seed(BT_DATA, step, me, me, 2), 0);
        bsp_put(me, sa, a_ident, NA - (int)sizeof sa, (int)sizeof sa);
        bt_fill(a.want + G + NA - sizeof sa, sizeof sa, bt_seed(BT_DATA, step, me, me, 2), 0);
    }
    bsp_sync();
    step++;
    if (mine)
        landed_b(&b, step - 1, 1);
    area_check(&a, owners, "after a put to it");
    area_check(&b, owners, "after puts from every process");

    /* the older registration popped: A on the owners, NULL on the others;
     * puts to B in the same superstep land */
    bsp_pop_reg(a_ident);
    put_b(owner, b_ident, 3);
    bsp_sync();
    step++;
    if (mine)
        landed_b(&b, step - 1, 3);
    area_check(&a, owners, "after the superstep of its pop");
    area_check(&b, owners, "after puts in the superstep of A's pop");

    /* B still registered, A not: puts to B land, A is left alone */
    if (mine)
        bt_fill(at(&a), NA, bt_seed(BT_BG, step, -2, me, 0), 0); /* the program's memory again */
    memcpy(a.want, a.buf, sizeof a.buf);
    put_b(owner, b_ident, 4);
    bsp_sync();
    step++;
    if (mine)
        landed_b(&b, step - 1, 4);
    area_check(&a, owners, "popped, after puts to B");
    area_check(&b, owners, "after puts the superstep after A's pop");

    /* pushes and pops keep working: a new area C on every process, taking
     * puts from the left neighbour, beside B */
    area_init(&c, NC, "area C");
    bsp_push_reg(at(&c), NC);
    bsp_sync();
    step++;
    unsigned char sc[24];
    bt_fill(sc, sizeof sc, bt_seed(BT_DATA, step, me, right, 5), 0);
    bsp_put(right, sc, at(&c), 8, (int)sizeof sc);
    memset(sc, 0, sizeof sc);
    put_b(owner, b_ident, 6);
    bsp_sync();
    step++;
    bt_fill(c.want + G + 8, sizeof sc, bt_seed(BT_DATA, step - 1, left, me, 5), 0);
    if (mine)
        landed_b(&b, step - 1, 6);
    area_check(&c, owners, "after a put from the left neighbour");
    area_check(&b, owners, "after puts beside a new registration");

    /* pop C (pushed last) and B, the remaining NULL registration */
    bsp_pop_reg(at(&c));
    bsp_pop_reg(b_ident);
    put_b(owner, b_ident, 7);
    bsp_sync();
    step++;
    if (mine)
        landed_b(&b, step - 1, 7);
    area_check(&b, owners, "after puts in the superstep of its pop");
    area_check(&a, owners, "popped, at the end");

    /* and the same idents can be registered again */
    bsp_push_reg(b_ident, mine ? NB : 0);
    bsp_sync();
    step++;
    put_b(owner, b_ident, 8);
    bsp_sync();
    step++;
    if (mine)
        landed_b(&b, step - 1, 8);
    area_check(&b, owners, "registered again, after puts");
    bsp_pop_reg(b_ident);
    bsp_sync();
    step++;
}

int main(void)
{
    bt_begin_ring(&me, &p, &left, &right);
    run(owner_p0, "process 0");
    if (p >= 2)
        run(owner_not_p0, "every process but 0");
    if (p >= 3)
        run(owner_last, "the last process");
    bsp_end();
    return 0;
}
