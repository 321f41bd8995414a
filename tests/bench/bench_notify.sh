#!/bin/sh
# bench_notify.sh ORMA_RUN ORMA_BENCH NP [VARIANT...]
# A short orma-bench notify run on NP ranks: it must exit 0 (every item of
# every batch carried its stamps when its count said it arrived, every
# ring and ghost area was whole after each batch) and report rows of
# every part it runs at NP -- pingpong (the floor, orma's notify and
# flag), pipeline (orma's notify and flag) at 2 ranks, ghost (orma's
# fence, pscw, lock, notify) at every NP -- and the bars' lines.  With
# VARIANTs (the host MPIs), their jobs run beside orma's, taking turns,
# and must report mpi-rma's flag, mpi-p2p's and (liborma-mpi's notified
# calls, preloaded) orma-mpi's notify rows.  Correctness only: no timing
# is judged.
run=$1
bench=$2
np=$3
shift 3
. "$(dirname "$0")/bench_lib.sh"
backends=orma
[ $# -gt 0 ] && backends=orma,mpi-rma,mpi-p2p,orma-mpi
bench_run bench_notify "$np" notify --quick --quiet --reps 3 --sizes 16,64K
if printf '%s\n' "$out" | grep -q "FAIL:"; then
    echo "bench_notify: a backend failed"
    exit 1
fi
# The rows: "notify BACKEND OP SYNC WINDOW P BYTES ...".
has() {
    printf '%s\n' "$out" | grep -q "^notify  *$1  *$2  *$3  *$4  *$np  *$5 " || {
        echo "bench_notify: no row of $1 $2 $3 at $5 bytes, p=$np"
        exit 1
    }
}
line() {
    printf '%s\n' "$out" | grep -q "$1" || { echo "bench_notify: no line '$1'"; exit 1; }
}
if [ "$np" -eq 2 ]; then
    has floor pingpong cacheline shared 8
    for sync in notify flag; do
        has orma pingpong "$sync" allocate 8
        for size in 16 64K; do
            has orma pipeline "$sync" allocate "$size"
        done
    done
    for v in "$@"; do
        has "mpi-rma/$v" pingpong flag allocate 8
        has "mpi-p2p/$v" pingpong p2p none 8
        has "orma-mpi/$v" pingpong notify allocate 8
        for size in 16 64K; do
            has "mpi-rma/$v" pipeline flag allocate "$size"
            has "mpi-p2p/$v" pipeline p2p none "$size"
            has "orma-mpi/$v" pipeline notify allocate "$size"
        done
    done
    line "^  bar pingpong: "
fi
for size in 16 64K; do
    for sync in fence pscw lock notify; do
        has orma ghost "$sync" allocate "$size"
    done
    for v in "$@"; do
        has "mpi-p2p/$v" ghost p2p none "$size"
    done
done
line "^  bar ghost modes: "
[ $# -gt 0 ] && line "^  bar ghost p2p: orma notify step"
echo "bench_notify: ok"
exit 0
