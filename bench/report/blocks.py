"""What a report is made of: headings, paragraphs, tables and plots, built
by the suites' modules and written by orma_report (Markdown) and plots
(PNG).  A table's cells are computed here, so that every suite's tables
read alike: a measurement is "median (min–max)" in microseconds, a ratio
two decimals, marked † when its two sides come from different runs."""

import re

from results import format_mbps, format_size, format_us


class Heading:
    def __init__(self, level, text):
        self.level, self.text = level, text


class Text:
    def __init__(self, text):
        self.text = text


class Value:
    """A column of measurements: series maps a row key to a Row."""

    def __init__(self, label, series, field="median_us"):
        self.label, self.series, self.field = label, series, field

    def has(self, key):
        r = self.series.get(key)
        return r is not None and r.get(self.field) is not None

    def cell(self, key):
        r = self.series.get(key)
        if r is None or r.get(self.field) is None:
            return "-"
        if self.field == "mbps":
            return format_mbps(r.mbps)
        if self.field != "median_us":
            return format_us(r.get(self.field))
        if r.min_us is None or r.max_us is None:
            return format_us(r.median_us)
        return "%s (%s–%s)" % (format_us(r.median_us), format_us(r.min_us),
                               format_us(r.max_us))


def ratio_of(num, den, field="median_us"):
    """num / den of two rows' field, or None."""
    if num is None or den is None:
        return None
    a, b = num.get(field), den.get(field)
    if a is None or b is None or not b > 0:
        return None
    return a / b


def format_ratio(v):
    """Two decimals, or two significant digits far from 1."""
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    if v >= 0.1:
        return "%.2f" % v
    return "%.2g" % v


class Ratio:
    """A column num / den of two series, on field (median_us: a time ratio,
    below 1 the numerator is faster; mbps: a bandwidth ratio)."""

    def __init__(self, label, num, den, field="median_us"):
        self.label, self.num, self.den, self.field = label, num, den, field

    def has(self, key):
        return False  # a ratio alone does not make a row worth showing

    def value(self, key):
        return ratio_of(self.num.get(key), self.den.get(key), self.field)

    def cross_run(self, key):
        n, d = self.num.get(key), self.den.get(key)
        return n is not None and d is not None and n.run != d.run

    def cell(self, key):
        v = self.value(key)
        if v is None:
            return "-"
        return format_ratio(v) + (" †" if self.cross_run(key) else "")


class Computed:
    """A column whose cell is fn(key), a string ("-" when nothing)."""

    def __init__(self, label, fn):
        self.label, self.fn = label, fn

    def has(self, key):
        return False

    def cell(self, key):
        return self.fn(key)


class Table:
    """rows: (key, [leading cells]) in order; head: the leading cells'
    headers; columns: Value, Ratio and Computed columns.  Rows with no
    measurement in any Value column are left out."""

    def __init__(self, title, head, rows, columns, note=None):
        self.title, self.head, self.columns, self.note = (title, head,
                                                          columns, note)
        self.rows = [(k, lead) for k, lead in rows
                     if any(c.has(k) for c in columns)]
        self.columns = [c for c in columns
                        if any(c.cell(k) != "-" for k, _ in self.rows)]

    def cross_run(self):
        return any(isinstance(c, Ratio) and c.cross_run(k)
                   for c in self.columns for k, _ in self.rows)


def size_rows(*series):
    """The rows of a table by size: (bytes, [size as written])."""
    keys = set()
    for s in series:
        keys.update(s.keys())
    return [(b, [format_size(b)])
            for b in sorted(keys, key=lambda b: -1 if b is None else b)]


class Line:
    """A curve of a plot: series maps bytes to a Row; reference curves (the
    floors, two-sided MPI) are drawn dashed."""

    def __init__(self, label, series, reference=False):
        self.label, self.series, self.reference = label, series, reference


class SizePlot:
    """Latency (log-log) and bandwidth against size, one PNG: time_label
    names what was timed (a round trip, a call)."""

    def __init__(self, title, lines, time_label="median time"):
        self.title, self.lines, self.time_label = title, lines, time_label
        self.file = None

    def worth(self):
        return any(len([b for b in ln.series if b]) >= 2
                   for ln in self.lines if not ln.reference)


class HeatMap:
    """Ratios in a grid: rows and cols are labels, values[i][j] a ratio or
    None; centred on 1 (below 1 in blue: the numerator is faster)."""

    def __init__(self, title, rows, cols, values, what):
        self.title, self.rows, self.cols, self.values, self.what = (
            title, rows, cols, values, what)
        self.file = None

    def worth(self):
        return any(v is not None for r in self.values for v in r)


class Bars:
    """Grouped bars: categories along x; groups: (label, [Row or None per
    category]) drawn as medians with min–max whiskers on a log axis, or,
    with ratios, (label, [number or None]) on a linear one; bar: a
    horizontal line (a project bar) labelled bar_label."""

    def __init__(self, title, categories, groups, ylabel, bar=None,
                 ratios=False, bar_label=None):
        self.title, self.categories, self.groups = title, categories, groups
        self.ylabel, self.bar, self.ratios = ylabel, bar, ratios
        self.bar_label = bar_label
        self.file = None

    def worth(self):
        return any(v is not None for _, vs in self.groups for v in vs)


def slug(text):
    s = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()
    return s or "plot"


class Listing:
    """A plain table: rows of cells as given."""

    def __init__(self, title, head, rows, note=None):
        self.title, self.head, self.rows, self.note = title, head, rows, note
