"""The report's part for the multiput suite: the tables its summary prints
(multiput_summary.c) with min–max -- per sync mode and window, each
backend's time per epoch of one put of S (put1) and time(put<k>) /
time(put1) per size; orma over mpi-rma of each host MPI at the smallest and
largest k; the one-way send/recv of S (mpi-p2p) -- and the seed's Fig. 11
as plots: time and bandwidth against S with one curve per k, for orma in
every mode and window, and for every backend in pscw (the seed's mode)."""

from blocks import Line, Ratio, SizePlot, Table, Text, Value, size_rows
from results import format_size, select, series, uniq


def _k(op):
    """k of op put<k>, or None."""
    return int(op[3:]) if op.startswith("put") and op[3:].isdigit() else None


def _ratio_table(sync, window, mine, ops, backends):
    base = ops[0]
    keyed = {op: {(r.backend, r.bytes): r for r in mine if r.op == op}
             for op in ops}
    rows = [((b, n), [b, format_size(n)]) for b in backends
            for n in sorted(uniq(r.bytes for r in mine if r.backend == b))]
    cols = [Value("%s, us" % base, keyed[base])]
    cols += [Ratio("%s / %s" % (op, base), keyed[op], keyed[base])
             for op in ops[1:]]
    if len(ops) > 1:
        cols.append(Value("%s, us" % ops[-1], keyed[ops[-1]]))
    return Table("%s / %s: time per epoch, and time(put<k>) / time(%s)"
                 % (sync, window, base), ["backend", "bytes"], rows, cols)


def _versus_table(one, ops):
    """orma / mpi-rma/<variant> at the smallest and the largest k."""
    rma = [b for b in uniq(r.backend for r in one)
           if b.startswith("mpi-rma/")]
    if not rma or not select(one, backend="orma"):
        return None

    def keyed(backend, op):
        return {(r.sync, r.window, r.bytes): r
                for r in select(one, backend=backend, op=op)}

    syncs = uniq(r.sync for r in one)
    windows = uniq(r.window for r in one)
    keys = sorted(uniq((r.sync, r.window, r.bytes) for r in one),
                  key=lambda k: (syncs.index(k[0]), windows.index(k[1]),
                                 k[2] or 0))
    cols = []
    for op in uniq([ops[0], ops[-1]]):
        orma = keyed("orma", op)
        cols.append(Value("orma %s" % op, orma))
        for b in rma:
            cols.append(Value("%s %s" % (b, op), keyed(b, op)))
            cols.append(Ratio("orma / %s %s" % (b, op), orma, keyed(b, op)))
    return Table("orma and mpi-rma side by side, us per epoch (below 1: "
                 "orma faster)", ["sync", "window", "bytes"],
                 [(k, [k[0], k[1], format_size(k[2])]) for k in keys], cols)


def blocks(name, rows):
    one = [r for r in rows if _k(r.op) is not None]
    ops = sorted(uniq(r.op for r in one), key=_k)
    backends = uniq(r.backend for r in one)
    out = [Text("One buffer of S bytes from rank 0 to rank 1's window as k "
                "puts of S/k adjacent bytes in one epoch (op put<k>; the "
                "last put takes the rest), against one put of S: does the "
                "library merge them?  Time per epoch on rank 0, fence and "
                "pscw both ways in turn over 2 (bench/README.md, "
                "multiput).")]
    for sync in uniq(r.sync for r in one):
        for window in uniq(r.window for r in one if r.sync == sync):
            mine = select(one, sync=sync, window=window)
            out.append(_ratio_table(sync, window, mine, ops, backends))
            for b in backends:
                if b != "orma" and sync != "pscw":
                    continue
                plot = SizePlot("%s: %s, %s / %s, k puts" % (name, b, sync,
                                                             window),
                                [Line(op, series(select(mine, backend=b,
                                                        op=op)))
                                 for op in ops], "median time per epoch")
                if plot.worth():
                    out.append(plot)
    versus = _versus_table(one, ops) if ops else None
    if versus is not None:
        out.append(versus)
    p2p = [r for r in rows if r.op == "sendrecv"]
    if p2p:
        per = {b: series(select(p2p, backend=b))
               for b in uniq(r.backend for r in p2p)}
        out.append(Table("one-way send/recv of S (half a round trip), us",
                         ["bytes"], size_rows(*per.values()),
                         [Value(b, s) for b, s in per.items()]))
    return out
