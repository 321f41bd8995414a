/* api_group.c -- groups of ranks. */
#include "api_check.h"
#include "api_group.h"

#include <stdlib.h>
#include <string.h>

static int api_group_new(int n, orma_group *group_p)
{
    orma_group g = malloc(sizeof *g + (size_t)n * sizeof g->ranks[0]);
    if (!g)
        return util_error(ORMA_ERR_NOMEM, "out of memory for a group of %d ranks", n);
    g->magic = API_GROUP_MAGIC;
    g->n = n;
    *group_p = g;
    return ORMA_SUCCESS;
}

int api_group_check(const char *call, orma_group group, int nranks)
{
    if (!group || group->magic != API_GROUP_MAGIC)
        return util_error(ORMA_ERR_ARG, "%s: not a valid group", call);
    for (int i = 0; i < group->n; i++)
        if (group->ranks[i] >= nranks)
            return util_error(ORMA_ERR_RANK, "%s: group rank %d is not a rank of the window (0..%d)", call,
                              group->ranks[i], nranks - 1);
    return ORMA_SUCCESS;
}

int orma_win_get_group(orma_win handle, orma_group *group_p)
{
    struct rma_win *win = NULL;
    int status = api_check_win_out("orma_win_get_group", handle, group_p, "group_p", &win);
    if (status)
        return status;
    orma_group g = NULL;
    status = api_group_new(win->nranks, &g);
    if (status)
        return status;
    for (int r = 0; r < win->nranks; r++)
        g->ranks[r] = r;
    *group_p = g;
    return ORMA_SUCCESS;
}

/* Positions in group, checked: in range and none twice. */
static int api_group_positions(const char *call, orma_group group, int n, const int *ranks, char *mark)
{
    if (n < 0 || (n > 0 && !ranks))
        return util_error(ORMA_ERR_ARG, "%s: %d ranks from a NULL array", call, n);
    if (n > group->n)
        return util_error(ORMA_ERR_RANK, "%s: %d ranks from a group of %d", call, n, group->n);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->n)
            return util_error(ORMA_ERR_RANK, "%s: rank %d is not in the group (0..%d)", call, ranks[i],
                              group->n - 1);
        if (mark[ranks[i]])
            return util_error(ORMA_ERR_RANK, "%s: rank %d is given twice", call, ranks[i]);
        mark[ranks[i]] = 1;
    }
    return ORMA_SUCCESS;
}

static int api_group_select(const char *call, orma_group group, int n, const int *ranks, int keep_listed,
                            orma_group *newgroup_p)
{
    int status = api_group_check(call, group, INT32_MAX);
    if (status)
        return status;
    if (!newgroup_p)
        return util_error(ORMA_ERR_ARG, "%s: newgroup_p is NULL", call);
    char *mark = calloc((size_t)group->n + 1, 1);
    if (!mark)
        return util_error(ORMA_ERR_NOMEM, "%s: out of memory", call);
    status = api_group_positions(call, group, n, ranks, mark);
    orma_group g = NULL;
    if (!status)
        status = api_group_new(keep_listed ? n : group->n - n, &g);
    if (!status) {
        if (keep_listed) {
            for (int i = 0; i < n; i++)
                g->ranks[i] = group->ranks[ranks[i]];
        } else {
            int k = 0;
            for (int i = 0; i < group->n; i++)
                if (!mark[i])
                    g->ranks[k++] = group->ranks[i];
        }
        *newgroup_p = g;
    }
    free(mark);
    return status;
}

int orma_group_incl(orma_group group, int n, const int *ranks, orma_group *newgroup_p)
{
    return api_group_select("orma_group_incl", group, n, ranks, 1, newgroup_p);
}

int orma_group_excl(orma_group group, int n, const int *ranks, orma_group *newgroup_p)
{
    return api_group_select("orma_group_excl", group, n, ranks, 0, newgroup_p);
}

int orma_group_size(orma_group group, int *size_p)
{
    int status = api_group_check("orma_group_size", group, INT32_MAX);
    if (status)
        return status;
    if (!size_p)
        return util_error(ORMA_ERR_ARG, "orma_group_size: size_p is NULL");
    *size_p = group->n;
    return ORMA_SUCCESS;
}

int orma_group_rank(orma_group group, int *rank_p)
{
    int status = api_check_init("orma_group_rank");
    if (!status)
        status = api_group_check("orma_group_rank", group, INT32_MAX);
    if (status)
        return status;
    if (!rank_p)
        return util_error(ORMA_ERR_ARG, "orma_group_rank: rank_p is NULL");
    int me = orma_rank();
    *rank_p = ORMA_UNDEFINED;
    for (int i = 0; i < group->n; i++)
        if (group->ranks[i] == me)
            *rank_p = i;
    return ORMA_SUCCESS;
}

int orma_group_translate_ranks(orma_group group1, int n, const int *ranks1, orma_group group2, int *ranks2)
{
    int status = api_group_check("orma_group_translate_ranks", group1, INT32_MAX);
    if (!status)
        status = api_group_check("orma_group_translate_ranks", group2, INT32_MAX);
    if (status)
        return status;
    if (n < 0 || (n > 0 && (!ranks1 || !ranks2)))
        return util_error(ORMA_ERR_ARG, "orma_group_translate_ranks: bad count %d or NULL arrays", n);
    for (int i = 0; i < n; i++)
        if (ranks1[i] < 0 || ranks1[i] >= group1->n)
            return util_error(ORMA_ERR_RANK, "orma_group_translate_ranks: rank %d is not in the first group "
                              "(0..%d)", ranks1[i], group1->n - 1);
    for (int i = 0; i < n; i++) {
        ranks2[i] = ORMA_UNDEFINED;
        for (int j = 0; j < group2->n; j++)
            if (group2->ranks[j] == group1->ranks[ranks1[i]])
                ranks2[i] = j;
    }
    return ORMA_SUCCESS;
}

int orma_group_free(orma_group *group_p)
{
    if (!group_p)
        return util_error(ORMA_ERR_ARG, "orma_group_free: group_p is NULL");
    int status = api_group_check("orma_group_free", *group_p, INT32_MAX);
    if (status)
        return status;
    (*group_p)->magic = 0;
    free(*group_p);
    *group_p = ORMA_GROUP_NULL;
    return ORMA_SUCCESS;
}
