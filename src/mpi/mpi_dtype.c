/* mpi_dtype.c -- MPI datatypes as orma's: predefined ones by table
 * (mpi_types.c), derived ones decoded once with MPI_Type_get_envelope and
 * MPI_Type_get_contents into an orma type, committed and cached until the
 * program frees the MPI type (MPI_Type_free is defined here for that). */
#include "mpi_orma.h"
#include "api_face.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct mpi_type_slot {
    MPI_Datatype mpi;
    orma_type orma;
    int used;
};

static struct mpi_type_slot *mpi_cache;
static size_t mpi_cache_cap, mpi_cache_n;

static struct mpi_type_slot *mpi_cache_find(MPI_Datatype t)
{
    if (!mpi_cache_cap)
        return NULL;
    for (size_t s = (size_t)mpi_type_mix(t) & (mpi_cache_cap - 1);; s = (s + 1) & (mpi_cache_cap - 1))
        if (!mpi_cache[s].used || mpi_cache[s].mpi == t)
            return &mpi_cache[s];
}

static int mpi_cache_put(MPI_Datatype t, orma_type o)
{
    if (2 * (mpi_cache_n + 1) > mpi_cache_cap) {
        size_t cap = mpi_cache_cap ? 2 * mpi_cache_cap : 64;
        struct mpi_type_slot *old = mpi_cache, *n = calloc(cap, sizeof *n);
        if (!n)
            return ORMA_ERR_NOMEM;
        size_t oldcap = mpi_cache_cap;
        mpi_cache = n;
        mpi_cache_cap = cap;
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].used)
                *mpi_cache_find(old[i].mpi) = old[i];
        free(old);
    }
    *mpi_cache_find(t) = (struct mpi_type_slot){t, o, 1};
    mpi_cache_n++;
    return ORMA_SUCCESS;
}

static int mpi_type_decode(MPI_Datatype t, int cache, orma_type *o_p);

/* The orma types of the MPI types a constructor names.  Derived ones come
 * from get_contents as new MPI handles, freed here once decoded, so their
 * values may be reused: they are decoded afresh, never cached. */
static int mpi_decode_parts(int n, MPI_Datatype *types, orma_type *out)
{
    int status = ORMA_SUCCESS;
    for (int i = 0; i < n; i++) {
        int ni, na, nd, comb;
        PMPI_Type_get_envelope(types[i], &ni, &na, &nd, &comb);
        if (!status)
            status = mpi_type_decode(types[i], 0, &out[i]);
        if (comb != MPI_COMBINER_NAMED)
            PMPI_Type_free(&types[i]);
    }
    return status;
}

static void mpi_free_parts(int n, orma_type *parts)
{
    for (int i = 0; i < n; i++)
        if (parts[i] && !parts[i]->predefined)
            orma_type_free(&parts[i]);
}

static size_t *mpi_sizes(int n, const int *v)
{
    size_t *s = malloc(((size_t)n + 1) * sizeof *s);
    for (int i = 0; s && i < n; i++)
        s[i] = (size_t)v[i];
    return s;
}

static orma_aint *mpi_aints(int n, const int *v)
{
    orma_aint *s = malloc(((size_t)n + 1) * sizeof *s);
    for (int i = 0; s && i < n; i++)
        s[i] = v[i];
    return s;
}

/* A new committed orma type for the derived MPI type t with its parts
 * decoded (old) and its integers and addresses. */
static int mpi_build(int comb, const int *in, const MPI_Aint *ad, orma_type *old, orma_type *o_p)
{
    int n = in ? in[0] : 0, status = ORMA_ERR_UNSUPPORTED;
    size_t *bl = NULL, *sz = NULL, *sub = NULL, *st = NULL;
    orma_aint *d = NULL;
    if (n < 0)
        return ORMA_ERR_COUNT;
    switch (comb) {
    case MPI_COMBINER_DUP: status = orma_type_dup(old[0], o_p); break;
    case MPI_COMBINER_CONTIGUOUS: status = orma_type_contiguous((size_t)n, old[0], o_p); break;
    case MPI_COMBINER_VECTOR: status = orma_type_vector((size_t)n, (size_t)in[1], in[2], old[0], o_p); break;
    case MPI_COMBINER_HVECTOR: status = orma_type_hvector((size_t)n, (size_t)in[1], ad[0], old[0], o_p); break;
    case MPI_COMBINER_INDEXED:
        bl = mpi_sizes(n, in + 1), d = mpi_aints(n, in + 1 + n);
        status = bl && d ? orma_type_indexed((size_t)n, bl, d, old[0], o_p) : ORMA_ERR_NOMEM;
        break;
    case MPI_COMBINER_HINDEXED:
        bl = mpi_sizes(n, in + 1);
        status = bl ? orma_type_hindexed((size_t)n, bl, (const orma_aint *)ad, old[0], o_p) : ORMA_ERR_NOMEM;
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        d = mpi_aints(n, in + 2);
        status = d ? orma_type_indexed_block((size_t)n, (size_t)in[1], d, old[0], o_p) : ORMA_ERR_NOMEM;
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        status = orma_type_hindexed_block((size_t)n, (size_t)in[1], (const orma_aint *)ad, old[0], o_p);
        break;
    case MPI_COMBINER_STRUCT:
        bl = mpi_sizes(n, in + 1);
        status = bl ? orma_type_struct((size_t)n, bl, (const orma_aint *)ad, old, o_p) : ORMA_ERR_NOMEM;
        break;
    case MPI_COMBINER_SUBARRAY:
        sz = mpi_sizes(n, in + 1), sub = mpi_sizes(n, in + 1 + n), st = mpi_sizes(n, in + 1 + 2 * n);
        status = sz && sub && st ? orma_type_subarray(n, sz, sub, st,
                                                      in[1 + 3 * n] == MPI_ORDER_C ? ORMA_ORDER_C : ORMA_ORDER_FORTRAN,
                                                      old[0], o_p)
                                 : ORMA_ERR_NOMEM;
        break;
    case MPI_COMBINER_RESIZED: status = orma_type_resized(old[0], ad[0], ad[1], o_p); break;
    default: break;
    }
    free(bl), free(sz), free(sub), free(st), free(d);
    if (!status)
        status = orma_type_commit(o_p);
    return status;
}

/* MPI-1's bound markers, MPI_LB and MPI_UB, which MPI-3 removed but both
 * hosts keep (Open MPI's C11 mpi.h hides the names, so they are known by
 * the names the host gives them): taken out of a struct's parts -- in (the
 * counts), ad (the displacements), types -- which keep their order.  A
 * marker sets the struct's lower (upper) bound at its displacement, the
 * lowest LB and the highest UB where there are several. */
struct mpi_bounds {
    int lb_set, ub_set;
    MPI_Aint lb, ub;
};

static void mpi_struct_markers(int *in, MPI_Aint *ad, MPI_Datatype *types, struct mpi_bounds *b)
{
    int n = in[0], kept = 0;
    for (int i = 0; i < n; i++) {
        char name[MPI_MAX_OBJECT_NAME] = "";
        int len = 0, comb = 0, ni, na, nd, size = -1;
        PMPI_Type_get_envelope(types[i], &ni, &na, &nd, &comb);
        if (comb == MPI_COMBINER_NAMED && PMPI_Type_size(types[i], &size) == MPI_SUCCESS && size == 0)
            PMPI_Type_get_name(types[i], name, &len);
        int lb = !strcmp(name, "MPI_LB"), ub = !strcmp(name, "MPI_UB");
        if (lb && (!b->lb_set || ad[i] < b->lb)) {
            b->lb = ad[i];
            b->lb_set = 1;
        }
        if (ub && (!b->ub_set || ad[i] > b->ub)) {
            b->ub = ad[i];
            b->ub_set = 1;
        }
        if (lb || ub)
            continue;
        in[1 + kept] = in[1 + i];
        ad[kept] = ad[i];
        types[kept] = types[i];
        kept++;
    }
    in[0] = kept;
}

/* *o_p with the bounds its markers set (a new committed type in its place). */
static int mpi_struct_bounded(const struct mpi_bounds *b, orma_type *o_p)
{
    if (!b->lb_set && !b->ub_set)
        return ORMA_SUCCESS;
    orma_aint lb = 0, extent = 0;
    orma_type r = NULL;
    int status = orma_type_get_extent(*o_p, &lb, &extent);
    orma_aint ub = lb + extent;
    if (b->lb_set)
        lb = b->lb;
    if (b->ub_set)
        ub = b->ub;
    if (!status)
        status = orma_type_resized(*o_p, lb, ub - lb, &r);
    if (!status && (status = orma_type_commit(&r)))
        orma_type_free(&r);
    if (!status) {
        orma_type_free(o_p);
        *o_p = r;
    }
    return status;
}

/* Whether derived type t was committed.  MPI has no query for it, but both
 * hosts' MPI_Pack refuse an uncommitted type before they look at the count;
 * asked once per type, when it is decoded (then cached). */
static int mpi_type_committed(MPI_Datatype t)
{
    int position = 0;
    char out = 0;
    return mpi_quiet_comm == MPI_COMM_NULL ||
           PMPI_Pack(&out, 0, t, &out, 0, &position, mpi_quiet_comm) == MPI_SUCCESS;
}

static int mpi_type_decode(MPI_Datatype t, int cache, orma_type *o_p)
{
    orma_type o = mpi_type_predefined(t);
    if (o) {
        *o_p = o;
        return ORMA_SUCCESS;
    }
    struct mpi_type_slot *s = cache ? mpi_cache_find(t) : NULL;
    if (s && s->used) {
        *o_p = s->orma;
        return ORMA_SUCCESS;
    }
    if (cache && (t == MPI_DATATYPE_NULL || !mpi_type_committed(t))) /* the program's own handle */
        return util_error(ORMA_ERR_TYPE, "%s datatype (MPI-4.1 12.3: communication takes committed types)",
                          t == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL as a" : "an uncommitted");
    int ni, na, nd, comb;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS)
        return ORMA_ERR_TYPE;
    if (comb == MPI_COMBINER_NAMED) { /* a predefined type orma lacks (REAL*16, MPI_2REAL ...) */
        char name[MPI_MAX_OBJECT_NAME] = "?";
        int len = 0;
        PMPI_Type_get_name(t, name, &len);
        return util_error(ORMA_ERR_UNSUPPORTED, "predefined datatype %s has no orma equivalent", name);
    }
    int *in = malloc(((size_t)ni + 1) * sizeof *in);
    MPI_Aint *ad = malloc(((size_t)na + 1) * sizeof *ad);
    MPI_Datatype *types = malloc(((size_t)nd + 1) * sizeof *types);
    orma_type *old = calloc((size_t)nd + 1, sizeof *old);
    int status = in && ad && types && old ? ORMA_SUCCESS : ORMA_ERR_NOMEM;
    struct mpi_bounds bounds = {0};
    if (!status) {
        PMPI_Type_get_contents(t, ni, na, nd, in, ad, types);
        if (comb == MPI_COMBINER_STRUCT) {
            mpi_struct_markers(in, ad, types, &bounds);
            nd = in[0];
        }
        status = mpi_decode_parts(nd, types, old);
    }
    if (!status)
        status = mpi_build(comb, ni ? in : NULL, ad, old, &o);
    if (!status && (status = mpi_struct_bounded(&bounds, &o)))
        orma_type_free(&o);
    if (!status && cache && (status = mpi_cache_put(t, o)))
        orma_type_free(&o);
    if (old)
        mpi_free_parts(nd, old);
    free(in), free(ad), free(types), free(old);
    if (!status)
        *o_p = o;
    return status;
}

/* The cache is shared by the program's threads: held while a type is
 * looked up or decoded into it (a predefined type takes no lock). */
static pthread_mutex_t mpi_cache_mu = PTHREAD_MUTEX_INITIALIZER;

int mpi_type(MPI_Datatype t, orma_type *o_p)
{
    orma_type o = mpi_type_predefined(t);
    if (o) {
        *o_p = o;
        return ORMA_SUCCESS;
    }
    pthread_mutex_lock(&mpi_cache_mu);
    int status = mpi_type_decode(t, 1, o_p);
    pthread_mutex_unlock(&mpi_cache_mu);
    return status;
}

int MPI_Type_free(MPI_Datatype *datatype)
{
    pthread_mutex_lock(&mpi_cache_mu);
    struct mpi_type_slot *s = datatype ? mpi_cache_find(*datatype) : NULL;
    if (s && s->used) { /* remove, then re-insert the rest of the cluster */
        orma_type_free(&s->orma);
        s->used = 0;
        mpi_cache_n--;
        for (size_t i = (size_t)(s - mpi_cache + 1) & (mpi_cache_cap - 1); mpi_cache[i].used;
             i = (i + 1) & (mpi_cache_cap - 1)) {
            struct mpi_type_slot m = mpi_cache[i];
            mpi_cache[i].used = 0;
            *mpi_cache_find(m.mpi) = m;
        }
    }
    pthread_mutex_unlock(&mpi_cache_mu);
    return PMPI_Type_free(datatype);
}

int mpi_type_bottom(void **buf_p, size_t *count_p, orma_type *type_p, orma_type *tmp_p)
{
    *tmp_p = NULL;
    if (*buf_p != MPI_BOTTOM || *count_p == 0 || (*type_p)->predefined || !(*type_p)->size)
        return ORMA_SUCCESS; /* a predefined type at MPI_BOTTOM is orma's NULL buffer error; no data
                                needs no buffer */
    orma_aint lb, extent, tlb, textent, span, base;
    int status = orma_type_get_extent(*type_p, &lb, &extent);
    if (!status)
        status = orma_type_get_true_extent(*type_p, &tlb, &textent);
    if (status)
        return status;
    if (__builtin_mul_overflow((orma_aint)(*count_p - 1), extent, &span) ||
        __builtin_add_overflow(tlb, span < 0 ? span : 0, &base) || base <= 0)
        return ORMA_ERR_ARG; /* no address: orma's NULL buffer */
    size_t n = *count_p;
    orma_aint disp = -base;
    status = orma_type_hindexed(1, &n, &disp, *type_p, tmp_p);
    if (!status && (status = orma_type_commit(tmp_p)))
        orma_type_free(tmp_p);
    if (status)
        return status;
    *buf_p = (void *)(intptr_t)base;
    *count_p = 1;
    *type_p = *tmp_p;
    return ORMA_SUCCESS;
}
