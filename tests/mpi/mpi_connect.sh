#!/bin/sh
# mpi_connect.sh VARIANT PROGRAM HOW [LIB] -- two jobs, each its own mpirun,
# connect (accept: 2 ranks, connect: 1) and then join (1 and 1), running
# mpi_connect.c's windows across them.  HOW: host (the host MPI alone) or
# orma (liborma-mpi at LIB preloaded).  Open MPI reaches across mpiruns
# through its name server, ompi-server, started here.  Exit 77 (skipped)
# when the host cannot open ports here (MPICH 4.0.2 from Debian).
variant=$1
prog=$2
how=$3
lib=${4:-}
dir=$(mktemp -d /tmp/mpi_connect.XXXXXX) || exit 1
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM
if [ "$variant" = openmpi ]; then
    command -v ompi-server >/dev/null || { echo "no ompi-server: skipped"; exit 77; }
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    ompi-server --no-daemonize -r "$dir/uri" &
    server=$!
    i=0
    while [ ! -s "$dir/uri" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$dir/uri" ] || { echo "mpi_connect: ompi-server did not start"; exit 1; }
    # osc rdma reaches no rank of another job; pt2pt does (host runs only:
    # with liborma-mpi the host's one-sided components are not used).
    run="mpirun.openmpi --oversubscribe --ompi-server file:$dir/uri --mca osc ^rdma"
    [ "$how" = orma ] && run="$run -x LD_PRELOAD=$lib"
else
    run="mpirun.mpich"
    [ "$how" = orma ] && run="$run -genv LD_PRELOAD $lib"
fi
pair() { # NP_A MODE_A NP_B MODE_B
    rm -f "$dir/word"
    $run -n "$1" "$prog" "$how" "$2" "$dir/word" &
    a=$!
    $run -n "$3" "$prog" "$how" "$4" "$dir/word"
    sb=$?
    wait $a
    sa=$?
    if [ $sa -eq 77 ] && [ $sb -eq 77 ]; then
        exit 77
    fi
    if [ $sa -ne 0 ] || [ $sb -ne 0 ]; then
        echo "mpi_connect: $2 exited $sa, $4 exited $sb"
        exit 1
    fi
}
pair 2 accept 1 connect
pair 1 join-listen 1 join-connect
echo "mpi_connect: ok"
