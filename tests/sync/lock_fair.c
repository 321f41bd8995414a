/* lock_fair.c -- lock requests are served in arrival order: nobody starves.
 *
 * Phase 1, exclusive only.  For a fixed wall time every rank repeatedly
 * raises its request count req (a flag in a shared window, outside the lock
 * under test), locks rank 0's window exclusively, raises its grant count
 * got, and -- inside the critical section -- reads a sequence number from
 * the window and appends an entry {owner, mask of ranks with req != got} to
 * a log in the window, then holds the lock for a while (a sleep, so that
 * waiters have long since queued and the cores are free).
 *
 * From the log, for every rank B and every stretch of consecutive entries
 * during which B's request was pending (no entry of B's can lie inside
 * one, so it is one request): with requests served in arrival order, each
 * other rank has at most one request ahead of B's, so a stretch holds at
 * most n-1 entries -- one more when B raised req just as an entry was
 * made.  Longer stretches can only come from B being descheduled between
 * raising req and asking for the lock, which a sleeping holder makes rare;
 * so a few are tolerated, but not many (a lock that lets the releaser
 * barge in back makes them common), and never a run of more than RUN_MAX
 * entries of one rank while B waited.  Every rank must also have had at
 * least a tenth of the fair share.
 *
 * Phase 2, writer against readers: the last rank takes exclusive locks,
 * the others shared ones.  A reader whose critical section begins while
 * the writer's request is pending can only have asked before the writer, so
 * each reader starts at most one (two with the same race) critical section
 * per writer request; a lock that lets readers overtake a waiting writer
 * starves it, and the writer must get its share. */
#include "sync_test.h"

enum {
    HOLD_US = 200,      /* time a holder keeps the lock */
    LOG_AT = 64,        /* log entries at LOG_AT + 2*seq */
    LOG_MAX = 16384,
    WSIZE = LOG_AT + 2 * LOG_MAX + 64,
    RUN_MAX = 50,
    /* flags of each rank */
    F_REQ = 0, F_GOT, F_REQ2, F_GOT2, F_VIOL2, F_MAX2, F_COUNT
};

static const double PHASE1_S = 1.0, PHASE2_S = 0.7;

static int rank, nranks;
static struct st_flags fl;

static uint32_t pending_mask(int req_i, int got_i)
{
    uint32_t mask = 0;
    for (int r = 0; r < nranks; r++)
        if (r != rank && atomic_load(st_flag(&fl, r, req_i)) != atomic_load(st_flag(&fl, r, got_i)))
            mask |= 1u << r;
    return mask;
}

static void phase_exclusive(struct st_win *w)
{
    uint32_t n = 0;
    double t0;

    rt_fill_bg(w->mem, WSIZE);
    if (rank == 0)
        memset(w->mem, 0, 8); /* the sequence number */
    CHECK_OK(orma_barrier());
    t0 = orma_wtime();
    while (orma_wtime() - t0 < PHASE1_S) {
        uint64_t seq = 0;
        unsigned char entry[2];

        atomic_store(st_flag(&fl, rank, F_REQ), n + 1);
        CHECK_OK(orma_win_lock(ORMA_LOCK_EXCLUSIVE, 0, 0, w->win));
        atomic_store(st_flag(&fl, rank, F_GOT), ++n);
        entry[0] = (unsigned char)rank;
        entry[1] = (unsigned char)pending_mask(F_REQ, F_GOT);
        CHECK_OK(orma_get(&seq, 1, ORMA_UINT64, 0, st_disp(w, 0, 0), 1, ORMA_UINT64, w->win));
        CHECK_OK(orma_win_flush(0, w->win));
        if (seq < LOG_MAX)
            CHECK_OK(orma_put(entry, 2, ORMA_BYTE, 0, st_disp(w, 0, LOG_AT + 2 * seq), 2, ORMA_BYTE,
                              w->win));
        seq++;
        CHECK_OK(orma_put(&seq, 1, ORMA_UINT64, 0, st_disp(w, 0, 0), 1, ORMA_UINT64, w->win));
        CHECK_OK(orma_win_flush(0, w->win));
        st_sleep_ms(HOLD_US / 1000.0);
        CHECK_OK(orma_win_unlock(0, w->win));
    }
    CHECK_OK(orma_barrier());

    /* Every rank checks the shares; rank 0 the log it holds. */
    uint64_t total = 0;
    for (int r = 0; r < nranks; r++)
        total += atomic_load(st_flag(&fl, r, F_GOT));
    for (int r = 0; r < nranks; r++) {
        uint32_t got = atomic_load(st_flag(&fl, r, F_GOT));
        CHECK(atomic_load(st_flag(&fl, r, F_REQ)) == got);
        if ((uint64_t)got * 10 * (uint64_t)nranks < total) {
            fprintf(stderr, "rank %d: rank %d acquired the lock %u times of %llu: less than a "
                    "tenth of its share\n", rank, r, (unsigned)got, (unsigned long long)total);
            exit(1);
        }
    }
    if (rank != 0) {
        RT_EXPECT_BG(w->mem, 0, WSIZE, "window of a rank that is not the target");
        return;
    }

    uint64_t seq;
    memcpy(&seq, w->mem, sizeof seq);
    CHECK(seq == total);
    size_t nent = seq < LOG_MAX ? (size_t)seq : LOG_MAX;
    RT_EXPECT_BG(w->mem, 8, LOG_AT, "between sequence number and log");
    RT_EXPECT_BG(w->mem, LOG_AT + 2 * nent, WSIZE, "above the log");
    uint32_t per_rank[8] = {0};
    for (size_t i = 0; i < nent; i++) {
        int owner = w->mem[LOG_AT + 2 * i];
        CHECK(owner < nranks);
        CHECK(!(w->mem[LOG_AT + 2 * i + 1] & (1u << owner)));
        per_rank[owner]++;
    }
    if (seq <= LOG_MAX)
        for (int r = 0; r < nranks; r++)
            CHECK(per_rank[r] == atomic_load(st_flag(&fl, r, F_GOT)));

    /* Stretches during which B waited, and runs of one owner within them. */
    size_t long_stretches = 0, worst_stretch = 0, worst_run = 0;
    for (int b = 0; b < nranks; b++) {
        size_t stretch = 0, run = 0;
        int run_owner = -1;
        for (size_t i = 0; i <= nent; i++) {
            int waiting = i < nent && (w->mem[LOG_AT + 2 * i + 1] & (1u << b));
            int owner = i < nent ? w->mem[LOG_AT + 2 * i] : -1;
            if (waiting) {
                stretch++;
                run = owner == run_owner ? run + 1 : 1;
                run_owner = owner;
                if (run > worst_run)
                    worst_run = run;
                continue;
            }
            if (stretch > (size_t)nranks)
                long_stretches++;
            if (stretch > worst_stretch)
                worst_stretch = stretch;
            stretch = run = 0;
            run_owner = -1;
        }
    }
    printf("exclusive: %zu acquisitions, longest wait %zu entries, longest run of one rank "
           "%zu, %zu waits longer than %d entries\n", nent, worst_stretch, worst_run,
           long_stretches, nranks);
    if (worst_run > RUN_MAX || long_stretches > 5 + nent / 50) {
        fprintf(stderr, "rank 0: the lock is not served in arrival order: a rank got it %zu "
                "times in a row while another waited; %zu of %zu acquisitions overtook a "
                "waiting rank more than %d times\n", worst_run, long_stretches, nent, nranks);
        exit(1);
    }
}

static void phase_readers(struct st_win *w)
{
    int writer = nranks - 1;
    uint32_t n = 0, seen_id = 0, seen_count = 0, violations = 0, worst = 0;
    double t0;

    CHECK_OK(orma_barrier());
    t0 = orma_wtime();
    while (orma_wtime() - t0 < PHASE2_S) {
        atomic_store(st_flag(&fl, rank, F_REQ2), n + 1);
        CHECK_OK(orma_win_lock(rank == writer ? ORMA_LOCK_EXCLUSIVE : ORMA_LOCK_SHARED, 0, 0, w->win));
        atomic_store(st_flag(&fl, rank, F_GOT2), ++n);
        if (rank != writer) {
            uint32_t id = atomic_load(st_flag(&fl, writer, F_REQ2));
            if (id != atomic_load(st_flag(&fl, writer, F_GOT2))) {
                seen_count = id == seen_id ? seen_count + 1 : 1;
                seen_id = id;
                if (seen_count == 3)
                    violations++;
                if (seen_count > worst)
                    worst = seen_count;
            }
        }
        st_sleep_ms(HOLD_US / 1000.0);
        CHECK_OK(orma_win_unlock(0, w->win));
    }
    atomic_store(st_flag(&fl, rank, F_VIOL2), violations);
    atomic_store(st_flag(&fl, rank, F_MAX2), worst);
    CHECK_OK(orma_barrier());

    uint32_t wgot = atomic_load(st_flag(&fl, writer, F_GOT2)), rgot = 0;
    for (int r = 0; r < writer; r++)
        rgot += atomic_load(st_flag(&fl, r, F_GOT2));
    if (rank == 0)
        printf("readers/writer: writer %u acquisitions, readers %u\n", (unsigned)wgot, (unsigned)rgot);
    if ((uint64_t)wgot * 10 * (uint64_t)(nranks - 1) < rgot) {
        fprintf(stderr, "rank %d: the writer got the lock %u times, the %d readers %u times: "
                "readers overtake a waiting writer\n", rank, (unsigned)wgot, nranks - 1,
                (unsigned)rgot);
        exit(1);
    }
    for (int r = 0; r < writer; r++) {
        uint32_t v = atomic_load(st_flag(&fl, r, F_VIOL2)), m = atomic_load(st_flag(&fl, r, F_MAX2));
        if (m > RUN_MAX || v > 5 + wgot / 50) {
            fprintf(stderr, "rank %d: reader %d started up to %u critical sections while one "
                    "request of the writer was pending (%u times more than two)\n",
                    rank, r, (unsigned)m, (unsigned)v);
            exit(1);
        }
    }
    RT_EXPECT_BG(w->mem, 0, WSIZE, "window after the readers and the writer");
}

int main(int argc, char **argv)
{
    struct st_win w;

    rt_init(&argc, &argv, &rank, &nranks);
    CHECK(nranks <= 8); /* the log's pending mask is one byte */
    st_flags_open(&fl, F_COUNT);
    st_win_open(&w, ST_ALLOCATE, WSIZE);
    phase_exclusive(&w);
    if (nranks > 1) {
        rt_fill_bg(w.mem, WSIZE);
        phase_readers(&w);
    }
    st_win_close(&w);
    st_flags_close(&fl);
    CHECK_OK(orma_finalize());
    return 0;
}
