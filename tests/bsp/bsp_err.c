/* bsp_err.c -- BSPlib programs with one error each, for bsp_err_driver,
 * which runs them under orma-run and checks how the job ends (status,
 * message, time, leftovers).
 *
 *   bsp_err <case> <report-file>
 *
 * Before bsp_begin every process appends "up <pid> <job token>" to the
 * report file (so the driver can check that all of them are gone and look
 * for this job's shared-memory objects).  Unless the case says otherwise
 * the last process makes the bad call, a little later than the others,
 * which wait in bsp_sync meanwhile:
 *   put_unreg      bsp_put to an ident never registered
 *   hpput_unreg    bsp_hpput to an ident never registered
 *   put_outside    bsp_put of 24 bytes at offset 0 into process 0's area
 *                  of 16 bytes (the caller's own area is larger)
 *   get_outside    bsp_get of 20 bytes at offset 0 from that area
 *   reg_same_step  bsp_put to an area pushed in the same superstep
 *   reg_mismatch   process 0 pushes two registrations, the others one
 *                  (every process calls bsp_sync)
 *   tag_mismatch   process 0 sets tag size 4, the others 8
 *   pid_range      bsp_put to pid bsp_nprocs()
 *   send_pid       bsp_send to pid -1
 *   neg_nbytes     bsp_put of -1 bytes
 *   neg_offset     bsp_get at offset -4
 *   move_empty     bsp_move on an empty queue
 *   pop_unreg      every process pops an ident never registered
 *   popped_latest  an ident pushed with 8 then 64 bytes, popped once: a put
 *                  at offset 32 no longer fits
 *   repushed_smaller  an ident of 64 bytes popped and pushed again with 8
 *                  in one superstep: then a put at offset 32 does not fit
 *   too_many_pushes  every process pushes 1025 registrations in one
 *                  superstep (bsp.h: at most 1024)
 *   end_vs_sync    the last process calls bsp_end, the others bsp_sync
 *   abort          bsp_abort("custom %d", 42)
 *   noend          the last process returns from main without calling
 *                  bsp_end, the others wait in bsp_sync
 *   keep_orma_fewer  every process calls orma_init itself, then
 *                  bsp_begin(2) (run at 3 ranks): a program that keeps
 *                  orma runs its SPMD part on every rank (bsp.h)
 * A process whose bad call returns says so on stderr; if the job then ends
 * normally it exits 0, which the driver counts as a failure. */
#include "bsp_test.h"

#include <orma.h>

#include <fcntl.h>
#include <unistd.h>

static char area[256], other[256], fresh[256];

static void report_up(const char *path)
{
    const char *token = getenv("ORMA_BOOT_JOB");
    char line[160];
    int len = snprintf(line, sizeof line, "up %ld %s\n", (long)getpid(), token && *token ? token : "-");
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    CHECK(fd >= 0);
    CHECK(write(fd, line, (size_t)len) == len);
    close(fd);
}

static void returned(const char *c)
{
    fprintf(stderr, "bsp process %d: the bad call of case %s returned\n", bt_pid, c);
    fflush(stderr);
}

int main(int argc, char **argv)
{
    CHECK(argc == 3);
    const char *c = argv[1];
    report_up(argv[2]);
    if (!strcmp(c, "keep_orma_fewer")) {
        CHECK(orma_init(&argc, &argv) == ORMA_SUCCESS);
        bsp_begin(2);
        bt_pid = bsp_pid();
        fprintf(stderr, "bsp process %d: case %s: the error was not caught\n", bt_pid, c);
        bsp_sync();
        bsp_end();
        orma_finalize();
        return 0;
    }
    bsp_begin(bsp_nprocs());
    bt_pid = bsp_pid();
    int p = bsp_nprocs(), me = bt_pid, last = p - 1;
    char x[64];
    memset(x, 7, sizeof x);
    /* area: 16 bytes on process 0, more on the others */
    bsp_push_reg(area, 16 * (me + 1));
    bsp_sync();

    int bad = me == last;
    if (bad)
        bt_sleep_ms(200); /* the others are in bsp_sync by now */
    if (!strcmp(c, "put_unreg")) {
        if (bad) {
            bsp_put(0, x, other, 0, 4);
            returned(c);
        }
    } else if (!strcmp(c, "hpput_unreg")) {
        if (bad) {
            bsp_hpput(0, x, other, 0, 4);
            returned(c);
        }
    } else if (!strcmp(c, "put_outside")) {
        if (bad) {
            bsp_put(0, x, area, 0, 24);
            returned(c);
        }
    } else if (!strcmp(c, "get_outside")) {
        if (bad) {
            bsp_get(0, area, 0, x, 20);
            returned(c);
        }
    } else if (!strcmp(c, "reg_same_step")) {
        bsp_push_reg(fresh, 64);
        if (bad) {
            bsp_put(0, x, fresh, 0, 4);
            returned(c);
        }
    } else if (!strcmp(c, "reg_mismatch")) {
        bsp_push_reg(fresh, 64);
        if (me == 0)
            bsp_push_reg(other, 64);
    } else if (!strcmp(c, "tag_mismatch")) {
        int t = me == 0 ? 4 : 8;
        bsp_set_tagsize(&t);
    } else if (!strcmp(c, "pid_range")) {
        if (bad) {
            bsp_put(p, x, area, 0, 4);
            returned(c);
        }
    } else if (!strcmp(c, "send_pid")) {
        if (bad) {
            bsp_send(-1, NULL, x, 4);
            returned(c);
        }
    } else if (!strcmp(c, "neg_nbytes")) {
        if (bad) {
            bsp_put(0, x, area, 0, -1);
            returned(c);
        }
    } else if (!strcmp(c, "neg_offset")) {
        if (bad) {
            bsp_get(0, area, -4, x, 4);
            returned(c);
        }
    } else if (!strcmp(c, "move_empty")) {
        if (bad) {
            bsp_move(x, 8);
            returned(c);
        }
    } else if (!strcmp(c, "pop_unreg")) {
        bsp_pop_reg(other);
    } else if (!strcmp(c, "popped_latest")) {
        bsp_push_reg(fresh, 8);
        bsp_push_reg(fresh, 64);
        bsp_sync();
        bsp_pop_reg(fresh);
        bsp_sync();
        if (bad) {
            bsp_put(0, x, fresh, 32, 16);
            returned(c);
        }
    } else if (!strcmp(c, "repushed_smaller")) {
        bsp_push_reg(fresh, 64);
        bsp_sync();
        bsp_pop_reg(fresh);
        bsp_push_reg(fresh, 8);
        bsp_sync();
        if (bad) {
            bsp_put(0, x, fresh, 32, 8);
            returned(c);
        }
    } else if (!strcmp(c, "too_many_pushes")) {
        static char many[1025];
        for (int i = 0; i < 1025; i++)
            bsp_push_reg(many + i, 1);
    } else if (!strcmp(c, "end_vs_sync")) {
        if (bad) {
            bsp_end();
            fprintf(stderr, "bsp process %d: case %s: the error was not caught\n", me, c);
            return 0;
        }
    } else if (!strcmp(c, "noend")) {
        if (bad)
            return 0; /* no bsp_end */
    } else if (!strcmp(c, "abort")) {
        if (bad)
            bsp_abort("custom %d", 42);
    } else {
        fprintf(stderr, "bsp_err: unknown case %s\n", c);
        exit(2);
    }
    bsp_sync();
    bsp_sync();
    fprintf(stderr, "bsp process %d: case %s: the error was not caught\n", me, c);
    bsp_end();
    return 0;
}
