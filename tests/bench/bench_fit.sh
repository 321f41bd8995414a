#!/bin/sh
# bench_fit.sh ORMA_RUN ORMA_BENCH [VARIANT...]
# The window flavours made per point (bench/common/fit.h): short pingpong
# and latency runs with --window create_fit,stack must exit 0 (every point
# verified its data) and report rows of both flavours on every backend --
# orma, and with host MPI variants named mpi-rma and orma-mpi on each of
# them, with the side-by-side tables -- at 8 B and 4K; at 2M create_fit's
# rows, none of stack (beyond what a stack window takes: skipped, with a
# note).  A run without --window measures neither.
run=$1
bench=$2
shift 2
. "$(dirname "$0")/bench_lib.sh"
backends=orma
rows=orma
for v in "$@"; do
    backends=orma,mpi-rma,orma-mpi
    rows="$rows mpi-rma/$v orma-mpi/$v"
done
need() {
    printf '%s\n' "$out" | grep -q "$1" || {
        echo "bench_fit: no $2"
        exit 1
    }
}
none() {
    if printf '%s\n' "$out" | grep -q "$1"; then
        echo "bench_fit: $2"
        exit 1
    fi
}
for suite in pingpong latency; do
    bench_run bench_fit 2 $suite --quick --reps 5 --sizes 8,4K,2M \
        --window create_fit,stack
    need "^# stack windows skip 2M" "note of the size stack skips ($suite)"
    for b in $rows; do
        for w in create_fit stack; do
            for size in 8 4K; do
                need "^$suite  *$b  *put  *flush  *$w  *2  *$size " \
                     "row of $b put+flush on $w at $size ($suite)"
            done
        done
        need "^$suite  *$b  *put  *flush  *create_fit  *2  *2M " \
             "row of $b put+flush on create_fit at 2M ($suite)"
        none "^$suite  *$b  .* stack  *2  *2M " "$b measured stack at 2M ($suite)"
    done
    if [ $# -gt 0 ]; then
        need "^  put / flush / create_fit: median us" "side-by-side table of create_fit ($suite)"
        need "^  put / flush / stack: median us" "side-by-side table of stack ($suite)"
    fi
done
bench_run bench_fit 2 pingpong --quick --reps 5 --sizes 8 --op put --sync fence
none " create_fit \| stack " "create_fit or stack measured without --window"
exit 0
