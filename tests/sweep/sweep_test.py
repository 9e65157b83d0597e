#!/usr/bin/env python3
"""Checks `pulpsim sweep` end to end: sweep-file errors, resuming after SIGKILL, the cache's identity,
failed points, exports and plots from a stored database.

Every check runs the real simulator on kernels of the build; the expected values come from the sweep's
own definition (which points exist, in which order) or from a second, uninterrupted sweep, never from a
recorded output.
"""
import argparse
import csv
import glob
import hashlib
import io
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

check = Checks()


def sweep(sim, spec, db, *extra, timeout=300, env=None):
    return subprocess.run([sim, "sweep", spec, "--db", db, "--no-plots", *extra], capture_output=True, text=True,
                          timeout=timeout, env=env)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def points_of(db):
    con = sqlite3.connect(db)
    rows = {r[0]: r[1:] for r in con.execute("SELECT id, status, error, report FROM points")}
    con.close()
    return rows


def one_line_error(r, *words):
    lines = r.stderr.strip().splitlines()
    return r.returncode == 2 and len(lines) == 1 and all(w in lines[0] for w in words)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def bad_specs(sim, work, kernels):
    """Every error is one line on stderr naming the sweep file, its line and the key; exit status 2."""
    elf = os.path.join(kernels, "matmul_family.elf")
    cases = [
        ("unknown-top", f"program: {elf}\ngird:\n  cluster.cores: [1]\n", 2,
         "'gird' in the sweep (did you mean 'grid'?)"),
        # A word no key is close to gets the list of keys, not the least unlike of them.
        ("unknown-top-far", f"program: {elf}\naxes:\n  cluster.cores: [1]\n", 2,
         "'axes' in the sweep (known: name, description, program, platform, set, grid, zip"),
        ("unknown-key", f"program: {elf}\ngrid:\n  cluster.cores: [2, 4]\n  tcdm.sise: [64KiB]\n", 4,
         "'tcdm.sise' is not a key of the platform (did you mean 'tcdm.size'?)"),
        # As --set and platform files say it: the keys of the section, or the sections.
        ("unknown-key-far", f"program: {elf}\nset:\n  tcdm.colour: red\n", 3,
         "'tcdm.colour' is not a key of the platform (known keys: tcdm.base, tcdm.size, tcdm.banks,"),
        ("unknown-section", f"program: {elf}\ngrid:\n  banana.split: [1]\n", 3,
         "'banana.split' is not a key of the platform (known sections: platform, cluster, tcdm,"),
        ("bad-value", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, lots]\n", 3, "tcdm.size"),
        ("empty-axis", f"program: {elf}\ngrid:\n  dma.bandwidth_bits: []\n", 3, "dma.bandwidth_bits"),
        # An empty file is named at its first line, not at a line 0.
        ("empty-file", "", 1, "expected a sweep"),
        ("scalar-axis", f"program: {elf}\ngrid:\n  dma.bandwidth_bits: 8\n", 3, "dma.bandwidth_bits"),
        ("twice", f"program: {elf}\nset:\n  tcdm.size: 64KiB\ngrid:\n  tcdm.size: [64KiB]\n", 5, "tcdm.size"),
        # YAML would keep one of the two silently; the message names both lines.
        ("key-twice", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\ngrid:\n  cluster.cores: [1, 2]\n", 4,
         "key 'grid' given twice (first on line 2)"),
        ("zip-lengths", f"program: {elf}\nzip:\n  cluster.cores: [1, 2]\n  fpu.count: [1, 2, 4]\n", 4,
         "fpu.count"),
        ("invalid-point", f"program: {elf}\ngrid:\n  cluster.cores: [2, 4]\n  fpu.count: [2, 4]\n", 4,
         "fpu.count"),
        ("set-bad", f"program: {elf}\nset:\n  dma.duplex: sideways\n", 3, "dma.duplex"),
        ("missing-program", "program: /nonexistent/x.elf\n", 1, "program"),
        ("not-riscv", "program: /bin/sh\n", 1, "program"),
        ("no-program", "grid:\n  cluster.cores: [1]\n", 1, "program"),
        ("malformed", f"program: {elf}\ngrid: [unclosed\n", 3, "malformed"),
        ("table-key", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\ntable:\n  rows: cluster.cores\n", 5,
         "cluster.cores"),
        ("metric", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\nmetrics: [mac_per_cylce]\n", 4,
         "'mac_per_cylce' is not a metric (did you mean 'mac_per_cycle'?)"),
        ("metric-far", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\nmetrics: [speed]\n", 4,
         "'speed' is not a metric (known: count, cycles, instret, macs, mac_per_cycle,"),
        ("metrics-and-table", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\nmetrics: [cycles]\ntable:\n"
         "  rows: tcdm.size\n", 4, "metrics: names the columns of the default table, which table: replaces"),
        ("plot-kind", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\nplots:\n  - kind: pie\n    x: tcdm.size\n", 5,
         "pie"),
        ("exclude-key", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB]\nexclude:\n  - {{l2.size: 1MiB}}\n", 5,
         "l2.size"),
        ("platform", f"program: {elf}\nplatform: /nonexistent/p.yaml\n", 2, "platform"),
        ("plot-file-long", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nplots:\n  - kind: line\n"
         f"    x: tcdm.size\n    file: {'x' * 300}\n", 7, "plot file"),
        ("baseline-twice", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nplots:\n  - kind: bars\n"
         f"    x: tcdm.size\n    baseline: {{tcdm.size: 64KiB, tcdm.size: 128KiB}}\n", 7, "given twice"),
        # The name is also a folder's (plots, Slurm): ".." would put them in the folder above.
        ("name-dots", f"name: '..'\nprogram: {elf}\n", 1, "'..'"),
        # Exclude values are values the sweep takes (a typo or a dropped value would exclude nothing), each
        # entry matches a point, and some point is left.
        ("exclude-typo", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nexclude:\n  - {{tcdm.size: 128KB}}\n",
         5, "128KB"),
        ("exclude-word", f"program: {elf}\ngrid:\n  cluster.cores: [1, 2]\nexclude:\n  - {{cluster.cores: banana}}\n",
         5, "banana"),
        ("exclude-unswept", f"program: {elf}\ngrid:\n  cluster.cores: [1, 2]\nexclude:\n  - {{cluster.cores: 4}}\n",
         5, "cluster.cores"),
        ("exclude-nothing", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nzip:\n  cluster.cores: [1, 2]\n"
         f"  fpu.count: [1, 2]\nexclude:\n  - {{cluster.cores: 1, fpu.count: 2}}\n", 8, "exclude"),
        ("exclude-all", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nexclude:\n  - {{tcdm.size: 65536}}\n"
         f"  - {{tcdm.size: 128KiB}}\n", 6, "exclude"),
        # One program under two spellings would be shown twice.
        ("program-twice", f"program: [{elf}, {os.path.join(kernels, '..', os.path.basename(kernels), 'matmul_family.elf')}]\n",
         1, "listed twice"),
        ("zip-same-point", f"program: {elf}\nzip:\n  cluster.cores: [1, 2, 1]\n  fpu.count: [1, 2, 1]\n", 3,
         "listed twice"),
        ("max-cycles-fraction", f"program: {elf}\nmax_cycles: 1.5e0\n", 2, "max_cycles"),
        # The results database keeps it as a signed 64-bit integer.
        ("max-cycles-huge", f"program: {elf}\nmax_cycles: 1e19\n", 2, "at most 9223372036854775807"),
        # Two keys that set one thing, as a platform file may not give both: the later would win unseen.
        ("banks-and-factor", f"program: {elf}\ngrid:\n  tcdm.banks: [8, 16]\n  tcdm.banking_factor: [2, 4]\n", 4,
         "'tcdm.banks' is given too, and the two exclude each other"),
        # Every key the sweep varies has a place in each table and plot, axes do not repeat, and a
        # baseline is a point of the sweep.
        ("line-unplaced", f"program: {elf}\ngrid:\n  dma.bandwidth_bits: [8, 64]\n  tcdm.size: [64KiB, 128KiB]\n"
         f"plots:\n  - kind: line\n    x: tcdm.size\n", 6, "dma.bandwidth_bits"),
        ("table-unplaced", f"program: {elf}\ngrid:\n  dma.bandwidth_bits: [8, 64]\n  tcdm.size: [64KiB, 128KiB]\n"
         f"table:\n  rows: tcdm.size\n  columns: region\n", 6, "dma.bandwidth_bits"),
        ("zip-partner-ambiguous", f"program: {elf}\nzip:\n  dma.bandwidth_bits: [8, 8]\n  tcdm.size: [64KiB, 128KiB]\n"
         f"plots:\n  - kind: line\n    x: dma.bandwidth_bits\n", 6, "tcdm.size"),
        ("heatmap-x-is-y", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nplots:\n  - kind: heatmap\n"
         f"    x: tcdm.size\n    y: tcdm.size\n", 5, "tcdm.size"),
        ("series-is-x", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nplots:\n  - kind: line\n"
         f"    x: tcdm.size\n    series: tcdm.size\n", 5, "series"),
        ("baseline-unswept", f"program: {elf}\ngrid:\n  dma.bandwidth_bits: [8, 64]\nplots:\n  - kind: bars\n"
         f"    x: dma.bandwidth_bits\n    baseline: {{dma.bandwidth_bits: 32}}\n", 7, "baseline"),
        ("plot-word-metric", f"program: {elf}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nplots:\n  - kind: line\n"
         f"    x: tcdm.size\n    y: dma_verdict\n", 7, "dma_verdict"),
    ]
    db = os.path.join(work, "bad.db")
    for name, text, line, key in cases:
        spec = write(os.path.join(work, f"bad-{name}.yaml"), text)
        r = sweep(sim, spec, db)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and f"{spec}:{line}" in lines[0] and key in lines[0],
              f"bad sweep file '{name}': exit 2 and one line naming {spec}:{line} and '{key}' "
              f"(got exit {r.returncode}: {r.stderr.strip()!r})")
    # exclude: or zip: is offered only for a value some other point of the sweep takes.
    hint = "leave it out with exclude: or vary the keys together with zip:"
    r = sweep(sim, os.path.join(work, "bad-invalid-point.yaml"), db)
    check(hint in r.stderr, f"a core count the sweep's other FPU count fits is offered exclude: and zip: "
                            f"({r.stderr.strip()!r})")
    for name, grid in (("alone-range", "  cluster.cores: [8, 100]\n  tcdm.size: [64KiB, 128KiB]\n"),
                       ("alone-fpus", "  tcdm.size: [64KiB, 128KiB]\n  cluster.cores: [8, 2]\n")):
        spec = write(os.path.join(work, f"bad-{name}.yaml"), f"program: {elf}\ngrid:\n{grid}")
        r = sweep(sim, spec, db)
        check(one_line_error(r, f"{spec}:", "cluster.cores") and hint not in r.stderr,
              f"'{name}': a value no point of the sweep can take is not offered exclude: or zip: "
              f"({r.stderr.strip()!r})")
    # Without name:, the sweep is named after its file, and the error says where the name came from.
    spec = write(os.path.join(work, "my sweep.yaml"), f"program: {elf}\n")
    r = sweep(sim, spec, db)
    check(one_line_error(r, f"{spec}:1", "the sweep's name 'my sweep', taken from the file's name", "name:"),
          f"a sweep file named 'my sweep.yaml' without name: is refused, saying the name is the file's "
          f"({r.stderr.strip()!r})")
    # A sweep file has a bounded number of points: a typo cannot make it take minutes before anything runs.
    values = 50
    text = f"program: {elf}\ngrid:\n" + "".join(
        f"  {k}: [{', '.join(str(v) for v in range(1, values + 1))}]\n"
        for k in ("l2.latency", "event_unit.wake_latency", "icache.refill_latency"))
    spec = write(os.path.join(work, "bad-too-many.yaml"), text)
    try:
        r = sweep(sim, spec, db, timeout=20)
        said = r.stderr.strip()
        refused = one_line_error(r, f"{spec}:3", str(values ** 3))
    except subprocess.TimeoutExpired:
        said, refused = "still busy after 20 s", False
    check(refused, f"a sweep of {values ** 3} points is refused at once, naming its size ({said!r})")
    check(not os.path.exists(db), "no bad sweep file created a database")
    r = sweep(sim, os.path.join(work, "nonexistent.yaml"), db)
    check(r.returncode == 2 and "nonexistent.yaml" in r.stderr and len(r.stderr.strip().splitlines()) == 1,
          "a missing sweep file is one line naming it")


def order_and_exclusion(sim, work, kernels, db):
    """The points are the grid's cartesian product (first axis slowest) x the zip group, less exclusions.
    Listed from an existing database (db), which --export only reads."""
    elf = os.path.join(kernels, "matmul_family.elf")
    spec = write(os.path.join(work, "order.yaml"), f"""name: order
program: {elf}
grid:
  tcdm.size: [64KiB, 128KiB]
  dma.bandwidth_bits: [8, 64]
zip:
  cluster.cores: [1, 8]
  fpu.count: [1, 8]
exclude:
  - {{tcdm.size: 131072, cluster.cores: 1}}
""")
    r = sweep(sim, spec, db, "--export", "json")
    rows = json.loads(r.stdout) if r.returncode == 0 else []
    got = [(x["tcdm.size"], x["dma.bandwidth_bits"], x["cluster.cores"], x["fpu.count"]) for x in rows]
    want = [(t, b, c, c) for t in ("64KiB", "128KiB") for b in (8, 64) for c in (1, 8)
            if not (t == "128KiB" and c == 1)]
    check(got == want and all(x["status"] == "pending" for x in rows),
          f"export before running lists the {len(want)} points in grid order, zipped, less the excluded, as pending "
          f"(whole numbers as JSON numbers, sizes as the file writes them)")

    # A zipped key may repeat a value: only a repeated combination is the same point twice.
    spec = write(os.path.join(work, "zip-repeat.yaml"), f"""name: zip-repeat
program: {elf}
zip:
  dma.bandwidth_bits: [8, 8, 64]
  tcdm.size: [64KiB, 128KiB, 64KiB]
""")
    r = sweep(sim, spec, db, "--export", "json")
    rows = json.loads(r.stdout) if r.returncode == 0 else []
    got = [(x["dma.bandwidth_bits"], x["tcdm.size"]) for x in rows]
    check(got == [(8, "64KiB"), (8, "128KiB"), (64, "64KiB")] and len({x["point_id"] for x in rows}) == 3,
          f"a zip repeating one key's value gives its distinct points ({r.stderr.strip()!r})")

    # max_cycles in scientific notation is the whole number it writes: the same points as written out.
    ids = {}
    for text in ("1e9", "1000000000", "1.5e9", "15e8"):
        spec = write(os.path.join(work, "max-cycles.yaml"), f"name: mc\nprogram: {elf}\nmax_cycles: {text}\n")
        r = sweep(sim, spec, db, "--export", "json")
        ids[text] = [x["point_id"] for x in json.loads(r.stdout)] if r.returncode == 0 else [text]
    check(ids["1e9"] == ids["1000000000"] and ids["1.5e9"] == ids["15e8"] and ids["1e9"] != ids["1.5e9"],
          f"max_cycles: 1e9 and 1.5e9 are read exactly ({ids})")


def refused_before_running(sim, work, kernels):
    """Exports that would overwrite an input, a missing database for commands that only read, options that
    do not apply and a plot folder that cannot be made are one line, before anything is written or run."""
    spec, db, a = (os.path.join(work, n) for n in ("ident.yaml", "ident.db", "a.elf"))
    link = os.path.join(work, "ident-link.db")
    os.symlink(db, link)
    for target, what in ((db, "results database"), (link, "results database"), (spec, "sweep file"),
                         (a, "program")):
        before = digest(target)
        r = sweep(sim, spec, db, "--export", "csv", "-o", target)
        check(one_line_error(r, target, what) and digest(target) == before,
              f"--export -o {os.path.basename(target)} (the {what}) is refused and leaves it intact "
              f"({r.stderr.strip()!r})")
    # The database's log files need not exist yet: the export's own read of the database makes them.
    for suffix in ("-wal", "-shm", "-journal"):
        target = os.path.join(work, ".", "ident.db" + suffix)
        existed = os.path.exists(target)
        r = sweep(sim, spec, db, "--export", "csv", "-o", target)
        check(one_line_error(r, target, "results database's log") and os.path.exists(target) == existed,
              f"--export -o ident.db{suffix} (the results database's log, {'there' if existed else 'not there'}) "
              f"is refused ({r.stderr.strip()!r})")

    missing = os.path.join(work, "mistyped.db")
    for mode in (["--no-run"], ["--export", "json"]):
        r = sweep(sim, spec, missing, *mode)
        check(one_line_error(r, missing) and not os.path.exists(missing),
              f"{mode[0]} with a database that does not exist is refused and creates none ({r.stderr.strip()!r})")

    for extra, named in ((["--collect"], "--collect"), (["--partition", "batch"], "--partition"),
                         (["--wait"], "--wait"), (["--no-run", "--retry-failed"], "--retry-failed"),
                         (["--export", "csv", "--retry-failed"], "--retry-failed"),
                         (["--export", "csv", "--out", work], "--out")):
        r = sweep(sim, spec, db, *extra)
        check(one_line_error(r, named), f"{' '.join(extra)} is refused as not applying ({r.stderr.strip()!r})")

    plots = write(os.path.join(work, "outcheck.yaml"), f"""name: outcheck
program: {a}
grid:
  tcdm.size: [64KiB, 128KiB]
plots:
  - kind: line
    x: tcdm.size
""")
    fresh = os.path.join(work, "outcheck.db")
    for out in (write(os.path.join(work, "a-file"), "x"), "/proc/nonexistent/plots"):
        r = subprocess.run([sim, "sweep", plots, "--db", fresh, "--out", out], capture_output=True, text=True,
                           timeout=60)
        check(one_line_error(r, out) and not os.path.exists(fresh),
              f"--out {out} is refused before anything runs or is stored ({r.stderr.strip()!r})")


def regions_and_mixed_points(sim, work, kernels):
    """A region the sweep names that no point has is an error once the points ran; they stay stored. Two
    programs sharing a region name are refused where a table or plot would put them in one cell."""
    a, b, db = (os.path.join(work, n) for n in ("a.elf", "b.elf", "ident.db"))
    con = sqlite3.connect(db)
    have = {n for (n,) in con.execute("SELECT DISTINCT r.name FROM regions r JOIN points p ON p.id = r.point_id "
                                      "WHERE p.program = ? AND p.status = 'ok'", (a,))}
    con.close()
    spec = write(os.path.join(work, "regions.yaml"), f"name: regions\nprogram: {a}\ngrid:\n"
                                                     f"  tcdm.size: [64KiB, 128KiB]\nregions: [matmull]\n")
    fresh = os.path.join(work, "regions.db")
    r = sweep(sim, spec, fresh)
    last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
    check(r.returncode == 2 and f"{spec}:5" in last and "'matmull'" in last and have and all(n in last for n in have),
          f"an unknown region is one line naming it and the regions the points have ({last!r})")
    check(len(points_of(fresh)) == 2, "the points of a sweep with an unknown region stay stored")
    write(spec, f"name: regions\nprogram: {a}\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nregions: [{sorted(have)[0]}]\n")
    r = sweep(sim, spec, fresh)
    check(r.returncode == 0 and "all 2 points already stored" in r.stderr,
          f"fixing the region name simulates nothing again ({r.stderr.strip()[-200:]!r})")

    # Half run: a program none of whose points ran yet may hold the other region, so tables and exports go on.
    k1, cols = os.path.join(kernels, "matmul_family_k1.elf"), os.path.join(kernels, "matmul_fp32_parallel_cols.elf")
    half, half_db = os.path.join(work, "half.yaml"), os.path.join(work, "half.db")
    write(half, f"name: half\nprogram: [{k1}]\ngrid:\n  tcdm.size: [64KiB, 128KiB]\nregions: [mm]\n")
    check(sweep(sim, half, half_db).returncode == 0, "the first program's points of a sweep run")
    write(half, f"name: half\nprogram: [{k1}, {cols}]\ngrid:\n  tcdm.size: [64KiB, 128KiB]\n"
                f"regions: [mm, matmul]\n")
    r = sweep(sim, half, half_db, "--no-run")
    check(r.returncode == 1 and r.stdout.count("| mm |") == 2 and "2 not run yet" in r.stderr,
          f"--no-run on a half-run sweep shows what ran, the other program's region not taken for a typo "
          f"({r.returncode}, {r.stderr.strip()[-200:]!r})")
    # A placed table: the program with no stored point has no region to show yet, not every listed one.
    tabled = write(os.path.join(work, "half-table.yaml"), open(half).read() +
                   "table:\n  rows: [program, region]\n  columns: tcdm.size\n  value: cycles\n")
    r = sweep(sim, tabled, half_db, "--no-run")
    pending_rows = [line for line in r.stdout.splitlines() if line.startswith(f"| {cols} |")]
    check(r.returncode == 1 and r.stdout.count(f"| {k1} | mm |") == 1 and
          pending_rows == [f"| {cols} | - | - | - |"],
          f"--no-run's table gives a program none of whose points ran one row, not a row per listed region "
          f"({r.stdout[-400:]!r})")
    r = sweep(sim, half, half_db, "--export", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout))) if r.returncode == 0 else []
    check(sorted(row["status"] for row in rows) == ["ok", "ok", "pending", "pending"],
          f"--export of a half-run sweep: its stored points and the pending ones ({r.stderr.strip()[-200:]!r})")
    # An export records nothing: it finds stored points by identity, not by the name that recorded them.
    copy = write(os.path.join(work, "half-copy.yaml"), open(half).read().replace("name: half", "name: half-copy"))
    r = sweep(sim, copy, half_db, "--export", "csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout))) if r.returncode == 0 else []
    check(sorted(row["status"] for row in rows) == ["ok", "ok", "pending", "pending"],
          f"--export of a sweep file under a new name shows the points stored under the old one ({r.stdout[:300]!r})")

    spec = write(os.path.join(work, "mixed.yaml"), f"""name: mixed
program: [{a}, {b}]
grid:
  tcdm.size: [64KiB, 128KiB]
regions: matmul
table:
  rows: tcdm.size
""")
    r = sweep(sim, spec, db, "--no-run")
    check(one_line_error(r, f"{spec}:7", "program", "matmul") and "| " not in r.stdout,
          f"a table whose cells would hold two programs' region is refused ({r.stderr.strip()!r})")
    spec = write(os.path.join(work, "mixed.yaml"), f"""name: mixed
program: [{a}, {b}]
grid:
  tcdm.size: [64KiB, 128KiB]
plots:
  - kind: line
    x: tcdm.size
    region: matmul
    file: mixed-line
""")
    out = os.path.join(work, "mixed-out")
    r = subprocess.run([sim, "sweep", spec, "--db", db, "--no-run", "-q", "--out", out], capture_output=True,
                       text=True, timeout=120)
    said = [x for x in r.stderr.splitlines() if "mixed-line" in x]
    check(r.returncode == 2 and len(said) == 1 and f"{spec}:6" in said[0] and "program" in said[0]
          and "Traceback" not in r.stderr and not os.path.exists(os.path.join(out, "mixed-line.png")),
          f"a plot that would draw two programs' region as one is refused in one line ({r.stderr.strip()!r})")


def resume_after_kill(sim, work, kernels, sanitized):
    """A sweep killed with SIGKILL and started again stores every point once, with the same bytes."""
    # Its points must last long enough to kill the sweep between them: the whole family of matmuls takes
    # 0.3-0.7 s a point, one of them under the sanitizers as long (and the family 2-5 s).
    elf = os.path.join(kernels, "matmul_family_k1.elf" if sanitized else "matmul_family.elf")
    text = f"""name: resume
program: {elf}
grid:
  tcdm.size: [64KiB, 128KiB, 256KiB]
zip:
  cluster.cores: [1, 2, 4, 8]
  fpu.count: [1, 2, 4, 8]
"""
    spec = write(os.path.join(work, "resume.yaml"), text)
    reference = os.path.join(work, "reference.db")
    r = sweep(sim, spec, reference, "--jobs", "2")
    check(r.returncode == 0, f"uninterrupted sweep succeeds (exit {r.returncode}: {r.stderr.strip()[-300:]})")
    ref = points_of(reference)
    check(len(ref) == 12, f"uninterrupted sweep stores 12 points (got {len(ref)})")

    db = os.path.join(work, "killed.db")
    for attempt, wait_for in enumerate((2, 6)):
        # A killed sweep cannot remove its work folder: it goes under the test's folder, not /tmp.
        proc = subprocess.Popen([sim, "sweep", spec, "--db", db, "--no-plots", "--jobs", "2"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, TMPDIR=work))
        deadline = time.time() + 120
        stored = 0
        while time.time() < deadline and proc.poll() is None:
            try:
                con = sqlite3.connect(db, timeout=5)
                stored = con.execute("SELECT count(*) FROM points").fetchone()[0]
                con.close()
            except sqlite3.Error:
                stored = 0
            if stored >= wait_for:
                break
            time.sleep(0.05)
        killed = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        check(killed, f"kill {attempt + 1}: the sweep was still running when killed ({stored} points stored)")
        # The points it was running die with it (no orphans keep writing).
        time.sleep(0.5)
        orphans = subprocess.run(["pgrep", "-f", f"pulpsim-points-.*{os.path.basename(elf)}"], capture_output=True,
                                 text=True).stdout.split()
        check(not orphans, f"kill {attempt + 1}: no simulator process outlives the killed sweep ({orphans})")
    partial = points_of(db)
    check(0 < len(partial) < 12, f"the killed sweeps stored part of the points ({len(partial)} of 12)")
    r = sweep(sim, spec, db, "--no-run", "-q")
    check(r.returncode == 1 and f"{len(partial)} of 12 points stored, 0 failed, {12 - len(partial)} not run yet"
          in r.stderr, f"--no-run on the killed sweeps' database says how many points are not run yet, exit 1 "
          f"({r.stderr.strip()[-200:]!r})")
    r = sweep(sim, spec, db, "--jobs", "2", env=dict(os.environ, TMPDIR=work))
    left = sorted(glob.glob(os.path.join(work, "pulpsim-points-*")))
    check(len(left) == 2, f"a sweep that ends removes its work folder; only the two killed ones stay ({left})")
    check(r.returncode == 0 and f"{len(partial)} already stored, running {12 - len(partial)}" in r.stderr,
          f"the resumed sweep runs only the {12 - len(partial)} missing points ({r.stderr.strip()[:200]!r})")
    resumed = points_of(db)
    con = sqlite3.connect(db)
    dup = con.execute("SELECT count(*) - count(DISTINCT point_id) FROM sweep_points WHERE sweep='resume'").fetchone()[0]
    regions = con.execute("SELECT count(*), count(DISTINCT point_id || name) FROM regions").fetchone()
    con.close()
    check(set(resumed) == set(ref) and dup == 0 and regions[0] == regions[1],
          "after resuming, every point is stored exactly once")
    check(all(resumed[i] == ref[i] for i in ref),
          "every resumed point's status, error and report are byte-identical to the uninterrupted sweep's")


def identity_and_failures(sim, work, kernels):
    """Changing one ELF reruns its points only; failing points are stored with their one-line error."""
    a = shutil.copy(os.path.join(kernels, "matmul_fp32_parallel_rows.elf"), os.path.join(work, "a.elf"))
    b = shutil.copy(os.path.join(kernels, "matmul_fp32_parallel_cols.elf"), os.path.join(work, "b.elf"))
    bad = os.path.join(kernels, "layers_error_zero.elf")
    spec = write(os.path.join(work, "ident.yaml"), f"""name: ident
program: [{a}, {b}, {bad}]
grid:
  tcdm.size: [64KiB, 128KiB]
regions: matmul
""")
    db = os.path.join(work, "ident.db")
    r = sweep(sim, spec, db)
    check(r.returncode == 1, f"a sweep with failing points exits 1 (got {r.returncode})")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT program, status, error, exit_code FROM points ORDER BY program").fetchall()
    failed = [x for x in rows if x[1] == "failed"]
    check(len(rows) == 6 and len(failed) == 2 and all(x[0] == bad for x in failed),
          "the failing program's two points are stored as failed, the others as ok")
    check(all(x[3] == 1 and "zero dimension" in x[2] and "\n" not in x[2] for x in failed),
          f"a failed point keeps its exit status and one-line error ({failed[0][2] if failed else None!r})")
    before = {i for (i,) in con.execute("SELECT id FROM points")}
    con.close()

    r = sweep(sim, spec, db)
    check("all 6 points already stored" in r.stderr and "running" not in r.stderr,
          "a second run simulates nothing (failed points included)")

    with open(b, "ab") as f:  # same program, different bytes: its points are new design points
        f.write(b"\0")
    r = sweep(sim, spec, db)
    check("4 already stored, running 2" in r.stderr, f"after changing b.elf only its 2 points run ({r.stderr[:120]!r})")
    con = sqlite3.connect(db)
    after = con.execute("SELECT sp.point_id, p.program FROM sweep_points sp JOIN points p ON p.id = sp.point_id "
                        "WHERE sp.sweep = 'ident'").fetchall()
    con.close()
    check(all((pid in before) == (prog != b) for pid, prog in after) and len(after) == 6,
          "the sweep now points at the old results of a.elf and the failing program and at new ones of b.elf")

    r = sweep(sim, spec, db, "--retry-failed")
    check("running 2" in r.stderr, "--retry-failed runs the failed points again")

    # Exports carry every point and region; CSV and JSON agree. They only read: the database and its log
    # stay byte for byte as they were (so a database the user may not write to will do).
    def stored_bytes():  # a reader may leave an empty log behind where there was none
        return [open(p, "rb").read() if os.path.exists(p) else b"" for p in (db, db + "-wal")]
    before = stored_bytes()
    r_csv = sweep(sim, spec, db, "--export", "csv")
    r_json = sweep(sim, spec, db, "--export", "json")
    check(stored_bytes() == before, "--export leaves the database and its log as they were")
    rows_csv = list(csv.DictReader(io.StringIO(r_csv.stdout)))
    rows_json = json.loads(r_json.stdout)
    check(r_csv.returncode == 0 and len(rows_csv) == 6 and len(rows_json) == 6,
          "--export csv and json give one row per point of the region (failed points included)")
    check(all(int(c["cycles"] or 0) == (j["cycles"] or 0) and c["status"] == j["status"]
              for c, j in zip(rows_csv, rows_json)), "CSV and JSON exports agree")
    out = os.path.join(work, "ident.csv")
    sweep(sim, spec, db, "--export", "csv", "--output", out)
    check(open(out).read() == r_csv.stdout, "--export --output writes the same file")

    # Another file under the same name replaces the recorded sweep, and says so; the same file from another
    # path (a link) does not.
    other = write(os.path.join(work, "ident-other.yaml"), open(spec).read().replace("128KiB]", "256KiB]"))
    r = sweep(sim, other, db, "-q")
    replaced = [line for line in r.stderr.splitlines() if "replaces the sweep of that name" in line]
    check(replaced == [f"sweep ident: replaces the sweep of that name recorded from {spec} in {db}"],
          f"another file named ident: one line says it replaces the recorded sweep ({replaced})")
    link = os.path.join(work, "ident-link.yaml")
    os.symlink(other, link)
    r = sweep(sim, link, db, "-q", "--no-run")
    check("replaces the sweep" not in r.stderr, f"the same file through a link replaces nothing ({r.stderr.strip()!r})")
    r = sweep(sim, spec, db, "-q")
    check("replaces the sweep of that name" in r.stderr and "running" not in r.stderr,
          "the first file again puts its sweep back without simulating")

    # A byte-identical copy of a.elf is the same design point, already stored; the results view and the
    # export still name each program as the sweep does.
    twin = shutil.copy(a, os.path.join(work, "a_twin.elf"))
    twins = write(os.path.join(work, "twins.yaml"), f"""name: twins
program: [{a}, {twin}]
grid:
  tcdm.size: [64KiB]
regions: matmul
""")
    r = sweep(sim, twins, db)
    con = sqlite3.connect(db)
    named = [p for (p,) in con.execute("SELECT program FROM results WHERE sweep = 'twins' ORDER BY ordinal")]
    con.close()
    exported = [row["program"] for row in csv.DictReader(io.StringIO(sweep(sim, twins, db, "--export", "csv").stdout))]
    check(r.returncode == 0 and "all 2 points already stored" in r.stderr and named == [a, twin]
          and exported == [a, twin],
          f"byte-identical programs share a stored point, and the results view and export name each "
          f"({r.stderr.strip()[-120:]!r}; view {named}; export {exported})")


def database_names_are_files(sim, work, kernels):
    """--db names a file, whatever SQLite would make of the name: no result goes to a database in memory."""
    program = os.path.abspath(os.path.join(kernels, "matmul_family_k1.elf"))  # the sweep runs in `work`
    spec = write(os.path.join(work, "names.yaml"), f"name: names\nprogram: {program}\ngrid:\n  tcdm.size: [64KiB]\n")
    for name in (":memory:", "file:names.db?mode=memory"):
        r = subprocess.run([os.path.abspath(sim), "sweep", spec, "--db", name, "--no-plots", "-q"],
                           capture_output=True, text=True, timeout=300, cwd=work)
        path = os.path.join(work, name)
        check(r.returncode == 0 and os.path.isfile(path) and len(points_of(path)) == 1,
              f"--db {name}: the point is stored in a file of that name ({r.stderr.strip()[-200:]!r})")


def plots_from_db(sim, work, kernels):
    """Plots come from the stored database alone (--no-run) and are real PNG and SVG files."""
    elf = os.path.join(kernels, "matmul_family.elf")
    spec = write(os.path.join(work, "plots.yaml"), f"""name: plots
program: {elf}
grid:
  tcdm.size: [64KiB, 128KiB]
zip:
  cluster.cores: [1, 2, 8]
  fpu.count: [1, 2, 8]
plots:
  - kind: line
    x: cluster.cores
    y: mac_per_cycle
    series: tcdm.size
    file: line
  - kind: heatmap
    x: cluster.cores
    y: tcdm.size
    value: cycles
    file: heat
  - kind: bars
    x: cluster.cores
    value: cycles
    series: tcdm.size
    baseline: {{cluster.cores: 1}}
    file: bars
  - kind: line
    x: cluster.cores
    y: cycles
    series: tcdm.size
    file: dollars
    title: "cost in $ and \\\\frac{{ $ per MAC"
  - kind: heatmap
    x: cluster.cores
    y: region
    value: cycles
    facets: [tcdm.size]
    file: heat-regions
regions: [mm_u2, mm]
""")
    db = os.path.join(work, "plots.db")
    r = sweep(sim, spec, db)
    check(r.returncode == 0, "the plots sweep runs")
    out = os.path.join(work, "plots-out")
    r = subprocess.run([sim, "sweep", spec, "--db", db, "--no-run", "--out", out, "-q"], capture_output=True,
                       text=True, timeout=300)
    check(r.returncode == 0 and "running" not in r.stderr and "Traceback" not in r.stderr,
          f"--no-run draws without simulating ({r.stderr[-300:]!r})")
    for name in ("line", "heat", "bars", "dollars"):
        png, svg = os.path.join(out, name + ".png"), os.path.join(out, name + ".svg")
        ok = os.path.exists(png) and os.path.getsize(png) > 1000 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
        ok = ok and os.path.exists(svg) and b"<svg" in open(svg, "rb").read(2000)
        check(ok, f"plot '{name}' written as a non-empty PNG and SVG")
    # Matplotlib writes each text of an SVG as a comment before its glyphs: the y ticks, bottom to top.
    path = os.path.join(out, "heat-regions.svg")
    svg = open(path).read() if os.path.exists(path) else ""
    ticks = [t for t in re.findall(r"<!-- (\S+) -->", svg) if t in ("mm", "mm_u2")]
    check(ticks == ["mm_u2", "mm"], f"a heatmap with y: region has a row per region, in the regions: order ({ticks})")

    # Speed-up bars whose baseline point failed (its program does not fit 4 KiB of TCDM): left out and said
    # so, not drawn as 0.
    spec = write(os.path.join(work, "nobase.yaml"), f"""name: nobase
program: {os.path.join(kernels, "matmul_family_k1.elf")}
zip:
  cluster.cores: [1, 2]
  fpu.count: [1, 2]
  tcdm.size: [4KiB, 64KiB]
plots:
  - {{kind: bars, x: cluster.cores, value: cycles, baseline: {{cluster.cores: 1}}, file: nobase}}
""")
    r = subprocess.run([sim, "sweep", spec, "--db", os.path.join(work, "nobase.db"), "--out", out, "-q"],
                       capture_output=True, text=True, timeout=300)
    svg = os.path.join(out, "nobase.svg")
    text = open(svg).read() if os.path.exists(svg) else ""
    note = "1 bar left out: no result at the baseline (cores = 1)"
    check(r.returncode == 1 and note in r.stderr and f"<!-- {note} -->" in text,
          f"bars over a failed baseline point: left out, said on stderr and in the plot ({r.stderr.strip()[-300:]!r})")


def read_only_database(sim, work, kernels):
    """A reader who may not write to the database or its folder exports it and draws its plots again."""
    # As root, the reader is `nobody`, so everything it uses is copied to a folder anyone may read (the build
    # may be in a private home).
    as_reader = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] if os.geteuid() == 0 else []
    base = tempfile.mkdtemp(prefix="pulpsim-shared-")
    try:
        os.chmod(base, 0o755)
        scripts = os.path.join(base, "scripts")
        os.makedirs(scripts)
        source_scripts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts")
        for name in ("plot_sweep.py", "results_db.py"):
            shutil.copy(os.path.join(source_scripts, name), scripts)
        shared_sim = shutil.copy(sim, os.path.join(base, "pulpsim"))
        elf = shutil.copy(os.path.join(kernels, "matmul_family.elf"), base)
        folder, out, mpl = (os.path.join(base, d) for d in ("shared", "plots", "mpl"))
        for d in (folder, out, mpl):
            os.makedirs(d)
        os.chmod(out, 0o777)
        os.chmod(mpl, 0o777)
        env = dict(os.environ, MPLCONFIGDIR=mpl, PULPSIM_PLOT_SCRIPT=os.path.join(scripts, "plot_sweep.py"))
        spec = write(os.path.join(folder, "shared.yaml"), f"""name: shared
program: {elf}
zip:
  cluster.cores: [2, 4]
  fpu.count: [2, 4]
plots:
  - kind: line
    x: cluster.cores
""")
        db = os.path.join(folder, "shared.db")
        r = sweep(shared_sim, spec, db, env=env)
        check(r.returncode == 0 and len(points_of(db)) == 2, f"the shared sweep runs ({r.stderr.strip()[-300:]!r})")
        before = digest(db)
        # Under root the reader owns the database but not its folder, where SQLite writes its log; otherwise
        # it may write to neither.
        if as_reader:
            shutil.chown(db, user="nobody")
        else:
            os.chmod(db, 0o444)
            os.chmod(folder, 0o555)

        def read(*extra):
            return subprocess.run([*as_reader, shared_sim, "sweep", spec, "--db", db, *extra], capture_output=True,
                                  text=True, timeout=300, env=env)
        r = read("--export", "csv")
        rows = list(csv.DictReader(io.StringIO(r.stdout))) if r.returncode == 0 else []
        check(r.returncode == 0 and rows and all(x["status"] == "ok" for x in rows),
              f"--export reads a database its reader may not write to ({r.stderr.strip()[-300:]!r})")
        r = read("--no-run", "--out", out)
        png = os.path.join(out, "shared-line1.png")
        check(r.returncode == 0 and "mm_unroll_2x2" in r.stdout and os.path.exists(png)
              and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
              f"--no-run shows the table and draws the plots of a database its reader may not write to "
              f"({r.stderr.strip()[-300:]!r})")
        write(spec, open(spec).read().replace("[2, 4]\n  fpu.count: [2, 4]", "[2, 8]\n  fpu.count: [2, 8]"))
        r = read("--no-run", "--out", out)
        check(one_line_error(r, f"--db {db}: cannot write to it", "does not hold sweep 'shared'"),
              f"--no-run refuses in one line when the sweep's points changed since and it cannot record them "
              f"({r.stderr.strip()!r})")
        check(digest(db) == before and not os.path.exists(db + "-wal") and not os.path.exists(db + "-shm"),
              "the readers left the database as it was")
    finally:
        for root, dirs, _ in os.walk(base):
            for d in dirs:
                os.chmod(os.path.join(root, d), 0o755)
        shutil.rmtree(base, ignore_errors=True)


def failures_as_they_happen(sim, work, kernels):
    """A failed point's reason is printed as it fails, above the progress; each error is listed for three
    points and the rest are counted, in the run and again from the database."""
    bad = os.path.join(kernels, "layers_error_zero.elf")
    spec = write(os.path.join(work, "failing.yaml"), f"""name: failing
program: {bad}
grid:
  tcdm.size: [64KiB, 128KiB, 256KiB, 512KiB, 1MiB]
""")
    db = os.path.join(work, "failing.db")
    for run in ("running", "stored"):
        r = sweep(sim, spec, db, "-j1", "-q")
        lines = r.stderr.strip().splitlines()
        listed = [i for i, line in enumerate(lines) if "failing: failed point tcdm.size=" in line]
        counted = [line for line in lines if line == "sweep failing: 2 more failed points: exit status 1: "
                   "error: conv2d: zero dimension"]
        progress = [i for i, line in enumerate(lines) if line.startswith("failing: 5/5 points, 5 failed")]
        check(r.returncode == 1 and len(listed) == 3 and len(counted) == 1
              and (run == "stored" or (len(progress) == 1 and listed[-1] < progress[0])),
              f"five points failing alike ({run}): three listed (before the last progress line when they run), "
              f"two counted ({lines})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--sanitized", action="store_true", help="a sanitizer build, many times slower")
    args = ap.parse_args()
    fresh_dir(args.workdir)
    bad_specs(args.sim, args.workdir, args.kernels)
    identity_and_failures(args.sim, args.workdir, args.kernels)
    failures_as_they_happen(args.sim, args.workdir, args.kernels)
    order_and_exclusion(args.sim, args.workdir, args.kernels, os.path.join(args.workdir, "ident.db"))
    refused_before_running(args.sim, args.workdir, args.kernels)
    regions_and_mixed_points(args.sim, args.workdir, args.kernels)
    resume_after_kill(args.sim, args.workdir, args.kernels, args.sanitized)
    database_names_are_files(args.sim, args.workdir, args.kernels)
    plots_from_db(args.sim, args.workdir, args.kernels)
    read_only_database(args.sim, args.workdir, args.kernels)
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
