/* bsp_reg.c -- bsp_push_reg and bsp_pop_reg.
 *
 *   A  heap, static and stack areas registered together, with sizes that
 *      differ per process: every process puts to the last bytes of every
 *      target's area (beyond its own area when the target's is larger) and
 *      gets from each; then the three are popped in another order than
 *      pushed, and puts issued in the superstep of the pops still land.
 *   B  the idiom bsp_push_reg(pid == 0 ? array : NULL, pid == 0 ? n : 0):
 *      the others put into and get from process 0's array through their
 *      NULL ident; the same with a non-NULL ident of size 0, and with a
 *      normal registration pushed after it in the same superstep.
 *   C  one ident pushed twice (sizes 8 then 64, in one superstep and in
 *      two): the latest holds, so a put at offset 32 lands; a pop removes
 *      the latest only (at the next sync: a put at offset 40 in the pop's
 *      superstep lands), the size-8 one still takes puts; re-registration
 *      after the pops with another size; a pop and a push of the same
 *      ident in one superstep (the old registration serves that superstep,
 *      the new one the next).
 *   D  300 registrations, adjacent in one array with sizes that differ per
 *      process, pushed in one superstep; puts to the last bytes of each;
 *      popped in two supersteps (the still registered ones keep working);
 *      pushed again in reverse order with other sizes.
 *   E  1024 registrations (bsp.h's limit per superstep) pushed in one
 *      superstep and popped in one; puts to some of them.
 *   F  areas of whole pages: 3 MB of heap, 5 pages of static and 3 pages
 *      of stack memory, each also with a second registration inside or
 *      overlapping it; puts through both idents, of up to 1 MB; after the
 *      pops the heap area is freed, allocated again and registered again,
 *      and the memory of a popped area is the program's again.
 * Every area sits between guard bytes, and all of it is compared with an
 * image of what must be there after every superstep. */
#include "bsp_test.h"

enum { G = 32 };

static int p, me, right, left;
static int step; /* counts supersteps, for the values */

/* An area to register: size bytes at buf + G, guards around. */
struct area {
    unsigned char *buf, *want;
    size_t size; /* the bytes between the guards */
    const char *name;
};

static void area_init(struct area *a, unsigned char *buf, size_t size, const char *name)
{
    a->buf = buf;
    a->size = size;
    a->want = bt_alloc(size + 2 * G);
    a->name = name;
    bt_guard(buf, G);
    bt_guard(buf + G + size, G);
    bt_fill(buf + G, size, bt_seed(BT_BG, step, -1, me, (int)size), 0);
    memcpy(a->want, buf, size + 2 * G);
}

static void area_land(struct area *a, size_t off, size_t len, unsigned seed, size_t from)
{
    CHECK(off + len <= a->size);
    bt_fill(a->want + G + off, len, seed, from);
}

static void area_check(struct area *a, const char *when)
{
    char what[128];
    snprintf(what, sizeof what, "%s %s (guards: first and last %d bytes)", a->name, when, G);
    CHECK_SAME(a->buf, a->want, a->size + 2 * G, what);
}

static void sync_step(void)
{
    bsp_sync();
    step++;
}

/* ---- A ---- */

static unsigned char static_buf[G + 256 + G];

static size_t size_heap(int q) { return 64 * (size_t)(q + 1); }
static size_t size_static(int q) { return 256 - 32 * (size_t)q; }
static size_t size_stack(int q) { return 100 + 25 * (size_t)q; }

/* process r's 4 bytes at the end of q's area of size sz(q) */
static void put_to_ends(struct area *a[3], size_t (*sz[3])(int), int tag)
{
    /* the data carries the superstep of the call (step) */
    unsigned char src[4];
    for (int q = 0; q < p; q++)
        for (int i = 0; i < 3; i++) {
            bt_fill(src, 4, bt_seed(BT_DATA, step, me, q, tag + i), 0);
            bsp_put(q, src, a[i]->buf + G, (int)(sz[i](q) - 4 * (size_t)(me + 1)), 4);
            memset(src, 0, sizeof src);
        }
}

static void landed_at_ends(struct area *a[3], size_t (*sz[3])(int), int tag, int at_step)
{
    for (int r = 0; r < p; r++)
        for (int i = 0; i < 3; i++)
            area_land(a[i], sz[i](me) - 4 * (size_t)(r + 1), 4, bt_seed(BT_DATA, at_step, r, me, tag + i), 0);
}

static void part_a(void)
{
    unsigned char stack_buf[G + 200 + G];
    unsigned char *heap_buf = bt_alloc(G + 256 + G);
    struct area heap, stat, stack;
    int init_step = step;
    area_init(&heap, heap_buf, size_heap(me), "heap area");
    area_init(&stat, static_buf, size_static(me), "static area");
    area_init(&stack, stack_buf, size_stack(me), "stack area");
    struct area *a[3] = {&heap, &stat, &stack};
    size_t (*sz[3])(int) = {size_heap, size_static, size_stack};

    bsp_push_reg(heap.buf + G, (int)heap.size);
    bsp_push_reg(stat.buf + G, (int)stat.size);
    bsp_push_reg(stack.buf + G, (int)stack.size);
    sync_step();

    /* puts to the ends, gets from the starts (never put to) */
    put_to_ends(a, sz, 0);
    unsigned char *got = bt_alloc((size_t)p * 3 * 8 + 2 * G), *want = bt_alloc((size_t)p * 3 * 8 + 2 * G);
    bt_guard(got, (size_t)p * 3 * 8 + 2 * G);
    memcpy(want, got, (size_t)p * 3 * 8 + 2 * G);
    for (int q = 0; q < p; q++)
        for (int i = 0; i < 3; i++)
            bsp_get(q, a[i]->buf + G, 1, got + G + ((size_t)q * 3 + (size_t)i) * 8, 8);
    sync_step();
    landed_at_ends(a, sz, 0, step - 1);
    for (int i = 0; i < 3; i++)
        area_check(a[i], "after puts to the ends of areas of different sizes");
    for (int q = 0; q < p; q++)
        for (int i = 0; i < 3; i++)
            bt_fill(want + G + ((size_t)q * 3 + (size_t)i) * 8, 8, bt_seed(BT_BG, init_step, -1, q, (int)sz[i](q)), 1);
    CHECK_SAME(got, want, (size_t)p * 3 * 8 + 2 * G, "bytes got from the three areas of every process");

    /* pops in another order; the puts of the pops' superstep still land */
    bsp_pop_reg(stat.buf + G);
    bsp_pop_reg(heap.buf + G);
    bsp_pop_reg(stack.buf + G);
    put_to_ends(a, sz, 10);
    sync_step();
    landed_at_ends(a, sz, 10, step - 1);
    for (int i = 0; i < 3; i++)
        area_check(a[i], "after puts in the superstep of its pop");
    free(want);
    free(got);
    free(heap.want);
    free(stat.want);
    free(stack.want);
    free(heap_buf);
}

/* ---- B ---- */

static void part_b(void)
{
    int n = 4 * p + 3;
    int *array = me == 0 ? bt_alloc((size_t)(n + 2) * sizeof(int)) : NULL;
    if (me == 0)
        for (int i = 0; i < n + 2; i++)
            array[i] = -7 - i;
    int *arr = me == 0 ? array + 1 : NULL; /* array[0] and array[n + 1] are guards */
    bsp_push_reg(arr, me == 0 ? n * (int)sizeof(int) : 0);
    /* a normal registration after it: the k-th pushes still match up */
    int box[3] = {-1, -1, -1};
    bsp_push_reg(&box[1], (int)sizeof(int));
    sync_step();

    int v[4];
    for (int i = 0; i < 4; i++)
        v[i] = 1000 * step + 10 * me + i;
    bsp_put(0, v, arr, me * 4 * (int)sizeof(int), 4 * (int)sizeof(int));
    int mark = 5000 + step * 10 + me;
    bsp_put(right, &mark, &box[1], 0, (int)sizeof(int));
    sync_step();
    CHECK_EQ(box[0], -1);
    CHECK_EQ(box[1], 5000 + (step - 1) * 10 + left);
    CHECK_EQ(box[2], -1);
    if (me == 0) {
        CHECK_EQ(array[0], -7);
        for (int r = 0; r < p; r++)
            for (int i = 0; i < 4; i++)
                CHECK_EQ(arr[r * 4 + i], 1000 * (step - 1) + 10 * r + i);
        for (int i = 4 * p; i < n; i++)
            CHECK_EQ(arr[i], -8 - i);
        CHECK_EQ(array[n + 1], -7 - (n + 1));
        arr[4 * p] = 424242;
    }
    /* everybody reads process 0's array through its own ident */
    int back[3] = {-1, -1, -1};
    bsp_get(0, arr, (me * 4 + 2) * (int)sizeof(int), &back[1], (int)sizeof(int));
    int tail = -1;
    bsp_get(0, arr, 4 * p * (int)sizeof(int), &tail, (int)sizeof(int));
    sync_step();
    CHECK_EQ(back[0], -1);
    CHECK_EQ(back[1], 1000 * (step - 2) + 10 * me + 2);
    CHECK_EQ(back[2], -1);
    CHECK_EQ(tail, 424242);
    bsp_pop_reg(arr);
    bsp_pop_reg(&box[1]);
    sync_step();

    /* the same with a non-NULL ident of size 0 on the others */
    char none;
    void *ident = me == 0 ? (void *)arr : (void *)&none;
    bsp_push_reg(ident, me == 0 ? n * (int)sizeof(int) : 0);
    sync_step();
    for (int i = 0; i < 4; i++)
        v[i] = 1000 * step + 10 * me + i + 3;
    bsp_put(0, v, ident, me * 4 * (int)sizeof(int), 4 * (int)sizeof(int));
    sync_step();
    if (me == 0) {
        CHECK_EQ(array[0], -7);
        for (int r = 0; r < p; r++)
            for (int i = 0; i < 4; i++)
                CHECK_EQ(arr[r * 4 + i], 1000 * (step - 1) + 10 * r + i + 3);
        CHECK_EQ(arr[4 * p], 424242);
        CHECK_EQ(array[n + 1], -7 - (n + 1));
    }
    bsp_pop_reg(ident);
    sync_step();
    free(array);
}

/* ---- C ---- */

static void part_c(void)
{
    unsigned char *bbuf = bt_alloc(G + 128 + G);
    struct area b;
    area_init(&b, bbuf, 128, "twice-pushed area");
    unsigned char *ident = b.buf + G;
    unsigned char src[32];

    /* c1: 8 then 64 in one superstep */
    bsp_push_reg(ident, 8);
    bsp_push_reg(ident, 64);
    sync_step();
    bt_fill(src, 16, bt_seed(BT_DATA, step, me, right, 1), 0);
    bsp_put(right, src, ident, 32, 16);
    bt_fill(src, 16, bt_seed(BT_JUNK, step, me, right, 1), 0);
    sync_step();
    area_land(&b, 32, 16, bt_seed(BT_DATA, step - 1, left, me, 1), 0);
    area_check(&b, "after a put at offset 32 (sizes 8 then 64 pushed)");

    /* c2: pop the 64 one; in the same superstep a put at 40 still lands */
    bsp_pop_reg(ident);
    bt_fill(src, 16, bt_seed(BT_DATA, step, me, right, 2), 0);
    bsp_put(right, src, ident, 40, 16);
    sync_step();
    area_land(&b, 40, 16, bt_seed(BT_DATA, step - 1, left, me, 2), 0);
    area_check(&b, "after a put at offset 40 in the superstep of the pop");
    /* the size-8 registration remains */
    bt_fill(src, 8, bt_seed(BT_DATA, step, me, right, 3), 0);
    bsp_put(right, src, ident, 0, 8);
    sync_step();
    area_land(&b, 0, 8, bt_seed(BT_DATA, step - 1, left, me, 3), 0);
    area_check(&b, "after a put through the remaining size-8 registration");
    bsp_pop_reg(ident);
    sync_step();

    /* c3: 8, then 64 in the next superstep */
    bsp_push_reg(ident, 8);
    sync_step();
    bsp_push_reg(ident, 64);
    bt_fill(src, 8, bt_seed(BT_DATA, step, me, right, 4), 0);
    bsp_put(right, src, ident, 0, 8); /* the size-8 one holds in this superstep */
    sync_step();
    area_land(&b, 0, 8, bt_seed(BT_DATA, step - 1, left, me, 4), 0);
    bt_fill(src, 32, bt_seed(BT_DATA, step, me, right, 5), 0);
    bsp_put(right, src, ident, 32, 32);
    sync_step();
    area_land(&b, 32, 32, bt_seed(BT_DATA, step - 1, left, me, 5), 0);
    area_check(&b, "after a put at offset 32 (8, then 64 a superstep later)");
    bsp_pop_reg(ident);
    sync_step();
    bsp_pop_reg(ident);
    sync_step();

    /* c4: registered again after the pops, with another size */
    bsp_push_reg(ident, 128);
    sync_step();
    bt_fill(src, 28, bt_seed(BT_DATA, step, me, right, 6), 0);
    bsp_put(right, src, ident, 100, 28);
    sync_step();
    area_land(&b, 100, 28, bt_seed(BT_DATA, step - 1, left, me, 6), 0);
    area_check(&b, "after a put at offset 100 (re-registered with size 128)");

    /* c5: popped and pushed again (size 24) in one superstep */
    bsp_pop_reg(ident);
    bsp_push_reg(ident, 24);
    bt_fill(src, 20, bt_seed(BT_DATA, step, me, right, 7), 0);
    bsp_put(right, src, ident, 108, 20); /* the size-128 one still */
    sync_step();
    area_land(&b, 108, 20, bt_seed(BT_DATA, step - 1, left, me, 7), 0);
    bt_fill(src, 8, bt_seed(BT_DATA, step, me, right, 8), 0);
    bsp_put(right, src, ident, 16, 8);
    sync_step();
    area_land(&b, 16, 8, bt_seed(BT_DATA, step - 1, left, me, 8), 0);
    area_check(&b, "after puts around a pop and push in one superstep");
    bsp_pop_reg(ident);
    sync_step();
    free(b.want);
    free(bbuf);
}

/* ---- D ---- */

enum { NREG = 300, STRIDE = 24 };

static size_t size1(int i, int q) { return 16 - (size_t)((i + q) % 4); }
static size_t size2(int i, int q) { return 24 - (size_t)((i + 2 * q) % 3); }

/* puts to the last bytes of registration i of the right neighbour, for
 * every i with (i % 2) in which (0: even, 1: odd, 2: all) */
static void put_regs(unsigned char *base, size_t (*sz)(int, int), int which)
{
    unsigned char src[16];
    for (int i = 0; i < NREG; i++) {
        if (which != 2 && i % 2 != which)
            continue;
        size_t len = 4 + (size_t)(i % 8);
        bt_fill(src, len, bt_seed(BT_DATA, step, me, right, i), 0);
        bsp_put(right, src, base + (size_t)i * STRIDE, (int)(sz(i, right) - len), (int)len);
        memset(src, 0, sizeof src);
    }
}

static void landed_regs(struct area *a, size_t (*sz)(int, int), int which, int at_step)
{
    for (int i = 0; i < NREG; i++) {
        if (which != 2 && i % 2 != which)
            continue;
        size_t len = 4 + (size_t)(i % 8);
        area_land(a, (size_t)i * STRIDE + sz(i, me) - len, len, bt_seed(BT_DATA, at_step, left, me, i), 0);
    }
}

static void part_d(void)
{
    unsigned char *dbuf = bt_alloc(G + NREG * STRIDE + G);
    struct area d;
    area_init(&d, dbuf, NREG * STRIDE, "array of 300 registrations");
    unsigned char *base = d.buf + G;

    for (int i = 0; i < NREG; i++)
        bsp_push_reg(base + (size_t)i * STRIDE, (int)size1(i, me));
    sync_step();
    put_regs(base, size1, 2);
    sync_step();
    landed_regs(&d, size1, 2, step - 1);
    area_check(&d, "after puts to all 300");

    /* pop the odd ones; puts to all in the same superstep land */
    for (int i = 1; i < NREG; i += 2)
        bsp_pop_reg(base + (size_t)i * STRIDE);
    put_regs(base, size1, 2);
    sync_step();
    landed_regs(&d, size1, 2, step - 1);
    area_check(&d, "after puts in the superstep the odd ones were popped");
    put_regs(base, size1, 0);
    sync_step();
    landed_regs(&d, size1, 0, step - 1);
    area_check(&d, "after puts to the even ones, the odd ones popped");
    for (int i = NREG - 2; i >= 0; i -= 2)
        bsp_pop_reg(base + (size_t)i * STRIDE);
    sync_step();

    /* again, in reverse order and with other sizes */
    for (int i = NREG - 1; i >= 0; i--)
        bsp_push_reg(base + (size_t)i * STRIDE, (int)size2(i, me));
    sync_step();
    put_regs(base, size2, 2);
    sync_step();
    landed_regs(&d, size2, 2, step - 1);
    area_check(&d, "after puts to all 300 registered again with other sizes");
    for (int i = 0; i < NREG; i++)
        bsp_pop_reg(base + (size_t)i * STRIDE);
    sync_step();
    free(d.want);
    free(dbuf);
}

/* ---- E ---- */

enum { NMAX = 1024 };

static void part_e(void)
{
    unsigned char *ebuf = bt_alloc(G + NMAX * 8 + G);
    struct area e;
    area_init(&e, ebuf, NMAX * 8, "array of 1024 registrations");
    unsigned char *base = e.buf + G;
    for (int i = 0; i < NMAX; i++)
        bsp_push_reg(base + (size_t)i * 8, 8);
    sync_step();
    unsigned char src[8];
    for (int i = 0; i < NMAX; i += 97) {
        bt_fill(src, 8, bt_seed(BT_DATA, step, me, right, i), 0);
        bsp_put(right, src, base + (size_t)i * 8, 0, 8);
    }
    bt_fill(src, 8, bt_seed(BT_DATA, step, me, right, NMAX - 1), 0);
    bsp_put(right, src, base + (size_t)(NMAX - 1) * 8, 0, 8);
    sync_step();
    for (int i = 0; i < NMAX; i += 97)
        area_land(&e, (size_t)i * 8, 8, bt_seed(BT_DATA, step - 1, left, me, i), 0);
    area_land(&e, (size_t)(NMAX - 1) * 8, 8, bt_seed(BT_DATA, step - 1, left, me, NMAX - 1), 0);
    area_check(&e, "after puts to some of 1024 registrations");
    for (int i = 0; i < NMAX; i++)
        bsp_pop_reg(base + (size_t)i * 8);
    sync_step();
    free(e.want);
    free(ebuf);
}

/* ---- F ---- */

enum { PAGE = 4096, HEAP_F = 3 << 20, STATIC_F = 5 * PAGE, STACK_F = 3 * PAGE + 100, BIGPUT = 1 << 20 };

static unsigned char static_pages[G + STATIC_F + G];

/* puts of `len` bytes (tag selects the data) into ident at off of the
 * right neighbour; its image gets what the left neighbour sent */
static void put_f(struct area *a, unsigned char *ident, size_t off, size_t len, int tag, unsigned char *src)
{
    bt_fill(src, len, bt_seed(BT_DATA, step, me, right, tag), 0);
    bsp_put(right, src, ident, (int)off, (int)len);
    bt_fill(src, len, bt_seed(BT_JUNK, step, me, right, tag), 0);
    area_land(a, (size_t)(ident - (a->buf + G)) + off, len, bt_seed(BT_DATA, step, left, me, tag), 0);
}

static void part_f(void)
{
    unsigned char stack_pages[G + STACK_F + G];
    unsigned char *src = bt_alloc(BIGPUT);
    struct area heap, stat, stack;
    area_init(&heap, bt_alloc(G + HEAP_F + G), HEAP_F, "3 MB heap area");
    area_init(&stat, static_pages, STATIC_F, "5-page static area");
    area_init(&stack, stack_pages, STACK_F, "3-page stack area");
    unsigned char *h = heap.buf + G, *st = stat.buf + G, *sk = stack.buf + G;
    bsp_push_reg(h, HEAP_F);
    bsp_push_reg(h + PAGE, 2 * PAGE);       /* inside the first */
    bsp_push_reg(st, STATIC_F);
    bsp_push_reg(st + 100, 3 * PAGE);       /* overlapping it */
    bsp_push_reg(sk, STACK_F);
    bsp_push_reg(sk + 2 * PAGE, PAGE + 50); /* its end */
    sync_step();
    put_f(&heap, h, 100, 2000, 1, src);
    put_f(&heap, h + PAGE, 10, 2000, 2, src);
    put_f(&heap, h, 1 << 20, BIGPUT, 3, src);
    put_f(&heap, h + PAGE, 2 * PAGE - 7, 7, 4, src);
    put_f(&stat, st + 100, 5000, 2000, 5, src);
    put_f(&stat, st, 9000, 1500, 6, src);
    put_f(&stat, st, STATIC_F - 3000, 3000, 7, src);
    put_f(&stack, sk, 4000, 2000, 8, src);
    put_f(&stack, sk + 2 * PAGE, PAGE + 50 - 60, 60, 9, src);
    sync_step();
    area_check(&heap, "after puts through both of its registrations");
    area_check(&stat, "after puts through both of its registrations");
    area_check(&stack, "after puts through both of its registrations");

    bsp_pop_reg(h);
    bsp_pop_reg(h + PAGE);
    bsp_pop_reg(st);
    bsp_pop_reg(st + 100);
    bsp_pop_reg(sk);
    bsp_pop_reg(sk + 2 * PAGE);
    sync_step();
    area_check(&heap, "after its pop");
    area_check(&stat, "after its pop");
    area_check(&stack, "after its pop");
    /* the memory is the program's again */
    memset(st, 0x5a, STATIC_F);
    for (size_t i = 0; i < STATIC_F; i++)
        CHECK(st[i] == 0x5a);
    memset(sk, 0xa5, STACK_F);
    for (size_t i = 0; i < STACK_F; i++)
        CHECK(sk[i] == 0xa5);
    free(heap.want);
    free(heap.buf);

    /* a new heap area, registered again */
    struct area heap2;
    area_init(&heap2, bt_alloc(G + HEAP_F + G), HEAP_F, "3 MB heap area allocated again");
    unsigned char *h2 = heap2.buf + G;
    bsp_push_reg(h2, HEAP_F);
    sync_step();
    put_f(&heap2, h2, 12345, BIGPUT, 10, src);
    put_f(&heap2, h2, HEAP_F - 8, 8, 11, src);
    sync_step();
    area_check(&heap2, "after puts");
    bsp_pop_reg(h2);
    sync_step();
    memset(h2, 0x33, HEAP_F);
    for (size_t i = 0; i < HEAP_F; i += 997)
        CHECK(h2[i] == 0x33);
    free(heap2.want);
    free(heap2.buf);
    free(stat.want);
    free(stack.want);
    free(src);
}

int main(void)
{
    bt_begin_ring(&me, &p, &left, &right);
    part_a();
    part_b();
    part_c();
    part_d();
    part_e();
    part_f();
    bsp_end();
    return 0;
}
