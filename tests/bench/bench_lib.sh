# bench_lib.sh -- sourced by the suites' ctest scripts (bench_<suite>.sh),
# which set run (orma-run) and bench (orma-bench) from their arguments:
#
#   bench_backends VARIANT...   orma alone, or with host MPI variants named
#                               (the MPI programs are built) every backend
#   bench_run NAME NP SUITE [OPTION...]
#                               orma-run -n NP orma-bench SUITE --backends
#                               $backends OPTION...: its output in $out and
#                               on stdout; exit 1, naming NAME, unless it
#                               exited 0 (every point verified its data)
bench_backends() {
    if [ $# -gt 0 ]; then
        echo orma,mpi-rma,mpi-p2p,orma-mpi
    else
        echo orma
    fi
}

bench_run() {
    bench_name=$1
    bench_np=$2
    bench_suite=$3
    shift 3
    out=$("$run" -n "$bench_np" -- "$bench" "$bench_suite" --backends "$backends" "$@")
    bench_status=$?
    printf '%s\n' "$out"
    if [ "$bench_status" -ne 0 ]; then
        echo "$bench_name: orma-bench exited with status $bench_status"
        exit 1
    fi
}
