/* nt_team.c -- counters of windows made on teams, whose ranks are not the
 * job's: the world in reverse order, and the even and the odd ranks each
 * in reverse order.  Each rank of a team has team rank + 1 counters (by
 * info, and again later by orma_win_notify_alloc) and raises the last
 * counter of its right neighbour in the team with a notified put, which
 * the neighbour finds with its data; every other counter stays 0.  Skipped
 * (77) where teams other than the world cannot be made (ranks on several
 * nodes). */
#include "nt_test.h"

enum { SIZE = 192, AT = 40, LEN = 56 };

static int rank, nranks;

static void ring(orma_team team, int by_info)
{
    int tr = -1, tn = 0;
    CHECK_OK(orma_team_rank(team, &tr));
    CHECK_OK(orma_team_size(team, &tn));
    int right = (tr + 1) % tn, left = (tr + tn - 1) % tn;
    size_t mine = (size_t)tr + 1, theirs = (size_t)right + 1;
    unsigned char *mem = NULL, msg[LEN];
    orma_win win = ORMA_WIN_NULL;
    orma_info info = ORMA_INFO_NULL;
    char v[16];

    nt_step("a team of %d, team rank %d, counters %s", tn, tr, by_info ? "by info" : "made later");
    if (by_info) {
        snprintf(v, sizeof v, "%zu", mine);
        CHECK_OK(orma_info_create(&info));
        CHECK_OK(orma_info_set(info, "orma_notify_num", v));
    }
    CHECK_OK(orma_win_allocate_team(team, SIZE, 1, info, (void **)&mem, &win));
    if (by_info)
        CHECK_OK(orma_info_free(&info));
    else
        CHECK_OK(orma_win_notify_alloc(win, mine));
    rt_fill_bg(mem, SIZE);
    CHECK_OK(orma_team_barrier(team));

    CHECK_OK(orma_win_lock_all(0, win));
    rt_fill_data(msg, LEN, 500u + (unsigned)tr, AT);
    CHECK_OK(orma_put_notify(msg, LEN, ORMA_BYTE, right, AT, LEN, ORMA_BYTE, win, (int)theirs - 1,
                             ORMA_NOTIFY_SET, 1000u + (unsigned)tr));
    CHECK_OK(orma_win_flush(right, win));
    CHECK_OK(orma_notify_wait(win, (int)mine - 1, 1000u + (unsigned)left));
    RT_EXPECT_REGION(mem, SIZE, AT, LEN, 500u + (unsigned)left, AT, "window of a team's rank");
    CHECK_OK(orma_win_unlock_all(win));
    CHECK_OK(orma_team_barrier(team));
    uint64_t want[64] = {0};
    CHECK(mine <= 64);
    want[mine - 1] = 1000u + (unsigned)left;
    nt_expect_counters(win, mine, want, "a team's window");
    CHECK_OK(orma_win_free(&win));
}

int main(int argc, char **argv)
{
    orma_team reversed = ORMA_TEAM_NULL, parity = ORMA_TEAM_NULL;
    rt_init(&argc, &argv, &rank, &nranks);
    int rc = orma_team_split(ORMA_TEAM_WORLD, 0, nranks - rank, &reversed);
    if (rc == ORMA_ERR_UNSUPPORTED) {
        if (rank == 0)
            printf("nt_team: %s: skipped\n", orma_error_message());
        CHECK_OK(orma_finalize());
        return 77;
    }
    CHECK_OK(rc);
    CHECK_OK(orma_team_split(ORMA_TEAM_WORLD, rank % 2, -rank, &parity));
    for (int by_info = 0; by_info < 2; by_info++) {
        ring(reversed, by_info);
        ring(parity, by_info);
    }
    CHECK_OK(orma_team_free(&reversed));
    CHECK_OK(orma_team_free(&parity));
    nt_finish("nt_team");
    return 0;
}
