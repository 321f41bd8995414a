"""The report's part for the rdx suite (seed 003's parallel radix sort;
rdx_summary.c prints the same tables): per rank count P and key count n,
the time of one sort of every backend in each version (put, put_opt,
send), its speedup over the sequential sort of the same n (backend seq,
P = 1, as the seed's Figs. 2 and 3), and each one-sided backend's put over
the send of mpi-p2p on the same host MPI (orma, on none, over each host's);
bars of the speedups per P.  bytes holds the key count here."""

from blocks import (Bars, Computed, Ratio, Table, Text, Value, format_ratio,
                    ratio_of)
from results import format_size, select, uniq

VERSIONS = ("put", "put_opt", "send")


def _variant(backend):
    return backend.split("/", 1)[1] if "/" in backend else None


def _p2p_of(backend, sends):
    """The mpi-p2p backends whose send a one-sided backend is compared
    with: the same host MPI's, or every one for orma."""
    if backend.startswith("mpi-p2p"):
        return []
    v = _variant(backend)
    return [b for b in sends if v is None or _variant(b) == v]


def _one_over_two(put, sends):
    """A column's cells: put over each matching send, the host named when
    a backend on no host (orma) has several."""
    def cell(b):
        parts = []
        for q in _p2p_of(b, sends):
            x = ratio_of(put.get(b), sends[q])
            if x is None:
                continue
            named = _variant(b) is None and len(sends) > 1
            parts.append("%s (%s)" % (format_ratio(x), _variant(q))
                         if named else format_ratio(x))
        return ", ".join(parts) or "-"
    return cell


def blocks(name, rows):
    seq = {r.bytes: r for r in select(rows, backend="seq")}
    par = [r for r in rows if r.backend != "seq"]
    out = [Text("One sort of n 32-bit keys (bytes = n), the slowest rank's "
                "time, us; speedup: the sequential sort of the same n "
                "(seq, P = 1) over it; put / p2p send: a one-sided "
                "version over mpi-p2p's send on the same host MPI, below 1 "
                "when one-sided is faster (bench/README.md, rdx).")]
    for p in sorted(uniq(r.p for r in par), key=lambda p: p or 0):
        mine = select(par, p=p)
        sizes = sorted(uniq(r.bytes for r in mine),
                       key=lambda b: -1 if b is None else b)
        groups = {}
        for n in sizes:
            at = select(mine, bytes=n)
            backends = uniq(r.backend for r in at)
            cols = {v: {r.backend: r for r in select(at, op=v)}
                    for v in VERSIONS}
            s = seq.get(n)
            base = {b: s for b in backends} if s is not None else {}
            sends = {b: r for b, r in cols["send"].items()
                     if b.startswith("mpi-p2p")}
            columns = [Value(v, cols[v]) for v in VERSIONS]
            columns += [Ratio("speedup %s" % v, base, cols[v])
                        for v in VERSIONS]
            columns += [Computed("put / p2p send",
                                 _one_over_two(cols["put"], sends)),
                        Computed("put_opt / p2p send",
                                 _one_over_two(cols["put_opt"], sends))]
            note = None
            if s is not None:
                note = "seq (P = 1): %s us" % Value("seq", {0: s}).cell(0)
            out.append(Table("P = %s, n = %s keys: one sort, us"
                             % (p, format_size(n)), ["backend"],
                             [(b, [b]) for b in backends], columns, note))
            for v in VERSIONS:
                for b, r in cols[v].items():
                    groups.setdefault((b, v), {})[n] = ratio_of(s, r)
        # A backend's versions side by side.
        order = [(b, v) for b in uniq(r.backend for r in mine)
                 for v in VERSIONS if (b, v) in groups]
        if seq and groups:
            out.append(Bars("%s: P = %s, speedup over the sequential sort"
                            % (name, p),
                            ["n = %s" % format_size(n) for n in sizes],
                            [("%s %s" % g, [groups[g].get(n) for n in sizes])
                             for g in order],
                            "speedup (seq / parallel)", bar=1.0,
                            ratios=True, bar_label="1: as fast as seq"))
    return out
