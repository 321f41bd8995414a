"""The report's part for the dynamic suite (bench/README.md, dynamic):
seed 000's Table 1 (time to spawn 1-4 ranks) and the time to connect and
accept, by backend; then its Figure 1 for one-sided communication, put and
get between two ranks of a static, a spawned and a connected team, each
kind's time over the static team's (paired batches)."""

from blocks import Line, Ratio, SizePlot, Table, Text, Value, size_rows
from results import select, uniq

KINDS = ("static", "spawned", "connected")


def _calls(rows):
    out = []
    spawn = select(rows, op="spawn")
    if spawn:
        backends = uniq(r.backend for r in spawn)
        series = {b: {r.bytes: r for r in select(spawn, backend=b)}
                  for b in backends}
        keys = size_rows(*series.values())
        out.append(Table("Time to spawn k ranks (the bytes column holds k), "
                         "us per call", ["k"], keys,
                         [Value(b, series[b]) for b in backends] +
                         [Ratio("%s / %s" % (b, backends[0]), series[b],
                                series[backends[0]])
                          for b in backends[1:]]))
    conn = select(rows, op="connect_accept")
    if conn:
        backends = uniq(r.backend for r in conn)
        series = {b: {0: select(conn, backend=b)[0]} for b in backends}
        out.append(Table("Time to connect and accept, us per pair of calls",
                         ["what"], [(0, ["connect + accept"])],
                         [Value(b, series[b]) for b in backends]))
    return out


def _pairs(rows):
    out = []
    for backend in uniq(r.backend for r in rows):
        mine = [r for r in select(rows, backend=backend)
                if r.window in KINDS]
        for op, sync in uniq((r.op, r.sync) for r in mine):
            at = select(mine, op=op, sync=sync)
            series = {k: {r.bytes: r for r in select(at, window=k)}
                      for k in KINDS if select(at, window=k)}
            if "static" not in series:
                continue
            keys = size_rows(*series.values())
            kinds = [k for k in KINDS if k in series]
            out.append(Table("%s: %s (%s) between two ranks; us per "
                             "operation, and each team's time over the "
                             "static one's" % (backend, op, sync), ["bytes"],
                             keys,
                             [Value(k, series[k]) for k in kinds] +
                             [Ratio("%s / static" % k, series[k],
                                    series["static"]) for k in kinds[1:]]))
            out.append(SizePlot("dynamic %s %s %s" % (backend, op, sync),
                                [Line(k, series[k]) for k in kinds],
                                "median time per operation"))
    return out


def blocks(name, rows):
    return [Text("Dynamic processes (seed 000): spawning, connecting, and "
                 "one-sided communication over teams of spawned and "
                 "connected jobs beside a static one, the kinds taking "
                 "turns batch by batch.")] + _calls(rows) + _pairs(rows)
