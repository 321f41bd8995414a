/* caf_image.c -- images: start, end, numbers, and how errors reach the
 * program (STAT=/ERRMSG= or error termination). */
#include "caf_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct caf_state caf = {.me = -1};

/* libgfortran's FLUSH with no unit: every unit's buffer, so that what the
 * program printed is out before an error termination (orma_abort does not
 * return to libgfortran's exit handlers). */
extern void _gfortran_flush_i4(int *unit) __attribute__((weak));

void caf_flush_units(void)
{
    if (_gfortran_flush_i4)
        _gfortran_flush_i4(NULL);
    fflush(NULL);
}

/* Whether orma was running before caf_init (then caf_finalize leaves it
 * running). */
static int caf_orma_before;

static void caf_vmsg(char *buf, size_t len, const char *fmt, va_list ap)
{
    int k = snprintf(buf, len, "orma-caf: image %d: ", caf.me + 1);
    if (k < 0 || (size_t)k >= len)
        k = 0;
    vsnprintf(buf + k, len - (size_t)k, fmt, ap);
}

void caf_die(int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    caf_vmsg(msg, sizeof msg, fmt, ap);
    va_end(ap);
    caf_flush_units();
    fprintf(stderr, "%s\n", msg);
    fflush(NULL);
    orma_abort(code ? code : 1);
}

int caf_fail(int status, int *stat, char *errmsg, size_t errmsg_len, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    caf_vmsg(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!stat) {
        caf_flush_units();
        fprintf(stderr, "%s\n", msg);
        fflush(NULL);
        orma_abort(1);
    }
    *stat = status;
    if (errmsg && errmsg_len) {
        size_t k = strlen(msg);
        if (k > errmsg_len)
            k = errmsg_len;
        memcpy(errmsg, msg, k);
        memset(errmsg + k, ' ', errmsg_len - k);
    }
    return status;
}

void caf_ok(int *stat)
{
    if (stat)
        *stat = 0;
}


/* Joins the job on first use: gfortran registers static coarrays in
 * constructors, before main calls _gfortran_caf_init. */
void caf_start(int *argc, char ***argv)
{
    if (caf.me >= 0)
        return;
    int flag = 0, rc;
    orma_initialized(&flag);
    caf_orma_before = flag;
    if (!flag && (rc = orma_init(argc, argv)) != ORMA_SUCCESS) {
        fprintf(stderr, "orma-caf: cannot start the image: %s (%s)\n", orma_strerror(rc), orma_error_message());
        exit(1);
    }
    caf.me = orma_rank();
    caf.n = orma_size();
    caf_team_init();
    size_t n = (size_t)caf.n;
    void *base = NULL;
    rc = orma_win_allocate((3 * n + 1) * sizeof(uint64_t), 1, ORMA_INFO_NULL, &base, &caf.ctl);
    if (rc != ORMA_SUCCESS)
        caf_die(1, "cannot make the control window: %s (%s)", orma_strerror(rc), orma_error_message());
    memset(base, 0, (3 * n + 1) * sizeof(uint64_t));
    /* The job's salt, image 1's: the same on every image, new every run
     * (RANDOM_INIT). */
    uint64_t *salt = (uint64_t *)base + 3 * n;
    if (caf.me == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        *salt = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^ ((uint64_t)getpid() << 32);
    }
    caf.sync.in = base;
    caf.sync.disp = 0;
    caf.ended = caf.sync.in + n;
    caf.coll.in = caf.sync.in + 2 * n;
    caf.coll.disp = 2 * n * sizeof(uint64_t);
    caf.sync.made = calloc(n, sizeof(uint64_t));
    caf.coll.made = calloc(n, sizeof(uint64_t));
    if (!caf.sync.made || !caf.coll.made)
        caf_die(1, "out of memory");
    /* Everyone's control words are zero before anyone writes into them. */
    if ((rc = orma_win_lock_all(0, caf.ctl)) != ORMA_SUCCESS || (rc = orma_barrier()) != ORMA_SUCCESS ||
        (rc = orma_get(&caf.salt, 1, ORMA_UINT64, 0, (orma_aint)(3 * n * sizeof(uint64_t)), 1, ORMA_UINT64,
                       caf.ctl)) != ORMA_SUCCESS ||
        (rc = orma_win_flush(0, caf.ctl)) != ORMA_SUCCESS)
        caf_die(1, "cannot start: %s (%s)", orma_strerror(rc), orma_error_message());
    caf.ctl_peer = caf_map_peers(caf.ctl, caf.n);
    caf.all_mapped = caf.ctl_peer != NULL;
    for (int r = 0; caf.all_mapped && r < caf.n; r++)
        caf.all_mapped = caf.ctl_peer[r].base != NULL;
}

void _gfortran_caf_init(int *argc, char ***argv)
{
    caf_start(argc, argv);
}

/* This image ends (how: CAF_ENDED_STOPPED, or _FAILED for FAIL IMAGE):
 * tell every image, wait until all have ended (their coarrays stay
 * reachable until then), then leave the job. */
void caf_end(uint64_t how)
{
    if (caf.me < 0 || caf.ending)
        return;
    caf.ending = 1;
    for (int r = 0; r < caf.n; r++) {
        orma_accumulate(&how, 1, ORMA_UINT64, r, (size_t)caf.n * sizeof(uint64_t) + (size_t)caf.me * sizeof(uint64_t),
                        1, ORMA_UINT64, ORMA_REPLACE, caf.ctl);
        orma_win_flush(r, caf.ctl);
    }
    caf_wait_all_ended();
    /* Every image is here: the windows go collectively, newest first (the
     * same list everywhere, as registration is collective): those of formed
     * teams first, among each team's members, then the world's. */
    caf.team = &caf.initial;
    caf_team_release_all();
    while (caf.tokens) {
        struct caf_token *t = caf.tokens;
        caf.tokens = t->next;
        caf_token_release(t);
        free(t);
    }
    caf_coll_free(&caf.initial);
    orma_win_unlock_all(caf.ctl);
    orma_win_free(&caf.ctl);
    free(caf.ctl_peer);
    caf.ctl_peer = NULL;
    free(caf.sync.made);
    free(caf.coll.made);
    caf.sync.made = caf.coll.made = NULL;
    if (!caf_orma_before)
        orma_finalize();
}

void _gfortran_caf_finalize(void)
{
    caf_end(CAF_ENDED_STOPPED);
}

int _gfortran_caf_this_image(int distance)
{
    (void)distance;
    return caf.team->me + 1;
}

int _gfortran_caf_num_images(int distance, int failed)
{
    (void)distance;
    /* failed: -1 all images, 1 the failed ones (FAIL IMAGE), 0 the others.
     * An image that dies otherwise ends the job under orma-run. */
    const struct caf_team *t = caf.team;
    if (failed < 0)
        return t->n;
    int k = 0;
    for (int i = 0; i < t->n; i++)
        k += caf_ended_stat(t->world[i]) == CAF_STAT_FAILED_IMAGE;
    return failed == 1 ? k : t->n - k;
}
