/* ddt_pat_irregular.c -- the unstructured patterns of DDTBench (indexed
 * datatypes), and the table of every pattern.
 *
 * Which particles or mesh points are exchanged comes from the application's
 * data; here it is a fixed pseudo-random choice, sorted and distinct: one
 * index in each of count equal slices of the array. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "ddt.h"

const ddt_pattern ddt_patterns[] = {
    {"WRF_x_vec", 1, ddt_build_wrf_x_vec},
    {"WRF_y_vec", 1, ddt_build_wrf_y_vec},
    {"WRF_x_sa", 1, ddt_build_wrf_x_sa},
    {"WRF_y_sa", 1, ddt_build_wrf_y_sa},
    {"MILC_su3_zd", 1, ddt_build_milc_su3_zd},
    {"NAS_MG_x", 1, ddt_build_nas_mg_x},
    {"NAS_MG_y", 1, ddt_build_nas_mg_y},
    {"NAS_MG_z", 1, ddt_build_nas_mg_z},
    {"NAS_LU_x", 1, ddt_build_nas_lu_x},
    {"NAS_LU_y", 1, ddt_build_nas_lu_y},
    {"FFT", 1, ddt_build_fft2d},
    {"SPECFEM3D_mt", 1, ddt_build_specfem3d_mt},
    {"LAMMPS_full", 0, ddt_build_lammps_full},
    {"LAMMPS_atomic", 0, ddt_build_lammps_atomic},
    {"SPECFEM3D_oc", 0, ddt_build_specfem3d_oc},
    {"SPECFEM3D_cm", 0, ddt_build_specfem3d_cm},
    {NULL, 0, NULL},
};

/* count sorted distinct indices below limit, salted. */
static orma_aint *pick(size_t count, size_t limit, uint64_t salt)
{
    orma_aint *v = bench_xmalloc(count * sizeof *v);
    size_t slice = limit / count;
    uint64_t x = salt * UINT64_C(0x9e3779b97f4a7c15) + 1;
    for (size_t i = 0; i < count; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v[i] = (orma_aint)(i * slice + (size_t)(x % slice));
    }
    return v;
}

static orma_aint *scale(const orma_aint *v, size_t count, orma_aint by)
{
    orma_aint *s = bench_xmalloc(count * sizeof *s);
    for (size_t i = 0; i < count; i++)
        s[i] = v[i] * by;
    return s;
}


/* LAMMPS border exchange (the seed paper's figures 9 and 10): per-atom
 * arrays of nlocal + nsend atoms; the origin sends nsend atoms picked by
 * index, as a struct of an indexed_block of 3 doubles (x) and indexed
 * blocks of single elements (the other arrays); the target appends them
 * after its nlocal atoms, a struct of contiguous runs.  full: x, tag,
 * type, mask, q, molecule (6 blocks, as the figure); atomic: x, tag,
 * type, mask.  nsend atoms make the data; nlocal is 8 times as many. */
static int lammps(ddt_case *c, size_t want, int full)
{
    ddt_arena *a = &c->arena;
    size_t atom = full ? 48 : 36, nsend = want / atom < 1 ? 1 : want / atom, nlocal = 8 * nsend;
    size_t total = nlocal + nsend;
    int nf = full ? 6 : 4;
    ddt_node *db = ddt_basic(a, ORMA_DOUBLE), *in = ddt_basic(a, ORMA_INT);
    /* x, tag, type, mask, q, molecule */
    ddt_node *const el[6] = {db, in, in, in, db, in};
    size_t per[6] = {24, 4, 4, 4, 8, 4};
    orma_aint *idx = pick(nsend, nlocal, 1);
    orma_aint *idx3 = scale(idx, nsend, 3);
    ddt_node *send[6], *recv[6];
    size_t bl[6];
    orma_aint off[6], roff[6], o = 0;
    for (int f = 0; f < nf; f++) {
        bl[f] = 1;
        off[f] = o;
        roff[f] = o + (orma_aint)(nlocal * per[f]);
        o += (orma_aint)ddt_round64(total * per[f]);
        size_t k = f == 0 ? 3 : 1;
        send[f] = ddt_indexed_block(a, nsend, k, f == 0 ? idx3 : idx, el[f]);
        recv[f] = ddt_contiguous(a, k * nsend, el[f]);
    }
    free(idx);
    free(idx3);
    return ddt_case_finish(c, ddt_struct(a, (size_t)nf, bl, off, send),
                  ddt_struct(a, (size_t)nf, bl, roff, recv));
}

int ddt_build_lammps_full(ddt_case *c, size_t want) { return lammps(c, want, 1); }
int ddt_build_lammps_atomic(ddt_case *c, size_t want) { return lammps(c, want, 0); }

/* SPECFEM3D_GLOBE assembly at an interface between two mesh slices: the
 * acceleration of the interface points, picked by index from the global
 * array on both sides (the two sides number their points differently).
 * oc (outer core): one float per point, indexed_block; cm (crust-mantle):
 * 3 floats per point, accel(3, nglob), hindexed_block of byte offsets.
 * n points make the data; the mesh holds 8 times as many. */
static int specfem(ddt_case *c, size_t want, int cm)
{
    ddt_arena *a = &c->arena;
    size_t n = want / (cm ? 12 : 4) < 1 ? 1 : want / (cm ? 12 : 4), nglob = 8 * n;
    ddt_node *fl = ddt_basic(a, ORMA_FLOAT);
    orma_aint *io = pick(n, nglob, 2), *it = pick(n, nglob, 3);
    ddt_node *o, *t;
    if (cm) {
        orma_aint *bo = scale(io, n, 12), *bt = scale(it, n, 12);
        o = ddt_hindexed_block(a, n, 3, bo, fl);
        t = ddt_hindexed_block(a, n, 3, bt, fl);
        free(bo);
        free(bt);
    } else {
        o = ddt_indexed_block(a, n, 1, io, fl);
        t = ddt_indexed_block(a, n, 1, it, fl);
    }
    free(io);
    free(it);
    return ddt_case_finish(c, o, t);
}

int ddt_build_specfem3d_oc(ddt_case *c, size_t want) { return specfem(c, want, 0); }
int ddt_build_specfem3d_cm(ddt_case *c, size_t want) { return specfem(c, want, 1); }
