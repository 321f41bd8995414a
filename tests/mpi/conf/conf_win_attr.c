/* conf_win_attr.c -- MPI-4.1 section 12.2.6 (Window Attributes), with
 * MPI_Win_get_group, and the window parts of 7.7 (Caching: user keyvals
 * on windows) and 7.8 (Naming Objects):
 *  - MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT, MPI_WIN_CREATE_FLAVOR
 *    and MPI_WIN_MODEL are set on every window; in C the attribute value
 *    of MPI_WIN_BASE is the base itself, the others are pointers to the
 *    values (MPI_Aint for the size, int for the rest);
 *  - base, size and unit are what this rank gave (for allocate and shared
 *    windows: the baseptr returned), also for size 0 (create: base NULL);
 *    a dynamic window has base MPI_BOTTOM, size 0 and unit 1, memory
 *    attached or not;
 *  - the flavour is MPI_WIN_FLAVOR_CREATE, _ALLOCATE, _SHARED or _DYNAMIC
 *    as made, and the model MPI_WIN_UNIFIED or MPI_WIN_SEPARATE;
 *  - MPI_Win_get_group is the group of the communicator (MPI_IDENT), for
 *    MPI_COMM_WORLD, a split of it in reverse order and a duplicate; a new
 *    group each time, freed by the caller;
 *  - user keyvals: unset keys give flag 0; MPI_Win_set_attr stores the
 *    value (replacing one calls the delete callback for the old value);
 *    MPI_Win_delete_attr calls it, with the window, keyval, value and
 *    extra_state; a delete callback's error fails MPI_Win_delete_attr;
 *    MPI_Win_free calls it for every attribute left, also after
 *    MPI_Win_free_keyval (which sets the handle to MPI_KEYVAL_INVALID);
 *    values are per window; the copy callback is never called (windows
 *    are not duplicated); the predefined MPI_WIN_NULL_COPY_FN,
 *    MPI_WIN_DUP_FN and MPI_WIN_NULL_DELETE_FN can be given;
 *  - MPI_Win_set_name / MPI_Win_get_name: the name given (up to
 *    MPI_MAX_OBJECT_NAME - 1 characters) and its length; a new name
 *    replaces the old; a window never named has the empty name. */
#include "conf.h"

#define N 16 /* ints per rank */

/* The five predefined attributes of win against what they must be. */
static void expect_predefined(const char *what, MPI_Win win, void *base, MPI_Aint bytes, int unit, int flavor)
{
    void *b = (void *)&b;
    MPI_Aint *sz = NULL;
    int *du = NULL, *fl = NULL, *model = NULL, flag[5] = {0, 0, 0, 0, 0};
    OK(MPI_Win_get_attr(win, MPI_WIN_BASE, &b, &flag[0]));
    OK(MPI_Win_get_attr(win, MPI_WIN_SIZE, &sz, &flag[1]));
    OK(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &du, &flag[2]));
    OK(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &fl, &flag[3]));
    OK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag[4]));
    static const char *const names[5] = {"MPI_WIN_BASE", "MPI_WIN_SIZE", "MPI_WIN_DISP_UNIT", "MPI_WIN_CREATE_FLAVOR",
                                         "MPI_WIN_MODEL"};
    for (int k = 0; k < 5; k++)
        if (!flag[k])
            fail("%s: %s is not set", what, names[k]);
    /* MPICH 4.0 (ch4, UCX) reports a base on no 16-byte boundary rounded
     * down to one (and its RMA goes there too: see conf_win_create); its
     * own MPI_Win_allocate hands out such bases (it places the ranks'
     * memories back to back) */
    if (b != base && ((uintptr_t)base % 16 == 0 || conf_host_ok(CONF_NOT_MPICH)))
        fail("%s: MPI_WIN_BASE is %p, expected %p", what, b, base);
    if (!sz || !du || !fl || !model)
        fail("%s: a predefined attribute's value is a NULL pointer", what);
    expect("MPI_WIN_SIZE", 0, *sz, bytes);
    expect("MPI_WIN_DISP_UNIT", 0, *du, unit);
    expect("MPI_WIN_CREATE_FLAVOR", 0, *fl, flavor);
    if (*model != MPI_WIN_UNIFIED && *model != MPI_WIN_SEPARATE)
        fail("%s: MPI_WIN_MODEL is %d, neither MPI_WIN_UNIFIED (%d) nor MPI_WIN_SEPARATE (%d)", what, *model,
             MPI_WIN_UNIFIED, MPI_WIN_SEPARATE);
}

/* Every flavour, sizes and units per rank. */
static void predefined(void)
{
    static _Alignas(16) unsigned char area[256];
    int unit = rank % 2 ? 8 : 2;
    MPI_Aint bytes = 16 * (rank + 1) + 3;
    MPI_Win win;
    void *base;

    OK(MPI_Win_allocate(bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    expect_predefined("allocate", win, base, bytes, unit, MPI_WIN_FLAVOR_ALLOCATE);
    OK(MPI_Win_free(&win));
    OK(MPI_Win_allocate(0, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    expect_predefined("allocate of 0 bytes", win, base, 0, 4, MPI_WIN_FLAVOR_ALLOCATE);
    OK(MPI_Win_free(&win));

    OK(MPI_Win_allocate_shared(bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win));
    expect_predefined("allocate_shared", win, base, bytes, unit, MPI_WIN_FLAVOR_SHARED);
    OK(MPI_Win_free(&win));

    if (conf_flavor_here(MT_CREATE)) {
        OK(MPI_Win_create(area + 16, bytes, unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        expect_predefined("create", win, area + 16, bytes, unit, MPI_WIN_FLAVOR_CREATE);
        OK(MPI_Win_free(&win));
        OK(MPI_Win_create(NULL, 0, 16, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        expect_predefined("create with base NULL and size 0", win, NULL, 0, 16, MPI_WIN_FLAVOR_CREATE);
        OK(MPI_Win_free(&win));
        OK(MPI_Win_create(area + 1 + rank % 15, 7, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        expect_predefined("create at an unaligned base", win, area + 1 + rank % 15, 7, 1, MPI_WIN_FLAVOR_CREATE);
        OK(MPI_Win_free(&win));
    }

    if (conf_flavor_here(MT_DYNAMIC)) {
        OK(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        expect_predefined("dynamic", win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
        OK(MPI_Win_attach(win, area, sizeof area));
        expect_predefined("dynamic with memory attached", win, MPI_BOTTOM, 0, 1, MPI_WIN_FLAVOR_DYNAMIC);
        OK(MPI_Win_detach(win, area));
        OK(MPI_Win_free(&win));
    }
}

/* The window's group against the communicator's, for every flavour over
 * MPI_COMM_WORLD and allocate windows over a split and a duplicate. */
static void expect_group(const char *what, MPI_Win win, MPI_Comm comm)
{
    MPI_Group wg, cg;
    int cmp = -1;
    OK(MPI_Win_get_group(win, &wg));
    MPI_Comm_group(comm, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    if (cmp != MPI_IDENT)
        fail("%s: the window's group compares %d to the communicator's, not MPI_IDENT (%d)", what, cmp, MPI_IDENT);
    /* a new group: freeing it leaves the window's, which is asked again */
    MPI_Group_free(&wg);
    OK(MPI_Win_get_group(win, &wg));
    MPI_Group_compare(wg, cg, &cmp);
    if (cmp != MPI_IDENT)
        fail("%s: after a group of the window was freed, a new one compares %d", what, cmp);
    int wr = -1;
    MPI_Group_rank(wg, &wr);
    int cr;
    MPI_Comm_rank(comm, &cr);
    expect("the rank in the window's group is the rank in the communicator", 0, wr, cr);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
}

static void groups(void)
{
    for (int f = 0; f < MT_FLAVORS; f++) {
        if (!conf_flavor_here((enum mt_flavor)f))
            continue;
        struct mt_win w;
        mt_win_open(&w, (enum mt_flavor)f, N * sizeof(int), sizeof(int));
        expect_group(mt_flavor_name[f], w.win, MPI_COMM_WORLD);
        mt_win_close(&w);
    }
    MPI_Comm half, dup;
    half = conf_half(NULL);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    void *base;
    MPI_Win win;
    /* the halves in turn (Open MPI 4.1.4 alone cannot make windows over
     * both disjoint halves at once: see conf_win_create) */
    for (int turn = 0; turn < 2; turn++) {
        if (rank % 2 == turn) {
            OK(MPI_Win_allocate(N, 1, MPI_INFO_NULL, half, &base, &win));
            expect_group("allocate over a split in reverse order", win, half);
            OK(MPI_Win_free(&win));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    OK(MPI_Win_allocate(N, 1, MPI_INFO_NULL, dup, &base, &win));
    expect_group("allocate over a duplicate of MPI_COMM_WORLD", win, dup);
    OK(MPI_Win_free(&win));
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);
}

/* What the callbacks saw. */
struct seen {
    int copies, deletes, fail_next;
    MPI_Win win;
    int keyval;
    void *value, *extra;
};
static struct seen seen;

static int copy_fn(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)win;
    (void)keyval;
    (void)extra;
    seen.copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    seen.deletes++;
    seen.win = win;
    seen.keyval = keyval;
    seen.value = value;
    seen.extra = extra;
    if (seen.fail_next) {
        seen.fail_next = 0;
        return MPI_ERR_OTHER;
    }
    return MPI_SUCCESS;
}

/* The delete callback was called `n` more times since `before`, the last
 * time with this window, keyval, value and extra_state. */
static void expect_deleted(const char *what, int before, int n, MPI_Win win, int keyval, void *value, void *extra)
{
    if (seen.deletes != before + n)
        fail("%s: the delete callback was called %d times, expected %d", what, seen.deletes - before, n);
    if (n == 0)
        return;
    if (seen.win != win || seen.keyval != keyval || seen.value != value || seen.extra != extra)
        fail("%s: the delete callback got keyval %d value %p extra %p, expected %d %p %p", what, seen.keyval,
             seen.value, seen.extra, keyval, value, extra);
}

static void expect_attr(const char *what, MPI_Win win, int keyval, void *value)
{
    void *got = NULL;
    int flag = -1;
    OK(MPI_Win_get_attr(win, keyval, &got, &flag));
    if (value == NULL && flag)
        fail("%s: the attribute is set (to %p), expected unset", what, got);
    if (value != NULL && (!flag || got != value))
        fail("%s: the attribute is %s %p, expected %p", what, flag ? "" : "unset, value", got, value);
}

static void keyvals(enum mt_flavor f)
{
    static int extra_state, values[8];
    struct mt_win w, other;
    mt_win_open(&w, f, N * sizeof(int), sizeof(int));
    mt_win_open(&other, f, N * sizeof(int), sizeof(int));
    MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
    MPI_Win win = w.win;
    int key = MPI_KEYVAL_INVALID, key2 = MPI_KEYVAL_INVALID, key3 = MPI_KEYVAL_INVALID;
    OK(MPI_Win_create_keyval(copy_fn, delete_fn, &key, &extra_state));
    OK(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &key2, NULL));
    OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &key3, &values[7]));
    memset(&seen, 0, sizeof seen);

    expect_attr("a key never set", win, key, NULL);
    OK(MPI_Win_set_attr(win, key, &values[0]));
    expect_attr("a key set", win, key, &values[0]);
    expect_deleted("setting a key", 0, 0, win, key, NULL, NULL);
    expect_attr("the same key on another window", other.win, key, NULL);

    OK(MPI_Win_set_attr(win, key, &values[1]));
    expect_attr("a key set again", win, key, &values[1]);
    expect_deleted("setting a key again (the old value is deleted)", 0, 1, win, key, &values[0], &extra_state);

    OK(MPI_Win_set_attr(other.win, key, &values[2]));
    OK(MPI_Win_delete_attr(win, key));
    expect_deleted("MPI_Win_delete_attr", 1, 1, win, key, &values[1], &extra_state);
    expect_attr("a key deleted", win, key, NULL);
    expect_attr("the key on another window, deleted on one", other.win, key, &values[2]);

    /* a failing delete callback fails the call */
    OK(MPI_Win_set_attr(win, key, &values[3]));
    seen.fail_next = 1;
    int rc = MPI_Win_delete_attr(win, key);
    if (rc == MPI_SUCCESS)
        fail("MPI_Win_delete_attr succeeded although the delete callback returned MPI_ERR_OTHER");
    /* whether the attribute outlives the failure is not said; if it does,
     * it is deleted now that the callback succeeds */
    void *left = NULL;
    int flag = 0, d = seen.deletes;
    OK(MPI_Win_get_attr(win, key, &left, &flag));
    if (flag) {
        OK(MPI_Win_delete_attr(win, key));
        expect_deleted("MPI_Win_delete_attr after a failed one", d, 1, win, key, &values[3], &extra_state);
    }

    /* predefined callbacks, and attributes left for MPI_Win_free */
    OK(MPI_Win_set_attr(win, key2, &values[4]));
    expect_attr("a key with predefined callbacks", win, key2, &values[4]);
    OK(MPI_Win_set_attr(win, key, &values[5]));
    OK(MPI_Win_set_attr(win, key3, &values[6]));
    int saved = key;
    OK(MPI_Win_free_keyval(&key));
    if (key != MPI_KEYVAL_INVALID)
        fail("MPI_Win_free_keyval left the keyval handle (%d)", key);
    expect_attr("a key whose keyval was freed", win, key3, &values[6]);

    d = seen.deletes;
    mt_win_close(&w);
    /* two attributes with delete_fn were left: both deleted */
    if (seen.deletes != d + 2)
        fail("MPI_Win_free called the delete callback %d times, expected 2 (one of them after "
             "MPI_Win_free_keyval)",
             seen.deletes - d);
    d = seen.deletes;
    MPI_Win ow = other.win;
    mt_win_close(&other);
    expect_deleted("MPI_Win_free of the other window", d, 1, ow, saved, &values[2], &extra_state);
    if (seen.copies != 0)
        fail("the copy callback was called %d times (windows are never copied)", seen.copies);
    OK(MPI_Win_free_keyval(&key2));
    OK(MPI_Win_free_keyval(&key3));
}

/* Keyvals are not used up: a program may create and free them as often as
 * it likes, while attributes set with a freed keyval stay until deleted
 * (their delete callback still runs then). */
static void keyval_churn(enum mt_flavor f)
{
    static int values[16];
    struct mt_win w;
    mt_win_open(&w, f, N * sizeof(int), sizeof(int));
    MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
    memset(&seen, 0, sizeof seen);
    int kept[16], nkept = 0;
    for (int i = 0; i < 2000; i++) {
        int key = MPI_KEYVAL_INVALID;
        OK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_fn, &key, &values[i % 16]));
        OK(MPI_Win_set_attr(w.win, key, &values[(i + 1) % 16]));
        int k = key;
        OK(MPI_Win_free_keyval(&key));
        if (i % 125 == 0 && nkept < 16) { /* left for MPI_Win_free */
            kept[nkept++] = k;
            continue;
        }
        int d = seen.deletes;
        OK(MPI_Win_delete_attr(w.win, k));
        expect_deleted("MPI_Win_delete_attr of an attribute whose keyval was freed", d, 1, w.win, k,
                       &values[(i + 1) % 16], &values[i % 16]);
    }
    for (int j = 0; j < nkept; j++)
        expect_attr("an attribute whose keyval was freed, kept", w.win, kept[j], &values[(j * 125 + 1) % 16]);
    int d = seen.deletes;
    mt_win_close(&w);
    if (seen.deletes != d + nkept)
        fail("MPI_Win_free called the delete callback %d times, expected %d", seen.deletes - d, nkept);
}

/* Names. */
static void names(enum mt_flavor f)
{
    struct mt_win w;
    mt_win_open(&w, f, N * sizeof(int), sizeof(int));
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    /* Never named: the empty name.  Open MPI 4.1.4 names its windows
     * itself ("rdma window 3", "sm window 5"). */
    memset(name, 'x', sizeof name);
    OK(MPI_Win_get_name(w.win, name, &len));
    if (conf_host_ok(CONF_NOT_OPEN_MPI) && (len != 0 || name[0] != '\0'))
        fail("a %s window never named has the name \"%s\" (length %d), expected \"\"", mt_flavor_name[f], name,
             len);

    char mine[64];
    snprintf(mine, sizeof mine, "%s window of rank %d", mt_flavor_name[f], rank);
    OK(MPI_Win_set_name(w.win, mine));
    memset(name, 'x', sizeof name);
    OK(MPI_Win_get_name(w.win, name, &len));
    if (strcmp(name, mine) || len != (int)strlen(mine))
        fail("MPI_Win_get_name: \"%s\" (length %d), expected \"%s\" (%zu)", name, len, mine, strlen(mine));

    /* the longest name there may be replaces the first */
    char longest[MPI_MAX_OBJECT_NAME];
    for (int i = 0; i < MPI_MAX_OBJECT_NAME - 1; i++)
        longest[i] = (char)('a' + (i + rank) % 26);
    longest[MPI_MAX_OBJECT_NAME - 1] = '\0';
    OK(MPI_Win_set_name(w.win, longest));
    memset(name, 'x', sizeof name);
    OK(MPI_Win_get_name(w.win, name, &len));
    if (strcmp(name, longest) || len != MPI_MAX_OBJECT_NAME - 1)
        fail("MPI_Win_get_name after a name of %d characters: length %d", MPI_MAX_OBJECT_NAME - 1, len);
    mt_win_close(&w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    predefined();
    groups();
    for (int f = 0; f < MT_FLAVORS; f++) {
        if (!conf_flavor_here((enum mt_flavor)f))
            continue;
        keyvals((enum mt_flavor)f);
        keyval_churn((enum mt_flavor)f);
        names((enum mt_flavor)f);
    }
    return conf_done("conf_win_attr");
}
