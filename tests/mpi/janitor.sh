#!/bin/bash
# janitor.sh MPIRUN... -- PRELOAD_ARGS... -- PROGRAM
# A job killed (SIGKILL) or aborted (MPI_Abort) while it holds shared memory
# leaves nothing in /dev/shm: an abort removes its objects at once, a kill's
# are removed by the next job that starts on the node.
set -u
run=()
while [ "$1" != "--" ]; do run+=("$1"); shift; done
shift
pre=()
while [ "$1" != "--" ]; do pre+=("$1"); shift; done
shift
prog=$1
uid=$(id -u)

objects() { ls /dev/shm | grep -c "^orma-$uid-$1-" || true; }
fail() { echo "janitor: $*" >&2; exit 1; }

out=$(mktemp)
tok=$(mktemp)
trap 'rm -f "$out" "$tok"' EXIT
# The token from the file rank 0 writes: what it prints may be lost when
# another rank ends the job right after.
token_of() { sed -n 's/^token \([0-9a-f]*\)$/\1/p' "$tok" | head -1; }

: >"$tok"
"${run[@]}" -n 2 "${pre[@]}" "$prog" abort "$tok" >"$out" 2>&1 && fail "the aborting job exited 0"
t=$(token_of)
[ -n "$t" ] || { cat "$out"; fail "the aborting job printed no token"; }
[ "$(objects "$t")" = 0 ] || fail "an aborted job left $(objects "$t") objects in /dev/shm"

: >"$tok"
"${run[@]}" -n 2 "${pre[@]}" "$prog" kill "$tok" >"$out" 2>&1 && fail "the killed job exited 0"
t=$(token_of)
[ -n "$t" ] || { cat "$out"; fail "the killed job printed no token"; }
left=$(objects "$t")
echo "the killed job left $left objects"
[ "$left" -gt 0 ] || fail "the killed job left nothing, not even its liveness file: nothing was tested"
sleep 3 # the janitor leaves liveness files younger than 2 s alone
: >"$tok"
"${run[@]}" -n 2 "${pre[@]}" "$prog" clean "$tok" >"$out" 2>&1 || { cat "$out"; fail "the clean job failed"; }
c=$(token_of)
[ "$(objects "$t")" = 0 ] || fail "the next job did not sweep the killed job's $(objects "$t") objects"
[ "$(objects "$c")" = 0 ] || fail "a clean job left $(objects "$c") objects"
echo "janitor: ok"
