#!/usr/bin/env python3
"""Checks `pulpsim autotune` and `pulpsim compare` on small cases:

- a step that fits the TCDM: the pick is the fastest of the variants `compare` measures for the same step;
- a tiled step: the pick with K_T = 5 equals the minimum of the exhaustive search (--kt all) on a small Linear
  layer (FW and IG); every tile simulated fits the free TCDM with its guard zones, and every
  simulation passed its check against the plain loop (a tile reading outside its buffer, or a wrong result,
  fails the point);
- pruning by the analytical estimate keeps the exhaustive minimum of that Linear FW and simulates fewer pairs;
- a second tune of the same case simulates nothing and gives the same table;
- the tuning file holds one entry per platform, layer, step and shape, replaced on a new tune;
- impossible requests are one line and exit status 2, with no tuning file written;
- a tuning file autotune would not write (unknown keys, a layer, step, shape or kernel its options and programs
  do not know, two entries of one key) is one line naming file, line and key, exit status 2, the file untouched;
- an entry measured with --program names that program, and its kernel is checked against that program only;
- a JSON that cannot be written when the tune ends (its folder removed meanwhile) is one line and leaves the
  tuning file as it was: the two are written all or none.
"""
import argparse
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, children_of, fresh_dir  # noqa: E402

check = Checks()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    fresh_dir(args.workdir)
    w = args.workdir
    db = os.path.join(w, "tune.db")
    tuning = os.path.join(w, "tuning.yaml")

    def tune(*extra, tuning_file=tuning):
        return subprocess.run([args.sim, "autotune", "--db", db, "--tuning", tuning_file, "--no-progress", *extra],
                              capture_output=True, text=True, timeout=900)

    # In the TCDM: the pick is compare's fastest variant, on 4 cores.
    cores = ["--set", "cluster.cores=4", "--set", "fpu.count=4"]
    for layer, shape in [("pointwise", "12x10x9"), ("depthwise", "5x6x7")]:
        r = tune("--layer", layer, "--step", "wg", "--shape", shape, "--json", os.path.join(w, f"{layer}.json"), *cores)
        check(r.returncode == 0, f"autotune {layer} wg {shape} runs ({r.stderr.strip()[-300:]})")
        if r.returncode:
            continue
        tuned = json.load(open(os.path.join(w, f"{layer}.json")))["steps"][0]
        c = subprocess.run([args.sim, "compare", "--layer", layer, "--step", "wg", "--shape", shape, *cores,
                            "--json", os.path.join(w, f"{layer}-compare.json")], capture_output=True, text=True)
        variants = json.load(open(os.path.join(w, f"{layer}-compare.json")))["variants"]
        fastest = min(variants, key=lambda v: v["cycles"])
        check(c.returncode == 0 and tuned["best"]["kernel"] == fastest["name"]
              and tuned["best"]["cycles"] == fastest["cycles"] and len(tuned["measured"]) == len(variants),
              f"{layer}: the pick ({tuned['best']}) is compare's fastest of {len(variants)} ({fastest['name']}, "
              f"{fastest['cycles']})")

    # Tiled (a 12 KiB TCDM): K_T = 5 against the exhaustive search (--kt all) on a Linear layer's FW and IG.
    small_l1 = ["--set", "tcdm.size=12KiB"]
    exhaustive = {}
    for step in ["fw", "ig"]:
        picks = exhaustive[step] = {}
        for kt in ["5", "all"]:
            out = os.path.join(w, f"linear-{step}-{kt}.json")
            r = tune("--layer", "linear", "--step", step, "--shape", "64x16", "--kt", kt, "--json", out, *small_l1,
                     tuning_file=os.path.join(w, f"linear-{kt}.yaml"))
            check(r.returncode == 0, f"linear {step} --kt {kt} runs ({r.stderr.strip()[-300:]})")
            if r.returncode:
                return check.exit_status()
            result = json.load(open(out))
            s = picks[kt] = result["steps"][0]
            free, guard = result["free_tcdm"], result["guard_bytes"]
            too_big = [m for m in s["measured"] if not 0 < m["tile_bytes"] <= free]
            check(s["tiled"] and not too_big and len(s["measured"]) == s["simulations"],
                  f"linear {step} --kt {kt}: {s['simulations']} tile x kernel simulations, every tile within the "
                  f"{free} free bytes with {guard}-byte guard zones, every result checked against the plain loop")
        check(len(picks["all"]["measured"]) > len(picks["5"]["measured"]) and
              picks["5"]["best"]["cycles"] == min(m["cycles"] for m in picks["all"]["measured"]),
              f"linear {step}: the K_T = 5 pick {picks['5']['best']} is the minimum of the exhaustive search "
              f"({len(picks['all']['measured'])} pairs)")
        if step == "fw":
            check(any(m["kernel"] != "matmul_l1" for m in picks["5"]["measured"]),
                  f"linear {step}: matmul-family kernels run on tiles that hold all of K")
        else:  # the tiled step's call, W^T x dOut, reads A transposed: matmul_l1 alone
            check(all(m["kernel"] == "matmul_l1" for m in picks["all"]["measured"]),
                  f"linear {step}: W^T x dOut, as kernels/lib tiles it, runs matmul_l1 alone")

    # Pruning (--prune, the default margin) keeps the pair that is the exhaustive minimum, and simulates fewer.
    out = os.path.join(w, "linear-fw-prune.json")
    r = tune("--layer", "linear", "--step", "fw", "--shape", "64x16", "--kt", "all", "--prune", "--json", out,
             *small_l1, tuning_file=os.path.join(w, "linear-prune.yaml"))
    pruned = json.load(open(out))["steps"][0] if r.returncode == 0 else {}
    check(r.returncode == 0 and pruned["simulations"] < pruned["pairs"] == len(exhaustive["fw"]["all"]["measured"]) and
          pruned["best"]["cycles"] == exhaustive["fw"]["all"]["best"]["cycles"] and
          f"pruning keeps {pruned['simulations']} of {pruned['pairs']}" in r.stderr,
          f"linear fw --prune: {pruned.get('simulations')} of {pruned.get('pairs')} pairs simulated, the pick "
          f"{pruned.get('best')} is the exhaustive minimum ({r.stderr.strip()[-200:]})")
    check(all(m["estimate"] > 0 for m in pruned.get("measured", [])), "every tiled pair carries its estimate")

    # PointWise WG and IG read a transposed operand: the family cannot run, matmul_l1 does.
    out = os.path.join(w, "pointwise-tiled.json")
    r = tune("--layer", "pointwise", "--shape", "24x16x20", "--json", out, *small_l1)
    steps = {s["step"]: s for s in json.load(open(out))["steps"]} if r.returncode == 0 else {}
    check(r.returncode == 0 and all(s["tiled"] for s in steps.values()) and
          all(m["kernel"] == "matmul_l1" for st in ["wg", "ig"] for m in steps[st]["measured"]) and
          any(m["kernel"] != "matmul_l1" for m in steps["fw"]["measured"]),
          f"pointwise tiled: family kernels for FW, matmul_l1 alone for WG and IG ({r.stderr.strip()[-200:]})")

    # A second tune simulates nothing and prints the same table.
    con = sqlite3.connect(db)
    before = con.execute("SELECT count(*) FROM points").fetchone()[0]
    first = tune("--layer", "pointwise", "--shape", "24x16x20", *small_l1)
    again = tune("--layer", "pointwise", "--shape", "24x16x20", *small_l1)
    after = con.execute("SELECT count(*) FROM points").fetchone()[0]
    check(again.returncode == 0 and "already stored" in again.stderr and before == after and
          first.stdout == again.stdout, f"a second tune simulates nothing ({before} -> {after} points; "
          f"{again.stderr.strip().splitlines()[:1]})")

    # The tuning file: one entry per key, a new tune replaces it.
    text = open(tuning).read()
    entries = [l for l in text.splitlines() if l.strip().startswith("- {")]
    keys = [(e.split("layer: ")[1].split(",")[0], e.split("step: ")[1].split(",")[0], e.split("shape: ")[1].split(",")[0],
             e.split("tcdm_size: ")[1].split(",")[0]) for e in entries]
    check(len(keys) == len(set(keys)) and len(keys) == 5, f"the tuning file has one entry per key ({keys})")
    again = tune("--layer", "pointwise", "--shape", "24x16x20", "--step", "fw", *small_l1)
    check(open(tuning).read().count("shape: 24x16x20") == 3, "a new tune of a key replaces its entry")
    check("tile: [" in text and "kernel:" in text, "tiled winners carry their tile")

    # Impossible requests: one line, exit 2, nothing written.
    bad_tuning = os.path.join(w, "never.yaml")
    for name, argv, word in [
        ("an L1 too small for any tile", ["--layer", "pointwise", "--shape", "64x64x64", "--set", "tcdm.size=4KiB"],
         "does not fit the TCDM in any tile"),
        ("a zero shape", ["--layer", "linear", "--shape", "0x16"], "every size must be at least 1"),
        ("an unknown layer", ["--layer", "conv3d", "--shape", "8x8"], "'conv3d' is not linear, pointwise, depthwise or conv2d"),
        ("an unknown layer and no shape", ["--layer", "conv3d"], "'conv3d' is not linear"),
        ("no shape", ["--layer", "depthwise"], "--shape: missing (e.g. --shape 32x16x16)"),
        ("a wrong number of sizes", ["--layer", "pointwise", "--shape", "8x8"], "CINxCOUTxHW"),
        ("a depthwise step larger than the TCDM", ["--layer", "depthwise", "--shape", "64x64x64"], "only matmul steps"),
        ("an unknown step", ["--layer", "linear", "--step", "bw", "--shape", "8x8"], "'bw' is not fw, wg, ig or all"),
        ("a guard zone that is not whole words", ["--layer", "linear", "--shape", "8x8", "--guard", "6"], "--guard"),
        ("a tiled depthwise step (no tiled program)", ["--layer", "depthwise", "--shape", "4x6x6", "--tiled"],
         "--tiled"),
    ]:
        r = tune(*argv, tuning_file=bad_tuning)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and word in lines[0] and not os.path.exists(bad_tuning),
              f"{name}: one line naming it, exit 2, no tuning file ({r.returncode}: {lines})")

    # A setting outside the tuning key (platform name, cores, TCDM size) is refused unless the changed platform
    # gets its own name, under which its entry then stands apart from the platform it was changed from.
    slow = ["--layer", "linear", "--step", "fw", "--shape", "8x8", "--set", "fpu.addmul_latency=2"]
    before = open(tuning).read()
    r = tune(*slow)
    check(r.returncode == 2 and "name the changed platform" in r.stderr and open(tuning).read() == before,
          f"--set fpu.addmul_latency=2 under the platform's own name: refused, tuning file untouched ({r.stderr})")
    r = tune(*slow, "--set", "platform.name=pulp-open-lat2")
    entries = [l for l in open(tuning).read().splitlines() if "shape: 8x8," in l and "step: fw" in l]
    check(r.returncode == 0 and len(entries) == 1 and 'platform: "pulp-open-lat2"' in entries[0],
          f"the same under a name of its own: one entry, of that platform ({r.returncode}: {entries})")

    # A tuning file in a folder that cannot be made: refused before anything is simulated (a new shape, so a
    # simulation would have added points to the database).
    blocked = os.path.join(w, "blocked")
    open(blocked, "w").close()
    rows_before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM points").fetchone()[0]
    r = tune("--layer", "linear", "--step", "fw", "--shape", "24x12", tuning_file=os.path.join(blocked, "t.yaml"))
    lines = r.stderr.strip().splitlines()
    rows_after = sqlite3.connect(db).execute("SELECT COUNT(*) FROM points").fetchone()[0]
    check(r.returncode == 2 and len(lines) == 1 and "--tuning" in lines[0] and "cannot make its folder" in lines[0]
          and rows_after == rows_before,
          f"a tuning file under a plain file: one line, exit 2, nothing simulated ({lines})")

    # Tuning files it would not write: each is an entry autotune wrote above, with one thing changed.
    written = next(l for l in open(tuning).read().splitlines() if "layer: pointwise, step: wg, shape: 12x10x9," in l)
    kernel = re.search(r'kernel: "([^"]*)"', written).group(1)
    other = written.replace(f'kernel: "{kernel}"', 'kernel: "mm"' if kernel != "mm" else 'kernel: "mm_u2"')
    tiled = next((l for l in open(tuning).read().splitlines() if "tile: [" in l), None)
    check(tiled is not None, "autotune wrote an entry of a tiled step")
    for name, body, line, word in [
        ("a tile larger than its TCDM", [re.sub(r"tcdm_size: \d+", "tcdm_size: 1024", tiled or "")], 2,
         "more than the entry's tcdm_size 1024"),
        ("an unknown key in an entry", [written.replace(", cycles:", ", colour: red, cycles:")], 2,
         "'colour' in an entry (known: "),
        ("a misspelt key in an entry", [written.replace(", cycles:", ", cylces:")], 2,
         "'cylces' in an entry (did you mean 'cycles'?)"),
        ("an unknown top-level key", [written, "extra: 1"], 3, "'extra'"),
        ("an unknown layer", [re.sub(r"layer: [\w-]+", "layer: lstm", written)], 2, "layer: 'lstm'"),
        ("an unknown step", [re.sub(r"step: \w+", "step: zz", written)], 2, "step: 'zz'"),
        ("a malformed shape", [re.sub(r"shape: [\w]+", "shape: banana", written)], 2, "shape: 'banana'"),
        ("a shape of another layer's form", [re.sub(r"shape: [\w]+", "shape: 12x10", written)], 2, "shape 12x10"),
        ("an unknown kernel", [written.replace(f'kernel: "{kernel}"', 'kernel: "nokernel"')], 2, "kernel: 'nokernel'"),
        ("a platform name platform files refuse", [written.replace('platform: "pulp-open"', r'platform: "pulp\\open"')],
         2, r"platform: 'pulp\open' is not a platform name"),
        ("two entries of one key", [written, other], 3, "tuned twice (first on line 2)"),
    ]:
        path = os.path.join(w, "bad-tuning.yaml")
        text = "tunings:\n" + "\n".join(body) + "\n"
        open(path, "w").write(text)
        r = tune("--layer", "linear", "--step", "fw", "--shape", "8x8", tuning_file=path)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and f"{path}:{line}: " in lines[0] and word in lines[0]
              and open(path).read() == text,
              f"tuning file with {name}: one line naming line {line} and {word}, exit 2, file untouched ({lines})")

    # A comparison program of the user's: its entry names it, and its kernels are its own. A kernel only that
    # program has (renamed here in the file) does not stop a later tune with the build's program, and is
    # checked when that program runs again.
    own = shutil.copy(os.path.join(os.path.dirname(args.sim), "..", "kernels", "matmul_compare.elf"),
                      os.path.join(w, "my_compare.elf"))
    own_tuning = os.path.join(w, "own-tuning.yaml")
    r = tune("--layer", "linear", "--step", "fw", "--shape", "8x8", "--program", own, tuning_file=own_tuning)
    written = open(own_tuning).read() if r.returncode == 0 else ""
    entry = next((line for line in written.splitlines() if "shape: 8x8" in line), "")
    check('program: "my_compare.elf"' in entry, f"an entry tuned with --program names the program ({entry!r})")
    renamed = re.sub(r'kernel: "[^"]*"', 'kernel: "my_kernel"', open(own_tuning).read())
    open(own_tuning, "w").write(renamed)
    r = tune("--layer", "linear", "--step", "fw", "--shape", "8x12", tuning_file=own_tuning)
    check(r.returncode == 0 and 'kernel: "my_kernel", program: "my_compare.elf"' in open(own_tuning).read(),
          f"a later tune with the build's program keeps the other program's entry ({r.stderr.strip()[-200:]})")
    r = tune("--layer", "linear", "--step", "fw", "--shape", "8x16", "--program", own, tuning_file=own_tuning)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and "kernel: 'my_kernel' is not a kernel of my_compare.elf" in lines[0],
          f"the same program again: its entry's kernel is checked against it ({lines})")

    # The JSON's folder goes away while the tiles run (the process stopped meanwhile, past its start-up
    # checks): the JSON cannot be written, so neither is the tuning file.
    json_dir = os.path.join(w, "json-folder")
    os.makedirs(json_dir)
    before = open(tuning).read()
    p = subprocess.Popen([args.sim, "autotune", "--db", os.path.join(w, "gone.db"), "--tuning", tuning,
                          "--no-progress", "-j1", "--layer", "linear", "--step", "fw", "--shape", "64x16",
                          *small_l1, "--json", os.path.join(json_dir, "out.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not children_of(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    p.send_signal(signal.SIGSTOP)
    shutil.rmtree(json_dir)
    p.send_signal(signal.SIGCONT)
    out, err = p.communicate(timeout=900)
    errors = [line for line in err.splitlines() if "error" in line]
    check(p.returncode == 2 and len(errors) == 1 and "out.json: cannot write" in errors[0]
          and err.strip().splitlines()[-1] == errors[0] and open(tuning).read() == before,
          f"a JSON that cannot be written: one line, exit {p.returncode}, the tuning file untouched ({errors})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
