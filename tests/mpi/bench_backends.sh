#!/bin/sh
# bench_backends.sh ORMA_RUN ORMA_BENCH VARIANT...
# A short orma-bench pingpong with every backend: it must exit 0 (every
# point of every backend verified its data), and every MPI backend of
# every variant must have reported rows (a variant skipped for a missing
# program or mpirun fails here).
run=$1
bench=$2
shift 2
out=$("$run" -n 2 -- "$bench" pingpong --backends orma,mpi-rma,mpi-p2p,orma-mpi \
      --quick --sizes 8,64K --reps 20 --op put,get,acc)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
    echo "bench_backends: orma-bench exited with status $status"
    exit 1
fi
for v in "$@"; do
    for b in mpi-rma mpi-p2p orma-mpi; do
        if ! printf '%s\n' "$out" | grep -q "^pingpong  *$b/$v "; then
            echo "bench_backends: no rows of $b/$v"
            exit 1
        fi
    done
done
