#!/usr/bin/env python3
"""Draws a sweep's plots from the results database (called by `pulpsim sweep`; runs on its own too).

The plots come from the `plots:` list of the sweep file, which `pulpsim sweep` hands over as JSON
(--plots), and their numbers only from the database's `results` view: a finished or half-finished sweep
can be plotted again at any time without simulating. Each plot is written as PNG and SVG.

  line     y (a metric) against x, one line per `series` value, one panel per `facets` value;
           hollow markers are DMA-bound points
  heatmap  `value` over x and y, one panel per `facets` value, each cell annotated
  bars     `value` per x, grouped by `series`; with `baseline`, the speed-up over the baseline point
           (higher is better: cycles are divided into the baseline's, MAC/cycle divided by it)
"""
import argparse
import json
import math
import os
import sqlite3
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from results_db import connect_read_only  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
# Titles, region and program names are the user's text, drawn as written: "$" is a dollar, not mathtext.
if "text.parse_math" in matplotlib.rcParams:  # matplotlib >= 3.5
    matplotlib.rcParams["text.parse_math"] = False
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

REFUSED = 3  # exit status when a plot was refused; its one-line reason is on stderr

HIGHER_IS_BETTER = {"mac_per_cycle", "fpu_utilisation", "dma_overlap", "dma_utilisation",
                    "dma_bandwidth_utilisation"}
LABELS = {"mac_per_cycle": "MAC/cycle", "cycles": "cycles", "cluster.cores": "cores",
          "tcdm.size": "L1 (TCDM) size", "dma.bandwidth_bits": "DMA bandwidth (bit/cycle)"}


def column(key):
    return key if key == "program" else key.replace(".", "_")


def label(key):
    return LABELS.get(key, key)


def value_text(key, v):
    if isinstance(v, int) and key.endswith("size"):
        for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
            if v % scale == 0:
                return f"{v // scale} {unit}"
    if key == "program":
        return os.path.splitext(os.path.basename(str(v)))[0]
    return str(v)


def load(db, sweep, regions):
    """The stored rows of the given regions (None: every region)."""
    con = connect_read_only(db)
    con.row_factory = sqlite3.Row
    rows = [dict(r) for r in con.execute(
        "SELECT * FROM results WHERE sweep = ? AND status = 'ok' AND region IS NOT NULL ORDER BY ordinal, rowid",
        (sweep,)) if regions is None or r["region"] in regions]
    con.close()
    return rows


def first_region(db, sweep):
    con = connect_read_only(db)
    row = con.execute("SELECT region FROM results WHERE sweep = ? AND region IS NOT NULL ORDER BY ordinal, rowid"
                      " LIMIT 1", (sweep,)).fetchone()
    con.close()
    return row[0] if row else None


def distinct(rows, key, region_order=()):
    """The values of `key` in rows, sorted; regions in the sweep file's `regions:` order when it names them."""
    seen = []
    for r in rows:
        v = r[column(key)]
        if v not in seen:
            seen.append(v)
    if key == "region" and region_order:
        return sorted(seen, key=lambda name: region_order.index(name) if name in region_order else len(seen))
    try:
        return sorted(seen)
    except TypeError:
        return seen


def facet_groups(rows, facets, region_order=()):
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[column(k)] for k in facets), []).append(r)

    def place(values):
        return tuple((region_order.index(v) if v in region_order else len(region_order), v) if k == "region" else v
                     for k, v in zip(facets, values))
    return sorted(groups.items(), key=lambda kv: place(kv[0]))


def facet_title(facets, values):
    return ", ".join(f"{label(k)} = {value_text(k, v)}" for k, v in zip(facets, values))


def panels(n, width=4.2):
    cols = min(n, 4)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, 3.6 * rows), squeeze=False, sharey=True)
    flat = [a for row in axes for a in row]
    for extra in flat[n:]:
        extra.set_visible(False)
    return fig, flat[:n]


def numeric(values):
    return all(isinstance(v, (int, float)) for v in values)


def draw_line(plot, rows):
    x, y, series, facets = plot["x"], plot["value"], plot.get("series", ""), plot.get("facets", [])
    groups = facet_groups(rows, facets, plot["region_order"])
    fig, axes = panels(len(groups))
    order = plot["region_order"]
    xs_all = distinct(rows, x, order)
    log2 = numeric(xs_all) and min(xs_all) > 0 and max(xs_all) / min(xs_all) >= 4
    all_series = distinct(rows, series, order) if series else [None]
    for ax, (fvals, grows) in zip(axes, groups):
        for s in (distinct(grows, series, order) if series else [None]):
            color = f"C{all_series.index(s) % 10}"  # one colour per series value in every panel
            pts = [r for r in grows if not series or r[column(series)] == s]
            pts.sort(key=lambda r: r[column(x)])
            xs = [r[column(x)] for r in pts]
            ys = [r[y] for r in pts]
            ax.plot(xs if numeric(xs) else [value_text(x, v) for v in xs], ys, marker="o", color=color,
                    label=value_text(series, s) if series else None)
            bound = [(a, b) for a, b, r in zip(xs, ys, pts) if r.get("dma_verdict") == "dma-bound"]
            if bound and numeric(xs):
                ax.plot([a for a, _ in bound], [b for _, b in bound], linestyle="none", marker="o",
                        markersize=9, markerfacecolor="white", markeredgecolor=color)
        if log2:
            ax.set_xscale("log", base=2)
            ax.set_xticks(xs_all)
            ax.set_xticklabels([value_text(x, v) for v in xs_all])
        ax.set_xlabel(label(x))
        ax.grid(True, alpha=0.3)
        if facets:
            ax.set_title(facet_title(facets, fvals), fontsize=10)
    axes[0].set_ylabel(label(y))
    if series:
        axes[0].legend(title=label(series), fontsize=8)
    return fig


def cell_text(v):
    """Three significant digits with trailing zeros kept (1.00 beside 1.01); large counts in full."""
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:#.3g}"


def draw_heatmap(plot, rows):
    x, y, v, facets = plot["x"], plot["y"], plot["value"], plot.get("facets", [])
    groups = facet_groups(rows, facets, plot["region_order"])
    fig, axes = panels(len(groups))
    xs, ys = distinct(rows, x, plot["region_order"]), distinct(rows, y, plot["region_order"])
    values = [r[v] for r in rows if isinstance(r[v], (int, float))]
    vmin, vmax = (min(values), max(values)) if values else (0, 1)
    image = None
    for ax, (fvals, grows) in zip(axes, groups):
        grid = [[float("nan")] * len(xs) for _ in ys]
        for r in grows:
            grid[ys.index(r[column(y)])][xs.index(r[column(x)])] = r[v]
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis", vmin=vmin, vmax=vmax)
        for i, row in enumerate(grid):
            for j, cell in enumerate(row):
                if not math.isnan(cell):
                    ax.text(j, i, cell_text(cell), ha="center", va="center", fontsize=7,
                            color="white" if cell < (vmin + vmax) / 2 else "black")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([value_text(x, a) for a in xs], rotation=45 if len(xs) > 6 else 0)
        ax.set_yticks(range(len(ys)))
        ax.set_yticklabels([value_text(y, a) for a in ys])
        ax.set_xlabel(label(x))
        if facets:
            ax.set_title(facet_title(facets, fvals), fontsize=10)
    axes[0].set_ylabel(label(y))
    if image is not None:
        bar = fig.colorbar(image, ax=axes, label=label(v))
        bar.ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: cell_text(value)))  # no "1e6" offset
    return fig


def matches(r, assignment):
    for key, want in assignment.items():
        have = r[column(key)]
        if str(have) != str(want) and value_text(key, have) != str(want):
            size = parse_size(str(want))
            if size is None or have != size:
                return False
    return True


def parse_size(text):
    scale = 1
    for suffix, factor in (("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)):
        if text.endswith(suffix):
            text, scale = text[: -len(suffix)].strip(), factor
    try:
        return int(text, 0) * scale
    except ValueError:
        return None


def draw_bars(plot, rows):
    x, v, series, facets = plot["x"], plot["value"], plot.get("series", ""), plot.get("facets", [])
    baseline = plot.get("baseline", {})
    groups = facet_groups(rows, facets, plot["region_order"])
    order = plot["region_order"]
    bars = len(distinct(rows, x, order)) * (len(distinct(rows, series, order)) if series else 1)
    fig, axes = panels(len(groups), width=max(4.2, 0.18 * bars + 1.5))
    # The baseline point shares every other key's value, except keys that vary together with a baseline key.
    tied = set(baseline)
    for group in plot["zip_groups"]:
        if tied & set(group):
            tied |= set(group)
    axis_keys = [k for k in plot["axis_keys"] if k not in tied]
    unmatched = 0  # bars whose baseline point has no result (it failed or has not run): left out, not 0
    for ax, (fvals, grows) in zip(axes, groups):
        xs = distinct(grows, x, order)
        ss = distinct(grows, series, order) if series else [None]
        width = 0.8 / len(ss)
        for k, s in enumerate(ss):
            heights = []
            for xv in xs:
                pts = [r for r in grows if r[column(x)] == xv and (not series or r[column(series)] == s)]
                if not pts:
                    heights.append(0)
                    continue
                val = pts[0][v]
                if baseline:
                    ref = [r for r in rows if matches(r, baseline) and all(
                        r[column(key)] == pts[0][column(key)] for key in axis_keys)]
                    base = ref[0][v] if ref else None
                    if not base or not val:
                        unmatched += 1
                        heights.append(float("nan"))
                        continue
                    val = val / base if v in HIGHER_IS_BETTER else base / val
                heights.append(val)
            pos = [i + (k - (len(ss) - 1) / 2) * width for i in range(len(xs))]
            ax.bar(pos, heights, width, label=value_text(series, s) if series else None)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([value_text(x, a) for a in xs], rotation=30 if len(xs) > 4 else 0, ha="right"
                           if len(xs) > 4 else "center", fontsize=8)
        ax.set_xlabel(label(x))
        ax.grid(True, axis="y", alpha=0.3)
        if facets:
            ax.set_title(facet_title(facets, fvals), fontsize=10)
    if baseline:
        ref = ", ".join(f"{label(k)} = {w}" for k, w in baseline.items())
        axes[0].set_ylabel(f"speed-up over {ref}" if len(ref) < 40 else "speed-up")
        if unmatched:
            note = f"{unmatched} bar{'s' if unmatched > 1 else ''} left out: no result at the baseline ({ref})"
            fig.text(0.5, -0.02, note, ha="center", va="top", fontsize=8, color="firebrick")
            print(f"plot_sweep: warning: {plot['file']}: {note}", file=sys.stderr)
        for ax in axes:
            ax.axhline(1.0, color="gray", linewidth=0.8)
    else:
        axes[0].set_ylabel(label(v))
    if series:
        axes[0].legend(title=label(series), fontsize=8)
    return fig


def mixed_points(plot, rows, axes):
    """Two stored points that would be drawn as one (same value of every key the plot places), as a
    one-line reason, or None. The sweep file's check leaves only programs that share a region name."""
    placed = [k for k in (plot["x"], plot.get("y"), plot.get("series"), *plot.get("facets", [])) if k]
    seen = {}
    for r in rows:
        cell = tuple(r[column(k)] for k in placed)
        other = seen.setdefault(cell, r)
        if other["point_id"] != r["point_id"]:
            differ = [k for k in axes if other[column(k)] != r[column(k)]]
            key = differ[0] if differ else "program"
            where = "x:, y: or facets:" if plot["kind"] == "heatmap" else "x:, series: or facets:"
            return (f"the points {key} = {value_text(key, other[column(key)])} and {key} = "
                    f"{value_text(key, r[column(key)])} (region {r['region']}) would be drawn as one; "
                    f"add {key} to {where}")
    return None


def one_line(text):
    return " ".join(str(text).split())


def save(fig, path_base):
    """Both files or neither: each is drawn to a temporary name first."""
    tmps = {ext: f"{path_base}.tmp.{ext}" for ext in ("png", "svg")}
    try:
        for tmp in tmps.values():
            fig.savefig(tmp, dpi=130, bbox_inches="tight")
    except BaseException:
        for tmp in tmps.values():
            if os.path.exists(tmp):
                os.remove(tmp)
        raise
    for ext, tmp in tmps.items():
        os.replace(tmp, f"{path_base}.{ext}")
        print(f"{path_base}.{ext}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--sweep", required=True)
    ap.add_argument("--plots", required=True, help="the sweep's plots as JSON (pulpsim sweep passes it)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    spec = json.loads(args.plots)
    if not os.path.exists(args.db):
        sys.exit(f"plot_sweep: {args.db}: no such database")
    os.makedirs(args.out, exist_ok=True)
    draw = {"line": draw_line, "heatmap": draw_heatmap, "bars": draw_bars}
    refused = False
    for plot in spec["plots"]:
        where = f"{spec.get('path', args.sweep)}:{plot.get('line', 0)}: plot '{plot['file']}'"
        plot["zip_groups"] = spec["zip_groups"]
        plot["region_order"] = spec["regions"]
        # "region" may be laid out like an axis (x, y, series, facets); otherwise a plot shows one region.
        if "region" in (plot["x"], plot.get("y"), plot.get("series"), *plot.get("facets", [])):
            plot["axis_keys"] = spec["axes"] + ["region"]
            region = "the regions"
            rows = load(args.db, args.sweep, spec["regions"] or None)
        else:
            plot["axis_keys"] = spec["axes"]
            region = plot.get("region") or (spec["regions"][0] if spec["regions"] else first_region(args.db, args.sweep))
            rows = load(args.db, args.sweep, [region]) if region else []
        if not rows:
            print(f"plot_sweep: {plot['file']}: no stored results for region {region!r} yet", file=sys.stderr)
            continue
        mixed = mixed_points(plot, rows, spec["axes"])
        if mixed:
            print(f"plot_sweep: {where}: {mixed}", file=sys.stderr)
            refused = True
            continue
        # One plot's failure is one line and does not stop the others.
        fig = None
        try:
            fig = draw[plot["kind"]](plot, rows)
            shown = f"speed-up in {label(plot['value'])}" if plot.get("baseline") else label(plot["value"])
            title = plot.get("title") or f"{args.sweep}: {shown} of {region}"
            fig.suptitle(title, fontsize=11, y=1.03)
            save(fig, os.path.join(args.out, plot["file"]))
        except Exception as e:  # noqa: BLE001
            print(f"plot_sweep: {where}: cannot draw it: {one_line(e) or type(e).__name__}", file=sys.stderr)
            refused = True
        finally:
            if fig is not None:
                plt.close(fig)
    return REFUSED if refused else 0


if __name__ == "__main__":
    sys.exit(main())
