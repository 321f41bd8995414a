"""The report's part for the notify suite (bench/README.md, notify): orma's
notified put against the patterns it replaces and against MPI's messages
-- the one-way 8-byte latency beside the cache-line round trip, the
producer-consumer pipeline's time per item, the ghost exchange's time per
step at each rank count -- with orma notify's ratio to every other backend
and the issue's bars, here from the medians (the run's own summary takes
the median of each round's ratio, batches milliseconds apart)."""

from blocks import (Line, Ratio, SizePlot, Table, Text, Value, format_ratio,
                    size_rows)
from results import format_size, select, series, uniq

BAR_FLOOR = 2.0        # one-way notified 8 B / cache-line round trip
BAR_GHOST_P2P = 0.6    # notify step / the fastest host's isend/irecv step
BAR_GHOST_MAX = 1024   # the ghost bars look at 16 B - 1 KB


def _name(r):
    return r.backend if r.backend == "floor" else "%s %s" % (r.backend,
                                                            r.sync)


def _groups(rows):
    """(backend, sync) -> {bytes: row}, in the order met."""
    keys = uniq((r.backend, r.sync) for r in rows)
    return {k: series(select(rows, backend=k[0], sync=k[1])) for k in keys}


def _verdict(what, value, bar, below=False):
    ok = value < bar if below else value <= bar
    return Text("bar %s: %.3f %s %s: %s" % (what, value,
                                           "<" if below else "<=",
                                           format_ratio(bar),
                                           "PASS" if ok else "FAIL"))


def _pingpong(rows):
    pp = [r for r in select(rows, op="pingpong") if r.bytes == 8]
    if not pp:
        return []
    floor = select(pp, backend="floor")
    keys = uniq((r.backend, r.sync) for r in pp)
    by = {k: select(pp, backend=k[0], sync=k[1])[0] for k in keys}
    den = {k: floor[0] for k in keys if k[0] != "floor"} if floor else {}
    out = [Table("pingpong, 8 B: one-way us (the floor: the cache-line "
                 "round trip), and / the floor", ["backend", "sync"],
                 [(k, [k[0], k[1]]) for k in keys],
                 [Value("us", by), Ratio("/ floor", by, den)])]
    notify = by.get(("orma", "notify"))
    if notify is not None and floor:
        out.append(_verdict("pingpong: orma notify one-way / cache-line "
                            "round trip (medians)",
                            notify.median_us / floor[0].median_us,
                            BAR_FLOOR))
    return out


def _by_size(title, what, rows):
    """A table by size of every (backend, sync), then orma notify over
    each, and a plot."""
    groups = _groups(rows)
    notify = groups.get(("orma", "notify"))
    cols = [Value("%s %s" % k if k[0] != "floor" else k[0], s)
            for k, s in groups.items()]
    if notify is not None:
        cols += [Ratio("notify / %s %s" % k, notify, s)
                 for k, s in groups.items() if k != ("orma", "notify")]
    out = [Table("%s: us per %s, and orma notify / each (below 1: notify "
                 "faster)" % (title, what), ["bytes"],
                 size_rows(*groups.values()), cols)]
    plot = SizePlot("notify %s" % title,
                    [Line("%s %s" % k, s, reference=k[0].startswith("mpi-p2p"))
                     for k, s in groups.items()], "median time per %s" % what)
    if plot.worth():
        out.append(plot)
    return out


def _ghost_bars(rows, p):
    groups = _groups(rows)
    notify = groups.get(("orma", "notify"))
    if notify is None:
        return []
    small = [b for b in notify if b is not None and b <= BAR_GHOST_MAX]
    out = []
    p2p = [s for k, s in groups.items() if k[0].startswith("mpi-p2p/")]
    worst = None
    for b in small:
        hosts = [s[b] for s in p2p if b in s]
        if hosts:
            fastest = min(hosts, key=lambda r: r.median_us)
            v = notify[b].median_us / fastest.median_us
            if worst is None or v > worst[0]:
                worst = (v, "%s at %s" % (fastest.backend, format_size(b)))
    if worst is not None:
        out.append(_verdict("ghost p2p, p=%d: orma notify step / the fastest "
                            "host MPI's isend/irecv, 16 B - 1 KB, highest "
                            "(%s)" % (p, worst[1]), worst[0], BAR_GHOST_P2P))
    worst = None
    for k, s in groups.items():
        if k[0] != "orma" or k[1] == "notify":
            continue
        for b in small:
            if b in s:
                v = notify[b].median_us / s[b].median_us
                if worst is None or v > worst[0]:
                    worst = (v, "/ %s at %s" % (k[1], format_size(b)))
    if worst is not None:
        out.append(_verdict("ghost modes, p=%d: orma notify step / orma's "
                            "other versions, 16 B - 1 KB, highest (%s)"
                            % (p, worst[1]), worst[0], 1.0, below=True))
    return out


def blocks(name, rows):
    out = [Text("orma_put_notify against put + flush + flag (orma's, the "
                "host MPI's one-sided calls) and MPI's send/recv; every "
                "backend's batches alternate round by round, in one run.  "
                "pingpong: one-way = half an 8-byte round trip; pipeline: "
                "items through a ring of 8 slots, a credit back per item; "
                "ghost: seed 004's exchange with orma's versions and the "
                "host MPIs' isend/irecv.")]
    out.extend(_pingpong(rows))
    pipe = select(rows, op="pipeline")
    if pipe:
        out.extend(_by_size("pipeline", "item", pipe))
    ghost = select(rows, op="ghost")
    for p in sorted(uniq(r.p for r in ghost if r.p is not None)):
        mine = select(ghost, p=p)
        out.extend(_by_size("ghost, p=%d" % p, "step", mine))
        out.extend(_ghost_bars(mine, p))
    rest = [r for r in rows if r.op not in ("pingpong", "pipeline", "ghost")]
    if rest:
        out.append(Text("(%d rows of other ops not shown)" % len(rest)))
    return out
