/* turn_peer.c -- a job's side of the turns (turns.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "turns.h"

int bench_turn_peer_open(bench_turn_peer *p, const char *go, const char *done, int writer)
{
    p->go = p->done = -1;
    if ((p->go = open(go, O_RDONLY | O_CLOEXEC)) < 0 ||
        (writer && (p->done = open(done, O_WRONLY | O_CLOEXEC)) < 0)) {
        fprintf(stderr, "orma-bench: turns: cannot open %s: %s\n", p->go < 0 ? go : done, strerror(errno));
        bench_turn_peer_close(p);
        return -1;
    }
    return 0;
}

int bench_turn_peer_wait(bench_turn_peer *p)
{
    char c = 0;
    ssize_t k;
    while ((k = read(p->go, &c, 1)) < 0 && errno == EINTR)
        ;
    if (k == 1 && c == 'g')
        return 0;
    fprintf(stderr, "orma-bench: turns: orma-bench stopped handing the turns\n");
    return -1;
}

int bench_turn_peer_done(bench_turn_peer *p)
{
    char c = 'd';
    if (write(p->done, &c, 1) == 1)
        return 0;
    fprintf(stderr, "orma-bench: turns: orma-bench stopped taking the turns back: %s\n", strerror(errno));
    return -1;
}

void bench_turn_peer_close(bench_turn_peer *p)
{
    if (p->go >= 0)
        close(p->go);
    if (p->done >= 0)
        close(p->done);
    p->go = p->done = -1;
}
