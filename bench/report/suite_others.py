"""The report's part for the sync, overlap, atomics and ddt suites: the
tables their summaries print (sync_suite.c, overlap.c, atomics_summary.c,
ddt_summary.c; the bars here must follow theirs), with min–max, and their
plots."""

from blocks import (Bars, Computed, Line, Ratio, SizePlot, Table, Text, Value,
                    ratio_of, size_rows)
from results import format_size, format_us, select, series, uniq


def _keyed(rows, key):
    return {key(r): r for r in rows}


# sync: rows (op, sync), one column per rank count, and each mode over the
# barrier of the same rank count.
def sync_blocks(name, rows):
    keys = uniq((r.op, r.sync) for r in rows)
    cols, bars = [], []
    for p in sorted(uniq(r.p for r in rows), key=lambda p: p or 0):
        col = _keyed(select(rows, p=p), lambda r: (r.op, r.sync))
        barrier = select(rows, p=p, op="barrier")
        cols.append(Value("P = %s" % p, col))
        if barrier:
            b = barrier[0]
            cols.append(Ratio("P = %s × barrier" % p, col,
                              {k: b for k in keys}))
        bars.append(("P = %s" % p, [col.get(k) for k in keys]))
    return [Text("The cost of an empty epoch of each mode on an allocate "
                 "window, the slowest rank's, per rank count P; the barrier "
                 "is the reference (bench/README.md, sync)."),
            Table("empty epoch, us", ["op", "sync"],
                  [(k, list(k)) for k in keys], cols),
            Bars("%s: empty epoch by mode and rank count" % name,
                 ["%s %s" % k if k[0] != "epoch" else k[1] for k in keys],
                 bars, "median time per epoch (us)")]


# overlap: per window, busy (op) against idle (op_idle).
OVERLAP_BAR_US = 2.0


def overlap_blocks(name, rows):
    out = [Text("Passive-target accesses (lock + 8 B + unlock) while rank 1 "
                "computes (busy) and while it sleeps (idle); self is the "
                "control on rank 0's own window.  Bar: busy − idle <= "
                "+%.1f us for put and get." % OVERLAP_BAR_US)]
    for w in uniq(r.window for r in rows):
        mine = select(rows, window=w)
        ops = uniq(r.op for r in mine if not r.op.endswith("_idle"))
        busy = _keyed(mine, lambda r: r.op)
        idle = {op: busy.get(op + "_idle") for op in ops}

        def delta(op, busy=busy, idle=idle):
            b, i = busy.get(op), idle.get(op)
            if b is None or i is None or None in (b.median_us, i.median_us):
                return "-"
            return "%+.3f" % (b.median_us - i.median_us)

        def verdict(op, busy=busy, idle=idle):
            b, i = busy.get(op), idle.get(op)
            if op == "self" or b is None or i is None or \
                    None in (b.median_us, i.median_us):
                return "control" if op == "self" else "-"
            ok = b.median_us - i.median_us <= OVERLAP_BAR_US
            return "PASS" if ok else "FAIL"

        out.append(Table("%s: target busy / target asleep, us" % w, ["op"],
                         [(op, [op]) for op in ops],
                         [Value("busy", busy), Value("idle", idle),
                          Ratio("busy / idle", busy, idle),
                          Computed("busy − idle", delta),
                          Computed("bar", verdict)]))
        out.append(Bars("%s: %s, target busy and asleep" % (name, w), ops,
                        [("busy", [busy.get(op) for op in ops]),
                         ("idle", [idle.get(op) for op in ops])],
                        "median access time (us)"))
    return out


# atomics: the 8-byte latencies per window, acc per size beside memcpy.
FOP_BAR_US = 0.5


def atomics_blocks(name, rows):
    orma = select(rows, backend="orma")
    windows = uniq(r.window for r in orma)
    lat = [r for r in orma if r.op != "acc"]
    keys = uniq((r.op, r.sync) for r in lat)
    out = [Text("The accumulate family on rank 1's window, issued by rank 0 "
                "(fop_cont: by every rank, to rank 0): latency of one call "
                "with its synchronization, and accumulate bandwidth "
                "(bench/README.md, atomics).")]
    if keys:
        cols = [Value(w, _keyed(select(lat, window=w),
                                lambda r: (r.op, r.sync))) for w in windows]
        fop = [r for r in lat if (r.op, r.sync) == ("fop", "flush")]
        note = None
        if fop and all(r.p == 2 for r in fop):
            note = ("Bar: fop with lock_all + flush below %.1f us at 2 "
                    "ranks: %s." % (FOP_BAR_US, ", ".join(
                        "%s %s us %s" % (r.window, format_us(r.median_us),
                                         "PASS" if r.median_us is not None and
                                         r.median_us < FOP_BAR_US else "FAIL")
                        for r in fop)))
        out.append(Table("atomics latency, us (8 B)", ["op", "sync"],
                         [(k, list(k)) for k in keys], cols, note))
        out.append(Bars("%s: latency of one call" % name,
                        ["%s %s" % k for k in keys],
                        [(w, [c.series.get(k) for k in keys])
                         for w, c in zip(windows, cols)],
                        "median time per call (us)"))
    memcpy = series(select(rows, backend="floor", op="memcpy"))
    for w in windows:
        ex = series(select(orma, op="acc", sync="lock_ex", window=w))
        sh = series(select(orma, op="acc", sync="lock_sh", window=w))
        if not ex and not sh:
            continue
        out.append(Table(
            "acc (SUM of doubles) on %s: one call and its lock, us" % w,
            ["bytes"], size_rows(ex, sh),
            [Value("lock_ex", ex), Value("lock_sh", sh),
             Value("memcpy", memcpy), Ratio("lock_ex / memcpy (MB/s)", ex,
                                            memcpy, "mbps"),
             Ratio("lock_sh / lock_ex (MB/s)", sh, ex, "mbps")]))
        plot = SizePlot("%s: acc on %s" % (name, w),
                        [Line("acc lock_ex", ex), Line("acc lock_sh", sh),
                         Line("floor memcpy", memcpy, reference=True)],
                        "median time per call")
        if plot.worth():
            out.append(plot)
    return out


# ddt: per window, pattern and size, the three ways and their ratios.
DDT_SPEEDUP, DDT_CONTIG, DDT_MIN_BYTES = 1.5, 1.5, 4096
# Not vector-like (ddt_pat_*.c): the typed_put / contig_put bar does not
# apply to them.
DDT_IRREGULAR = ("LAMMPS_full", "LAMMPS_atomic", "SPECFEM3D_oc",
                 "SPECFEM3D_cm")
DDT_OPS = ("typed_put", "pack_put_unpack", "contig_put")


def ddt_blocks(name, rows):
    out = [Text("DDTBench's layouts moved from rank 0 to rank 1 three ways, "
                "each followed by a flag round trip (bench/README.md, ddt).  "
                "Bars: pack / typed >= %.1f with at least 4K of data, typed / "
                "contig <= %.1f on the vector-like patterns (-- where a bar "
                "does not apply)." % (DDT_SPEEDUP, DDT_CONTIG))]
    for w in uniq(r.window for r in rows):
        mine = select(rows, window=w)
        keys = uniq((r.get("pattern") or "-", r.bytes) for r in mine)
        cols = {op: _keyed(select(mine, op=op),
                           lambda r: (r.get("pattern") or "-", r.bytes))
                for op in uniq(list(DDT_OPS) + [r.op for r in mine])}
        t, p, c = (cols.get(op, {}) for op in DDT_OPS)

        def bar_pack(k, t=t, p=p):
            x = ratio_of(p.get(k), t.get(k))
            if x is None:
                return "-"
            if k[1] is None or k[1] < DDT_MIN_BYTES:
                return "--"
            return "PASS" if x >= DDT_SPEEDUP else "FAIL"

        def bar_contig(k, t=t, c=c):
            x = ratio_of(t.get(k), c.get(k))
            if x is None:
                return "-"
            if k[0] in DDT_IRREGULAR:
                return "--"
            return "PASS" if x <= DDT_CONTIG else "FAIL"

        out.append(Table(
            "%s: one transfer and its notification, us" % w,
            ["pattern", "bytes"],
            [(k, [k[0], format_size(k[1])]) for k in keys],
            [Value(op, s) for op, s in cols.items()] +
            [Ratio("pack / typed", p, t), Computed("bar (pack)", bar_pack),
             Ratio("typed / contig", t, c),
             Computed("bar (contig)", bar_contig)]))
        labels = ["%s %s" % (k[0], format_size(k[1])) for k in keys]
        out.append(Bars("%s: %s, medians" % (name, w), labels,
                        [(op, [s.get(k) for k in keys])
                         for op, s in cols.items()],
                        "median time (us)"))
        out.append(Bars("%s: %s, ratios of medians" % (name, w), labels,
                        [("pack / typed", [ratio_of(p.get(k), t.get(k))
                                           for k in keys]),
                         ("typed / contig", [ratio_of(t.get(k), c.get(k))
                                             for k in keys])],
                        "ratio of medians", bar=DDT_SPEEDUP, ratios=True,
                        bar_label="bar %g (pack / typed above, typed / "
                        "contig below)" % DDT_SPEEDUP))
    return out
