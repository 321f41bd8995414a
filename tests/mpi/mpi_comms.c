/* mpi_comms.c -- windows over other communicators than MPI_COMM_WORLD:
 * halves of the job (ranks split by parity), the job in reverse order
 * (window ranks are the communicator's, not the job's), MPI_COMM_SELF,
 * windows created in different numbers and orders on different ranks
 * before one over every rank, every flavour on a sub-communicator, PSCW
 * with groups of the sub-communicator, window info passed at creation, and
 * a creation that fails at one rank failing at all of them. */
#include "mpi_test.h"

static int data(int wr, int k, int i) { return 1000000 * (wr + 1) + 1000 * k + i; }

/* Open MPI 4.1's shared-memory one-sided component races when disjoint
 * communicators create windows at the same time (one rank fails to open
 * the other's segment, ENOENT, and the creation fails): its host runs
 * create windows over the halves one half at a time.  With orma they are
 * created concurrently, as a program would. */
static int mt_in_turns;
/* Open MPI 4.1 creates no window over a single process (its one-sided
 * components need a peer), so its host runs skip one-rank windows. */
static int mt_one_ok;

#define IN_TURNS(half_comm, stmt)                                                                  \
    do {                                                                                           \
        int turns_ = mt_in_turns && (half_comm) ? 2 : 1;                                           \
        for (int turn_ = 0; turn_ < turns_; turn_++) {                                             \
            if (turns_ == 1 || rank % 2 == turn_)                                                  \
                stmt;                                                                              \
            if (turns_ > 1)                                                                        \
                MPI_Barrier(MPI_COMM_WORLD);                                                       \
        }                                                                                          \
    } while (0)

/* The world rank of rank r of comm. */
static int world_rank(MPI_Comm comm, int r)
{
    MPI_Group g, wg;
    int wr = -1;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_translate_ranks(g, 1, &r, wg, &wr);
    MPI_Group_free(&g);
    MPI_Group_free(&wg);
    return wr;
}

/* A window of the flavour over comm, 16 ints per rank holding the rank's
 * background; each rank puts 4 ints at 3 into its right neighbour (in
 * comm's order) with fence, gets 4 ints at 8 of its left one, and checks
 * both, and its own memory, whole. */
static void ring(MPI_Comm comm, int is_half, enum mt_flavor flavor, const char *what)
{
    enum { N = 16 };
    int cr, cn;
    MPI_Comm_rank(comm, &cr);
    MPI_Comm_size(comm, &cn);
    if (cn == 1 && !mt_one_ok) {
        IN_TURNS(is_half, (void)0); /* the others' turns */
        return;
    }
    int right = (cr + 1) % cn, left = (cr + cn - 1) % cn;
    int wleft = world_rank(comm, left), wright = world_rank(comm, right);
    int *mem = NULL;
    MPI_Win win;
    MPI_Aint *addr = malloc((size_t)cn * sizeof *addr);
    if (!addr)
        fail("malloc");
    switch (flavor) {
    case MT_ALLOCATE:
        IN_TURNS(is_half, MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win));
        break;
    case MT_SHARED:
        IN_TURNS(is_half, MPI_Win_allocate_shared(N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &mem, &win));
        break;
    case MT_CREATE:
    case MT_DYNAMIC:
        mem = malloc(N * sizeof(int));
        if (!mem)
            fail("malloc");
        if (flavor == MT_CREATE) {
            IN_TURNS(is_half, MPI_Win_create(mem, N * sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &win));
        } else {
            IN_TURNS(is_half, MPI_Win_create_dynamic(MPI_INFO_NULL, comm, &win));
            MPI_Win_attach(win, mem, N * sizeof(int));
        }
        break;
    default:
        fail("no flavour %d", (int)flavor);
    }
    MPI_Aint mine = 0;
    MPI_Get_address(mem, &mine);
    MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, comm);
    /* displacements in units of int, or absolute addresses when dynamic */
    MPI_Aint put_at = 3, get_at = 8;
    if (flavor == MT_DYNAMIC) {
        put_at = MPI_Aint_add(addr[right], 3 * sizeof(int));
        get_at = MPI_Aint_add(addr[left], 8 * sizeof(int));
    }
    fill_bg_int(mem, N, rank);
    int src[4], *got = guarded_alloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++)
        src[i] = data(rank, 1, i);
    MPI_Win_fence(0, win);
    MPI_Put(src, 4, MPI_INT, right, put_at, 4, MPI_INT, win);
    MPI_Get(got, 4, MPI_INT, left, get_at, 4, MPI_INT, win);
    MPI_Win_fence(0, win);
    char msg[96];
    snprintf(msg, sizeof msg, "%s, %s window: get from the left neighbour", what, mt_flavor_name[flavor]);
    for (int i = 0; i < 4; i++)
        expect(msg, i, got[i], bg(wleft, 8 + i));
    guarded_check(got, 4 * sizeof(int), msg);
    snprintf(msg, sizeof msg, "%s, %s window: own memory after the left neighbour's put", what,
             mt_flavor_name[flavor]);
    for (int i = 0; i < N; i++)
        expect(msg, i, mem[i], i >= 3 && i < 7 ? data(wleft, 1, i - 3) : bg(rank, i));
    (void)wright;
    int flag = 0;
    MPI_Group wg, cg;
    MPI_Win_get_group(win, &wg);
    MPI_Comm_group(comm, &cg);
    MPI_Group_compare(wg, cg, &flag);
    if (flag != MPI_IDENT)
        fail("%s: the window's group is not the communicator's (%d)", what, flag);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);
    if (flavor == MT_DYNAMIC)
        MPI_Win_detach(win, mem);
    MPI_Win_free(&win);
    if (flavor == MT_CREATE || flavor == MT_DYNAMIC)
        free(mem);
    guarded_free(got);
    free(addr);
}

/* PSCW within a half: rank 0 of the half exposes, the others put their
 * world rank into its slots; the groups are the half's. */
static void pscw_half(MPI_Comm half)
{
    int hr, hn;
    MPI_Comm_rank(half, &hr);
    MPI_Comm_size(half, &hn);
    if (hn < 2) {
        IN_TURNS(1, (void)0); /* the others' turns */
        return;
    }
    int *mem;
    MPI_Win win;
    IN_TURNS(1, MPI_Win_allocate((MPI_Aint)(hn * sizeof(int)), sizeof(int), MPI_INFO_NULL, half, &mem, &win));
    fill_bg_int(mem, (size_t)hn, rank);
    MPI_Barrier(half);
    MPI_Group hg, g;
    MPI_Comm_group(half, &hg);
    if (hr == 0) {
        int n = hn - 1, *origins = malloc((size_t)n * sizeof *origins);
        for (int i = 0; i < n; i++)
            origins[i] = i + 1;
        MPI_Group_incl(hg, n, origins, &g);
        MPI_Win_post(g, 0, win);
        MPI_Win_wait(win);
        for (int i = 0; i < hn; i++)
            expect("PSCW in a half: the target's slot", i, mem[i],
                   i == 0 ? bg(rank, 0) : data(world_rank(half, i), 2, 0));
        free(origins);
    } else {
        int zero = 0, v = data(rank, 2, 0);
        MPI_Group_incl(hg, 1, &zero, &g);
        MPI_Win_start(g, 0, win);
        MPI_Put(&v, 1, MPI_INT, 0, hr, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&hg);
    MPI_Win_free(&win);
}

/* MPI_COMM_SELF: a window of one rank, put and get to itself. */
static void self(void)
{
    int *mem, v[3] = {data(rank, 3, 0), data(rank, 3, 1), data(rank, 3, 2)}, got[3] = {0};
    MPI_Win win;
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_SELF, &mem, &win);
    fill_bg_int(mem, 8, rank);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(v, 3, MPI_INT, 0, 2, 3, MPI_INT, win);
    MPI_Win_flush(0, win);
    MPI_Get(got, 3, MPI_INT, 0, 2, 3, MPI_INT, win);
    MPI_Win_unlock(0, win);
    for (int i = 0; i < 8; i++)
        expect("MPI_COMM_SELF window", i, mem[i], i >= 2 && i < 5 ? v[i - 2] : bg(rank, i));
    for (int i = 0; i < 3; i++)
        expect("MPI_COMM_SELF window, get", i, got[i], v[i]);
    MPI_Win_free(&win);
}

/* Window info given at creation is what MPI_Win_get_info reports. */
static void info_kept(void)
{
    MPI_Info info, used;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "some_other_key", "is ignored");
    int *mem;
    MPI_Win win;
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), info, MPI_COMM_WORLD, &mem, &win);
    MPI_Info_free(&info);
    MPI_Win_get_info(win, &used);
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL, value, &flag);
    if (!flag || strcmp(value, "true"))
        fail("window info no_locks: %s", flag ? value : "(not set)");
    MPI_Info_get(used, "accumulate_ordering", MPI_MAX_INFO_VAL, value, &flag);
    if (!flag || strcmp(value, "none"))
        fail("window info accumulate_ordering: %s", flag ? value : "(not set)");
    MPI_Info_free(&used);
    MPI_Win_free(&win);
}

/* One rank gives a negative size: every rank's creation fails with an
 * error (MPI_ERRORS_RETURN on the communicator), none waits forever.  Only
 * with orma: MPI does not require a host to fail the other ranks. */
static void bad_at_one(MPI_Comm comm)
{
    int cr, *mem = NULL;
    MPI_Win win = MPI_WIN_NULL;
    MPI_Comm_rank(comm, &cr);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_allocate(cr == 1 ? -8 : 64, sizeof(int), MPI_INFO_NULL, comm, &mem, &win);
    if (rc == MPI_SUCCESS || win != MPI_WIN_NULL)
        fail("a window with a negative size at rank 1 was created at rank %d", cr);
    int cls = 0;
    MPI_Error_class(rc, &cls);
    if (cr == 1 && cls != MPI_ERR_SIZE)
        fail("negative window size: error class %d, expected MPI_ERR_SIZE (%d)", cls, MPI_ERR_SIZE);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    MPI_Comm half, reversed, comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    int one_ok = mt_orma || !mt_host_is_open_mpi();
    mt_one_ok = one_ok;
    mt_in_turns = !mt_orma && mt_host_is_open_mpi();
    for (int f = 0; f < MT_FLAVORS; f++) {
        ring(half, 1, (enum mt_flavor)f, "half of the ranks");
        ring(reversed, 0, (enum mt_flavor)f, "the ranks in reverse order");
    }
    /* Different numbers of windows on different ranks (even ranks create
     * two over their half, odd ones one), alive while a window over every
     * rank is created and used. */
    int hn;
    MPI_Comm_size(half, &hn);
    MPI_Win extra[2] = {MPI_WIN_NULL, MPI_WIN_NULL};
    int *xmem[2];
    int nextra = hn > 1 || one_ok ? (rank % 2 == 0 ? 2 : 1) : 0;
    for (int k = 0; k < 2; k++)
        IN_TURNS(1, if (k < nextra) MPI_Win_allocate(64, 1, MPI_INFO_NULL, half, &xmem[k], &extra[k]));
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    ring(comm, 0, MT_ALLOCATE, "every rank after uneven creations");
    ring(comm, 0, MT_SHARED, "every rank after uneven creations");
    for (int k = 0; k < nextra; k++)
        MPI_Win_free(&extra[k]);
    pscw_half(half);
    if (one_ok)
        self();
    info_kept();
    if (mt_orma)
        bad_at_one(comm);
    MPI_Comm_free(&comm);
    MPI_Comm_free(&half);
    MPI_Comm_free(&reversed);
    mt_finalize();
    if (rank == 0)
        printf("mpi_comms: ok\n");
    return 0;
}
