#!/bin/sh
# mpi_race.sh CASE NP SOURCE -- MPIRUN... -- runs one MPI job of mpi_race.c
# or mpi_race_f.F90 (CASE one of their bug cases) or of mpi_race_ok.c
# (CASE ok), the command after -- whole (mpirun with NP ranks, liborma-mpi
# preloaded and ORMA_CHECK=race in the ranks' environment), and checks
# what the ranks wrote on stderr, all ranks' together:
#   ok     exit status 0 and no "orma race:" line;
#   a bug  exit status 0 (a report does not stop the job) and exactly one
#          "orma race:" line, of the shape and kind phrase the race
#          checker's contract gives, with the case's target rank (the last
#          one, NP-1), epoch, ranks of its two calls, and each site in
#          bug_CASE at one of the lines of SOURCE marked "race: CASE"
#          (function+0xOFF (file:LINE): the program's MPI call, resolved).
case_=$1
np=$2
src=$3
shift 4
err=$(mktemp /tmp/mpi_race.XXXXXX) || exit 1
trap 'rm -f "$err"' EXIT INT TERM
"$@" 2>"$err"
rc=$?
cat "$err" >&2
# the report lines, whatever an MPI launcher put before them
reports=$(grep 'orma race:' "$err" | sed 's/^.*orma race:/orma race:/')
n=$(grep -c 'orma race:' "$err")
bad() {
    echo "mpi_race.sh $case_ (np $np): $*" >&2
    [ -n "$reports" ] && printf '%s\n' "the reports:" "$reports" >&2
    exit 1
}
[ "$rc" -eq 0 ] || bad "the job ended with status $rc, expected 0"
if [ "$case_" = ok ]; then
    [ "$n" -eq 0 ] || bad "$n report lines from a correct program, expected none"
    echo "mpi_race.sh ok (np $np): no report"
    exit 0
fi
[ "$n" -eq 1 ] || bad "$n report lines, expected exactly one"

# the lines of SOURCE marked for this case, all (site) or those of one call
# (site_of CALL): a site as the contract gives it, function+0xOFF (file:LINE)
# (a Fortran program's subroutine bug_CASE may be named bug_CASE_)
file=$(basename "$src" | sed 's/\./\\./g')
fn="bug_${case_}"
case "$src" in *.[fF]90) fn="${fn}_?" ;; esac
marked() {
    grep -En "race: $case_( |\$)" "$src" | grep -F "${1:-race:}" | cut -d: -f1 | tr '\n' '|' | sed 's/|$//'
}
site_at() {
    [ -n "$1" ] || bad "no line of $src is marked race: $case_ for this call"
    printf '%s' "$fn\\+0x[0-9a-f]+ \\(([^ ()]*/)?$file:($1)\\)"
}
site=$(site_at "$(marked)")
site_of() { site_at "$(marked "$1")"; }
t=$((np - 1))
passive='passive epoch \(lock\)'
fence='fence epoch [0-9]+'
acc='orma_[a-z_]*accumulate[a-z_]*\(ORMA_(SUM|MAX), [A-Za-z0-9_]+\)'
# want: the whole line; also: what it must hold besides, |-separated
case "$case_" in
fence_puts)
    want="overlapping puts: window [0-9]+, target rank $t, bytes \[8, 16\) of the window, $fence: orma_put[a-z_]* from rank [01] at $site; orma_put[a-z_]* from rank [01] at $site"
    also="orma_put[a-z_]* from rank 0 at $(site_of 'src, 4')|orma_put[a-z_]* from rank 1 at $(site_of 'src, 2')" ;;
acc_ops)
    want="accumulates with different ops: window [0-9]+, target rank $t, bytes \[4, 8\) of the window, $passive: $acc from rank [01] at $site; $acc from rank [01] at $site"
    also="\(ORMA_SUM, [A-Za-z0-9_]+\) from rank 0 at $(site_of MPI_SUM)|\(ORMA_MAX, [A-Za-z0-9_]+\) from rank 1 at $(site_of MPI_MAX)" ;;
put_get)
    want="put and get overlap: window [0-9]+, target rank $t, bytes \[4, 8\) of the window, $passive: orma_(put|get)[a-z_]* from rank 0 at $site; orma_(put|get)[a-z_]* from rank 0 at $site"
    also="orma_put[a-z_]* from rank 0 at $(site_of MPI_Put)|orma_get[a-z_]* from rank 0 at $(site_of MPI_Get)" ;;
origin_changed)
    want="origin buffer changed before completion: window [0-9]+, target rank $t, bytes \[[0-9]+, [0-9]+\) of the window, $passive: orma_put[a-z_]* from rank 0 at $(site_of MPI_Put); orma_win_flush from rank 0 at $(site_of MPI_Win_flush)"
    also="" ;;
private_store)
    want="local store during exposure: window [0-9]+, target rank $t, bytes \[16, 24\) of the window, $fence: orma_put[a-z_]* from rank 0 at $(site_of MPI_Put); a load/store by a process mapping the window changed its data before orma_win_fence from rank $t at $(site_of MPI_Win_fence)"
    also="" ;;
rput_changed)
    want="origin buffer changed before completion: window [0-9]+, target rank $t, bytes \[[0-9]+, [0-9]+\) of the window, $passive: orma_rput[a-z_]* from rank 0 at $(site_of MPI_Rput); orma_wait from rank 0 at $(site_of MPI_Wait)"
    also="" ;;
outside)
    want="access outside the window: window [0-9]+, target rank $t, bytes \[[0-9]+, [0-9]+\) of the window, $fence: orma_put[a-z_]* from rank 0 at $site; [^;]+"
    also="" ;;
*)
    bad "no such case" ;;
esac
printf '%s\n' "$reports" | grep -Eq "^orma race: $want\$" ||
    bad "the report is not: orma race: $want"
old_ifs=$IFS
IFS='|'
for a in $also; do
    printf '%s\n' "$reports" | grep -Eq "$a" || bad "the report lacks: $a"
done
IFS=$old_ifs
echo "mpi_race.sh $case_ (np $np): $reports"
