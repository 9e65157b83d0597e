#!/usr/bin/env python3
"""Draws the table of `pulpsim compare` as a bar plot (called by `pulpsim compare --plot`; runs on its own
on a `--json` file too): one horizontal bar per kernel variant, fastest at the top, its length the
variant's MAC/cycle, labelled with cycles and the speed-up over the naive kernel, which is drawn grey.

  plot_compare.py --json compare.json --out plot.png     (also .svg or .pdf, by the name)
"""
import argparse
import json
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # an SVG keeps its labels as text, to search and edit
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", required=True, help="the table, as `pulpsim compare --json` writes it")
    parser.add_argument("--out", required=True, help="image to write (.png, .svg or .pdf)")
    args = parser.parse_args()
    try:
        with open(args.json, encoding="utf-8") as f:
            table = json.load(f)
        variants = table["variants"]
        title = (f"{table['layer']} {table['step'].upper()} {table['shape']}: {table['what']}\n"
                 f"{table['platform']}, {table['cores']} cores")
        baseline = table["baseline"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: {args.json}: not a compare table ({e})", file=sys.stderr)
        return 2
    if not variants:
        print(f"error: {args.json}: no variants to draw", file=sys.stderr)
        return 2

    names = [v["name"] for v in variants]
    rates = [v["mac_per_cycle"] for v in variants]
    height = max(2.5, 0.28 * len(variants) + 1.2)
    fig, ax = plt.subplots(figsize=(7.5, height))
    colours = ["#8c8c8c" if n == baseline else ("#2a9d55" if i == 0 else "#4878b0")
               for i, n in enumerate(names)]
    y = list(range(len(variants)))
    ax.barh(y, rates, color=colours)
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()  # fastest at the top, as the table
    ax.set_xlabel("MAC/cycle (higher is better)")
    ax.set_title(title, fontsize=9)
    right = max(rates) if max(rates) > 0 else 1.0
    for yi, v in zip(y, variants):
        ax.text(v["mac_per_cycle"] + right * 0.01, yi, f"{v['cycles']:,} cyc  {v['speedup']:.2f}x",
                va="center", fontsize=7)
    ax.set_xlim(0, right * 1.35)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()

    out_dir = os.path.dirname(os.path.abspath(args.out))
    suffix = os.path.splitext(args.out)[1] or ".png"
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".compare.", suffix=suffix)
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=130)
        # mkstemp makes the file private; the plot gets the mode any new file of the user gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, args.out)
    except (OSError, ValueError) as e:
        os.unlink(tmp)
        print(f"error: {args.out}: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
