#!/bin/sh
# bench_dynamic.sh ORMA_RUN ORMA_BENCH
# A short orma-bench dynamic run (bench/dynamic/dyn_suite.c) on 2 ranks,
# with the MPI program on liborma-mpi (orma-mpi/<mpi>, when built): it must
# exit 0 (every transfer verified) and report orma's spawn times of 1-4
# ranks (and Open MPI's, on liborma-mpi), its connect+accept time, and put (flush, fence) and get (flush) on
# the static, spawned and connected teams at both sizes; no MPI job's rows
# left out.
run=$1
bench=$2
. "$(dirname "$0")/bench_lib.sh"
backends=orma,orma-mpi
bench_run bench_dynamic 2 dynamic --quick --quiet --reps 3 --sizes 8,64K
if printf '%s\n' "$out" | grep -q "rows are left out"; then
    echo "bench_dynamic: an MPI job's rows were left out"
    exit 1
fi
row() {
    printf '%s\n' "$out" | grep -q "^dynamic  *orma  *$1  *$2  *$3  *2  *$4 " ||
        { echo "bench_dynamic: no orma row of $1 $2 $3 at $4"; exit 1; }
}
for k in 1 2 3 4; do
    row spawn - - "$k"
done
row connect_accept - - 1
for kind in static spawned connected; do
    for b in 8 64K; do
        row put flush "$kind" "$b"
        row get flush "$kind" "$b"
        row put fence "$kind" "$b"
    done
done
# liborma-mpi over Open MPI: MPI_Comm_spawn of 1-4, and the three pairs,
# the connected one through Open MPI's name server, when the program and
# ompi-server are there.
if [ -x "$(dirname "$bench")/orma-bench-dynamic-mpi-openmpi" ]; then
    for k in 1 2 3 4; do
        printf '%s\n' "$out" | grep -q "^dynamic  *orma-mpi/openmpi  *spawn  *-  *-  *2  *$k " ||
            { echo "bench_dynamic: no orma-mpi/openmpi spawn row of $k processes"; exit 1; }
    done
fi
if [ -x "$(dirname "$bench")/orma-bench-dynamic-mpi-openmpi" ] && command -v ompi-server >/dev/null; then
    for kind in static spawned connected; do
        printf '%s\n' "$out" | grep -q "^dynamic  *orma-mpi/openmpi  *put  *flush  *$kind  *2  *8 " ||
            { echo "bench_dynamic: no orma-mpi/openmpi put flush row of the $kind pair"; exit 1; }
    done
fi
echo "bench_dynamic: ok"
