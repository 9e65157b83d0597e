#!/usr/bin/env python3
"""Runs the simulator fresh on the programs that measure the seed documents' figures and writes
docs/validation.md: one table per seed document with the paper's value, ours and their ratio, and for every
figure more than 20% off, the reason (what the instructions, stalls and overheads of our run do differently).

    python3 scripts/validation.py [--build build] [--jobs 2] [--out docs/validation.md]

Run it from the repository root after `cmake --build build`. It builds the autotuned DAE and DS-CNN programs
(the kernels folder configured with kernels/networks/tuning/pulp-open.yaml) into <work>/tuned, runs every
program with the default lockstep engine (at most --jobs simulations at once) and runs a reduced grid of
configs/sweeps/seed003-mobilenet.yaml through `pulpsim sweep` with a fresh database in <work>.

The reasons are prose in scripts/validation_reasons.yaml, one per figure id, with {placeholders} filled from
the run's numbers (the figure's `details`). The script fails (exit status 1, one line per figure, nothing
written) when a figure is more than 20% off and has no reason, when a reason belongs to a figure that is now
within 20% (the reason is stale), or when a reason names an unknown figure or placeholder.

--figures-json FILE skips the simulations and applies the rules to the figures in FILE (a list in the format
--save-figures writes), so that the rules can be checked, and the reasons edited, without the long runs.
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import yaml

GAP = 0.20  # a figure whose ours / paper ratio is off 1 by more than this needs a reason

SEEDS = {
    "000": ("PULP-TrainLib: autotuned training primitives on an 8-core PULP cluster",
            "/work/shared/seeds/000_08b51c6032063ecb.txt"),
    "001": ("FP16 SIMD vector-matrix kernels for the Linear input-gradient step (tutorial)",
            "/work/shared/seeds/001_e313c1fb2c033f1c.txt"),
    "002": ("Training an RNN on the PULP cluster (thesis)",
            "/work/shared/seeds/002_e72faa3c21aeabee.txt"),
    "003": ("Continual learning with latent replays on VEGA",
            "/work/shared/seeds/003_cf35a9c2cee8635a.txt"),
}

# The paper figures: id -> (seed, what, paper value(s), bound, unit, where in the seed document).
# bound: "value" (ours / paper), "range" (paper is [lo, hi]), "at_least" (the paper states a lower bound),
# "info" (no paper value: shown, never judged).
PAPER = {
    "s000.naive_fw_1core.pw": ("000", "PointWise FW, naive `mm`, 1 core (MAC/clk)", 0.24, "value", "",
                               "Sec. 4.1, Fig. 4"),
    "s000.naive_fw_1core.fc": ("000", "Linear FW, naive `mm`, 1 core (MAC/clk)", 0.24, "value", "",
                               "Sec. 4.1, Fig. 4"),
    "s000.fc_fw_8": ("000", "Linear FW, 8 cores, fastest kernel (MAC/clk)", 2.66, "value", "", "Sec. 4.1"),
    "s000.fc_wg_8": ("000", "Linear WG, 8 cores, fastest kernel (MAC/clk)", 2.61, "value", "", "Sec. 4.1"),
    "s000.fc_ig_8": ("000", "Linear IG, 8 cores, fastest kernel (MAC/clk)", 1.44, "value", "", "Sec. 4.1"),
    "s000.best": ("000", "best training step, 8 cores (MAC/clk)", 4.39, "value", "", "abstract, Sec. 1"),
    "s000.naive_speedup": ("000", "naive kernel, 8 over 1 core, lowest of the PointWise / Linear steps (x)", 7.5,
                           "at_least", "x", "Sec. 4.1"),
    "s000.dae_step": ("000", "DAE FW + BW, 8 cores, 64 kB L1, autotuned (cycles)", (390e3, 400e3), "range",
                      "cycles", "abstract, Sec. 4.3, Fig. 6"),
    "s000.dscnn_step": ("000", "DS-CNN FW + BW, 8 cores, 64 kB L1, autotuned (cycles)", 1.3e6, "value",
                        "cycles", "Sec. 4.3, Fig. 6"),
    "s000.dae_speedup": ("000", "DAE FW + BW, 8 over 1 core (x)", 6.5, "at_least", "x", "Sec. 4.4"),
    "s000.dscnn_speedup": ("000", "DS-CNN FW + BW, 8 over 1 core (x)", None, "info", "x", "-"),
    "s001.vm_naive": ("001", "`vm_naive` 128x128, 1 core (cycles)", 67386, "value", "cycles", "Input Gradient tests"),
    "s001.vm_SIMD_naive": ("001", "`vm_SIMD_naive` 128x128, 1 core (cycles)", 43611, "value", "cycles",
                           "Input Gradient tests"),
    "s001.vm_T_SIMD": ("001", "`vm_T_SIMD` 128x128, 1 core (cycles)", 35268, "value", "cycles",
                       "Input Gradient tests"),
    "s002.fw_speedup_2": ("002", "FW speed-up, 2 over 1 core, 50x50x50 (x)", 1.94, "value", "x",
                          "Sec. 4.2.5, Fig. 18"),
    "s002.fw_speedup_4": ("002", "FW speed-up, 4 over 1 core (x)", 3.43, "value", "x", "Sec. 4.2.5, Fig. 18"),
    "s002.fw_speedup_8": ("002", "FW speed-up, 8 over 1 core (x)", 5.74, "value", "x", "Sec. 4.2.5, Fig. 18"),
    "s002.bw_speedup_2": ("002", "BW speed-up, 2 over 1 core (x)", 1.94, "value", "x", "Sec. 4.3.2, Fig. 21"),
    "s002.bw_speedup_4": ("002", "BW speed-up, 4 over 1 core (x)", 3.67, "value", "x", "Sec. 4.3.2, Fig. 21"),
    "s002.bw_speedup_8": ("002", "BW speed-up, 8 over 1 core (x)", 6.54, "value", "x", "Sec. 4.3.2, Fig. 21"),
    "s002.tanhf_speedup_8": ("002", "FW with libm `tanhf`, 8 over 1 core (x)", 3.9, "value", "x",
                             "Sec. 4.2.2, Fig. 12"),
    "s002.fast_over_tanhf_8": ("002", "FW MAC/cycle, fast tanh over `tanhf`, 8 cores (x)", 1.58, "value", "x",
                               "Sec. 4.2.6, Fig. 19"),
    "s003.pw_fw_peak": ("003", "PointWise FW, 8 cores, 512 kB L1 (MAC/cyc)", 1.91, "value", "",
                        "Sec. V-C, Fig. 8"),
    "s003.pw_fw_speedup": ("003", "PointWise FW, 8 over 1 core (x)", 7.2, "value", "x", "Sec. V-C, Fig. 8"),
    "s003.table4.l20": ("003", "adaptive stage from layer 20, per learning event (s)", 2490, "value", "s",
                        "Table IV"),
    "s003.table4.l21": ("003", "adaptive stage from layer 21 (s)", 1730, "value", "s", "Table IV"),
    "s003.table4.l22": ("003", "adaptive stage from layer 22 (s)", 1640, "value", "s", "Table IV"),
    "s003.table4.l23": ("003", "adaptive stage from layer 23 (s)", 877, "value", "s", "Table IV"),
    "s003.table4.l24": ("003", "adaptive stage from layer 24 (s)", 781, "value", "s", "Table IV"),
    "s003.table4.l25": ("003", "adaptive stage from layer 25 (s)", 401, "value", "s", "Table IV"),
    "s003.table4.l26": ("003", "adaptive stage from layer 26 (s)", 381, "value", "s", "Table IV"),
    "s003.table4.l27": ("003", "adaptive stage from layer 27 (s)", 2.07, "value", "s", "Table IV"),
    "s003.knee_2": ("003", "Fig. 9 knee, 2 cores, 128 kB (bit/cycle)", 16, "value", "bit/cyc", "Sec. V-C, Fig. 9"),
    "s003.knee_4": ("003", "Fig. 9 knee, 4 cores, 128 kB (bit/cycle)", 32, "value", "bit/cyc", "Sec. V-C, Fig. 9"),
    "s003.knee_8": ("003", "Fig. 9 knee, 8 cores, 128 kB (bit/cycle)", 64, "value", "bit/cyc", "Sec. V-C, Fig. 9"),
    "s003.l1_128": ("003", "8 cores, 8 bit/cycle, 128 kB L1 (MAC/cyc)", 0.25, "value", "", "Sec. V-C, Fig. 9"),
    "s003.l1_256": ("003", "8 cores, 8 bit/cycle, 256 kB L1 (MAC/cyc)", 0.40, "value", "", "Sec. V-C, Fig. 9"),
    "s003.l1_512": ("003", "8 cores, 8 bit/cycle, 512 kB L1 (MAC/cyc)", 0.53, "value", "", "Sec. V-C, Fig. 9"),
    "s003.l1_128_64bit": ("003", "8 cores, 64 bit/cycle, 128 kB L1 (MAC/cyc)", 0.52, "value", "",
                          "Sec. V-C, Fig. 9"),
}

NOT_REPRODUCED = [
    ("000", "Fig. 4's STM32L476 bars, the 36.6x over the STM32 and the 30.7x / 4.5x over AIfES (Fig. 7)",
     "they are measurements of other chips and libraries; we simulate only the PULP cluster."),
    ("000", "Fig. 4's exact layer shapes and its DepthWise bars",
     "the text does not give Fig. 4's shapes; the PointWise and Linear figures above use Shape 1 of Fig. 5 "
     "(PointWise 64x25x5 -> 16, Linear 640 -> 16), which does fit the 64 kB L1."),
    ("000", "Fig. 5's normalised top-5 rankings",
     "they rank kernels per shape; `pulpsim compare` prints the same kind of ranking, but the paper gives no "
     "absolute figure to put next to ours."),
    ("001", "the instruction-count estimates (49280 / 41216 / 24832 cycles)",
     "they are the tutorial's formulas, not measurements; the reasons above compare our instruction counts "
     "with them."),
    ("002", "the share of cycles in tanh (Fig. 14), the fast tanh's output error (Fig. 19), the per-core "
     "waveform (Fig. 17) and the latency and memory on VEGA (Figs. 24, 25)",
     "the thesis states them only in plots, or on data it does not give; the program checks its tanh_fast "
     "error against its own bound instead."),
    ("003", "Table IV's frozen stage, energies and the STM32 / Snapdragon columns",
     "the frozen stage is 8-bit inference by another tool chain, and energy is not modelled."),
    ("003", "Fig. 8's DepthWise and Linear bars",
     "the text gives only the PointWise peak and speed-up; the tile tables of Fig. 8 are not in the text."),
    ("003", "the full 60-point Fig. 9 grid",
     "it takes about 6 minutes with two jobs, longer than every other run of this page together; the script "
     "runs 2 / 4 / 8 cores at 128 kB over every bandwidth (the knees) and 8 cores at 8 bit/cycle over the three L1 sizes; "
     "`pulpsim sweep configs/sweeps/seed003-mobilenet.yaml` runs the whole grid."),
]


class Failure(Exception):
    """A one-line error that ends the script with exit status 1."""


# ----------------------------------------------------------------------------------------------------------
# The rules


def judge(figure):
    """(ratio, off) of a figure: ours / paper (against the nearer end of a range), and whether it is more
    than GAP away from the paper in the direction that counts."""
    bound, paper, ours = figure["bound"], figure["paper"], figure["ours"]
    if bound == "info" or ours is None:
        return None, False
    if bound == "range":
        lo, hi = paper
        ref = lo if ours < lo else hi if ours > hi else ours
        ratio = ours / ref
    else:
        ratio = ours / paper
    if bound == "at_least":
        return ratio, ratio < 1.0 - GAP
    return ratio, abs(ratio - 1.0) > GAP


def apply_rules(figures, reasons):
    """Returns (rows, problems): rows are the figures with ratio, off and their filled reason; problems are
    one-line messages, each naming a figure."""
    problems = []
    ids = {f["id"] for f in figures}
    for key in reasons:
        if key not in ids:
            problems.append(f"reason for unknown figure '{key}' (no such figure in this run)")
    rows = []
    for f in figures:
        ratio, off = judge(f)
        text = reasons.get(f["id"])
        row = dict(f, ratio=ratio, off=off, reason=None)
        if off and not text:
            problems.append(f"figure '{f['id']}' ({f['what']}): ours {fmt(f['ours'])}, paper {paper_text(f)}, "
                            f"ratio {ratio:.2f}: more than {GAP:.0%} off and no reason in the reasons file")
        elif text and not off:
            problems.append(f"figure '{f['id']}' ({f['what']}): ours {fmt(f['ours'])}, paper {paper_text(f)}"
                            + (f", ratio {ratio:.2f}" if ratio is not None else "")
                            + f": within {GAP:.0%} but has a reason (stale: remove it)")
        elif text:
            try:
                row["reason"] = " ".join(str(text).split()).format_map(f.get("details", {}))
            except (KeyError, IndexError, ValueError, TypeError, AttributeError) as e:
                problems.append(f"figure '{f['id']}': its reason uses a value the run does not give "
                                f"({type(e).__name__}: {e})")
        rows.append(row)
    return rows, problems


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, (list, tuple)):
        return "-".join(fmt(x) for x in v)
    if abs(v) >= 10000:
        return f"{v:,.0f}".replace(",", " ")
    if isinstance(v, int):
        return f"{v}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    if abs(v) >= 0.1:
        return f"{v:.2f}"
    return f"{v:.3g}"


def paper_text(f):
    if f["bound"] == "info":
        return "-"
    if f["bound"] == "range":
        return f"{fmt(f['paper'][0])}-{fmt(f['paper'][1])}"
    if f["bound"] == "at_least":
        return f"> {fmt(f['paper'])}"
    return fmt(f["paper"])


def render(rows, meta):
    out = ["# Validation against the seed documents", ""]
    out += [
        "Every figure below that the simulator reproduces, next to the seed document's value. The numbers in the",
        "\"ours\" column come from one fresh run of `scripts/validation.py`; regenerate this file with",
        "",
        "```sh",
        "cmake --build build && python3 scripts/validation.py",
        "```",
        "",
        f"(lockstep engine, `engine.lookahead: 1`; {meta.get('runs', '?')} simulations, "
        f"{meta.get('minutes', '?')} minutes with {meta.get('jobs', '?')} jobs on this machine; simulator commit "
        f"`{meta.get('commit', '?')}`, {meta.get('date', '?')}).",
        "",
        f"The ratio is ours / paper (for a range, against its nearer end). A figure more than {GAP:.0%} off is",
        "marked **off** and has a reason below its table: what the instructions, stalls and overheads of our run",
        "do differently, with numbers from the same run. The reasons live in `scripts/validation_reasons.yaml`;",
        "the script fails when an off figure has none, or when a figure with a reason is no longer off.",
        "\"> x\" means the paper states a lower bound; such a figure is off only when we are more than",
        f"{GAP:.0%} below it.",
        "",
    ]
    for seed, (title, path) in SEEDS.items():
        seed_rows = [r for r in rows if r["seed"] == seed]
        if not seed_rows:
            continue
        out += [f"## Seed {seed}: {title}", "", f"Figures from `{os.path.basename(path)}`.", ""]
        out += ["| figure | where | paper | ours | ratio | | measured by |", "|---|---|---|---|---|---|---|"]
        for r in seed_rows:
            ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}"
            mark = "**off**" if r["off"] else ("" if r["ratio"] is None else "ok")
            ours = r.get("ours_text") or fmt(r["ours"])
            out.append(f"| {r['what']} | {r['source']} | {paper_text(r)} | {ours} | {ratio} | {mark} | "
                       f"{r.get('measured_by', '')} |")
        off = [r for r in seed_rows if r["off"]]
        if off:
            out += ["", "Why the off figures differ:", ""]
            for r in off:
                out.append(f"- **{r['what']}** ({r['ratio']:.2f}x): {r['reason']}")
        extra = meta.get("extra", {}).get(seed)
        if extra:
            out += [""] + extra
        out.append("")
    out += ["## Not reproduced", ""]
    for seed, what, why in NOT_REPRODUCED:
        out.append(f"- Seed {seed}, {what}: {why}")
    out.append("")
    return "\n".join(out)


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".validation-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        # mkstemp makes the file private; the report gets the mode any new file of the user gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def load_reasons(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f) or {}
    except OSError as e:
        raise Failure(f"{path}: {e.strerror}")
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise Failure(f"{path}{where}: not valid YAML ({getattr(e, 'problem', e)})")
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise Failure(f"{path}: expected a mapping of figure id to reason text")
    return data


# ----------------------------------------------------------------------------------------------------------
# Running the simulator


class Runner:
    def __init__(self, args):
        self.args = args
        self.sim = os.path.join(args.build, "bin", "pulpsim")
        self.kernels = os.path.join(args.build, "kernels")
        self.work = args.work
        self.count = 0

    def elf(self, name, folder=None):
        path = os.path.join(folder or self.kernels, name + ".elf")
        if not os.path.isfile(path):
            raise Failure(f"{path}: missing (build it: cmake --build {self.args.build})")
        return path

    def run_all(self, jobs):
        """jobs: name -> (elf, [--set/--platform/--symbol args]); returns name -> (report dict, stdout)."""
        def one(name):
            elf, extra = jobs[name]
            report = os.path.join(self.work, "reports", name + ".json")
            argv = [self.sim, "run", "-q", "--report-json", report, *extra, elf]
            r = subprocess.run(argv, capture_output=True, text=True)
            if r.returncode != 0:
                last = (r.stderr.strip() or r.stdout.strip() or "no output").splitlines()[-1]
                raise Failure(f"{name}: pulpsim run exited {r.returncode}: {last}")
            with open(report, encoding="utf-8") as f:
                return json.load(f), r.stdout

        os.makedirs(os.path.join(self.work, "reports"), exist_ok=True)
        results = {}
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs)
        try:
            futures = {pool.submit(one, n): n for n in jobs}
            for fut in concurrent.futures.as_completed(futures):
                name = futures[fut]
                results[name] = fut.result()
                self.count += 1
                log(f"ran {name}")
        finally:
            pool.shutdown(wait=True, cancel_futures=True)  # on a failure, start nothing more
        return results

    def tuned_build(self):
        """The DAE and DS-CNN built with the autotuned kernels and tiles of kernels/networks/tuning."""
        folder = os.path.join(self.work, "tuned")
        tuning = os.path.abspath("kernels/networks/tuning/pulp-open.yaml")
        for argv in (["cmake", "-S", "kernels", "-B", folder, "-G", "Ninja", f"-DPULPSIM_TUNING={tuning}"],
                     ["cmake", "--build", folder, "-j", str(self.args.jobs), "--target", "riscv_network_dae",
                      "riscv_network_ds_cnn"]):
            r = subprocess.run(argv, capture_output=True, text=True)
            if r.returncode != 0:
                last = (r.stderr.strip() or r.stdout.strip() or "no output").splitlines()[-1]
                raise Failure(f"tuned build ({' '.join(argv[:2])}): exit {r.returncode}: {last}")
        return os.path.join(folder, "kernels")

    def sweep(self, spec):
        """Runs a derived sweep file with a fresh database; returns the exported rows."""
        path = os.path.join(self.work, spec["name"] + ".yaml")
        db = os.path.join(self.work, "validation.db")
        with open(path, "w", encoding="utf-8") as f:
            yaml.safe_dump(spec, f, sort_keys=False)
        base = [self.sim, "sweep", path, "--db", db]
        r = subprocess.run(base + ["--jobs", str(self.args.jobs), "--no-plots", "-q", "--no-progress"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            last = (r.stderr.strip() or r.stdout.strip() or "no output").splitlines()[-1]
            raise Failure(f"sweep {spec['name']}: pulpsim sweep exited {r.returncode}: {last}")
        out = os.path.join(self.work, spec["name"] + ".json")
        r = subprocess.run(base + ["--export", "json", "-o", out], capture_output=True, text=True)
        if r.returncode != 0:
            raise Failure(f"sweep {spec['name']}: export failed: {r.stderr.strip()}")
        with open(out, encoding="utf-8") as f:
            rows = json.load(f)
        self.count += len({row["point_id"] for row in rows})
        return rows


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def regions(report):
    return {r["name"]: r for r in report["regions"]}


def stats(region, cores):
    """Numbers of one region for the reasons: cycles, instructions, stall cycles and their shares of the
    cores' cycles (region cycles x cores)."""
    core_cycles = region["cycles"] * cores
    s = {"cycles": region["cycles"], "instret": region["instret"], "macs": region["macs"],
         "mac_per_cycle": region["mac_per_cycle"], "core_cycles": core_cycles,
         "ipm": region["instret"] / region["macs"] if region["macs"] else 0.0,
         "issue_share": 100.0 * region["instret"] / core_cycles if core_cycles else 0.0,
         "cpi": (core_cycles - region["stalls"].get("sleep", 0)) / region["instret"] if region["instret"] else 0}
    for kind, v in region["stalls"].items():
        s[kind] = v
        s[kind + "_share"] = 100.0 * v / core_cycles if core_cycles else 0.0
    dma = region.get("dma") or {}
    for k in ("bytes_in", "bytes_out", "busy_cycles", "exposed_wait_cycles", "overlap", "verdict"):
        if k in dma:
            s["dma_" + k] = dma[k]
    return s


# ----------------------------------------------------------------------------------------------------------
# The measurements

PULP_1CORE = ["--set", "cluster.cores=1", "--set", "fpu.count=1"]
VEGA = "configs/platforms/vega.yaml"
# Shape 1 of seed 000's Fig. 5 for both layers; matmul M x N x K as `pulpsim compare` maps the steps.
STEPS = {
    ("linear", "fw"): (16, 1, 640), ("linear", "wg"): (16, 640, 1), ("linear", "ig"): (1, 640, 16),
    ("pointwise", "fw"): (16, 125, 64), ("pointwise", "wg"): (16, 64, 125), ("pointwise", "ig"): (64, 125, 16),
}
SHAPE_TEXT = {"linear": "640x16", "pointwise": "64x16x125"}


def sgd_free(report):
    """Cycles of a network step without its SGD updates, and the regions of the forward and backward."""
    regs = regions(report)
    sgd = sum(r["cycles"] for n, r in regs.items() if n.endswith("_sgd"))
    return regs["train_step"]["cycles"] - sgd, regs


def network_details(report, cores, paper_cycles):
    fwbw, regs = sgd_free(report)
    steps = {n: r for n, r in regs.items() if re.match(r"L\d+_[a-z]+_(fw|wg|ig|bw)$", n)}
    weighted = {n: r for n, r in steps.items() if r["macs"]}
    d = {"fwbw": fwbw, "macs": sum(r["macs"] for r in weighted.values())}
    d["needed_mpc"] = d["macs"] / paper_cycles
    d["mpc"] = d["macs"] / fwbw
    by_kind = {}
    for n, r in steps.items():
        kind = re.match(r"L\d+_([a-z]+)_", n).group(1)
        k = by_kind.setdefault(kind, {"cycles": 0, "macs": 0, "dma_busy": 0, "bytes": 0, "instret": 0})
        k["cycles"] += r["cycles"]
        k["macs"] += r["macs"]
        k["instret"] += r["instret"]
        k["dma_busy"] += r["dma"]["busy_cycles"] if r.get("dma") else 0
        k["bytes"] += (r["dma"]["bytes_in"] + r["dma"]["bytes_out"]) if r.get("dma") else 0
    for kind, k in by_kind.items():
        k["mpc"] = k["macs"] / k["cycles"] if k["cycles"] else 0.0
        k["share"] = 100.0 * k["cycles"] / fwbw
        d[kind] = k
    small = [r for r in weighted.values() if r["macs"] <= 2048]
    d["small_steps"] = len(small)
    d["small_cycles"] = sum(r["cycles"] for r in small)
    d["small_macs"] = sum(r["macs"] for r in small)
    d["loss"] = regs.get("loss", {}).get("cycles", 0)
    d["sleep_share"] = 100.0 * sum(r["stalls"]["sleep"] for r in steps.values()) / (fwbw * cores)
    d["dma_wait_share"] = 100.0 * sum(r["stalls"]["dma_wait"] for r in steps.values()) / (fwbw * cores)
    return d


def measure(runner):
    args = runner.args
    figures, extra = [], {}
    started = time.time()

    def fig(fid, ours, measured_by, details=None, ours_text=None):
        seed, what, paper, bound, unit, source = PAPER[fid]
        details = dict(details or {})
        if "ipm" in details and bound == "value" and ours:
            # the instructions per MAC that would give the paper's figure at our cycles per instruction
            details["paper_ipm"] = details["ipm"] * (ours / paper if unit == "" else paper / ours)
        figures.append({"id": fid, "seed": seed, "what": what, "paper": paper, "bound": bound, "unit": unit,
                        "source": source, "ours": ours, "ours_text": ours_text, "measured_by": measured_by,
                        "details": details})

    log("building the autotuned DAE and DS-CNN")
    tuned = runner.tuned_build()

    jobs = {}
    compare = runner.elf("matmul_compare")
    for (layer, step), (m, n, k) in STEPS.items():
        sym = ["--symbol", f"compare_m={m}", "--symbol", f"compare_n={n}", "--symbol", f"compare_k={k}"]
        jobs[f"{layer}_{step}_8"] = (compare, sym)
        jobs[f"{layer}_{step}_1"] = (compare, sym + PULP_1CORE)
    jobs["fp16_1"] = (runner.elf("fp16_kernels"), PULP_1CORE)
    for c in (1, 2, 4, 8):
        jobs[f"rnn_{c}"] = (runner.elf("rnn"), ["--set", "tcdm.size=128KiB", "--set", f"cluster.cores={c}",
                                                "--set", f"fpu.count={c}"])
    for c in (1, 8):
        cores = PULP_1CORE if c == 1 else []
        jobs[f"dae_{c}"] = (runner.elf("network_dae", tuned), ["--set", "l2.size=8MiB", *cores])
        jobs[f"dscnn_{c}"] = (runner.elf("network_ds_cnn", tuned), ["--set", "l2.size=4MiB", *cores])
        jobs[f"pw_vega_{c}"] = (runner.elf("pointwise_tiled"),
                                ["--platform", VEGA, "--set", "tcdm.size=512KiB", "--set", f"cluster.cores={c}"])
    mobilenet = runner.elf("network_mobilenet_v1_l19")
    jobs["mobilenet"] = (mobilenet, ["--platform", VEGA, "--set", "l2.size=64MiB"])
    # longest first, so that the two job slots stay busy
    order = ["mobilenet", "dscnn_1", "dae_1"]
    jobs = {n: jobs[n] for n in order + [n for n in jobs if n not in order]}
    log(f"running {len(jobs)} programs, {args.jobs} at a time")
    res = runner.run_all(jobs)

    # --- seed 000: layer steps
    steps = {name: regions(rep) for name, (rep, _) in res.items() if name.startswith(("linear_", "pointwise_"))}

    def step_stats(layer, step, cores, variant):
        return stats(steps[f"{layer}_{step}_{cores}"][variant], cores)

    def best(layer, step, cores):
        regs = steps[f"{layer}_{step}_{cores}"]
        return max(regs.values(), key=lambda r: r["mac_per_cycle"])["name"]

    for layer in ("pointwise", "linear"):
        s = step_stats(layer, "fw", 1, "mm")
        short = "pw" if layer == "pointwise" else "fc"
        m, n, k = STEPS[(layer, "fw")]
        fig(f"s000.naive_fw_1core.{short}", s["mac_per_cycle"],
            f"`matmul_compare.elf` M={m} N={n} K={k} ({layer} {SHAPE_TEXT[layer]}), region `mm`, pulp-open, 1 core",
            s)
    paper_pick = {"fw": "mm_unroll_1x4", "wg": "mm", "ig": "mm_M_unroll_1x8"}
    for step in ("fw", "wg", "ig"):
        b = best("linear", step, 8)
        s = step_stats("linear", step, 8, b)
        pick = step_stats("linear", step, 8, paper_pick[step])
        m, n, k = STEPS[("linear", step)]
        details = dict(s, best=b, pick=paper_pick[step], pick_mpc=pick["mac_per_cycle"], m=m, n=n, k=k,
                       per_core_macs=s["macs"] / 8, pick_stats=pick)
        fig(f"s000.fc_{step}_8", s["mac_per_cycle"],
            f"`matmul_compare.elf` M={m} N={n} K={k} (linear 640x16), fastest of 24 kernels, 8 cores"
            + ("" if b == paper_pick[step] else
               f"; the paper's pick `{paper_pick[step]}` runs at {pick['mac_per_cycle']:.2f} here"),
            details, ours_text=f"{s['mac_per_cycle']:.2f} (`{b}`)")

    # best step: every Linear / PointWise step above and every weighted region of the networks, 8 cores
    candidates = []
    for layer, step in STEPS:
        b = best(layer, step, 8)
        candidates.append((steps[f"{layer}_{step}_8"][b]["mac_per_cycle"], f"{layer} {step} `{b}`",
                           stats(steps[f"{layer}_{step}_8"][b], 8)))
    for net in ("dae_8", "dscnn_8"):
        for name, r in regions(res[net][0]).items():
            if r["macs"] and re.match(r"L\d+_[a-z]+_(fw|wg|ig)$", name):
                candidates.append((r["mac_per_cycle"], f"{net.split('_')[0]} `{name}`", stats(r, 8)))
    top = max(candidates, key=lambda c: c[0])
    fig("s000.best", top[0], "the fastest of the layer steps above and every layer step of the tuned DAE and "
        "DS-CNN, 8 cores", dict(top[2], where=top[1]), ours_text=f"{top[0]:.2f} ({top[1]})")

    # The naive loop split over the rows of the output (`mm`) or over its columns (`mm_M`), whichever is
    # faster on 8 cores: a Linear IG has one output row, which `mm` cannot split.
    speedups = []
    for layer, step in STEPS:
        naive = min(("mm", "mm_M"), key=lambda v: steps[f"{layer}_{step}_8"][v]["cycles"])
        one = steps[f"{layer}_{step}_1"][naive]["cycles"]
        eight = steps[f"{layer}_{step}_8"][naive]["cycles"]
        speedups.append((one / eight, f"{layer} {step}", naive))
    low = min(speedups)
    worst = low[1].split()
    w8 = step_stats(worst[0], worst[1], 8, low[2])
    fig("s000.naive_speedup", low[0], "naive loop (`mm` or, for one output row, `mm_M`) on 1 core over 8 cores, "
        "the six steps above (the lowest)",
        dict(w8, where=low[1], kernel=low[2], highest=max(speedups)[0],
             all=", ".join(f"{w} {x:.2f}" for x, w, _ in speedups)),
        ours_text=f"{low[0]:.2f} ({low[1]} `{low[2]}`; up to {max(speedups)[0]:.2f})")

    for net, fid, label in (("dae", "s000.dae_step", "DAE"), ("dscnn", "s000.dscnn_step", "DS-CNN")):
        rep8, rep1 = res[f"{net}_8"][0], res[f"{net}_1"][0]
        paper = PAPER[fid][2]
        d8 = network_details(rep8, 8, paper[1] if isinstance(paper, tuple) else paper)
        fwbw1, _ = sgd_free(rep1)
        elf = "network_dae" if net == "dae" else "network_ds_cnn"
        fig(fid, d8["fwbw"], f"`{elf}.elf` built with kernels/networks/tuning/pulp-open.yaml, pulp-open, "
            "`train_step` minus the SGD regions", d8)
        speed = fwbw1 / d8["fwbw"]
        fig(f"s000.{net}_speedup", speed, f"the same program on 1 core (`cluster.cores=1`, `fpu.count=1`) "
            "over 8 cores, FW + BW", dict(d8, one=fwbw1))

    # --- seed 001
    fp = regions(res["fp16_1"][0])
    for k in ("vm_naive", "vm_SIMD_naive", "vm_T_SIMD"):
        s = stats(fp[k], 1)
        fig(f"s001.{k}", s["cycles"], f"`fp16_kernels.elf` (VM_M = VM_K = 128), region `{k}`, 1 core", s)

    # --- seed 002
    rnn = {c: regions(res[f"rnn_{c}"][0]) for c in (1, 2, 4, 8)}
    for region, tag in (("rnn_fw", "fw"), ("rnn_bw", "bw")):
        for c in (2, 4, 8):
            s = stats(rnn[c][region], c)
            sp = rnn[1][region]["cycles"] / rnn[c][region]["cycles"]
            fig(f"s002.{tag}_speedup_{c}", sp, f"`rnn.elf` (T = X = H = 50), region `{region}`, "
                f"{c} cores over 1, 128 KiB TCDM", dict(s, one=rnn[1][region]["cycles"]))
    s8 = stats(rnn[8]["rnn_fw_tanhf"], 8)
    s1 = stats(rnn[1]["rnn_fw_tanhf"], 1)
    libm = rnn[1]["tanh_libm"]["cycles"]
    fig("s002.tanhf_speedup_8", rnn[1]["rnn_fw_tanhf"]["cycles"] / rnn[8]["rnn_fw_tanhf"]["cycles"],
        "`rnn.elf`, region `rnn_fw_tanhf`, 8 cores over 1",
        dict(s8, one=s1["cycles"], libm=libm, libm_share=100.0 * libm / s1["cycles"],
             per_call=libm / 2500.0))
    fast, slow = rnn[8]["rnn_fw"], rnn[8]["rnn_fw_tanhf"]
    fig("s002.fast_over_tanhf_8", fast["mac_per_cycle"] / slow["mac_per_cycle"],
        "`rnn.elf`, MAC/cycle of `rnn_fw` (fast tanh) over `rnn_fw_tanhf`, 8 cores",
        {"fast": stats(fast, 8), "slow": stats(slow, 8)})

    # --- seed 003: PointWise FW on VEGA
    pw8, pw1 = regions(res["pw_vega_8"][0])["pw_fw"], regions(res["pw_vega_1"][0])["pw_fw"]
    s = stats(pw8, 8)
    fig("s003.pw_fw_peak", pw8["mac_per_cycle"], "`pointwise_tiled.elf` (8x8x128 -> 64), region `pw_fw`, VEGA, "
        "512 KiB TCDM, 8 cores", s)
    fig("s003.pw_fw_speedup", pw1["cycles"] / pw8["cycles"], "the same on 1 core over 8 cores",
        dict(s, one=pw1["cycles"], one_mpc=pw1["mac_per_cycle"]))

    # --- seed 003: Table IV from the MobileNet run
    mb_report = os.path.join(runner.work, "reports", "mobilenet.json")
    r = subprocess.run([sys.executable, "kernels/tools/network_report.py", mb_report, "--mhz", "375",
                        "--latent-replay", "--samples", "7168", "--updates", "56"], capture_output=True, text=True)
    if r.returncode != 0:
        raise Failure(f"network_report.py {mb_report}: exit {r.returncode}: {r.stderr.strip()}")
    events = {int(m.group(1)): (int(m.group(2)), float(m.group(3)))
              for m in re.finditer(r"l =\s*(\d+):\s*(\d+) cycles.*=\s*([\d.]+) s", r.stdout)}
    mb = regions(res["mobilenet"][0])
    mbd = {"step": mb["train_step"]["cycles"], "step_mpc": mb["train_step"]["mac_per_cycle"]}
    for name, reg in mb.items():
        mbd[name] = stats(reg, 8)
    pw_regions = [reg for n, reg in mb.items() if re.match(r"L\d+_pw_(fw|wg|ig)$", n)]
    mbd["pw_cycles"] = sum(reg["cycles"] for reg in pw_regions)
    mbd["pw_share"] = 100.0 * mbd["pw_cycles"] / mbd["step"]
    mbd["pw_mpc"] = sum(reg["macs"] for reg in pw_regions) / mbd["pw_cycles"]
    mbd["lin_sgd_event"] = mb["L27_linear_sgd"]["cycles"] * 56 / 375e6
    mbd["lin_step_event"] = sum(mb[f"L27_linear_{s}"]["cycles"] for s in ("fw", "wg")) * 7168 / 375e6
    for l in range(20, 28):
        if l not in events:
            raise Failure(f"network_report.py gave no latent-replay line for layer {l}")
        _, sec = events[l]
        # The same stage from the regions: layers l..27 (not l's input gradient) and the loss per sample,
        # their SGD updates per mini-batch.
        stage, update, pw, pw_macs = mb["loss"]["cycles"], 0, 0, 0
        for name, reg in mb.items():
            m = re.match(r"L(\d+)_([a-z]+)_(fw|wg|ig|bw|sgd)$", name)
            if not m or int(m.group(1)) < l or (int(m.group(1)) == l and m.group(3) == "ig"):
                continue
            if m.group(3) == "sgd":
                update += reg["cycles"]
                continue
            stage += reg["cycles"]
            if m.group(2) == "pw":
                pw += reg["cycles"]
                pw_macs += reg["macs"]
        mine = (stage * 7168 + update * 56) / 375e6
        if abs(mine - sec) > 0.01 * sec:
            raise Failure(f"layer {l}: network_report.py gives {sec} s, the regions {mine:.2f} s")
        fig(f"s003.table4.l{l}", sec, "`network_mobilenet_v1_l19.elf` on VEGA (`l2.size=64MiB`): the regions of "
            "layers l..27 and the loss x 7168 samples, their SGD x 56, at 375 MHz (`network_report.py`)"
            if l == 20 else "as for layer 20",
            dict(mbd, cycles=stage, update=update, seconds=sec, stage_pw_share=100.0 * pw / stage,
                 stage_pw_mpc=pw_macs / pw if pw else 0.0,
                 paper_cycles=PAPER[f"s003.table4.l{l}"][2] * 375e6 / 7168),
            ours_text=f"{sec:.3g}")

    # --- seed 003: Fig. 9, reduced grid through pulpsim sweep
    log("running the reduced Fig. 9 sweep")
    spec = {
        "name": "validation-seed003-mobilenet",
        "description": "reduced grid of configs/sweeps/seed003-mobilenet.yaml for scripts/validation.py",
        "program": os.path.abspath(mobilenet),
        "platform": os.path.abspath(VEGA),
        "set": {"dma.duplex": "half-duplex", "l2.size": "64MiB"},
        "grid": {"cluster.cores": [2, 4, 8], "tcdm.size": ["128KiB", "256KiB", "512KiB"],
                 "dma.bandwidth_bits": [8, 16, 32, 64, 128]},
        "exclude": ([{"tcdm.size": t, "cluster.cores": c} for t in ("256KiB", "512KiB") for c in (2, 4)]
                    + [{"tcdm.size": t, "dma.bandwidth_bits": b} for t in ("256KiB", "512KiB")
                       for b in (16, 32, 64, 128)]),
        "max_cycles": 20000000000,
        "regions": ["train_step"],
        "metrics": ["cycles", "macs", "mac_per_cycle", "dma_utilisation", "dma_overlap", "dma_verdict",
                    "stall_dma_wait", "dma_busy_cycles", "dma_bytes_in", "dma_bytes_out"],
    }
    rows = runner.sweep(spec)
    grid = {}
    for row in rows:
        if row["status"] != "ok":
            raise Failure(f"sweep point {row.get('cluster.cores')} cores {row.get('tcdm.size')} "
                          f"{row.get('dma.bandwidth_bits')} bit/cycle: {row['status']}: {row.get('error', '')}")
        key = (int(row["cluster.cores"]), str(row["tcdm.size"]), int(row["dma.bandwidth_bits"]))
        grid[key] = row
    bws = [8, 16, 32, 64, 128]

    def size_key(kib):
        for k in grid:
            if k[1].replace(" ", "") in (f"{kib}KiB", str(kib * 1024)):
                return k[1]
        raise Failure(f"sweep: no point with tcdm.size {kib} KiB")

    t128 = size_key(128)
    table = ["Fig. 9, reduced: MAC/cycle of the whole MobileNet step (`train_step`) on VEGA, half-duplex DMA, "
             "128 KiB TCDM (`*` DMA-bound):", "", "| cores | " + " | ".join(f"{b} bit/cyc" for b in bws) + " | knee |",
             "|---|" + "---|" * (len(bws) + 1)]
    for c in (2, 4, 8):
        vals = [grid[(c, t128, b)]["mac_per_cycle"] for b in bws]
        plateau = vals[-1]
        knee = next(b for b, v in zip(bws, vals) if v >= 0.95 * plateau)
        below = [b for b in bws if b < knee]
        prev = grid[(c, t128, below[-1])]["mac_per_cycle"] if below else None
        at = grid[(c, t128, knee)]
        d = {"knee": knee, "plateau": plateau, "at": at["mac_per_cycle"], "at_share": 100 * at["mac_per_cycle"] / plateau,
             "prev_bw": below[-1] if below else 0, "prev": prev or 0.0,
             "prev_share": 100 * (prev or 0.0) / plateau,
             "prev_verdict": grid[(c, t128, below[-1])]["dma_verdict"] if below else "",
             "overlap_64": 100 * grid[(c, t128, 64)]["dma_overlap"]}
        top = grid[(c, t128, 128)]
        d["bytes_per_mac"] = (top["dma_bytes_in"] + top["dma_bytes_out"]) / top["macs"]
        d["need_bits"] = plateau * d["bytes_per_mac"] * 8  # average DMA bits per cycle at the compute rate
        for b in bws:
            d[f"mpc_{b}"] = grid[(c, t128, b)]["mac_per_cycle"]
            d[f"verdict_{b}"] = grid[(c, t128, b)]["dma_verdict"]
        near = (f" ({below[-1]} bit/cyc: {d['prev_share']:.1f}%)" if below else "")
        fig(f"s003.knee_{c}", knee, "a reduced grid of `seed003-mobilenet.yaml` through `pulpsim sweep` (table "
            "below): the lowest bandwidth reaching 95% of the MAC/cycle at 128 bit/cycle", d,
            ours_text=f"{knee}{near}")
        cells = [f"{grid[(c, t128, b)]['mac_per_cycle']:.3f}" + ("*" if grid[(c, t128, b)]["dma_verdict"] == "dma-bound"
                                                               else "") for b in bws]
        table.append(f"| {c} | " + " | ".join(cells) + f" | {knee} |")
    l1 = {}
    for kib in (128, 256, 512):
        row = grid[(8, size_key(kib), 8)]
        l1[kib] = row
    for kib in (128, 256, 512):
        row = l1[kib]
        moved = row["dma_bytes_in"] + row["dma_bytes_out"]
        d = {"mpc": row["mac_per_cycle"], "verdict": row["dma_verdict"], "overlap": 100 * row["dma_overlap"],
             "dma_util": 100 * row["dma_utilisation"], "mpc_128": l1[128]["mac_per_cycle"],
             "mbytes": moved / 1e6, "bytes_per_mac": moved / row["macs"], "dma_bound_mpc": row["macs"] / moved,
             "paper_bytes_per_mac": 1.0 / PAPER[f"s003.l1_{kib}"][2],
             "bytes_ratio": (1.0 / PAPER[f"s003.l1_{kib}"][2]) / (moved / row["macs"]),
             "mpc_512": l1[512]["mac_per_cycle"], "gain": l1[512]["mac_per_cycle"] / l1[128]["mac_per_cycle"],
             "step_mpc": mbd["step_mpc"], "pw_mpc": mbd["pw_mpc"], "pw_share": mbd["pw_share"]}
        fig(f"s003.l1_{kib}", row["mac_per_cycle"], f"the reduced sweep (`train_step`), 8 cores, 8 bit/cycle, "
            f"{kib} KiB TCDM", d)
    row = grid[(8, t128, 64)]
    fig("s003.l1_128_64bit", row["mac_per_cycle"], "the reduced sweep (`train_step`), 8 cores, 64 bit/cycle, "
        "128 KiB TCDM",
        {"mpc": row["mac_per_cycle"], "overlap": 100 * row["dma_overlap"], "verdict": row["dma_verdict"],
         "step_mpc": mbd["step_mpc"], "pw_mpc": mbd["pw_mpc"], "pw_share": mbd["pw_share"],
         "mpc_8": l1[128]["mac_per_cycle"]})
    extra["003"] = table
    return figures, extra, time.time() - started


# ----------------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default="build", help="build folder with bin/pulpsim and kernels/ (default build)")
    parser.add_argument("--work", help="folder for reports, the tuned build and the sweep database "
                                       "(default <build>/validation)")
    parser.add_argument("--out", default="docs/validation.md", help="the page to write (default docs/validation.md)")
    parser.add_argument("--reasons", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                          "validation_reasons.yaml"))
    parser.add_argument("--jobs", type=int, default=2, help="simulations at once (default 2)")
    parser.add_argument("--figures-json", help="apply the rules to these figures instead of running anything")
    parser.add_argument("--save-figures", help="also write the measured figures as JSON to this file")
    args = parser.parse_args()
    try:
        if args.jobs < 1:
            raise Failure("--jobs: must be at least 1")
        reasons = load_reasons(args.reasons)
        meta = {"jobs": args.jobs}
        if args.figures_json:
            try:
                with open(args.figures_json, encoding="utf-8") as f:
                    loaded = json.load(f)
            except OSError as e:
                raise Failure(f"{args.figures_json}: {e.strerror}")
            except ValueError as e:
                raise Failure(f"{args.figures_json}: not valid JSON ({e})")
            figures = loaded["figures"] if isinstance(loaded, dict) else loaded
            meta.update(loaded.get("meta", {}) if isinstance(loaded, dict) else {})
            extra = meta.pop("extra", {})
        else:
            if not os.path.isdir("kernels/networks") or not os.path.isdir("configs/platforms"):
                raise Failure("run from the repository root (kernels/ and configs/ not found here)")
            args.work = os.path.abspath(args.work or os.path.join(args.build, "validation"))
            shutil.rmtree(args.work, ignore_errors=True)
            os.makedirs(args.work)
            runner = Runner(args)
            if not os.path.isfile(runner.sim):
                raise Failure(f"{runner.sim}: missing (build first: cmake --build {args.build})")
            figures, extra, seconds = measure(runner)
            commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
            meta.update(runs=runner.count, minutes=f"{seconds / 60:.0f}",
                        commit=commit.stdout.strip() or "?",
                        date=datetime.date.today().isoformat())
        meta["extra"] = extra
        if args.save_figures:
            write_atomically(args.save_figures, json.dumps({"meta": meta, "figures": figures}, indent=1) + "\n")
        rows, problems = apply_rules(figures, reasons)
        if problems:
            for p in problems:
                print(f"validation: {p}", file=sys.stderr)
            return 1
        write_atomically(args.out, render(rows, meta))
        off = sum(1 for r in rows if r["off"])
        print(f"wrote {args.out}: {len(rows)} figures, {off} more than {GAP:.0%} off (each with its reason)")
        return 0
    except Failure as e:
        print(f"validation: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("validation: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
