/* acc_info.c -- the window info keys: accumulate_ordering, accumulate_ops,
 * no_locks, same_size, same_disp_unit.
 *
 * A known key with a value outside its set is ignored (the key keeps its
 * default) or, in check mode (ORMA_CHECK=1), makes every creation call fail
 * with ORMA_ERR_INFO on every rank, without writing the outputs, and the
 * next creation works.  no_locks=true makes lock and lock_all fail with
 * ORMA_ERR_RMA_SYNC while fence and PSCW still work.  same_size=true is
 * refused on every rank when the sizes differ, same_disp_unit=true when
 * the units differ.  orma_win_get_info returns
 * every key: the defaults, or the values given (accumulate_ordering in the
 * canonical order rar,raw,war,waw).  A window with accumulate_ordering=none
 * and accumulate_ops=same_op still computes correct accumulates, both
 * concurrent sums from every rank and a plan of one op per location. */
#include "acc_plan.h"

enum { CR_ALLOCATE, CR_SHARED, CR_CREATE, CR_DYNAMIC, NCREATE };
static const char *const create_names[NCREATE] = {"allocate", "allocate_shared", "create", "create_dynamic"};

static int rank, nranks, rt, lt;

#define WIN_UNSET ((orma_win)0x77aa77aa77aa77aau)

/* A window made by one of the creation calls; mem is what create was
 * given (freed by close_win). */
struct made {
    orma_win win;
    void *base;
    void *mem;
};

static int try_create(int how, orma_info info, size_t size, int du, struct made *m)
{
    int rc;
    void *sentinel = &rc;
    m->win = WIN_UNSET;
    m->base = sentinel;
    m->mem = NULL;
    switch (how) {
    case CR_ALLOCATE: rc = orma_win_allocate(size, du, info, &m->base, &m->win); break;
    case CR_SHARED: rc = orma_win_allocate_shared(size, du, info, &m->base, &m->win); break;
    case CR_CREATE:
        m->mem = malloc(size ? size : 1);
        CHECK(m->mem != NULL);
        rc = orma_win_create(m->mem, size, du, info, &m->win);
        m->base = m->mem;
        break;
    default: rc = orma_win_create_dynamic(info, &m->win); break;
    }
    if (rc) {
        /* Outputs are written only on success. */
        CHECK(m->win == WIN_UNSET);
        if (how == CR_ALLOCATE || how == CR_SHARED)
            CHECK(m->base == sentinel);
        free(m->mem);
        m->mem = NULL;
    } else if (how == CR_ALLOCATE || how == CR_SHARED) {
        CHECK(m->base != sentinel);
    }
    return rc;
}

static void close_win(struct made *m)
{
    CHECK_OK(orma_win_free(&m->win));
    free(m->mem);
    m->mem = NULL;
}

static orma_info info_of(const char *const *kv, int n)
{
    orma_info info = ORMA_INFO_NULL;
    CHECK_OK(orma_info_create(&info));
    for (int i = 0; i < n; i++)
        CHECK_OK(orma_info_set(info, kv[2 * i], kv[2 * i + 1]));
    return info;
}

/* The window's info must hold every key with the value wanted (NULL:
 * the default). */
static void expect_info(orma_win win, const char *const want[5], const char *what)
{
    static const char *const keys[5] = {"accumulate_ordering", "accumulate_ops", "no_locks", "same_size",
                                        "same_disp_unit"};
    static const char *const defaults[5] = {"rar,raw,war,waw", "same_op_no_op", "false", "false", "false"};
    orma_info got = ORMA_INFO_NULL, again = ORMA_INFO_NULL;

    CHECK_OK(orma_win_get_info(win, &got));
    CHECK(got != ORMA_INFO_NULL);
    for (int i = 0; i < 5; i++) {
        char val[ORMA_INFO_VAL_MAX + 1];
        const char *w = want && want[i] ? want[i] : defaults[i];
        int flag = 0;
        memset(val, 0, sizeof val);
        CHECK_OK(orma_info_get(got, keys[i], sizeof val, val, &flag));
        if (!flag || strcmp(val, w)) {
            fprintf(stderr, "rank %d: %s: window info %s is %s\"%s\", expected \"%s\"\n", rank, what, keys[i],
                    flag ? "" : "absent ", val, w);
            exit(1);
        }
    }
    /* A new object each time: changing one does not change the window. */
    CHECK_OK(orma_info_set(got, "no_locks", "sometimes"));
    CHECK_OK(orma_win_get_info(win, &again));
    CHECK(again != got);
    {
        char val[16] = "";
        int flag = 0;
        CHECK_OK(orma_info_get(again, "no_locks", sizeof val, val, &flag));
        CHECK(flag && strcmp(val, "sometimes") != 0);
    }
    CHECK_OK(orma_info_free(&got));
    CHECK_OK(orma_info_free(&again));
    CHECK(got == ORMA_INFO_NULL);
}

static void bad_values(void)
{
    static const char *const bad[][2] = {
        {"accumulate_ops", "foo"},           {"accumulate_ops", ""},
        {"no_locks", "maybe"},               {"accumulate_ordering", "rar,bogus"},
        {"accumulate_ordering", "bogus"},    {"accumulate_ordering", "waw,rar,rwa"},
        {"same_size", "maybe"},              {"same_disp_unit", "perhaps"},
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        /* A good key beside the bad one changes nothing. */
        const char *kv[4] = {"same_op_hint_unknown_key", "whatever", bad[b][0], bad[b][1]};
        orma_info info = info_of(kv, 2);
        for (int how = 0; how < NCREATE; how++) {
            struct made m;
            int rc = try_create(how, info, 64, 8, &m);
            if (!at_check_mode()) { /* ignored: the key keeps its default */
                CHECK_OK(rc);
                orma_info got = ORMA_INFO_NULL;
                char v[ORMA_INFO_VAL_MAX + 1];
                int flag = 0;
                CHECK_OK(orma_win_get_info(m.win, &got));
                CHECK_OK(orma_info_get(got, bad[b][0], sizeof v, v, &flag));
                CHECK(flag && strcmp(v, bad[b][1]));
                CHECK_OK(orma_info_free(&got));
                close_win(&m);
                continue;
            }
            if (rc != ORMA_ERR_INFO) {
                fprintf(stderr, "rank %d: %s with %s=\"%s\" returned %d (%s), expected ORMA_ERR_INFO\n", rank,
                        create_names[how], bad[b][0], bad[b][1], rc, orma_strerror(rc));
                exit(1);
            }
            AT_RC(rc, ORMA_ERR_INFO, create_names[how]);
        }
        CHECK_OK(orma_info_free(&info));
    }
    /* The failures left nothing behind: a window works. */
    {
        struct made m;
        CHECK_OK(try_create(CR_ALLOCATE, ORMA_INFO_NULL, 8 + 8, 8, &m));
        rt_good_epoch(m.win, m.base, 16, 8, 400);
        expect_info(m.win, NULL, "allocate after refused creations");
        close_win(&m);
    }
}

/* An unknown key is ignored; every flavour reports the defaults. */
static void defaults(void)
{
    const char *kv[2] = {"orma_no_such_key", "1"};
    orma_info info = info_of(kv, 1);
    for (int how = 0; how < NCREATE; how++) {
        struct made m;
        char what[64];
        snprintf(what, sizeof what, "defaults of %s", create_names[how]);
        CHECK_OK(try_create(how, how % 2 ? info : ORMA_INFO_NULL, 32, 4, &m));
        expect_info(m.win, NULL, what);
        close_win(&m);
    }
    CHECK_OK(orma_info_free(&info));
}

static void given_values(void)
{
    static const struct {
        const char *ordering, *want_ordering, *ops, *no_locks, *same_size, *same_du;
    } cases[] = {
        {"waw,rar", "rar,waw", "same_op", "true", "true", "true"},
        {"none", "none", "same_op_no_op", "false", "true", "false"},
        {"war,raw,rar", "rar,raw,war", "same_op", "false", "false", "true"},
        {"rar,raw,war,waw", "rar,raw,war,waw", "same_op_no_op", "true", "false", "false"},
        {"raw", "raw", "same_op", "false", "true", "true"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *kv[10] = {"accumulate_ordering", cases[c].ordering, "accumulate_ops", cases[c].ops,
                              "no_locks", cases[c].no_locks, "same_size", cases[c].same_size,
                              "same_disp_unit", cases[c].same_du};
        const char *want[5] = {cases[c].want_ordering, cases[c].ops, cases[c].no_locks, cases[c].same_size,
                               cases[c].same_du};
        orma_info info = info_of(kv, 5);
        for (int how = 0; how < NCREATE; how++) {
            struct made m;
            char what[96];
            snprintf(what, sizeof what, "%s with case %zu", create_names[how], c);
            /* Same size and unit on every rank: the promises hold. */
            CHECK_OK(try_create(how, info, 96, 8, &m));
            /* The info object belongs to the caller: changing it now does
             * not change the window. */
            CHECK_OK(orma_info_set(info, "accumulate_ops", "same_op_no_op"));
            expect_info(m.win, want, what);
            CHECK_OK(orma_info_set(info, "accumulate_ops", cases[c].ops));
            close_win(&m);
        }
        CHECK_OK(orma_info_free(&info));
    }
}

static void no_locks(void)
{
    const char *kv[2] = {"no_locks", "true"};
    const char *want[5] = {NULL, NULL, "true", NULL, NULL};
    orma_info info = info_of(kv, 1);
    for (int how = 0; how < CR_DYNAMIC; how++) {
        struct made m;
        orma_group all = ORMA_GROUP_NULL;
        int32_t one = 1, *mine;
        CHECK_OK(try_create(how, info, 4 * sizeof(int32_t), (int)sizeof(int32_t), &m));
        mine = m.base;
        expect_info(m.win, want, create_names[how]);
        CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rt, 0, m.win), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_lock(ORMA_LOCK_EXCLUSIVE, rank, 0, m.win), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_lock(ORMA_LOCK_SHARED, rank, ORMA_MODE_NOCHECK, m.win), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_lock_all(0, m.win), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_lock_all(ORMA_MODE_NOCHECK, m.win), ORMA_ERR_RMA_SYNC);
        /* No epoch was opened by the refused calls. */
        CHECK_ERR(orma_accumulate(&one, 1, ORMA_INT32, rt, 0, 1, ORMA_INT32, ORMA_SUM, m.win), ORMA_ERR_RMA_SYNC);
        CHECK_ERR(orma_win_unlock_all(m.win), ORMA_ERR_RMA_SYNC);

        /* Fence and PSCW work: each rank adds 1 and 2 to slot 0 and 1 of
         * its right neighbour. */
        for (int i = 0; i < 4; i++)
            mine[i] = 10 * i;
        CHECK_OK(orma_win_fence(0, m.win));
        CHECK_OK(orma_accumulate(&one, 1, ORMA_INT32, rt, 0, 1, ORMA_INT32, ORMA_SUM, m.win));
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, m.win));
        CHECK_OK(orma_win_get_group(m.win, &all));
        CHECK_OK(orma_win_post(all, 0, m.win));
        CHECK_OK(orma_win_start(all, 0, m.win));
        one = 2;
        CHECK_OK(orma_accumulate(&one, 1, ORMA_INT32, rt, 1, 1, ORMA_INT32, ORMA_SUM, m.win));
        CHECK_OK(orma_win_complete(m.win));
        CHECK_OK(orma_win_wait(m.win));
        CHECK_OK(orma_group_free(&all));
        CHECK(mine[0] == 1 && mine[1] == 12 && mine[2] == 20 && mine[3] == 30);
        CHECK_OK(orma_barrier());
        close_win(&m);
    }
    CHECK_OK(orma_info_free(&info));
}

static void same_size(void)
{
    const char *kv[2] = {"same_size", "true"};
    orma_info info = info_of(kv, 1);
    for (int how = 0; how < CR_DYNAMIC; how++) {
        struct made m;
        if (nranks > 1) {
            /* The sizes differ: every rank must refuse, not only those
             * whose size differs from rank 0's. */
            int rc = try_create(how, info, 64 + 8 * (size_t)rank, 8, &m);
            AT_RC(rc, ORMA_ERR_INFO, create_names[how]);
        }
        CHECK_OK(try_create(how, info, 64, 8, &m));
        rt_good_epoch(m.win, m.base, 64, 8, 500u + (unsigned)how * 10u);
        close_win(&m);
    }
    CHECK_OK(orma_info_free(&info));

    /* same_disp_unit=true: the same, for the displacement unit. */
    kv[0] = "same_disp_unit";
    info = info_of(kv, 1);
    for (int how = 0; how < CR_DYNAMIC; how++) {
        struct made m;
        if (nranks > 1) {
            int rc = try_create(how, info, 64, rank % 2 ? 4 : 8, &m);
            AT_RC(rc, ORMA_ERR_INFO, create_names[how]);
        }
        CHECK_OK(try_create(how, info, 64, 4, &m));
        rt_good_epoch(m.win, m.base, 64, 4, 600u + (unsigned)how * 10u);
        close_win(&m);
    }
    CHECK_OK(orma_info_free(&info));
}

/* accumulate_ordering=none, accumulate_ops=same_op: results still right. */
static struct at_step plan[] = {
    {AK_ACC, ORMA_TYPEID_INT32, ORMA_SUM, 7, 0, 0},
    {AK_GACC, ORMA_TYPEID_DOUBLE, ORMA_PROD, 5, 0, 0},
    {AK_FOP, ORMA_TYPEID_INT64, ORMA_SUM, 1, 0, 0},
    {AK_ACC, ORMA_TYPEID_C_DOUBLE_COMPLEX, ORMA_REPLACE, 2, 0, 0},
    {AK_ACC, ORMA_TYPEID_DOUBLE_INT, ORMA_MAXLOC, 4, 0, 0},
    {AK_GACC, ORMA_TYPEID_SHORT_INT, ORMA_MINLOC, 4, 0, 0},
    {AK_FOP, ORMA_TYPEID_UINT8, ORMA_BXOR, 1, 0, 0},
};
enum { NSTEPS = sizeof plan / sizeof plan[0], SUMS = 8, REPEAT = 25 };

static void unordered(void)
{
    const char *kv[4] = {"accumulate_ordering", "none", "accumulate_ops", "same_op"};
    const char *want[5] = {"none", "same_op", NULL, NULL, NULL};
    orma_info info = info_of(kv, 2);
    size_t psize = at_plan_layout(plan, NSTEPS);
    size_t sums_at = 2 * psize, size = sums_at + SUMS * sizeof(int64_t);
    for (int how = 0; how < NCREATE; how++) {
        struct made m;
        unsigned char *mem, *obuf[2], *cbuf[2], *rbuf[2];
        orma_aint *addr = NULL;
        const int target[2] = {rt, rank};
        int64_t add[SUMS], got[SUMS], *sums;
        char what[64];

        snprintf(what, sizeof what, "ordering none on %s", create_names[how]);
        CHECK_OK(try_create(how, info, size, 1, &m));
        expect_info(m.win, want, what);
        if (how == CR_DYNAMIC) {
            orma_aint a;
            m.mem = malloc(size);
            CHECK(m.mem != NULL);
            CHECK_OK(orma_win_attach(m.win, m.mem, size));
            a = (orma_aint)m.mem;
            addr = malloc((size_t)nranks * sizeof *addr);
            CHECK(addr != NULL);
            rt_exchange_aint(&a, 1, addr);
            m.base = m.mem;
        }
        mem = m.base;
        sums = (int64_t *)(void *)(mem + sums_at);
        for (int a = 0; a < 2; a++) {
            rt_fill_bg(mem + (size_t)a * psize, psize);
            at_plan_init(mem + (size_t)a * psize, plan, NSTEPS, at_mix(11u, (uint32_t)(rank * 2 + a)));
            obuf[a] = malloc(psize);
            cbuf[a] = malloc(psize);
            rbuf[a] = malloc(psize);
            CHECK(obuf[a] && cbuf[a] && rbuf[a]);
            rt_fill_bg(rbuf[a], psize);
            at_plan_origin(obuf[a], cbuf[a], plan, NSTEPS, at_mix(12u, (uint32_t)(rank * 2 + a)),
                           at_mix(11u, (uint32_t)(target[a] * 2 + a)));
        }
        for (int j = 0; j < SUMS; j++) {
            sums[j] = -j;
            add[j] = (int64_t)(rank + 1) << (4 * j);
        }
        /* One fence epoch for the plan, then a lock_all epoch in which
         * every rank adds to every rank's sums, REPEAT times: the same op
         * on each location, issued without ordering. */
        CHECK_OK(orma_win_fence(0, m.win));
        for (int a = 0; a < 2; a++)
            at_plan_issue(plan, NSTEPS, obuf[a], cbuf[a], rbuf[a], target[a],
                          (addr ? addr[target[a]] : 0) + (orma_aint)((size_t)a * psize), 1, m.win, NULL, what);
        CHECK_OK(orma_win_fence(ORMA_MODE_NOSUCCEED, m.win));
        CHECK_OK(orma_win_lock_all(0, m.win));
        for (int k = 0; k < REPEAT; k++)
            for (int t = 0; t < nranks; t++) {
                orma_aint d = (addr ? addr[t] : 0) + (orma_aint)sums_at;
                if (k % 2)
                    CHECK_OK(orma_accumulate(add, SUMS, ORMA_INT64, t, d, SUMS, ORMA_INT64, ORMA_SUM, m.win));
                else
                    CHECK_OK(orma_get_accumulate(add, SUMS, ORMA_INT64, got, SUMS, ORMA_INT64, t, d, SUMS,
                                                 ORMA_INT64, ORMA_SUM, m.win));
            }
        CHECK_OK(orma_win_unlock_all(m.win));
        CHECK_OK(orma_barrier());
        for (int a = 0; a < 2; a++) {
            at_plan_expect_target(mem + (size_t)a * psize, psize, plan, NSTEPS,
                                  at_mix(11u, (uint32_t)(rank * 2 + a)),
                                  at_mix(12u, (uint32_t)((a ? rank : lt) * 2 + a)), what);
            at_plan_expect_results(rbuf[a], psize, plan, NSTEPS, at_mix(11u, (uint32_t)(target[a] * 2 + a)),
                                   what);
            free(obuf[a]);
            free(cbuf[a]);
            free(rbuf[a]);
        }
        for (int j = 0; j < SUMS; j++) {
            int64_t total = (int64_t)nranks * (nranks + 1) / 2;
            if (sums[j] != -j + REPEAT * (total << (4 * j))) {
                fprintf(stderr, "rank %d: %s: sum %d is %lld, expected %lld\n", rank, what, j,
                        (long long)sums[j], (long long)(-j + REPEAT * (total << (4 * j))));
                exit(1);
            }
        }
        CHECK_OK(orma_barrier());
        if (addr)
            CHECK_OK(orma_win_detach(m.win, m.mem));
        close_win(&m);
        free(addr);
    }
    CHECK_OK(orma_info_free(&info));
}

/* orma_win_set_info: the keys given change, the others keep their values;
 * a value outside its set is ignored (check mode: refused, nothing
 * changes); alloc_shared_noncontig is returned for shared windows only, and
 * changes only at creation. */
static void set_info(void)
{
    const char *kv[4] = {"accumulate_ordering", "rar,waw", "alloc_shared_noncontig", "true"};
    orma_info info = info_of(kv, 2);
    for (int how = 0; how < NCREATE; how++) {
        struct made m;
        CHECK_OK(try_create(how, info, 64, 8, &m));
        const char *const want[5] = {"rar,waw", NULL, NULL, NULL, NULL};
        expect_info(m.win, want, create_names[how]);
        orma_info got = ORMA_INFO_NULL;
        char v[ORMA_INFO_VAL_MAX + 1];
        int flag = 0;
        CHECK_OK(orma_win_get_info(m.win, &got));
        CHECK_OK(orma_info_get(got, "alloc_shared_noncontig", sizeof v, v, &flag));
        CHECK(how == CR_SHARED ? flag && !strcmp(v, "true") : !flag);
        CHECK_OK(orma_info_free(&got));

        const char *kv2[6] = {"accumulate_ops", "same_op", "same_size", "true", "alloc_shared_noncontig", "false"};
        orma_info change = info_of(kv2, 3);
        CHECK_OK(orma_win_set_info(m.win, change));
        const char *const want2[5] = {"rar,waw", "same_op", NULL, "true", NULL};
        expect_info(m.win, want2, create_names[how]);
        CHECK_OK(orma_win_get_info(m.win, &got));
        CHECK_OK(orma_info_get(got, "alloc_shared_noncontig", sizeof v, v, &flag));
        CHECK(how == CR_SHARED ? flag && !strcmp(v, "true") : !flag);
        CHECK_OK(orma_info_free(&got));
        CHECK_OK(orma_info_free(&change));

        const char *kv3[4] = {"accumulate_ordering", "none", "no_locks", "sometimes"};
        change = info_of(kv3, 2);
        if (at_check_mode()) {
            CHECK_ERR(orma_win_set_info(m.win, change), ORMA_ERR_INFO);
        } else {
            CHECK_OK(orma_win_set_info(m.win, change));
            const char *const want3[5] = {"none", "same_op", NULL, "true", NULL};
            expect_info(m.win, want3, create_names[how]);
        }
        CHECK_OK(orma_info_free(&change));
        if (how != CR_DYNAMIC) /* the window still moves data */
            rt_good_epoch(m.win, m.base, 64, 8, 700u + (unsigned)how * 10u);
        close_win(&m);
    }
    CHECK_OK(orma_info_free(&info));
    CHECK_ERR(orma_win_set_info(ORMA_WIN_NULL, ORMA_INFO_NULL), ORMA_ERR_WIN);
}

int main(int argc, char **argv)
{
    rt_init(&argc, &argv, &rank, &nranks);
    rt = (rank + 1) % nranks;
    lt = (rank + nranks - 1) % nranks;
    at_types_init();
    bad_values();
    defaults();
    given_values();
    no_locks();
    same_size();
    set_info();
    unordered();
    /* get_info on bad handles and into NULL. */
    {
        orma_info info = ORMA_INFO_NULL;
        struct made m;
        CHECK_ERR(orma_win_get_info(ORMA_WIN_NULL, &info), ORMA_ERR_WIN);
        CHECK(info == ORMA_INFO_NULL);
        CHECK_OK(try_create(CR_ALLOCATE, ORMA_INFO_NULL, 8, 1, &m));
        CHECK_ERR(orma_win_get_info(m.win, NULL), ORMA_ERR_ARG);
        {
            orma_win old = m.win;
            close_win(&m);
            CHECK_ERR(orma_win_get_info(old, &info), ORMA_ERR_WIN);
            CHECK(info == ORMA_INFO_NULL);
        }
    }
    CHECK_OK(orma_finalize());
    return 0;
}
