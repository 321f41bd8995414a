/* ddt.c -- the suite "ddt" (ddt.h): for each window flavour (default
 * allocate), pattern and size, three points on the same window, rank 0
 * origin, rank 1 target, measured together in one lock_all epoch:
 *
 *   typed_put        orma_put_typed (origin layout -> target layout); flush
 *   pack_put_unpack  orma_pack at rank 0; orma_put of the packed bytes into
 *                    the staging area after the target's domain; flush;
 *                    rank 1 orma_unpack's them into its layout
 *   contig_put       orma_put of as many contiguous bytes into the staging
 *                    area; flush
 *
 * One repetition, timed on rank 0, is the op, then a notification: rank 0
 * raises a flag (flag.h) after the flush, rank 1 waits for it, (unpacks,)
 * and raises its own, which rank 0 waits for.  All three ops carry the
 * same notification round trip, so they compare fairly, and the target's
 * unpack is inside the timed round where it belongs.
 *
 * The three ops take turns round by round (timed below), so that a
 * machine whose speed swings within seconds slows them alike and their
 * ratio holds where their times alone would not.  After the timed rounds
 * rank 1 checks the domain; then each op runs once more on new data and
 * rank 1 checks its whole window (checked below). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctl.h"
#include "ddt.h"
#include "flag.h"
#include "pattern.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "windows.h"

#define DDT_WARMUP 3
#define DDT_CALIB 4
#define DDT_MAX_CASES 256

/* The data sizes without --sizes (--quick: the first and the fifth). */
static const size_t ddt_sizes[] = {(size_t)4 << 10,   (size_t)16 << 10,
                                   (size_t)64 << 10,  (size_t)256 << 10,
                                   (size_t)1 << 20,   (size_t)4 << 20};
static const size_t ddt_quick_sizes[] = {(size_t)4 << 10, (size_t)1 << 20};

/* The windows it knows, and those measured without --window: mapped
 * memory (allocate), malloc'd memory (create: adopted when it holds whole
 * pages, shm_adopt.h) and memory that stays private (by system calls). */
const char *const ddt_window_kinds[] = {"allocate", "create", "create_private",
                                        "create_allocmem", "dynamic", "shared",
                                        NULL};
#define DDT_DEFAULT_WINDOWS "allocate,create,create_private"

const char *const ddt_op_names[] = {"typed_put", "pack_put_unpack",
                                    "contig_put", NULL};
static const char *const ddt_syncs[] = {"flush", NULL};

typedef struct ddt_run_state {
    const bench_ctx *ctx;
    bench_flag_win fw;
    uint64_t turn;       /* last flag value, the same on ranks 0 and 1 */
    long points;
    /* the current case */
    const ddt_pattern *pat;
    ddt_case c;
    ddt_runs ro, rt;     /* origin and target typemaps */
    size_t dom, psize;   /* domain bytes (staging starts there), data */
    bench_window w;
    unsigned char *origin, *packed, *contig; /* rank 0 */
    int op;
    uint64_t seed_o, seed_bg;
} ddt_run_state;

static size_t round64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

static void round_rank0(ddt_run_state *s)
{
    orma_win win = s->w.win;
    orma_aint tdisp = s->w.disp[1];
    if (s->op == DDT_TYPED) {
        BENCH_CHECK(orma_put_typed(s->origin, 1, s->c.origin->type, 1, tdisp,
                                   1, s->c.target->type, win));
    } else if (s->op == DDT_PACK) {
        size_t pos = 0;
        BENCH_CHECK(orma_pack(s->origin, 1, s->c.origin->type, s->packed,
                              s->psize, &pos));
        BENCH_CHECK(orma_put(s->packed, pos, ORMA_BYTE, 1,
                             tdisp + (orma_aint)s->dom, pos, ORMA_BYTE, win));
    } else {
        BENCH_CHECK(orma_put(s->contig, s->psize, ORMA_BYTE, 1,
                             tdisp + (orma_aint)s->dom, s->psize, ORMA_BYTE,
                             win));
    }
    BENCH_CHECK(orma_win_flush(1, win));
    bench_flag_raise(s->fw.flag[0], ++s->turn);
    bench_flag_wait(NULL, s->fw.flag[1], s->turn);
}

/* Rank 1 waits for the data as a passive target does, calling
 * orma_win_sync (MPI_Win_sync) between looks at the flag: where the window
 * is memory rank 0 cannot map, that is when rank 1 empties the box rank 0
 * offers it (runs of the typed put). */
static void round_rank1(ddt_run_state *s)
{
    BENCH_CHECK(bench_flag_wait_synced(s->fw.flag[1], s->fw.flag[0], ++s->turn, s->w.win));
    if (s->op == DDT_PACK) {
        size_t pos = 0;
        BENCH_CHECK(orma_unpack(s->w.base + s->dom, s->psize, &pos, s->w.base,
                                1, s->c.target->type));
    }
    bench_flag_raise(s->fw.flag[1], s->turn);
}

/* iters rounds; rank 0 returns the seconds of each in t (may be NULL). */
static void rounds(ddt_run_state *s, long iters, double *t)
{
    int me = s->ctx->rank;
    for (long i = 0; i < iters; i++) {
        if (me == 0) {
            double t0 = orma_wtime();
            round_rank0(s);
            if (t != NULL)
                t[i] = orma_wtime() - t0;
        } else if (me == 1) {
            round_rank1(s);
        }
    }
}

/* The window rank 1 must hold: the background, with the origin's data in
 * the target layout (typed, pack) or in the staging area (contig).  The
 * staging area of pack holds orma's packed format, which is not
 * specified: it is taken as found. */
static unsigned char *expected(const ddt_run_state *s)
{
    unsigned char *e = bench_xmalloc(s->w.size);
    bench_pattern_fill(e, s->w.size, s->seed_bg);
    if (s->op == DDT_CONTIG) {
        bench_pattern_fill(e + s->dom, s->psize, s->seed_o);
        return e;
    }
    unsigned char *src = bench_xmalloc(s->dom);
    bench_pattern_fill(src, s->dom, s->seed_o);
    size_t i = 0, j = 0, oi = 0, oj = 0;
    while (i < s->ro.n && j < s->rt.n) {
        size_t li = s->ro.v[i].len - oi, lj = s->rt.v[j].len - oj;
        size_t l = li < lj ? li : lj;
        memcpy(e + s->rt.v[j].off + oj, src + s->ro.v[i].off + oi, l);
        oi += l;
        oj += l;
        if (oi == s->ro.v[i].len) {
            i++;
            oi = 0;
        }
        if (oj == s->rt.v[j].len) {
            j++;
            oj = 0;
        }
    }
    free(src);
    if (s->op == DDT_PACK)
        memcpy(e + s->dom, s->w.base + s->dom, s->psize);
    return e;
}

/* Rank 1: 1 when bytes [0, upto) of the window hold what they must after
 * the op s->op (upto: the whole window, or the domain alone). */
static int verify(const ddt_run_state *s, size_t upto)
{
    BENCH_CHECK(orma_win_sync(s->w.win));
    unsigned char *e = expected(s);
    int ok = memcmp(e, s->w.base, upto) == 0;
    if (!ok) {
        size_t k = 0;
        while (e[k] == s->w.base[k])
            k++;
        fprintf(stderr, "orma-bench: rank 1: ddt %s %s on %s window, %zu "
                "bytes: window byte %zu (%s) is 0x%02x, expected 0x%02x\n",
                s->pat->name, ddt_op_names[s->op], s->w.kind, s->psize, k,
                k < s->dom ? "domain" : "staging area", s->w.base[k], e[k]);
    }
    free(e);
    return ok;
}

/* New data for the next rounds: the background of rank 1's window and the
 * origin's buffers, from seeds of their own. */
static void refill(ddt_run_state *s)
{
    const bench_ctx *ctx = s->ctx;
    s->points++;
    s->seed_o = bench_pattern_seed((uint64_t)s->points, 0);
    s->seed_bg = bench_pattern_seed((uint64_t)s->points, 1);
    if (ctx->rank == 1) {
        bench_pattern_fill(s->w.base, s->w.size, s->seed_bg);
        BENCH_CHECK(orma_win_sync(s->w.win));
    } else if (ctx->rank == 0) {
        bench_pattern_fill(s->origin, s->dom, s->seed_o);
        bench_pattern_fill(s->contig, s->psize, s->seed_o);
    }
    BENCH_CHECK(orma_barrier());
}

/* The timed rounds of the ops op[0..n) of one case, paired: one lock_all
 * epoch, the ops taking turns round by round (the first of each turn
 * moving on by one), so that the machine's ups and downs reach all of
 * them alike.  us[j] receives the microseconds of op[j]'s *reps rounds.
 * Returns 1 when the domain then holds the data (rank 1's view). */
static int timed(ddt_run_state *s, const int *op, int n, double **us,
                 long *reps)
{
    const bench_ctx *ctx = s->ctx;
    refill(s);
    if (ctx->rank == 0)
        BENCH_CHECK(orma_win_lock_all(0, s->w.win));
    double per_round = 0.0;
    for (int j = 0; j < n; j++) {
        double calib[DDT_CALIB] = {0};
        s->op = op[j];
        rounds(s, DDT_WARMUP, NULL);
        rounds(s, DDT_CALIB, calib);
        for (int i = 0; i < DDT_CALIB; i++)
            per_round += calib[i] / DDT_CALIB;
    }
    /* As many turns as the ops' time would buy one after another. */
    long r = ctx->rank == 0 ? bench_reps_for(ctx->opts, per_round / n) : 0;
    r = (long)bench_ctl_bcast(ctx->ctl, (uint64_t)r);
    *reps = r;
    for (int j = 0; j < n; j++)
        us[j] = bench_xmalloc((size_t)r * sizeof **us);
    for (long i = 0; i < r; i++) {
        for (int k = 0; k < n; k++) {
            int j = (int)((i + k) % n);
            double t = 0.0;
            s->op = op[j];
            rounds(s, 1, &t);
            us[j][i] = t * 1e6;
        }
    }
    if (ctx->rank == 0)
        BENCH_CHECK(orma_win_unlock_all(s->w.win));
    BENCH_CHECK(orma_barrier());
    /* The domain holds the data in the target layout once typed_put or
     * pack_put_unpack ran, the background where only contig_put did. */
    int ok = 1;
    if (ctx->rank == 1) {
        s->op = DDT_CONTIG;
        for (int j = 0; j < n; j++)
            if (op[j] != DDT_CONTIG)
                s->op = op[j];
        ok = verify(s, s->dom);
    }
    return bench_ctl_all_ok(ctx->ctl, ok);
}

/* One untimed round of op on new data, then rank 1 checks its whole
 * window: the op's bytes arrived and nothing else changed. */
static int checked(ddt_run_state *s, int op)
{
    const bench_ctx *ctx = s->ctx;
    refill(s);
    s->op = op;
    if (ctx->rank == 0)
        BENCH_CHECK(orma_win_lock_all(0, s->w.win));
    rounds(s, 1, NULL);
    if (ctx->rank == 0)
        BENCH_CHECK(orma_win_unlock_all(s->w.win));
    BENCH_CHECK(orma_barrier());
    int ok = ctx->rank == 1 ? verify(s, s->w.size) : 1;
    ok = bench_ctl_all_ok(ctx->ctl, ok);
    if (!ok && ctx->rank == 0)
        fprintf(stderr, "orma-bench: ddt %s %s on %s window: data did not "
                "verify\n", s->pat->name, ddt_op_names[op], s->w.kind);
    return ok;
}

/* The selected ops of the current case: timed together, then each
 * checked by itself; a result is reported only for an op whose data
 * verified.  0 when all did. */
static int measure(ddt_run_state *s, const char *kind)
{
    const bench_ctx *ctx = s->ctx;
    int op[DDT_NOP], n = 0;
    for (int j = 0; j < DDT_NOP; j++)
        if (bench_list_has(ctx->opts->ops, ddt_op_names[j]))
            op[n++] = j;
    if (n == 0)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "%s %s", s->pat->name, kind);
    bench_progress(what, s->psize);
    double *us[DDT_NOP] = {NULL};
    long reps = 0;
    int bad = !timed(s, op, n, us, &reps);
    if (bad && ctx->rank == 0)
        fprintf(stderr, "orma-bench: ddt %s on %s window: the data did not "
                "verify after the timed rounds\n", s->pat->name, kind);
    for (int j = 0; j < n; j++) {
        int ok = checked(s, op[j]);
        if (ok && !bad)
            bench_emit_pattern(ctx, s->pat->name, "orma", ddt_op_names[op[j]],
                               "flush", s->w.kind, s->psize, (double)s->psize,
                               us[j], reps);
        bad |= !ok;
        free(us[j]);
    }
    return bad ? -1 : 0;
}

/* Every op of one pattern at one size on one window; 0 when all
 * verified.  *bytes_p receives the data size. */
static int one_case(ddt_run_state *s, const char *kind, size_t want,
                    size_t *bytes_p)
{
    const bench_ctx *ctx = s->ctx;
    memset(&s->c, 0, sizeof s->c);
    int ok = s->pat->build(&s->c, want) == 0 &&
             ddt_flatten(s->c.origin, &s->ro) == 0 &&
             ddt_flatten(s->c.target, &s->rt) == 0 &&
             s->ro.bytes == s->rt.bytes;
    if (!bench_ctl_all_ok(ctx->ctl, ok)) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: ddt %s: could not build the "
                    "layouts\n", s->pat->name);
        ddt_runs_free(&s->ro);
        ddt_runs_free(&s->rt);
        ddt_arena_free(&s->c.arena);
        return -1;
    }
    s->psize = s->ro.bytes;
    *bytes_p = s->psize;
    s->dom = round64(s->ro.end > s->rt.end ? s->ro.end : s->rt.end);
    BENCH_CHECK(bench_window_open(ctx->ctl, kind, s->dom + round64(s->psize),
                                  &s->w));
    if (ctx->rank == 0) {
        s->origin = bench_xmalloc(s->dom);
        s->packed = bench_xmalloc(s->psize);
        s->contig = bench_xmalloc(s->psize);
        memset(s->packed, 0, s->psize);
    }
    int bad = measure(s, kind) != 0;
    free(s->origin);
    free(s->packed);
    free(s->contig);
    s->origin = s->packed = s->contig = NULL;
    bench_window_close(&s->w);
    ddt_runs_free(&s->ro);
    ddt_runs_free(&s->rt);
    ddt_arena_free(&s->c.arena);
    return bad ? -1 : 0;
}

static int check_filters(const bench_ctx *ctx)
{
    return bench_filters_check("ddt", ctx->rank, ctx->opts->windows, ddt_window_kinds, ctx->opts->ops, ddt_op_names,
                               ctx->opts->syncs, ddt_syncs);
}

int bench_ddt_run(const bench_ctx *ctx)
{
    if (ctx->size < 2) {
        if (ctx->rank == 0)
            fprintf(stderr, "orma-bench: ddt needs 2 ranks (run it as: "
                    "orma-run -n 2 orma-bench ddt)\n");
        return BENCH_USAGE;
    }
    if (check_filters(ctx) != 0)
        return BENCH_USAGE;
    bench_note("ddt: rank 0 -> rank 1, lock_all + flush, then a flag round "
               "trip (rank 1 unpacks before answering in pack_put_unpack); "
               "bytes = data bytes of the pattern, the sizes of --sizes "
               "rounded to its dimensions");
    static ddt_run_state s; /* large: keep it off the stack */
    memset(&s, 0, sizeof s);
    s.ctx = ctx;
    bench_flag_win_open(0, &s.fw);
    const char *windows = ctx->opts->windows ? ctx->opts->windows
                                             : DDT_DEFAULT_WINDOWS;
    const size_t *sizes = ctx->opts->quick ? ddt_quick_sizes : ddt_sizes;
    int nsizes = ctx->opts->quick ? 2 : (int)(sizeof ddt_sizes / sizeof *ddt_sizes);
    if (ctx->opts->sizes_given) {
        sizes = ctx->opts->sizes;
        nsizes = ctx->opts->nsizes;
    }
    long cases = 0; /* for the progress line */
    for (int k = 0; ddt_window_kinds[k] != NULL; k++)
        if (bench_list_has(windows, ddt_window_kinds[k]))
            for (const ddt_pattern *p = ddt_patterns; p->name != NULL; p++)
                cases += nsizes;
    bench_progress_expect(cases);
    ddt_case_id ids[DDT_MAX_CASES];
    int nids = 0, st = BENCH_OK;
    for (int k = 0; ddt_window_kinds[k] != NULL; k++) {
        if (!bench_list_has(windows, ddt_window_kinds[k]))
            continue;
        for (const ddt_pattern *p = ddt_patterns; p->name != NULL; p++) {
            for (int z = 0; z < nsizes; z++) {
                size_t bytes = 0;
                s.pat = p;
                if (one_case(&s, ddt_window_kinds[k], sizes[z], &bytes) != 0)
                    st = BENCH_FAIL;
                int known = 0;
                for (int i = 0; i < nids; i++)
                    known |= ids[i].pattern == p && ids[i].bytes == bytes;
                if (!known && nids < DDT_MAX_CASES)
                    ids[nids++] = (ddt_case_id){p, bytes};
            }
        }
    }
    bench_flag_win_close(&s.fw);
    ddt_summary(ctx, ids, nids);
    return st;
}
