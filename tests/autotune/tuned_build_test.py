#!/usr/bin/env python3
"""Checks that a kernel build takes the tuner's choices (kernels/lib/tiled_matmul.h, "Tuned choices"):

- `pulpsim autotune --tiled --prune` tunes the three steps of a Linear layer as kernels/lib tiles them;
- the kernels folder, configured on its own with -DPULPSIM_TUNING=<that tuning file>, builds
  tiled_tune.elf and linear_tiled.elf;
- that tiled_tune.elf, given each step's matmul in its symbols and no tiles (tune_tm = 0), runs the tuner's tile and
  kernel and gives the cycles the tuner reported (within 0.5%: it runs the same instructions, through the
  same look-up of its choice);
- linear_tiled.elf (the layer's three tiled steps) runs the tuned tiles and passes its PyTorch check;
- tuned_choices.py refuses an unknown kernel and an entry without its matmul in one line, exit 2, and leaves
  the header it would have written as it was.
"""
import argparse
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

check = Checks()
LIN_IN, LIN_OUT = 256, 64  # linear_tiled's shape (kernels/apps/tiled_layers/CMakeLists.txt)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    fresh_dir(args.workdir)
    w = args.workdir
    tuning = os.path.join(w, "tuning.yaml")
    out = os.path.join(w, "tune.json")
    r = subprocess.run([args.sim, "autotune", "--layer", "linear", "--shape", f"{LIN_IN}x{LIN_OUT}", "--tiled",
                        "--prune", "--db", os.path.join(w, "tune.db"), "--tuning", tuning, "--json", out,
                        "--no-progress"], capture_output=True, text=True, timeout=900)
    if not check(r.returncode == 0, f"autotune --tiled --prune runs ({r.stderr.strip()[-300:]})"):
        return check.exit_status()
    result = json.load(open(out))
    steps = {s["step"]: s for s in result["steps"]}
    check(all(s["tiled"] and s["simulations"] <= s["pairs"] for s in steps.values()) and
          re.search(r"pruning keeps \d+ of \d+ tile x kernel pairs", r.stderr),
          "every step is tiled and pruning reports what it keeps")

    build = os.path.join(w, "kernels")
    r = subprocess.run(["cmake", "-S", os.path.join(args.source, "kernels"), "-B", build, "-G", "Ninja",
                        f"-DPULPSIM_TUNING={tuning}"], capture_output=True, text=True)
    if not check(r.returncode == 0 and "take their choices from" in r.stdout,
                 f"the kernels configure on their own with the tuning file ({r.stderr.strip()[-300:]})"):
        return check.exit_status()
    header = open(os.path.join(build, "kernels", "tuned", "tuned_choices.h")).read()
    check(header.count("pulp-open linear") == 3 and "#define TUNED_MATMUL_CHOICES 3u" in header,
          "the generated table has one row per tuned step")
    r = subprocess.run(["cmake", "--build", build, "--target", "riscv_tiled_tune", "riscv_linear_tiled"],
                       capture_output=True, text=True)
    if not check(r.returncode == 0, f"tiled_tune and linear_tiled build with it ({r.stdout.strip()[-300:]})"):
        return check.exit_status()

    # Each step's matmul through the tuned tiled_tune: the tuned tile and kernel run, at the tuner's cycles.
    for name, s in steps.items():
        m, n, k = s["matmul"]
        a_trans, b_trans = s["transposed"]
        report = os.path.join(w, f"tuned-{name}.json")
        r = subprocess.run([args.sim, "run", "-q", "--report-json", report, *[
            arg for sym, v in [("tune_m", m), ("tune_n", n), ("tune_k", k), ("tune_a_trans", a_trans),
                               ("tune_b_trans", b_trans), ("tune_guard", result["guard_bytes"]), ("tune_tm", 0)]
            for arg in ("--symbol", f"{sym}={v}")], os.path.join(build, "kernels", "tiled_tune.elf")],
            capture_output=True, text=True)
        best = s["best"]
        tile = best["tile"]
        ran = re.search(r"tiles (\d+x\d+x\d+) (\w+) on \d+ cores: OK", r.stdout)
        if not check(r.returncode == 0 and ran and ran.group(1) == tile and ran.group(2) == best["kernel"],
                     f"{name}: the tuned build runs the tuner's pick {tile} {best['kernel']} "
                     f"({ran.groups() if ran else r.stdout.strip()[-200:]})"):
            continue
        cycles = next(g["cycles"] for g in json.load(open(report))["regions"] if g["name"] == "step")
        # The same instructions but for the look-up's passes over the entries before the match (8 each), and
        # the default engine's per-step arbitration, which a start a few cycles apart can shift.
        check(abs(cycles - best["cycles"]) <= best["cycles"] // 200,
              f"{name}: {cycles} cycles in the tuned build, the tuner reported {best['cycles']} (within 0.5%)")

    # The layer's own tiled steps with the tuned choices: the PyTorch check passes.
    r = subprocess.run([args.sim, "run", os.path.join(build, "kernels", "linear_tiled.elf")],
                       capture_output=True, text=True)
    plans = dict(re.findall(r"(lin_\w+): tiles (\d+x\d+x\d+)", r.stdout))
    check(r.returncode == 0 and f"linear_tiled {LIN_IN}->{LIN_OUT} on 8 cores: OK" in r.stdout,
          f"linear_tiled built with the tuned choices passes its checks ({r.stdout.strip()[-300:]})")
    check(all(plans.get(f"lin_{name}") == s["best"]["tile"] for name, s in steps.items()),
          f"linear_tiled runs the tuned tiles ({plans} against "
          f"{ {n: s['best']['tile'] for n, s in steps.items()} })")

    # tuned_choices.py: one-line errors, exit 2, the header left as it was.
    tool = os.path.join(args.source, "kernels", "tools", "tuned_choices.py")
    header_path = os.path.join(w, "choices.h")
    with open(header_path, "w") as f:
        f.write("/* before */\n")
    text = open(tuning).read()
    for what, bad, word in [
        ("an unknown kernel", re.sub(r"kernel: \"?\w+\"?", "kernel: mm_unroll_9x9", text, count=1),
         "kernel 'mm_unroll_9x9' is neither"),
        ("an entry without its matmul", re.sub(r"matmul: \[[0-9, ]+\], ", "", text, count=1), "needs 'matmul'"),
        ("malformed YAML", text + "\n  - {platform: [\n", "malformed YAML"),
    ]:
        bad_path = os.path.join(w, "bad.yaml")
        with open(bad_path, "w") as f:
            f.write(bad)
        r = subprocess.run([sys.executable, tool, bad_path, header_path], capture_output=True, text=True)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and word in lines[0] and bad_path in lines[0] and
              open(header_path).read() == "/* before */\n",
              f"tuned_choices.py, {what}: one line naming the file, exit 2, header untouched ({lines})")
    # A platform's name goes into the header's comments: one with '*/' in it must not end them early.
    odd_path = os.path.join(w, "odd-platform.yaml")
    with open(odd_path, "w") as f:
        f.write(re.sub(r'platform: "?[^,"]+"?', 'platform: "a*/b"', text))
    r = subprocess.run([sys.executable, tool, odd_path, header_path], capture_output=True, text=True)
    header = open(header_path).read()
    check(r.returncode == 0 and "a* /b" in header and header.count("/*") == header.count("*/"),
          f"tuned_choices.py, a platform named 'a*/b': its comments close where they should ({r.stderr.strip()})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
