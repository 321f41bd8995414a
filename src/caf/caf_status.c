/* caf_status.c -- what is known of other images: IMAGE_STATUS,
 * FAILED_IMAGES, STOPPED_IMAGES (from the words every ending image writes
 * into everyone's control window), FAIL IMAGE, and RANDOM_INIT. */
#include "caf_impl.h"

#include <stdlib.h>
#include <unistd.h>

int caf_ended_stat(int r)
{
    uint64_t v = __atomic_load_n(&caf.ended[r], __ATOMIC_ACQUIRE);
    return v == CAF_ENDED_NOT ? 0 : v == CAF_ENDED_FAILED ? CAF_STAT_FAILED_IMAGE : CAF_STAT_STOPPED_IMAGE;
}

int caf_collective_blocked(const char *what, int *stat, char *errmsg, size_t errmsg_len)
{
    const struct caf_team *t = caf.team;
    for (int i = 0; i < t->n; i++) {
        int r = t->world[i], code = r == caf.me ? 0 : caf_ended_stat(r);
        if (code)
            return caf_fail(code, stat, errmsg, errmsg_len, "%s: image %d has %s", what, i + 1,
                            code == CAF_STAT_FAILED_IMAGE ? "failed" : "stopped");
    }
    return 0;
}

int _gfortran_caf_image_status(int image, void *team)
{
    (void)team;
    int r = caf_image_rank(image);
    if (r < 0)
        caf_die(1, "IMAGE_STATUS of image %d, which is not in 1..%d", image, caf.team->n);
    return caf_ended_stat(r);
}

/* An integer array (kind bytes per element; 4 when not given) of the
 * images whose status is code, in increasing order, allocated here as
 * gfortran allocates a function result (it frees it). */
static void caf_images_with(struct caf_desc *array, int *kind, int code)
{
    const struct caf_team *t = caf.team;
    int k = kind ? *kind : 4, count = 0;
    for (int i = 0; i < t->n; i++)
        count += caf_ended_stat(t->world[i]) == code;
    char *p = malloc((size_t)(count ? count : 1) * (size_t)k);
    if (!p)
        caf_die(1, "out of memory");
    int i = 0;
    for (int j = 0; j < t->n; j++)
        if (caf_ended_stat(t->world[j]) == code) {
            int64_t v = j + 1;
            switch (k) {
            case 1: ((int8_t *)p)[i] = (int8_t)v; break;
            case 2: ((int16_t *)p)[i] = (int16_t)v; break;
            case 8: ((int64_t *)p)[i] = v; break;
            default: ((int32_t *)p)[i] = (int32_t)v; break;
            }
            i++;
        }
    /* A function result: zero-based (gfortran rebases it). */
    array->base = p;
    array->offset = 0;
    array->dtype.elem_len = (size_t)k;
    array->dtype.version = 0;
    array->dtype.rank = 1;
    array->dtype.type = CAF_BT_INTEGER;
    array->dtype.attribute = 0;
    array->span = k;
    array->dim[0].stride = 1;
    array->dim[0].lbound = 0;
    array->dim[0].ubound = count - 1;
}

void _gfortran_caf_failed_images(struct caf_desc *array, void *team, int *kind)
{
    (void)team;
    caf_images_with(array, kind, CAF_STAT_FAILED_IMAGE);
}

void _gfortran_caf_stopped_images(struct caf_desc *array, void *team, int *kind)
{
    (void)team;
    caf_images_with(array, kind, CAF_STAT_STOPPED_IMAGE);
}

/* FAIL IMAGE: this image stops taking part at once; the others see it
 * failed (STAT_FAILED_IMAGE, FAILED_IMAGES) and go on.  Its process stays
 * until every image has ended, so that the job ends as one. */
void _gfortran_caf_fail_image(void)
{
    caf_flush_units();
    caf_end(CAF_ENDED_FAILED);
    _exit(0);
}

/* RANDOM_INIT (F2018 16.9.155).  libgfortran's own gives every image the
 * same repeatable seed and knows no images, so the seed is made here and
 * put with RANDOM_SEED(PUT=): from a constant (repeatable) or from the
 * job's salt (a new sequence every run, yet the same on every image
 * without a word between them), and, image_distinct, from the image
 * number too. */
extern void _gfortran_random_seed_i4(int32_t *size, struct caf_desc *put, struct caf_desc *get)
    __attribute__((weak));

static uint64_t caf_mix(uint64_t *state)
{
    /* splitmix64 (Steele, Lea and Flood) */
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void _gfortran_caf_random_init(bool repeatable, bool image_distinct)
{
    if (!_gfortran_random_seed_i4)
        caf_die(1, "RANDOM_INIT: libgfortran's RANDOM_SEED is not there");
    int32_t n = 0;
    _gfortran_random_seed_i4(&n, NULL, NULL);
    if (n <= 0)
        return;
    int32_t *seed = malloc((size_t)n * sizeof *seed);
    struct caf_desc *d = malloc(sizeof *d + sizeof(struct caf_dim));
    if (!seed || !d)
        caf_die(1, "out of memory");
    uint64_t state = repeatable ? 0x6f726d612d636166ull : caf.salt;
    if (image_distinct)
        state ^= (uint64_t)(caf.me + 1) * 0xd1b54a32d192ed03ull;
    for (int32_t i = 0; i < n; i++)
        seed[i] = (int32_t)(caf_mix(&state) >> 33) | 1;
    d->base = seed;
    d->offset = (size_t)-1;
    d->dtype.elem_len = 4;
    d->dtype.version = 0;
    d->dtype.rank = 1;
    d->dtype.type = CAF_BT_INTEGER;
    d->dtype.attribute = 0;
    d->span = 4;
    d->dim[0].stride = 1;
    d->dim[0].lbound = 1;
    d->dim[0].ubound = n;
    _gfortran_random_seed_i4(NULL, d, NULL);
    free(d);
    free(seed);
}
