#!/usr/bin/env python3
"""`pulpsim run --profile / --profile-json`: the per-function profile adds up to the report, core by core
(cycles, instructions and every stall kind, with the cycles after a core's last instruction as their own
row, which holds no instruction), and it puts the work where the program does it: the matmul slice on every
core of the cluster matmul, the workers' sleep in the runtime's worker loop, the bare matmul in `matmul`.
A report path that cannot take the file is refused before the run.
"""
import argparse
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

AFTER = "(after the last instruction)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--cluster-elf", required=True, help="matmul_fp32_parallel_rows.elf")
    ap.add_argument("--bare-elf", required=True, help="matmul_fp32.elf")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    w = fresh_dir(args.workdir)
    check = Checks()

    def profiled(elf, *extra):
        stem = os.path.basename(elf)
        prof, rep = os.path.join(w, f"{stem}.profile.json"), os.path.join(w, f"{stem}.report.json")
        r = subprocess.run([args.sim, "run", "-q", *extra, "--profile-json", prof, "--report-json", rep, elf],
                           capture_output=True, text=True)
        if not check(r.returncode == 0, f"{os.path.basename(elf)} runs profiled ({r.stderr.strip()[:200]})"):
            return None, None
        return json.load(open(prof))["functions"], json.load(open(rep))

    for elf, extra in [(args.cluster_elf, []), (args.bare_elf, ["--bare"])]:
        functions, report = profiled(elf, *extra)
        if functions is None:
            continue
        name = os.path.basename(elf)
        for i, core in enumerate(report["cores"]):
            rows = [f["cores"][i] for f in functions]
            same = (sum(r["cycles"] for r in rows) == core["cycles"] and
                    sum(r["instret"] for r in rows) == core["instret"] and
                    all(sum(r["stalls"][k] for r in rows) == v for k, v in core["stalls"].items()))
            check(same, f"{name} core {core['id']}: the functions add up to the report's {core['cycles']} cycles, "
                  f"{core['instret']} instructions and each stall kind")
        after = [f for f in functions if f["function"] == AFTER]
        check(not after or after[0]["total"]["instret"] == 0, f"{name}: the last row holds no instruction")
        top = max((f for f in functions if f["function"] != AFTER), key=lambda f: f["total"]["instret"])
        if extra:
            check(top["function"] == "matmul", f"bare matmul: most instructions in matmul ({top['function']})")
        else:
            check(top["function"] == "matmul_slice" and all(c["instret"] > 100000 for c in top["cores"]),
                  f"cluster matmul: most instructions in matmul_slice, on every core ({top['function']})")
            loop = [f for f in functions if f["function"] == "__cluster_worker_loop"]
            sleep_1 = sum(f["cores"][1]["stalls"]["sleep"] for f in functions if f["function"] != AFTER)
            check(loop and loop[0]["cores"][1]["stalls"]["sleep"] >= 0.9 * sleep_1 > 0,
                  "worker core 1 sleeps in __cluster_worker_loop")

    plain = os.path.join(w, "plain.json")
    subprocess.run([args.sim, "run", "-q", "--report-json", plain, args.cluster_elf], capture_output=True)
    check(json.load(open(plain))["cores"] == json.load(open(os.path.join(w, os.path.basename(args.cluster_elf) + ".report.json")))["cores"]
          if os.path.exists(plain) else False, "profiling changes no cycle count (cluster matmul, every core)")
    r = subprocess.run([args.sim, "run", "--profile", args.cluster_elf], capture_output=True, text=True)
    check(r.returncode == 0 and "profile: cycles per function, 8 cores" in r.stdout and "matmul_slice" in r.stdout,
          "--profile prints the table after the report")
    r = subprocess.run([args.sim, "run", "--profile-json", w, args.cluster_elf], capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "--profile-json" not in r.stdout and not r.stdout,
          f"a directory as --profile-json: one line, exit 2, no run ({lines})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
