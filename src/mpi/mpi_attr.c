/* mpi_attr.c -- what MPI hangs on a window: the predefined attributes
 * (base, size, displacement unit, flavour, memory model), user keyvals
 * with their callbacks, the name, the info, and the Fortran handle. */
#include "mpi_orma.h"
#include "mpi_fortran.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Window keyvals are orma's: they are only ever used with the window
 * attribute calls, all of which are here. */
#define MPI_KEYVAL_BASE 0x4f000
#define MPI_KEYVAL_MAX 256

/* A slot is taken while its keyval is live (used) or an attribute set with
 * it remains (refs): MPI_Win_free_keyval leaves those attributes, whose
 * delete callback still runs when they go. */
struct mpi_keyval {
    int used;
    int refs;
    MPI_Win_copy_attr_function *copy; /* windows are never duplicated: kept, never called */
    MPI_Win_delete_attr_function *del;
    void *extra;
};

struct mpi_attr {
    int keyval;
    void *value;
    struct mpi_attr *next;
};

static struct mpi_keyval mpi_keyvals[MPI_KEYVAL_MAX];

/* The slot of keyval k when it is live (freed: NULL), or, with_attrs, also
 * when attributes set with it remain (a freed keyval still names them,
 * MPI-4.1 7.7.2). */
static struct mpi_keyval *mpi_keyval_of(int k, int with_attrs)
{
    k -= MPI_KEYVAL_BASE;
    if (k < 0 || k >= MPI_KEYVAL_MAX)
        return NULL;
    return mpi_keyvals[k].used || (with_attrs && mpi_keyvals[k].refs) ? &mpi_keyvals[k] : NULL;
}

static struct mpi_keyval *mpi_keyval(int k) { return mpi_keyval_of(k, 0); }

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy_fn, MPI_Win_delete_attr_function *delete_fn,
                          int *keyval, void *extra_state)
{
    if (!keyval)
        return mpi_win_error_msg(NULL, "MPI_Win_create_keyval", MPI_ERR_ARG, "NULL keyval");
    for (int i = 0; i < MPI_KEYVAL_MAX; i++)
        if (!mpi_keyvals[i].used && !mpi_keyvals[i].refs) {
            mpi_keyvals[i] = (struct mpi_keyval){1, 0, copy_fn, delete_fn, extra_state};
            *keyval = MPI_KEYVAL_BASE + i;
            return MPI_SUCCESS;
        }
    return mpi_win_error_msg(NULL, "MPI_Win_create_keyval", MPI_ERR_NO_MEM, "too many keyvals");
}

int PMPI_Win_free_keyval(int *keyval)
{
    if (!keyval || !mpi_keyval(*keyval))
        return mpi_win_error_msg(NULL, "MPI_Win_free_keyval", MPI_ERR_KEYVAL, "not a window keyval");
    mpi_keyval(*keyval)->used = 0; /* the slot is free again once its attributes are gone */
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* Unhook keyval's attribute from w, calling its delete callback. */
static int mpi_attr_drop(struct mpi_win *w, int keyval, int *found)
{
    *found = 0;
    for (struct mpi_attr **p = &w->attrs; *p; p = &(*p)->next)
        if ((*p)->keyval == keyval) {
            struct mpi_attr *a = *p;
            struct mpi_keyval *k = &mpi_keyvals[keyval - MPI_KEYVAL_BASE];
            int rc = k->del ? k->del(w->handle, keyval, a->value, k->extra) : MPI_SUCCESS;
            if (rc != MPI_SUCCESS)
                return rc; /* MPI: the attribute stays */
            *p = a->next;
            free(a);
            k->refs--;
            *found = 1;
            return MPI_SUCCESS;
        }
    return MPI_SUCCESS;
}

int mpi_attr_delete_all(struct mpi_win *w)
{
    int first = MPI_SUCCESS, found;
    while (w->attrs) {
        int keyval = w->attrs->keyval, rc = mpi_attr_drop(w, keyval, &found);
        if (rc != MPI_SUCCESS) {
            struct mpi_attr *a = w->attrs; /* drop it anyway: the window is going */
            w->attrs = a->next;
            mpi_keyvals[a->keyval - MPI_KEYVAL_BASE].refs--;
            free(a);
            if (!first)
                first = rc;
        }
    }
    return first;
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *attribute_val)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_set_attr");
    struct mpi_keyval *k = mpi_keyval(keyval);
    if (!k)
        return mpi_win_error_msg(w, "MPI_Win_set_attr", MPI_ERR_KEYVAL, "not a window keyval");
    int found, rc = mpi_attr_drop(w, keyval, &found);
    if (rc != MPI_SUCCESS)
        return mpi_win_error(w, "MPI_Win_set_attr", rc);
    struct mpi_attr *a = malloc(sizeof *a);
    if (!a)
        return mpi_win_error_msg(w, "MPI_Win_set_attr", MPI_ERR_NO_MEM, "out of memory");
    *a = (struct mpi_attr){keyval, attribute_val, w->attrs};
    w->attrs = a;
    k->refs++;
    return MPI_SUCCESS;
}

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *attribute_val, int *flag)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_attr");
    if (!attribute_val || !flag)
        return mpi_win_error_msg(w, "MPI_Win_get_attr", MPI_ERR_ARG, "a NULL or invalid argument");
    void **out = attribute_val;
    *flag = 1;
    if (keyval == MPI_WIN_BASE)
        *out = w->base; /* the base itself, as MPI says, the others by address */
    else if (keyval == MPI_WIN_SIZE)
        *out = &w->size;
    else if (keyval == MPI_WIN_DISP_UNIT)
        *out = &w->disp_unit;
    else if (keyval == MPI_WIN_CREATE_FLAVOR)
        *out = &w->flavor;
    else if (keyval == MPI_WIN_MODEL)
        *out = &w->model;
    else {
        *flag = 0;
        for (struct mpi_attr *a = w->attrs; a; a = a->next)
            if (a->keyval == keyval) {
                *out = a->value;
                *flag = 1;
            }
    }
    return MPI_SUCCESS;
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_delete_attr");
    if (!mpi_keyval_of(keyval, 1))
        return mpi_win_error_msg(w, "MPI_Win_delete_attr", MPI_ERR_KEYVAL, "not a window keyval");
    int found, rc = mpi_attr_drop(w, keyval, &found);
    return rc != MPI_SUCCESS ? mpi_win_error(w, "MPI_Win_delete_attr", rc) : MPI_SUCCESS;
}

int PMPI_Win_set_name(MPI_Win win, const char *win_name)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_set_name");
    if (!win_name)
        return mpi_win_error_msg(w, "MPI_Win_set_name", MPI_ERR_ARG, "a NULL or invalid argument");
    snprintf(w->name, sizeof w->name, "%s", win_name);
    return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char *win_name, int *resultlen)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_name");
    if (!win_name || !resultlen)
        return mpi_win_error_msg(w, "MPI_Win_get_name", MPI_ERR_ARG, "a NULL or invalid argument");
    snprintf(win_name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    *resultlen = (int)strlen(win_name);
    return MPI_SUCCESS;
}

/* The info in effect: the keys orma understands, with their values. */
int PMPI_Win_get_info(MPI_Win win, MPI_Info *info_used)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_get_info");
    if (!info_used)
        return mpi_win_error_msg(w, "MPI_Win_get_info", MPI_ERR_ARG, "a NULL or invalid argument");
    orma_info oi = ORMA_INFO_NULL;
    int status = orma_win_get_info(w->win, &oi);
    if (status)
        return mpi_win_status(w, "MPI_Win_get_info", status);
    PMPI_Info_create(info_used);
    for (size_t i = 0; i < MPI_WIN_INFO_KEYS; i++) {
        char value[MPI_MAX_INFO_VAL];
        int flag = 0;
        if (orma_info_get(oi, mpi_win_info_keys[i], sizeof value, value, &flag) == ORMA_SUCCESS && flag)
            PMPI_Info_set(*info_used, mpi_win_info_keys[i], value);
    }
    orma_info_free(&oi);
    return MPI_SUCCESS;
}

/* The hints info names, in effect from now on (MPI_Win_get_info gives them
 * back); a known key with a value outside its set is MPI_ERR_INFO_VALUE. */
int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
    MPI_WIN_OR_ERR(w, win, "MPI_Win_set_info");
    orma_info oi = ORMA_INFO_NULL;
    int status = mpi_win_info(info, &oi);
    if (!status)
        status = orma_win_set_info(w->win, oi);
    if (oi != ORMA_INFO_NULL)
        orma_info_free(&oi);
    if (status == ORMA_ERR_INFO)
        return mpi_win_error(w, "MPI_Win_set_info", MPI_ERR_INFO_VALUE);
    return mpi_win_status(w, "MPI_Win_set_info", status);
}

/* Fortran handles: the C handle's value (orma's tag plus an index, never
 * one of Open MPI's small Fortran indices) where it is not the null
 * window.  They are PMPI_ names too, because Open MPI's Fortran library
 * converts with PMPI_Win_f2c/c2f (mpi_fortran.h).  MPICH's handles are
 * integers and its c2f and f2c are macros that do just that. */
#ifndef MPI_Win_c2f
MPI_Fint PMPI_Win_c2f(MPI_Win win)
{
    return win == MPI_WIN_NULL ? MPI_F_WIN_NULL : (MPI_Fint)(intptr_t)win;
}

MPI_Win PMPI_Win_f2c(MPI_Fint win)
{
    return win == MPI_F_WIN_NULL ? MPI_WIN_NULL : (MPI_Win)(intptr_t)win;
}
#pragma weak MPI_Win_c2f = PMPI_Win_c2f
#pragma weak MPI_Win_f2c = PMPI_Win_f2c
#endif

/* MPI's names are weak aliases of the PMPI ones, as in an MPI library, so that a
 * profiling tool above liborma-mpi reaches orma through PMPI. */
#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval
#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr
#pragma weak MPI_Win_get_attr = PMPI_Win_get_attr
#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr
#pragma weak MPI_Win_set_name = PMPI_Win_set_name
#pragma weak MPI_Win_get_name = PMPI_Win_get_name
#pragma weak MPI_Win_get_info = PMPI_Win_get_info
#pragma weak MPI_Win_set_info = PMPI_Win_set_info
