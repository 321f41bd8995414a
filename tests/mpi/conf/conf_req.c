/* conf_req.c -- MPI-4.1 section 12.3.5 (Request-based RMA Communication
 * Operations), on every window flavour, in exclusive lock, shared lock and
 * lock_all epochs:
 *  - MPI_Rput, MPI_Rget, MPI_Raccumulate and MPI_Rget_accumulate move the
 *    same data as MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
 *    and return a request that MPI_Wait, MPI_Test (in a loop), MPI_Waitall,
 *    MPI_Waitany, MPI_Waitsome, MPI_Testall, MPI_Testany and MPI_Testsome
 *    complete, setting it to MPI_REQUEST_NULL;
 *  - completion is local: an Rget's data and an Rget_accumulate's result
 *    are in the origin's buffer when the request completes, and the origin
 *    buffer of an Rput or Raccumulate may be reused at once; the data is at
 *    the target after MPI_Win_flush (a later get sees it, and the target
 *    itself after MPI_Win_sync and a barrier, or after the unlock);
 *  - requests to MPI_PROC_NULL complete at once (the first MPI_Test) and
 *    move nothing;
 *  - requests of no data (count 0, a zero-size datatype, NULL buffers)
 *    complete and move nothing;
 *  - MPI_Request_free of a request whose operation a flush completed, and
 *    of one still pending (the unlock completes the operation);
 *  - outside a passive target epoch the calls are erroneous: the class is
 *    MPI_ERR_RMA_SYNC where both hosts detect it (see rma_sync). */
#include "conf.h"

#define L 6 /* ints per operation */

/* The window: a block of 4 * L + 4 ints per completion call (and one for
 * MPI_Request_free), in which, at the target, an Rput writes [PUT, PUT +
 * L), an Rget reads [GET, ...), an Raccumulate and an Rget_accumulate add
 * to [ACC, ...) and [GACC, ...); the rest keeps the background.  (The
 * window's size is a multiple of 16 bytes: MPICH 4.0's MPI_Win_allocate,
 * on 3 ranks, places the accesses to rank 1 8 bytes early when it is
 * not -- a defect of window creation, not of this section.) */
enum { PUT = 1, GET = 1 + L, ACC = 1 + 2 * L, GACC = 1 + 3 * L, BLK = 4 * L + 4 };
enum how { WAIT, TEST, WAITALL, WAITANY, WAITSOME, TESTALL, TESTANY, TESTSOME, NHOW };
#define FREE_BLK NHOW
#define N ((NHOW + 1) * BLK)

static const char *const how_name[NHOW] = {"MPI_Wait", "MPI_Test", "MPI_Waitall", "MPI_Waitany",
                                           "MPI_Waitsome", "MPI_Testall", "MPI_Testany", "MPI_Testsome"};

static int at(int blk, int where) { return blk * BLK + where; }

static void reset(struct mt_win *w)
{
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
    fill_bg_int(w->base, N, rank);
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The memory p (this rank's window) after the left neighbour's step: in
 * each block its Rput of conf_val(left), its Raccumulate and (not in the
 * MPI_Request_free block) Rget_accumulate adding conf_val(left) (MPI_SUM);
 * the background everywhere else. */
static void expect_target(const char *what, const int *p)
{
    int left = conf_left();
    for (int i = 0; i < N; i++) {
        int blk = i / BLK, k = i % BLK;
        long long want = bg(rank, i);
        if (k >= PUT && k < PUT + L)
            want = conf_val(left, i);
        else if ((k >= ACC && k < ACC + L) || (blk != FREE_BLK && k >= GACC && k < GACC + L))
            want = bg(rank, i) + conf_val(left, i);
        expect(what, i, p[i], want);
    }
}

static void expect_untouched(const char *what, struct mt_win *w)
{
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    conf_expect_bg(what, w->base, N, rank, 0);
    MPI_Win_unlock(rank, w->win);
}

/* ---- epochs ---- */

enum epoch { E_LOCK_EXCL, E_LOCK_SHARED, E_LOCK_ALL, NEPOCHS };
static const char *const epoch_name[NEPOCHS] = {"exclusive lock", "shared lock", "lock_all"};

static void epoch_open(struct mt_win *w, enum epoch e)
{
    if (e == E_LOCK_ALL)
        MPI_Win_lock_all(0, w->win);
    else
        MPI_Win_lock(e == E_LOCK_EXCL ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED, conf_right(), 0, w->win);
}

static void epoch_close(struct mt_win *w, enum epoch e)
{
    if (e == E_LOCK_ALL)
        MPI_Win_unlock_all(w->win);
    else
        MPI_Win_unlock(conf_right(), w->win);
}

/* ---- completion ---- */


/* Completes the n requests of req by `how`; every one must end as
 * MPI_REQUEST_NULL, each reported once by the any/some calls. */
static void complete(const char *what, int n, MPI_Request *req, enum how how)
{
    int flag = 0, idx = -1, count = 0, done = 0, seen[8] = {0}, list[8];
    /* real statuses: MPICH's MPI_STATUSES_IGNORE is a dummy pointer that
     * GCC's access checks reject */
    MPI_Status st[8];
    switch (how) {
    case WAIT:
        for (int i = 0; i < n; i++)
            conf_ok(what, MPI_Wait(&req[i], &st[0]));
        break;
    case TEST:
        for (int i = 0; i < n; i++)
            for (flag = 0; !flag;)
                conf_ok(what, MPI_Test(&req[i], &flag, &st[0]));
        break;
    case WAITALL:
        conf_ok(what, MPI_Waitall(n, req, st));
        break;
    case TESTALL:
        for (flag = 0; !flag;)
            conf_ok(what, MPI_Testall(n, req, &flag, st));
        break;
    case WAITANY:
    case TESTANY:
        while (done < n) {
            flag = 1;
            if (how == WAITANY)
                conf_ok(what, MPI_Waitany(n, req, &idx, &st[0]));
            else
                conf_ok(what, MPI_Testany(n, req, &idx, &flag, &st[0]));
            if (!flag)
                continue;
            if (idx < 0 || idx >= n || seen[idx])
                fail("%s: %s reported index %d (of %d, %d done)", what, how_name[how], idx, n, done);
            seen[idx] = 1;
            done++;
        }
        break;
    default:
        while (done < n) {
            if (how == WAITSOME)
                conf_ok(what, MPI_Waitsome(n, req, &count, list, st));
            else
                conf_ok(what, MPI_Testsome(n, req, &count, list, st));
            if (count == MPI_UNDEFINED || (how == WAITSOME && count < 1))
                fail("%s: %s reported %d requests with %d of %d pending", what, how_name[how], count, n - done, n);
            for (int k = 0; k < count; k++) {
                if (list[k] < 0 || list[k] >= n || seen[list[k]])
                    fail("%s: %s reported index %d", what, how_name[how], list[k]);
                seen[list[k]] = 1;
            }
            done += count;
        }
        break;
    }
    for (int i = 0; i < n; i++)
        if (req[i] != MPI_REQUEST_NULL)
            fail("%s: %s left request %d active", what, how_name[how], i);
    /* all inactive now: every completion call says so at once */
    if (how == WAITANY) {
        conf_ok(what, MPI_Waitany(n, req, &idx, &st[0]));
        expect("MPI_Waitany on inactive requests: index", 0, idx, MPI_UNDEFINED);
    }
}

/* ---- the four calls ---- */

/* The origin's side of one block: what it puts and adds, what it gets. */
struct side {
    int put[L], acc[L], gacc[L];
    int *got, *res; /* guarded */
};

/* An Rput, an Rget, an Raccumulate and an Rget_accumulate to the right
 * neighbour's block blk, completed by `how`: then the gets' data are here,
 * and the origin buffers are reused at once. */
static void four(struct mt_win *w, const char *epoch_what, int blk, enum how how, struct side *s)
{
    int right = conf_right();
    MPI_Request req[4];
    char what[200];
    snprintf(what, sizeof what, "request-based RMA completed by %s %s", how_name[how], epoch_what);
    s->got = guarded_alloc(L * sizeof(int));
    s->res = guarded_alloc(L * sizeof(int));
    for (int i = 0; i < L; i++) {
        s->put[i] = conf_val(rank, at(blk, PUT) + i);
        s->acc[i] = conf_val(rank, at(blk, ACC) + i);
        s->gacc[i] = conf_val(rank, at(blk, GACC) + i);
        s->got[i] = s->res[i] = -7;
    }
    conf_ok(what, MPI_Rput(s->put, L, MPI_INT, right, mt_disp(w, right, at(blk, PUT)), L, MPI_INT, w->win, &req[0]));
    conf_ok(what, MPI_Rget(s->got, L, MPI_INT, right, mt_disp(w, right, at(blk, GET)), L, MPI_INT, w->win, &req[1]));
    conf_ok(what, MPI_Raccumulate(s->acc, L, MPI_INT, right, mt_disp(w, right, at(blk, ACC)), L, MPI_INT, MPI_SUM,
                                  w->win, &req[2]));
    conf_ok(what, MPI_Rget_accumulate(s->gacc, L, MPI_INT, s->res, L, MPI_INT, right, mt_disp(w, right, at(blk, GACC)),
                                      L, MPI_INT, MPI_SUM, w->win, &req[3]));
    complete(what, 4, req, how);
    /* locally complete: what was got is here, the origin buffers free */
    conf_expect_bg(what, s->got, L, right, at(blk, GET));
    conf_expect_bg(what, s->res, L, right, at(blk, GACC));
    guarded_check(s->got, L * sizeof(int), what);
    guarded_check(s->res, L * sizeof(int), what);
    guarded_free(s->got);
    guarded_free(s->res);
    for (int i = 0; i < L; i++)
        s->put[i] = s->acc[i] = s->gacc[i] = -9;
}

/* After a flush of the right neighbour: gets of block blk see what this
 * rank put there and added (remote completion). */
static void after_flush(struct mt_win *w, const char *what, int blk)
{
    int right = conf_right(), back[2 * L];
    MPI_Request req[2];
    conf_ok(what, MPI_Rget(back, L, MPI_INT, right, mt_disp(w, right, at(blk, PUT)), L, MPI_INT, w->win, &req[0]));
    conf_ok(what, MPI_Rget(back + L, L, MPI_INT, right, mt_disp(w, right, at(blk, ACC)), L, MPI_INT, w->win, &req[1]));
    complete(what, 2, req, WAITALL);
    conf_expect_vals(what, back, L, rank, at(blk, PUT));
    for (int i = 0; i < L; i++)
        expect(what, at(blk, ACC) + i, back[L + i], bg(right, at(blk, ACC) + i) + conf_val(rank, at(blk, ACC) + i));
}

/* ---- MPI_Request_free, MPI_PROC_NULL, no data ---- */

/* The call must succeed; a failure names it and where it was made. */
static void ok_in(const char *what, const char *call, int rc)
{
    char s[700];
    snprintf(s, sizeof s, "%s: %s", what, call);
    conf_ok(s, rc);
}
#define OK_IN(what, call) ok_in(what, #call, (call))

/* MPI_Request_free of an Rput and an Rget whose operations a flush
 * completed, and of an Raccumulate and an Rget still pending, whose
 * operations the epoch's end completes (req[2..3] for the caller, if the
 * host cannot free them). */
static void request_free(struct mt_win *w, const char *what, int *put, int *acc, int *got, int *got2, MPI_Request *req)
{
    int right = conf_right();
    for (int i = 0; i < L; i++) {
        put[i] = conf_val(rank, at(FREE_BLK, PUT) + i);
        acc[i] = conf_val(rank, at(FREE_BLK, ACC) + i);
        got[i] = got2[i] = -7;
    }
    conf_ok(what, MPI_Rput(put, L, MPI_INT, right, mt_disp(w, right, at(FREE_BLK, PUT)), L, MPI_INT, w->win, &req[0]));
    conf_ok(what, MPI_Rget(got, L, MPI_INT, right, mt_disp(w, right, at(FREE_BLK, GET)), L, MPI_INT, w->win, &req[1]));
    conf_ok(what, MPI_Win_flush(right, w->win));
    /* MPICH 4.0 refuses MPI_Request_free of any RMA request ("The supplied
     * request was invalid (kind=12)"), fatally whatever the error handler:
     * its host-alone runs complete the requests with MPI_Waitall instead. */
    int can_free = conf_host_ok(CONF_NOT_MPICH);
    for (int i = 0; i < 2 && can_free; i++) {
        conf_ok(what, MPI_Request_free(&req[i]));
        if (req[i] != MPI_REQUEST_NULL)
            fail("%s: MPI_Request_free left request %d", what, i);
    }
    if (!can_free)
        complete(what, 2, req, WAITALL);
    conf_expect_bg(what, got, L, right, at(FREE_BLK, GET));
    /* pending when freed */
    conf_ok(what, MPI_Raccumulate(acc, L, MPI_INT, right, mt_disp(w, right, at(FREE_BLK, ACC)), L, MPI_INT, MPI_SUM,
                                  w->win, &req[2]));
    conf_ok(what, MPI_Rget(got2, L, MPI_INT, right, mt_disp(w, right, at(FREE_BLK, GACC)), L, MPI_INT, w->win,
                           &req[3]));
    if (can_free) {
        conf_ok(what, MPI_Request_free(&req[2]));
        conf_ok(what, MPI_Request_free(&req[3]));
    }
}

/* Requests to MPI_PROC_NULL: complete at the first MPI_Test, move nothing
 * (buffers checked by the caller after the epoch). */
static void proc_null(struct mt_win *w, const char *what, const int *src, int *dst, int *res)
{
    MPI_Request req[4];
    OK_IN(what, MPI_Rput(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win, &req[0]));
    OK_IN(what, MPI_Rget(dst, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, w->win, &req[1]));
    OK_IN(what, MPI_Raccumulate(src, 4, MPI_INT, MPI_PROC_NULL, 0, 4, MPI_INT, MPI_SUM, w->win, &req[2]));
    OK_IN(what, MPI_Rget_accumulate(src, 4, MPI_INT, res, 4, MPI_INT, MPI_PROC_NULL, 1 << 30, 4, MPI_INT,
                                      MPI_SUM, w->win, &req[3]));
    for (int i = 0; i < 4; i++) {
        int flag = 0;
        conf_ok(what, MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE));
        if (!flag || req[i] != MPI_REQUEST_NULL)
            fail("%s: request %d to MPI_PROC_NULL not complete at the first MPI_Test", what, i);
    }
}

/* Requests of no data, with NULL buffers: they complete and move nothing
 * (the caller checks the window). */
static void no_data(struct mt_win *w, const char *what)
{
    MPI_Datatype empty = conf_empty_type();
    int right = conf_right();
    MPI_Aint d = mt_disp(w, right, 0);
    MPI_Request req[8];
    char call[300];
    snprintf(call, sizeof call, "%s, requests of no data", what);
    for (int i = 0; i < 8; i++)
        req[i] = MPI_REQUEST_NULL; /* what a failed call leaves */
    OK_IN(call, MPI_Rput(NULL, 0, MPI_INT, right, d, 0, MPI_INT, w->win, &req[0]));
    OK_IN(call, MPI_Rget(NULL, 0, MPI_INT, right, d, 2, empty, w->win, &req[1]));
    OK_IN(call, MPI_Rput(NULL, 3, empty, right, d, 1, empty, w->win, &req[2]));
    OK_IN(call, MPI_Rget(NULL, 1, empty, right, d, 0, MPI_INT, w->win, &req[3]));
    OK_IN(call, MPI_Raccumulate(NULL, 0, MPI_INT, right, d, 2, empty, MPI_SUM, w->win, &req[4]));
    OK_IN(call, MPI_Raccumulate(NULL, 2, empty, right, d, 0, MPI_INT, MPI_REPLACE, w->win, &req[5]));
    OK_IN(call, MPI_Rget_accumulate(NULL, 0, MPI_INT, NULL, 2, empty, right, d, 0, MPI_INT, MPI_SUM, w->win, &req[6]));
    OK_IN(call, MPI_Rget_accumulate(NULL, 1, empty, NULL, 0, MPI_INT, right, d, 1, empty, MPI_NO_OP, w->win,
                                      &req[7]));
    complete(call, 8, req, WAITALL);
    MPI_Type_free(&empty);
}

/* ---- one epoch of everything ---- */

/* In one epoch of kind e to the right neighbour: a block of the four calls
 * per completion call, the MPI_Request_free block, requests to
 * MPI_PROC_NULL and of no data; a flush and gets of what was written; in a
 * lock_all epoch the target's own check after MPI_Win_sync; after the
 * epoch, the target's check and the buffers'. */
static void step(struct mt_win *w, enum epoch e)
{
    static struct side sides[NHOW];
    int fput[L], facc[L], fgot[L], fgot2[L];
    int src[4] = {1, 2, 3, 4}, dst[4] = {-1, -1, -1, -1}, res[4] = {-1, -1, -1, -1};
    MPI_Request freq[4];
    char what[120];
    int right = conf_right();
    snprintf(what, sizeof what, "(%s epoch, %s window)", epoch_name[e], mt_flavor_name[w->flavor]);

    reset(w);
    epoch_open(w, e);
    for (int h = 0; h < NHOW; h++)
        four(w, what, h, (enum how)h, &sides[h]);
    request_free(w, what, fput, facc, fgot, fgot2, freq);
    proc_null(w, what, src, dst, res);
    no_data(w, what);

    /* remotely complete after a flush: gets see the data */
    conf_ok(what, MPI_Win_flush(right, w->win));
    for (int h = 0; h < NHOW; h++)
        after_flush(w, what, h);
    if (e == E_LOCK_ALL) {
        /* and the target sees it, after a barrier and MPI_Win_sync (the
         * flush completed the freed requests' operations too) */
        MPI_Barrier(MPI_COMM_WORLD);
        conf_ok(what, MPI_Win_sync(w->win));
        expect_target(what, w->base);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    epoch_close(w, e);
    if (!conf_host_ok(CONF_NOT_MPICH)) /* see request_free */
        complete(what, 2, freq + 2, WAITALL);
    conf_expect_bg(what, fgot2, L, right, at(FREE_BLK, GACC));
    for (int i = 0; i < 4; i++) {
        expect(what, i, src[i], i + 1);
        expect(what, i, dst[i], -1);
        expect(what, i, res[i], -1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win);
    expect_target(what, w->base);
    MPI_Win_unlock(rank, w->win);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- outside a passive target epoch ---- */

/* Request-based calls outside a passive target epoch are erroneous, and
 * the standard leaves detecting it to the implementation.  Both hosts
 * return MPI_ERR_RMA_SYNC on a window that no epoch has opened yet, so the
 * check is made there, before any other use of the window: Open MPI 4.1.4
 * carries the calls out once the window has had a lock epoch, and always
 * where its osc sm serves the window (MPI_Win_allocate_shared, and every
 * window on one rank), which its host-alone runs skip; neither host detects
 * the calls inside a fence epoch (both carry them out). */
static void rma_sync(struct mt_win *w)
{
    if ((w->flavor == MT_SHARED || size == 1) && !conf_host_ok(CONF_NOT_OPEN_MPI))
        return;
    int right = conf_right(), v[2] = {1, 2}, r[2] = {0, 0};
    MPI_Aint d = mt_disp(w, right, 0);
    MPI_Request req = MPI_REQUEST_NULL;
    fill_bg_int(w->base, N, rank); /* no epoch yet: the memory is ours */
    MPI_Barrier(MPI_COMM_WORLD);
    ERR(MPI_ERR_RMA_SYNC, MPI_Rput(v, 2, MPI_INT, right, d, 2, MPI_INT, w->win, &req));
    ERR(MPI_ERR_RMA_SYNC, MPI_Rget(r, 2, MPI_INT, right, d, 2, MPI_INT, w->win, &req));
    ERR(MPI_ERR_RMA_SYNC, MPI_Raccumulate(v, 2, MPI_INT, right, d, 2, MPI_INT, MPI_SUM, w->win, &req));
    ERR(MPI_ERR_RMA_SYNC, MPI_Rget_accumulate(v, 2, MPI_INT, r, 2, MPI_INT, right, d, 2, MPI_INT, MPI_SUM, w->win,
                                              &req));
    MPI_Barrier(MPI_COMM_WORLD);
    expect_untouched("after erroneous request-based calls", w);
    expect("an erroneous Rget moved data", 0, r[0] + r[1], 0);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Every check, on a window of each flavour. */
static void checks(struct mt_win *w)
{
    rma_sync(w); /* first: no epoch yet */
    for (int e = 0; e < NEPOCHS; e++)
        step(w, (enum epoch)e);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    conf_each_flavor(N * sizeof(int), (int)sizeof(int), checks);
    return conf_done("conf_req");
}
