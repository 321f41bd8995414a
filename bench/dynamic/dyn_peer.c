/* dyn_peer.c -- orma-bench-dynamic-peer: the processes orma-bench's
 * dynamic suite spawns or connects to (dyn.h).
 *
 *   spawned                          join the parents' team, meet, leave
 *   cycle PORT N                     connect to PORT N times, meeting and
 *                                    leaving each time
 *   partner spawned SIZES ROUNDS     the spawned partner of the latency
 *   partner connected PORT SIZES ROUNDS   pairs; the connected one */
#include "dyn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what)
{
    fprintf(stderr, "orma-bench-dynamic-peer: %s: %s\n", what, orma_error_message());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || orma_init(&argc, &argv))
        return fail(argc < 2 ? "usage" : "orma_init");
    const char *mode = argv[1];
    orma_team merged = ORMA_TEAM_NULL, pair;
    int st = 0;
    if (!strcmp(mode, "spawned")) {
        if (orma_team_parent(&merged) || merged == ORMA_TEAM_NULL || orma_team_barrier(merged) ||
            orma_team_free(&merged))
            st = fail("spawned");
    } else if (!strcmp(mode, "cycle") && argc == 4) {
        for (int i = 0, n = atoi(argv[3]); i < n && !st; i++)
            if (orma_team_connect(argv[2], ORMA_TEAM_WORLD, 0, &merged) || orma_team_barrier(merged) ||
                orma_team_free(&merged))
                st = fail("cycle");
    } else if (!strcmp(mode, "partner") && argc >= 5) {
        int connected = !strcmp(argv[2], "connected");
        dyn_plan plan;
        if (dyn_plan_parse(&plan, argv[3 + connected], argv[4 + connected]) || (connected && argc < 6))
            return fail("partner: bad sizes or rounds");
        int rc = connected ? orma_team_connect(argv[3], ORMA_TEAM_WORLD, 0, &merged) : orma_team_parent(&merged);
        if (rc || merged == ORMA_TEAM_NULL)
            return fail("partner: the merged team");
        int me;
        orma_team_rank(merged, &me);
        if (dyn_pair_split(merged, me, &pair))
            return 1;
        st = dyn_pairs_partner(&plan, pair, connected ? 2 : 1);
        orma_team_free(&pair);
        if (orma_team_barrier(merged))
            st = fail("partner: the last barrier");
        orma_team_free(&merged);
    } else {
        st = fail("unknown mode");
    }
    orma_finalize();
    return st ? 1 : 0;
}
