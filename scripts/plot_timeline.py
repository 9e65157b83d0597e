#!/usr/bin/env python3
"""Draws a `pulpsim run --timeline` file (Chrome trace-event JSON) with matplotlib, for places where no trace
viewer runs (a report, a machine without a browser): one lane per track, nested slices stacked inside it
(perf regions, then functions, then sleeps, DMA waits and pushes into a full DMA queue), DMA transfers,
event-unit instants, and the counters below. Perfetto (ui.perfetto.dev) or chrome://tracing show the same
file interactively.

usage: scripts/plot_timeline.py TRACE.json OUT.png [--title TEXT] [--from CYCLE] [--to CYCLE]
"""
import argparse
import json
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

WAIT_COLOURS = {"sleep": "#404040", "dma_wait": "#8c2d04", "dma_queue_full": "#e6550d"}
REGION_COLOUR = "#f4d35e"
DMA_COLOUR = "#3a6ea5"


def function_colours(names):
    # In name order, so that the same functions get the same colours in every drawing of a program.
    cmap = plt.get_cmap("tab20")
    return {n: cmap(i % 20) for i, n in enumerate(sorted(names))}


def depths(slices):
    """The nesting depth of each slice of one track (they nest: the file is valid trace-event JSON)."""
    out, ends = [], []
    for s in sorted(slices, key=lambda s: (s["ts"], -s["dur"])):
        while ends and ends[-1] <= s["ts"]:
            ends.pop()
        out.append((len(ends), s))
        ends.append(s["ts"] + s["dur"])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    ap.add_argument("--from", dest="lo", type=int, default=None, help="first cycle to draw")
    ap.add_argument("--to", dest="hi", type=int, default=None, help="last cycle to draw")
    args = ap.parse_args()
    if args.lo is not None and args.hi is not None and args.lo >= args.hi:
        sys.exit(f"plot_timeline.py: error: --from {args.lo} is not before --to {args.hi}")
    try:
        with open(args.trace) as f:
            doc = json.load(f)
        events = doc["traceEvents"]
    except OSError as e:
        sys.exit(f"plot_timeline.py: error: {args.trace}: {e.strerror}")
    except (ValueError, KeyError, TypeError):
        sys.exit(f"plot_timeline.py: error: {args.trace}: not a timeline (pulpsim run --timeline FILE writes one)")

    names, order = {}, {}
    for e in events:
        if e["ph"] == "M" and e["name"] == "thread_name":
            names[e["tid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_sort_index":
            order[e["tid"]] = e["args"]["sort_index"]
    slices = defaultdict(list)
    instants = defaultdict(list)
    counters = defaultdict(list)
    for e in events:
        if e["ph"] == "X":
            slices[e["tid"]].append(e)
        elif e["ph"] in "iI":
            instants[e["tid"]].append(e)
        elif e["ph"] == "C":
            for series, value in e["args"].items():
                counters[f"{e['name']} {series}"].append((e["ts"], value))
    times = [e["ts"] for e in events if e["ph"] in "XiIC"] + [e["ts"] + e["dur"] for e in events if e["ph"] == "X"]
    lo = args.lo if args.lo is not None else min(times, default=0)
    hi = args.hi if args.hi is not None else max(times, default=1)

    tracks = sorted(set(slices) | set(instants), key=lambda t: (order.get(t, 1000 + t), t))
    lanes = {t: depths(slices[t]) for t in tracks}
    heights = {t: max([d for d, _ in lanes[t]] + [0]) + 1 for t in tracks}
    has_counters = bool(counters)
    fig, axes = plt.subplots(2 if has_counters else 1, 1, sharex=True, figsize=(14, 7.5),
                             gridspec_kw={"height_ratios": [5, 1]} if has_counters else None)
    ax = axes[0] if has_counters else axes
    y, ticks, labels = 0.0, [], []
    colours = function_colours({s["name"] for t in tracks for s in slices[t] if s.get("cat") == "function"})
    used_functions, used_waits = {}, set()
    # One broken_barh per lane and colour: one call per slice takes minutes on a whole run's ten thousands.
    bars = defaultdict(list)
    for t in tracks:
        h = heights[t]
        row = 1.0 / max(h, 1)
        for depth, s in lanes[t]:
            a, b = max(s["ts"], lo), min(s["ts"] + s["dur"], hi)
            if b <= a:
                continue
            cat = s.get("cat", "")
            colour = (REGION_COLOUR if cat == "region" else WAIT_COLOURS.get(s["name"], "#555555") if cat == "wait"
                      else DMA_COLOUR if cat == "dma" else colours[s["name"]])
            if cat == "function":
                used_functions[s["name"]] = colour
            if cat == "wait":
                used_waits.add(s["name"])
            top = y + depth * row * 0.9  # the y axis points down: outer slices on top
            bars[(top, row * 0.9, colour)].append((a, b - a))
            if (b - a) / (hi - lo) > 0.06 and cat in ("region", "function", "dma"):
                ax.text(a + (b - a) / 2, top + row * 0.45, s["name"], ha="center", va="center", fontsize=6,
                        clip_on=True)
        for e in instants[t]:
            if lo <= e["ts"] <= hi:
                ax.plot([e["ts"], e["ts"]], [y + 0.1, y + 0.8], color="black" if e["name"] == "barrier" else "#c0392b",
                        linewidth=0.6)
        ticks.append(y + 0.45)
        labels.append(names.get(t, str(t)))
        y += 1.0
    for (top, height, colour), spans in bars.items():
        ax.broken_barh(spans, (top, height), facecolors=colour, edgecolor="none")
    ax.set_yticks(ticks, labels)
    ax.set_ylim(y, -0.1)
    ax.set_xlim(lo, hi)
    ax.grid(axis="x", linewidth=0.3)
    ax.ticklabel_format(axis="x", style="plain", useOffset=False)
    # A full DMA queue is rare: listed only where it shows.
    legend = [Patch(color=REGION_COLOUR, label="perf region")] + \
             [Patch(color=c, label=n) for n, c in WAIT_COLOURS.items() if n in used_waits or n != "dma_queue_full"] + \
             [Patch(color=DMA_COLOUR, label="DMA transfer")] + \
             [Patch(color=c, label="\u200b" + n) for n, c in sorted(used_functions.items())[:14]]
    ax.legend(handles=legend, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False)
    if has_counters:
        cax = axes[1]
        for name, points in sorted(counters.items()):
            points.sort()
            xs = [p[0] for p in points] + [hi]
            ys = [p[1] for p in points] + [points[-1][1]]
            cax.step(xs, ys, where="post", label=name, linewidth=0.8)
        cax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7, frameon=False)
        cax.grid(linewidth=0.3)
        cax.set_xlabel("cycle")
    else:
        ax.set_xlabel("cycle")
    other = doc.get("otherData", {})
    title = args.title or f"{other.get('program', '')} on {other.get('platform', '')}: {other.get('shown', '')}"
    fig.suptitle(title + "\n(drawn from the --timeline JSON by scripts/plot_timeline.py, not by Perfetto)", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
