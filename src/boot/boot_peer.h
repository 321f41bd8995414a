/* boot_peer.h -- what a job needs to reach other jobs on its machine: the
 * names of their shared objects, whether two processes share a node, whether
 * a process is still alive, and byte streams between jobs (the launcher's
 * spawn service, ports, sockets given by the program).
 *
 * Jobs meet when one spawns another (orma_spawn) or when two connect
 * (orma_team_accept / orma_team_connect / orma_team_join).  Every shared
 * object stays named by the job of the process that created it, so that its
 * own launcher or janitor removes it; the others open it by that name. */
#ifndef ORMA_BOOT_PEER_H
#define ORMA_BOOT_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define BOOT_TOKEN_MAX 40 /* sizeof boot_job.token */

/* A copy of token that lives as long as the process (the tokens of the jobs
 * this one has met are few); NULL when out of memory. */
const char *boot_token_intern(const char *token);

/* "/orma-<uid>-<token>-" followed by the formatted suffix: an object of the
 * job with that token. */
void boot_name_of(char *buf, size_t len, const char *token, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same for every process that shares this machine's /dev/shm, different
 * on other machines: hostname, boot id and /dev/shm's identity -- and the
 * job's token once boot_node_split was called. */
uint64_t boot_node_id(void);

/* For a job of an MPI world that spans nodes by its MPI's reckoning: its
 * ranks here are one node, told apart from the other nodes by this job's
 * token too, whatever memory they share (an MPI told that no two ranks
 * are local, MPICH's MPIR_CVAR_NOLOCAL, has its nodes on one machine).
 * Worlds on one node that spawn or connect to each other then reach each
 * other over the net transport.  Before boot_node_id is first asked. */
void boot_node_split(void);

/* 0 once pid has exited (or is a zombie), else 1. */
int boot_pid_alive(pid_t pid);

/* Whole messages over a stream socket: all len bytes, or an error naming
 * what (ORMA_ERR_PEER when the other side went away).  timeout_ms < 0:
 * none. */
int boot_stream_send(int fd, const void *buf, size_t len, const char *what);
int boot_stream_recv(int fd, void *buf, size_t len, int timeout_ms, const char *what);

/* Ports: a listening abstract Unix socket whose name (at most
 * BOOT_PORT_MAX - 1 characters) another job on this machine connects to. */
#define BOOT_PORT_MAX 96
int boot_port_listen(char *name, size_t len, int *fd_p);
/* The next connection on a listening port (blocks). */
int boot_port_accept(int lfd, int *fd_p);
int boot_port_connect(const char *name, int *fd_p);

#endif
