/* caf_team.c -- teams: FORM TEAM, CHANGE TEAM, END TEAM, SYNC TEAM,
 * TEAM_NUMBER.  A team is an orma team (orma_team_split of the current
 * team by team number, members in the order of their index there); inside
 * CHANGE TEAM image numbers, THIS_IMAGE, NUM_IMAGES, SYNC ALL, SYNC IMAGES
 * and the collectives are the team's, and coarrays allocated there are
 * windows over it.  Synchronization stays pairwise, on the control
 * window's counters, which are indexed by world rank. */
#include "caf_impl.h"

#include <stdlib.h>

static int caf_team_index_map(struct caf_team *t)
{
    t->index = malloc((size_t)caf.n * sizeof *t->index);
    if (!t->index)
        return -1;
    for (int r = 0; r < caf.n; r++)
        t->index[r] = -1;
    for (int i = 0; i < t->n; i++)
        t->index[t->world[i]] = i;
    return 0;
}

void caf_team_init(void)
{
    struct caf_team *t = &caf.initial;
    t->ot = ORMA_TEAM_WORLD;
    t->number = -1;
    t->n = caf.n;
    t->me = caf.me;
    t->world = malloc((size_t)caf.n * sizeof *t->world);
    if (!t->world)
        caf_die(1, "out of memory");
    for (int r = 0; r < caf.n; r++)
        t->world[r] = r;
    if (caf_team_index_map(t) != 0)
        caf_die(1, "out of memory");
    caf.team = t;
}

void _gfortran_caf_form_team(int team_number, void **team, int new_index)
{
    (void)new_index; /* gfortran 12 has no NEW_INDEX= */
    if (team_number <= 0)
        caf_die(1, "FORM TEAM with team number %d: it must be positive", team_number);
    struct caf_team *t = calloc(1, sizeof *t);
    if (!t)
        caf_die(1, "out of memory");
    int rc = orma_team_split(caf.team->ot, team_number, caf.team->me, &t->ot);
    if (rc == ORMA_SUCCESS)
        rc = orma_team_size(t->ot, &t->n);
    if (rc == ORMA_SUCCESS)
        rc = orma_team_rank(t->ot, &t->me);
    if (rc == ORMA_SUCCESS && !(t->world = malloc((size_t)t->n * sizeof *t->world)))
        rc = ORMA_ERR_NOMEM;
    for (int i = 0; rc == ORMA_SUCCESS && i < t->n; i++)
        rc = orma_team_translate_rank(t->ot, i, ORMA_TEAM_WORLD, &t->world[i]);
    if (rc != ORMA_SUCCESS || caf_team_index_map(t) != 0)
        caf_die(1, "FORM TEAM %d: %s (%s)", team_number, orma_strerror(rc), orma_error_message());
    t->number = team_number;
    t->next = caf.teams;
    caf.teams = t;
    *team = t;
}

/* SYNC ALL over team t (its world ranks). */
static int caf_team_sync(struct caf_team *t, int *stat)
{
    return caf_sync_ranks(t->world, t->n, stat, NULL, 0);
}

void _gfortran_caf_change_team(void **team, int coselector)
{
    (void)coselector;
    struct caf_team *t = team ? *team : NULL;
    if (!t)
        caf_die(1, "CHANGE TEAM to a team variable that FORM TEAM has not defined");
    if (t->index[caf.me] < 0 || t->parent)
        caf_die(1, "CHANGE TEAM to team %d, %s", t->number,
                t->parent ? "which is active already" : "which this image is not a member of");
    t->parent = caf.team;
    caf.team = t;
    caf_team_sync(t, NULL);
}

void _gfortran_caf_end_team(void **unused)
{
    (void)unused;
    struct caf_team *t = caf.team;
    if (t == &caf.initial)
        caf_die(1, "END TEAM outside CHANGE TEAM");
    caf_team_sync(t, NULL);
    /* Allocatable coarrays allocated in the construct and still allocated
     * are deallocated (F2018 11.1.5.2): collective over the team, newest
     * first, the same order on every member. */
    for (struct caf_token *k = caf.tokens, *next; k; k = next) {
        next = k->next;
        if (k->team != t || k->kind != CAF_REG_COARRAY_ALLOC)
            continue;
        caf_token_unlink(k);
        if (k->desc)
            k->desc->base = NULL;
        caf_token_release(k);
        free(k);
    }
    caf.team = t->parent;
    t->parent = NULL;
}

void _gfortran_caf_sync_team(void **team, int unused)
{
    (void)unused;
    struct caf_team *t = team ? *team : NULL;
    if (!t || t->index[caf.me] < 0)
        caf_die(1, "SYNC TEAM of a team this image is not a member of");
    caf_team_sync(t, NULL);
}

int _gfortran_caf_team_number(void *team)
{
    struct caf_team *t = team ? team : caf.team;
    return t->number;
}

void caf_team_release_all(void)
{
    /* Windows allocated in formed teams first (collective over each team,
     * newest first, the same order on every member), then the teams'
     * scratch windows and handles; the world's windows after (caller). */
    for (struct caf_token *t = caf.tokens, *next; t; t = next) {
        next = t->next;
        if (!t->team || t->team == &caf.initial)
            continue;
        caf_token_unlink(t);
        caf_token_release(t);
        free(t);
    }
    while (caf.teams) {
        struct caf_team *t = caf.teams;
        caf.teams = t->next;
        caf_coll_free(t);
        orma_team_free(&t->ot);
        free(t->world);
        free(t->index);
        free(t);
    }
}
