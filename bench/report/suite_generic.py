"""The report's part for a suite it does not know: per group of rows that
share every field but backend and bytes (op, sync, window, p and any other
string field), the backends side by side with their ratio to a baseline
backend (orma when there, else the first one met), a plot when the group
has several sizes; the groups of one size together in one table."""

from blocks import Bars, Line, Ratio, SizePlot, Table, Text, Value, size_rows
from results import format_size, uniq


def _group_key(r):
    return (r.op, r.sync, r.window, r.p) + tuple(sorted(r.extra.items()))


def _label(key):
    op, sync, window, p = key[:4]
    extra = ["%s=%s" % kv for kv in key[4:]]
    return " / ".join([op, sync, window, "P = %s" % p] + extra)


def _numbers(rows):
    """The unknown numeric fields of rows, in the order met."""
    return uniq(k for r in rows for k in r.numbers)


def blocks(name, rows):
    backends = uniq(r.backend for r in rows)
    base = "orma" if "orma" in backends else backends[0]
    groups = uniq(_group_key(r) for r in rows)
    by_group = {g: [r for r in rows if _group_key(r) == g] for g in groups}
    multi = [g for g in groups if len(uniq(r.bytes for r in by_group[g])) > 1]
    single = [g for g in groups if g not in multi]
    out = [Text("A suite this report does not know: its rows grouped by "
                "every field but backend and bytes%s." %
                ("; ratios against %s" % base if len(backends) > 1 else ""))]
    for g in multi:
        mine = by_group[g]
        cols, lines = [], []
        per = {b: {r.bytes: r for r in mine if r.backend == b}
               for b in backends}
        per = {b: s for b, s in per.items() if s}
        for b, s in per.items():
            cols.append(Value(b, s))
            lines.append(Line(b, s))
        if len(per) == 1:
            s = next(iter(per.values()))
            cols.append(Value("MB/s", s, "mbps"))
            cols.append(Value("reps", s, "reps"))
            cols += [Value(k, s, k) for k in _numbers(mine)]
        cols += [Ratio("%s / %s" % (b, base), s, per[base])
                 for b, s in per.items() if b != base and base in per]
        out.append(Table("%s, us" % _label(g), ["bytes"],
                         size_rows(*per.values()), cols))
        plot = SizePlot("%s: %s" % (name, _label(g)), lines)
        if plot.worth():
            out.append(plot)
    if single:
        cols = []
        keyed = {b: {_group_key(r): r for g in single for r in by_group[g]
                     if r.backend == b} for b in backends}
        keyed = {b: s for b, s in keyed.items() if s}
        for b, s in keyed.items():
            cols.append(Value(b, s))
        if len(keyed) == 1:
            s = next(iter(keyed.values()))
            cols.append(Value("MB/s", s, "mbps"))
            cols += [Value(k, s, k)
                     for k in _numbers([r for g in single
                                        for r in by_group[g]])]
        cols += [Ratio("%s / %s" % (b, base), s, keyed[base])
                 for b, s in keyed.items() if b != base and base in keyed]
        sizes = {g: by_group[g][0].bytes for g in single}
        out.append(Table("%s: one size per row, us" % name,
                         ["group", "bytes"],
                         [(g, [_label(g), format_size(sizes[g])])
                          for g in single], cols))
        out.append(Bars("%s: medians" % name,
                        [_label(g) if sizes[g] is None else
                         "%s %s" % (_label(g), format_size(sizes[g]))
                         for g in single],
                        [(b, [s.get(g) for g in single])
                         for b, s in keyed.items()],
                        "median time (us)"))
    return out
