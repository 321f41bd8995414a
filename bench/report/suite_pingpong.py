"""The pingpong suite's part of the report: per (op, sync, window) the
round trip of every backend side by side with the same-pattern floor, the
ratios orma / floor and, per MPI variant, orma-mpi / mpi-rma; the floors;
the 8-byte round trips by sync against the cache-line floor; the bars of
the suite's summary (pp_summary.c, pp_sync_summary.c, pp_mpi_summary.c:
the thresholds here must follow theirs); heat maps of the ratios."""

from blocks import (HeatMap, Heading, Line, Listing, Ratio,
                    SizePlot, Table, Text, Value, format_ratio, ratio_of,
                    size_rows)
from results import format_size, format_us, select, series, uniq

# The same-pattern floor of each window (floor.h): xcopy where orma maps
# the memory, cma_rt on malloc'd memory (create, dynamic; create_fit, a
# window per point of exactly its bytes) and on the stack.
FLOOR_OF = {"allocate": "xcopy", "shared": "xcopy",
            "create_allocmem": "xcopy", "create": "cma_rt",
            "dynamic": "cma_rt", "create_fit": "cma_rt", "stack": "cma_rt"}
FLOORS = ("cacheline", "memcpy", "cma", "xcopy", "cma_rt")
SYNCS = ("fence", "pscw", "lock", "lock_all", "flush")
WINDOWS = ("allocate", "create", "create_allocmem", "dynamic", "shared",
           "create_fit", "stack")
MB = 1 << 20
SLOWER_SHOWN = 10


def _ordered(known, met):
    """The names of met, those of known first in its order (the order of
    orma-bench's own loops), then the others as met."""
    met = uniq(met)
    return [k for k in known if k in met] + [m for m in met if m not in known]


def _variants(rows):
    return uniq(r.backend.split("/", 1)[1] for r in rows
                if "/" in r.backend)


def _one_sided(r):
    return r.backend != "floor" and not r.backend.startswith("mpi-p2p")


def _groups(rows):
    """(op, sync, window, p) of the one-sided rows: by op, then window, then
    sync, as pp_compare.c."""
    mine = [r for r in rows if _one_sided(r)]
    ps = uniq(r.p for r in mine)
    out = []
    for op in uniq(r.op for r in mine):
        for w in _ordered(WINDOWS, (r.window for r in mine)):
            for s in _ordered(SYNCS, (r.sync for r in mine)):
                for p in ps:
                    if select(mine, op=op, window=w, sync=s, p=p):
                        out.append((op, s, w, p))
    return out


def _floor(rows, op):
    return series(select(rows, backend="floor", op=op))


def _group(rows, key, variants, name):
    op, sync, window, p = key

    def pick(backend):
        return series(select(rows, backend=backend, op=op, sync=sync,
                             window=window, p=p))

    orma = pick("orma")
    fname = FLOOR_OF.get(window)
    floor = _floor(rows, fname) if fname else {}
    cols, ratios, lines = [], [], []
    if orma:
        cols.append(Value("orma", orma))
        lines.append(Line("orma", orma))
    if floor:
        cols.append(Value("floor %s" % fname, floor))
        lines.append(Line("floor %s" % fname, floor, reference=True))
    if orma and floor:
        ratios.append(Ratio("orma / %s" % fname, orma, floor))
    for v in variants:
        rma, om = pick("mpi-rma/" + v), pick("orma-mpi/" + v)
        p2p = series(select(rows, backend="mpi-p2p/" + v, op="sendrecv"))
        for label, s, ref in (("mpi-rma/" + v, rma, False),
                              ("orma-mpi/" + v, om, False),
                              ("mpi-p2p/" + v, p2p, True)):
            if s:
                cols.append(Value(label, s))
                lines.append(Line(label, s, reference=ref))
        if rma and om:
            ratios.append(Ratio("orma-mpi / mpi-rma (%s)" % v, om, rma))
    title = "%s / %s / %s%s: round trip, us" % (
        op, sync, window, "" if p in (2, None) else ", P = %d" % p)
    # The rows are the sizes this op was measured at, not the floor's.
    sizes = size_rows(*[ln.series for ln in lines if not ln.reference])
    out = [Table(title, ["bytes"], sizes, cols + ratios)]
    plot = SizePlot("%s round trip: %s / %s / %s" % (name, op, sync, window),
                    lines, "median round trip")
    if plot.worth():
        out.append(plot)
    return out


def _floors(rows, name):
    cols, lines = [], []
    for op in uniq([f for f in FLOORS] + [r.op for r in rows
                                          if r.backend == "floor"]):
        s = _floor(rows, op)
        if s:
            cols.append(Value(op, s))
            if op != "cacheline":
                lines.append(Line(op, s))
    if not cols:
        return []
    out = [Heading(3, "floors"),
           Text("What the machine does without orma (floor.h): cacheline "
                "and the same-pattern round trips xcopy and cma_rt are round "
                "trips, memcpy and cma one copy."),
           Table("floors, us", ["bytes"],
                 size_rows(*[c.series for c in cols]), cols)]
    plot = SizePlot("%s floors" % name, lines, "median time")
    if plot.worth():
        out.append(plot)
    return out


def _by_sync(rows):
    """The 8-byte round trips of orma by sync, x the cache-line floor."""
    cl = select(rows, backend="floor", op="cacheline", bytes=8)
    cl_us = cl[0].median_us if cl and cl[0].median_us else None
    mine = select(rows, backend="orma", bytes=8)
    syncs = _ordered(SYNCS, (r.sync for r in mine))
    keys = [(op, w) for op in uniq(r.op for r in mine)
            for w in _ordered(WINDOWS, (r.window for r in mine))
            if select(mine, op=op, window=w)]
    if not mine:
        return []
    cols = []
    for s in syncs:
        col = {k: r for k in keys
               for r in select(mine, op=k[0], window=k[1], sync=s)}
        cols.append(Value(s, col))
        if cl_us:
            cols.append(Ratio("× cl", col, {k: cl[0] for k in keys}))
    note = None
    if cl_us:
        note = ("× cl: the median over the cache-line round trip (the "
                "floor), %s us." % format_us(cl_us))
    return [Heading(3, "8 B round trips by sync"),
            Table("orma, 8 B round trip by sync, us", ["op", "window"],
                  [(k, list(k)) for k in keys], cols, note)]


def _bar_rows(rows):
    """The summary's bars: (what, value, bar, verdict)."""
    def find(backend, op, sync, window, n):
        got = select(rows, backend=backend, op=op, window=window, bytes=n,
                     sync=sync)
        return got[0] if got else None

    def cell(num, den, field="median_us"):
        v = ratio_of(num, den, field)
        if v is None:
            return None, None
        return v, "%.2f%s" % (v, " †" if num.run != den.run else "")

    out = []
    put8 = find("orma", "put", "fence", "allocate", 8)
    lock8 = find("orma", "put", "lock", "allocate", 8)
    cl = find("floor", "cacheline", None, None, 8)
    for tag, r, bar in (("(a) put+fence 8 B allocate / cacheline", put8, 3.0),
                        ("(d) lock+put+unlock 8 B allocate / cacheline",
                         lock8, 4.0)):
        v, text = cell(r, cl)
        if v is not None:
            out.append((tag, text, "<= %.1f" % bar,
                        "PASS" if v <= bar else "FAIL"))
    for tag, window, fop in (("(b)", "allocate", "memcpy"),
                             ("(c)", "create", "cma"),
                             ("(b')", "allocate", "xcopy"),
                             ("(c')", "create", "cma_rt")):
        for n in (MB, 4 * MB):
            v, text = cell(find("orma", "put", "fence", window, n),
                           find("floor", fop, None, None, n), "mbps")
            if v is not None:
                out.append(("%s put %s bandwidth %s / %s (MB/s)"
                            % (tag, format_size(n), window, fop),
                            text, ">= 0.8",
                            "PASS" if v >= 0.8 else "FAIL"))
    for op in ("put", "get"):
        got = [r for r in select(rows, backend="orma", op=op,
                                 window="allocate", bytes=8)
               if r.median_us is not None]
        if got:
            worst = max(got, key=lambda r: r.median_us)
            out.append(("(e) %s 8 B allocate, slowest sync (%s), us"
                        % (op, worst.sync), format_us(worst.median_us),
                        "< 1.0", "PASS" if worst.median_us < 1.0 else "FAIL"))
    return out


def _mpi_summary(rows, variants, name):
    out = []
    for v in variants:
        rma_rows = [r for r in rows if r.backend == "mpi-rma/" + v]
        cells, slower = [], []
        for r in rma_rows:
            om = select(rows, backend="orma-mpi/" + v, op=r.op, sync=r.sync,
                        window=r.window, bytes=r.bytes, p=r.p)
            x = ratio_of(om[0] if om else None, r)
            if x is not None:
                cells.append(((r.op, r.sync, r.window), r.bytes, x))
                if x > 1.0:
                    slower.append((x, "%s/%s/%s %s" % (
                        r.op, r.sync, r.window, format_size(r.bytes))))
        if not cells:
            continue
        slower.sort(key=lambda s: -s[0])
        listed = ", ".join("%s (%s)" % (w, format_ratio(x))
                           for x, w in slower[:SLOWER_SHOWN])
        if len(slower) > SLOWER_SHOWN:
            listed += " and %d more" % (len(slower) - SLOWER_SHOWN)
        out.append(Text(
            "**orma-mpi never slower than mpi-rma (%s)**: %s of %d points%s"
            % (v, "PASS, slower in none" if not slower else
               "FAIL, slower in %d" % len(slower), len(cells),
               "" if not slower else "; the slowest: " + listed)))
        rk = uniq(c[0] for c in cells)
        ck = sorted(uniq(c[1] for c in cells))
        vals = [[next((c[2] for c in cells if c[0] == r and c[1] == b), None)
                 for b in ck] for r in rk]
        out.append(HeatMap("%s: orma-mpi / mpi-rma (%s), median round trip"
                           % (name, v), [" / ".join(r) for r in rk],
                           [format_size(b) for b in ck], vals,
                           "orma-mpi / mpi-rma"))
    return out


def _floor_heat(rows, groups, name):
    rk, cells = [], {}
    for op, sync, window, p in groups:
        fname = FLOOR_OF.get(window)
        if fname is None:
            continue
        fl = _floor(rows, fname)
        for r in select(rows, backend="orma", op=op, sync=sync,
                        window=window, p=p):
            x = ratio_of(r, fl.get(r.bytes))
            if x is not None:
                if (op, sync, window) not in rk:
                    rk.append((op, sync, window))
                cells[(op, sync, window), r.bytes] = x
    if not cells:
        return []
    ck = sorted(uniq(b for _, b in cells))
    vals = [[cells.get((r, b)) for b in ck] for r in rk]
    return [HeatMap("%s: orma / same-pattern floor (xcopy, or cma_rt on "
                    "create and dynamic)" % name,
                    [" / ".join(r) for r in rk],
                    [format_size(b) for b in ck], vals, "orma / floor")]


def blocks(name, rows):
    variants = _variants(rows)
    groups = _groups(rows)
    out = [Text("Round trips of 2 ranks: rank 0 moves n bytes to rank 1 "
                "and back (bench/README.md).  Per op, sync and window, "
                "every backend beside the same-pattern floor of the window; "
                "mpi-p2p is MPI_Send/MPI_Recv, the same in every table.")]
    bars = _bar_rows(rows)
    summary = []
    if bars:
        cross = any("†" in b[1] for b in bars)
        summary.append(Listing("the suite's bars (ratios of medians, "
                               "as its summary prints them)",
                               ["what", "value", "bar", "verdict"],
                               [list(b) for b in bars],
                               "† the two sides of the ratio come from "
                               "different runs." if cross else None))
    summary += _mpi_summary(rows, variants, name)
    summary += _floor_heat(rows, groups, name)
    if summary:
        out += [Heading(3, "summary")] + summary
    out += _by_sync(rows)
    if groups:
        out.append(Heading(3, "round trips by op, sync and window"))
    for key in groups:
        out += _group(rows, key, variants, name)
    out += _floors(rows, name)
    return out
