#!/usr/bin/env python3
"""orma-bench report: orma-bench results as a Markdown report with plots.

    orma-bench report RESULTS... --out DIR [--no-plots] [--venv DIR]

RESULTS are files written by --json or --csv (any number, runs appended or
concatenated).  Writes DIR/report.md and, unless --no-plots, DIR/plots/*.png
(linked from report.md), drawn with matplotlib from a virtual environment
made on first use (plotenv.py).  Exit status: 0, 1 when no result could be
read or the output not written, 2 for usage errors (and --help), 3 when
the plotting environment could not be made (--no-plots needs none).

Python 3.8 or later, the standard library, and matplotlib for the plots.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # no __pycache__ in the source tree

import blocks  # noqa: E402
import results  # noqa: E402
import suite_as  # noqa: E402
import suite_caf  # noqa: E402
import suite_dynamic  # noqa: E402
import suite_generic  # noqa: E402
import suite_multiput  # noqa: E402
import suite_mt  # noqa: E402
import suite_mult  # noqa: E402
import suite_notify  # noqa: E402
import suite_others  # noqa: E402
import suite_pingpong  # noqa: E402
import suite_race  # noqa: E402
import suite_rdx  # noqa: E402
import plotenv  # noqa: E402

USAGE = """\
usage: orma-bench report RESULTS... --out DIR [--no-plots] [--venv DIR]

  RESULTS      files written by orma-bench --json or --csv; several files
               and several runs per file are fine (the latest run of each
               measurement is reported)
  --out DIR    write DIR/report.md and DIR/plots/*.png (made if missing)
  --no-plots   Markdown only: no matplotlib, no virtual environment
  --venv DIR   the virtual environment for matplotlib, made with pip on
               first use (it needs PyPI); default:
               %s
  --help       this text
"""

SUITES = {
    "pingpong": suite_pingpong.blocks,
    "sync": suite_others.sync_blocks,
    "overlap": suite_others.overlap_blocks,
    "atomics": suite_others.atomics_blocks,
    "ddt": suite_others.ddt_blocks,
    "as": suite_as.as_blocks,
    "multiput": suite_multiput.blocks,
    "mult": suite_mult.mult_blocks,
    "rdx": suite_rdx.blocks,
    "caf": suite_caf.blocks,
    "dynamic": suite_dynamic.blocks,
    "mt": suite_mt.blocks,
    "notify": suite_notify.blocks,
    "race": suite_race.blocks,
}


def usage(f, status):
    f.write(USAGE % plotenv.default_dir())
    sys.exit(status)


def parse(argv):
    opts = {"files": [], "out": None, "plots": True, "venv": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        name, eq, value = a.partition("=")
        if a in ("--help", "-h"):
            usage(sys.stdout, 2)
        elif a == "--no-plots":
            opts["plots"] = False
        elif name in ("--out", "--venv"):
            if not eq:
                i += 1
                value = argv[i] if i < len(argv) else ""
            if not value or value.startswith("--"):
                warn("%s needs a value" % name)
                usage(sys.stderr, 2)
            opts[name[2:]] = value
        elif a.startswith("--"):
            sys.stderr.write("orma-bench report: unknown option '%s'\n" % a)
            usage(sys.stderr, 2)
        else:
            opts["files"].append(a)
        i += 1
    if not opts["files"] or opts["out"] is None:
        sys.stderr.write("orma-bench report: %s\n" %
                         ("no RESULTS file" if not opts["files"]
                          else "--out DIR is required"))
        usage(sys.stderr, 2)
    return opts


def warn(msg):
    sys.stderr.write("orma-bench report: %s\n" % msg)


def into_venv(opts, argv):
    """Re-run this program with the environment's interpreter, unless it
    is the one running."""
    env_dir = opts["venv"] or plotenv.default_dir()
    if plotenv.inside(env_dir):
        return
    try:
        python = plotenv.ensure(env_dir)
    except plotenv.EnvError as e:
        warn("cannot set up matplotlib for the plots: %s\n"
             "  (remove %s to start afresh, or use --no-plots for a report "
             "without plots)" % (e, env_dir))
        sys.exit(plotenv.NO_ENV)
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(env_dir, "mplconfig"))
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(python, [python, os.path.abspath(__file__)] + argv)
    except OSError as e:
        warn("cannot run %s: %s (remove %s to rebuild it)"
             % (python, e, env_dir))
        sys.exit(plotenv.NO_ENV)


def preamble(res):
    files = ", ".join("`%s`" % os.path.basename(p) for p in res.paths)
    out = [blocks.Heading(1, "orma-bench report"),
           blocks.Text(
               "%d results from %s.  Times are in microseconds: the median of "
               "a point's repetitions, with their minimum and maximum in "
               "parentheses.  A ratio divides medians (of times: below 1 the "
               "first is faster; of bandwidths, marked MB/s: above 1 it is); "
               "† marks a ratio whose two sides come from different runs."
               % (len(res.rows), files))]
    if len(res.runs) > 1 or res.replaced:
        rows = [[str(i + 1), "`%s`" % os.path.basename(r["file"]),
                 "%d–%d" % (r["first"], r["last"]), r["suite"], str(r["rows"])]
                for i, r in enumerate(res.runs)]
        note = None
        if res.replaced:
            note = ("%d results measured again by a later run are not shown: "
                    "the later run's are." % res.replaced)
        out.append(blocks.Listing("Runs", ["run", "file", "lines", "suite",
                                           "results"], rows, note))
    out.append(blocks.Text("Suites: " + ", ".join(
        "[%s](#%s)" % (s, blocks.slug(s)) for s in order(res)) + "."))
    return out


def order(res):
    """The suites of res: the known ones in the usage's order, then the
    others as met."""
    known = [s for s in SUITES if s in res.suites()]
    return known + [s for s in res.suites() if s not in SUITES]


def build(res):
    out = preamble(res)
    for suite in order(res):
        rows = res.of(suite)
        fn = SUITES.get(suite, suite_generic.blocks)
        out.append(blocks.Heading(2, suite))
        out.extend(fn(suite, rows))
    return out


def md_cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def md_table(title, head, rows, right, notes):
    """right: how many of the last columns are right-aligned (numbers)."""
    lines = []
    if title:
        lines += ["**%s**" % title, ""]
    lines.append("| " + " | ".join(md_cell(h) for h in head) + " |")
    lines.append("|" + "|".join([" --- "] * (len(head) - right) +
                                [" ---: "] * right) + "|")
    for cells in rows:
        lines.append("| " + " | ".join(md_cell(c) for c in cells) + " |")
    for n in notes:
        lines += ["", n]
    return "\n".join(lines)


def md_block(b):
    if isinstance(b, blocks.Listing):
        return md_table(b.title, b.head, b.rows, 0,
                        [b.note] if b.note else [])
    notes = [b.note] if b.note else []
    if b.cross_run():
        notes.append("† the two sides of the ratio come from different runs.")
    head = list(b.head) + [c.label for c in b.columns]
    rows = [list(lead) + [c.cell(k) for c in b.columns] for k, lead in b.rows]
    return md_table(b.title, head, rows, len(b.columns), notes)


def markdown(doc):
    parts = []
    for b in doc:
        if isinstance(b, blocks.Heading):
            parts.append("#" * b.level + " " + b.text)
        elif isinstance(b, blocks.Text):
            parts.append(b.text)
        elif isinstance(b, (blocks.Table, blocks.Listing)):
            if b.rows:
                parts.append(md_block(b))
        elif getattr(b, "file", None):
            parts.append("![%s](plots/%s)" % (b.title, b.file))
    return "\n\n".join(parts) + "\n"


def main(argv):
    opts = parse(argv)
    if opts["plots"]:
        into_venv(opts, argv)
    try:
        res = results.Results(opts["files"], warn)
    except OSError as e:
        warn("%s: %s" % (getattr(e, "filename", None) or "input", e.strerror))
        return 1
    if not res.rows:
        warn("no results in %s" % ", ".join(opts["files"]))
        return 1
    doc = build(res)
    out = opts["out"]
    nplots = 0
    try:
        os.makedirs(out, exist_ok=True)
        if opts["plots"]:
            import plots  # matplotlib: only in the environment
            nplots = plots.render(doc, os.path.join(out, "plots"))
        path = os.path.join(out, "report.md")
        with open(path, "w") as f:
            f.write(markdown(doc))
    except OSError as e:
        warn("%s: %s" % (e.filename or out, e.strerror))
        return 1
    ntables = sum(1 for b in doc if isinstance(b, blocks.Table) and b.rows)
    sys.stderr.write("orma-bench report: wrote %s (%d tables, %d plots)\n"
                     % (path, ntables, nplots))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
