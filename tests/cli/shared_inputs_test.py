#!/usr/bin/env python3
"""Checks the input rules every verb shares: a YAML input holding a second document is refused at the line
that starts it (yaml-cpp alone would drop it silently), a negative number for a count option is refused
(Boost alone would wrap it to 2^32 - 1), a SQLite file some other program made is refused and left byte for
byte as it was, a program rebuilt while a sweep runs is never stored under the identity of the bytes
hashed before, no output may replace an input or another output, an empty output path and a standard output
that cannot be written are errors, and a program linked for fewer cores than the platform is refused.
"""
import argparse
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, repository_view  # noqa: E402

check = Checks()


def run(sim, *args, cwd=None, timeout=300):
    return subprocess.run([sim, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout)


def one_line_error(r, *needles):
    lines = r.stderr.strip().splitlines()
    return (r.returncode == 2 and len(lines) == 1 and "Traceback" not in r.stderr and
            all(n in lines[0] for n in needles))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def second_documents(sim, work, kernels):
    elf = os.path.join(kernels, "matmul_fp32_parallel_rows.elf")
    with open(os.path.join(work, "configs", "platforms", "pulp-open.yaml")) as f:
        platform = f.read()
    base_lines = platform.count("\n")
    for separator, name in (("---", "dashes"), ("...", "dots")):
        path = os.path.join(work, f"platform_{name}.yaml")
        with open(path, "w") as f:
            f.write(platform + separator + "\ncluster: {cores: 2}\n")
        r = run(sim, "run", "-q", "--platform", path, elf)
        check(one_line_error(r, f"{path}:{base_lines + 1}:", "second YAML document"),
              f"a platform file with '{separator}' and a second document is refused at the separator's line "
              f"({r.returncode}: {r.stderr.strip()})")
    empty = os.path.join(work, "empty.yaml")
    open(empty, "w").close()
    r = run(sim, "run", "-q", "--platform", empty, elf)
    check(one_line_error(r, empty, "no settings"), f"an empty platform file is refused ({r.stderr.strip()})")
    # yaml-cpp 0.7 reads documents after a top-level ',' forever: the file must still be refused at once.
    for name, text in (("comma", ","), ("comma_then_document", ",\n---\n,\n---\ncluster: {cores: 2}\n")):
        path = os.path.join(work, f"{name}.yaml")
        with open(path, "w") as f:
            f.write(text)
        try:
            r = run(sim, "run", "-q", "--platform", path, elf, timeout=30)
            ok = one_line_error(r, path)
            what = r.stderr.strip()
        except subprocess.TimeoutExpired:
            ok, what = False, "no answer in 30 s"
        check(ok, f"a platform file holding {text!r} is refused at once ({what})")
    # A trailing '...' ends the one document: nothing is lost, so it is accepted.
    ended = os.path.join(work, "ended.yaml")
    with open(ended, "w") as f:
        f.write(platform + "...\n")
    r = run(sim, "run", "-q", "--platform", ended, elf)
    check(r.returncode == 0, f"a platform file ending in '...' alone runs ({r.stderr.strip()})")

    with open(os.path.join(work, "configs", "sweeps", "quick.yaml")) as f:
        sweep = f.read()
    spec = os.path.join(work, "two_docs_sweep.yaml")
    with open(spec, "w") as f:
        f.write(sweep.replace("\nregions:", "\n---\nregions:"))
    r = run(sim, "sweep", spec, "--db", os.path.join(work, "docs.db"), "--no-run", cwd=work)
    check(one_line_error(r, spec, "second YAML document") and not os.path.exists(os.path.join(work, "docs.db")),
          f"a sweep file whose second half is another document is refused, no database made ({r.stderr.strip()})")

    baseline = os.path.join(work, "two_docs_baseline.yaml")
    with open(baseline, "w") as f:
        f.write("platform: configs/platforms/pulp-open.yaml\nentries:\n"
                "  - name: a\n    program: build/kernels/matmul_fp32_parallel_rows.elf\n"
                "    regions: {matmul: {cycles: 1}}\n---\n"
                "  - name: b\n    program: build/kernels/matmul_fp32_parallel_rows.elf\n"
                "    regions: {matmul: {cycles: 1}}\n")
    r = run(sim, "regress", baseline, "--jobs", "1", cwd=work)
    check(one_line_error(r, f"{baseline}:6:", "second YAML document"),
          f"a baseline with a stray '---' is refused at its line, not half-checked ({r.returncode}: "
          f"{r.stderr.strip()[:200]})")

    memory_map = os.path.join(work, "memory.yaml")
    with open(memory_map, "w") as f:
        f.write("memory: [{base: 0x0, size: 4MiB}]\n---\nmemory: [{base: 0x80000000, size: 1MiB}]\n")
    r = run(sim, "run", "--bare", "--memory", memory_map, os.path.join(kernels, "matmul_fp32.elf"))
    check(one_line_error(r, f"{memory_map}:2:", "second YAML document"),
          f"a memory map with two documents is refused ({r.stderr.strip()})")


def negative_counts(sim, work):
    for verb, args in (("sweep", ["configs/sweeps/quick.yaml", "--no-run", "--db", "neg.db", "--jobs", "-1"]),
                       ("regress", ["configs/regress/pulp-open.yaml", "--jobs=-2"]),
                       ("autotune", ["--layer", "linear", "--step", "fw", "--shape", "64x8", "--top", "-1",
                                     "--db", "neg.db"])):
        r = run(sim, verb, *args, cwd=work)
        check(one_line_error(r, "negative") and not os.path.exists(os.path.join(work, "neg.db")),
              f"{verb}: a negative count is refused before anything runs ({r.returncode}: {r.stderr.strip()})")


def foreign_databases(sim, work):
    foreign = os.path.join(work, "foreign.db")
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE points (x TEXT)")
        db.execute("INSERT INTO points VALUES ('theirs')")
    before = digest(foreign)
    for verb, args in (("sweep", ["configs/sweeps/quick.yaml", "--db", foreign, "--no-run"]),
                       ("regress", ["--trend", "--history", foreign, "--entry", "x", "--region", "y"])):
        r = run(sim, verb, *args, cwd=work)
        check(one_line_error(r, foreign, "not a pulpsim results database") and digest(foreign) == before and
              not os.path.exists(foreign + "-wal"),
              f"{verb}: another program's SQLite file is refused and left as it was ({r.stderr.strip()})")
    stamped = os.path.join(work, "stamped.db")
    with sqlite3.connect(stamped) as db:
        db.execute("PRAGMA application_id = 7")
    before = digest(stamped)
    r = run(sim, "sweep", "configs/sweeps/quick.yaml", "--db", stamped, "--no-run", cwd=work)
    check(one_line_error(r, "not a pulpsim results database") and digest(stamped) == before,
          f"an empty database stamped by another application is refused ({r.stderr.strip()})")
    # Ours, but of another layout: refused before a table or view is added to it.
    older = os.path.join(work, "older.db")
    with sqlite3.connect(older) as db:
        db.execute("PRAGMA application_id = 1347178579")  # "PLPS"
        db.execute("CREATE TABLE points (id TEXT PRIMARY KEY, program TEXT NOT NULL, program_hash TEXT NOT NULL)")
    before = digest(older)
    r = run(sim, "sweep", "configs/sweeps/quick.yaml", "--db", older, "--no-run", cwd=work)
    check(one_line_error(r, older, "its points table has no column 'simulator'") and digest(older) == before,
          f"a pulpsim database of another layout is refused and left as it was ({r.stderr.strip()})")


def rebuilt_mid_sweep(sim, work, kernels):
    """The program is replaced by another one after the first point is stored: the sweep stops with an error
    naming it, and every stored point holds the original program's hash and regions."""
    prog = os.path.join(work, "rebuilt.elf")
    shutil.copy(os.path.join(kernels, "pointwise_train_tiled.elf"), prog)
    original = open(prog, "rb").read()
    spec = os.path.join(work, "rebuilt.yaml")
    with open(spec, "w") as f:
        f.write("name: rebuilt\nprogram: rebuilt.elf\nplatform: configs/platforms/vega.yaml\n"
                "grid: {dma.bandwidth_bits: [8, 16, 32, 64, 128, 256]}\nregions: pw_train\n")
    db = os.path.join(work, "rebuilt.db")
    p = subprocess.Popen([sim, "sweep", spec, "--db", db, "--jobs", "1", "--out", os.path.join(work, "rebuilt")],
                         cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 240
    stored = 0
    while time.time() < deadline and p.poll() is None and stored == 0:
        time.sleep(0.05)
        if os.path.exists(db):
            try:
                with sqlite3.connect(db, timeout=5) as c:
                    stored = c.execute("SELECT count(*) FROM points").fetchone()[0]
            except sqlite3.Error:
                pass
    # Replaced as a build would: a new file renamed over the old.
    shutil.copy(os.path.join(kernels, "linear_train_tiled.elf"), prog + ".new")
    os.replace(prog + ".new", prog)
    out, err = p.communicate(timeout=240)
    check(stored >= 1 and p.returncode == 2 and "rebuilt.elf: the program changed" in err,
          f"a program replaced mid-sweep stops the sweep with an error naming it (stored before: {stored}, "
          f"exit {p.returncode}: {err.strip().splitlines()[-1:] if err.strip() else ''})")
    with sqlite3.connect(db) as c:
        rows = c.execute("SELECT p.program_hash, group_concat(r.name) FROM points p LEFT JOIN regions r "
                         "ON r.point_id = p.id GROUP BY p.id").fetchall()
    hashes = {h for h, _ in rows}
    check(len(rows) >= 1 and len(hashes) == 1 and all(names == "pw_train" for _, names in rows),
          f"every stored point is the original program's, with its region ({rows})")
    # The original back: the sweep resumes and completes.
    with open(prog, "wb") as f:
        f.write(original)
    r = run(sim, "sweep", spec, "--db", db, "--jobs", "2", "--out", os.path.join(work, "rebuilt"), cwd=work)
    with sqlite3.connect(db) as c:
        count, distinct = c.execute("SELECT count(*), count(DISTINCT program_hash) FROM points").fetchone()
    check(r.returncode == 0 and count == 6 and distinct == 1,
          f"with the original back the sweep completes on its hash ({r.returncode}, {count} points)")


def outputs_apart(sim, work, kernels):
    """No verb writes an output over one of its inputs, or two outputs into one file: refused before it runs."""
    d = os.path.join(work, "apart")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    prog = os.path.join(d, "prog.elf")
    shutil.copy(os.path.join(kernels, "matmul_compare.elf"), prog)
    mm = os.path.join(d, "mm.elf")
    shutil.copy(os.path.join(kernels, "matmul_fp32_parallel_rows.elf"), mm)
    platform = os.path.join(d, "p.yaml")
    shutil.copy(os.path.join(work, "configs", "platforms", "pulp-open.yaml"), platform)
    base = os.path.join(d, "base.yaml")
    with open(base, "w") as f:
        f.write("entries:\n  - name: mm\n    program: mm.elf\n    regions:\n      matmul: 1\n")
    step = ["--layer", "linear", "--step", "fw", "--shape", "4x4"]
    tune = ["autotune", *step, "--tuning", "t.yaml"]
    cases = [
        (["compare", *step, "--program", "prog.elf", "--json", "prog.elf"], "--json and the program"),
        (["compare", *step, "--platform", "p.yaml", "--json", "./p.yaml"], "--json and --platform"),
        (["compare", *step, "--json", "same.png", "--plot", "same.png"], "--json and --plot"),
        ([*tune, "--program", "prog.elf", "--json", "prog.elf", "--db", "t.db"], "--json and the program"),
        ([*tune, "--db", "t.db", "--json", "t.db"], "--json and --db"),
        ([*tune, "--db", "t.db", "--json", "t.yaml"], "--tuning and --json"),
        (["regress", "base.yaml", "--junit", "base.yaml"], "--junit and the baseline file"),
        (["regress", "base.yaml", "--markdown", "mm.elf"], "--markdown and the program of entry mm"),
        (["regress", "base.yaml", "--history", "h.db", "--junit", "h.db"], "--junit and --history"),
        (["regress", "base.yaml", "--junit", "r.out", "--markdown", "r.out"], "--junit and --markdown"),
        (["regress", "--init", "mm.elf", "mm.elf"], "--init and the program of entry mm"),
        # Files that do not exist yet, spelled two ways.
        (["run", "--report-json", "new.out", "--report-csv", "./new.out", "mm.elf"], "--report-json and --report-csv"),
        (["run", "--trace", "../apart/new.out", "--profile-json", "new.out", "mm.elf"], "--profile-json and --trace"),
        (["run", "--report-json", os.path.join(d, "new.out"), "--trace", "new.out", "mm.elf"],
         "--report-json and --trace"),
        (["regress", "base.yaml", "--history", "h.db", "--junit", "./h.db-wal"], "--junit and --history's log"),
        ([*tune, "--db", "t.db", "--json", "t.db-shm"], "--json and --db's log")]
    before = {f: digest(os.path.join(d, f)) for f in os.listdir(d)}
    for args, names in cases:
        r = run(sim, *args, cwd=d)
        left = {f: digest(os.path.join(d, f)) for f in os.listdir(d)}
        check(one_line_error(r, names, "name the same file") and left == before,
              f"{' '.join(args[:1] + args[-2:])}: refused before it runs, every file as it was ({r.stderr.strip()})")
    # An empty path would go nowhere (a report) or into a temporary SQLite database (a sweep's results).
    for args, option in [(["run", "--report-json", "", "mm.elf"], "--report-json"),
                         (["compare", *step, "--json", ""], "--json"),
                         (["regress", "base.yaml", "--junit", ""], "--junit"),
                         (["regress", "base.yaml", "--history", ""], "--history"),
                         ([*tune, "--db", ""], "--db"),
                         (["sweep", os.path.join(work, "configs", "sweeps", "quick.yaml"), "--db", ""], "--db")]:
        r = run(sim, *args, cwd=d)
        check(one_line_error(r, f"{option}: an empty path") and sorted(os.listdir(d)) == sorted(before),
              f"{args[0]} {option} '': refused ({r.stderr.strip()})")
    # A report that cannot reach standard output is no success.
    with open("/dev/full", "w") as full:
        r = subprocess.run([sim, "run", "mm.elf"], stdout=full, stderr=subprocess.PIPE, text=True, cwd=d)
    check(one_line_error(r, "standard output: cannot write"), f"run > /dev/full: exit 2 ({r.stderr.strip()})")
    for args in (["--version"], ["--help"]):
        with open("/dev/full", "w") as full:
            r = subprocess.run([sim, *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=d)
        check(one_line_error(r, "standard output: cannot write"), f"{args[0]} > /dev/full: exit 2 ({r.stderr.strip()})")
    # --export '' is no format, not the absence of --export.
    r = run(sim, "sweep", os.path.join(work, "configs", "sweeps", "quick.yaml"), "--db", "export.db", "--export", "",
            cwd=d)
    check(one_line_error(r, "--export: '' is not csv or json") and not os.path.exists(os.path.join(d, "export.db")),
          f"sweep --export '': refused before anything runs ({r.stderr.strip()})")
    # A program linked for fewer cores than the platform has is bad input for every verb, before any run.
    many = ["--set", "cluster.cores=16", "--set", "fpu.count=16"]
    for args in (["compare", *step, *many], [*tune, *many, "--db", "many.db"], ["run", *many, "mm.elf"]):
        r = run(sim, *args, cwd=d)
        check(one_line_error(r, "supports at most 9 cores") and not os.path.exists(os.path.join(d, "many.db")),
              f"{args[0]} on 16 cores: one line naming the program's limit ({r.stderr.strip()})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--workdir", required=True)
    a = ap.parse_args()
    sim = os.path.abspath(a.sim)
    work = repository_view(a.source, a.build, a.workdir)
    kernels = os.path.join(os.path.abspath(a.build), "kernels")
    second_documents(sim, work, kernels)
    negative_counts(sim, work)
    foreign_databases(sim, work)
    rebuilt_mid_sweep(sim, work, kernels)
    outputs_apart(sim, work, kernels)
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
