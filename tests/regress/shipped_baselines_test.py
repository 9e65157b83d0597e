#!/usr/bin/env python3
"""Our own CI gate: every baseline in configs/regress/ passes exactly (tolerance 0), with no region new or
missing, and together they cover every cluster kernel program the build ships, on pulp-open and VEGA.

When a change moves a cycle count on purpose, bless it in the same commit (README: "Blessing a deliberate
change"): `build/bin/pulpsim regress configs/regress/<platform>.yaml --update`, from the repository root.

With --set KEY=VALUE (repeatable) every entry runs with that setting added and must still match its
baseline exactly: `--set engine.reference_loop=true` checks that the default lockstep engine, which skips
idle cycles and cores, gives the counts of the plain per-cycle loop on every region of every program.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import repository_view  # noqa: E402

# Programs that are not cluster kernels with regions: bare-mode programs and the ones built to fail.
NOT_GATED = re.compile(r"^(matmul_fp32|matmul_fp32_hwloop|matmul_fp32_rv32imfc|.*error.*|.*mismatch.*|.*_slowed|.*_perturbed)$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--set", action="append", default=[], help="a setting every entry must match under")
    args = ap.parse_args()
    # Baselines name build/kernels/... and configs/... relative to the repository root.
    repository_view(args.source, args.build, args.workdir)
    shipped = sorted(os.path.splitext(os.path.basename(p))[0]
                     for p in glob.glob(os.path.join(args.build, "kernels", "*.elf")))
    gated = [p for p in shipped if not NOT_GATED.match(p)]
    failed = 0
    baselines = sorted(glob.glob(os.path.join(args.source, "configs", "regress", "*.yaml")))
    platforms = {os.path.splitext(os.path.basename(b))[0] for b in baselines}
    if not {"pulp-open", "vega"} <= platforms:
        print(f"FAIL configs/regress/ must hold pulp-open.yaml and vega.yaml (has {sorted(platforms)})")
        failed += 1
    for baseline in baselines:
        rel = os.path.join("configs", "regress", os.path.basename(baseline))
        junit = os.path.join(args.workdir, os.path.basename(baseline) + ".xml")
        extra = [a for kv in args.set for a in ("--set", kv)]
        r = subprocess.run([args.sim, "regress", rel, "--junit", junit] + extra, cwd=args.workdir,
                           capture_output=True, text=True, timeout=1200)
        rows = [line for line in r.stdout.splitlines()[1:-1]]
        not_ok = [line for line in rows if not line.endswith(" ok")]
        ok = r.returncode == 0 and not not_ok and rows
        print(f"{'ok  ' if ok else 'FAIL'} {rel}: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr.strip()}")
        for line in not_ok:
            print("     " + line)
        covered = set(re.findall(r"program: build/kernels/([\w.-]+)\.elf", open(baseline).read()))
        missing = [p for p in gated if p not in covered]
        print(f"{'ok  ' if not missing else 'FAIL'} {rel} covers every cluster kernel program"
              f"{'' if not missing else ': missing ' + ', '.join(missing)}")
        failed += (not ok) + bool(missing)
    if failed and args.set:
        print(f"Under {' '.join(args.set)} a count differs from the default engine's (rows above).")
    elif failed:
        print("A cycle count moved. If on purpose, bless it in the same commit: build/bin/pulpsim regress "
              "configs/regress/<platform>.yaml --update (from the repository root), and say why in the commit.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
