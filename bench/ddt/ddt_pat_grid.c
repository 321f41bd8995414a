/* ddt_pat_grid.c -- the structured patterns of DDTBench (Table 5 of the
 * DDTBench paper as reprinted in the seed paper): face exchanges of
 * regular grids and transposes.  Written from those one-line descriptions
 * and the NAS MG x-face code shown there (vector of single doubles nested
 * in an hvector); where the description leaves the exact layout open, the
 * choice made is said at the builder and in bench/README.md.
 *
 * Every layout's offsets count from the start of the rank's buffer (the
 * "domain": the application's arrays, one after the other), so the origin
 * is the buffer and the target displacement the window's first byte.  The
 * origin sends its first interior strip, the target receives it in the
 * halo at the opposite side: the two layouts differ in where they start.
 * Fortran arrays (WRF, NAS) vary their first index fastest. */
#include <math.h>
#include <stddef.h>

#include "ddt.h"

/* The whole number nearest x, at least lo. */
static size_t near(double x, size_t lo)
{
    size_t n = (size_t)(x + 0.5);
    return n < lo ? lo : n;
}

/* node placed off bytes into the buffer. */
static ddt_node *at(ddt_arena *a, size_t off, ddt_node *n)
{
    orma_aint d = (orma_aint)off;
    return ddt_hindexed_block(a, 1, 1, &d, n);
}


/* WRF: a halo exchange of several model fields at once, one struct of
 * 2D (i,j), 3D (i,k,j) and 4D (i,k,j,n) REAL arrays with a halo of 3 in
 * i and j.  The number of fields (2 2D, 3 3D, 1 4D with 2 species) is a
 * choice: the description says only "struct of 2D/3D/4D".  x: 3 columns
 * of i over every k and interior j; y: 3 rows of j over interior i and
 * every k. */
#define WRF_H 3
#define WRF_N2 2
#define WRF_N3 3
#define WRF_NN 2
enum { WRF_NFIELDS = WRF_N2 + WRF_N3 + 1 };

typedef struct wrf_dims {
    size_t ni, nk, nj, di, dj; /* interior, and memory with the halo */
    size_t off[WRF_NFIELDS];   /* of each field in the buffer */
} wrf_dims;

/* ni = nj = 32 (runs of a y face are 128 bytes, as before any scaling),
 * nk grows with the data: a face holds 32 * (24 + 60 nk) bytes, and the
 * domain stays about 11 times that. */
static void wrf_dims_set(wrf_dims *w, size_t want)
{
    w->ni = w->nj = 32;
    w->nk = near(((double)want / 32.0 - 24.0) / 60.0, 1);
    w->di = w->ni + 2 * WRF_H;
    w->dj = w->nj + 2 * WRF_H;
    size_t a2 = w->di * w->dj * 4, a3 = w->di * w->nk * w->dj * 4, o = 0;
    for (int f = 0; f < WRF_NFIELDS; f++) {
        w->off[f] = o;
        o += ddt_round64(f < WRF_N2 ? a2 : f < WRF_N2 + WRF_N3 ? a3 : WRF_NN * a3);
    }
}

/* ndim of field f: 2, 3 or 4. */
static int wrf_ndim(int f)
{
    return f < WRF_N2 ? 2 : f < WRF_N2 + WRF_N3 ? 3 : 4;
}

/* The struct of the fields' faces; face(f) gives field f's, placed at
 * field offsets. */
static ddt_node *wrf_struct(ddt_arena *a, const wrf_dims *w,
                            ddt_node *const *faces)
{
    size_t bl[WRF_NFIELDS];
    orma_aint d[WRF_NFIELDS];
    for (int f = 0; f < WRF_NFIELDS; f++) {
        bl[f] = 1;
        d[f] = (orma_aint)w->off[f];
    }
    return ddt_struct(a, WRF_NFIELDS, bl, d, faces);
}

/* Vectors of vectors; x: istart is the first i column, y: jstart the
 * first j row.  Each face starts at its first byte (an hindexed of one
 * block places it). */
static ddt_node *wrf_vec(ddt_arena *a, const wrf_dims *w, int x, size_t s)
{
    ddt_node *fl = ddt_basic(a, ORMA_FLOAT);
    size_t vol3 = w->di * w->nk * w->dj * 4;
    ddt_node *faces[WRF_NFIELDS];
    for (int f = 0; f < WRF_NFIELDS; f++) {
        ddt_node *face;
        size_t first;
        if (wrf_ndim(f) == 2) {
            face = x ? ddt_vector(a, w->nj, WRF_H, (orma_aint)w->di, fl)
                     : ddt_vector(a, WRF_H, w->ni, (orma_aint)w->di, fl);
            first = x ? (s + WRF_H * w->di) * 4 : (WRF_H + s * w->di) * 4;
        } else {
            /* One j plane is nk rows of di; a 3D face is an hvector of
             * planes, a 4D one an hvector of 3D faces. */
            ddt_node *in = x ? ddt_vector(a, w->nk, WRF_H, (orma_aint)w->di, fl)
                             : ddt_vector(a, w->nk, w->ni, (orma_aint)w->di, fl);
            face = ddt_hvector(a, x ? w->nj : WRF_H, 1,
                               (orma_aint)(w->di * w->nk * 4), in);
            if (wrf_ndim(f) == 4)
                face = ddt_hvector(a, WRF_NN, 1, (orma_aint)vol3, face);
            first = x ? (s + WRF_H * w->di * w->nk) * 4
                      : (WRF_H + s * w->di * w->nk) * 4;
        }
        faces[f] = at(a, first, face);
    }
    return wrf_struct(a, w, faces);
}

static ddt_node *wrf_sa(ddt_arena *a, const wrf_dims *w, int x, size_t s)
{
    ddt_node *fl = ddt_basic(a, ORMA_FLOAT);
    ddt_node *faces[WRF_NFIELDS];
    for (int f = 0; f < WRF_NFIELDS; f++) {
        int nd = wrf_ndim(f);
        size_t sizes[4], sub[4], st[4];
        /* i, then k (3D, 4D), then j, then n (4D). */
        int dj = nd == 2 ? 1 : 2;
        sizes[0] = w->di;
        sub[0] = x ? WRF_H : w->ni;
        st[0] = x ? s : WRF_H;
        if (nd > 2) {
            sizes[1] = sub[1] = w->nk;
            st[1] = 0;
        }
        sizes[dj] = w->dj;
        sub[dj] = x ? w->nj : WRF_H;
        st[dj] = x ? WRF_H : s;
        if (nd == 4) {
            sizes[3] = sub[3] = WRF_NN;
            st[3] = 0;
        }
        faces[f] = ddt_subarray(a, nd, sizes, sub, st, ORMA_ORDER_FORTRAN, fl);
    }
    return wrf_struct(a, w, faces);
}

static int wrf(ddt_case *c, size_t want, int x, int sa)
{
    wrf_dims w;
    wrf_dims_set(&w, want);
    /* Origin: first interior strip; target: the halo on the far side. */
    size_t so = WRF_H, st = (x ? w.ni : w.nj) + WRF_H;
    ddt_node *(*mk)(ddt_arena *, const wrf_dims *, int, size_t) =
        sa ? wrf_sa : wrf_vec;
    return ddt_case_finish(c, mk(&c->arena, &w, x, so), mk(&c->arena, &w, x, st));
}

int ddt_build_wrf_x_vec(ddt_case *c, size_t want) { return wrf(c, want, 1, 0); }
int ddt_build_wrf_y_vec(ddt_case *c, size_t want) { return wrf(c, want, 0, 0); }
int ddt_build_wrf_x_sa(ddt_case *c, size_t want) { return wrf(c, want, 1, 1); }
int ddt_build_wrf_y_sa(ddt_case *c, size_t want) { return wrf(c, want, 0, 1); }

/* MILC su3_zd: a 4D lattice (x fastest, then y, z, t) of su3 vectors (3
 * single-precision complex numbers, MILC's default precision); the z face
 * is one z plane per t: an hvector over t of a vector over y of rows of x
 * sites.  The origin sends plane z = 0, the target receives at z = nz - 1.
 * The even/odd site ordering of MILC is not modelled.  x, y and t are n
 * sites, grown with the data (n^3 sites of 24 bytes); z is 8, so the
 * domain is 8 faces. */
int ddt_build_milc_su3_zd(ddt_case *c, size_t want)
{
    ddt_arena *a = &c->arena;
    size_t site = 3 * 8, n = near(cbrt((double)want / (double)site), 2), nz = 8;
    ddt_node *su3 = ddt_contiguous(a, 3, ddt_basic(a, ORMA_C_FLOAT_COMPLEX));
    ddt_node *plane = ddt_vector(a, n, n, (orma_aint)n, su3);
    ddt_node *face = ddt_hvector(a, n, 1, (orma_aint)(n * n * nz * site), plane);
    size_t zplane = n * n * site;
    return ddt_case_finish(c, at(a, 0, face), at(a, (nz - 1) * zplane, face));
}

/* NAS MG: u(n, n, n) doubles with a halo of 1.  x: vector of single
 * doubles (one per j) nested in an hvector over k (as the code shown in
 * the seed paper); y: vector over k of rows of interior i; z: vector over
 * j of rows of interior i.  Origin: first interior plane; target: the
 * far halo plane.  The two directions of the face are n points (m
 * interior, m^2 doubles of data); the face's own direction is 10, so the
 * domain stays about 10 faces however large the face. */
static int nas_mg(ddt_case *c, size_t want, int dim)
{
    ddt_arena *a = &c->arena;
    size_t m = near(sqrt((double)want / 8.0), 2), n = m + 2, nf = 10;
    size_t ni = dim == 0 ? nf : n, nj = dim == 1 ? nf : n;
    ddt_node *db = ddt_basic(a, ORMA_DOUBLE);
    ddt_node *face;
    size_t step; /* bytes between two planes of the face's direction */
    if (dim == 0) {
        ddt_node *tmp = ddt_vector(a, m, 1, (orma_aint)ni, db);
        face = ddt_hvector(a, m, 1, (orma_aint)(ni * nj * 8), tmp);
        step = 8;
    } else if (dim == 1) {
        face = ddt_vector(a, m, m, (orma_aint)(ni * nj), db);
        step = ni * 8;
    } else {
        face = ddt_vector(a, m, m, (orma_aint)ni, db);
        step = ni * nj * 8;
    }
    n = dim == 0 ? ni : dim == 1 ? nj : nf; /* along the face's direction */
    /* Element (1,1,1) but for the face's own direction. */
    size_t corner = (1 + ni + ni * nj) * 8;
    size_t base = corner - step; /* that direction's index 0 */
    return ddt_case_finish(c, at(a, base + step, face), at(a, base + (n - 1) * step, face));
}

int ddt_build_nas_mg_x(ddt_case *c, size_t want) { return nas_mg(c, want, 0); }
int ddt_build_nas_mg_y(ddt_case *c, size_t want) { return nas_mg(c, want, 1); }
int ddt_build_nas_mg_z(ddt_case *c, size_t want) { return nas_mg(c, want, 2); }

/* NAS LU: one k plane u(5, nx+4, ny+4) of doubles, halo 2.  x: the 2
 * rows j of every i (halo included), one contiguous run; y: the 2 columns
 * i of each interior j, a vector.  The plane and halo widths are choices;
 * the description says "2D face exchange, x contiguous, y vector".  The
 * face's length grows with the data (x: nx, y: ny); the other side is 12
 * points, so the plane stays about 8 faces. */
static int nas_lu(ddt_case *c, size_t want, int x)
{
    ddt_arena *a = &c->arena;
    size_t along = near((double)want / 80.0, 1);
    size_t nx = x ? along - 4 + (along < 5) * 4 : 12, ny = x ? 12 : along, di = nx + 4;
    ddt_node *db = ddt_basic(a, ORMA_DOUBLE);
    if (x) {
        ddt_node *face = ddt_contiguous(a, 5 * di * 2, db);
        return ddt_case_finish(c, at(a, 5 * di * 2 * 8, face),
                      at(a, 5 * di * (ny + 2) * 8, face));
    }
    ddt_node *face = ddt_vector(a, ny, 5 * 2, (orma_aint)(5 * di), db);
    size_t row2 = 5 * di * 2 * 8;
    return ddt_case_finish(c, at(a, row2 + 5 * 2 * 8, face),
                  at(a, row2 + 5 * (nx + 2) * 8, face));
}

int ddt_build_nas_lu_x(ddt_case *c, size_t want) { return nas_lu(c, want, 1); }
int ddt_build_nas_lu_y(ddt_case *c, size_t want) { return nas_lu(c, want, 0); }

/* FFT 2D: the transpose step of a row-distributed 2D FFT between 2 ranks.
 * An N x N complex double matrix (rows of N, N = 2B); the origin sends
 * its top-right B x B block as a vector of rows, the target receives it
 * transposed into its top-right block: a contiguous run of B columns,
 * each a vector of single elements resized to one element, so that
 * element (i, j) lands at (j, i) of the block ("different vector types on
 * send/recv side"). */
int ddt_build_fft2d(ddt_case *c, size_t want)
{
    ddt_arena *a = &c->arena;
    size_t el = 16, b = near(sqrt((double)want / (double)el), 1), n = 2 * b;
    ddt_node *cd = ddt_basic(a, ORMA_C_DOUBLE_COMPLEX);
    ddt_node *rows = ddt_vector(a, b, b, (orma_aint)n, cd);
    ddt_node *col = ddt_vector(a, b, 1, (orma_aint)n, cd);
    ddt_node *colr = ddt_resized(a, col, 0, (orma_aint)el);
    ddt_node *cols = ddt_contiguous(a, b, colr);
    return ddt_case_finish(c, at(a, b * el, rows), at(a, b * el, cols));
}

/* SPECFEM3D mt: a 3D transpose.  The origin sends an (n1, n2, n3) array of
 * doubles (C order) whole; the target stores element (i, j, k) at (j, i,
 * k) of an (n2, n1, n3) array: a contiguous run over i of a vector over j
 * of n3-double rows, resized to one row.  n3 = 5 (a GLL point count) is a
 * choice: the description says only "3D matrix transpose". */
int ddt_build_specfem3d_mt(ddt_case *c, size_t want)
{
    ddt_arena *a = &c->arena;
    size_t n3 = 5, n1 = near(sqrt((double)want / (double)(n3 * 8)), 1), n2 = n1;
    ddt_node *db = ddt_basic(a, ORMA_DOUBLE);
    ddt_node *whole = ddt_contiguous(a, n1 * n2 * n3, db);
    ddt_node *inner = ddt_vector(a, n2, n3, (orma_aint)(n1 * n3), db);
    ddt_node *row = ddt_resized(a, inner, 0, (orma_aint)(n3 * 8));
    ddt_node *tr = ddt_contiguous(a, n1, row);
    return ddt_case_finish(c, at(a, 0, whole), at(a, 0, tr));
}
