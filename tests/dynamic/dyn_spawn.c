/* dyn_spawn.c -- orma_spawn: parents (this program under orma-run -n P)
 * start C children of the same program, and the team of both carries
 * windows of every flavour in every sync mode (dyn_windows.h), its splits
 * too, and a second spawn from the same parents.
 *
 *   dyn_spawn <children>           (the parents)
 *   dyn_spawn --child <parents>    (what orma_spawn starts) */
#include "dyn_windows.h"
#include "util_config.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_merged(orma_team merged, int parents, int children, int child)
{
    int me, np, w;
    CHECK_OK(orma_team_size(merged, &np));
    CHECK_OK(orma_team_rank(merged, &me));
    CHECK(np == parents + children);
    CHECK(me == (child ? parents : 0) + orma_rank()); /* parents first, each side in its own order */
    /* The ranks of the other job have no number in this one's world. */
    for (int r = 0; r < np; r++) {
        CHECK_OK(orma_team_translate_rank(merged, r, ORMA_TEAM_WORLD, &w));
        int mine = child ? r >= parents : r < parents;
        CHECK(w == (mine ? r - (child ? parents : 0) : ORMA_UNDEFINED));
    }
}

/* The merged team split across the jobs: even and odd ranks. */
static void check_split(orma_team merged)
{
    int me;
    CHECK_OK(orma_team_rank(merged, &me));
    orma_team half;
    CHECK_OK(orma_team_split(merged, me % 2, me, &half));
    int hr, hn, back;
    CHECK_OK(orma_team_rank(half, &hr));
    CHECK_OK(orma_team_size(half, &hn));
    CHECK(hr == me / 2);
    CHECK_OK(orma_team_translate_rank(half, hr, merged, &back));
    CHECK(back == me);
    dyn_check_windows(half);
    CHECK_OK(orma_team_free(&half));
}

int main(int argc, char **argv)
{
    CHECK_OK(orma_init(&argc, &argv));
    orma_team merged, second;
    CHECK_OK(orma_team_parent(&merged));
    int child = argc > 2 && !strcmp(argv[1], "--child");
    CHECK(child == (merged != ORMA_TEAM_NULL));
    int parents, children;
    if (child) {
        parents = atoi(argv[2]);
        children = orma_size();
        if (argc > 3) { /* the second spawn: a team check and out */
            check_merged(merged, parents, children, 1);
            CHECK_OK(orma_team_barrier(merged));
            CHECK_OK(orma_team_free(&merged));
            CHECK_OK(orma_team_parent(&merged));
            CHECK(merged == ORMA_TEAM_NULL);
            CHECK_OK(orma_finalize());
            return 0;
        }
    } else {
        CHECK(argc == 2);
        parents = orma_size();
        children = atoi(argv[1]);
        char count[16];
        snprintf(count, sizeof count, "%d", parents);
        char *args[] = {"--child", count, NULL};
        CHECK_OK(orma_spawn(ORMA_TEAM_WORLD, 0, argv[0], args, children, ORMA_INFO_NULL, &merged));
    }
    check_merged(merged, parents, children, child);
    dyn_check_windows(merged);
    /* Ranks of the other job share this machine's cores: with more ranks
     * than cores, nobody spins (util_wait_tune_joined), whichever job has
     * more -- unless the rank was bound to one CPU, when only its own
     * job's ranks count. */
    if (!getenv("ORMA_SPIN")) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        cpu_set_t mask;
        int bound = sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) == 1;
        int own = child ? children : parents;
        CHECK((util_config.spin == 0) == (own > cpus || (!bound && parents + children > cpus)));
    }
    check_split(merged);
    CHECK_OK(orma_team_barrier(merged));
    CHECK_OK(orma_team_free(&merged));
    if (!child) {
        /* Again, one child, rooted at the last parent, from a team's handle. */
        char count[16];
        snprintf(count, sizeof count, "%d", parents);
        char *args[] = {"--child", count, "again", NULL};
        CHECK_OK(orma_spawn(ORMA_TEAM_WORLD, parents - 1, argv[0], args, 1, ORMA_INFO_NULL, &second));
        check_merged(second, parents, 1, 0);
        CHECK_OK(orma_team_barrier(second));
        CHECK_OK(orma_team_free(&second));
    }
    if (orma_rank() == 0)
        printf("%s: %d parents, %d children: ok\n", child ? "child" : "parent", parents, children);
    CHECK_OK(orma_finalize());
    return 0;
}
