#!/usr/bin/env python3
"""The cluster DMA end to end, through a program running on the simulator (dma_checks.c):

- its data checks (1-D at every alignment, 2-D gathers and scatters against copies the core makes) pass
  on full and half duplex and at 8 and 256 bit/cycle;
- a push + wait of N bytes takes l2.latency + ceil(N * 8 / bandwidth) cycles plus a fixed cost of the
  push and wait instructions and the wake-up, the same for every size and bandwidth (the model's formula);
- full duplex moves an in and an out transfer together in about the time of one; half duplex shares one
  budget, so the pair takes about N * 8 / bandwidth cycles longer;
- with seven cores loading from every TCDM bank, transfers take longer, and the report shows the DMA
  waiting behind cores and cores waiting behind the DMA;
- dma.arbitration: dma-first keeps the DMA at its quiet speed and makes only the cores wait, cores-first
  the reverse.
"""
import argparse
import json
import os
import re
import subprocess
import sys

L2_LATENCY = 15  # pulp-open's l2.latency


def run(sim, elf, workdir, name, *sets):
    report = os.path.join(workdir, name + ".json")
    cmd = [sim, "run", "-q", "--report-json", report, "--set", "icache.model=perfect"]
    for s in sets:
        cmd += ["--set", s]
    r = subprocess.run(cmd + [elf], capture_output=True, text=True, timeout=600)
    if r.returncode != 0 or "dma checks: OK" not in r.stdout:
        sys.exit(f"FAIL {name}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    times = {}
    for kind, size, cycles in re.findall(r"time (in|both) (\d+) (\d+)", r.stdout):
        times[(kind, int(size))] = int(cycles)
    with open(report) as f:
        return times, json.load(f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--checks", required=True)
    ap.add_argument("--hammer", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    checks = []

    overheads = []
    full = {}
    for bw in (8, 16, 64, 128, 256):
        times, _ = run(args.sim, args.checks, args.workdir, f"bw{bw}", f"dma.bandwidth_bits={bw}")
        full[bw] = times
        for (kind, size), cycles in sorted(times.items()):
            if kind != "in":
                continue
            formula = L2_LATENCY + -(-size * 8 // bw)
            overheads.append((bw, size, cycles - formula))
    costs = [o for _, _, o in overheads]
    checks.append(("push + wait = latency + ceil(bytes*8/bw) + a fixed cost (every size and bandwidth)",
                   max(costs) - min(costs) <= 1 and 0 < min(costs) <= 30, overheads))

    for bw in (8, 64):
        half, _ = run(args.sim, args.checks, args.workdir, f"half{bw}", f"dma.bandwidth_bits={bw}",
                      "dma.duplex=half-duplex")
        for size in (1000, 4096):
            move = size * 8 // bw
            f_both, f_in = full[bw][("both", size)], full[bw][("in", size)]
            h_both = half[("both", size)]
            checks.append((f"full duplex {bw} bit/cycle, {size} B: in+out take about as long as in",
                           f_both - f_in <= 40, (f_in, f_both)))
            checks.append((f"half duplex {bw} bit/cycle, {size} B: in+out take about {move} cycles more",
                           0.85 * move <= h_both - f_both <= 1.1 * move, (f_both, h_both)))

    quiet, _ = run(args.sim, args.checks, args.workdir, "quiet")
    busy, rep = run(args.sim, args.hammer, args.workdir, "hammer")
    for size in (1000, 4096):
        checks.append((f"cores hammering the banks slow a {size} B transfer", busy[("in", size)] > quiet[("in", size)],
                       (quiet[("in", size)], busy[("in", size)])))
    dma = rep["dma"]
    core_tcdm = sum(c["stalls"]["tcdm_contention"] for c in rep["cores"])
    checks.append(("the DMA waited behind cores", dma["stalled_by_cores_cycles"] > 0, dma["stalled_by_cores_cycles"]))
    checks.append(("cores waited behind the DMA", dma["stalled_cores_cycles"] > 0, dma["stalled_cores_cycles"]))
    checks.append(("cores' TCDM contention includes the cycles lost to the DMA",
                   core_tcdm >= dma["stalled_cores_cycles"], (core_tcdm, dma["stalled_cores_cycles"])))
    checks.append(("every transfer completed", dma["transfers"] > 0, dma["transfers"]))
    # The table's TCDM line splits the conflict cycles between the cores' ports and the DMA's.
    table = subprocess.run([args.sim, "run", "--set", "icache.model=perfect", args.hammer], capture_output=True,
                           text=True, timeout=600).stdout
    line = re.search(r"^TCDM: \d+ accesses, (\d+) conflict cycles \([\d.]+%\): cores (\d+), DMA (\d+)$", table, re.M)
    split = tuple(int(g) for g in line.groups()) if line else None
    checks.append(("the TCDM line splits its conflict cycles: the cores' part is their tcdm_cont, the DMA's the rest",
                   split is not None and split[1] == core_tcdm and split[1] + split[2] == split[0] ==
                   rep["tcdm"]["conflicts"] and split[2] > 0, (split, core_tcdm, rep["tcdm"]["conflicts"])))

    # dma.arbitration decides who wins a bank both want in the same cycle.
    first, rep_first = run(args.sim, args.hammer, args.workdir, "dma_first", "dma.arbitration=dma-first")
    last, rep_last = run(args.sim, args.hammer, args.workdir, "cores_first", "dma.arbitration=cores-first")
    q, f, l, rr = quiet[("in", 4096)], first[("in", 4096)], last[("in", 4096)], busy[("in", 4096)]
    checks.append(("dma-first: a 4096 B transfer runs as fast as on a quiet cluster", abs(f - q) <= 4, (q, f)))
    checks.append(("cores-first: it runs slower than with round-robin", l > rr, (rr, l)))
    checks.append(("dma-first: cores wait behind the DMA, hardly the reverse",
                   rep_first["dma"]["stalled_cores_cycles"] > 20 * max(1, rep_first["dma"]["stalled_by_cores_cycles"]),
                   (rep_first["dma"]["stalled_cores_cycles"], rep_first["dma"]["stalled_by_cores_cycles"])))
    checks.append(("cores-first: the DMA waits behind cores, hardly the reverse",
                   rep_last["dma"]["stalled_by_cores_cycles"] > 20 * max(1, rep_last["dma"]["stalled_cores_cycles"]),
                   (rep_last["dma"]["stalled_by_cores_cycles"], rep_last["dma"]["stalled_cores_cycles"])))

    failed = 0
    for name, ok, detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        failed += not ok
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
