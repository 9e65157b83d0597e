#!/usr/bin/env python3
"""The lockstep engine's run-ahead is invisible: every figure of the JSON report (each core's cycles,
instructions, stalls and counters, each region's, the TCDM's, the DMA's and the FPUs') equals the plain
per-cycle reference loop's, on both platforms and with a short quantum, and for a tiled program (DMA,
barriers, shared banks and FPUs) under the platform settings that change who meets whom and when: the
DMA's arbitration, bandwidth and queue, the FPU mapping and count, the bank count, the instruction caches,
latencies at values that once broke the engine, and fewer cores. So do seeded random cluster programs
(gen_cluster_program.py: shared loads and stores, FP work on shared FPUs, critical sections, hardware loops,
DMA, regions opened by any core, and runs ended by one core while the others loop) on both platforms, each
under those settings on one of them; these and the tiled program must end by exiting.

The run-ahead program has workers spinning in register-only loops (which they run ahead of the others)
while core 0 opens and closes a region over the whole cluster and then ends the run: the region's counters
and the workers' final counters must leave out what the workers ran ahead past core 0's turn. It runs at
FPU latencies of 2 and 4 as well, where its FP operations writing x0 hold the load behind them, which takes
a lockstep turn.
"""
import argparse
import json
import os
import subprocess
import sys

# Settings that change which requests meet in a cycle, or when the cores sleep and wake; each list is applied
# to both platforms. The mapping is named where the count would not fit pulp-open's private FPUs.
VARIANTS = [
    ["dma.arbitration=dma-first"],
    ["dma.arbitration=cores-first"],
    ["dma.bandwidth_bits=8"],
    ["dma.duplex=half-duplex"],
    ["dma.queue_depth=1"],
    ["fpu.mapping=dynamic"],
    ["fpu.count=1", "fpu.mapping=static-modulo"],
    ["fpu.addmul_latency=2", "fpu.other_latency=3"],
    ["tcdm.banks=4"],
    ["icache.l0_size=16"],
    ["icache.model=perfect"],
    ["l2.latency=56"],
    ["icache.refill_latency=49"],
    ["event_unit.sleep_latency=0", "event_unit.wake_latency=0"],
    ["cluster.cores=4", "fpu.count=2", "fpu.mapping=static-modulo"],
    ["cluster.controller_core=false"],
]


def report(sim, elf, workdir, extra):
    out = os.path.join(workdir, "report.json")
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run([sim, "run", "-q", "--report-json", out] + extra + [elf], capture_output=True, text=True,
                       timeout=600)
    if not os.path.exists(out):
        sys.exit(f"FAIL {os.path.basename(elf)} {' '.join(extra)}: no report (exit {r.returncode}): {r.stderr.strip()}")
    with open(out) as f:
        rep = json.load(f)
    rep.pop("config", None)  # names the engine
    return rep


def set_options(settings):
    return [a for v in settings for a in ("--set", v)]


def differences(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            yield from differences(a.get(k), b.get(k), f"{path}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, f"{path}[{i}]")
    elif a != b:
        yield f"{path}: {a} against {b}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--platforms", required=True)
    ap.add_argument("--run-ahead-elf", required=True)
    ap.add_argument("--variants-elf", required=True, help="the tiled program run under VARIANTS")
    ap.add_argument("--random-elf", action="append", default=[],
                    help="a random program (gen_cluster_program.py), repeatable: run on both platforms, and under "
                         "VARIANTS on one of them, the next program on the other")
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--sanitized", action="store_true",
                    help="a sanitizer build, many times slower: each variant on one platform only, and the random "
                         "programs without variants")
    ap.add_argument("programs", nargs="+", help="more programs whose reports must match")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    failed = 0
    cases = []
    for index, platform in enumerate(("pulp-open", "vega")):
        p = ["--platform", os.path.join(args.platforms, platform + ".yaml")]
        cases.append((args.run_ahead_elf, p))
        cases.append((args.run_ahead_elf, p + ["--set", "engine.quantum=97"]))
        # FP results of latency 2 and 4, which hold the instructions behind an FP operation writing x0.
        for latency in (["fpu.addmul_latency=1", "fpu.other_latency=1"], ["fpu.other_latency=3"]):
            cases.append((args.run_ahead_elf, p + set_options(latency)))
        cases += [(elf, p) for elf in args.programs]
        cases += [(args.variants_elf, p + set_options(variant)) for n, variant in enumerate(VARIANTS)
                  if not args.sanitized or n % 2 == index]
        for n, elf in enumerate(args.random_elf):
            if args.sanitized and n % 2 != index:
                continue
            cases.append((elf, p))
            if n % 2 == index and not args.sanitized:
                cases += [(elf, p + set_options(variant)) for variant in VARIANTS]
    for elf, extra in cases:
        fast = report(args.sim, elf, args.workdir, extra)
        reference = report(args.sim, elf, args.workdir, extra + ["--set", "engine.reference_loop=true"])
        diff = list(differences(fast, reference))
        name = f"{os.path.basename(elf)} {' '.join(extra[1:])}".replace(args.platforms + "/", "")
        print(f"{'ok  ' if not diff else 'FAIL'} {name}: {fast['cycles']} cycles")
        for d in diff[:20]:
            print("     " + d)
        failed += bool(diff)
        if (elf == args.variants_elf or elf in args.random_elf) and fast["outcome"] != "exit":
            print(f"FAIL {name}: ended with {fast['outcome']}, not by exiting: the comparison would say little")
            failed += 1
        if elf == args.run_ahead_elf:
            # The program did what the comparison relies on: core 0 ended the run, the region exists and
            # the workers were running, not asleep, when it ended.
            region = [r for r in fast["regions"] if r["name"] == "while_others_run"]
            running = [c for c in fast["cores"][1:]
                       if c["instret"] > 10000 and c["stalls"]["sleep"] < c["cycles"] // 2]
            ok = (fast["outcome"] == "exit" and fast["exit_code"] == 0 and len(region) == 1 and len(running) >= 7)
            if not ok:
                print(f"FAIL {name}: the program did not run as the test expects "
                      f"(outcome {fast['outcome']}, exit {fast['exit_code']}, regions {[r['name'] for r in fast['regions']]})")
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
