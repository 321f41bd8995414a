"""The report's part for the caf suite (bench/README.md, caf): coarray
Fortran on liborma-caf beside OpenCoarrays, the MPI counterparts and orma's
own calls.  Per P: each ping-pong measurement by size, every backend and
variant a column and its time over orma-caf's; Himeno in MFLOPS by size,
halo and backend; the PRK kernels' time per iteration and ratios."""

from blocks import Computed, Line, Ratio, SizePlot, Table, Text, Value, \
    size_rows
from results import select, uniq

# The ping-pong measurements: the ops shown together, and what one sample
# is.
PP = (
    (("caf_put", "send_recv"), "caf_put: the put ping-pong, half a round "
     "trip (coarrays: SYNC IMAGES; MPI: put, flush and a message, and "
     "send/recv)"),
    (("caf_put1",), "caf_put1: one put, one way (coarrays: SYNC MEMORY; MPI "
     "and orma: a flush)"),
    (("caf_get",), "caf_get: one get (MPI and orma: a flush)"),
    (("caf_strided",), "caf_strided: a strided section put (section) "
     "against packing by hand (packed), half a ping-pong round trip"),
)

# Himeno's flops per iteration (34 a point of the interior).
HIMENO_FLOP = {"XS": 34.0 * 31 * 31 * 63, "S": 34.0 * 63 * 63 * 127,
               "M": 34.0 * 127 * 127 * 255}

REF = "orma-caf"


def _columns(rows):
    """(label, series by bytes) per backend and variant of rows, orma-caf's
    first; the variant (sync, window) is named when a backend has several
    or the op differs from the first row's."""
    combos = uniq((r.backend, r.op, r.sync, r.window) for r in rows)
    combos.sort(key=lambda c: c[0] != REF)
    out = []
    for b, op, sync, window in combos:
        several = len([c for c in combos if c[0] == b]) > 1
        label = b
        if several or op != combos[0][1]:
            label += " " + (op if op != combos[0][1] else window)
        s = {r.bytes: r for r in select(rows, backend=b, op=op, sync=sync,
                                        window=window)}
        out.append((label, s))
    return out


def _pp(p, rows):
    out = []
    for ops, what in PP:
        mine = [r for r in rows if r.op in ops]
        if not mine:
            continue
        cols = _columns(mine)
        ref = cols[0][1]
        keys = size_rows(*[s for _, s in cols])
        out.append(Table("P = %s: %s; us, and other / %s" % (p, what,
                                                            cols[0][0]),
                         ["bytes"], keys,
                         [Value(label, s) for label, s in cols] +
                         [Ratio("%s / %s" % (label, cols[0][0]), s, ref)
                          for label, s in cols[1:]]))
        out.append(SizePlot("caf P = %s: %s" % (p, ops[0]),
                            [Line(label, s) for label, s in cols],
                            "median time per operation"))
    return out


def _mflops(series, size):
    def cell(key):
        r = series.get(key)
        if r is None or not r.median_us:
            return "-"
        return "%.0f" % (HIMENO_FLOP.get(size, 0) / r.median_us)
    return cell


def _himeno(p, rows):
    mine = select(rows, op="himeno")
    if not mine:
        return []
    out = []
    for size in uniq(r.window for r in mine):
        at = select(mine, window=size)
        combos = uniq((r.backend, r.sync) for r in at)
        combos.sort(key=lambda c: c[0] != REF)
        series = {c: {0: select(at, backend=c[0], sync=c[1])[0]}
                  for c in combos}
        ref = series[combos[0]]
        cols = [Computed("%s %s MFLOPS" % c, _mflops(series[c], size))
                for c in combos]
        cols += [Ratio("%s %s / %s %s" % (c + combos[0]), series[c], ref)
                 for c in combos[1:]]
        out.append(Table("P = %s: Himeno %s, MFLOPS (medians), and time per "
                         "iteration over %s %s" % ((p, size) + combos[0]),
                         ["size"], [(0, [size])],
                         [Value("%s %s us" % combos[0], ref)] + cols))
    return out


def _prk(p, rows):
    mine = [r for r in rows if r.op.startswith("prk_")]
    if not mine:
        return []
    kernels = uniq(r.op for r in mine)
    backends = uniq(r.backend for r in mine)
    backends.sort(key=lambda b: b != REF)
    series = {b: {r.op: r for r in select(mine, backend=b)}
              for b in backends}
    keys = [(k, [k[len("prk_"):]]) for k in kernels]
    ref = series[backends[0]]
    return [Table("P = %s: the PRK kernels, us per iteration, and other / %s"
                  % (p, backends[0]), ["kernel"], keys,
                  [Value(b, series[b]) for b in backends] +
                  [Ratio("%s / %s" % (b, backends[0]), series[b], ref)
                   for b in backends[1:]])]


def blocks(name, rows):
    out = [Text("Coarray Fortran (seed 002) on liborma-caf (orma-caf) "
                "beside OpenCoarrays over each host MPI, the same binaries "
                "on liborma-mpi (oc-orma-mpi), the MPI counterparts of the "
                "programs (mpi, and mpi-orma on liborma-mpi) and orma's own "
                "put/get + flush (orma); ratios are another's time over "
                "%s's: above 1, %s is faster." % (REF, REF))]
    for p in sorted(uniq(r.p for r in rows), key=lambda v: v or 0):
        at = select(rows, p=p)
        out += _pp(p, at) + _himeno(p, at) + _prk(p, at)
    return out
