#!/bin/sh
# race_check.sh LAUNCH NP PROG WANT [KIND TARGET ORIGINS FUNC [TEXT...]]
#
# Runs PROG at NP ranks under ORMA_CHECK=race and checks what the race
# checker printed on the ranks' stderr: the lines beginning "orma race:".
#   LAUNCH  orma-run's path, or an mpirun command line in one word (split
#           at its spaces; it must pass ORMA_CHECK on to the ranks itself)
#   WANT    0      a correct program: no report, exit status 0
#           1      a bug program: exactly one report, exit status 0
#           abort  a bug program under ORMA_CHECK_ABORT=1: exactly one
#                  report and a nonzero exit status (not a signal's)
#   KIND    the report's kind phrase ("overlapping puts")
#   TARGET  the target rank the report names
#   ORIGINS the ranks of its accesses, space-separated (each must appear
#           as "from rank <r> at")
#   FUNC    the function holding the bug: a site "FUNC+0x..." must appear,
#           and a site must name a line of PROG's source, PROG.c
#   TEXT    further strings the report must contain
# Every run: the line has the contract's shape, no report went to stdout,
# no rank's process survived the job, and (under orma-run) nothing of the
# job is left in /dev/shm.
set -u
launch=$1 np=$2 prog=$3 want=$4
shift 4
kind=${1:-} target=${2:-} origins=${3:-} func=${4:-}
if [ $# -ge 4 ]; then shift 4; else shift $#; fi
dir=$(mktemp -d /tmp/race_check.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
export ORMA_CHECK=race
if [ "$want" = abort ]; then export ORMA_CHECK_ABORT=1; else unset ORMA_CHECK_ABORT; fi
first=${launch%% *}
case ${first##*/} in
    orma-run) run="$launch -n $np --" ;;
    *) run="$launch -n $np" ;;
esac
# Each rank says its pid and the job's token, then becomes the program.
# shellcheck disable=SC2086
$run sh -c 'echo "$$ ${ORMA_BOOT_JOB:--}" >> "$0"; exec "$1"' "$dir/up" "$prog" >"$dir/out" 2>"$dir/err"
status=$?
echo "---- stdout ----"; cat "$dir/out"
echo "---- stderr ----"; cat "$dir/err"
echo "---- end (exit status $status) ----"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

case $want in
    abort)
        if [ "$status" -eq 0 ] || [ "$status" -ge 126 ]; then
            bad "exit status $status, expected the job to end with a status of 1..125"
        fi
        nwant=1 ;;
    0|1)
        [ "$status" -eq 77 ] && { echo "skipped"; exit 77; }
        [ "$status" -eq 0 ] || bad "exit status $status, expected 0"
        nwant=$want ;;
    *) echo "race_check.sh: WANT is 0, 1 or abort, not '$want'"; exit 2 ;;
esac

grep '^orma race:' "$dir/err" > "$dir/reports"
got=$(wc -l < "$dir/reports")
[ "$got" -eq "$nwant" ] || bad "$got lines beginning 'orma race:' on stderr, expected $nwant"
grep -q 'orma race:' "$dir/out" && bad "a report went to stdout"

if [ "$nwant" -eq 1 ] && [ "$got" -ge 1 ]; then
    line=$(head -n 1 "$dir/reports")
    shape='^orma race: [a-z ]+: window [^,]+, target rank [0-9]+, bytes \[[0-9a-fx]+, [0-9a-fx]+\) of (the window|address space), (fence epoch [0-9]+|exposure epoch [0-9]+ \(post/start\)|passive epoch \(lock\)): [^ ].* from rank [0-9]+ at [^ ].*'
    printf '%s\n' "$line" | grep -Eq "$shape" || bad "the report has not the contract's shape"
    has() { printf '%s\n' "$line" | grep -qF -- "$1"; }
    has "orma race: $kind: " || bad "the report is not of kind '$kind'"
    has ", target rank $target, " || bad "the report does not name target rank $target"
    for o in $origins; do
        has "from rank $o at " || bad "the report does not name an access from rank $o"
    done
    has "$func+0x" || bad "no site of the report is in $func"
    src=${prog##*/}.c # built with -g: a site names the source line
    printf '%s\n' "$line" | grep -Eq "[ (/]$src:[0-9]+\)" || bad "no site of the report names a line of $src"
    for t in "$@"; do
        has "$t" || bad "the report lacks '$t'"
    done
fi

up=$(wc -l < "$dir/up" 2>/dev/null || echo 0)
[ "$up" -eq "$np" ] || bad "$up of $np ranks started"
while read -r pid token; do
    i=0 # a launcher may return while its ranks are still being ended
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        bad "rank process $pid survived the job"; kill -9 "$pid"
    fi
    if [ "$token" != "-" ] && ls /dev/shm 2>/dev/null | grep -q "^orma-$(id -u)-$token-"; then
        bad "the job left shared-memory objects:" $(ls /dev/shm | grep "^orma-$(id -u)-$token-")
        break
    fi
done < "$dir/up"
[ "$fail" -eq 0 ] && echo "race_check: OK"
exit $fail
