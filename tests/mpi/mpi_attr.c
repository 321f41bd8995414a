/* mpi_attr.c -- what a window says about itself: the predefined
 * attributes (MPI_WIN_BASE, SIZE, DISP_UNIT, CREATE_FLAVOR, MODEL) for
 * every flavour, user keyvals with copy and delete callbacks (delete runs
 * on MPI_Win_delete_attr, on replacing a value and at MPI_Win_free; copy
 * never, windows are not duplicated), names, info objects and the
 * Fortran handle round trip. */
#include "mpi_test.h"

static int flavor_value(enum mt_flavor f)
{
    switch (f) {
    case MT_ALLOCATE:
        return MPI_WIN_FLAVOR_ALLOCATE;
    case MT_CREATE:
        return MPI_WIN_FLAVOR_CREATE;
    case MT_SHARED:
        return MPI_WIN_FLAVOR_SHARED;
    default:
        return MPI_WIN_FLAVOR_DYNAMIC;
    }
}

static void predefined(enum mt_flavor f)
{
    struct mt_win w;
    /* Sizes differ per rank and are not multiples of 16.  MPICH 4.0 on
     * its own reports, for MPI_Win_allocate windows only, an MPI_WIN_BASE
     * rounded down to 16 bytes below the base pointer the call returned
     * when the lower ranks' sizes add up to no multiple of 16 (the
     * standard says they are the same): its host runs use multiples of 64. */
    int mpich_host = !mt_orma && !mt_host_is_open_mpi();
    size_t bytes = (mpich_host ? 64 : 24) * (size_t)(rank + 1);
    mt_win_open(&w, f, bytes, 8);
    const char *name = mt_flavor_name[f];
    void *base = NULL;
    MPI_Aint *size_p = NULL;
    int *unit_p = NULL, *flavor_p = NULL, *model_p = NULL, flag = 0;
    MPI_Win_get_attr(w.win, MPI_WIN_BASE, &base, &flag);
    if (!flag)
        fail("%s window: no MPI_WIN_BASE", name);
    /* A dynamic window has no base: MPI_BOTTOM, size 0, unit 1. */
    void *want_base = f == MT_DYNAMIC ? MPI_BOTTOM : w.base;
    if (base != want_base)
        fail("%s window: MPI_WIN_BASE %p, expected %p", name, base, want_base);
    MPI_Win_get_attr(w.win, MPI_WIN_SIZE, &size_p, &flag);
    if (!flag || !size_p)
        fail("%s window: no MPI_WIN_SIZE", name);
    expect("MPI_WIN_SIZE", f, *size_p, f == MT_DYNAMIC ? 0 : (long long)bytes);
    MPI_Win_get_attr(w.win, MPI_WIN_DISP_UNIT, &unit_p, &flag);
    if (!flag || !unit_p)
        fail("%s window: no MPI_WIN_DISP_UNIT", name);
    expect("MPI_WIN_DISP_UNIT", f, *unit_p, f == MT_DYNAMIC ? 1 : 8);
    MPI_Win_get_attr(w.win, MPI_WIN_CREATE_FLAVOR, &flavor_p, &flag);
    if (!flag || !flavor_p)
        fail("%s window: no MPI_WIN_CREATE_FLAVOR", name);
    expect("MPI_WIN_CREATE_FLAVOR", f, *flavor_p, flavor_value(f));
    MPI_Win_get_attr(w.win, MPI_WIN_MODEL, &model_p, &flag);
    if (!flag || !model_p)
        fail("%s window: no MPI_WIN_MODEL", name);
    /* The standard allows either model; the hosts differ per flavour and
     * transport, so a test may rely on nothing more than these two. */
    if (*model_p != MPI_WIN_UNIFIED && *model_p != MPI_WIN_SEPARATE)
        fail("%s window: MPI_WIN_MODEL %d is neither MPI_WIN_UNIFIED nor MPI_WIN_SEPARATE", name, *model_p);
    if (rank == 0)
        printf("%s window: MPI_WIN_MODEL is %s\n", name, *model_p == MPI_WIN_UNIFIED ? "unified" : "separate");
    mt_win_close(&w);
}

/* The delete callback's log: which value it was called with, how often. */
static int deleted_calls;
static void *deleted_value;
static MPI_Win deleted_win;
static int the_extra = 42;

static int copy_fn(MPI_Win oldwin, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldwin, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
    fail("the copy callback of a window keyval was called");
}

static int delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)keyval;
    if (extra != &the_extra)
        fail("delete callback: extra_state %p, expected %p", extra, (void *)&the_extra);
    deleted_calls++;
    deleted_value = value;
    deleted_win = win;
    return MPI_SUCCESS;
}

static void keyvals(void)
{
    int key = MPI_KEYVAL_INVALID, flag = 1;
    static int v1, v2, v3;
    MPI_Win_create_keyval(copy_fn, delete_fn, &key, &the_extra);
    if (key == MPI_KEYVAL_INVALID)
        fail("MPI_Win_create_keyval gave MPI_KEYVAL_INVALID");
    struct mt_win w;
    mt_win_open(&w, MT_ALLOCATE, 64, 1);
    void *got = NULL;
    MPI_Win_get_attr(w.win, key, &got, &flag);
    expect("flag of a keyval never set", 0, flag, 0);

    MPI_Win_set_attr(w.win, key, &v1);
    MPI_Win_get_attr(w.win, key, &got, &flag);
    if (!flag || got != &v1)
        fail("attribute read back as %p (flag %d), expected %p", got, flag, (void *)&v1);
    expect("delete calls after a first set", 0, deleted_calls, 0);

    /* Replacing a value deletes the old one first. */
    MPI_Win_set_attr(w.win, key, &v2);
    expect("delete calls after a replacing set", 0, deleted_calls, 1);
    if (deleted_value != &v1 || deleted_win != w.win)
        fail("replacing set: delete callback got %p, expected %p", deleted_value, (void *)&v1);
    MPI_Win_get_attr(w.win, key, &got, &flag);
    if (!flag || got != &v2)
        fail("replaced attribute read back as %p, expected %p", got, (void *)&v2);

    MPI_Win_delete_attr(w.win, key);
    expect("delete calls after MPI_Win_delete_attr", 0, deleted_calls, 2);
    if (deleted_value != &v2)
        fail("MPI_Win_delete_attr: delete callback got %p, expected %p", deleted_value, (void *)&v2);
    MPI_Win_get_attr(w.win, key, &got, &flag);
    expect("flag after MPI_Win_delete_attr", 0, flag, 0);

    /* Set again and free the window: the callback runs at MPI_Win_free. */
    MPI_Win_set_attr(w.win, key, &v3);
    MPI_Win saved = w.win;
    mt_win_close(&w);
    expect("delete calls after MPI_Win_free", 0, deleted_calls, 3);
    if (deleted_value != &v3 || deleted_win != saved)
        fail("MPI_Win_free: delete callback got %p, expected %p", deleted_value, (void *)&v3);
    MPI_Win_free_keyval(&key);
    if (key != MPI_KEYVAL_INVALID)
        fail("MPI_Win_free_keyval left the keyval %d", key);
}

static void names_info_f2c(void)
{
    struct mt_win w;
    mt_win_open(&w, MT_CREATE, 64, 1);
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    /* No name set: the standard says an empty string.  Open MPI 4.1 on
     * its own names windows ("rdma window 3"): not checked there. */
    MPI_Win_get_name(w.win, name, &len);
    if ((mt_orma || !mt_host_is_open_mpi()) && (len != 0 || name[0]))
        fail("unnamed window: name \"%s\" (length %d), expected empty", name, len);
    char want[32];
    snprintf(want, sizeof want, "window of rank %d", rank);
    MPI_Win_set_name(w.win, want);
    memset(name, 'x', sizeof name);
    MPI_Win_get_name(w.win, name, &len);
    if (strcmp(name, want) || len != (int)strlen(want))
        fail("window name \"%s\" (length %d), expected \"%s\"", name, len, want);

    /* Info: a new object each call, owned by the caller; which hints it
     * holds is the implementation's choice, so only its use is checked. */
    MPI_Info info = MPI_INFO_NULL, info2 = MPI_INFO_NULL;
    MPI_Win_get_info(w.win, &info);
    if (info == MPI_INFO_NULL)
        fail("MPI_Win_get_info returned MPI_INFO_NULL");
    int nkeys = -1;
    MPI_Info_get_nkeys(info, &nkeys);
    if (nkeys < 0)
        fail("window info has %d keys", nkeys);
    MPI_Info_set(info, "no_locks", "false");
    MPI_Win_set_info(w.win, info);
    MPI_Info_free(&info);
    MPI_Win_get_info(w.win, &info2);
    if (info2 == MPI_INFO_NULL)
        fail("MPI_Win_get_info after set_info returned MPI_INFO_NULL");
    /* A hint that is reported must have a value the standard allows. */
    char val[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info2, "no_locks", MPI_MAX_INFO_VAL, val, &flag);
    if (flag && strcmp(val, "true") && strcmp(val, "false"))
        fail("no_locks hint reported as \"%s\"", val);
    MPI_Info_free(&info2);

    /* The window still works after set_info. */
    int v = rank + 100, got = -1, right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, w.win);
    MPI_Put(&v, 1, MPI_INT, right, 8, 1, MPI_INT, w.win);
    MPI_Win_unlock(right, w.win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w.win);
    memcpy(&got, (char *)w.base + 8, sizeof got);
    MPI_Win_unlock(rank, w.win);
    expect("put after MPI_Win_set_info", 8, got, left + 100);

    MPI_Fint f = MPI_Win_c2f(w.win);
    if (MPI_Win_f2c(f) != w.win)
        fail("MPI_Win_f2c(MPI_Win_c2f(win)) is not win");
    if (MPI_Win_f2c(MPI_Win_c2f(MPI_WIN_NULL)) != MPI_WIN_NULL)
        fail("MPI_WIN_NULL does not survive the Fortran round trip");
    mt_win_close(&w);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    for (int f = 0; f < MT_FLAVORS; f++)
        predefined((enum mt_flavor)f);
    keyvals();
    names_info_f2c();
    mt_finalize();
    return 0;
}
