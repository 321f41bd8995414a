#!/bin/sh
# bench_report.sh ORMA_BENCH DATA_DIR markdown|plots
# orma-bench report on the checked-in results of DATA_DIR: sample.json
# (every suite, a second run that measured one point again), sample.csv
# (atomics, as --csv writes it) and odd.json (a suite the report does not
# know, unknown and missing fields, lines that are not results).
#   markdown: --no-plots; report.md must hold the expected rows, no plots.
#   plots: the same with plots; exits 77 (skipped) when the plotting
#          environment cannot be made (no PyPI, no venv module); every PNG
#          report.md links must be there.
bench=$1
data=$2
mode=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_report.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "bench_report ($mode): $*"; exit 1; }

flags=--no-plots
[ "$mode" = plots ] && flags=
"$bench" report "$data/sample.json" "$data/sample.csv" "$data/odd.json" \
    --out "$dir/out" $flags 2>"$dir/err"
status=$?
cat "$dir/err"
if [ "$status" -eq 3 ] && [ "$mode" = plots ]; then
    echo "bench_report: skipped: the plotting environment could not be set up (above)"
    exit 77
fi
[ "$status" -eq 0 ] || fail "orma-bench report exited with status $status"
md="$dir/out/report.md"
[ -s "$md" ] || fail "no report.md"

# Lines report.md must hold, as they are: a table of each suite (pingpong
# with its floor, MPI columns and ratios, the later run's 8 B point and a
# ratio across runs marked), a bar, the unknown suite's generic table, the
# as suite's cost per word and its BSP line fitted through the larger half
# of the sizes, against the memcpy floor, multiput's ratios time(put<k>) /
# time(put1) and orma beside mpi-rma; the mult suite's speedups over the
# serial row, and its ratios against each host's send (the other host's
# one-sided columns left out); rdx's times with their speedups over the
# sequential sort and put over each host's mpi-p2p send.
while IFS= read -r line; do
    grep -qxF -- "$line" "$md" || fail "report.md lacks the line: $line"
done <<'LINES'
## pingpong
**put / fence / allocate: round trip, us**
| bytes | orma | floor xcopy | mpi-rma/openmpi | orma-mpi/openmpi | mpi-p2p/openmpi | orma / xcopy | orma-mpi / mpi-rma (openmpi) |
| 8 | 0.900 (0.810–12.50) | 0.512 (0.406–13893) | 1.118 (1.111–3033) | 5.005 (4.983–7.098) | 0.533 (0.500–503.9) | 1.76 † | 4.48 |
| 1M | 141.8 (138.7–6495) | 143.5 (140.7–2469) | 139.7 (136.0–12660) | 135.0 (104.4–1144) | 218.1 (213.6–8407) | 0.99 | 0.97 |
| (d) lock+put+unlock 8 B allocate / cacheline | 2.56 | <= 4.0 | PASS |
| 8 | 0.265 (0.257–16.37) | 0.0014 (0.0014–0.096) | 0.431 (0.425–27.70) | 0.512 (0.406–13893) | 8.746 (8.628–3465) |
## sync
| epoch | fence | 0.459 (0.439–23.58) | 2.58 | 7.774 (7.563–724.9) | 0.79 |
## overlap
| put | 0.502 (0.483–2559) | 0.500 (0.482–1025) | 1.00 | +0.001 | PASS |
## atomics
| fop | flush | 0.037 (0.037–0.137) |
| 64K | 1.641 (1.631–3.686) | 1.775 (1.766–2.771) | 1.360 (1.356–1.920) | 0.83 | 0.92 |
## ddt
| WRF_x_vec | 31488 | 5.426 (5.018–130.5) | 21.86 (13.34–79.20) | 1.065 (1.015–66.95) | 4.03 | PASS | 5.09 | FAIL |
## ghost
| 1K | 4.250 (3.500–9.000) | 8.500 (5.000–20.00) | 2.00 |
## multiput
**pscw / allocate: time per epoch, and time(put<k>) / time(put1)**
| orma | 64 | 0.085 (0.082–0.125) | 1.14 | 3.03 | 0.256 (0.253–0.311) |
| pscw | allocate | 4K | 0.128 (0.120–0.176) | 0.263 (0.259–0.390) | 0.49 | 0.268 (0.265–0.326) | 0.467 (0.459–5.146) | 0.57 |
| 4K | 2.023 (1.986–39.10) |
| setup / - / allocate / P = 4 | - | 120.5 |
## as
| empty | 0.100 (0.090–0.200) | 0.200 (0.180–0.400) |
| 128 | 512 | 0.008984 | 0.01367 |
| orma | 0.100 | 0.167 | 0.008333 | 8.333 | 16.67 | 32..128 |
| mpi-p2p/openmpi | 0.200 | 0.300 | 0.012500 | 12.500 | 25.00 | 32..128 |
## mult
| 320 | 19000 (18000–20000) | 1.90 | 1.52 | 2.38 | 2.00 | 0.95 |
| 320 | 9500 (9000–11000) | 1.05 | 1.32 | 0.84 |
| 320 | 20000 (15000–25000) | 0.50 | 0.62 |
## rdx
**P = 2, n = 60K keys: one sort, us**
| orma | 125.0 (120.0–300.0) | 100.0 (95.00–200.0) | - | 1.60 | 2.00 | - | 0.50 (openmpi), 0.25 (mpich) | 0.40 (openmpi), 0.20 (mpich) |
| mpi-rma/openmpi | 150.0 (140.0–400.0) | 160.0 (150.0–420.0) | - | 1.33 | 1.25 | - | 0.60 | 0.64 |
| mpi-p2p/mpich | - | - | 500.0 (480.0–900.0) | - | - | 0.40 | - | - |
seq (P = 1): 200.0 (190.0–500.0) us
LINES
for n in 6 7; do
    grep -q "odd.json:$n: not a JSON object" "$dir/err" || fail "no warning for odd.json:$n"
done

links=$(grep -o '](plots/[^)]*\.png)' "$md" | sed 's/^](//; s/)$//')
if [ "$mode" = markdown ]; then
    [ -z "$links" ] || fail "--no-plots, yet report.md links plots"
    [ ! -d "$dir/out/plots" ] || fail "--no-plots, yet a plots directory"
    echo "bench_report: report.md as expected, no plots"
    exit 0
fi
n=0
for f in $links; do
    [ "$(head -c 8 "$dir/out/$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
        fail "$f: not a PNG"
    n=$((n + 1))
done
for f in pingpong-round-trip-put-fence-allocate.png sync-empty-epoch-by-mode-and-rank-count.png \
         ghost-exchange-fence-allocate-p-4-halo-x.png \
         as-p-2-total-exchange-of-h-words-per-pair.png \
         multiput-orma-pscw-allocate-k-puts.png \
         rdx-p-2-speedup-over-the-sequential-sort.png; do
    echo "$links" | grep -qxF "plots/$f" || fail "no plot $f"
done
[ "$(ls "$dir/out/plots" | wc -l)" -eq "$n" ] || fail "PNGs that report.md does not link"
echo "bench_report: report.md as expected, $n plots"
