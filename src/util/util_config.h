/* util_config.h -- every ORMA_* environment variable, declared once.
 *
 * X(NAME, field, kind, default, help): ORMA_<NAME> is parsed at orma_init
 * into util_config.<field>.  No other code calls getenv() for ORMA_*
 * variables; orma-info prints this table. */
#ifndef ORMA_UTIL_CONFIG_H
#define ORMA_UTIL_CONFIG_H

#include <stdint.h>

#define UTIL_CONFIG_LIST(X)                                                     \
    X(LOG_LEVEL, log_level, LEVEL, "warn",                                     \
      "messages printed on stderr: none, error, warn, info or debug")           \
    X(SPIN, spin, UINT, "100",                                                 \
      "polls of a shared word before a waiting rank starts yielding its core")  \
    X(YIELD_US, yield_us, UINT, "1000",                                         \
      "microseconds a waiting rank yields its core before it sleeps in the "    \
      "kernel; beside another rank on its CPU it sleeps at once while other "   \
      "tasks keep the core (8 of its last 16 yields lost it for over 200 us)")  \
    X(SLEEP_US, sleep_us, UINT, "1000",                                         \
      "longest single sleep of a waiting rank, microseconds")                   \
    X(EAGER, eager, BOOL, "1",                                                  \
      "1: operations go straight to memory once the target opened its epoch; "  \
      "0: defer every operation to the closing synchronization call")           \
    X(TRANSPORT, transport, TRANSPORT, "auto",                                  \
      "how ranks reach each other: auto (shared memory on one node, the net " \
      "transport between nodes) or net (the net transport between every two " \
      "ranks, shared windows excepted; needs liborma-mpi or mpirun)")         \
    X(PROGRESS_THREAD, progress_thread, BOOL, "0",                              \
      "1: a thread handles what arrives over the net transport while the "    \
      "rank computes or waits outside orma (passive-target progress; under "  \
      "liborma-mpi it asks MPI for MPI_THREAD_MULTIPLE)")                     \
    X(MPIRUN, mpirun, STRING, "auto",                                          \
      "a native program under mpirun: auto (its ranks join as one job through " \
      "liborma-mpirun-<mpi>.so when Open MPI's or MPICH's launcher started " \
      "it), openmpi, mpich, or off (every rank a job of its own)")            \
    X(UNLOCK_LOCAL, unlock_local, BOOL, "0",                                   \
      "1: windows whose info does not set orma_unlock_local take it as "      \
      "true: unlock and unlock_all over the net transport wait for local "    \
      "completion only (orma.h)")                                             \
    X(CHECK, check, CHECK, "0",                                                 \
      "1: also check that origin and target type signatures (sequences of "     \
      "basic types) match, as MPI requires; 0: only that the data sizes match; "\
      "race: report conflicting accesses of one epoch, accesses outside the "   \
      "window and origin buffers changed before completion, with both sides' " \
      "ranks and call sites (rma_race.h); all: 1 and race")                     \
    X(CHECK_ABORT, check_abort, BOOL, "0",                                      \
      "1: the first report of ORMA_CHECK=race ends the job; 0: report and go on") \
    X(ADOPT, adopt, UINT, "2",                                                  \
      "2: a window created on private memory moves the pages it touches into " \
      "a shared segment at the same addresses, which peers load and store "    \
      "(its partial pages only while the process has one thread); 1: only "    \
      "its whole pages; 0: none, peers reach it with single-copy system calls") \
    X(BOX, box, BOOL, "1",                                                      \
      "1: small puts of fence and PSCW epochs to memory peers cannot map go "  \
      "through a shared-memory box the target empties when it closes the "     \
      "epoch; 0: every such put is a single-copy system call")                 \
    X(BOX_MAX, box_max, UINT, "2048",                                           \
      "the longest put, get or accumulate (bytes) that travels through a box; " \
      "at most 6144; longer ones are single-copy system calls")                \
    X(PASSIVE_BOX, passive_box, BOOL, "1",                                      \
      "1: those small puts in passive epochs too, their box offered to the "   \
      "target at flush and unlock and written out by the origin if the "       \
      "target does not empty it at once; 0: they are gathered (ORMA_GATHER)")  \
    X(GATHER, gather, BOOL, "1",                                                \
      "1: puts and gets to memory this process cannot map wait for the "       \
      "synchronization that completes them and go in one system call "         \
      "together; 0: each is a single-copy system call of its own")             \
    X(BOOT_RANK, boot_rank, INT, "-1", "set by orma-run: rank of this process") \
    X(BOOT_SIZE, boot_size, INT, "0", "set by orma-run: number of ranks")       \
    X(BOOT_JOB, boot_job, STRING, "", "set by orma-run: the job's random token")\
    X(BOOT_FD, boot_fd, INT, "-1",                                              \
      "set by orma-run: descriptor on which a rank reports its finalize")      \
    X(BOOT_SLOT, boot_slot, INT, "-1",                                          \
      "set by orma-run: the number this rank reports its finalize with")        \
    X(BOOT_SERVICE, boot_service, STRING, "",                                   \
      "set by orma-run: the socket on which it starts ranks (orma_spawn)")      \
    X(BOOT_PARENT, boot_parent, STRING, "",                                     \
      "set by orma-run in spawned ranks: the team they share with their "      \
      "parents, as <segment>:<parents>")

enum util_config_kind { UTIL_CFG_LEVEL, UTIL_CFG_UINT, UTIL_CFG_INT, UTIL_CFG_BOOL, UTIL_CFG_STRING, UTIL_CFG_TRANSPORT,
                        UTIL_CFG_CHECK };

/* ORMA_TRANSPORT, decided once at load. */
enum util_transport {
    UTIL_TRANSPORT_AUTO, /* shared memory on a node, the net transport between nodes */
    UTIL_TRANSPORT_NET   /* the net transport between every two ranks (shared windows excepted) */
};

#define UTIL_CONFIG_FIELD_LEVEL int
#define UTIL_CONFIG_FIELD_UINT uint32_t
#define UTIL_CONFIG_FIELD_INT int
#define UTIL_CONFIG_FIELD_BOOL int
#define UTIL_CONFIG_FIELD_STRING const char *
#define UTIL_CONFIG_FIELD_TRANSPORT enum util_transport
#define UTIL_CONFIG_FIELD_CHECK int
#define UTIL_CONFIG_STRUCT_FIELD(name, field, kind, def, help) UTIL_CONFIG_FIELD_##kind field;

struct util_config {
    UTIL_CONFIG_LIST(UTIL_CONFIG_STRUCT_FIELD)
    int race; /* ORMA_CHECK=race or all (check then holds the signature
                 checks' 0 or 1 alone) */
};

extern struct util_config util_config;

/* Parse the environment into util_config (defaults for unset or invalid
 * values, with a warning for invalid ones and for unknown ORMA_* names). */
void util_config_load(void);

/* 1 when the variable (e.g. "ORMA_SPIN") was not set: its default holds. */
int util_config_is_default(const char *name);

/* One row of the table as orma-info prints it. */
struct util_config_row {
    const char *name;  /* "ORMA_LOG_LEVEL" */
    const char *value; /* current value as text */
    const char *def;
    const char *source; /* "environment" or "default" */
    const char *help;
};

/* Number of rows; util_config_row(i) fills row i (after util_config_load). */
int util_config_count(void);
void util_config_row(int i, struct util_config_row *row_p);

#endif
