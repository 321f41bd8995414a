/* api_win.c -- window creation, queries and synchronization entry points. */
#include "api_check.h"
#include "api_hints.h"
#include "api_team.h"
#include "rma_comm.h"

/* Local checks of a creation call; the verdict is handed to the collective
 * so that all ranks fail together. */
static int api_win_create_common(const struct rma_team *team, const char *call, int flavor, void *base,
                                 size_t size, int disp_unit, orma_info info, void **base_p, orma_win *win_p,
                                 int arg_status)
{
    int status = api_check_init(call);
    if (status)
        return status;
    status = arg_status ? arg_status : api_info_valid(call, info);
    struct rma_win_hints hints = {0};
    if (!status)
        status = api_hints_parse(call, info, &hints);
    if (!status && disp_unit <= 0)
        status = util_error(ORMA_ERR_DISP, "%s: displacement unit %d is not positive", call, disp_unit);
    if (!status && !win_p)
        status = util_error(ORMA_ERR_ARG, "%s: win_p is NULL", call);
    if (!status && base_p == NULL &&
        (flavor == ORMA_WIN_FLAVOR_ALLOCATE || flavor == ORMA_WIN_FLAVOR_SHARED))
        status = util_error(ORMA_ERR_ARG, "%s: base_p is NULL", call);
    if (!status && flavor == ORMA_WIN_FLAVOR_CREATE && !base && size)
        status = util_error(ORMA_ERR_BASE, "%s: base is NULL for a window of %zu bytes", call, size);
    orma_win handle;
    struct rma_win *win = NULL;
    int rc = rma_win_create(team, flavor, base, size, disp_unit, &hints, status, &handle, &win);
    if (status)
        return status;
    if (rc)
        return rc;
    if (base_p)
        *base_p = win->base;
    *win_p = handle;
    return ORMA_SUCCESS;
}

int orma_win_allocate(size_t size, int disp_unit, orma_info info, void **base_p, orma_win *win_p)
{
    return api_win_create_common(NULL, "orma_win_allocate", ORMA_WIN_FLAVOR_ALLOCATE, NULL, size, disp_unit, info,
                                 base_p, win_p, 0);
}

int orma_win_allocate_shared(size_t size, int disp_unit, orma_info info, void **base_p, orma_win *win_p)
{
    return api_win_create_common(NULL, "orma_win_allocate_shared", ORMA_WIN_FLAVOR_SHARED, NULL, size, disp_unit,
                                 info, base_p, win_p, 0);
}

int orma_win_create(void *base, size_t size, int disp_unit, orma_info info, orma_win *win_p)
{
    return api_win_create_common(NULL, "orma_win_create", ORMA_WIN_FLAVOR_CREATE, base, size, disp_unit, info, NULL,
                                 win_p, 0);
}

int orma_win_create_dynamic(orma_info info, orma_win *win_p)
{
    return api_win_create_common(NULL, "orma_win_create_dynamic", ORMA_WIN_FLAVOR_DYNAMIC, NULL, 0, 1, info, NULL,
                                 win_p, 0);
}

int api_win_create_team(const struct rma_team *team, int flavor, void *base, size_t size, int disp_unit,
                        orma_info info, void **base_p, orma_win *win_p, int arg_status)
{
    static const char *const calls[] = {
        [ORMA_WIN_FLAVOR_CREATE] = "orma_win_create", [ORMA_WIN_FLAVOR_ALLOCATE] = "orma_win_allocate",
        [ORMA_WIN_FLAVOR_DYNAMIC] = "orma_win_create_dynamic",
        [ORMA_WIN_FLAVOR_SHARED] = "orma_win_allocate_shared"};
    if (flavor < ORMA_WIN_FLAVOR_CREATE || flavor > ORMA_WIN_FLAVOR_SHARED)
        return util_error(ORMA_ERR_FLAVOR, "window creation: unknown flavour %d", flavor);
    return api_win_create_common(team, calls[flavor], flavor, base, size, disp_unit, info, base_p, win_p,
                                 arg_status);
}

int orma_win_free(orma_win *win_p)
{
    if (!win_p)
        return util_error(ORMA_ERR_ARG, "orma_win_free: win_p is NULL");
    RMA_MT_GUARD(*win_p);
    struct rma_win *win = rma_win_lookup(*win_p);
    if (win && win->peer_lost) {
        /* A rank of another job is gone: nobody to free it with. */
        int status = rma_watch_lost(win, "orma_win_free");
        rma_win_release(win);
        *win_p = ORMA_WIN_NULL;
        return status;
    }
    int status = api_check_win_event("orma_win_free", *win_p, RMA_EV_FREE, &win);
    if (status)
        return status;
    status = rma_win_free(win);
    *win_p = ORMA_WIN_NULL;
    return status;
}

/* The bytes of rank's part this rank can load and store: all of it in a
 * shared window, on a rank's own, or where orma maps all of a target's
 * memory here (allocate windows, create windows on orma_alloc_mem or
 * adopted whole); none where peers are reached otherwise (MPI-4.1 lets
 * shared_query be asked of create and allocate windows too). */
static size_t api_shared_size(const struct rma_win *win, int rank)
{
    const struct rma_target *t = &win->targets[rank];
    int mapped = win->flavor == ORMA_WIN_FLAVOR_SHARED || rank == win->rank || t->direct;
    return mapped ? t->size : 0;
}

int orma_win_shared_query(orma_win handle, int rank, size_t *size_p, int *disp_unit_p, void **base_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win("orma_win_shared_query", handle, &win);
    if (status)
        return status;
    if (win->flavor == ORMA_WIN_FLAVOR_DYNAMIC)
        return util_error(ORMA_ERR_FLAVOR, "orma_win_shared_query: a dynamic window has no memory of its own to "
                          "query (MPI-4.1 12.2.3)");
    if ((rank < -1 || rank >= win->nranks) && rank != ORMA_PROC_NULL)
        return util_error(ORMA_ERR_RANK, "orma_win_shared_query: rank %d is not in 0..%d (or ORMA_PROC_NULL)",
                          rank, win->nranks - 1);
    if (!size_p || !disp_unit_p || !base_p)
        return util_error(ORMA_ERR_ARG, "orma_win_shared_query: NULL output argument");
    if (rank == -1 || rank == ORMA_PROC_NULL) {
        rank = 0;
        for (int r = 0; r < win->nranks; r++) {
            if (api_shared_size(win, r)) {
                rank = r;
                break;
            }
        }
    }
    /* a rank of no memory, or of memory not mapped here, has no base
     * (MPI-4.1 12.2.3: size 0, base NULL) */
    size_t size = api_shared_size(win, rank);
    *size_p = size;
    *disp_unit_p = win->targets[rank].disp_unit;
    *base_p = size ? (rank == win->rank ? win->base : win->targets[rank].base) : NULL;
    return ORMA_SUCCESS;
}

int orma_win_attach(orma_win handle, void *base, size_t size)
{
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win_dynamic("orma_win_attach", handle, &win);
    if (status)
        return status;
    if (!base && size)
        return util_error(ORMA_ERR_BASE, "orma_win_attach: region [NULL, +%zu)", size);
    if ((uintptr_t)base + size < (uintptr_t)base)
        return util_error(ORMA_ERR_BASE, "orma_win_attach: region [%p, +%zu) wraps around", base, size);
    return rma_win_attach(win, base, size);
}

int orma_win_detach(orma_win handle, const void *base)
{
    API_RACE_ENTER();
    RMA_MT_GUARD(handle);
    struct rma_win *win = NULL;
    int status = api_check_win_dynamic("orma_win_detach", handle, &win);
    return status ? status : rma_win_detach(win, base);
}

#define API_WIN_QUERY(fn, type, expr)                                                              \
    int fn(orma_win handle, type *out_p)                                                           \
    {                                                                                              \
        struct rma_win *win = NULL;                                                                   \
        int status = api_check_win(#fn, handle, &win);                                             \
        if (status)                                                                                \
            return status;                                                                         \
        if (!out_p)                                                                                \
            return util_error(ORMA_ERR_ARG, #fn ": output argument is NULL");                      \
        *out_p = (expr);                                                                           \
        return ORMA_SUCCESS;                                                                       \
    }

API_WIN_QUERY(orma_win_get_base, void *, win->base)
API_WIN_QUERY(orma_win_get_size, size_t, win->size)
API_WIN_QUERY(orma_win_get_disp_unit, int, win->disp_unit)
API_WIN_QUERY(orma_win_get_flavor, orma_win_flavor, (orma_win_flavor)win->flavor)
