/* mpi_spawn_cases.c -- the corners of the one-sided chapter over a
 * communicator whose ranks belong to two MPI_COMM_WORLDs: the parents
 * (this program, mpirun -n P) spawn 2 children of it, both sides merge the
 * intercommunicator, and each case runs on the merged communicator and on
 * a split of it whose halves hold ranks of both worlds:
 *   zero     count-0 operations of every kind and MPI_PROC_NULL targets in
 *            fence, PSCW, lock and lock_all epochs change nothing
 *   tiny     MPI_Win_create on 1, 3 and 17 bytes of malloc'd and stack
 *            memory, disp_unit 1 and 4, sizes differing per rank, one 0
 *   dynamic  about 300 small attached regions per rank, reached at every
 *            rank, then half detached and attached anew for a second round
 *   atomics  accumulate, get_accumulate, fetch_and_op and compare_and_swap
 *            from every rank to one target, the results exact
 *   dtypes   vector, indexed and resized types as origin and target types
 *   errors   with MPI_ERRORS_RETURN a put past a window's end or to a rank
 *            beyond the group fails and writes nothing; the window lives on
 * and at last the lifetime case: the children free their windows,
 * disconnect and finalize while the parents keep using a window of their
 * own (made on a split of the merged communicator while the children
 * lived), then make a new one.
 *
 * Every transfer is checked where it lands, and so is everything around
 * it (guard bytes or the window's background).  Host runs: a host that
 * cannot spawn here (MPICH 4.0.2 from Debian) makes the test skip, saying
 * so; a case Open MPI 4.1 cannot do over such a communicator (its osc rdma
 * makes no create or dynamic window across worlds) is skipped in the host
 * run only, saying so (tiny, dynamic and errors there).  Runs on
 * liborma-mpi skip nothing. */
#include "mpi_test.h"

#include <stdint.h>
#include <time.h>

#define SKIP 77

static const char *where = "";  /* which communicator the cases run on */
static int cme, cnp;             /* this rank and the size there */

static void say(const char *what)
{
    if (cme == 0)
        printf("  %s: %s, np %d: ok\n", where, what, cnp);
}

/* After a window creation returning rc on every rank of comm: 0 when all
 * made it (its error handler then fatal), or, in host runs only, 1 when the
 * host cannot make such a window here (skipped, saying so). */
static int win_made(MPI_Comm comm, int rc, MPI_Win *win, const char *what)
{
    int ok = rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, comm);
    if (all) {
        MPI_Win_set_errhandler(*win, MPI_ERRORS_ARE_FATAL);
        return 0;
    }
    char msg[MPI_MAX_ERROR_STRING] = "(on another rank)";
    int len = 0;
    if (!ok)
        MPI_Error_string(rc, msg, &len);
    if (mt_orma)
        fail("%s on %s: the window across worlds failed: %s", what, where, msg);
    if (cme == 0)
        printf("  host: %s on %s skipped: no such window across worlds here (%s)\n", what, where, msg);
    if (ok)
        MPI_Win_free(win);
    return 1;
}

/* A byte pattern, never 0, 0x11 (background) nor MT_GUARD_BYTE. */
static unsigned char pat(int round, int origin, long i)
{
    unsigned char v = (unsigned char)(round * 53 + origin * 17 + i * 3 + 1);
    return v == 0 || v == 0x11 || v == MT_GUARD_BYTE ? 0x42 : v;
}

static void bytes_expect(const unsigned char *p, size_t n, unsigned char want, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != want)
            fail("%s on %s: byte %zu is 0x%02x, expected 0x%02x", what, where, i, p[i], want);
}

/* ---- epochs of every synchronization mode ---------------------------- */

enum { E_FENCE, E_PSCW, E_LOCK, E_LOCK_ALL, E_N };
static const char *const epoch_name[E_N] = {"fence", "pscw", "lock", "lock_all"};

/* Opens an epoch of mode e in which this rank reaches target t (a lock
 * epoch with t MPI_PROC_NULL locks this rank's own window: MPI_PROC_NULL
 * is a target of the communication calls, not of MPI_Win_lock). */
static void epoch_open(int e, int t, MPI_Group all, MPI_Win win)
{
    if (e == E_FENCE)
        MPI_Win_fence(0, win);
    else if (e == E_PSCW) {
        MPI_Win_post(all, 0, win);
        MPI_Win_start(all, 0, win);
    } else if (e == E_LOCK)
        MPI_Win_lock(MPI_LOCK_SHARED, t == MPI_PROC_NULL ? cme : t, 0, win);
    else
        MPI_Win_lock_all(0, win);
}

static void epoch_close(int e, int t, MPI_Win win)
{
    if (e == E_FENCE)
        MPI_Win_fence(0, win);
    else if (e == E_PSCW) {
        MPI_Win_complete(win);
        MPI_Win_wait(win);
    } else if (e == E_LOCK) {
        int lt = t == MPI_PROC_NULL ? cme : t;
        MPI_Win_flush(lt, win);
        MPI_Win_unlock(lt, win);
    } else {
        MPI_Win_flush_all(win);
        MPI_Win_unlock_all(win);
    }
}

/* ---- zero: count 0 and MPI_PROC_NULL --------------------------------- */

#define ZN 16

/* Every kind of operation to t, with count cnt (0 to a real target, 4 to
 * MPI_PROC_NULL); request-based ones only in passive epochs. */
static void zero_ops(MPI_Win win, int t, int cnt, const int *src, int *res, int passive)
{
    MPI_Put(src, cnt, MPI_INT, t, 2, cnt, MPI_INT, win);
    MPI_Get(res, cnt, MPI_INT, t, 2, cnt, MPI_INT, win);
    MPI_Accumulate(src, cnt, MPI_INT, t, 3, cnt, MPI_INT, MPI_SUM, win);
    MPI_Get_accumulate(src, cnt, MPI_INT, res, cnt, MPI_INT, t, 4, cnt, MPI_INT, MPI_SUM, win);
    MPI_Get_accumulate(NULL, 0, MPI_INT, res, cnt, MPI_INT, t, 4, cnt, MPI_INT, MPI_NO_OP, win);
    MPI_Datatype none; /* a type of no data, count 1 and 3 */
    MPI_Type_contiguous(0, MPI_INT, &none);
    MPI_Type_commit(&none);
    MPI_Put(src, 1, none, t, 0, 1, none, win);
    MPI_Get(res, 3, none, t, 0, 3, none, win);
    MPI_Accumulate(src, 1, none, t, 0, 1, none, MPI_REPLACE, win);
    MPI_Type_free(&none);
    if (t == MPI_PROC_NULL) { /* the single-element calls have no count */
        int one = 1, cmp = 0;
        MPI_Fetch_and_op(&one, &res[8], MPI_INT, t, 1, MPI_SUM, win);
        MPI_Compare_and_swap(&one, &cmp, &res[9], MPI_INT, t, 1, win);
    }
    if (!passive)
        return;
    MPI_Request rq[4];
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: MPICH's (a pointer of value 1) trips the compiler */
    MPI_Rput(src, cnt, MPI_INT, t, 2, cnt, MPI_INT, win, &rq[0]);
    MPI_Rget(res, cnt, MPI_INT, t, 2, cnt, MPI_INT, win, &rq[1]);
    MPI_Raccumulate(src, cnt, MPI_INT, t, 3, cnt, MPI_INT, MPI_SUM, win, &rq[2]);
    MPI_Rget_accumulate(src, cnt, MPI_INT, res, cnt, MPI_INT, t, 4, cnt, MPI_INT, MPI_SUM, win, &rq[3]);
    MPI_Waitall(4, rq, st);
}

static void zero_epochs(MPI_Comm comm, MPI_Win win, int *mem, MPI_Group all)
{
    int src[ZN], res[ZN];
    for (int i = 0; i < ZN; i++) {
        src[i] = 77 + i;
        res[i] = -5;
    }
    for (int e = 0; e < E_N; e++) {
        for (int k = 0; k <= cnp; k++) { /* every rank with count 0, then MPI_PROC_NULL */
            int t = k < cnp ? (cme + k) % cnp : MPI_PROC_NULL;
            epoch_open(e, t, all, win);
            zero_ops(win, t, t == MPI_PROC_NULL ? 4 : 0, src, res, e == E_LOCK || e == E_LOCK_ALL);
            epoch_close(e, t, win);
        }
        if (e == E_PSCW) { /* an epoch of empty groups, MPI_PROC_NULL only */
            MPI_Win_post(MPI_GROUP_EMPTY, 0, win);
            MPI_Win_start(MPI_GROUP_EMPTY, 0, win);
            zero_ops(win, MPI_PROC_NULL, 4, src, res, 0);
            MPI_Win_complete(win);
            MPI_Win_wait(win);
        }
        MPI_Barrier(comm);
        MPI_Win_lock(MPI_LOCK_SHARED, cme, 0, win);
        for (int i = 0; i < ZN; i++)
            if (mem[i] != bg(cme, i))
                fail("zero, %s epochs on %s: window int %d is %d, expected %d", epoch_name[e], where, i, mem[i],
                     bg(cme, i));
        MPI_Win_unlock(cme, win);
        for (int i = 0; i < ZN; i++) {
            expect("zero: an origin buffer", i, src[i], 77 + i);
            expect("zero: a result buffer", i, res[i], -5);
        }
    }
}

static void case_zero(MPI_Comm comm)
{
    int *mem;
    MPI_Win win;
    int rc = MPI_Win_allocate(ZN * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win);
    if (win_made(comm, rc, &win, "zero counts and MPI_PROC_NULL"))
        return;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, cme, 0, win);
    fill_bg_int(mem, ZN, cme);
    MPI_Win_unlock(cme, win);
    MPI_Barrier(comm);
    MPI_Group all;
    MPI_Win_get_group(win, &all);
    zero_epochs(comm, win, mem, all);
    MPI_Group_free(&all);
    MPI_Win_free(&win);
    say("count 0 and MPI_PROC_NULL in fence, pscw, lock and lock_all epochs");
}

/* ---- tiny: MPI_Win_create on a few bytes ----------------------------- */

/* Bytes of rank r's window in layout k: 1, 3 or 17 everywhere, or mixed. */
static int tiny_bytes(int k, int r)
{
    static const int fixed[] = {1, 3, 17}, mixed[] = {17, 1, 0, 3};
    return k < 3 ? fixed[k] : mixed[r % 4];
}

#define TINY_MAX 17

/* A lock epoch on t of the given type, or a fence epoch. */
static void tiny_epoch(int lock, int type, int t, MPI_Win win)
{
    if (lock)
        MPI_Win_lock(type, t, 0, win);
    else
        MPI_Win_fence(0, win);
}

static void tiny_epoch_end(int lock, int t, MPI_Win win)
{
    if (lock)
        MPI_Win_unlock(t, win);
    else
        MPI_Win_fence(0, win);
}

/* Puts into the next rank's window (all of it, or from its second unit
 * when the unit is 4 and there is room) and gets it back, in a fence or a
 * lock epoch; base is this rank's window, TINY_MAX bytes between guards. */
static void tiny_one(MPI_Comm comm, unsigned char *base, int k, int unit, int lock, int round)
{
    int mine = tiny_bytes(k, cme), t = (cme + 1) % cnp, from = (cme + cnp - 1) % cnp;
    memset(base, 0x11, TINY_MAX);
    MPI_Win win;
    if (MPI_Win_create(mine ? base : NULL, mine, unit, MPI_INFO_NULL, comm, &win) != MPI_SUCCESS)
        fail("tiny create window of %d bytes (unit %d) on %s: failed", mine, unit, where);
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
    int tb = tiny_bytes(k, t), skip_t = unit == 4 && tb > 4, n = tb - 4 * skip_t;
    unsigned char *src = guarded_alloc(TINY_MAX), *dst = guarded_alloc(TINY_MAX);
    for (int i = 0; i < TINY_MAX; i++)
        src[i] = pat(round, cme, i);
    tiny_epoch(lock, MPI_LOCK_EXCLUSIVE, t, win);
    if (n)
        MPI_Put(src, n, MPI_BYTE, t, skip_t, n, MPI_BYTE, win);
    tiny_epoch_end(lock, t, win);
    MPI_Barrier(comm);
    int skip_me = unit == 4 && mine > 4;
    for (int i = 0; i < TINY_MAX; i++) {
        int want = i < 4 * skip_me || i >= mine ? 0x11 : pat(round, from, i - 4 * skip_me);
        if (base[i] != want)
            fail("tiny create window of %d bytes (unit %d, %s) on %s: byte %d is 0x%02x, expected 0x%02x", mine, unit,
                 lock ? "lock" : "fence", where, i, base[i], want);
    }
    MPI_Barrier(comm);
    tiny_epoch(lock, MPI_LOCK_SHARED, t, win);
    if (n)
        MPI_Get(dst, n, MPI_BYTE, t, skip_t, n, MPI_BYTE, win);
    tiny_epoch_end(lock, t, win);
    for (int i = 0; i < TINY_MAX; i++)
        expect("tiny: a byte got back", i, dst[i], i < n ? src[i] : MT_GUARD_BYTE);
    guarded_check(dst, TINY_MAX, "tiny: the get's buffer");
    guarded_check(src, TINY_MAX, "tiny: the put's buffer");
    guarded_free(src);
    guarded_free(dst);
    MPI_Win_free(&win);
}

static void case_tiny(MPI_Comm comm)
{
    MPI_Win probe; /* can the host make a create window here at all? */
    unsigned char one = 0;
    int rc = MPI_Win_create(&one, 1, 1, MPI_INFO_NULL, comm, &probe);
    if (win_made(comm, rc, &probe, "tiny create windows"))
        return;
    MPI_Win_free(&probe);
    int round = 0;
    for (int k = 0; k < 4; k++)
        for (int unit = 1; unit <= 4; unit += 3) {
            unsigned char *heap = guarded_alloc(TINY_MAX);
            tiny_one(comm, heap, k, unit, round % 2, round);
            guarded_check(heap, TINY_MAX, "tiny: a malloc'd window");
            guarded_free(heap);
            round++;
            unsigned char stack[MT_GUARD + TINY_MAX + MT_GUARD];
            memset(stack, MT_GUARD_BYTE, sizeof stack);
            tiny_one(comm, stack + MT_GUARD, k, unit, round % 2, round);
            guarded_check(stack + MT_GUARD, TINY_MAX, "tiny: a window on the stack");
            round++;
        }
    say("create windows of 1, 3, 17 and 0 bytes, malloc'd and on the stack, units 1 and 4");
}

/* ---- dynamic: hundreds of attached regions --------------------------- */

#define DR 300   /* regions per rank */
#define DSLOT 24 /* bytes of a get's slot, more than any region */

struct dyn {
    MPI_Win win;
    unsigned char *reg[DR];
    int bytes[DR];
    MPI_Aint *addr; /* every rank's regions: [rank * DR + j] */
    int *len;
};

static int dyn_bytes(int j, int gen) { return 1 + (j * 7 + gen * 3) % 23; }

/* Round gen writes region j of every rank from origin j % cnp, in the
 * regions with j % 5 == gen. */
static int dyn_written(int j, int gen) { return j % 5 == gen; }

/* Generation gen: (re)attach the regions (round 1 replaces the even ones
 * by new regions of other sizes), zero them all, publish addresses. */
static void dyn_attach(struct dyn *d, MPI_Comm comm, int gen)
{
    for (int j = 0; j < DR; j++) {
        if (gen > 0 && j % 2)
            continue;
        if (d->reg[j]) {
            MPI_Win_detach(d->win, d->reg[j]);
            guarded_check(d->reg[j], (size_t)d->bytes[j], "dynamic: a detached region");
            guarded_free(d->reg[j]);
        }
        d->bytes[j] = dyn_bytes(j, gen);
        d->reg[j] = guarded_alloc((size_t)d->bytes[j]);
        MPI_Win_attach(d->win, d->reg[j], d->bytes[j]);
    }
    MPI_Aint mine[DR];
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, cme, 0, d->win);
    for (int j = 0; j < DR; j++) {
        memset(d->reg[j], 0, (size_t)d->bytes[j]);
        MPI_Get_address(d->reg[j], &mine[j]);
    }
    MPI_Win_unlock(cme, d->win);
    MPI_Allgather(mine, DR, MPI_AINT, d->addr, DR, MPI_AINT, comm);
    MPI_Allgather(d->bytes, DR, MPI_INT, d->len, DR, MPI_INT, comm);
}

/* Puts into the regions this rank writes at every rank (fence in round 0,
 * lock_all in round 1), then checks its own regions. */
static void dyn_put(struct dyn *d, MPI_Comm comm, int gen)
{
    unsigned char *src = malloc((size_t)cnp * DR * DSLOT);
    if (!src)
        fail("malloc");
    if (gen)
        MPI_Win_lock_all(0, d->win);
    else
        MPI_Win_fence(0, d->win);
    for (int t = 0; t < cnp; t++)
        for (int j = cme; j < DR; j += cnp) {
            if (!dyn_written(j, gen))
                continue;
            unsigned char *s = src + ((size_t)t * DR + (size_t)j) * DSLOT;
            int n = d->len[t * DR + j];
            for (int i = 0; i < n; i++)
                s[i] = pat(gen, cme, j + i);
            MPI_Put(s, n, MPI_BYTE, t, d->addr[t * DR + j], n, MPI_BYTE, d->win);
        }
    if (gen)
        MPI_Win_unlock_all(d->win);
    else
        MPI_Win_fence(0, d->win);
    free(src);
    MPI_Barrier(comm);
    MPI_Win_lock(MPI_LOCK_SHARED, cme, 0, d->win);
    for (int j = 0; j < DR; j++)
        for (int i = 0; i < d->bytes[j]; i++) {
            int want = dyn_written(j, gen) ? pat(gen, j % cnp, j + i) : 0;
            if (d->reg[j][i] != want)
                fail("dynamic round %d on %s: region %d byte %d is 0x%02x, expected 0x%02x", gen, where, j, i,
                     d->reg[j][i], want);
        }
    MPI_Win_unlock(cme, d->win);
    MPI_Barrier(comm);
}

/* Gets back, under a shared lock of each rank, what this rank put there. */
static void dyn_get(struct dyn *d, MPI_Comm comm, int gen)
{
    size_t n = (size_t)DR * DSLOT;
    unsigned char *dst = guarded_alloc(n);
    for (int t = 0; t < cnp; t++) {
        memset(dst, 0x11, n);
        MPI_Win_lock(MPI_LOCK_SHARED, t, 0, d->win);
        for (int j = cme; j < DR; j += cnp)
            if (dyn_written(j, gen))
                MPI_Get(dst + (size_t)j * DSLOT, d->len[t * DR + j], MPI_BYTE, t, d->addr[t * DR + j],
                        d->len[t * DR + j], MPI_BYTE, d->win);
        MPI_Win_unlock(t, d->win);
        for (int j = 0; j < DR; j++) {
            int got = j % cnp == cme && dyn_written(j, gen) ? d->len[t * DR + j] : 0;
            for (int i = 0; i < DSLOT; i++)
                if (dst[(size_t)j * DSLOT + i] != (i < got ? pat(gen, cme, j + i) : 0x11))
                    fail("dynamic round %d on %s: got 0x%02x from region %d of rank %d, byte %d", gen, where,
                         dst[(size_t)j * DSLOT + i], j, t, i);
        }
    }
    guarded_check(dst, n, "dynamic: the gets' buffer");
    guarded_free(dst);
    MPI_Barrier(comm);
}

static void case_dynamic(MPI_Comm comm)
{
    struct dyn d;
    memset(&d, 0, sizeof d);
    int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &d.win);
    if (win_made(comm, rc, &d.win, "dynamic window of 300 regions"))
        return;
    d.addr = malloc((size_t)cnp * DR * sizeof *d.addr);
    d.len = malloc((size_t)cnp * DR * sizeof *d.len);
    if (!d.addr || !d.len)
        fail("malloc");
    for (int gen = 0; gen < 2; gen++) {
        dyn_attach(&d, comm, gen);
        dyn_put(&d, comm, gen);
        dyn_get(&d, comm, gen);
    }
    for (int j = 0; j < DR; j++) {
        MPI_Win_detach(d.win, d.reg[j]);
        guarded_check(d.reg[j], (size_t)d.bytes[j], "dynamic: a region at the end");
        guarded_free(d.reg[j]);
    }
    MPI_Win_free(&d.win);
    free(d.addr);
    free(d.len);
    say("dynamic window, 300 regions a rank, detached and attached anew");
}

/* ---- atomics: every rank to one target -------------------------------- */

#define AITERS 40
enum { A_TICKET, A_SUM, A_GETACC, A_CAS, A_MAX, A_BXOR, A_REPLACE, A_SLOTS };

/* Passive epochs: tickets by fetch_and_op, sums by accumulate and
 * get_accumulate, under a shared lock; increments by compare_and_swap under
 * lock_all.  The tickets this rank drew go to tickets[]. */
static void atomics_passive(MPI_Win win, int tg, int64_t *tickets)
{
    int64_t one = 1, mine = cme + 1, old;
    MPI_Win_lock(MPI_LOCK_SHARED, tg, 0, win);
    for (int i = 0; i < AITERS; i++) {
        MPI_Fetch_and_op(&one, &tickets[i], MPI_INT64_T, tg, A_TICKET, MPI_SUM, win);
        MPI_Accumulate(&mine, 1, MPI_INT64_T, tg, A_SUM, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Get_accumulate(&one, 1, MPI_INT64_T, &old, 1, MPI_INT64_T, tg, A_GETACC, 1, MPI_INT64_T, MPI_SUM, win);
        MPI_Win_flush(tg, win);
        if (old < 0 || old >= (int64_t)cnp * AITERS)
            fail("atomics on %s: get_accumulate returned %lld", where, (long long)old);
    }
    MPI_Win_unlock(tg, win);
    MPI_Win_lock_all(0, win);
    for (int i = 0; i < AITERS / 4; i++) {
        int64_t cur, next, was;
        do {
            MPI_Fetch_and_op(NULL, &cur, MPI_INT64_T, tg, A_CAS, MPI_NO_OP, win);
            MPI_Win_flush(tg, win);
            next = cur + 1;
            MPI_Compare_and_swap(&next, &cur, &was, MPI_INT64_T, tg, A_CAS, win);
            MPI_Win_flush(tg, win);
        } while (was != cur);
    }
    MPI_Win_unlock_all(win);
}

/* Active epochs: MPI_MAX and MPI_BXOR in a fence epoch, MPI_REPLACE of one
 * value by all in a PSCW epoch that only the target exposes. */
static void atomics_active(MPI_Win win, int tg, MPI_Group all)
{
    int64_t mx = 1000 + cme, bit = (int64_t)1 << cme, same = 4242;
    MPI_Win_fence(0, win);
    MPI_Accumulate(&mx, 1, MPI_INT64_T, tg, A_MAX, 1, MPI_INT64_T, MPI_MAX, win);
    MPI_Accumulate(&bit, 1, MPI_INT64_T, tg, A_BXOR, 1, MPI_INT64_T, MPI_BXOR, win);
    MPI_Win_fence(0, win);
    MPI_Group target;
    MPI_Group_incl(all, 1, &tg, &target);
    if (cme == tg)
        MPI_Win_post(all, 0, win);
    MPI_Win_start(target, 0, win);
    MPI_Accumulate(&same, 1, MPI_INT64_T, tg, A_REPLACE, 1, MPI_INT64_T, MPI_REPLACE, win);
    MPI_Win_complete(win);
    if (cme == tg)
        MPI_Win_wait(win);
    MPI_Group_free(&target);
}

/* At the target: the slots exact, the tickets each drawn once. */
static void atomics_check(MPI_Comm comm, const int64_t *mem, int tg, const int64_t *tickets)
{
    int64_t *drawn = cme == tg ? malloc((size_t)cnp * AITERS * sizeof *drawn) : NULL;
    MPI_Gather(tickets, AITERS, MPI_INT64_T, drawn, AITERS, MPI_INT64_T, tg, comm);
    if (cme != tg)
        return;
    char *seen = calloc((size_t)cnp * AITERS, 1);
    for (int i = 0; i < cnp * AITERS; i++) {
        if (drawn[i] < 0 || drawn[i] >= cnp * AITERS || seen[drawn[i]]++)
            fail("atomics on %s: ticket %lld drawn twice or out of range", where, (long long)drawn[i]);
    }
    free(seen);
    free(drawn);
    int64_t bits = 0;
    for (int r = 0; r < cnp; r++)
        bits |= (int64_t)1 << r;
    expect("atomics: fetch_and_op tickets", tg, mem[A_TICKET], (long long)cnp * AITERS);
    expect("atomics: accumulate sum", tg, mem[A_SUM], (long long)AITERS * cnp * (cnp + 1) / 2);
    expect("atomics: get_accumulate sum", tg, mem[A_GETACC], (long long)cnp * AITERS);
    expect("atomics: compare_and_swap increments", tg, mem[A_CAS], (long long)cnp * (AITERS / 4));
    expect("atomics: max", tg, mem[A_MAX], 1000 + cnp - 1);
    expect("atomics: bxor", tg, mem[A_BXOR], bits);
    expect("atomics: replace", tg, mem[A_REPLACE], 4242);
    for (int i = A_SLOTS; i < 2 * A_SLOTS; i++)
        expect("atomics: a slot no one reached", i, mem[i], bg(cme, i));
}

static void case_atomics(MPI_Comm comm)
{
    int64_t *mem;
    MPI_Win win;
    int rc = MPI_Win_allocate(2 * A_SLOTS * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, comm, &mem, &win);
    if (win_made(comm, rc, &win, "atomics"))
        return;
    MPI_Group all;
    MPI_Win_get_group(win, &all);
    int64_t tickets[AITERS];
    for (int k = 0; k < 2; k++) { /* to the first rank, then the last */
        int tg = k ? cnp - 1 : 0;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, cme, 0, win);
        for (int i = 0; i < 2 * A_SLOTS; i++)
            mem[i] = i < A_SLOTS ? 0 : bg(cme, i);
        MPI_Win_unlock(cme, win);
        MPI_Barrier(comm);
        atomics_passive(win, tg, tickets);
        atomics_active(win, tg, all);
        MPI_Barrier(comm);
        MPI_Win_lock(MPI_LOCK_SHARED, cme, 0, win);
        atomics_check(comm, mem, tg, tickets);
        MPI_Win_unlock(cme, win);
        MPI_Barrier(comm);
    }
    MPI_Group_free(&all);
    MPI_Win_free(&win);
    say("accumulate, get_accumulate, fetch_and_op and compare_and_swap from all to one");
}

/* ---- dtypes: derived origin and target types ------------------------- */

#define TW 64    /* ints of a window and of the local buffers */
#define TDISP 8  /* where the types start, in both */
#define TELEMS 8 /* ints each type (with its count) moves */
enum { T_CONTIG, T_VECTOR, T_INDEXED, T_RESIZED, T_KINDS };
static const char *const dtype_name[T_KINDS] = {"contiguous", "vector", "indexed", "resized"};

/* The type, its count and the offsets of the ints it moves, in order. */
static MPI_Datatype dtype_make(int k, int *count, int *at)
{
    static const int offs[T_KINDS][TELEMS] = {{0, 1, 2, 3, 4, 5, 6, 7},
                                              {0, 1, 3, 4, 6, 7, 9, 10},
                                              {1, 2, 3, 10, 20, 21, 22, 23},
                                              {0, 3, 5, 8, 10, 13, 15, 18}};
    static const int blocks[] = {3, 1, 4}, disps[] = {1, 10, 20};
    MPI_Datatype t, pair;
    *count = 1;
    if (k == T_CONTIG)
        MPI_Type_contiguous(TELEMS, MPI_INT, &t);
    else if (k == T_VECTOR)
        MPI_Type_vector(4, 2, 3, MPI_INT, &t);
    else if (k == T_INDEXED)
        MPI_Type_indexed(3, blocks, disps, MPI_INT, &t);
    else {
        MPI_Type_vector(2, 1, 3, MPI_INT, &pair);
        MPI_Type_create_resized(pair, 0, 5 * sizeof(int), &t);
        MPI_Type_free(&pair);
        *count = 4;
    }
    MPI_Type_commit(&t);
    memcpy(at, offs[k], sizeof offs[k]);
    return t;
}

static int dt_src(int op, int r, int i) { return 10000 * (op + 1) + 100 * r + i; }

/* op 0 put, 1 get, 2 accumulate (sum) of origin type ok to target type tk,
 * to the next rank; checks the window (what the previous rank did) and
 * the local buffer (what a get brought), all of both. */
static void dtype_one(MPI_Comm comm, MPI_Win win, int *mem, int op, int ok, int tk)
{
    int oc, tc, oat[TELEMS], tat[TELEMS], buf[TW], want[TW];
    MPI_Datatype ot = dtype_make(ok, &oc, oat), tt = dtype_make(tk, &tc, tat);
    int t = (cme + 1) % cnp, from = (cme + cnp - 1) % cnp, lock = (ok + tk + op) % 2;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, cme, 0, win);
    fill_bg_int(mem, TW, cme);
    MPI_Win_unlock(cme, win);
    for (int i = 0; i < TW; i++)
        buf[i] = op == 1 ? -1 : dt_src(op, cme, i);
    MPI_Barrier(comm);
    if (lock)
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win);
    else
        MPI_Win_fence(0, win);
    if (op == 0)
        MPI_Put(buf + TDISP, oc, ot, t, TDISP, tc, tt, win);
    else if (op == 1)
        MPI_Get(buf + TDISP, oc, ot, t, TDISP, tc, tt, win);
    else
        MPI_Accumulate(buf + TDISP, oc, ot, t, TDISP, tc, tt, MPI_SUM, win);
    if (lock)
        MPI_Win_unlock(t, win);
    else
        MPI_Win_fence(0, win);
    MPI_Barrier(comm);
    for (int i = 0; i < TW; i++)
        want[i] = op == 1 ? -1 : dt_src(op, cme, i);
    if (op == 1)
        for (int e = 0; e < TELEMS; e++)
            want[TDISP + oat[e]] = bg(t, TDISP + tat[e]);
    for (int i = 0; i < TW; i++)
        if (buf[i] != want[i])
            fail("dtypes, %s %s to %s on %s: origin int %d is %d, expected %d", op == 1 ? "get" : "put/acc",
                 dtype_name[ok], dtype_name[tk], where, i, buf[i], want[i]);
    for (int i = 0; i < TW; i++)
        want[i] = bg(cme, i);
    if (op != 1)
        for (int e = 0; e < TELEMS; e++)
            want[TDISP + tat[e]] = (op == 2 ? want[TDISP + tat[e]] : 0) + dt_src(op, from, TDISP + oat[e]);
    MPI_Win_lock(MPI_LOCK_SHARED, cme, 0, win);
    for (int i = 0; i < TW; i++)
        if (mem[i] != want[i])
            fail("dtypes, op %d %s to %s on %s: window int %d is %d, expected %d", op, dtype_name[ok],
                 dtype_name[tk], where, i, mem[i], want[i]);
    MPI_Win_unlock(cme, win);
    MPI_Barrier(comm);
    MPI_Type_free(&ot);
    MPI_Type_free(&tt);
}

static void case_dtypes(MPI_Comm comm)
{
    int *mem;
    MPI_Win win;
    int rc = MPI_Win_allocate(TW * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win);
    if (win_made(comm, rc, &win, "derived datatypes"))
        return;
    for (int op = 0; op < 3; op++)
        for (int ok = 0; ok < T_KINDS; ok++)
            for (int tk = 0; tk < T_KINDS; tk++)
                dtype_one(comm, win, mem, op, ok, tk);
    MPI_Win_free(&win);
    say("vector, indexed and resized types as origin and target of put, get and accumulate");
}

/* ---- errors: MPI_ERRORS_RETURN ---------------------------------------- */

#define EBYTES 17

/* rc must be an error (of class want on liborma-mpi, which the standard
 * names for these; any error on a host). */
static void error_expect(int rc, int want, const char *what)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (cls == MPI_SUCCESS)
        fail("errors on %s: %s returned MPI_SUCCESS", where, what);
    if (mt_orma && cls != want)
        fail("errors on %s: %s returned class %d, expected %d", where, what, cls, want);
}

static void errors_made(MPI_Win win, int t)
{
    unsigned char src[EBYTES + 4], res[EBYTES + 4];
    int ints[8] = {0};
    memset(src, 0x5a, sizeof src);
    memset(res, 0x11, sizeof res);
    MPI_Win_lock(MPI_LOCK_SHARED, t, 0, win);
    error_expect(MPI_Put(src, 2, MPI_BYTE, t, EBYTES - 1, 2, MPI_BYTE, win), MPI_ERR_RMA_RANGE,
                 "a put of 2 bytes at the last byte");
    error_expect(MPI_Put(src, 1, MPI_BYTE, t, EBYTES, 1, MPI_BYTE, win), MPI_ERR_RMA_RANGE,
                 "a put just past the end");
    error_expect(MPI_Put(src, 1, MPI_BYTE, t, (MPI_Aint)1 << 40, 1, MPI_BYTE, win), MPI_ERR_RMA_RANGE,
                 "a put at 2^40");
    error_expect(MPI_Get(res, EBYTES + 1, MPI_BYTE, t, 0, EBYTES + 1, MPI_BYTE, win), MPI_ERR_RMA_RANGE,
                 "a get of one byte more than the window");
    error_expect(MPI_Accumulate(ints, 5, MPI_INT, t, 0, 5, MPI_INT, MPI_SUM, win), MPI_ERR_RMA_RANGE,
                 "an accumulate of 20 bytes");
    error_expect(MPI_Put(src, 1, MPI_BYTE, cnp, 0, 1, MPI_BYTE, win), MPI_ERR_RANK, "a put to rank size");
    error_expect(MPI_Put(src, 1, MPI_BYTE, cnp + 7, 0, 1, MPI_BYTE, win), MPI_ERR_RANK, "a put to rank size + 7");
    MPI_Win_unlock(t, win);
    bytes_expect(res, sizeof res, 0x11, "errors: the failed get's buffer");
}

static void case_errors(MPI_Comm comm)
{
    unsigned char *mem = guarded_alloc(EBYTES);
    memset(mem, 0, EBYTES);
    MPI_Win win;
    int rc = MPI_Win_create(mem, EBYTES, 1, MPI_INFO_NULL, comm, &win);
    if (win_made(comm, rc, &win, "errors")) {
        guarded_free(mem);
        return;
    }
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int t = (cme + 1) % cnp, from = (cme + cnp - 1) % cnp;
    errors_made(win, t);
    MPI_Barrier(comm);
    bytes_expect(mem, EBYTES, 0, "errors: the window after the failed calls");
    guarded_check(mem, EBYTES, "errors: the window after the failed calls");
    unsigned char src[EBYTES];
    for (int i = 0; i < EBYTES; i++)
        src[i] = pat(9, cme, i);
    MPI_Win_fence(0, win);
    if (MPI_Put(src, EBYTES, MPI_BYTE, t, 0, EBYTES, MPI_BYTE, win) != MPI_SUCCESS)
        fail("errors on %s: the window is not usable after the failed calls", where);
    MPI_Win_fence(0, win);
    for (int i = 0; i < EBYTES; i++)
        expect("errors: a byte put after the failed calls", i, mem[i], pat(9, from, i));
    guarded_check(mem, EBYTES, "errors: the window at the end");
    MPI_Win_free(&win);
    guarded_free(mem);
    say("a put past the end or to a rank beyond the group fails, writes nothing, the window lives on");
}

/* ---- the cases on a communicator -------------------------------------- */

static void cases(MPI_Comm comm, const char *what)
{
    where = what;
    MPI_Comm_rank(comm, &cme);
    MPI_Comm_size(comm, &cnp);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    case_zero(comm);
    case_tiny(comm);
    case_dynamic(comm);
    case_atomics(comm);
    case_dtypes(comm);
    case_errors(comm);
}

/* ---- lifetime: the children leave while the parents go on ------------- */

/* Rounds of each rank putting its value into the next one's slot under an
 * exclusive lock, checked after a fence; a pause between rounds. */
static void life_rounds(MPI_Comm comm, MPI_Win win, int *mem, int rounds, int tag)
{
    int me, np;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &np);
    int t = (me + 1) % np, from = (me + np - 1) % np;
    for (int r = 0; r < rounds; r++) {
        int v = tag * 100000 + r * 10 + me;
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, t, 0, win);
        MPI_Put(&v, 1, MPI_INT, t, me, 1, MPI_INT, win);
        MPI_Win_unlock(t, win);
        MPI_Win_fence(0, win);
        expect("lifetime: a value put", r, mem[from], tag * 100000 + r * 10 + from);
        MPI_Win_fence(0, win);
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

static MPI_Win life_window(MPI_Comm comm, int **mem)
{
    int np;
    MPI_Comm_size(comm, &np);
    MPI_Win win;
    if (MPI_Win_allocate(np * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, comm, mem, &win) != MPI_SUCCESS)
        fail("lifetime: a window of %d ranks failed", np);
    MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL);
    return win;
}

/* A window over merged used by all; the parents' window over a split of
 * merged and the children's over their world, used side by side; then the
 * children free theirs, disconnect and finalize (on return) while the
 * parents keep on with theirs, then make and use a new one. */
static void case_lifetime(MPI_Comm merged, MPI_Comm inter, int child)
{
    where = "merged";
    int *all_mem, *own_mem;
    MPI_Win all = life_window(merged, &all_mem);
    life_rounds(merged, all, all_mem, 3, 1);
    MPI_Comm parents;
    MPI_Comm_split(merged, child ? MPI_UNDEFINED : 0, 0, &parents);
    MPI_Win own = life_window(child ? MPI_COMM_WORLD : parents, &own_mem);
    life_rounds(child ? MPI_COMM_WORLD : parents, own, own_mem, 10, 2 + child);
    MPI_Win_free(&all);
    if (child) {
        MPI_Win_free(&own);
        MPI_Comm_free(&merged);
        MPI_Comm_disconnect(&inter);
        return;
    }
    MPI_Comm_free(&merged);
    MPI_Comm_disconnect(&inter);
    life_rounds(parents, own, own_mem, 100, 4); /* the children finalize meanwhile */
    MPI_Win_free(&own);
    own = life_window(MPI_COMM_WORLD, &own_mem);
    life_rounds(MPI_COMM_WORLD, own, own_mem, 10, 5);
    MPI_Win_free(&own);
    MPI_Comm_free(&parents);
    if (rank == 0)
        printf("  parents: their window in use while the children left, then a new one: ok\n");
}

/* ---- spawning ---------------------------------------------------------- */

/* The parents spawn 2 children; 0, or SKIP when this host cannot spawn. */
static int spawn(char **argv, MPI_Comm *inter)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char *args[] = {argv[1], "child", NULL};
    int errs[2] = {0, 0};
    int rc = MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errs);
    int ok = rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (all)
        return 0;
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    if (rank == 0)
        printf("skipped: this host MPI cannot spawn here (%s)\n", msg);
    return SKIP;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm parent, inter, merged;
    MPI_Comm_get_parent(&parent);
    int child = parent != MPI_COMM_NULL;
    if (!child) {
        if (spawn(argv, &inter)) {
            MPI_Finalize();
            return SKIP;
        }
    } else {
        if (argc < 3 || strcmp(argv[2], "child"))
            fail("a child without its argument");
        inter = parent;
    }
    MPI_Intercomm_merge(inter, child, &merged);
    int me;
    MPI_Comm_rank(merged, &me);
    cases(merged, "merged");
    MPI_Comm half;
    MPI_Comm_split(merged, me % 2, me, &half); /* the halves hold ranks of both worlds */
    cases(half, me % 2 ? "half 1 of a split" : "half 0 of a split");
    MPI_Comm_free(&half);
    case_lifetime(merged, inter, child);
    if (rank == 0)
        printf("%s: ok\n", child ? "children" : "parents");
    MPI_Finalize();
    return 0;
}
