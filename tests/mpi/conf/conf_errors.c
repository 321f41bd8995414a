/* conf_errors.c -- MPI-4.1 section 12.6 (Error Handling), beside
 * tests/mpi/mpi_errh.c, which it does not repeat (mpi_errh.c: a created
 * window's first handler, a user handler called by a failing unlock and
 * by MPI_Win_call_errhandler, handler replaced and freed; and with
 * MPI_ERRORS_RETURN: unlock, unlock_all and flush without a lock, put
 * outside an epoch, wait without post, complete without start, fence and
 * lock inside lock_all; put to rank size or -5, displacement -1, count -1,
 * MPI_DATATYPE_NULL; accumulate with MPI_OP_NULL; bad assert of fence,
 * lock and lock_all; lock type 12345; put and get past a created window).
 *
 * 12.6.1, error handlers:
 *  - a new window of every flavour starts with MPI_ERRORS_ARE_FATAL, not
 *    its communicator's handler; MPI_Win_get_errhandler returns what
 *    MPI_Win_set_errhandler set, predefined handlers included;
 *  - a user handler (MPI_Win_create_errhandler) is called by the erroneous
 *    RMA communication and synchronization calls on its window, with the
 *    window and the code the call then returns; only the handler of the
 *    window the call names, not another window's nor the communicator's;
 *  - a handler freed (MPI_Errhandler_free) while a window holds it stays
 *    in use; MPI_Win_call_errhandler with MPI_ERRORS_RETURN returns
 *    MPI_SUCCESS;
 *  - errors of the window-creating calls are raised on their communicator;
 *  - a call given MPI_WIN_NULL fails with MPI_ERR_WIN, raised on
 *    MPI_COMM_SELF (MPI-4.1 section 2.8: errors with no communicator,
 *    window or file to raise them on are raised on MPI_COMM_SELF).
 * 12.6.2, error classes, in the order of the standard's table, then the
 * other classes RMA calls raise, each for erroneous calls the hosts both
 * detect (or, where one departs, guarded and named):
 *  - MPI_ERR_WIN, MPI_ERR_BASE, MPI_ERR_SIZE, MPI_ERR_DISP,
 *    MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_RMA_SYNC (every call that
 *    needs an epoch, outside one; every kind of epoch opened inside another
 *    that excludes it), MPI_ERR_RMA_RANGE (accesses past a window or into
 *    a window of size 0), MPI_ERR_RMA_FLAVOR (attach and detach on windows
 *    not dynamic, MPI_Win_shared_query on a dynamic one -- and not on
 *    created and allocated windows, which MPI-4.1 allows);
 *    MPI_ERR_RMA_CONFLICT, MPI_ERR_RMA_ATTACH and MPI_ERR_RMA_SHARED are
 *    not provoked: conflicts need not be detected, and resource exhaustion
 *    or memory that cannot be shared cannot be made to happen here;
 *  - MPI_ERR_RANK, MPI_ERR_COUNT, MPI_ERR_TYPE (null, uncommitted, and a
 *    type compare-and-swap is not defined for), MPI_ERR_OP (null, a user
 *    op in an accumulate, MPI_NO_OP in MPI_Accumulate, an op on a type it
 *    is not defined for), MPI_ERR_GROUP, for every communication call;
 *  - every class's error string is non-empty;
 *  - after the errors the window still works: a correct epoch follows
 *    and moves data. */
#include "conf.h"

#define N 16 /* ints per rank */

static MPI_Group none_group; /* the empty group */

/* This rank's window holds the background (before the first errors). */
static void fill_window(struct mt_win *w)
{
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win));
    fill_bg_int(w->base, N, rank);
    OK(MPI_Win_unlock(rank, w->win));
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A correct lock_all epoch after the errors: it moves new data to the
 * right neighbour (new in every round), and nothing else has changed. */
static void still_works(struct mt_win *w, const char *after)
{
    static int round;
    char what[200];
    snprintf(what, sizeof what, "a correct epoch after %s", after);
    round++;
    int right = conf_right(), left = conf_left(), src[4];
    for (int i = 0; i < 4; i++)
        src[i] = conf_val(rank, i) + 10000 * round;
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock_all(0, w->win));
    OK(MPI_Put(src, 4, MPI_INT, right, mt_disp(w, right, 4), 4, MPI_INT, w->win));
    OK(MPI_Win_unlock_all(w->win));
    MPI_Barrier(MPI_COMM_WORLD);
    OK(MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, w->win));
    const int *p = w->base;
    for (int i = 0; i < N; i++)
        expect(what, i, p[i], i >= 4 && i < 8 ? conf_val(left, i - 4) + 10000 * round : bg(rank, i));
    OK(MPI_Win_unlock(rank, w->win));
}

/* Whether this run checks the synchronization and range errors of window
 * w, and the class of MPI_Win_attach on it: Open MPI 4.1's osc/sm
 * component, which serves every window on one rank and allocate_shared
 * windows on any number, detects neither kind of error (a get outside any
 * epoch or past the window's end succeeds) and fails MPI_Win_attach with
 * MPI_ERR_RMA_ATTACH. */
static int sm_checks(const struct mt_win *w)
{
    return conf_host_ok(CONF_NOT_OPEN_MPI) || (size > 1 && w->flavor != MT_SHARED);
}

/* Whether an access to rank target's dynamic window past its attached
 * memory is refused.  It is erroneous (12.2.4), but MPICH carries it out
 * into whatever memory is there and programs rely on that, so liborma-mpi
 * does too -- and refuses it in check mode (ORMA_CHECK=1), and over the
 * net transport, which reaches attached memory only. */
static int dyn_range_refused(int target)
{
    const char *check = getenv("ORMA_CHECK"), *transport = getenv("ORMA_TRANSPORT");
    if (!mt_orma)
        return 1;
    return (check && (!strcmp(check, "1") || !strcmp(check, "all"))) || (transport && !strcmp(transport, "net") && target != rank);
}

/* ---- 12.6.1: error handlers ---- */

/* The log of the user handlers. */
static int win_calls, win_code, win_which, comm_calls, comm_code;
static MPI_Win win_seen;
static MPI_Comm comm_seen;

static void win_handler_a(MPI_Win *win, int *code, ...)
{
    win_calls++;
    win_which = 'a';
    win_seen = *win;
    win_code = *code;
}

static void win_handler_b(MPI_Win *win, int *code, ...)
{
    win_calls++;
    win_which = 'b';
    win_seen = *win;
    win_code = *code;
}

static void comm_handler(MPI_Comm *comm, int *code, ...)
{
    comm_calls++;
    comm_seen = *comm;
    comm_code = *code;
}

static int class_of(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

/* The call, made with a user handler on its window, returned rc: the
 * handler ran once, for that window, with that code, of class cls. */
static void handled(const char *what, int rc, MPI_Win win, int which, int cls)
{
    conf_err(what, rc, cls);
    expect(what, 0, win_calls, 1);
    expect(what, 1, win_which, which);
    if (win_seen != win)
        fail("%s: the handler was given another window", what);
    expect(what, 2, win_code, rc);
    expect(what, 3, comm_calls, 0);
    win_calls = comm_calls = 0;
}

static void expect_handler(const char *what, MPI_Win win, MPI_Errhandler want)
{
    MPI_Errhandler eh;
    OK(MPI_Win_get_errhandler(win, &eh));
    if (eh != want)
        fail("%s: MPI_Win_get_errhandler does not return the handler set", what);
    int predefined = eh == MPI_ERRORS_ARE_FATAL || eh == MPI_ERRORS_RETURN;
#ifdef MPI_ERRORS_ABORT
    predefined |= eh == MPI_ERRORS_ABORT;
#endif
    if (!predefined) /* a new reference to a user's handler */
        OK(MPI_Errhandler_free(&eh));
}

static void handlers(struct mt_win *w)
{
    MPI_Win win = w->win;
    int right = conf_right(), v = 1, got = 0;

    /* the first handler of every flavour, while MPI_COMM_WORLD has a
     * user handler: windows do not inherit their communicator's */
    expect_handler("a new window's handler", win, MPI_ERRORS_ARE_FATAL);
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    expect_handler("MPI_ERRORS_RETURN set", win, MPI_ERRORS_RETURN);
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_ARE_FATAL));
    expect_handler("MPI_ERRORS_ARE_FATAL set again", win, MPI_ERRORS_ARE_FATAL);
#ifdef MPI_ERRORS_ABORT
    /* MPI-4.0's third predefined handler.  MPICH 4.0 alone fails an
     * assertion in MPI_Win_set_errhandler with it (Open MPI 4.1 has none) */
    if (conf_host_ok(CONF_NOT_MPICH)) {
        OK(MPI_Win_set_errhandler(win, MPI_ERRORS_ABORT));
        expect_handler("MPI_ERRORS_ABORT set", win, MPI_ERRORS_ABORT);
    }
#endif

    /* a second window with a handler of its own */
    struct mt_win other;
    mt_win_open(&other, MT_ALLOCATE, N * sizeof(int), sizeof(int));
    MPI_Errhandler a, b;
    OK(MPI_Win_create_errhandler(win_handler_a, &a));
    OK(MPI_Win_create_errhandler(win_handler_b, &b));
    OK(MPI_Win_set_errhandler(win, a));
    OK(MPI_Win_set_errhandler(other.win, b));
    expect_handler("a user handler set", win, a);
    /* freed by the user, still held by the windows */
    OK(MPI_Errhandler_free(&a));
    OK(MPI_Errhandler_free(&b));
    win_calls = comm_calls = 0;

    /* erroneous communication calls: the window's handler, each time */
    OK(MPI_Win_lock_all(0, win));
    handled("MPI_Get from rank size", MPI_Get(&got, 1, MPI_INT, size, 0, 1, MPI_INT, win), win, 'a',
            MPI_ERR_RANK);
    if (w->flavor != MT_DYNAMIC) /* where displacements are addresses */
        handled("MPI_Accumulate with a negative displacement",
                MPI_Accumulate(&v, 1, MPI_INT, right, -4, 1, MPI_INT, MPI_SUM, win), win, 'a', MPI_ERR_DISP);
    handled("MPI_Fetch_and_op of MPI_DATATYPE_NULL",
            MPI_Fetch_and_op(&v, &got, MPI_DATATYPE_NULL, right, 0, MPI_SUM, win), win, 'a', MPI_ERR_TYPE);
    OK(MPI_Win_unlock_all(win));
    /* erroneous synchronization calls */
    int flag;
    if (sm_checks(w))
        handled("MPI_Win_test outside an epoch", MPI_Win_test(win, &flag), win, 'a', MPI_ERR_RMA_SYNC);
    handled("MPI_Win_lock of rank size", MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win), win, 'a',
            MPI_ERR_RANK);
    /* the other window's handler, for an error on the other window */
    OK(MPI_Win_lock_all(0, other.win));
    handled("MPI_Get from rank -7, other window", MPI_Get(&got, 1, MPI_INT, -7, 0, 1, MPI_INT, other.win),
            other.win, 'b', MPI_ERR_RANK);
    OK(MPI_Win_unlock_all(other.win));
    /* MPI_Win_call_errhandler: the handler, with the code given */
    expect("MPI_Win_call_errhandler's return", 0, MPI_Win_call_errhandler(win, MPI_ERR_RMA_SYNC),
           MPI_SUCCESS);
    expect("MPI_Win_call_errhandler, handler calls", 0, win_calls, 1);
    expect("MPI_Win_call_errhandler, code given", 0, win_code, MPI_ERR_RMA_SYNC);
    win_calls = 0;

    /* MPI_ERRORS_RETURN: MPI_Win_call_errhandler returns MPI_SUCCESS, and
     * the user handler is no longer called */
    OK(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    OK(MPI_Win_set_errhandler(other.win, MPI_ERRORS_RETURN));
    expect("MPI_Win_call_errhandler with MPI_ERRORS_RETURN", 0, MPI_Win_call_errhandler(win, MPI_ERR_OTHER),
           MPI_SUCCESS);
    ERR(MPI_ERR_RANK, MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win));
    expect("user handler calls after MPI_ERRORS_RETURN was set", 0, win_calls + comm_calls, 0);
    mt_win_close(&other);
    still_works(w, "errors with user handlers");
}

/* Errors of the window-creating calls go to their communicator's
 * handler. */
static void creation_errors(void)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Errhandler ch;
    MPI_Comm_create_errhandler(comm_handler, &ch);
    MPI_Comm_set_errhandler(comm, ch);
    MPI_Errhandler_free(&ch);
    int *mem = malloc(N * sizeof(int)), rc;
    void *base;
    MPI_Win win;
    struct {
        const char *what;
        int kind, cls;
        MPI_Aint bytes;
        int unit;
        enum conf_host skip;
    } cases[] = {
        {"MPI_Win_create of size -8", 0, MPI_ERR_SIZE, -8, 4, CONF_ANY},
        {"MPI_Win_allocate of size -8", 1, MPI_ERR_SIZE, -8, 4, CONF_ANY},
        {"MPI_Win_allocate_shared of size -8", 2, MPI_ERR_SIZE, -8, 4, CONF_ANY},
        {"MPI_Win_create with disp_unit 0", 0, MPI_ERR_DISP, 64, 0, CONF_ANY},
        {"MPI_Win_create with disp_unit -4", 0, MPI_ERR_DISP, 64, -4, CONF_ANY},
        {"MPI_Win_allocate with disp_unit 0", 1, MPI_ERR_DISP, 64, 0, CONF_ANY},
        /* Open MPI 4.1 alone makes the window with disp_unit -1 */
        {"MPI_Win_allocate_shared with disp_unit -1", 2, MPI_ERR_DISP, 64, -1, CONF_NOT_OPEN_MPI},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (!conf_host_ok(cases[k].skip))
            continue;
        win_calls = comm_calls = 0;
        comm_seen = MPI_COMM_NULL;
        if (cases[k].kind == 0)
            rc = MPI_Win_create(mem, cases[k].bytes, cases[k].unit, MPI_INFO_NULL, comm, &win);
        else if (cases[k].kind == 1)
            rc = MPI_Win_allocate(cases[k].bytes, cases[k].unit, MPI_INFO_NULL, comm, &base, &win);
        else
            rc = MPI_Win_allocate_shared(cases[k].bytes, cases[k].unit, MPI_INFO_NULL, comm, &base, &win);
        conf_err(cases[k].what, rc, cases[k].cls);
        expect(cases[k].what, 0, comm_calls, 1);
        expect(cases[k].what, 1, win_calls, 0);
        if (comm_seen != comm)
            fail("%s: the error was not raised on the call's communicator", cases[k].what);
        expect(cases[k].what, 2, comm_code, rc);
    }
    comm_calls = 0;
    free(mem);
    MPI_Comm_free(&comm);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_WIN_NULL: MPI_ERR_WIN, raised on MPI_COMM_SELF. */
static void win_null(void)
{
    MPI_Errhandler ch;
    MPI_Comm_create_errhandler(comm_handler, &ch);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, ch);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, ch);
    MPI_Errhandler_free(&ch);
    int v = 1;
    MPI_Group g;
    MPI_Win null = MPI_WIN_NULL;
    struct {
        const char *what;
        int rc;
    } cases[6];
    int n = 0;
#define WIN_NULL_CASE(call)                                                                        \
    do {                                                                                           \
        comm_calls = 0;                                                                            \
        comm_seen = MPI_COMM_NULL;                                                                 \
        cases[n].what = #call;                                                                     \
        cases[n].rc = (call);                                                                      \
        expect(#call ", handler calls", 0, comm_calls, 1);                                         \
        /* Open MPI 4.1 and MPICH 4.0 both raise it on MPI_COMM_WORLD (as                          \
         * MPI-3.1 said): only liborma-mpi's runs check MPI_COMM_SELF */                           \
        if (conf_host_ok(CONF_NOT_OPEN_MPI) && conf_host_ok(CONF_NOT_MPICH) && comm_seen != MPI_COMM_SELF) \
            fail("%s: the error was not raised on MPI_COMM_SELF", #call);                          \
        n++;                                                                                       \
    } while (0)
    WIN_NULL_CASE(MPI_Win_fence(0, MPI_WIN_NULL));
    WIN_NULL_CASE(MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_WIN_NULL));
    WIN_NULL_CASE(MPI_Win_lock_all(0, MPI_WIN_NULL));
    WIN_NULL_CASE(MPI_Win_get_group(MPI_WIN_NULL, &g));
    WIN_NULL_CASE(MPI_Win_set_errhandler(MPI_WIN_NULL, MPI_ERRORS_RETURN));
    WIN_NULL_CASE(MPI_Win_free(&null));
#undef WIN_NULL_CASE
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
    for (int k = 0; k < n; k++)
        conf_err(cases[k].what, cases[k].rc, MPI_ERR_WIN);
    comm_calls = 0;
}

/* ---- 12.6.2: error classes, MPI_ERRORS_RETURN on the window ---- */

/* MPI_ERR_RMA_SYNC: calls that need an epoch, outside one; epochs opened
 * inside others that exclude them. */
static void sync_errors(struct mt_win *w)
{
    MPI_Win win = w->win;
    int right = conf_right(), v = 1, got, flag;
    MPI_Aint d = mt_disp(w, right, 0);
    MPI_Request req;
    /* the values of the erroneous puts: if one is carried out anyway, the
     * next correct epoch finds it, and which it was */
    int put_outside = 101, put_not_started = 102, put_after_nosucceed = 103;
    if (!sm_checks(w))
        return;

    /* no epoch at all */
    ERR(MPI_ERR_RMA_SYNC, MPI_Get(&got, 1, MPI_INT, right, d, 1, MPI_INT, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Accumulate(&v, 1, MPI_INT, right, d, 1, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_RMA_SYNC,
        MPI_Get_accumulate(&v, 1, MPI_INT, &got, 1, MPI_INT, right, d, 1, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Fetch_and_op(&v, &got, MPI_INT, right, d, MPI_SUM, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Compare_and_swap(&v, &v, &got, MPI_INT, right, d, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Rput(&put_outside, 1, MPI_INT, right, d, 1, MPI_INT, win, &req));
    ERR(MPI_ERR_RMA_SYNC, MPI_Rget(&got, 1, MPI_INT, right, d, 1, MPI_INT, win, &req));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_flush_local(right, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_flush_local_all(win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_test(win, &flag));
    still_works(w, "calls outside any epoch");

    /* an exposure epoch: a second post, a fence */
    OK(MPI_Win_post(none_group, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_post(none_group, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_fence(0, win));
    OK(MPI_Win_wait(win));

    /* an access epoch of MPI_Win_start: a put to a rank not in its group.
     * Open MPI 4.1 alone accepts a second start, a fence, a lock, a
     * lock_all in it */
    OK(MPI_Win_start(none_group, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Put(&put_not_started, 1, MPI_INT, right, d, 1, MPI_INT, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_start(none_group, 0, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_fence(0, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_lock_all(0, win));
    OK(MPI_Win_complete(win));
    still_works(w, "errors in post/start epochs");

    /* a lock epoch of one target: fence, start, unlock_all; Open MPI 4.1
     * alone accepts lock_all and a second lock of the same target in it */
    OK(MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_fence(0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_start(none_group, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_unlock_all(win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_lock_all(0, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_SYNC, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, right, 0, win));
    OK(MPI_Win_unlock(right, win));

    /* a lock_all epoch: lock_all again, start, unlock of one target */
    OK(MPI_Win_lock_all(0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_lock_all(0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_start(none_group, 0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_unlock(right, win));
    OK(MPI_Win_unlock_all(win));
    still_works(w, "errors in lock epochs");

    /* fence epochs: a flush; a put after a fence that starts no epoch */
    OK(MPI_Win_fence(0, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Win_flush(right, win));
    OK(MPI_Win_fence(MPI_MODE_NOSUCCEED, win));
    ERR(MPI_ERR_RMA_SYNC, MPI_Put(&put_after_nosucceed, 1, MPI_INT, right, d, 1, MPI_INT, win));
    still_works(w, "errors in fence epochs");
}

/* The argument errors of the communication calls, in a lock_all epoch:
 * MPI_ERR_RANK, MPI_ERR_DISP, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_OP,
 * MPI_ERR_RMA_RANGE. */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

static void argument_errors(struct mt_win *w)
{
    MPI_Win win = w->win;
    int right = conf_right(), v[2] = {1, 2}, got[2], cmp = 0;
    double dv = 1.0, dgot;
    MPI_Aint d = mt_disp(w, right, 0), end = mt_disp(w, right, N);
    MPI_Request req;
    MPI_Datatype uncommitted;
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    MPI_Op user;
    MPI_Op_create(user_sum, 1, &user);

    OK(MPI_Win_lock_all(0, win));
    /* MPI_ERR_RANK: rank size, and negative other than MPI_PROC_NULL */
    ERR(MPI_ERR_RANK, MPI_Get(got, 1, MPI_INT, size, 0, 1, MPI_INT, win));
    ERR(MPI_ERR_RANK, MPI_Get(got, 1, MPI_INT, -7, 0, 1, MPI_INT, win));
    ERR(MPI_ERR_RANK, MPI_Accumulate(v, 1, MPI_INT, size + 3, 0, 1, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_RANK, MPI_Get_accumulate(v, 1, MPI_INT, got, 1, MPI_INT, size, 0, 1, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_RANK, MPI_Fetch_and_op(v, got, MPI_INT, -7, 0, MPI_SUM, win));
    ERR(MPI_ERR_RANK, MPI_Compare_and_swap(v, &cmp, got, MPI_INT, size, 0, win));
    ERR(MPI_ERR_RANK, MPI_Rput(v, 1, MPI_INT, -7, 0, 1, MPI_INT, win, &req));
    ERR(MPI_ERR_RANK, MPI_Rget(got, 1, MPI_INT, size, 0, 1, MPI_INT, win, &req));
    ERR(MPI_ERR_RANK, MPI_Raccumulate(v, 1, MPI_INT, size, 0, 1, MPI_INT, MPI_SUM, win, &req));
    ERR(MPI_ERR_RANK,
        MPI_Rget_accumulate(v, 1, MPI_INT, got, 1, MPI_INT, size, 0, 1, MPI_INT, MPI_SUM, win, &req));
    /* Open MPI 4.1 alone: flushes of rank size crash (MPI_ERR_RMA_SYNC
     * or SIGSEGV) */
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RANK, MPI_Win_flush(size, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RANK, MPI_Win_flush_local(size, win));

    /* MPI_ERR_DISP: a negative target displacement */
    if (w->flavor != MT_DYNAMIC) {
        ERR(MPI_ERR_DISP, MPI_Get(got, 1, MPI_INT, right, -3, 1, MPI_INT, win));
        ERR(MPI_ERR_DISP, MPI_Accumulate(v, 1, MPI_INT, right, -1, 1, MPI_INT, MPI_SUM, win));
        ERR(MPI_ERR_DISP,
            MPI_Get_accumulate(v, 1, MPI_INT, got, 1, MPI_INT, right, -1, 1, MPI_INT, MPI_SUM, win));
        ERR(MPI_ERR_DISP, MPI_Fetch_and_op(v, got, MPI_INT, right, -1, MPI_SUM, win));
        ERR(MPI_ERR_DISP, MPI_Compare_and_swap(v, &cmp, got, MPI_INT, right, -1, win));
        ERR(MPI_ERR_DISP, MPI_Rput(v, 1, MPI_INT, right, -2, 1, MPI_INT, win, &req));
        ERR(MPI_ERR_DISP, MPI_Rget(got, 1, MPI_INT, right, -1, 1, MPI_INT, win, &req));
    }

    /* MPI_ERR_COUNT: negative counts, on either side */
    ERR(MPI_ERR_COUNT, MPI_Get(got, -1, MPI_INT, right, d, 1, MPI_INT, win));
    ERR(MPI_ERR_COUNT, MPI_Get(got, 1, MPI_INT, right, d, -1, MPI_INT, win));
    ERR(MPI_ERR_COUNT, MPI_Accumulate(v, -2, MPI_INT, right, d, -2, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_COUNT, MPI_Raccumulate(v, -1, MPI_INT, right, d, -1, MPI_INT, MPI_SUM, win, &req));
    /* Open MPI 4.1 alone: SIGSEGV on a negative result count */
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_COUNT,
            MPI_Get_accumulate(v, 1, MPI_INT, got, -1, MPI_INT, right, d, 1, MPI_INT, MPI_SUM, win));

    /* MPI_ERR_TYPE: MPI_DATATYPE_NULL, an uncommitted type, a type that
     * compare-and-swap is not defined for (floating point) */
    ERR(MPI_ERR_TYPE, MPI_Put(v, 1, uncommitted, right, d, 2, MPI_INT, win));
    ERR(MPI_ERR_TYPE, MPI_Put(v, 2, MPI_INT, right, d, 1, uncommitted, win));
    ERR(MPI_ERR_TYPE, MPI_Get(got, 1, uncommitted, right, d, 2, MPI_INT, win));
    ERR(MPI_ERR_TYPE, MPI_Get(got, 1, MPI_DATATYPE_NULL, right, d, 1, MPI_INT, win));
    ERR(MPI_ERR_TYPE, MPI_Accumulate(v, 1, MPI_DATATYPE_NULL, right, d, 1, MPI_INT, MPI_SUM, win));
    ERR(MPI_ERR_TYPE, MPI_Fetch_and_op(v, got, MPI_DATATYPE_NULL, right, d, MPI_SUM, win));
    ERR(MPI_ERR_TYPE, MPI_Compare_and_swap(v, &cmp, got, MPI_DATATYPE_NULL, right, d, win));
    /* Open MPI 4.1 alone: SIGSEGV */
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_TYPE,
            MPI_Compare_and_swap(&dv, &dv, &dgot, MPI_DOUBLE, right, d, win));

    /* MPI_ERR_OP: MPI_OP_NULL, a user-defined op in an accumulate,
     * MPI_NO_OP in MPI_Accumulate (only the fetching calls take it), and
     * ops on types they are not defined for */
    ERR(MPI_ERR_OP,
        MPI_Get_accumulate(v, 1, MPI_INT, got, 1, MPI_INT, right, d, 1, MPI_INT, MPI_OP_NULL, win));
    ERR(MPI_ERR_OP, MPI_Raccumulate(v, 1, MPI_INT, right, d, 1, MPI_INT, MPI_OP_NULL, win, &req));
    ERR(MPI_ERR_OP, MPI_Accumulate(v, 1, MPI_INT, right, d, 1, MPI_INT, user, win));
    ERR(MPI_ERR_OP, MPI_Accumulate(v, 1, MPI_INT, right, d, 1, MPI_INT, MPI_NO_OP, win));
    /* Open MPI 4.1 alone: SIGSEGV */
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_OP, MPI_Fetch_and_op(v, got, MPI_INT, right, d, MPI_OP_NULL, win));
    /* MPICH 4.0 alone takes these, then fails an assertion at the target */
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_OP,
            MPI_Accumulate(&dv, 1, MPI_DOUBLE, right, d, 1, MPI_DOUBLE, MPI_BAND, win));
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_OP,
            MPI_Accumulate(&dv, 1, MPI_DOUBLE, right, d, 1, MPI_DOUBLE, MPI_LOR, win));
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_OP, MPI_Accumulate(v, 1, MPI_INT, right, d, 1, MPI_INT, MPI_MAXLOC, win));

    /* MPI_ERR_RMA_RANGE: past the end of the target's window, wholly or
     * in part.  MPICH 4.0 alone does not check (it carries them out past
     * the window's memory); Open MPI 4.1 alone does not check dynamic
     * windows (it carries out accesses to memory not attached), nor any in
     * osc/sm; liborma-mpi refuses them on dynamic windows only where
     * dyn_range_refused says */
    if (conf_host_ok(CONF_NOT_MPICH) && sm_checks(w) &&
        (w->flavor != MT_DYNAMIC || (conf_host_ok(CONF_NOT_OPEN_MPI) && dyn_range_refused(right)))) {
        MPI_Aint last = end - (w->flavor == MT_DYNAMIC ? (MPI_Aint)sizeof(int) : 1);
        ERR(MPI_ERR_RMA_RANGE, MPI_Accumulate(v, 1, MPI_INT, right, end, 1, MPI_INT, MPI_SUM, win));
        ERR(MPI_ERR_RMA_RANGE,
            MPI_Get_accumulate(v, 2, MPI_INT, got, 2, MPI_INT, right, last, 2, MPI_INT, MPI_SUM, win));
        ERR(MPI_ERR_RMA_RANGE, MPI_Fetch_and_op(v, got, MPI_INT, right, end, MPI_SUM, win));
        ERR(MPI_ERR_RMA_RANGE, MPI_Compare_and_swap(v, &cmp, got, MPI_INT, right, end + 5, win));
        ERR(MPI_ERR_RMA_RANGE, MPI_Rget(got, 1, MPI_INT, right, end, 1, MPI_INT, win, &req));
        ERR(MPI_ERR_RMA_RANGE, MPI_Rput(v, 2, MPI_INT, right, last, 2, MPI_INT, win, &req));
    }
    OK(MPI_Win_unlock_all(win));

    MPI_Type_free(&uncommitted);
    MPI_Op_free(&user);
    still_works(w, "argument errors of communication calls");
}

/* The argument errors of the synchronization calls: MPI_ERR_RANK,
 * MPI_ERR_LOCKTYPE, MPI_ERR_ASSERT, MPI_ERR_GROUP. */
static void sync_argument_errors(struct mt_win *w)
{
    MPI_Win win = w->win;
    int right = conf_right();
    ERR(MPI_ERR_RANK, MPI_Win_lock(MPI_LOCK_SHARED, size, 0, win));
    ERR(MPI_ERR_RANK, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, -7, 0, win));
    ERR(MPI_ERR_RANK, MPI_Win_unlock(size, win));
    /* MPICH 4.0 returns MPI_ERR_ARG for these */
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_LOCKTYPE, MPI_Win_lock(-1, right, 0, win));
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_LOCKTYPE, MPI_Win_lock(0, right, 0, win));
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_ASSERT, MPI_Win_post(none_group, 0x7654321, win));
    ERR_BUT(CONF_NOT_MPICH, MPI_ERR_ASSERT, MPI_Win_start(none_group, 0x7654321, win));
    /* Open MPI 4.1 alone takes MPI_GROUP_NULL (and opens the epoch) */
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_GROUP, MPI_Win_post(MPI_GROUP_NULL, 0, win));
    ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_GROUP, MPI_Win_start(MPI_GROUP_NULL, 0, win));
    /* MPICH 4.0 raises those two on the window's communicator, not on the
     * window (the communicator's handler runs; the window's does not) */
    if (!conf_host_ok(CONF_NOT_MPICH))
        comm_calls = 0;
    still_works(w, "argument errors of synchronization calls");
}

/* MPI_ERR_RMA_FLAVOR, MPI_ERR_BASE, MPI_ERR_SIZE: the calls of one flavour
 * on a window of another, and bad memory for MPI_Win_attach. */
static void flavor_errors(struct mt_win *w)
{
    MPI_Win win = w->win;
    int mem[4];
    MPI_Aint bytes = -1;
    int unit = -1;
    void *base = NULL;
    if (w->flavor != MT_DYNAMIC) {
        if (sm_checks(w))
            ERR(MPI_ERR_RMA_FLAVOR, MPI_Win_attach(win, mem, sizeof mem));
        /* Open MPI 4.1 alone returns MPI_ERR_WIN */
        ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_RMA_FLAVOR, MPI_Win_detach(win, w->base));
    }
    if (w->flavor == MT_DYNAMIC) {
        ERR(MPI_ERR_RMA_FLAVOR, MPI_Win_shared_query(win, rank, &bytes, &unit, &base));
        /* Open MPI 4.1 alone attaches -8 bytes */
        ERR_BUT(CONF_NOT_OPEN_MPI, MPI_ERR_SIZE, MPI_Win_attach(win, mem, -8));
        /* an invalid base: Open MPI 4.1 and MPICH 4.0 both say MPI_ERR_ARG */
        int rc = MPI_Win_attach(win, NULL, 64);
        if (rc == MPI_SUCCESS)
            fail("MPI_Win_attach of 64 bytes at NULL succeeded");
        if (conf_host_ok(CONF_NOT_OPEN_MPI) && conf_host_ok(CONF_NOT_MPICH))
            conf_err("MPI_Win_attach(win, NULL, 64)", rc, MPI_ERR_BASE);
    }
    if (w->flavor == MT_ALLOCATE || w->flavor == MT_CREATE) {
        /* MPI-4.1 allows MPI_Win_shared_query on these windows: memory a
         * process cannot reach gets size 0.  Open MPI 4.1 and MPICH 4.0,
         * older, return MPI_ERR_RMA_FLAVOR */
        if (conf_host_ok(CONF_NOT_OPEN_MPI) && conf_host_ok(CONF_NOT_MPICH)) {
            OK(MPI_Win_shared_query(win, rank, &bytes, &unit, &base));
            if (bytes != 0 && bytes != (MPI_Aint)w->bytes)
                fail("MPI_Win_shared_query of the own rank: size %ld, not 0 or %zu", (long)bytes, w->bytes);
            if (bytes && base != w->base)
                fail("MPI_Win_shared_query of the own rank: not the own base");
        }
    }
    still_works(w, "flavour errors");
}

/* Every class's string is non-empty and shorter than the maximum; a class
 * is its own class. */
static void class_strings(void)
{
    static const struct {
        const char *name;
        int cls;
    } classes[] = {
        {"MPI_ERR_WIN", MPI_ERR_WIN},
        {"MPI_ERR_BASE", MPI_ERR_BASE},
        {"MPI_ERR_SIZE", MPI_ERR_SIZE},
        {"MPI_ERR_DISP", MPI_ERR_DISP},
        {"MPI_ERR_LOCKTYPE", MPI_ERR_LOCKTYPE},
        {"MPI_ERR_ASSERT", MPI_ERR_ASSERT},
        {"MPI_ERR_RMA_CONFLICT", MPI_ERR_RMA_CONFLICT},
        {"MPI_ERR_RMA_SYNC", MPI_ERR_RMA_SYNC},
        {"MPI_ERR_RMA_RANGE", MPI_ERR_RMA_RANGE},
        {"MPI_ERR_RMA_ATTACH", MPI_ERR_RMA_ATTACH},
        {"MPI_ERR_RMA_SHARED", MPI_ERR_RMA_SHARED},
        {"MPI_ERR_RMA_FLAVOR", MPI_ERR_RMA_FLAVOR},
        {"MPI_ERR_RANK", MPI_ERR_RANK},
        {"MPI_ERR_COUNT", MPI_ERR_COUNT},
        {"MPI_ERR_TYPE", MPI_ERR_TYPE},
        {"MPI_ERR_OP", MPI_ERR_OP},
        {"MPI_ERR_GROUP", MPI_ERR_GROUP},
    };
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        char s[MPI_MAX_ERROR_STRING + 1];
        int len = -1;
        memset(s, 0, sizeof s);
        OK(MPI_Error_string(classes[k].cls, s, &len));
        if (len <= 0 || len >= MPI_MAX_ERROR_STRING || (size_t)len != strlen(s))
            fail("MPI_Error_string(%s): length %d, string \"%s\"", classes[k].name, len, s);
        expect(classes[k].name, 0, class_of(classes[k].cls), classes[k].cls);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 0, NULL, &none_group);
    MPI_Group_free(&world);
    class_strings();
    /* window errors must not reach the communicator's handler */
    MPI_Errhandler ch;
    MPI_Comm_create_errhandler(comm_handler, &ch);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, ch);
    MPI_Errhandler_free(&ch);

    for (int f = 0; f < MT_FLAVORS; f++) {
        if (!conf_flavor_here((enum mt_flavor)f))
            continue;
        struct mt_win w;
        mt_win_open(&w, (enum mt_flavor)f, N * sizeof(int), (int)sizeof(int));
        fill_window(&w);
        handlers(&w);
        MPI_Win_set_errhandler(w.win, MPI_ERRORS_RETURN);
        sync_errors(&w);
        argument_errors(&w);
        sync_argument_errors(&w);
        flavor_errors(&w);
        expect("communicator handler calls for window errors", f, comm_calls, 0);
        mt_win_close(&w);
    }

    /* a window of size 0 at every rank: any access is out of range */
    {
        int *base, v = 1;
        MPI_Win win;
        MPI_Win_allocate(0, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        OK(MPI_Win_lock_all(0, win));
        /* not checked by MPICH 4.0, nor by Open MPI 4.1's osc/sm (one rank) */
        if (conf_host_ok(CONF_NOT_MPICH) && (conf_host_ok(CONF_NOT_OPEN_MPI) || size > 1))
            ERR(MPI_ERR_RMA_RANGE, MPI_Get(&v, 1, MPI_INT, conf_right(), 0, 1, MPI_INT, win));
        OK(MPI_Get(&v, 0, MPI_INT, conf_right(), 0, 0, MPI_INT, win));
        OK(MPI_Win_unlock_all(win));
        MPI_Win_free(&win);
    }

    creation_errors();
    win_null();
    MPI_Group_free(&none_group);
    return conf_done("conf_errors");
}
