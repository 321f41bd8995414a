"""The report's part for the as suite (seed 003's As; as_summary.c prints
the same tables): the fixed tests of every backend side by side (the
seed's Fig. 5), the total exchange's cost per 32-bit word t / (h x P) per h
(its Fig. 6) with the times against size, and the BSP parameters per
backend: L, the empty superstep and the intercept of a least-squares line
t = L + g x H through the exchange's medians over the larger half of the
h measured (H = h x P words per rank), g its slope, and g / g_memcpy, the
16 MB memcpy floor of the same run per word."""

from blocks import Bars, Line, Listing, SizePlot, Table, Text, Value
from results import format_size, format_us, select, uniq

FIXED = ("empty", "barrier", "comp", "full", "simple", "scatter")
MEMCPY_BYTES = 16 << 20


def _per_word(row, p):
    if row is None or row.median_us is None or not row.bytes:
        return "-"
    return "%.4g" % (row.median_us / (row.bytes // 4 * p))


def _fit(series, p):
    """(L, g, h0, h1) of the least-squares line through the larger half of
    series' sizes, or None with fewer than 2 points there."""
    pts = sorted((b // 4, r.median_us) for b, r in series.items()
                 if b and r.median_us is not None)
    pts = pts[len(pts) // 2:]
    if len(pts) < 2:
        return None
    xs = [h * p for h, _ in pts]
    ys = [t for _, t in pts]
    m = float(len(pts))
    sx, sy = sum(xs), sum(ys)
    sxx = sum(x * x for x in xs)
    sxy = sum(x * y for x, y in zip(xs, ys))
    d = m * sxx - sx * sx
    if not d > 0:
        return None
    g = (m * sxy - sx * sy) / d
    return (sy - g * sx) / m, g, pts[0][0], pts[-1][0]


def _bsp(mine, backends, xchg, p):
    memcpy = select(mine, backend="floor", op="memcpy", bytes=MEMCPY_BYTES)
    g_memcpy = None
    if memcpy and memcpy[0].median_us:
        g_memcpy = memcpy[0].median_us / (MEMCPY_BYTES // 4)
    rows = []
    for b in backends:
        empty = select(mine, backend=b, op="empty", bytes=4)
        line = _fit(xchg.get(b, {}), p)
        cells = [b, format_us(empty[0].median_us) if empty else "-"]
        if line is None:
            rows.append(cells + ["-"] * 5)
            continue
        l, g, h0, h1 = line
        cells += ["%.3f" % l, "%.6f" % g, "%.3f" % (g * 1e3),
                  "%.2f" % (g / g_memcpy) if g_memcpy else "-",
                  "%d..%d" % (h0, h1)]
        rows.append(cells)
    note = ("g_memcpy: %s us per 16 MB memcpy, %.3f ns per word." %
            (format_us(memcpy[0].median_us), g_memcpy * 1e3)
            if g_memcpy else "No memcpy floor in these results.")
    return Listing("P = %s: BSP parameters (us; g per 32-bit word)" % p,
                   ["backend", "L (empty)", "L (fit)", "g us", "g ns",
                    "g / g_memcpy", "h fitted"], rows, note)


def as_blocks(name, rows):
    out = [Text("Seed 003's As suite on every backend (bench/README.md, "
                "as): a row is one superstep, the slowest rank's, the "
                "median of samples of many; xchg is a total exchange of h "
                "32-bit words per pair (bytes = 4h).")]
    for p in sorted(uniq(r.p for r in rows), key=lambda v: v or 0):
        mine = select(rows, p=p)
        backends = uniq(r.backend for r in mine if r.backend != "floor")
        fixed = {b: {r.op: r for r in mine if r.backend == b and
                     r.op in FIXED} for b in backends}
        out.append(Table("P = %s: seed 003 Fig. 5, us per superstep" % p,
                         ["test"], [(op, [op]) for op in FIXED],
                         [Value(b, fixed[b]) for b in backends]))
        out.append(Bars("%s: P = %s, the fixed tests" % (name, p),
                        list(FIXED),
                        [(b, [fixed[b].get(op) for op in FIXED])
                         for b in backends],
                        "median time per superstep (us)"))
        xchg = {b: {r.bytes: r for r in mine if r.backend == b and
                    r.op == "xchg"} for b in backends}
        xchg = {b: s for b, s in xchg.items() if s}
        if not xchg:
            continue
        sizes = sorted(set(k for s in xchg.values() for k in s if k))
        out.append(Listing(
            "P = %s: seed 003 Fig. 6, us per 32-bit word, t / (h × P)" % p,
            ["h", "bytes"] + list(xchg),
            [[str(bt // 4), format_size(bt)] +
             [_per_word(s.get(bt), p) for s in xchg.values()]
             for bt in sizes]))
        plot = SizePlot("%s: P = %s, total exchange of h words per pair" %
                        (name, p),
                        [Line(b, s, reference=b.startswith("mpi-p2p"))
                         for b, s in xchg.items()],
                        "median time per superstep")
        if plot.worth():
            out.append(plot)
        out.append(_bsp(mine, backends, xchg, p))
    return out
