#!/usr/bin/env python3
"""Draws a region's cycles over the runs recorded by `pulpsim regress --history DB` (called by
`pulpsim regress --trend --plot FILE`): one line per baseline file, entry and region, x = recorded run (with its
commit)."""
import argparse
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from results_db import connect_read_only  # noqa: E402

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:
    sys.exit(f"plot_trend: needs matplotlib (Debian: python3-matplotlib): {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--history", required=True)
    ap.add_argument("--entry", default="")
    ap.add_argument("--region", default="")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    # What can be told before drawing is one line, not a traceback.
    ext = os.path.splitext(args.out)[1].lower().lstrip(".")
    formats = plt.figure().canvas.get_supported_filetypes()
    plt.close("all")
    if ext not in formats:
        sys.exit(f"plot_trend: {args.out}: the name must end in one of {', '.join('.' + f for f in sorted(formats))}")
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        sys.exit(f"plot_trend: {args.out}: no folder {folder}")
    try:
        con = connect_read_only(args.history)
        rows = con.execute("SELECT r.id, substr(r.git_commit, 1, 8), g.entry, g.region, g.cycles, r.baseline "
                           "FROM regress_runs r "
                           "JOIN regress_regions g ON g.run_id = r.id WHERE (? = '' OR g.entry = ?) AND "
                           "(? = '' OR g.region = ?) AND g.cycles > 0 ORDER BY r.id",
                           (args.entry, args.entry, args.region, args.region)).fetchall()
        con.close()
    except sqlite3.Error as e:
        sys.exit(f"plot_trend: {args.history}: cannot read the history: {e}")
    if not rows:
        sys.exit(f"plot_trend: {args.history}: no recorded runs match")
    runs = sorted({r[0] for r in rows})
    labels = {r[0]: f"#{r[0]} {r[1] or ''}".strip() for r in rows}
    # One line per baseline file too: two files may share entry names and a history.
    several = len({r[5] for r in rows}) > 1
    series = {}
    for run, _, entry, region, cycles, baseline in rows:
        series.setdefault(f"{baseline}: {entry} {region}" if several else f"{entry} {region}", {})[run] = cycles
    fig, ax = plt.subplots(figsize=(max(5, 0.6 * len(runs) + 3), 3.6))
    for name, points in sorted(series.items())[:20]:
        xs = [runs.index(r) for r in sorted(points)]
        ax.plot(xs, [points[r] for r in sorted(points)], marker="o", label=name)
    ax.set_xticks(range(len(runs)))
    ax.set_xticklabels([labels[r] for r in runs], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("cycles")
    ax.set_xlabel("recorded run")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("pulpsim regress: cycles per run", fontsize=11)
    tmp = args.out + ".tmp" + os.path.splitext(args.out)[1]
    try:
        fig.savefig(tmp, dpi=130, bbox_inches="tight")
        os.replace(tmp, args.out)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        sys.exit(f"plot_trend: {args.out}: cannot write: {e.strerror or e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
