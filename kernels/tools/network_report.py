#!/usr/bin/env python3
"""Per-layer cycles of a network training step from a `pulpsim run --report-json` report of a program made by
network_gen.py (regions L<n>_<kind>_<step>, loss, train_step).

    network_report.py REPORT.json [--mhz F] [--latent-replay] [--samples N]

Prints one row per layer: cycles of FW, WG, IG (or the BW of an activation / pooling), SGD, their sum and
the layer's MACs per cycle, then the step's totals with and without the SGD updates; --mhz adds the time at
that clock. --latent-replay adds, for each weighted layer l, the cycles of a step whose adaptive stage
starts at l (a latent replay of l's input): every region of the layers from l on, the loss, but not l's
input gradient; --samples N multiplies that by the sample steps of a learning event (seed 003's Table IV:
14 mini-batches x 128 latent inputs x 4 epochs = 7168), --updates M counts the SGD regions M times instead
(one update per mini-batch: 14 x 4 = 56).
"""
import argparse
import json
import math
import re
import sys

REGION = re.compile(r"L(\d+)_([a-z]+)_(fw|wg|ig|bw|sgd)$")


def count(value):
    """A JSON integer (not a bool) that is at least 0, or None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def read_regions(report):
    """The report's regions by name, or the one-line reason they cannot be read from it."""
    if not isinstance(report, dict):
        return None, f"expected a JSON object (a pulpsim --report-json report), got {type(report).__name__}"
    regions = report.get("regions", [])
    if not isinstance(regions, list):
        return None, f"'regions' is {type(regions).__name__}, expected a list"
    out = {}
    for i, r in enumerate(regions):
        if not isinstance(r, dict) or not isinstance(r.get("name"), str):
            return None, f"regions[{i}] is not an object with a name"
        for key in ("cycles", "macs"):
            if count(r.get(key)) is None:
                return None, f"region '{r['name']}' has no {key} count (got {r.get(key)!r})"
        out[r["name"]] = r
    step = out.get("train_step")
    if step is not None:
        mpc = step.get("mac_per_cycle")
        if not isinstance(mpc, (int, float)) or isinstance(mpc, bool) or not math.isfinite(mpc):
            return None, f"region 'train_step' has no mac_per_cycle number (got {mpc!r})"
    return out, None


def check_args(args):
    """The one-line reason an option cannot be used, or None."""
    if args.mhz is not None and not (math.isfinite(args.mhz) and args.mhz > 0):
        return f"--mhz {args.mhz}: the clock must be a positive number of MHz"
    if args.samples < 1:
        return f"--samples {args.samples}: a learning event has at least 1 sample"
    if args.updates is not None and args.updates < 0:
        return f"--updates {args.updates}: the count of SGD updates cannot be negative"
    # They time a learning event of the latent-replay table: alone they would change nothing printed.
    if (args.samples != 1 or args.updates is not None) and not (args.latent_replay and args.mhz):
        return "--samples and --updates time a learning event: give them with --latent-replay and --mhz"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("report")
    parser.add_argument("--mhz", type=float, help="cluster clock, to print times")
    parser.add_argument("--latent-replay", action="store_true")
    parser.add_argument("--samples", type=int, default=1)
    parser.add_argument("--updates", type=int, help="SGD updates per learning event (default: one per sample)")
    args = parser.parse_args()
    if why := check_args(args):
        print(f"error: {why}", file=sys.stderr)
        return 2
    try:
        with open(args.report, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: {args.report}: {e}", file=sys.stderr)
        return 2
    regions, why = read_regions(report)
    if why:
        print(f"error: {args.report}: {why}", file=sys.stderr)
        return 2
    if "train_step" not in regions:
        print(f"error: {args.report}: no train_step region (not a network program's report)", file=sys.stderr)
        return 2
    layers = {}  # (number, kind) -> {step: (cycles, macs)}
    for name, r in regions.items():
        m = REGION.match(name)
        if m:
            layers.setdefault((int(m.group(1)), m.group(2)), {})[m.group(3)] = (r["cycles"], r["macs"])
    order = sorted(layers, key=lambda k: (k[0], 0 if k[1] in ("conv", "dw", "pw", "linear") else 1))

    def time(cycles):
        return f"  {cycles / args.mhz / 1e3:9.3f} ms" if args.mhz else ""

    print(f"{'layer':<14}{'FW':>10}{'WG':>10}{'IG/BW':>10}{'SGD':>10}{'total':>11}{'MAC/cyc':>9}")
    for key in order:
        steps = layers[key]
        cycles = {s: steps.get(s, (0, 0))[0] for s in ("fw", "wg", "ig", "bw", "sgd")}
        total = sum(cycles.values())
        macs = sum(m for _, m in steps.values())
        row = f"L{key[0]}_{key[1]:<10}"
        row += "".join(f"{cycles[s]:>10}" if cycles[s] else f"{'-':>10}" for s in ("fw", "wg"))
        back = cycles["ig"] or cycles["bw"]
        row += f"{back:>10}" if back else f"{'-':>10}"
        row += f"{cycles['sgd']:>10}" if cycles["sgd"] else f"{'-':>10}"
        row += f"{total:>11}" + (f"{macs / total:>9.2f}" if macs else f"{'':>9}")
        print(row)
    step = regions["train_step"]["cycles"]
    sgd = sum(steps.get("sgd", (0, 0))[0] for steps in layers.values())
    loss = regions.get("loss", {}).get("cycles", 0)
    print(f"loss {loss} cycles")
    print(f"train_step {step} cycles ({regions['train_step']['mac_per_cycle']:.2f} MAC/cyc){time(step)}")
    print(f"  without the SGD updates {step - sgd} cycles{time(step - sgd)}")
    if args.latent_replay:
        weighted = sorted({n for n, kind in layers if kind in ("conv", "dw", "pw", "linear")})
        print("\nlatent replay at layer l: the adaptive stage from l on, per sample step with one SGD update"
              + (f" and x {args.samples} samples" if args.samples > 1 else ""))
        for l in weighted:
            cycles, update = loss, 0
            for (n, kind), steps in layers.items():
                if n < l:
                    continue
                for s, (c, _) in steps.items():
                    if s == "sgd":
                        update += c
                    elif not (n == l and s == "ig"):
                        cycles += c
            line = f"  l = {l:>3}: {cycles + update:>11} cycles{time(cycles + update)}"
            if args.samples > 1 and args.mhz:
                updates = args.samples if args.updates is None else args.updates
                event = cycles * args.samples + update * updates
                line += f"  x {args.samples} samples, {updates} updates = {event / args.mhz / 1e6:10.2f} s"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
