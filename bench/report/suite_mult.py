"""The report's part for the mult suite (seed 003's Cannon matrix multiply;
mult_summary.c prints the same tables): per rank count, the time of one
multiplication of every backend and op, the seed's Table 1 -- the serial
time (the row of backend "serial", p 1) and each backend's speedup serial /
parallel -- and the one-sided / point-to-point ratios against each host
MPI's send.  bytes holds the matrix order n."""

from blocks import Bars, Ratio, Table, Text, Value, ratio_of
from results import select, uniq

OPS = ("put", "get", "send")


def _series(rows):
    return {r.bytes: r for r in rows}


def mult_blocks(name, rows):
    out = [Text("Seed 003's Mult suite on every backend (bench/README.md, "
                "mult): one sample is a whole multiplication of n x n "
                "doubles on a sqrt(P) x sqrt(P) block grid, the slowest "
                "rank's; the serial row is rank 0 alone with the same "
                "kernel (seed 003 Table 1's p = 1).  Rows by n.")]
    serial = _series(select(rows, backend="serial", op="serial"))
    parallel = [r for r in rows if r.backend != "serial"]
    for p in sorted(uniq(r.p for r in parallel), key=lambda v: v or 0):
        mine = select(parallel, p=p)
        cols = {}
        for b in uniq(r.backend for r in mine):
            for op in OPS:
                s = _series(select(mine, backend=b, op=op))
                if s:
                    cols["%s %s" % (b, op)] = s
        ns = sorted(set(k for s in cols.values() for k in s
                        if k is not None))
        keys = [(n, [str(n)]) for n in ns]
        out.append(Table("P = %s: one multiplication, us" % p, ["n"], keys,
                         [Value("serial", serial)] +
                         [Value(c, s) for c, s in cols.items()]))
        out.append(Table(
            "P = %s: seed 003 Table 1, speedup serial / parallel" % p,
            ["n"], keys,
            [Value("serial", serial)] +
            [Ratio(c, serial, s) for c, s in cols.items()]))
        out.append(Bars("%s: P = %s, speedup serial / parallel" % (name, p),
                        [str(n) for n in ns],
                        [(c, [ratio_of(serial.get(n), s.get(n))
                              for n in ns]) for c, s in cols.items()],
                        "speedup (serial median / parallel median)",
                        bar=float(p), ratios=True,
                        bar_label="P = %s (linear speedup)" % p))
        for c, send in cols.items():
            if not c.startswith("mpi-p2p/"):
                continue
            # orma's, and the same host MPI's: mpi-rma/openmpi against
            # mpi-p2p/mpich would compare two libraries, not two models.
            variant = c.split()[0].split("/", 1)[1]
            one_sided = [(k, s) for k, s in cols.items()
                         if not k.endswith(" send") and
                         ("/" not in k.split()[0] or
                          k.split()[0].endswith("/" + variant))]
            out.append(Table(
                "P = %s: one-sided / point-to-point (%s; below 1: "
                "one-sided is faster)" % (p, c), ["n"], keys,
                [Value(c, send)] +
                [Ratio(k, s, send) for k, s in one_sided]))
    return out
