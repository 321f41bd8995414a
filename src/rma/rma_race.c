/* rma_race.c -- ORMA_CHECK=race: the access tables, the checks at each
 * access and at each completion (rma_race.h). */
#include "rma_race.h"
#include "rma_ctl.h"
#include "rma_heap.h"
#include "rma_mt.h"
#include "boot_job.h"
#include "boot_peer.h"
#include "dtype_iter.h"
#include "dtype_op.h"
#include "dtype_type.h"
#include "util_hash.h"
#include "util_log.h"
#include "util_status.h"
#include "util_time.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Thread_local const void *rma_race_cur;
_Thread_local const void *rma_race_face;
int rma_race_sites;

enum { RMA_RACE_FENCE = 1, RMA_RACE_PSCW, RMA_RACE_PASSIVE };

#define RMA_RACE_RECS 16384u     /* accesses a table holds at once */
#define RMA_RACE_BLKS 65536u     /* runs of non-contiguous target layouts, together */
#define RMA_RACE_LAYOUT 4096u    /* runs of one layout at most (more: not checked, said once) */
#define RMA_RACE_PSCW_RANKS 1024 /* PSCW epochs are numbered for the first ranks only */
/* The dead are dropped once the table holds twice as many records as
 * lived after the last drop, and this many more: every walk of it stays
 * proportional to the accesses that can still meet (amortized: a drop
 * costs the records added since the last). */
#define RMA_RACE_COMPACT 32u
/* The index: a record is found through the 4 KB pages it reaches (at most
 * RMA_RACE_SPAN of them; longer ones are on the wide list, which every
 * check walks), so that an epoch of many small accesses checks each
 * against its neighbours only. */
#define RMA_RACE_BUCKETS 4096u
/* A table of fewer records than this is walked whole, unindexed: an
 * epoch of a few accesses per target (a halo exchange) then touches the
 * table's first line and its records' only, which the origins writing
 * into it move between their caches at every access. */
#define RMA_RACE_INDEX_AT 64u
#define RMA_RACE_PAGE 12
#define RMA_RACE_SPAN 4u

struct rma_race_blk {
    uint64_t lo, hi;
};

/* One access, in its target's table.  Written under the table's lock. */
struct rma_race_rec {
    uint64_t lo, hi;  /* the bytes it reaches (all of them when nblk is 0) */
    uint64_t hash;    /* put data (hashed), of one run */
    uint32_t blk, nblk; /* its runs in the table's blks, or none */
    uint32_t gen;     /* fence epoch, or exposure epoch (PSCW) */
    int32_t origin;   /* window rank */
    uint32_t site;    /* in the origin's site table */
    uint16_t call, typeid_;
    uint8_t kind, mode, op, live; /* live: passive, until its origin's flush or unlock */
    uint8_t reported, hashed, pending;
    uint8_t excl : 1;  /* passive: under an exclusive lock */
    uint8_t fetch : 1; /* it reads the target: complete once complete here */
    uint8_t done : 1;  /* notified: complete once its counter is raised, which
                          its target may wait for before touching the bytes */
    uint32_t seq;     /* the origin's count of its accesses */
};
_Static_assert(sizeof(struct rma_race_rec) == 64, "a record fills a cache line");

struct rma_race_table {
    _Atomic uint32_t lock; /* 0, or the holder's window rank + 1 */
    uint32_t n;            /* records in use */
    uint32_t nblk;         /* runs in use */
    uint32_t fence_max;    /* the newest fence epoch recorded */
    uint32_t fence_checked; /* the last fence epoch whose put data the owner checked
                              (atomic: the owner may store it without the lock) */
    uint32_t exposure;     /* the owner's posts so far: its exposure epoch */
    uint32_t full;         /* a record did not fit: said once */
    uint32_t compact_at;   /* n at which the dead are dropped next (0: RMA_RACE_COMPACT) */
    uint32_t indexed;      /* the index below is kept (RMA_RACE_INDEX_AT) */
    uint32_t hashed_n;     /* records with put data hashed, recorded or numbered so far (atomic:
                              the owner reads it without the lock, rma_race_landed) */
    uint32_t exposure_done; /* the last exposure epoch the owner's wait closed (atomic, as
                               fence_checked) */
    char pad[RMA_LINE - 44];
    /* PSCW: the owner's posts to each origin so far, and the exposure
     * epochs the last of them opened: an origin's k-th access epoch to the
     * owner is the owner's k-th post to it (it cannot be two ahead) */
    uint32_t posts_to[RMA_RACE_PSCW_RANKS];
    uint32_t exposure_of[RMA_RACE_PSCW_RANKS][4];
    /* the index: heads valid when their stamp is the table's (a reset
     * only moves the stamp), chains of (record, next) links */
    uint32_t stamp, nlinks;
    struct rma_race_head {
        uint32_t stamp, first; /* first: 1 + a link, or 0 */
    } heads[RMA_RACE_BUCKETS + 1]; /* the last: the wide list */
    struct rma_race_link {
        uint32_t rec, next;
    } links[RMA_RACE_RECS * RMA_RACE_SPAN];
    _Alignas(64) struct rma_race_rec recs[RMA_RACE_RECS]; /* a line each */
    struct rma_race_blk blks[RMA_RACE_BLKS];
};

/* A put's or accumulate's origin buffer, until the operation completes. */
struct rma_race_buf {
    const void *p;
    size_t len;
    uint64_t hash, lo, hi;
    const char *call;
    uint32_t site, gen, seq;
    int target, mode;
    orma_request req;
};

struct rma_race_map {
    struct shm_seg seg;
    uint64_t seq;
    uint8_t live;    /* passive accesses of ours may live there */
    uint32_t starts; /* our access epochs to it so far (PSCW) */
};

struct rma_race_win {
    struct shm_seg own;        /* our table */
    uint64_t own_seq;
    struct rma_race_map *maps; /* per target */
    struct rma_race_buf *bufs;
    size_t nbufs, cap;
    uint32_t seq;       /* our accesses so far */
    struct rma_race_fetch {
        orma_request req;
        int target;
        uint32_t seq;
    } *fetches;
    size_t nfetches, fetch_cap;
    struct rma_race_blk *scratch; /* a layout's runs, sorted */
    uint32_t content[64];         /* accesses with data, per call site (its id mod 64) */
    uint32_t landed_seen;         /* our table's hashed_n at the last check of put data */
};

/* The calls a record names, by number: the same in every process. */
/* The last access this thread recorded (its call's request, or its
 * notification, completes it): under threads, other threads record theirs
 * between this thread's access and its request. */
static _Thread_local struct {
    const struct rma_win *win; /* NULL: none since */
    int target;
    uint32_t seq;
    uint8_t buf;   /* its origin buffer is in bufs (by seq) */
    uint8_t fetch; /* it fetches, in a passive epoch: a request for it completes it whole */
} rma_race_last;

static const char *const rma_race_calls[] = {
    "an operation",       "orma_put",           "orma_get",           "orma_accumulate",
    "orma_get_accumulate", "orma_fetch_and_op", "orma_compare_and_swap", "orma_rput",
    "orma_rget",          "orma_raccumulate",   "orma_rget_accumulate", "orma_put_typed",
    "orma_get_typed",     "orma_accumulate_typed", "orma_get_accumulate_typed", "orma_rput_typed",
    "orma_rget_typed",    "orma_raccumulate_typed", "orma_rget_accumulate_typed", "orma_put_notify",
    "orma_get_notify",    "orma_accumulate_notify"};
#define RMA_RACE_NCALLS (sizeof rma_race_calls / sizeof rma_race_calls[0])
/* The string each number was last seen as (the callers' own constants):
 * shared by the threads, whose stores of the same value may race (hence
 * atomics), and not thread-local -- every access of a thread-local here
 * is a call into the dynamic linker, which made this scan 70% of an
 * access's record. */
static const char *_Atomic rma_race_seen[RMA_RACE_NCALLS];

static uint16_t rma_race_call_id(const char *call)
{
    for (unsigned i = 1; i < RMA_RACE_NCALLS; i++)
        if (atomic_load_explicit(&rma_race_seen[i], memory_order_relaxed) == call)
            return (uint16_t)i;
    for (unsigned i = 1; i < RMA_RACE_NCALLS; i++)
        if (!strcmp(rma_race_calls[i], call)) {
            atomic_store_explicit(&rma_race_seen[i], call, memory_order_relaxed);
            return (uint16_t)i;
        }
    return 0;
}

/* ---- tables ---- */

int rma_race_open(struct rma_win *win)
{
    struct rma_race_win *rw = calloc(1, sizeof *rw);
    if (!rw || !(rw->maps = calloc((size_t)win->nranks, sizeof *rw->maps)) ||
        !(rw->scratch = malloc(RMA_RACE_LAYOUT * sizeof *rw->scratch))) {
        if (rw) {
            free(rw->maps);
            free(rw);
        }
        return util_error(ORMA_ERR_NOMEM, "window %u: no memory for ORMA_CHECK=race", win->id);
    }
    uint64_t seq = rma_heap_seq_new();
    char name[SHM_NAME_MAX];
    boot_job_name(name, sizeof name, "m%llu-r%d", (unsigned long long)seq, boot_job.rank);
    int status = shm_seg_create(name, sizeof(struct rma_race_table), &rw->own);
    if (status) {
        free(rw->scratch);
        free(rw->maps);
        free(rw);
        return status;
    }
    rw->own_seq = seq;
    ((struct rma_race_table *)rw->own.base)->fence_checked = UINT32_MAX;
    win->race = rw;
    rma_race_sites = 1;
    atomic_store_explicit(&win->my_ctl->race_seq, seq, memory_order_release);
    return ORMA_SUCCESS;
}

void rma_race_release(struct rma_win *win)
{
    struct rma_race_win *rw = win->race;
    if (!rw)
        return;
    if (win->my_ctl)
        atomic_store_explicit(&win->my_ctl->race_seq, 0, memory_order_release);
    shm_seg_unlink(rw->own.name);
    shm_seg_unmap(&rw->own);
    for (int r = 0; r < win->nranks; r++)
        shm_seg_unmap(&rw->maps[r].seg);
    free(rw->maps);
    free(rw->bufs);
    free(rw->fetches);
    free(rw->scratch);
    free(rw);
    win->race = NULL;
}

/* Target's table mapped here, or NULL: on another node (its accesses are
 * not checked), or none (a window made before the check was on). */
static struct rma_race_table *rma_race_table_of(struct rma_win *win, int target)
{
    struct rma_race_win *rw = win->race;
    if (target == win->rank)
        return rw->own.base;
    struct rma_target *t = &win->targets[target];
    if (t->off_node || !t->ctl)
        return NULL;
    struct rma_race_map *m = &rw->maps[target];
    uint64_t seq = atomic_load_explicit(&t->ctl->race_seq, memory_order_acquire);
    if (!seq)
        return NULL;
    if (seq != m->seq) {
        char name[SHM_NAME_MAX];
        boot_name_of(name, sizeof name, t->token, "m%llu-r%d", (unsigned long long)seq, t->job_rank);
        struct shm_seg seg;
        int missing = 0;
        if (shm_seg_open_if(name, 0, &seg, &missing) || missing)
            return NULL;
        if (seg.size < sizeof(struct rma_race_table)) {
            shm_seg_unmap(&seg);
            return NULL;
        }
        shm_seg_unmap(&m->seg);
        m->seg = seg;
        m->seq = seq;
    }
    return m->seg.base;
}

/* The table's lock, or 0 after two seconds of waiting: a holder that died
 * must not hang the others (the access goes unchecked, said once). */
static int rma_race_lock(struct rma_win *win, struct rma_race_table *tb)
{
    uint64_t start = 0;
    for (unsigned i = 0;; i++) {
        uint32_t free_ = 0;
        if (atomic_compare_exchange_weak_explicit(&tb->lock, &free_, (uint32_t)win->rank + 1, memory_order_acquire,
                                                  memory_order_relaxed))
            return 1;
        if (i < 64)
            continue;
        if (!start)
            start = util_time_ns();
        else if (util_time_ns() - start > 2000000000ull) {
            static _Atomic int said;
            if (!atomic_fetch_add_explicit(&said, 1, memory_order_relaxed))
                util_warn("ORMA_CHECK=race: window %u: rank %d's access table stayed locked by rank %u for 2 s; "
                          "accesses not checked", win->id, win->rank, free_ - 1);
            return 0;
        }
        sched_yield();
    }
}

static void rma_race_unlock(struct rma_race_table *tb)
{
    atomic_store_explicit(&tb->lock, 0, memory_order_release);
}

/* n is written under the lock, and read without it by a notified access
 * that finds the table empty (rma_race_record). */
static void rma_race_set_n(struct rma_race_table *tb, uint32_t n)
{
    __atomic_store_n(&tb->n, n, __ATOMIC_RELEASE);
}

static int rma_race_before(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) < 0;
}

/* Whether r can no longer meet an access nor be checked: room for others. */
static int rma_race_dead(const struct rma_race_table *tb, const struct rma_race_rec *r)
{
    if (r->done)
        return 1;
    switch (r->mode) {
    /* an epoch the owner closed: every access of it was recorded before
     * (fence_checked starts at -1: none) */
    case RMA_RACE_FENCE:
        return !rma_race_before(__atomic_load_n(&tb->fence_checked, __ATOMIC_RELAXED), r->gen);
    case RMA_RACE_PSCW:
        return !r->pending && (rma_race_before(r->gen, tb->exposure) ||
                               r->gen == __atomic_load_n(&tb->exposure_done, __ATOMIC_RELAXED));
    default:
        return !r->live;
    }
}

/* Whether MPI leaves a and b unordered: the same epoch. */
static int rma_race_concurrent(const struct rma_race_rec *a, const struct rma_race_rec *b)
{
    if (a->mode != b->mode || a->done || b->done)
        return 0;
    switch (a->mode) {
    case RMA_RACE_FENCE:
        return a->gen == b->gen;
    case RMA_RACE_PSCW:
        return !a->pending && !b->pending && a->gen == b->gen;
    default: /* an exclusive lock orders its accesses with every other origin's
              * (lazily taken locks: an access may be recorded before its
              * lock is held, while another origin holds it exclusively) */
        return a->live && b->live && (a->origin == b->origin || (!a->excl && !b->excl));
    }
}

/* The kind of conflict of two unordered accesses that overlap, or NULL. */
static const char *rma_race_clash(const struct rma_race_rec *a, const struct rma_race_rec *b)
{
    int ka = a->kind, kb = b->kind;
    if (ka == RMA_RACE_GET && kb == RMA_RACE_GET)
        return NULL;
    if (ka == RMA_RACE_ACC && kb == RMA_RACE_ACC) {
        if (a->origin == b->origin) /* ordered (accumulate_ordering) */
            return NULL;
        if (a->typeid_ != b->typeid_)
            return "accumulates with different types";
        if (a->op == b->op || a->op == ORMA_NO_OP || b->op == ORMA_NO_OP)
            return NULL;
        return "accumulates with different ops";
    }
    if (ka == RMA_RACE_PUT && kb == RMA_RACE_PUT)
        return "overlapping puts";
    if (ka == RMA_RACE_GET || kb == RMA_RACE_GET)
        return (ka == RMA_RACE_PUT || kb == RMA_RACE_PUT) ? "put and get overlap" : "get and accumulate overlap";
    return "put and accumulate overlap";
}

static const struct rma_race_blk *rma_race_runs(const struct rma_race_table *tb, const struct rma_race_rec *r,
                                                struct rma_race_blk *one, uint32_t *n_p)
{
    if (!r->nblk) {
        one->lo = r->lo;
        one->hi = r->hi;
        *n_p = 1;
        return one;
    }
    *n_p = r->nblk;
    return &tb->blks[r->blk];
}

/* The bytes a and b both reach, [*lo_p, *hi_p) around all of them: 0 if
 * none.  Runs are sorted and disjoint. */
static int rma_race_overlap(const struct rma_race_table *tb, const struct rma_race_rec *a,
                            const struct rma_race_rec *b, uint64_t *lo_p, uint64_t *hi_p)
{
    if (a->hi <= b->lo || b->hi <= a->lo)
        return 0;
    struct rma_race_blk oa, ob;
    uint32_t na, nb;
    const struct rma_race_blk *ra = rma_race_runs(tb, a, &oa, &na), *rb = rma_race_runs(tb, b, &ob, &nb);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0, j = 0; i < na && j < nb;) {
        uint64_t l = ra[i].lo > rb[j].lo ? ra[i].lo : rb[j].lo, h = ra[i].hi < rb[j].hi ? ra[i].hi : rb[j].hi;
        if (l < h) {
            if (l < lo)
                lo = l;
            if (h > hi)
                hi = h;
        }
        if (ra[i].hi < rb[j].hi)
            i++;
        else
            j++;
    }
    *lo_p = lo;
    *hi_p = hi;
    return lo < hi;
}

/* ---- reports ---- */

static void rma_race_epoch_text(const struct rma_race_rec *r, char *buf, size_t len)
{
    if (r->mode == RMA_RACE_FENCE)
        snprintf(buf, len, "fence epoch %u", r->gen);
    else if (r->mode == RMA_RACE_PSCW)
        snprintf(buf, len, "exposure epoch %u (post/start)", r->gen);
    else
        snprintf(buf, len, "passive epoch (lock)");
}

/* The epoch of an origin's access seen from the origin: a PSCW access not
 * yet numbered by its target's post is in "an access epoch". */
static void rma_race_origin_epoch_text(int mode, uint32_t gen, char *buf, size_t len)
{
    struct rma_race_rec r = {.mode = (uint8_t)mode, .gen = gen};
    if (mode == RMA_RACE_PSCW)
        snprintf(buf, len, "access epoch (post/start)");
    else
        rma_race_epoch_text(&r, buf, len);
}

/* Where this thread's current call was made, as reports name it. */
static void rma_race_my_site(char *buf, size_t len)
{
    rma_race_site_text(boot_job.token, boot_job.rank, rma_race_site_id(rma_race_cur), buf, len);
}

static void rma_race_op_text(int call, int kind, int op, int typeid_, char *buf, size_t len)
{
    const char *name = rma_race_calls[(unsigned)call < RMA_RACE_NCALLS ? call : 0];
    if (kind != RMA_RACE_ACC || (unsigned)typeid_ >= ORMA_TYPEID_COUNT)
        snprintf(buf, len, "%s", name);
    else if (op == RMA_RACE_OP_CAS)
        snprintf(buf, len, "%s(%s)", name, orma_predefined_types.types[typeid_].name);
    else
        snprintf(buf, len, "%s(%s, %s)", name, dtype_op_name(op), orma_predefined_types.types[typeid_].name);
}

/* "<op> from rank <r> at <site>" of a record. */
static void rma_race_side(struct rma_win *win, const struct rma_race_rec *r, char *buf, size_t len)
{
    char op[96], site[384];
    rma_race_op_text(r->call, r->kind, r->op, r->typeid_, op, sizeof op);
    if (r->origin == win->rank)
        rma_race_site_text(boot_job.token, boot_job.rank, r->site, site, sizeof site);
    else
        rma_race_site_text(win->targets[r->origin].token, win->targets[r->origin].job_rank, r->site, site,
                           sizeof site);
    snprintf(buf, len, "%s from rank %d at %s", op, r->origin, site);
}

static void rma_race_bytes(const struct rma_win *win, uint64_t lo, uint64_t hi, char *buf, size_t len)
{
    if (win->flavor == ORMA_WIN_FLAVOR_DYNAMIC)
        snprintf(buf, len, "bytes [0x%llx, 0x%llx) of address space", (unsigned long long)lo,
                 (unsigned long long)hi);
    else
        snprintf(buf, len, "bytes [%llu, %llu) of the window", (unsigned long long)lo, (unsigned long long)hi);
}

static void rma_race_report_pair(struct rma_win *win, int target, const char *kind, const struct rma_race_rec *a,
                                 const struct rma_race_rec *b, uint64_t lo, uint64_t hi)
{
    char sa[512], sb[512], bytes[96], epoch[64];
    rma_race_side(win, a, sa, sizeof sa);
    rma_race_side(win, b, sb, sizeof sb);
    rma_race_bytes(win, lo, hi, bytes, sizeof bytes);
    rma_race_epoch_text(b, epoch, sizeof epoch);
    rma_race_report("%s: window %u, target rank %d, %s, %s: %s; %s", kind, win->id, target, bytes, epoch, sa, sb);
}

/* ---- accesses ---- */

/* The runs of count elements of type at offset, sorted and merged into
 * rw->scratch: their number, or 0 if too many to check. */
static uint32_t rma_race_layout(struct rma_race_win *rw, size_t offset, orma_type type, size_t count)
{
    struct dtype_iter it;
    dtype_iter_init(&it, type, count);
    ptrdiff_t off;
    size_t len;
    uint32_t n = 0;
    int sorted = 1;
    while (dtype_iter_next(&it, SIZE_MAX, &off, &len)) {
        if (!len)
            continue;
        uint64_t lo = (uint64_t)offset + (uint64_t)off, hi = lo + len;
        if (n && rw->scratch[n - 1].hi == lo) {
            rw->scratch[n - 1].hi = hi;
            continue;
        }
        if (n == RMA_RACE_LAYOUT)
            return 0;
        if (n && lo < rw->scratch[n - 1].hi)
            sorted = 0;
        rw->scratch[n++] = (struct rma_race_blk){lo, hi};
    }
    if (!sorted) { /* insertion sort (layouts are mostly in order), then merge */
        for (uint32_t i = 1; i < n; i++) {
            struct rma_race_blk b = rw->scratch[i];
            uint32_t j = i;
            for (; j > 0 && rw->scratch[j - 1].lo > b.lo; j--)
                rw->scratch[j] = rw->scratch[j - 1];
            rw->scratch[j] = b;
        }
        uint32_t m = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (m && rw->scratch[i].lo <= rw->scratch[m - 1].hi) {
                if (rw->scratch[i].hi > rw->scratch[m - 1].hi)
                    rw->scratch[m - 1].hi = rw->scratch[i].hi;
            } else {
                rw->scratch[m++] = rw->scratch[i];
            }
        }
        n = m;
    }
    return n;
}

/* Bytes compared by content (origin buffers, put data): all of them up to
 * RMA_RACE_HASH_ALL, else four samples of 256 bytes spread over them (start,
 * thirds, end) -- so that checking a large transfer costs a fraction of
 * the transfer, at the price of missing changes between the samples. */
#define RMA_RACE_HASH_ALL 1024u
#define RMA_RACE_SAMPLE 256u
static UTIL_HASH_NOSAN uint64_t rma_race_hash(const void *p, size_t n)
{
    if (n <= RMA_RACE_HASH_ALL)
        return util_hash(p, n);
    const char *b = p;
    size_t at[4] = {0, (n / 3) & ~(size_t)7, (2 * n / 3) & ~(size_t)7, n - RMA_RACE_SAMPLE};
    uint64_t h = 0x27D4EB2F165667C5ull ^ n;
    for (int i = 0; i < 4; i++)
        h = util_hash_more(h, b + at[i], RMA_RACE_SAMPLE);
    return h;
}

/* Whether the data of an access from site is checked by content: its
 * origin buffer at completion, and the put data at its target's close of
 * the epoch.  Those of the first RMA_RACE_CONTENT_ALL accesses of each call
 * site, then of one in RMA_RACE_CONTENT_EVERY, chosen at random.  Reading
 * the data costs about a copy of it at each end, and reading put data at
 * the target moves the lines the origin wrote into its cache, which the
 * origin's next put moves back: a program that does not read its window
 * until later never pays that.  Checked at every access, a halo exchange
 * step of 1-4 KB messages took 3-6x its unchecked time on shared memory.
 * A change that hits a buffer once in a long run may go unseen; one made
 * at every iteration of a loop, or in its first ones, does not.  The
 * checks of the accesses' bytes against each other are not sampled.
 * (Adaptive sampling after LiteRace, Marino et al., PLDI 2009, which
 * samples code the more rarely the hotter it runs.) */
#define RMA_RACE_CONTENT_ALL 32u
#define RMA_RACE_CONTENT_EVERY 16u
static int rma_race_content(struct rma_race_win *rw, uint32_t site)
{
    uint32_t k = rw->content[site % 64]++;
    return k < RMA_RACE_CONTENT_ALL || util_hash_mix(0x5EEDull ^ site, k) % RMA_RACE_CONTENT_EVERY == 0;
}

static void rma_race_mode(struct rma_win *win, int target, struct rma_race_rec *r)
{
    switch (RMA_EPOCH_ACCESS(RMA_LD(win->epoch_state))) {
    case RMA_ACC_FENCE:
    case RMA_ACC_FENCE_MAYBE:
        r->mode = RMA_RACE_FENCE;
        r->gen = win->fence_epoch;
        break;
    case RMA_ACC_START:
        r->mode = RMA_RACE_PSCW;
        r->pending = 1; /* numbered under the table's lock (rma_race_record, or the post) */
        r->gen = win->race->maps[target].starts;
        break;
    default:
        r->mode = RMA_RACE_PASSIVE;
        r->live = 1;
        r->excl = RMA_EPOCH_ACCESS(RMA_LD(win->epoch_state)) == RMA_ACC_LOCK &&
                  win->targets[target].lock_type == ORMA_LOCK_EXCLUSIVE;
        break;
    }
}

/* The buckets of r: its pages', or only the wide list's (returns 0). */
static uint32_t rma_race_buckets(const struct rma_race_rec *r, uint32_t *b)
{
    uint64_t p0 = r->lo >> RMA_RACE_PAGE, p1 = (r->hi - 1) >> RMA_RACE_PAGE;
    if (p1 - p0 >= RMA_RACE_SPAN)
        return 0;
    uint32_t n = 0;
    for (uint64_t p = p0; p <= p1; p++)
        b[n++] = (uint32_t)((p * 0x9E3779B1u) >> 4) % RMA_RACE_BUCKETS;
    return n;
}

static void rma_race_link(struct rma_race_table *tb, uint32_t bucket, uint32_t rec)
{
    struct rma_race_head *h = &tb->heads[bucket];
    if (h->stamp != tb->stamp) {
        h->stamp = tb->stamp;
        h->first = 0;
    }
    tb->links[tb->nlinks] = (struct rma_race_link){rec, h->first};
    h->first = ++tb->nlinks;
}

static void rma_race_index(struct rma_race_table *tb, uint32_t rec)
{
    if (!tb->indexed)
        return;
    uint32_t b[RMA_RACE_SPAN], n = rma_race_buckets(&tb->recs[rec], b);
    if (!n)
        rma_race_link(tb, RMA_RACE_BUCKETS, rec);
    for (uint32_t i = 0; i < n; i++)
        rma_race_link(tb, b[i], rec);
}

/* Empty, or the records there reindexed (after a compaction): indexed
 * when there are many. */
static void rma_race_reindex(struct rma_race_table *tb)
{
    tb->indexed = tb->n >= RMA_RACE_INDEX_AT / 2;
    if (!tb->indexed)
        return;
    tb->stamp++;
    tb->nlinks = 0;
    for (uint32_t i = 0; i < tb->n; i++)
        rma_race_index(tb, i);
}

/* The records that may overlap r, each once at least: those in its
 * buckets and on the wide list, or all (a wide r).  Calls fn until it
 * returns nonzero. */
static int rma_race_near(struct rma_race_table *tb, const struct rma_race_rec *r,
                         int (*fn)(struct rma_race_table *, uint32_t, void *), void *ctx)
{
    uint32_t b[RMA_RACE_SPAN + 1], n = tb->indexed ? rma_race_buckets(r, b) : 0;
    if (!n) {
        for (uint32_t i = 0; i < tb->n; i++)
            if (fn(tb, i, ctx))
                return 1;
        return 0;
    }
    b[n++] = RMA_RACE_BUCKETS;
    for (uint32_t k = 0; k < n; k++) {
        const struct rma_race_head *h = &tb->heads[b[k]];
        if (h->stamp != tb->stamp)
            continue;
        for (uint32_t l = h->first; l; l = tb->links[l - 1].next)
            if (fn(tb, tb->links[l - 1].rec, ctx))
                return 1;
    }
    return 0;
}

struct rma_race_probe {
    struct rma_win *win;
    int target;
    struct rma_race_rec *r; /* checked against the others */
    uint32_t at;            /* its index, or UINT32_MAX: not in the table yet */
    int want_twin;          /* a dead twin of r looked for, */
    uint32_t twin;          /* found at this index (UINT32_MAX: not yet) */
    uint32_t spare;         /* unindexed: the first dead record met, any (UINT32_MAX: none) */
    int found;              /* a conflict reported: no further one */
};

static int rma_race_twin(const struct rma_race_table *tb, const struct rma_race_rec *o, const struct rma_race_rec *r)
{
    return !o->nblk && o->lo == r->lo && o->hi == r->hi && rma_race_dead(tb, o);
}

/* Whether record i of the table conflicts with the probe's record
 * (reported), and whether it is a dead twin of it (when one is looked
 * for: a record of one run covering exactly its bytes, whose slot an
 * iteration's access to the same bytes as the last takes over). */
static int rma_race_probe_one(struct rma_race_table *tb, uint32_t i, void *ctx)
{
    struct rma_race_probe *pr = ctx;
    struct rma_race_rec *r = pr->r, *o = &tb->recs[i];
    if (i == pr->at)
        return 0;
    if (pr->want_twin && pr->twin == UINT32_MAX) {
        if (rma_race_twin(tb, o, r)) {
            pr->twin = i;
            return pr->found;
        }
        if (pr->spare == UINT32_MAX && !tb->indexed && rma_race_dead(tb, o)) {
            pr->spare = i;
            return 0;
        }
    }
    if (pr->found || r->pending || !rma_race_concurrent(o, r))
        return 0;
    const char *kind = rma_race_clash(o, r);
    uint64_t lo, hi;
    if (!kind || !rma_race_overlap(tb, o, r, &lo, &hi) || (o->reported && r->reported))
        return 0;
    o->reported = r->reported = 1;
    rma_race_report_pair(pr->win, pr->target, kind, o, r, lo, hi);
    pr->found = 1;
    return !pr->want_twin || pr->twin != UINT32_MAX;
}

/* Check the record at index at against the table: the first conflict
 * reported. */
static void rma_race_check(struct rma_win *win, int target, struct rma_race_table *tb, uint32_t at)
{
    struct rma_race_probe pr = {win, target, &tb->recs[at], at, 0, UINT32_MAX, UINT32_MAX, 0};
    rma_race_near(tb, pr.r, rma_race_probe_one, &pr);
}


/* Room for one record and nblk runs: the dead ones dropped when short,
 * when the table has grown (compact_at), or when asked (a new fence
 * epoch: the last one's may all be dead). */
static int rma_race_room(struct rma_race_table *tb, uint32_t nblk, int compact)
{
    if (!compact && tb->n < RMA_RACE_RECS && tb->nblk + nblk <= RMA_RACE_BLKS &&
        tb->n < (tb->compact_at ? tb->compact_at : RMA_RACE_COMPACT))
        return 1;
    uint32_t m = 0, b = 0;
    for (uint32_t i = 0; i < tb->n; i++) {
        struct rma_race_rec r = tb->recs[i];
        if (rma_race_dead(tb, &r))
            continue;
        if (r.nblk) {
            memmove(&tb->blks[b], &tb->blks[r.blk], r.nblk * sizeof *tb->blks);
            r.blk = b;
            b += r.nblk;
        }
        tb->recs[m++] = r;
    }
    rma_race_set_n(tb, m);
    tb->nblk = b;
    tb->compact_at = 2 * m + RMA_RACE_COMPACT;
    rma_race_reindex(tb);
    return tb->n < RMA_RACE_RECS && tb->nblk + nblk <= RMA_RACE_BLKS;
}

static void rma_race_buf_add(struct rma_win *win, int target, const struct rma_race_access *a,
                             const struct rma_race_rec *r)
{
    struct rma_race_win *rw = win->race;
    if (rw->nbufs == rw->cap) {
        size_t cap = rw->cap ? 2 * rw->cap : 16;
        struct rma_race_buf *b = realloc(rw->bufs, cap * sizeof *b);
        if (!b)
            return;
        rw->bufs = b;
        rw->cap = cap;
    }
    size_t bytes = a->ocount * a->otype->size;
    rw->bufs[rw->nbufs++] = (struct rma_race_buf){
        .p = a->origin, .len = bytes, .hash = r->hashed && bytes == r->hi - r->lo ? r->hash : rma_race_hash(a->origin, bytes),
        .lo = r->lo, .hi = r->hi,
        .call = a->call, .site = r->site, .gen = r->gen, .seq = r->seq, .target = target, .mode = r->mode};
}

/* A PSCW access of ours to tb's owner, numbered with its exposure epoch
 * when the owner has posted it already (else its post numbers it). */
static void rma_race_number(const struct rma_win *win, const struct rma_race_table *tb, struct rma_race_rec *r)
{
    if (r->mode == RMA_RACE_PSCW && win->rank < RMA_RACE_PSCW_RANKS && tb->posts_to[win->rank] == r->gen) {
        r->pending = 0;
        r->gen = tb->exposure_of[win->rank][r->gen & 3];
    }
}

/* A notified access: complete once its counter is raised, right after, so
 * checked against the table's accesses and not kept (a done record meets
 * no later access).  A table found empty without its lock is as one found
 * empty under it by an access that took the lock first: an origin writing
 * there meanwhile would not have met it either.  In a notify pipeline the
 * tables stay empty, and their first line in every cache that reads it. */
static void rma_race_notified(struct rma_win *win, int target, struct rma_race_table *tb, struct rma_race_rec *r,
                              uint32_t nblk)
{
    if (!__atomic_load_n(&tb->n, __ATOMIC_ACQUIRE) || !rma_race_lock(win, tb))
        return;
    if (nblk) { /* its runs, after the table's, while the lock is held */
        if (tb->nblk + nblk > RMA_RACE_BLKS) {
            rma_race_unlock(tb);
            return;
        }
        r->blk = tb->nblk;
        r->nblk = nblk;
        memcpy(&tb->blks[tb->nblk], win->race->scratch, nblk * sizeof *win->race->scratch);
    }
    rma_race_number(win, tb, r);
    struct rma_race_probe pr = {win, target, r, UINT32_MAX, 0, UINT32_MAX, UINT32_MAX, 0};
    rma_race_near(tb, r, rma_race_probe_one, &pr);
    rma_race_unlock(tb);
}

void rma_race_record(struct rma_win *win, int target, const struct rma_race_access *a)
{
    struct rma_race_win *rw = win->race;
    rma_race_last.win = NULL;
    if (!rw || target < 0 || !a->len)
        return;
    struct rma_race_rec r = {.origin = win->rank, .kind = (uint8_t)a->kind, .op = (uint8_t)a->op,
                             .typeid_ = (uint16_t)a->typeid_, .call = rma_race_call_id(a->call),
                             .site = rma_race_site_id(rma_race_cur), .seq = ++rw->seq,
                             .fetch = a->fetch != 0};
    uint32_t nblk = 0;
    if (a->ttype && (!a->ttype->contiguous || !a->ttype->predefined)) { /* derived: its runs, wherever its lower bound */
        nblk = rma_race_layout(rw, a->offset, a->ttype, a->tcount);
        if (!nblk) {
            static _Atomic int said;
            if (!atomic_fetch_add_explicit(&said, 1, memory_order_relaxed))
                util_warn("ORMA_CHECK=race: %s to rank %d: a target layout of more than %u runs is not checked",
                          a->call, target, RMA_RACE_LAYOUT);
            return;
        }
        r.lo = rw->scratch[0].lo;
        r.hi = rw->scratch[nblk - 1].hi;
        if (nblk == 1)
            nblk = 0;
    } else {
        r.lo = a->offset;
        r.hi = a->offset + a->len;
    }
    int data = a->origin && a->otype && a->kind != RMA_RACE_GET && !win->notify_issuing && rma_race_content(rw, r.site);
    /* data hashed as it lands: one run, from one run (not in dynamic
     * windows, whose accesses are recorded after their data landed, so
     * that the target's check could not tell a later epoch's) */
    if (data && a->kind == RMA_RACE_PUT && !nblk && a->otype->contiguous && (!a->ttype || a->ttype->contiguous) &&
        win->flavor != ORMA_WIN_FLAVOR_DYNAMIC) {
        r.hash = rma_race_hash(a->origin, a->len);
        r.hashed = 1;
    }
    rma_race_mode(win, target, &r);
    if (r.mode == RMA_RACE_PASSIVE)
        rw->maps[target].live = 1; /* a flush or unlock of target retires it */
    size_t had = rw->nbufs;
    if (data && a->otype->contiguous) /* not notified ones: free once their counter rose */
        rma_race_buf_add(win, target, a, &r);
    rma_race_last.win = win;
    rma_race_last.target = target;
    rma_race_last.seq = r.seq;
    rma_race_last.buf = rw->nbufs > had;
    rma_race_last.fetch = r.mode == RMA_RACE_PASSIVE && a->fetch;
    struct rma_race_table *tb = rma_race_table_of(win, target);
    if (!tb)
        return;
    if (win->notify_issuing) {
        rma_race_notified(win, target, tb, &r, nblk);
        return;
    }
    if (!rma_race_lock(win, tb))
        return;
    int newgen = r.mode == RMA_RACE_FENCE && rma_race_before(tb->fence_max, r.gen);
    if (newgen)
        tb->fence_max = r.gen;
    if (!rma_race_room(tb, nblk, newgen)) {
        if (!tb->full++)
            util_warn("ORMA_CHECK=race: window %u: rank %d's access table is full (%u accesses of one epoch); "
                      "further ones are not checked", win->id, target, RMA_RACE_RECS);
        rma_race_unlock(tb);
        return;
    }
    if (nblk) {
        r.blk = tb->nblk;
        r.nblk = nblk;
        memcpy(&tb->blks[tb->nblk], rw->scratch, nblk * sizeof *rw->scratch);
        tb->nblk += nblk;
    }
    rma_race_number(win, tb, &r);
    /* checked (once numbered), and an iteration's access to the same
     * bytes as the last put in the dead record's slot, under the same
     * index entries: one walk */
    struct rma_race_probe pr = {win, target, &r, UINT32_MAX, !nblk, UINT32_MAX, UINT32_MAX, 0};
    rma_race_near(tb, &r, rma_race_probe_one, &pr);
    if (pr.twin == UINT32_MAX) /* unindexed, any dead record's slot will do: the walks stay as short as
                                  the accesses that can still meet */
        pr.twin = pr.spare;
    if (r.hashed)
        __atomic_store_n(&tb->hashed_n, tb->hashed_n + 1, __ATOMIC_RELEASE);
    uint32_t at;
    if (pr.twin != UINT32_MAX) {
        at = pr.twin;
        tb->recs[at] = r;
    } else {
        at = tb->n;
        rma_race_set_n(tb, at + 1);
        tb->recs[at] = r;
        if (!tb->indexed && tb->n >= RMA_RACE_INDEX_AT)
            rma_race_reindex(tb);
        else
            rma_race_index(tb, at);
    }
    rma_race_unlock(tb);
}

void rma_race_outside(struct rma_win *win, int target, const struct rma_race_access *a, const char *why)
{
    if (!win->race || target < 0)
        return;
    char op[96], site[384], bytes[96];
    rma_race_op_text(rma_race_call_id(a->call), a->kind, a->op, a->typeid_, op, sizeof op);
    rma_race_my_site(site, sizeof site);
    rma_race_bytes(win, a->offset, a->offset + a->len, bytes, sizeof bytes);
    struct rma_race_rec r = {0};
    rma_race_mode(win, target, &r);
    char epoch[64];
    rma_race_origin_epoch_text(r.mode, r.gen, epoch, sizeof epoch);
    rma_race_report("access outside the window: window %u, target rank %d, %s, %s: %s from rank %d at %s; %s",
                    win->id, target, bytes, epoch, op, win->rank, site, why ? why : util_last_error());
}

/* Our origin buffer of access seq, or NULL. */
static struct rma_race_buf *rma_race_buf_of(struct rma_race_win *rw, uint32_t seq)
{
    for (size_t i = rw->nbufs; i-- > 0;)
        if (rw->bufs[i].seq == seq)
            return &rw->bufs[i];
    return NULL;
}


/* ---- origin buffers ---- */

static void rma_race_bufs_check(struct rma_win *win, int target, orma_request req, const char *call)
{
    struct rma_race_win *rw = win->race;
    size_t m = 0;
    for (size_t i = 0; i < rw->nbufs; i++) {
        struct rma_race_buf *b = &rw->bufs[i];
        int due = req ? b->req == req : (target < 0 || b->target == target);
        if (!due) {
            rw->bufs[m++] = *b;
            continue;
        }
        if (rma_race_hash(b->p, b->len) == b->hash)
            continue;
        /* its data may land as changed (sent later, over the net transport
         * or from a queue): not the target's doing */
        struct rma_race_table *tb = rma_race_table_of(win, b->target);
        if (tb && rma_race_lock(win, tb)) {
            for (uint32_t j = 0; j < tb->n; j++)
                if (tb->recs[j].origin == win->rank && tb->recs[j].seq == b->seq)
                    tb->recs[j].reported = 1;
            rma_race_unlock(tb);
        }
        char site[384], now[384], bytes[96], epoch[64];
        rma_race_site_text(boot_job.token, boot_job.rank, b->site, site, sizeof site);
        rma_race_my_site(now, sizeof now);
        rma_race_bytes(win, b->lo, b->hi, bytes, sizeof bytes);
        rma_race_origin_epoch_text(b->mode, b->gen, epoch, sizeof epoch);
        rma_race_report("origin buffer changed before completion: window %u, target rank %d, %s, %s: %s from rank "
                        "%d at %s; %s from rank %d at %s",
                        win->id, b->target, bytes, epoch, b->call, win->rank, site, call, win->rank, now);
    }
    rw->nbufs = m;
}

void rma_race_request(struct rma_win *win, orma_request req)
{
    struct rma_race_win *rw = win->race;
    if (!rw)
        return;
    if (rma_race_last.win != win)
        return;
    rma_race_last.win = NULL;
    struct rma_race_buf *b = rma_race_last.buf ? rma_race_buf_of(rw, rma_race_last.seq) : NULL;
    if (b)
        b->req = req;
    if (rma_race_last.fetch) {
        if (rw->nfetches == rw->fetch_cap) {
            size_t cap = rw->fetch_cap ? 2 * rw->fetch_cap : 8;
            struct rma_race_fetch *f = realloc(rw->fetches, cap * sizeof *f);
            if (!f)
                return;
            rw->fetches = f;
            rw->fetch_cap = cap;
        }
        rw->fetches[rw->nfetches++] = (struct rma_race_fetch){req, rma_race_last.target, rma_race_last.seq};
    }
}

static _Thread_local const char *rma_race_req_call; /* rma_win_foreach passes no context */
static _Thread_local orma_request rma_race_req_done;

static void rma_race_req_each_(struct rma_win *win);

/* Every window's, under its lock when threads may use it (rma_mt.h): a
 * request completes outside the window's calls. */
static void rma_race_req_each(struct rma_win *win)
{
    if (!win->race)
        return;
    if (rma_threads)
        rma_mt_lock(win);
    rma_race_req_each_(win);
    if (rma_threads)
        rma_mt_unlock(win);
}

static void rma_race_req_each_(struct rma_win *win)
{
    struct rma_race_win *rw = win->race;
    if (rw->nbufs)
        rma_race_bufs_check(win, -1, rma_race_req_done, rma_race_req_call);
    /* a get's request completes it at the target too: retired */
    for (size_t i = 0; i < rw->nfetches; i++) {
        struct rma_race_fetch f = rw->fetches[i];
        if (f.req != rma_race_req_done)
            continue;
        rw->fetches[i--] = rw->fetches[--rw->nfetches];
        struct rma_race_table *tb = rma_race_table_of(win, f.target);
        if (!tb || !rma_race_lock(win, tb))
            continue;
        for (uint32_t j = 0; j < tb->n; j++)
            if (tb->recs[j].origin == win->rank && tb->recs[j].seq == f.seq)
                tb->recs[j].live = 0;
        rma_race_unlock(tb);
    }
}

void rma_race_request_done(orma_request req, const char *call)
{
    rma_race_req_call = call;
    rma_race_req_done = req;
    rma_win_foreach(rma_race_req_each);
}

/* ---- completions ---- */

/* Our passive accesses to target retired (it has completed them, or is
 * about to let its lock go); fetch_only: those that read the target only,
 * which are complete there once complete here (a local flush). */
static void rma_race_retire(struct rma_win *win, int target, int fetch_only)
{
    struct rma_race_map *m = &win->race->maps[target];
    if (!m->live)
        return;
    if (!fetch_only)
        m->live = 0;
    struct rma_race_table *tb = rma_race_table_of(win, target);
    if (!tb || !rma_race_lock(win, tb))
        return;
    uint32_t live = 0;
    for (uint32_t i = 0; i < tb->n; i++) {
        struct rma_race_rec *r = &tb->recs[i];
        if (r->mode == RMA_RACE_PASSIVE && r->live && r->origin == win->rank && (!fetch_only || r->fetch))
            r->live = 0;
        live += !rma_race_dead(tb, r);
    }
    if (!live) {
        rma_race_set_n(tb, 0);
        tb->nblk = 0;
        tb->compact_at = 0;
        tb->indexed = 0;
    } else if (tb->n >= 2 * live + RMA_RACE_COMPACT) {
        rma_race_room(tb, 0, 1);
    }
    rma_race_unlock(tb);
}

void rma_race_flushed(struct rma_win *win, int target, int local, const char *call)
{
    if (!win->race)
        return;
    rma_race_bufs_check(win, target, 0, call);
    for (int r = target < 0 ? 0 : target; r < (target < 0 ? win->nranks : target + 1); r++)
        rma_race_retire(win, r, local);
}

void rma_race_unlocking(struct rma_win *win, int target, const char *call)
{
    rma_race_flushed(win, target, 0, call);
}

void rma_race_fence_closing(struct rma_win *win, const char *call)
{
    if (win->race)
        rma_race_bufs_check(win, -1, 0, call);
}

void rma_race_completing(struct rma_win *win, const char *call)
{
    if (win->race)
        rma_race_bufs_check(win, -1, 0, call);
}

void rma_race_starting(struct rma_win *win, const int *ranks, int n)
{
    if (win->race)
        for (int i = 0; i < n; i++)
            win->race->maps[ranks[i]].starts++;
}

/* A post: a new exposure epoch, and the accesses its origins issued before
 * they saw it numbered with it, and checked. */
void rma_race_posting(struct rma_win *win, const int *ranks, int n)
{
    struct rma_race_table *tb = win->race ? win->race->own.base : NULL;
    if (!tb || !rma_race_lock(win, tb))
        return;
    uint32_t e = ++tb->exposure;
    for (int i = 0; i < n; i++) {
        int o = ranks[i];
        if (o >= RMA_RACE_PSCW_RANKS)
            continue;
        uint32_t k = ++tb->posts_to[o];
        tb->exposure_of[o][k & 3] = e;
        for (uint32_t j = 0; j < tb->n; j++) {
            struct rma_race_rec *r = &tb->recs[j];
            if (r->mode == RMA_RACE_PSCW && r->pending && r->origin == o && r->gen == k) {
                r->pending = 0;
                r->gen = e;
                if (r->hashed) /* (the close of its epoch checks it) */
                    __atomic_store_n(&tb->hashed_n, tb->hashed_n + 1, __ATOMIC_RELEASE);
                rma_race_check(win, win->rank, tb, j);
            }
        }
    }
    rma_race_unlock(tb);
}

/* Where our own bytes [lo, hi) are. */
static const void *rma_race_mine(struct rma_win *win, uint64_t lo, uint64_t hi)
{
    if (win->flavor == ORMA_WIN_FLAVOR_DYNAMIC)
        return (const void *)(uintptr_t)lo;
    return hi <= win->size ? (const char *)win->base + lo : NULL;
}

/* Put data of the epoch that closed (mode, gen) still in place, unless an
 * access of a later epoch wrote over it.  Called by the target with every
 * access of that epoch landed. */
static void rma_race_landed(struct rma_win *win, int mode, uint32_t gen, const char *call)
{
    struct rma_race_table *tb = win->race->own.base;
    /* no put data hashed since the last check: nothing to check, and the
     * table's lock, which the origins of the next epoch want, left alone */
    if (__atomic_load_n(&tb->hashed_n, __ATOMIC_ACQUIRE) == win->race->landed_seen) {
        __atomic_store_n(mode == RMA_RACE_FENCE ? &tb->fence_checked : &tb->exposure_done, gen, __ATOMIC_RELAXED);
        return;
    }
    if (!rma_race_lock(win, tb))
        return;
    if (mode == RMA_RACE_FENCE && tb->fence_checked == gen) { /* no epoch since the last check */
        rma_race_unlock(tb);
        return;
    }
    uint32_t seen = tb->hashed_n;
    /* the epoch's hashed puts, taken out: hashed without the lock, which
     * the next epoch's origins want */
    struct rma_race_rec few[16];
    struct rma_race_rec *cand = tb->n <= 16 ? few : malloc(tb->n * sizeof *cand);
    uint32_t nc = 0;
    for (uint32_t i = 0; cand && i < tb->n; i++) {
        const struct rma_race_rec *r = &tb->recs[i];
        if (r->mode == mode && r->gen == gen && !r->pending && r->hashed && !r->reported)
            cand[nc++] = *r;
        else if (r->hashed && !rma_race_dead(tb, r) && (r->mode != mode || r->gen != gen))
            seen = win->race->landed_seen; /* one of a later epoch (its origin there already): checked then */
    }
    win->race->landed_seen = seen;
    __atomic_store_n(mode == RMA_RACE_FENCE ? &tb->fence_checked : &tb->exposure_done, gen, __ATOMIC_RELAXED);
    rma_race_unlock(tb);
    for (uint32_t c = 0; c < nc; c++) {
        const struct rma_race_rec *k = &cand[c];
        const void *p = rma_race_mine(win, k->lo, k->hi);
        if (!p || rma_race_hash(p, k->hi - k->lo) == k->hash || !rma_race_lock(win, tb))
            continue;
        /* changed: unless an access of the next epoch landed there already
         * (recorded before its data was written) */
        struct rma_race_rec *r = NULL;
        int later = 0;
        for (uint32_t j = 0; j < tb->n; j++) {
            struct rma_race_rec *o = &tb->recs[j];
            uint64_t lo, hi;
            if (o->origin == k->origin && o->seq == k->seq)
                r = o;
            else if (o->mode == mode && o->gen != gen && o->kind != RMA_RACE_GET && rma_race_overlap(tb, o, k, &lo, &hi))
                later = 1;
        }
        if (!later && (!r || !r->reported)) {
            if (r)
                r->reported = 1;
            char side[512], site[384], bytes[96], epoch[64];
            rma_race_side(win, k, side, sizeof side);
            rma_race_my_site(site, sizeof site);
            rma_race_bytes(win, k->lo, k->hi, bytes, sizeof bytes);
            rma_race_epoch_text(k, epoch, sizeof epoch);
            rma_race_report("local store during exposure: window %u, target rank %d, %s, %s: %s; a load/store by a "
                            "process mapping the window changed its data before %s from rank %d at %s",
                            win->id, win->rank, bytes, epoch, side, call, win->rank, site);
        }
        rma_race_unlock(tb);
    }
    if (cand != few)
        free(cand);
}

void rma_race_fence_closed(struct rma_win *win, uint32_t gen)
{
    if (win->race)
        rma_race_landed(win, RMA_RACE_FENCE, gen, "orma_win_fence");
}

void rma_race_wait_closed(struct rma_win *win)
{
    if (win->race)
        rma_race_landed(win, RMA_RACE_PSCW, ((struct rma_race_table *)win->race->own.base)->exposure,
                        "orma_win_wait");
}

/* ---- memory leaving ---- */

/* 1 when reported. */
static int rma_race_leaving(struct rma_win *win, const void *base, size_t size, const char *call)
{
    int found = 0;
    if (!win->race || !size)
        return 0;
    struct rma_race_table *tb = win->race->own.base;
    if (!rma_race_lock(win, tb))
        return 0;
    uint64_t blo = (uint64_t)(uintptr_t)base, bhi = blo + size;
    struct rma_race_rec span = {.lo = blo, .hi = bhi};
    int access = RMA_EPOCH_ACCESS(RMA_LD(win->epoch_state));
    for (uint32_t i = 0; i < tb->n; i++) {
        struct rma_race_rec *r = &tb->recs[i];
        uint64_t lo, hi;
        /* still reachable: a live passive access, one of the open fence
         * epoch, or of the open exposure epoch */
        int open = r->mode == RMA_RACE_PASSIVE ? r->live
                   : r->mode == RMA_RACE_FENCE ? (r->gen == win->fence_epoch &&
                                                  (access == RMA_ACC_FENCE || access == RMA_ACC_FENCE_MAYBE))
                                               : (r->pending || r->gen == tb->exposure) &&
                                                     RMA_EPOCH_EXPOSURE(RMA_LD(win->epoch_state)) != RMA_EXP_NONE;
        if (!open || r->reported || !rma_race_overlap(tb, r, &span, &lo, &hi))
            continue;
        r->reported = 1;
        char side[512], site[384], bytes[96], epoch[64];
        rma_race_side(win, r, side, sizeof side);
        rma_race_my_site(site, sizeof site);
        rma_race_bytes(win, lo, hi, bytes, sizeof bytes);
        rma_race_epoch_text(r, epoch, sizeof epoch);
        rma_race_report("memory %s while exposed: window %u, target rank %d, %s, %s: %s; %s from rank %d at %s",
                        strcmp(call, "orma_win_detach") ? "freed" : "detached", win->id, win->rank, bytes, epoch,
                        side, call, win->rank, site);
        found = 1;
        break;
    }
    rma_race_unlock(tb);
    return found;
}

void rma_race_detaching(struct rma_win *win, const void *base, size_t size, const char *call)
{
    rma_race_leaving(win, base, size, call);
}

/* The epoch in which our memory is exposed now: the open fence or exposure
 * epoch, else passive epochs (any origin may lock us at any time). */
static void rma_race_epoch_now(struct rma_win *win, char *buf, size_t len)
{
    int state = RMA_LD(win->epoch_state), acc = RMA_EPOCH_ACCESS(state);
    const struct rma_race_table *tb = win->race->own.base;
    if (acc == RMA_ACC_FENCE || acc == RMA_ACC_FENCE_MAYBE)
        snprintf(buf, len, "fence epoch %u", win->fence_epoch);
    else if (RMA_EPOCH_EXPOSURE(state) != RMA_EXP_NONE)
        snprintf(buf, len, "exposure epoch %u (post/start)", tb->exposure);
    else
        snprintf(buf, len, "passive epoch (lock)");
}

static _Thread_local const void *rma_race_free_base;
static _Thread_local size_t rma_race_free_size;
static _Thread_local const char *rma_race_free_call;

static void rma_race_free_each_(struct rma_win *win);

static void rma_race_free_each(struct rma_win *win)
{
    if (!win->race)
        return;
    if (rma_threads)
        rma_mt_lock(win);
    rma_race_free_each_(win);
    if (rma_threads)
        rma_mt_unlock(win);
}

static void rma_race_free_each_(struct rma_win *win)
{
    uint64_t lo = (uint64_t)(uintptr_t)rma_race_free_base, hi = lo + rma_race_free_size;
    if (win->flavor == ORMA_WIN_FLAVOR_DYNAMIC) {
        /* an access still reaching it; else its region still attached */
        uint64_t b, s;
        if (rma_race_leaving(win, rma_race_free_base, rma_race_free_size, rma_race_free_call) ||
            !rma_dyn_attached(win, lo, hi, &b, &s))
            return;
        char site[384], epoch[64];
        rma_race_my_site(site, sizeof site);
        rma_race_epoch_now(win, epoch, sizeof epoch);
        uint64_t olo = b > lo ? b : lo, ohi = b + s < hi ? b + s : hi;
        rma_race_report("memory freed while exposed: window %u, target rank %d, bytes [0x%llx, 0x%llx) of address "
                        "space, %s: orma_win_attach from rank %d attached [0x%llx, +%llu); %s from rank %d at %s "
                        "frees it before orma_win_detach", win->id, win->rank, (unsigned long long)olo,
                        (unsigned long long)ohi, epoch, win->rank, (unsigned long long)b, (unsigned long long)s,
                        rma_race_free_call, win->rank, site);
        return;
    }
    uint64_t wlo = (uint64_t)(uintptr_t)win->base, whi = wlo + win->size;
    if (win->flavor != ORMA_WIN_FLAVOR_CREATE || !win->size || hi <= wlo || whi <= lo)
        return;
    char site[384], epoch[64];
    rma_race_my_site(site, sizeof site);
    rma_race_epoch_now(win, epoch, sizeof epoch);
    uint64_t olo = lo > wlo ? lo - wlo : 0, ohi = (hi < whi ? hi : whi) - wlo;
    rma_race_report("memory freed while exposed: window %u, target rank %d, bytes [%llu, %llu) of the window, %s: "
                    "orma_win_create from rank %d exposed %p; %s from rank %d at %s frees it before orma_win_free",
                    win->id, win->rank, (unsigned long long)olo, (unsigned long long)ohi, epoch, win->rank,
                    win->base, rma_race_free_call, win->rank, site);
}

void rma_race_freeing(const void *base, size_t size, const char *call)
{
    rma_race_free_base = base;
    rma_race_free_size = size;
    rma_race_free_call = call;
    rma_win_foreach(rma_race_free_each);
}
