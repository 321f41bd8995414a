/* conf_win_info.c -- MPI-4.1 section 12.2.7 (Window Info), with the info
 * keys of 12.2.1 and 12.2.3, on every window flavour:
 *  - MPI_Win_get_info returns a new info object, the caller's to change
 *    and free (the window's hints stay as they were);
 *  - a value given at creation for a key MPI defines is returned as given:
 *    no_locks, accumulate_ordering (a list of rar, raw, war, waw, or
 *    "none": compared as a set, the order of the list means nothing),
 *    accumulate_ops ("same_op", "same_op_no_op"), same_size and
 *    same_disp_unit ("true" and "false"), alloc_shared_noncontig on shared
 *    windows; mpi_accumulate_granularity as given, if it is returned (MPI
 *    4.1's key: Open MPI 4.1.4 returns it, MPICH 4.0 does not);
 *  - without hints, a key that is returned has its default value (no_locks
 *    "false", accumulate_ordering "rar,raw,war,waw", accumulate_ops
 *    "same_op_no_op", same_size and same_disp_unit "false",
 *    alloc_shared_noncontig "false"); alloc_shared_noncontig on shared
 *    windows is returned by both hosts and required (the others are not:
 *    an implementation returns the defaults of the hints it supports, and
 *    Open MPI 4.1.4 returns none but no_locks, that only on some windows);
 *  - after MPI_Win_set_info a key is returned with the value set, or --
 *    an implementation may ignore hints given after creation -- with the
 *    value in effect before;
 *  - the info object given to the creation is not changed by it;
 *  - keys MPI does not define are accepted (returned or not: either). */
#include "conf.h"

#define N 16 /* ints per rank */

/* A window of flavour f made with info (N ints of memory). */
struct win {
    MPI_Win win;
    enum mt_flavor flavor;
    void *mem;
};

static void make(struct win *w, enum mt_flavor f, MPI_Info info)
{
    w->flavor = f;
    w->mem = NULL;
    switch (f) {
    case MT_ALLOCATE:
        OK(MPI_Win_allocate(N * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &w->mem, &w->win));
        break;
    case MT_SHARED:
        OK(MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &w->mem, &w->win));
        break;
    case MT_CREATE:
        w->mem = malloc(N * sizeof(int));
        OK(MPI_Win_create(w->mem, N * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &w->win));
        break;
    default:
        OK(MPI_Win_create_dynamic(info, MPI_COMM_WORLD, &w->win));
        break;
    }
    MPI_Win_set_errhandler(w->win, MPI_ERRORS_RETURN);
}

static void unmake(struct win *w)
{
    OK(MPI_Win_free(&w->win));
    if (w->flavor == MT_CREATE)
        free(w->mem);
}

/* accumulate_ordering as a set: bit 0 rar, 1 raw, 2 war, 3 waw; "none"
 * is the empty set; -1 for anything else. */
static int ordering(const char *v)
{
    static const char *const names[4] = {"rar", "raw", "war", "waw"};
    if (!strcmp(v, "none"))
        return 0;
    int set = 0;
    const char *p = v;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        size_t n = strcspn(p, ", ");
        int k = 0;
        while (k < 4 && !(n == 3 && !strncmp(p, names[k], 3)))
            k++;
        if (k == 4)
            return -1;
        set |= 1 << k;
        p += n;
    }
    return set;
}

/* Whether two values of `key` mean the same. */
static int same_value(const char *key, const char *a, const char *b)
{
    if (!strcmp(key, "accumulate_ordering"))
        return ordering(a) >= 0 && ordering(a) == ordering(b);
    return !strcmp(a, b);
}

/* The value of key in info: 1 and the value in v, or 0. */
static int get(MPI_Info info, const char *key, char *v)
{
    int flag = 0;
    v[0] = '\0';
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, v, &flag);
    return flag;
}

/* A key of the window's info: must be `want` (or `or_else`, if not NULL);
 * `required`: it must be there. */
static void expect_key(const char *what, MPI_Win win, const char *key, const char *want, const char *or_else,
                       int required)
{
    MPI_Info used = MPI_INFO_NULL;
    OK(MPI_Win_get_info(win, &used));
    if (used == MPI_INFO_NULL)
        fail("%s: MPI_Win_get_info returned MPI_INFO_NULL", what);
    char v[MPI_MAX_INFO_VAL + 1];
    if (!get(used, key, v)) {
        if (required)
            fail("%s: MPI_Win_get_info has no %s (expected \"%s\")", what, key, want);
    } else if (!same_value(key, v, want) && !(or_else && same_value(key, v, or_else))) {
        fail("%s: MPI_Win_get_info has %s \"%s\", expected \"%s\"%s%s%s", what, key, v, want, or_else ? " or \"" : "",
             or_else ? or_else : "", or_else ? "\"" : "");
    }
    MPI_Info_free(&used);
}

/* Defaults: no hints given. */
static void defaults(enum mt_flavor f)
{
    struct win w;
    make(&w, f, MPI_INFO_NULL);
    const char *what = mt_flavor_name[f];
    expect_key(what, w.win, "no_locks", "false", NULL, 0);
    expect_key(what, w.win, "accumulate_ordering", "rar,raw,war,waw", NULL, 0);
    expect_key(what, w.win, "accumulate_ops", "same_op_no_op", NULL, 0);
    expect_key(what, w.win, "same_size", "false", NULL, 0);
    expect_key(what, w.win, "same_disp_unit", "false", NULL, 0);
    if (f == MT_SHARED)
        expect_key(what, w.win, "alloc_shared_noncontig", "false", NULL, 1);
    unmake(&w);
}

/* The keys MPI defines, given at creation: returned as given.  A fresh
 * info object for every window, and it must be the same after the
 * creation.  MPICH 4.0 changes it: it cuts an accumulate_ordering of
 * "rar,waw" to "rar" in the caller's object (it parses the value in
 * place), so that a second window made with the same object gets "rar"
 * -- its own runs skip that check. */
struct hint {
    const char *key, *value;
};

static void given(const char *what, enum mt_flavor f, const struct hint *h, int nh)
{
    MPI_Info info;
    MPI_Info_create(&info);
    for (int k = 0; k < nh; k++)
        MPI_Info_set(info, h[k].key, h[k].value);
    struct win w;
    make(&w, f, info);
    char v[MPI_MAX_INFO_VAL + 1];
    for (int k = 0; k < nh && conf_host_ok(CONF_NOT_MPICH); k++)
        if (!get(info, h[k].key, v) || strcmp(v, h[k].value))
            fail("%s (%s): the info given to the creation has %s \"%s\" after it, was \"%s\"", what,
                 mt_flavor_name[f], h[k].key, v, h[k].value);
    MPI_Info_free(&info);
    char w_what[160];
    snprintf(w_what, sizeof w_what, "%s (%s window)", what, mt_flavor_name[f]);
    for (int k = 0; k < nh; k++) {
        const char *key = h[k].key;
        if (!strncmp(key, "conf_", 5))
            continue; /* not MPI's: returned or not */
        if (!strcmp(key, "alloc_shared_noncontig") && f != MT_SHARED)
            continue; /* a key for shared windows only */
        expect_key(w_what, w.win, key, h[k].value, NULL, strcmp(key, "mpi_accumulate_granularity") != 0);
    }

    /* the info returned is the caller's: changed and freed, the window's
     * stays */
    MPI_Info used;
    OK(MPI_Win_get_info(w.win, &used));
    MPI_Info_set(used, "no_locks", strcmp(h[0].value, "true") ? "true" : "false");
    MPI_Info_delete(used, "accumulate_ops");
    MPI_Info_free(&used);
    expect_key(w_what, w.win, h[0].key, h[0].value, NULL, 1);
    expect_key(w_what, w.win, h[2].key, h[2].value, NULL, 1);
    unmake(&w);
}

/* MPI_Win_set_info after creation: the value set, or the one before.
 * Open MPI 4.1.4 drops from the window's info, after MPI_Win_set_info,
 * the keys its one-sided component does not take then (accumulate_ordering
 * and accumulate_ops always, no_locks in osc/sm): neither the old value
 * nor the new is returned, so its own runs require no key there. */
static void set_later(enum mt_flavor f, int with_hints)
{
    MPI_Info info = MPI_INFO_NULL;
    if (with_hints) {
        MPI_Info_create(&info);
        MPI_Info_set(info, "accumulate_ordering", "rar,waw");
        MPI_Info_set(info, "accumulate_ops", "same_op");
        MPI_Info_set(info, "same_size", "true");
    }
    struct win w;
    make(&w, f, info);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    const char *before_order = with_hints ? "rar,waw" : "rar,raw,war,waw";
    const char *before_ops = with_hints ? "same_op" : "same_op_no_op";

    MPI_Info later;
    MPI_Info_create(&later);
    MPI_Info_set(later, "no_locks", "false");
    MPI_Info_set(later, "accumulate_ordering", "war");
    MPI_Info_set(later, "accumulate_ops", with_hints ? "same_op_no_op" : "same_op");
    MPI_Info_set(later, "conf_unknown_later", "1");
    OK(MPI_Win_set_info(w.win, later));
    MPI_Info_free(&later);
    char what[96];
    snprintf(what, sizeof what, "after MPI_Win_set_info (%s window%s)", mt_flavor_name[f],
             with_hints ? " made with hints" : "");
    int required = conf_host_ok(CONF_NOT_OPEN_MPI);
    expect_key(what, w.win, "no_locks", "false", NULL, required);
    expect_key(what, w.win, "accumulate_ordering", "war", before_order, required);
    expect_key(what, w.win, "accumulate_ops", with_hints ? "same_op_no_op" : "same_op", before_ops, required);
    if (with_hints) /* not set again: as it was */
        expect_key(what, w.win, "same_size", "true", NULL, 1);
    /* the window still works */
    int v = conf_val(rank, 0), got = 0, right = conf_right();
    MPI_Aint disp = 0;
    if (f == MT_DYNAMIC) {
        w.mem = malloc(N * sizeof(int));
        OK(MPI_Win_attach(w.win, w.mem, N * sizeof(int)));
        MPI_Aint mine, *all = malloc((size_t)size * sizeof *all);
        MPI_Get_address(w.mem, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, all, 1, MPI_AINT, MPI_COMM_WORLD);
        disp = all[right];
        free(all);
    }
    OK(MPI_Win_fence(0, w.win));
    OK(MPI_Put(&v, 1, MPI_INT, right, disp, 1, MPI_INT, w.win));
    OK(MPI_Win_fence(0, w.win));
    OK(MPI_Get(&got, 1, MPI_INT, right, disp, 1, MPI_INT, w.win));
    OK(MPI_Win_fence(0, w.win));
    expect("a put and a get on a window after MPI_Win_set_info", 0, got, v);
    if (f == MT_DYNAMIC) {
        OK(MPI_Win_detach(w.win, w.mem));
        OK(MPI_Win_free(&w.win));
        free(w.mem);
    } else {
        unmake(&w);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    static const struct hint a[] = {{"no_locks", "true"},
                                    {"accumulate_ordering", "rar,waw"},
                                    {"accumulate_ops", "same_op"},
                                    {"same_size", "true"},
                                    {"same_disp_unit", "true"},
                                    {"mpi_accumulate_granularity", "8"},
                                    {"conf_unknown_key", "some value"}};
    static const struct hint b[] = {{"no_locks", "false"},
                                    {"accumulate_ordering", "none"},
                                    {"accumulate_ops", "same_op_no_op"},
                                    {"same_size", "false"},
                                    {"same_disp_unit", "false"}};
    static const struct hint c[] = {{"no_locks", "false"},
                                    {"accumulate_ordering", "waw,raw"},
                                    {"accumulate_ops", "same_op"},
                                    {"alloc_shared_noncontig", "true"}};
    for (int f = 0; f < MT_FLAVORS; f++) {
        if (!conf_flavor_here((enum mt_flavor)f))
            continue;
        defaults((enum mt_flavor)f);
        given("hints set to non-defaults", (enum mt_flavor)f, a, sizeof a / sizeof a[0]);
        if (f == MT_ALLOCATE || f == MT_DYNAMIC)
            given("hints set to their defaults", (enum mt_flavor)f, b, sizeof b / sizeof b[0]);
        if (f == MT_SHARED || f == MT_CREATE)
            given("alloc_shared_noncontig and a reordered list", (enum mt_flavor)f, c, sizeof c / sizeof c[0]);
        set_later((enum mt_flavor)f, f % 2);
    }
    return conf_done("conf_win_info");
}
