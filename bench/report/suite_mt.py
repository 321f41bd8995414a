"""The report's part for the mt suite (bench/README.md, mt): the message
rate of 8-byte put, get and fetch_and_op + flush from T threads of one
origin, per op and window mode, every backend side by side in Mops/s, with
rate(T) / rate(1) per backend and orma's rate over each other backend's."""

from blocks import Computed, Table, Text, format_ratio
from results import select, uniq

MODES = ("sep", "shared")
OPS = ("put", "get", "fop")


def _threads(r):
    """The T of a row (its pattern column: "t2"), or None."""
    t = r.extra.get("pattern", "")
    return int(t[1:]) if t[:1] == "t" and t[1:].isdigit() else None


def _rate(r):
    """Mops/s: median (min–max), the fastest batch from the shortest
    time; three significant digits (a host MPI whose passive operations
    wait for the target's calls makes well under 0.01)."""
    if r is None or not r.median_us:
        return "-"
    cell = "%.3g" % (1.0 / r.median_us)
    if r.min_us and r.max_us:
        cell += " (%.3g–%.3g)" % (1.0 / r.max_us, 1.0 / r.min_us)
    return cell


def _over(num, den):
    """rate(num) / rate(den) of two rows, from their medians."""
    if num is None or den is None or not num.median_us or not den.median_us:
        return "-"
    cross = " †" if num.run != den.run else ""
    return format_ratio(den.median_us / num.median_us) + cross


def _table(rows, op, mode):
    at = select(rows, op=op, window=mode)
    if not at:
        return []
    backends = uniq(r.backend for r in at)
    series = {b: {_threads(r): r for r in select(at, backend=b)}
              for b in backends}
    threads = sorted({t for s in series.values() for t in s if t})
    keys = [(t, ["%d" % t]) for t in threads]
    cols = [Computed(b + " Mops/s", lambda t, b=b: _rate(series[b].get(t)))
            for b in backends]
    cols += [Computed("%s T/1" % b,
                      lambda t, b=b: _over(series[b].get(t),
                                           series[b].get(1)) if t != 1
                      else "-")
             for b in backends]
    if "orma" in series:
        cols += [Computed("orma / " + b,
                          lambda t, b=b: _over(series["orma"].get(t),
                                               series[b].get(t)))
                 for b in backends if b != "orma"]
    table = Table("%s + flush, window %s: message rate by thread count T"
                  % (op, mode), ["T"], keys, cols)
    # Computed columns never make a row worth showing alone: keep all.
    table.rows = keys
    table.columns = [c for c in cols
                     if any(c.cell(k) != "-" for k, _ in keys)]
    return [table]


def blocks(name, rows):
    out = [Text("Message rate of 8-byte one-sided operations, each "
                "followed by a flush, from T threads of rank 0 to rank 1, "
                "a passive target asleep meanwhile: sep, one window per "
                "thread; shared, one window under one lock_all epoch.  "
                "Rates in Mops/s, median (min–max) over the rounds; ratios "
                "of the medians (the run's own output gives rate(T) / "
                "rate(1) as the median of each round's ratio).")]
    for op in OPS + tuple(o for o in uniq(r.op for r in rows)
                          if o not in OPS):
        for mode in MODES:
            out.extend(_table(rows, op, mode))
    return out
