#!/bin/sh
# bench_latency.sh ORMA_RUN ORMA_BENCH [VARIANT...]
# A short orma-bench latency run: it must exit 0 (every point verified its
# data) and report rows of every backend -- orma, and with host MPI
# variants named, mpi-rma, mpi-p2p and orma-mpi on each of them (a variant
# skipped for a missing program or mpirun fails here) -- the floors and
# the summary.  Without variants, orma's own backend alone.
run=$1
bench=$2
shift 2
. "$(dirname "$0")/bench_lib.sh"
backends=$(bench_backends "$@")
bench_run bench_latency 2 latency --quick --sizes 8,64K --reps 5
need() {
    if ! printf '%s\n' "$out" | grep -q "$1"; then
        echo "bench_latency: no $2"
        exit 1
    fi
}
for op in put get acc; do
    need "^latency  *orma  *$op " "rows of orma $op"
done
need "^latency  *floor  *memcpy " "memcpy floor"
printf '%s\n' "$out" | grep -q "^# floor cma skipped" ||
    need "^latency  *floor  *cma " "cma floor"
need "^summary of the latency suite" "summary"
for v in "$@"; do
    for b in mpi-rma orma-mpi; do
        for op in put get acc; do
            need "^latency  *$b/$v  *$op " "rows of $b/$v $op"
        done
    done
    need "^latency  *mpi-p2p/$v  *sendrecv " "rows of mpi-p2p/$v"
done
