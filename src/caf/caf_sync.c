/* caf_sync.c -- SYNC ALL, SYNC IMAGES and SYNC MEMORY on pairwise
 * counters, with no global barrier: image i syncing with image j adds one
 * to j's counter for i (an atomic accumulate into j's control window) and
 * waits until its own counter for j has reached the number of syncs it
 * made with j.  Each waits on its own memory only.  An image that has
 * begun to terminate says so in everyone's control window, and a sync
 * waiting for it ends with STAT_STOPPED_IMAGE. */
#include "caf_impl.h"

#include <sched.h>
#include <stdlib.h>

/* A round of waiting for rank r: a flush towards it, which over the net
 * transport also handles what has arrived (a signal travels as a message
 * there; on shared memory it is a no-op but for the memory barrier), then
 * the core for others after a while (2 cores run 4 images here). */
static void caf_relax(unsigned *spins, int r)
{
    orma_win_flush(r, caf.ctl);
    if (++*spins > 64)
        sched_yield();
#if defined(__x86_64__) || defined(__i386__)
    else
        __builtin_ia32_pause();
#endif
}

/* A full barrier, as an atomic read-modify-write (which the thread
 * sanitizer understands, unlike a fence). */
static void caf_fence(void)
{
    static uint64_t word;
    __atomic_fetch_add(&word, 0, __ATOMIC_SEQ_CST);
}

static uint64_t caf_load(const uint64_t *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/* Signals rank r on p: one atomic add into its counter for this image --
 * in place where r's control window is mapped here. */
static int caf_pair_signal(struct caf_pairs *p, int r)
{
    uint64_t one = 1;
    p->made[r]++;
    if (caf.ctl_peer && caf.ctl_peer[r].base) {
        __atomic_fetch_add((uint64_t *)(caf.ctl_peer[r].base + p->disp) + caf.me, one, __ATOMIC_SEQ_CST);
        return ORMA_SUCCESS;
    }
    int rc = orma_accumulate(&one, 1, ORMA_UINT64, r, (orma_aint)(p->disp + (size_t)caf.me * sizeof(uint64_t)), 1,
                             ORMA_UINT64, ORMA_SUM, caf.ctl);
    return rc == ORMA_SUCCESS ? orma_win_flush(r, caf.ctl) : rc;
}

/* Waits until rank r has signalled this image on p as often as this image
 * signalled it; 0, or 1 when r has stopped first. */
static int caf_pair_wait(struct caf_pairs *p, int r)
{
    unsigned spins = 0;
    while (caf_load(&p->in[r]) < p->made[r]) {
        if (caf_load(&caf.ended[r]))
            return 1;
        caf_relax(&spins, r);
    }
    return 0;
}

int caf_pair(struct caf_pairs *p, int r)
{
    if (caf_pair_signal(p, r) != ORMA_SUCCESS)
        return -1;
    return caf_pair_wait(p, r) ? r + 1 : 0;
}

int caf_sync_ranks(const int *ranks, int n, int *stat, char *errmsg, size_t errmsg_len)
{
    if (n < 0) { /* every image of the current team */
        ranks = caf.team->world;
        n = caf.team->n;
    }
    int count = n, rc;
    /* Every put, get and atomic of this image is complete already: each
     * flushes before it returns.  What remains is ordering this image's
     * own stores before the signals. */
    caf_fence();
    for (int k = 0; k < count; k++) {
        int r = ranks[k];
        if (r != caf.me && (rc = caf_pair_signal(&caf.sync, r)) != ORMA_SUCCESS)
            return caf_fail(1, stat, errmsg, errmsg_len, "sync with image %d: %s (%s)", r + 1, orma_strerror(rc),
                            orma_error_message());
    }
    int stopped = -1;
    for (int k = 0; k < count; k++) {
        int r = ranks[k];
        if (r != caf.me && caf_pair_wait(&caf.sync, r))
            stopped = r;
    }
    caf_fence();
    if (stopped >= 0) {
        int code = caf_ended_stat(stopped);
        return caf_fail(code, stat, errmsg, errmsg_len, "sync with image %d, which has %s", stopped + 1,
                        code == CAF_STAT_FAILED_IMAGE ? "failed" : "stopped");
    }
    caf_ok(stat);
    return 0;
}

void caf_wait_all_ended(void)
{
    for (int r = 0; r < caf.n; r++) {
        unsigned spins = 0;
        while (!caf_load(&caf.ended[r]))
            caf_relax(&spins, r);
    }
}

/* gfortran 12 passes the ERRMSG= variable of SYNC ALL, SYNC IMAGES and
 * SYNC MEMORY as the address of a pointer to it (it takes the address of
 * the string's address), unlike every other statement's: this is where the
 * message goes. */
static char *caf_sync_errmsg(char **errmsg_p)
{
    return errmsg_p ? *errmsg_p : NULL;
}

void _gfortran_caf_sync_all(int *stat, char **errmsg_p, size_t errmsg_len)
{
    caf_sync_ranks(NULL, -1, stat, caf_sync_errmsg(errmsg_p), errmsg_len);
}

void _gfortran_caf_sync_images(int count, int images[], int *stat, char **errmsg_p, size_t errmsg_len)
{
    char *errmsg = caf_sync_errmsg(errmsg_p);
    if (count < 0) {
        caf_sync_ranks(NULL, -1, stat, errmsg, errmsg_len);
        return;
    }
    int *ranks = malloc(((size_t)count + 1) * sizeof *ranks);
    char *seen = calloc((size_t)caf.n, 1);
    int nimg = caf.team->n;
    if (!ranks || !seen) {
        free(ranks);
        free(seen);
        caf_fail(1, stat, errmsg, errmsg_len, "sync images: out of memory");
        return;
    }
    for (int k = 0; k < count; k++) {
        int r = caf_image_rank(images[k]);
        if (r < 0 || seen[r]) {
            if (r < 0)
                caf_fail(1, stat, errmsg, errmsg_len, "sync images: image %d is not in 1..%d", images[k], nimg);
            else
                caf_fail(1, stat, errmsg, errmsg_len, "sync images: image %d named twice", images[k]);
            free(ranks);
            free(seen);
            return;
        }
        seen[r] = 1;
        ranks[k] = r;
    }
    caf_sync_ranks(ranks, count, stat, errmsg, errmsg_len);
    free(ranks);
    free(seen);
}

void _gfortran_caf_sync_memory(int *stat, char **errmsg_p, size_t errmsg_len)
{
    char *errmsg = caf_sync_errmsg(errmsg_p);
    /* This image's remote operations are complete already (each flushes,
     * or is a copy); what is left is the order of its own loads and
     * stores: a fence -- and, where some image is not mapped here (the net
     * transport), orma's, which also handles what has arrived. */
    int rc = caf.all_mapped ? ORMA_SUCCESS : orma_win_sync(caf.ctl);
    caf_fence();
    if (rc != ORMA_SUCCESS) {
        caf_fail(1, stat, errmsg, errmsg_len, "sync memory: %s (%s)", orma_strerror(rc), orma_error_message());
        return;
    }
    caf_ok(stat);
}
