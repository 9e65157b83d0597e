#!/usr/bin/env python3
"""kernels/tools/network_report.py on a real report: runs a network program with --report-json and checks that
the per-layer rows account for the step (the regions of the layers and the loss are disjoint and cover
train_step but for the few cycles between two regions), that every weighted layer has a row, and that the
latent-replay latency at the first layer is the whole step's regions and shrinks layer by layer; JSON of
another shape and impossible options (a clock that is not a positive number, no samples, negative updates,
samples or updates without a --latent-replay table timed with --mhz) are one line and exit status 2.

    network_report_test.py PULPSIM PROGRAM.elf REPORT_TOOL WORKDIR
"""
import json
import os
import re
import subprocess
import sys


def main():
    sim, elf, tool, workdir = sys.argv[1:5]
    os.makedirs(workdir, exist_ok=True)
    report = os.path.join(workdir, "network_report.json")
    run = subprocess.run([sim, "run", "-q", "--report-json", report, elf], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"pulpsim run failed ({run.returncode}):\n{run.stdout}{run.stderr}")
        return 1
    regions = {r["name"]: r["cycles"] for r in json.load(open(report))["regions"]}
    out = subprocess.run([sys.executable, tool, report, "--latent-replay"], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"network_report.py failed ({out.returncode}): {out.stderr}")
        return 1
    failures = []
    rows = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(L\d+_[a-z]+)\s.*?(\d+)\s+(?:[0-9.]+)?\s*$",
                                                             out.stdout, re.M)}
    weighted = sorted({re.match(r"(L\d+_(?:conv|dw|pw|linear))_", n).group(1) for n in regions
                       if re.match(r"L\d+_(conv|dw|pw|linear)_fw$", n)})
    for layer in weighted:
        if layer not in rows:
            failures.append(f"no row for {layer}")
    step = regions["train_step"]
    covered = sum(rows.values()) + regions["loss"]
    expected_covered = sum(c for n, c in regions.items() if n != "train_step")
    if covered != expected_covered:
        failures.append(f"rows + loss = {covered} cycles, the regions inside train_step add up to {expected_covered}")
    if not 0.99 * step <= covered <= step:
        failures.append(f"rows + loss = {covered} cycles is not within 1% below train_step ({step})")
    replay = [int(c) for c in re.findall(r"^\s+l =\s+\d+:\s+(\d+) cycles", out.stdout, re.M)]
    if len(replay) != len(weighted):
        failures.append(f"{len(replay)} latent-replay rows for {len(weighted)} weighted layers")
    elif replay[0] != covered or any(b >= a for a, b in zip(replay, replay[1:])):
        failures.append(f"latent-replay cycles {replay} do not start at the step's {covered} and shrink")
    # Well-formed JSON of the wrong shape, and options no learning event has: one line, exit 2, nothing else.
    def refused(argv, *words):
        r = subprocess.run([sys.executable, tool, *argv], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        return (r.returncode == 2 and not r.stdout and len(lines) == 1 and all(w in lines[0] for w in words)
                and "Traceback" not in r.stderr), r.stderr.strip()
    for name, text in [("list.json", "[1, 2]"), ("regions_number.json", '{"regions": 5}'),
                       ("no_cycles.json", '{"regions": [{"name": "train_step"}]}'),
                       ("region_not_object.json", '{"regions": [3]}'),
                       ("bool_macs.json", '{"regions": [{"name": "train_step", "cycles": 5, "macs": true}]}')]:
        path = os.path.join(workdir, name)
        with open(path, "w") as f:
            f.write(text)
        ok, err = refused([path], path)
        if not ok:
            failures.append(f"{name} ({text}): not one line and exit 2 ({err!r})")
    for option in (["--mhz", "-5"], ["--mhz", "nan"], ["--mhz", "inf"], ["--updates", "-100000"],
                   ["--samples", "0"], ["--samples", "-3"]):
        ok, err = refused([report, "--latent-replay", *option], option[0], option[1])
        if not ok:
            failures.append(f"{' '.join(option)}: not one line and exit 2 ({err!r})")
    for option in (["--samples", "7"], ["--latent-replay", "--updates", "5"]):
        ok, err = refused([report, *option], "--samples and --updates", "--latent-replay and --mhz")
        if not ok:
            failures.append(f"{' '.join(option)} without --mhz: not one line and exit 2 ({err!r})")
    for failure in failures:
        print(failure)
    print(out.stdout if failures else f"network_report: {len(rows)} rows, {covered} of {step} cycles: OK")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
