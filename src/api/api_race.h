/* api_race.h -- the api layer's part of ORMA_CHECK=race (rma_race.h):
 * every public call that issues or completes an access says where it was
 * called from (API_RACE_ENTER, first thing), and each access is recorded
 * once its checks passed, or reported when it lies outside the target's
 * memory (api_race).  A face calling orma_* for its own caller names that
 * caller first (api_race_site). */
#ifndef ORMA_API_RACE_H
#define ORMA_API_RACE_H

#include "rma_race.h"
#include "util_config.h"

#define API_RACE_ENTER()                                                                                     \
    do {                                                                                                     \
        if (__builtin_expect(rma_race_sites, 0))                                                             \
            rma_race_enter(__builtin_return_address(0));                                                     \
    } while (0)

/* The next orma_* call of this thread reports ra as its call site. */
void api_race_site(const void *ra);

/* Where target_disp of target is, for a report of an access the checks
 * refused before resolving it. */
static inline size_t api_race_at(const struct rma_win *win, int target, orma_aint target_disp)
{
    if (win->flavor == ORMA_WIN_FLAVOR_DYNAMIC)
        return (size_t)target_disp;
    int unit = target == win->rank ? win->disp_unit : win->targets[target].disp_unit;
    return (size_t)target_disp * (size_t)unit;
}

/* An access's check said status: recorded (success), reported (outside the
 * target's memory), or left (an error the call reports, or nothing to
 * do).  Returns status. */
static inline int api_race(struct rma_win *win, int target, orma_aint target_disp, int status,
                           struct rma_race_access *a)
{
    if (__builtin_expect(!win || !win->race, 1) || (unsigned)target >= (unsigned)win->nranks)
        return status;
    if (status == ORMA_SUCCESS) {
        /* dynamic windows: once the transfer found the bytes attached
         * (api_race_after), so that a refused access is not recorded */
        if (win->flavor != ORMA_WIN_FLAVOR_DYNAMIC)
            rma_race_record(win, target, a);
        else
            win->race_outside = 0; /* what this access's transfer finds */
    } else if (status == ORMA_ERR_RANGE) {
        a->offset = api_race_at(win, target, target_disp);
        rma_race_outside(win, target, a, NULL);
    }
    return status;
}

/* The transfer's status: in dynamic windows, the access recorded now, or
 * reported when the bytes lie in no attached region (refused under
 * ORMA_CHECK=1, carried out as the unchecked program's otherwise). */
static inline int api_race_after(struct rma_win *win, int target, int status, struct rma_race_access *a)
{
    if (__builtin_expect(win && win->race, 0) && win->flavor == ORMA_WIN_FLAVOR_DYNAMIC) {
        if (status == ORMA_SUCCESS && win->race_outside)
            rma_race_outside(win, target, a, "its bytes are not all inside one region attached to the window "
                                             "(MPI-4.1 12.2.4); carried out as without the check");
        else if (status == ORMA_SUCCESS)
            rma_race_record(win, target, a);
        else if (status == ORMA_ERR_RANGE)
            rma_race_outside(win, target, a, NULL);
        win->race_outside = 0;
    }
    return status;
}

#endif
