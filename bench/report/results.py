"""Reading orma-bench results: the lines --json appends (one object per
line) or the files --csv writes (a header, then one row per result), several
files, several runs per file.

A run is a stretch of consecutive rows of one suite in one file in which
no row repeats the identity of an earlier one (suite, backend, op, sync,
window, p, bytes and any other string field such as ddt's pattern): a
second run appended to the same file starts at its first row.  When two
runs measured the same thing the later one is reported, and ratios say
when their two sides come from different runs.

Fields may be missing or unknown: a missing string reads as "-", a missing
number as None; unknown string fields join the identity (as pattern does),
unknown numbers are kept for the generic tables.
"""

import csv
import json
import math

STRINGS = ("suite", "backend", "op", "sync", "window")
NUMBERS = ("p", "bytes", "reps", "min_us", "median_us", "max_us", "mbps")
KNOWN = STRINGS + NUMBERS


class Row:
    """One result.  Attributes: the fields of KNOWN, extra (the other string
    fields, in file order), numbers (the other numeric fields), run (the
    index of its run) and src ("file:line")."""

    def __init__(self, fields, run, src):
        for k in STRINGS:
            v = fields.get(k)
            setattr(self, k, str(v) if v not in (None, "") else "-")
        for k in NUMBERS:
            setattr(self, k, _number(fields.get(k)))
        if self.p is not None:
            self.p = int(self.p)
        if self.bytes is not None:
            self.bytes = int(self.bytes)
        self.extra = {}
        self.numbers = {}
        for k, v in fields.items():
            if k in KNOWN or v in (None, ""):
                continue
            n = _number(v) if not isinstance(v, str) else None
            if n is not None:
                self.numbers[k] = n
            else:
                self.extra[k] = str(v)
        self.run = run
        self.src = src

    def ident(self):
        return (self.suite, self.backend, self.op, self.sync, self.window,
                self.p, self.bytes, tuple(sorted(self.extra.items())))

    def get(self, field):
        if field in KNOWN:
            return getattr(self, field)
        return self.extra.get(field, self.numbers.get(field))


def _number(v):
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return v if math.isfinite(v) else None
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(x):
        return None
    return int(x) if x.is_integer() and "." not in str(v) else x


def _csv_value(v):
    """CSV cells are text: numbers back to numbers."""
    n = _number(v)
    return n if n is not None else v


def _records(path, warn):
    """(line number, dict) of every result in path."""
    with open(path, newline="") as f:
        text = f.read()
    first = text.lstrip()[:1]
    if first in ("", "{"):
        for i, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except ValueError as e:
                warn("%s:%d: not a JSON object (%s): skipped" % (path, i, e))
                continue
            if not isinstance(obj, dict):
                warn("%s:%d: not a JSON object: skipped" % (path, i))
                continue
            yield i, obj
        return
    reader = csv.reader(text.splitlines())
    header = None
    for i, cells in enumerate(reader, 1):
        if not cells:
            continue
        if header is None or cells == header:
            header = cells  # the first line, or a header repeated by cat
            continue
        if len(cells) != len(header):
            warn("%s:%d: %d cells, the header has %d: skipped"
                 % (path, i, len(cells), len(header)))
            continue
        yield i, {k: _csv_value(v) for k, v in zip(header, cells)}


class Results:
    """Every row of the files, and the rows reported (the latest of each
    identity)."""

    def __init__(self, paths, warn):
        self.paths = list(paths)
        self.all = []
        self.runs = []  # per run: {"file", "suite", "rows", "first", "last"}
        for path in self.paths:
            seen = set()
            for lineno, obj in _records(path, warn):
                row = Row(obj, len(self.runs) - 1, "%s:%d" % (path, lineno))
                run = self.runs[-1] if self.runs else None
                if (run is None or run["file"] != path or
                        run["suite"] != row.suite or row.ident() in seen):
                    seen = set()
                    self.runs.append({"file": path, "suite": row.suite,
                                      "rows": 0, "first": lineno})
                    run = self.runs[-1]
                row.run = len(self.runs) - 1
                seen.add(row.ident())
                run["rows"] += 1
                run["last"] = lineno
                self.all.append(row)
        latest = {}
        for row in self.all:
            latest[row.ident()] = row
        self.rows = [r for r in self.all if latest[r.ident()] is r]
        self.replaced = len(self.all) - len(self.rows)

    def suites(self):
        """The suites in the order they first appear."""
        out = []
        for r in self.rows:
            if r.suite not in out:
                out.append(r.suite)
        return out

    def of(self, suite):
        return [r for r in self.rows if r.suite == suite]


def select(rows, **want):
    """The rows whose fields equal want's (a value of None matches any)."""
    return [r for r in rows
            if all(v is None or r.get(k) == v for k, v in want.items())]


def series(rows):
    """bytes -> row for rows of one group (one row per size)."""
    return {r.bytes: r for r in rows}


def uniq(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def sizes_of(*many):
    """The sizes of several series, ascending (None, a size-less row,
    first)."""
    s = set()
    for m in many:
        s.update(m.keys())
    return sorted(s, key=lambda b: -1 if b is None else b)


def format_size(b):
    """8, 1K, 64K, 4M: sizes as orma-bench's tables write them."""
    if b is None:
        return "-"
    if b >= 1 << 20 and b % (1 << 20) == 0:
        return "%dM" % (b >> 20)
    if b >= 1024 and b % 1024 == 0:
        return "%dK" % (b >> 10)
    return "%d" % b


def format_us(x):
    """A time in microseconds, with about 4 significant digits."""
    if x is None:
        return "-"
    a = abs(x)
    if a >= 1000:
        return "%.0f" % x
    if a >= 100:
        return "%.1f" % x
    if a >= 10:
        return "%.2f" % x
    if a >= 0.01 or a == 0:
        return "%.3f" % x
    return "%.2g" % x


def format_mbps(x):
    if x is None:
        return "-"
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 1 else "%.3g" % x
