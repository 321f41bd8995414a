"""The report's part for the race suite (bench/README.md, race): the ghost
exchange's and the pingpong round trips' time on windows checked for races
(info orma_check_race=true, backend orma-race) beside the same on
unchecked windows (backend orma), paired in one run, and the issue's bar
-- checked at most 3x unchecked at 16 B - 64 KB -- here from the medians
(the run's own summary takes the median of each round's ratio, batches
milliseconds apart)."""

from blocks import Ratio, SizePlot, Line, Table, Text, Value, format_ratio
from results import format_size, select, series, uniq

BAR = 3.0
BAR_MIN, BAR_MAX = 16, 65536
OFF, ON = "orma", "orma-race"


def _part(rows, op, p):
    """A table by size of each sync's unchecked and checked times and
    their ratio, a plot, and the part's bar from the medians."""
    out = []
    syncs = uniq(r.sync for r in rows)
    what = "step" if op == "ghost" else "round trip"
    title = "ghost" if op == "ghost" else "pingpong %s" % op
    cols, lines, worst = [], [], None
    for s in syncs:
        off = series(select(rows, backend=OFF, sync=s))
        on = series(select(rows, backend=ON, sync=s))
        cols += [Value("%s unchecked" % s, off), Value("%s checked" % s, on),
                 Ratio("%s checked / unchecked" % s, on, off)]
        lines += [Line("%s unchecked" % s, off), Line("%s checked" % s, on)]
        for b, r in on.items():
            if b is None or not BAR_MIN <= b <= BAR_MAX or b not in off:
                continue
            if r.median_us is None or not off[b].median_us:
                continue
            v = r.median_us / off[b].median_us
            if worst is None or v > worst[0]:
                worst = (v, "%s at %s" % (s, format_size(b)))
    sizes = set()
    for r in rows:
        sizes.add(r.bytes)
    keys = [(b, [format_size(b)])
            for b in sorted(sizes, key=lambda b: -1 if b is None else b)]
    out.append(Table("%s, p=%d: us per %s on unchecked and checked windows, "
                     "and checked / unchecked" % (title, p, what), ["bytes"],
                     keys, cols))
    plot = SizePlot("race %s p=%d" % (title, p), lines,
                    "median time per %s" % what)
    if plot.worth():
        out.append(plot)
    if worst is not None:
        out.append(Text("bar race %s, p=%d: checked / unchecked <= %s at "
                        "16 B - 64 KB (medians), highest %s (%s): %s"
                        % (title, p, format_ratio(BAR), format_ratio(worst[0]),
                           worst[1], "PASS" if worst[0] <= BAR else "FAIL")))
    return out


def blocks(name, rows):
    out = [Text("The race checker's cost: orma's ghost exchange (fence, "
                "pscw, lock, notify) and pingpong round trips (put, get in "
                "every mode) on windows made with orma_check_race=true "
                "(checked) beside the same on windows without it "
                "(unchecked), batches of either alternating round by round "
                "in one run.  The run's own summary gives the median of the "
                "rounds' ratios; here ratios of medians.")]
    for op in uniq(r.op for r in rows):
        mine = select(rows, op=op)
        for p in sorted(uniq(r.p for r in mine if r.p is not None)):
            out.extend(_part(select(mine, p=p), op, p))
    return out
