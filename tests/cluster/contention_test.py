#!/usr/bin/env python3
"""On vega.yaml (9 cores, 4 FPUs shared by static-modulo mapping) the 8-core matmul must show FPU
contention and TCDM bank conflicts in its report, while pulp-open with private FPUs shows no FPU
contention; both results must be correct. The per-core table of the text report gives the JSON's
figures, each a field of its own (the idle controller's CPI is wider than its column).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def report(sim, platform, elf, work, *extra):
    path = os.path.join(work, os.path.basename(platform) + ".json")
    r = subprocess.run([sim, "run", "--platform", platform, *extra, "--report-json", path, elf],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or "OK" not in r.stdout:
        sys.exit(f"{elf} on {platform} failed (exit {r.returncode}): {r.stdout} {r.stderr}")
    with open(path) as f:
        return json.load(f), r.stdout


def core_table(text):
    """The rows of the text report's per-core table, split on white space."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("core ") and "CPI" in line)
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        rows.append(line.split())
    return lines[start].split(), rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--platforms", required=True, help="configs/platforms")
    ap.add_argument("elf")
    args = ap.parse_args()
    checks = []
    with tempfile.TemporaryDirectory() as work:
        vega, _ = report(args.sim, os.path.join(args.platforms, "vega.yaml"), args.elf, work)
        pulp, _ = report(args.sim, os.path.join(args.platforms, "pulp-open.yaml"), args.elf, work)
        # A slow L2 keeps core 0 in its set-up for millions of cycles: the controller's CPI passes 100 000.
        slow, slow_text = report(args.sim, os.path.join(args.platforms, "vega.yaml"), args.elf, work,
                                 "--set", "l2.latency=1000")
    vega_fpu = sum(c["stalls"]["fpu_contention"] for c in vega["cores"])
    vega_fpu_units = sum(u["contention_cycles"] for u in vega["fpus"]["units"])
    pulp_fpu = sum(c["stalls"]["fpu_contention"] for c in pulp["cores"])
    checks.append(("vega has 9 cores", len(vega["cores"]) == 9, len(vega["cores"])))
    checks.append(("vega shares 4 FPUs", len(vega["fpus"]["units"]) == 4, len(vega["fpus"]["units"])))
    checks.append(("vega: FPU contention in the cores' stalls", vega_fpu > 0, vega_fpu))
    checks.append(("vega: the FPUs count the same contention", vega_fpu_units == vega_fpu, vega_fpu_units))
    checks.append(("vega: TCDM bank conflicts", vega["tcdm"]["conflicts"] > 0, vega["tcdm"]["conflicts"]))
    checks.append(("vega: per-bank conflicts add up",
                   sum(b["conflicts"] for b in vega["tcdm"]["banks"]) == vega["tcdm"]["conflicts"], None))
    checks.append(("pulp-open private FPUs: no FPU contention", pulp_fpu == 0, pulp_fpu))
    header, rows = core_table(slow_text)
    for core, row in zip(slow["cores"], rows):
        want = [str(core["id"]), str(core["cycles"]), str(core["instret"]),
                f"{core['cycles'] / core['instret']:.2f}"] + [str(v) for v in core["stalls"].values()]
        checks.append((f"vega core {core['id']}: the text table's row gives the JSON's figures",
                       len(row) == len(header) and row == want, " ".join(row)))
    checks.append(("vega: a row per core", len(rows) == len(slow["cores"]), len(rows)))
    for core in vega["cores"] + pulp["cores"]:
        total = core["instret"] + sum(core["stalls"].values())
        checks.append((f"core {core['id']}: cycles = instret + stalls", total == core["cycles"], total))
    failed = 0
    for name, ok, value in checks:
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if value is None else f" ({value})"))
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
