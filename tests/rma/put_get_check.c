/* put_get_check.c -- check mode against the default size-only check.
 *
 * usage: put_get_check check|sizes.  Run as "check" under ORMA_CHECK=1 and
 * as "sizes" without it.  Every case moves the same number of data bytes
 * on both sides.  Where the two sequences of basic types differ, check
 * mode must fail with ORMA_ERR_TYPE, naming the calling rank, the target
 * and the first element that differs, and change no byte of the window (a
 * put) or of the origin buffer (a get); the default must move the bytes
 * exactly as orma_pack/orma_unpack of the two layouts say.  Where they
 * match, both modes move them.  At one rank every rank targets itself. */
#include "rma_test.h"

#include <stdio.h>

enum { WBYTES = 1024, AT = 200, OFF = 64 }; /* window, target offset, origin offset */

struct check_case {
    const char *name;
    int get, typed;      /* orma_get(_typed) or orma_put(_typed) */
    orma_type o, t;      /* origin and target types */
    size_t ocount, tcount;
    const char *differ;  /* NULL: the signatures match; else the message's tail */
};

static int rank, nranks, check_mode;

/* dst after the data of (src, ocount, o) is unpacked into (tcount, t). */
static void land(const unsigned char *src, size_t ocount, orma_type o, unsigned char *dst, size_t tcount, orma_type t)
{
    size_t size, pos = 0;
    CHECK_OK(orma_type_size(o, &size));
    unsigned char *packed = malloc(size * ocount + 1);
    CHECK(packed != NULL);
    CHECK_OK(orma_pack(src, ocount, o, packed, size * ocount, &pos));
    pos = 0;
    CHECK_OK(orma_unpack(packed, size * ocount, &pos, dst, tcount, t));
    free(packed);
}

static void run(const struct check_case *c, orma_win win, unsigned char *mem, unsigned seed)
{
    int rt = (rank + 1) % nranks, lt = (rank + nranks - 1) % nranks;
    const char *call = c->typed ? (c->get ? "orma_get_typed" : "orma_put_typed") : (c->get ? "orma_get" : "orma_put");
    unsigned char *buf = malloc(WBYTES), *want = malloc(WBYTES);
    CHECK(buf && want);
    /* a put sends our data pattern into a background window, a get reads
     * the target's data pattern into a background buffer */
    if (c->get) {
        rt_fill_data(mem, WBYTES, seed + (unsigned)rank, 0);
        rt_fill_bg(buf, WBYTES);
    } else {
        rt_fill_bg(mem, WBYTES);
        rt_fill_data(buf, WBYTES, seed + (unsigned)rank, 0);
    }
    CHECK_OK(orma_win_fence(0, win));
    int rc;
    if (c->typed)
        rc = c->get ? orma_get_typed(buf + OFF, c->ocount, c->o, rt, AT, c->tcount, c->t, win)
                    : orma_put_typed(buf + OFF, c->ocount, c->o, rt, AT, c->tcount, c->t, win);
    else
        rc = c->get ? orma_get(buf + OFF, c->ocount, c->o, rt, AT, c->tcount, c->t, win)
                    : orma_put(buf + OFF, c->ocount, c->o, rt, AT, c->tcount, c->t, win);
    int refused = check_mode && c->differ;
    if (refused) {
        CHECK_ERR(rc, ORMA_ERR_TYPE);
        char msg[256];
        snprintf(msg, sizeof msg, "%s to rank %d: %s", call, rt, c->differ);
        if (!strstr(orma_error_message(), msg)) {
            fprintf(stderr, "rank %d: %s: message \"%s\" lacks \"%s\"\n", rank, c->name, orma_error_message(), msg);
            exit(1);
        }
    } else if (rc != ORMA_SUCCESS) {
        fprintf(stderr, "rank %d: %s (%s mode): %s returned %d: %s\n", rank, c->name, check_mode ? "check" : "sizes",
                call, rc, orma_error_message());
        exit(1);
    }
    CHECK_OK(orma_win_fence(0, win));

    /* what the memory we look at must hold now */
    unsigned char *got = c->get ? buf : mem, *src = malloc(WBYTES);
    CHECK(src != NULL);
    rt_fill_bg(want, WBYTES);
    if (!refused && c->get) {
        rt_fill_data(src, WBYTES, seed + (unsigned)rt, 0);
        land(src + AT, c->tcount, c->t, want + OFF, c->ocount, c->o);
    } else if (!refused) {
        rt_fill_data(src, WBYTES, seed + (unsigned)lt, 0);
        land(src + OFF, c->ocount, c->o, want + AT, c->tcount, c->t);
    }
    for (size_t i = 0; i < WBYTES; i++)
        if (got[i] != want[i]) {
            fprintf(stderr, "rank %d: %s (%s mode): %s byte %zu is 0x%02x, expected 0x%02x%s\n", rank, c->name,
                    check_mode ? "check" : "sizes", c->get ? "origin buffer" : "window", i, got[i], want[i],
                    refused ? " (untouched)" : "");
            exit(1);
        }
    if (!refused) { /* bytes moved that differ from the background: the case tests something */
        rt_fill_bg(src, WBYTES);
        CHECK(memcmp(want, src, WBYTES) != 0);
    }
    free(src);
    free(buf);
    free(want);
}

static orma_type make_struct(size_t n, const size_t *bl, const orma_aint *disp, const orma_type *types)
{
    orma_type t;
    CHECK_OK(orma_type_struct(n, bl, disp, types, &t));
    CHECK_OK(orma_type_commit(&t));
    return t;
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    CHECK(argc == 2 && (!strcmp(argv[1], "check") || !strcmp(argv[1], "sizes")));
    check_mode = !strcmp(argv[1], "check");

    size_t one[2] = {1, 1};
    /* s: {int; float;}; f: {float; int;}; sw: {int; float;} with the float
     * first in memory; b: three s then an f after a gap; di: {double; int;} */
    orma_type s = make_struct(2, one, (orma_aint[]){0, 4}, (orma_type[]){ORMA_INT, ORMA_FLOAT});
    orma_type f = make_struct(2, one, (orma_aint[]){0, 4}, (orma_type[]){ORMA_FLOAT, ORMA_INT});
    orma_type sw = make_struct(2, one, (orma_aint[]){4, 0}, (orma_type[]){ORMA_INT, ORMA_FLOAT});
    orma_type b = make_struct(2, (size_t[]){3, 1}, (orma_aint[]){0, 40}, (orma_type[]){s, f});
    orma_type di = make_struct(2, one, (orma_aint[]){0, 8}, (orma_type[]){ORMA_DOUBLE, ORMA_INT});
    orma_type fv;
    CHECK_OK(orma_type_vector(8, 1, 2, f, &fv));
    CHECK_OK(orma_type_commit(&fv));

    const struct check_case cases[] = {
        {"put_typed {int,float}x8 -> {float,int}x8", 0, 1, s, f, 8, 8,
         "element 0 of the data (byte 0) is ORMA_INT at the origin but ORMA_FLOAT at the target"},
        {"put_typed {int,float}x8 -> strided {float,int}", 0, 1, s, fv, 8, 1,
         "element 0 of the data (byte 0) is ORMA_INT at the origin but ORMA_FLOAT at the target"},
        {"put_typed {int,float}x4 -> {3x{int,float}, gap, {float,int}}", 0, 1, s, b, 4, 1,
         "element 6 of the data (byte 24) is ORMA_INT at the origin but ORMA_FLOAT at the target"},
        {"put_typed {int,float}x8 -> {int,float} swapped in memory x8", 0, 1, s, sw, 8, 8, NULL},
        {"put_typed {double,int}x3 -> ORMA_DOUBLE_INT x3", 0, 1, di, ORMA_DOUBLE_INT, 3, 3, NULL},
        {"get_typed {float,int}x8 <- {int,float}x8", 1, 1, f, s, 8, 8,
         "element 0 of the data (byte 0) is ORMA_FLOAT at the origin but ORMA_INT at the target"},
        {"get_typed {int,float}x8 <- {int,float} swapped x8", 1, 1, s, sw, 8, 8, NULL},
        {"put ORMA_INT x16 -> ORMA_FLOAT x16", 0, 0, ORMA_INT, ORMA_FLOAT, 16, 16,
         "element 0 of the data (byte 0) is ORMA_INT at the origin but ORMA_FLOAT at the target"},
        {"put ORMA_BYTE x64 -> ORMA_INT x16", 0, 0, ORMA_BYTE, ORMA_INT, 64, 16,
         "element 0 of the data (byte 0) is ORMA_BYTE at the origin but ORMA_INT at the target"},
        {"put ORMA_2INT x8 -> ORMA_INT x16", 0, 0, ORMA_2INT, ORMA_INT, 8, 16, NULL},
        {"put ORMA_INT x16 -> ORMA_INT x16", 0, 0, ORMA_INT, ORMA_INT, 16, 16, NULL},
        {"get ORMA_FLOAT x16 <- ORMA_INT x16", 1, 0, ORMA_FLOAT, ORMA_INT, 16, 16,
         "element 0 of the data (byte 0) is ORMA_FLOAT at the origin but ORMA_INT at the target"},
    };

    unsigned char *mem = NULL;
    orma_win win = ORMA_WIN_NULL;
    CHECK_OK(orma_win_allocate(WBYTES, 1, ORMA_INFO_NULL, (void **)&mem, &win));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run(&cases[i], win, mem, (unsigned)(i * 17));
    CHECK_OK(orma_win_free(&win));

    orma_type *types[] = {&s, &f, &sw, &b, &di, &fv};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        CHECK_OK(orma_type_free(types[i]));
    CHECK_OK(orma_finalize());
    if (rank == 0)
        printf("put_get_check (%s mode): %zu cases passed\n", argv[1], sizeof cases / sizeof cases[0]);
    return 0;
}
