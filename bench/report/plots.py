"""The report's PNGs, drawn with matplotlib (Agg: no display needed).  One
PNG per plot block: latency and bandwidth against size side by side, ratio
heat maps, grouped bars.  render() names the files after the blocks' titles
and sets their .file, which report.md links."""

import math
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator  # noqa: E402

from blocks import Bars, HeatMap, SizePlot, format_ratio, slug  # noqa: E402
from results import format_size  # noqa: E402

DPI = 100
plt.rcParams.update({"font.size": 9, "axes.titlesize": 10,
                     "figure.titlesize": 11, "legend.fontsize": 8})


# One colour per curve label across the report: orma is the same colour in
# every plot.
COLOURS = {}


def _colour(label):
    """One colour per label across every plot of a report: matplotlib's
    ten first, then the lighter halves of tab20's pairs, so that a report
    with every backend of both host MPIs (over ten labels) repeats none."""
    if label not in COLOURS:
        n = len(COLOURS) % 20
        COLOURS[label] = ("C%d" % n if n < 10 else
                          mcolors.to_hex(plt.get_cmap("tab20")(2 * (n - 10) + 1)))
    return COLOURS[label]


def _size_axis(ax, sizes):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(sizes))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(FuncFormatter(
        lambda x, _: format_size(int(round(x)))))
    ax.set_xlabel("message size (bytes; K = 1024)")
    ax.grid(True, which="major", alpha=0.3)


def _points(series, field):
    pts = sorted((b, r) for b, r in series.items()
                 if b and r.get(field) is not None and r.get(field) > 0)
    return [b for b, _ in pts], [r for _, r in pts]


def _size_plot(p, path):
    fig, (lat, bw) = plt.subplots(1, 2, figsize=(11, 4.4))
    sizes = set()
    for line in p.lines:
        color = _colour(line.label)
        style = dict(color=color, marker="o", markersize=3.5,
                     linestyle="--" if line.reference else "-",
                     linewidth=1.2 if line.reference else 1.8)
        xs, rows = _points(line.series, "median_us")
        if xs:
            sizes.update(xs)
            lat.plot(xs, [r.median_us for r in rows], label=line.label,
                     **style)
            if all(r.min_us and r.max_us for r in rows) and len(xs) > 1:
                lat.fill_between(xs, [r.min_us for r in rows],
                                 [r.median_us for r in rows], color=color,
                                 alpha=0.12, linewidth=0)
        xs, rows = _points(line.series, "mbps")
        if xs:
            bw.plot(xs, [r.mbps for r in rows], label=line.label, **style)
    sizes = sorted(sizes)
    for ax in (lat, bw):
        _size_axis(ax, sizes)
        ax.set_yscale("log")
    lat.set_ylabel("%s (µs, log)" % p.time_label)
    lat.set_title("latency: median, shaded down to the minimum")
    bw.set_ylabel("MB/s from the median (log)")
    bw.set_title("bandwidth (1 MB = 10⁶ B)")
    handles, labels = lat.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center",
               ncol=min(len(labels), 5), frameon=False)
    fig.suptitle(p.title)
    rows = (len(labels) + 4) // 5
    fig.tight_layout(rect=(0, 0.02 + 0.045 * rows, 1, 1))
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _heat_map(h, path):
    nr, nc = len(h.rows), len(h.cols)
    logs = [[math.log10(v) if v is not None and v > 0 else math.nan
             for v in row] for row in h.values]
    span = max([abs(x) for row in logs for x in row if not math.isnan(x)] +
               [0.3])
    span = min(span, 2.0)  # beyond 100x the colour says "far" anyway
    fig, ax = plt.subplots(figsize=(2.8 + 0.85 * nc, 1.6 + 0.26 * nr))
    norm = mcolors.TwoSlopeNorm(vmin=-span, vcenter=0.0, vmax=span)
    img = ax.imshow(logs, cmap="RdBu_r", norm=norm, aspect="auto")
    for i, row in enumerate(h.values):
        for j, v in enumerate(row):
            if v is None:
                continue
            dark = abs(math.log10(v)) > 0.6 * span if v > 0 else False
            ax.text(j, i, format_ratio(v), ha="center", va="center",
                    fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(nc), h.cols)
    ax.set_yticks(range(nr), h.rows)
    ax.set_xlabel("message size (bytes)")
    ax.tick_params(axis="y", labelsize=7)
    bar = fig.colorbar(img, ax=ax, fraction=0.05, pad=0.02)
    ticks = [t for t in (0.01, 0.1, 0.2, 0.5, 1, 2, 5, 10, 100)
             if abs(math.log10(t)) <= span + 1e-9]
    bar.set_ticks([math.log10(t) for t in ticks],
                  labels=[("%g" % t) for t in ticks])
    bar.set_label("%s (log; blue: below 1, the numerator faster)" % h.what)
    ax.set_title(h.title)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _bars(b, path):
    nc, ng = len(b.categories), len(b.groups)
    width = 0.8 / max(ng, 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 + nc * (0.3 + 0.22 * ng)),
                                    4.6))
    top, bottom = 0.0, math.inf
    for gi, (label, values) in enumerate(b.groups):
        xs, hs, lo, hi = [], [], [], []
        for ci, v in enumerate(values):
            if v is None:
                continue
            if b.ratios:
                h, a, z = v, v, v
            else:
                h = v.median_us
                if h is None or h <= 0:
                    continue
                a = v.min_us if v.min_us else h
                z = v.max_us if v.max_us else h
            xs.append(ci - 0.4 + width * (gi + 0.5))
            hs.append(h)
            lo.append(h - a)
            hi.append(z - h)
            top = max(top, h)
            bottom = min(bottom, a if a > 0 else h)
        if not xs:
            continue
        err = None if b.ratios else [lo, hi]
        ax.bar(xs, hs, width * 0.92, label=label, color=_colour(label),
               yerr=err, capsize=2, error_kw={"elinewidth": 0.8,
                                              "alpha": 0.7})
    ax.set_xticks(range(nc), b.categories)
    if nc > 4 or max(len(c) for c in b.categories) > 12:
        plt.setp(ax.get_xticklabels(), rotation=40, ha="right")
    if b.bar is not None:
        ax.axhline(b.bar, color="black", linestyle="--", linewidth=1,
                   label=b.bar_label or "bar %g" % b.bar)
    if b.ratios:
        ax.axhline(1.0, color="grey", linewidth=0.8)
        ax.set_ylabel(b.ylabel)
    else:
        # Whiskers run from the minimum to the maximum of the repetitions;
        # a maximum far above the axis is cut (an outlier, not the point).
        ax.set_yscale("log")
        ax.set_ylim(bottom / 1.5, top * 6)
        ax.set_ylabel(b.ylabel + ", log; whiskers: min–max")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title(b.title)
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


DRAW = {SizePlot: _size_plot, HeatMap: _heat_map, Bars: _bars}


def render(doc, out_dir):
    """Draw every plot block of doc worth drawing into out_dir (made if
    missing; PNGs of an earlier report there are removed).  Returns the
    number of files written."""
    os.makedirs(out_dir, exist_ok=True)
    for f in os.listdir(out_dir):
        if f.endswith(".png"):
            os.remove(os.path.join(out_dir, f))
    used, n = set(), 0
    for b in doc:
        draw = DRAW.get(type(b))
        if draw is None or not b.worth():
            continue
        name, k = slug(b.title), 1
        while name in used:
            k += 1
            name = "%s-%d" % (slug(b.title), k)
        used.add(name)
        b.file = name + ".png"
        draw(b, os.path.join(out_dir, b.file))
        n += 1
    return n
