#!/bin/sh
# bench_latency_paired.sh ORMA_RUN ORMA_BENCH VARIANT...
# mpi-rma and orma-mpi measured paired (pp_mpi.h): a short latency run of
# the two must exit 0, measure both in one job per host MPI with
# liborma-mpi preloaded (its note), and report a row of each backend at
# every point.  The MPI program refuses to measure, exit status 1, when one
# of mpi-rma's functions is liborma-mpi's or not the host library's
# (mpi/mpib_fns.h) -- a failure here.  Then --unpaired: the separate jobs,
# and the rows of both.
run=$1
bench=$2
shift 2
. "$(dirname "$0")/bench_lib.sh"
backends=mpi-rma,orma-mpi
need() {
    printf '%s\n' "$out" | grep -q "$1" || {
        echo "bench_latency_paired: no $2"
        exit 1
    }
}
bench_run bench_latency_paired 2 latency --quick --sizes 8,64K \
    --sync fence,flush --window allocate,create
need "^# mpi-rma and orma-mpi measured paired" "note of the pairing"
for v in "$@"; do
    need "^# mpi-rma,orma-mpi on $v: .*liborma-mpi-$v.so preloaded" \
         "paired job on $v"
    for b in mpi-rma orma-mpi; do
        for op in put get acc; do
            for sync in fence flush; do
                for window in allocate create; do
                    for size in 8 64K; do
                        need "^latency  *$b/$v  *$op  *$sync  *$window  *2  *$size " \
                             "row of $b/$v $op+$sync on $window at $size"
                    done
                done
            done
        done
    done
done
bench_run bench_latency_paired 2 latency --quick --sizes 8,64K --op put \
    --sync flush --window allocate --unpaired
for v in "$@"; do
    need "^# mpi-rma on $v: mpirun" "host job of mpi-rma on $v (--unpaired)"
    need "^# orma-mpi on $v: .*preloaded" "job of orma-mpi on $v (--unpaired)"
    for b in mpi-rma orma-mpi; do
        need "^latency  *$b/$v  *put  *flush  *allocate  *2  *8 " \
             "row of $b/$v (--unpaired)"
    done
done
exit 0
