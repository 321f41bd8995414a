#!/bin/sh
# bench_mt.sh ORMA_RUN ORMA_BENCH
# A short orma-bench mt run (bench/mt/) on 2 ranks, orma and, when built,
# the MPI program on each host MPI alone and on liborma-mpi: it must exit 0
# (every get returned the last value put, every fetch_and_op the counter,
# every target window held what its origin wrote, every backend gave
# MPI_THREAD_MULTIPLE) and report a row of every backend, op and window at
# 1, 2 and 4 threads, and the scaling bars.  Correctness only: no timing
# is judged.
run=$1
bench=$2
. "$(dirname "$0")/bench_lib.sh"
backends=orma
dir=$(dirname "$bench")
for v in openmpi mpich; do
    [ -x "$dir/orma-bench-mt-mpi-$v" ] && command -v "mpirun.$v" >/dev/null && backends=orma,mpi-rma,orma-mpi
done
bench_run bench_mt 2 mt --quick --quiet --reps 2
if printf '%s\n' "$out" | grep -q "FAIL:"; then
    echo "bench_mt: a backend failed"
    exit 1
fi
row() {
    printf '%s\n' "$out" | grep -q "^mt  *$1  *$2  *flush  *$3  *2  *8  .* t$4\$" ||
        { echo "bench_mt: no $1 row of $2 $3 with $4 threads"; exit 1; }
}
for op in put get fop; do
    for w in sep shared; do
        for t in 1 2 4; do
            row orma $op $w $t
            for v in openmpi mpich; do
                if [ -x "$dir/orma-bench-mt-mpi-$v" ] && command -v "mpirun.$v" >/dev/null; then
                    row "mpi-rma/$v" $op $w $t
                    row "orma-mpi/$v" $op $w $t
                fi
            done
        done
    done
done
printf '%s\n' "$out" | grep -q "^# bar sep: " && printf '%s\n' "$out" | grep -q "^# bar shared: " ||
    { echo "bench_mt: no scaling bars"; exit 1; }
echo "bench_mt: ok"
