#!/usr/bin/env python3
"""Checks `pulpsim regress`: a kernel slowed by one instruction in its inner loop fails the gate with its
numbers, a faster one is a stale baseline, --update changes exactly the affected lines and keeps comments,
JUnit and markdown reports, failed entries (also under --update), cycle limits, history and trend, and one-line
errors for bad baselines and for options of another mode.

Baselines are written by `regress --init` from the unmodified kernel; the slowed kernel is the same source
built with one extra `nop` per MAC (kernels/apps/matmul_fp32_parallel), so the expected direction of every
verdict follows from the programs, not from recorded numbers.
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import yaml
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, children_of, fresh_dir  # noqa: E402

check = Checks()


def junit_counts(path, baseline_cycles, now):
    """The JUnit report read as CI systems read it (junitparser, Debian's python3-junitparser; the standard
    library's XML parser where it is missing): 5 test cases, 1 failure whose message carries the numbers."""
    try:
        import junitparser
        xml = junitparser.JUnitXml.fromfile(path)
        cases = [case for suite in xml for case in suite]
        failed = [c for c in cases if any(isinstance(r, junitparser.Failure) for r in c.result)]
        msg = next(r.message for r in failed[0].result) if failed else ""
        reader = "junitparser"
    except ImportError:
        suite = ET.parse(path).getroot().find("testsuite")
        cases = suite.findall("testcase")
        failed = [c for c in cases if c.find("failure") is not None]
        msg = failed[0].find("failure").get("message") if failed else ""
        reader = "ElementTree"
    except Exception as e:  # a report that does not parse fails the check
        return False, f"the JUnit report parses ({e})"
    ok = len(cases) == 5 and len(failed) == 1 and str(baseline_cycles) in msg and str(now) in msg
    return ok, f"the JUnit report parses ({reader}): 5 test cases, 1 failure carrying the numbers ({msg!r})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--regionless", required=True, help="a cluster program that runs no perf region")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    fresh_dir(args.workdir)
    w = args.workdir
    normal = os.path.join(args.kernels, "matmul_fp32_parallel_rows.elf")
    slowed = os.path.join(args.kernels, "matmul_fp32_parallel_rows_slowed.elf")
    prog = os.path.join(w, "mm.elf")
    other = shutil.copy(os.path.join(args.kernels, "fp16_kernels.elf"), os.path.join(w, "fp16.elf"))

    def regress(*extra):
        return subprocess.run([args.sim, "regress", *extra], capture_output=True, text=True, timeout=600)

    # A baseline of the unmodified kernel, with comments of the user's own.
    shutil.copy(normal, prog)
    base = os.path.join(w, "base.yaml")
    r = regress("--init", base, prog, other)
    check(r.returncode == 0 and os.path.exists(base), f"--init writes a baseline ({r.stderr.strip()})")
    text = open(base).read().replace("entries:\n", "entries:\n  # the matmul kernel under test\n")
    text = text.replace("      matmul:", "      # the timed region\n      matmul:")
    open(base, "w").write(text)
    r = regress(base)
    check(r.returncode == 0 and "0 failing" in r.stdout, "the unchanged kernel passes its baseline")
    passing = re.search(r"(\d+) regions of 2 entries, 0 failing", r.stdout)
    region_count = int(passing.group(1)) if passing else -1
    r = regress(base, "-q")
    check(r.returncode == 0 and passing and r.stdout == f"{base}: {passing.group(0)}\n",
          f"-q with every region ok: the summary line alone ({r.stdout!r})")
    baseline_cycles = int(re.search(r"matmul: \{cycles: (\d+)", text).group(1))

    # One more instruction in the inner loop: slower, exit 1, the row names entry, region and numbers.
    shutil.copy(slowed, prog)
    junit, md = os.path.join(w, "report.xml"), os.path.join(w, "report.md")
    r = regress(base, "--junit", junit, "--markdown", md)
    row = next((line for line in r.stdout.splitlines() if line.startswith("mm ") and " matmul " in line), "")
    fields = row.split()
    now = int(fields[3]) if len(fields) > 5 else 0
    check(r.returncode == 1 and fields[-1:] == ["slower"] and int(fields[2]) == baseline_cycles and now > baseline_cycles
          and fields[4] == f"+{now - baseline_cycles}",
          f"a slowed kernel exits 1 naming entry, region, baseline, new count and delta ({row!r})")
    slower_line = next((line for line in r.stdout.splitlines() if line.startswith("fp16 ")), "")
    check(slower_line.endswith(" ok"), "the other entry stays ok")
    check(*junit_counts(junit, baseline_cycles, now))
    md_text = open(md).read()
    check("FAILED" in md_text and "| mm | matmul |" in md_text and "slower" in md_text,
          "the markdown summary shows the slower region")
    # Two runs give byte-identical reports.
    r2 = regress(base, "--junit", junit + "2", "--markdown", md + "2")
    check(r2.stdout == r.stdout and open(junit).read() == open(junit + "2").read() and md_text == open(md + "2").read(),
          "two runs give byte-identical table, JUnit and markdown")

    # Cycles within the tolerance, instructions not: the row says which count moved, in the markdown too.
    tolerant = os.path.join(w, "tolerant.yaml")
    open(tolerant, "w").write(re.sub(r"^tolerance: .*$", f"tolerance: {{absolute: {now - baseline_cycles}}}", text,
                                     count=1, flags=re.M))
    r = regress(tolerant, "--markdown", md + "3")
    row = next((line for line in r.stdout.splitlines() if line.startswith("mm ") and " matmul " in line), "")
    reason = re.search(r"slower: (instret \d+ -> \d+)$", row)
    md_row = next((line for line in open(md + "3").read().splitlines() if line.startswith("| mm | matmul |")), "")
    check(r.returncode == 1 and reason and md_row.endswith(f"| slower: {reason.group(1)} |"),
          f"cycles within the tolerance, instret beyond: slower, and the markdown says why ({row!r}, {md_row!r})")

    # A baseline of the slowed kernel, then the normal one: faster = a stale baseline.
    stale = os.path.join(w, "stale.yaml")
    open(stale, "w").write(text)
    r = regress(stale, "--update")  # bless the slowed kernel: only its numbers change
    after = open(stale).read()
    changed = [(a, b) for a, b in zip(text.splitlines(), after.splitlines()) if a != b]
    check(r.returncode == 0 and len(text.splitlines()) == len(after.splitlines()) and len(changed) == 1
          and "matmul:" in changed[0][1] and "# the timed region" in after and "# the matmul kernel under test" in after,
          f"--update changes exactly the matmul line and keeps every comment ({changed})")
    shutil.copy(normal, prog)
    r = regress(stale)
    check(r.returncode == 1 and re.search(r"^mm +matmul .* faster$", r.stdout, re.M) is not None,
          "a faster kernel is reported as a stale baseline (exit 1)")
    r = regress(stale, "--allow-faster")
    check(r.returncode == 0, "--allow-faster lets it pass")

    # New and missing regions: --update adds the one and drops the other.
    edited = os.path.join(w, "edited.yaml")
    t = open(base).read()
    t = re.sub(r"      vm_naive: .*\n", "", t)
    t = t.replace("      matmul_fp16:", "      gone_region: {cycles: 5, instret: 5}\n      matmul_fp16:")
    open(edited, "w").write(t)
    r = regress(edited)
    check(r.returncode == 1 and re.search(r"gone_region .* missing", r.stdout) and re.search(r"vm_naive .* new", r.stdout),
          "a region the program no longer has is missing (exit 1), one the baseline lacks is new")
    regress(edited, "--update")
    r = regress(edited)
    check(r.returncode == 0 and "gone_region" not in open(edited).read() and "vm_naive" in open(edited).read(),
          "--update drops the missing region and adds the new one")

    # --update edits a number where it is written: between its quotes, past a byte-order mark. Where that
    # cannot keep the file (a tag or an anchor before the number, regions in flow style), it refuses with one
    # line and leaves the file as it was.
    head = f"entries:\n  - name: mm\n    program: {prog}\n    regions:\n"
    for name, layout, keeps in [
            ("quoted", head + "      matmul: {cycles: '5'}\n", "'"),
            ("double-quoted", head + '      matmul: {cycles: "5"}\n', '"'),
            ("byte-order mark", "\ufeff" + head + "      matmul: 5\n", "\ufeff"),
            ("tagged", head + "      matmul: {cycles: !!int 5}\n", None),
            ("anchored", head + "      matmul: {cycles: &n 5}\n", None),
            ("flow style", head.replace("    regions:\n", "    regions: {matmul: 5, gone: 3}\n"), None)]:
        path = os.path.join(w, f"layout-{name.replace(' ', '-')}.yaml")
        open(path, "w", encoding="utf-8").write(layout)
        refused_junit = os.path.join(w, f"layout-{name.replace(' ', '-')}.xml")
        r = regress(path, "--update", *([] if keeps else ["--junit", refused_junit]))
        after = open(path, encoding="utf-8").read()
        if keeps:
            check(r.returncode == 0 and regress(path).returncode == 0 and keeps in after and
                  str(baseline_cycles) in after,
                  f"--update, {name}: updated in place, and the file passes ({after.strip()!r})")
        else:
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and path in lines[0] and after == layout and
                  not os.path.exists(refused_junit),
                  f"--update, {name}: one line, the file unchanged, no report written ({r.stderr.strip()})")

    # --init quotes what YAML would otherwise misread: a ':' or '#' in a program's path or its name.
    odd = shutil.copy(prog, os.path.join(w, "odd #1: mm.elf"))
    quoted = os.path.join(w, "quoted.yaml")
    r = regress("--init", quoted, odd)
    r2 = regress(quoted)
    check(r.returncode == 0 and r2.returncode == 0 and "odd #1: mm" in r2.stdout,
          f"--init of '{os.path.basename(odd)}': a baseline that reads back and passes ({r2.stderr.strip()})")
    # ... and in a --set value.
    named = os.path.join(w, "named.yaml")
    r = regress("--init", named, "--set", "platform.name=my #1: fast", prog)
    with open(named) as f:
        written = yaml.safe_load(f)
    check(r.returncode == 0 and written["entries"][0]["set"] == {"platform.name": "my #1: fast"},
          f"--init --set platform.name='my #1: fast': the value reads back whole ({written['entries'][0].get('set')})")

    # SIGINT while the entries run: exit 130, one line saying nothing was written, and no report.
    long_step = os.path.join(args.kernels, "pointwise_train_tiled.elf")
    interrupted = os.path.join(w, "interrupted.yaml")
    with open(interrupted, "w") as f:
        f.write("entries:\n" + "".join(f"  - name: pw{i}\n    program: {long_step}\n    set: {{l2.size: 4MiB}}\n"
                                         f"    regions:\n      pw_train: 1\n" for i in range(4)))
    report = os.path.join(w, "interrupted.xml")
    new_history = os.path.join(w, "interrupted_history.db")
    p = subprocess.Popen([args.sim, "regress", interrupted, "-j1", "--junit", report, "--history", new_history],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # Past the start-up (hashing the simulator and the programs, which a busy machine slows down): once the
    # first entry's simulation runs. A background job of a script ignores SIGINT, so one sent before would be
    # lost.
    deadline = time.monotonic() + 60
    while not children_of(p.pid) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    left = [f for f in os.listdir(w) if f.startswith("interrupted_history.db")]
    check(p.returncode == 130 and err.strip().splitlines()[-1:] == [
        "regress: interrupted; no report, update or history entry was written"] and not os.path.exists(report)
        and not left, f"SIGINT mid-run: exit 130, one line, no report, no new history database "
        f"({p.returncode}: {err.strip()[-200:]}; left {left})")

    # Failed entries: a missing program and a program whose own check fails.
    broken = os.path.join(w, "broken.yaml")
    open(broken, "w").write(f"""entries:
  - name: "absent|x"
    program: {os.path.join(w, "absent.elf")}
    regions:
      matmul: 100
  - name: failing
    program: {os.path.join(args.kernels, "layers_error_zero.elf")}
    regions:
      conv_fw: 100
""")
    r = regress(broken, "--junit", junit, "--markdown", md)
    rows = [line for line in r.stdout.splitlines() if line.startswith(("absent", "failing"))]
    check(r.returncode == 1 and len(rows) == 2 and all(line.split()[1] == "failed:" or " failed: " in line for line in rows)
          and "absent.elf" in rows[0] and "zero dimension" in rows[1],
          f"a missing and a failing program are failed entries with their one-line errors ({rows})")
    errors = {e.get("message", ""): e.text or "" for e in ET.parse(junit).getroot().iter("error")}
    suite = ET.parse(junit).getroot().find("testsuite")
    check(len(errors) == 2 and suite.get("errors") == "2" and
          all(any(word in m and word in body for m, body in errors.items())
              for word in ["absent.elf", "zero dimension"]),
          f"JUnit: each failed entry is an <error> carrying its one-line error ({list(errors)})")
    md_rows = [line for line in open(md).read().splitlines() if line.startswith(("| absent", "| failing"))]
    check(len(md_rows) == 2 and md_rows[0].startswith("| absent\\|x |") and "failed: program" in md_rows[0]
          and "absent.elf" in md_rows[0] and "zero dimension" in md_rows[1] and "| 0 |" not in "".join(md_rows)
          and all(len(re.split(r"(?<!\\)\|", row)) == 9 for row in md_rows),
          f"markdown: failed rows carry the error, a '|' in a name is escaped, no made-up zeros ({md_rows})")

    # --update with a failed entry: the others are updated, the failed one is named, exit status 1.
    partial = os.path.join(w, "partial.yaml")
    shutil.copy(slowed, prog)
    lines = text.splitlines(keepends=True)
    open(partial, "w").write("".join(lines) + f"""  - name: gone
    program: {os.path.join(w, "gone.elf")}
    regions:
      matmul: 100
""")
    r = regress(partial, "--update")
    after = open(partial).read()
    now_cycles = int(re.search(r"matmul: \{cycles: (\d+)", after).group(1))
    check(r.returncode == 1 and "gone" in r.stderr.splitlines()[-1] and now_cycles != baseline_cycles
          and "      matmul: 100\n" in after,
          f"--update with a failed entry updates the others ({baseline_cycles} -> {now_cycles}), keeps the failed "
          f"one and exits 1 ({r.stderr.strip().splitlines()[-1:]})")
    shutil.copy(normal, prog)

    # Cycle limits: --max-cycles, and max_cycles: in the file (per file and per entry); the option wins.
    limit = baseline_cycles // 2
    r = regress(base, "--max-cycles", str(limit), "--junit", junit, "--markdown", md)
    rows = [line for line in r.stdout.splitlines() if line.startswith(("mm ", "fp16 "))]
    summary = open(md).read()
    check("Changed:" in summary and "Unchanged regions" not in summary,
          f"markdown with every region failed: no empty table of unchanged regions ({summary!r})")
    suite = ET.parse(junit).getroot().find("testsuite")
    # Every region of a failed entry is a failed row, so the reports count the regions a passing run counts.
    check(r.returncode == 1 and len(rows) == region_count > 2 and all(f"--max-cycles {limit}" in line for line in rows)
          and f"{region_count} regions of 2 entries, {region_count} failing" in r.stdout
          and suite.get("tests") == suite.get("errors") == str(region_count),
          f"--max-cycles {limit} stops every entry as failed, each of its {region_count} regions a failed row "
          f"({rows})")
    limited = os.path.join(w, "limited.yaml")
    open(limited, "w").write(text.replace("entries:\n", f"max_cycles: {limit}\nentries:\n", 1)
                             .replace("  - name: mm\n", f"  - name: mm\n    max_cycles: {baseline_cycles * 10}\n", 1))
    r = regress(limited)
    mm_rows = [line for line in r.stdout.splitlines() if line.startswith("mm ")]
    fp16_rows = [line for line in r.stdout.splitlines() if line.startswith("fp16 ")]
    check(r.returncode == 1 and fp16_rows and all(f"--max-cycles {limit}" in line for line in fp16_rows)
          and mm_rows and all(line.endswith(" ok") for line in mm_rows),
          f"max_cycles: in the file limits its entries, an entry's own max_cycles: wins ({fp16_rows}, {mm_rows})")
    r = regress(limited, "--max-cycles", str(baseline_cycles * 1000))
    check(r.returncode == 0, "--max-cycles overrides the file's max_cycles:")

    # History and trend.
    hist = os.path.join(w, "history.db")
    regress(base, "--history", hist)
    shutil.copy(slowed, prog)
    regress(base, "--history", hist)
    png = os.path.join(w, "trend.png")
    r = regress("--trend", "--history", hist, "--entry", "mm", "--region", "matmul", "--plot", png)
    lines = [line for line in r.stdout.splitlines() if " matmul " in line]
    check(r.returncode == 0 and len(lines) == 2 and int(lines[0].split()[-1]) == baseline_cycles
          and int(lines[1].split()[-1]) > baseline_cycles, f"--trend lists the region's cycles per recorded run ({lines})")
    check(os.path.exists(png) and open(png, "rb").read(4) == b"\x89PNG", "--trend --plot draws the trend")
    left = [f for f in os.listdir(w) if f.startswith("history.db-")]
    check(not left, f"--trend, which only reads, leaves no SQLite log or shared-memory file behind ({left})")
    # A second baseline file with the same entries, in the same history: its own series, not a swing in the
    # first's.
    other_base = shutil.copy(base, os.path.join(w, "other-base.yaml"))
    shutil.copy(normal, prog)
    regress(other_base, "--history", hist)
    shutil.copy(slowed, prog)
    r = regress("--trend", "--history", hist, "--entry", "mm", "--region", "matmul", "--plot", png)
    lines = [line.split() for line in r.stdout.splitlines()]
    rows = [(line[0], line[-4], int(line[-1])) for line in lines[1:]]  # run, baseline, cycles
    check(r.returncode == 0 and lines[0][3] == "baseline" and [row[1] for row in rows] == [base, base, other_base]
          and [row[0] for row in rows] == ["1", "2", "3"] and rows[2][2] == baseline_cycles,
          f"--trend over two baseline files: a baseline column, each file's runs together ({rows})")
    for plot, word in [(os.path.join(w, "trend.bmp"), "must end in .png, .svg or .pdf"),
                       (os.path.join(w, "nodir", "trend.png"), "no folder")]:
        r = regress("--trend", "--history", hist, "--plot", plot)
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(err) == 1 and f"--plot {plot}" in err[0] and word in err[0] and not r.stdout
              and not os.path.exists(plot),
              f"--trend --plot {os.path.basename(plot)}: one line before anything runs ({err})")
    # The script itself (run by a Python with matplotlib, as pulpsim runs it): one line, no traceback, for
    # what it can tell before drawing.
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "plot_trend.py")
    python = next((p for p in [sys.executable, "/usr/bin/python3"] if shutil.which(p) and subprocess.run(
        [p, "-c", "import matplotlib"], capture_output=True).returncode == 0), sys.executable)
    for out, history, word in [(os.path.join(w, "trend.bmp"), hist, "must end in one of"),
                               (os.path.join(w, "nodir", "t.png"), hist, "no folder"),
                               (png, os.path.join(w, "no-history.db"), "cannot read the history")]:
        r = subprocess.run([python, script, "--history", history, "--out", out], capture_output=True, text=True)
        err = r.stderr.strip().splitlines()
        check(r.returncode != 0 and len(err) == 1 and err[0].startswith("plot_trend: ") and word in err[0],
              f"plot_trend.py --out {os.path.basename(out)} --history {os.path.basename(history)}: one line "
              f"saying '{word}' ({err})")

    # Outputs that cannot be written are found before any entry runs: one line, nothing in the table.
    for argv, word in [(["--junit", os.path.join(w, "nodir", "r.xml")], "--junit"),
                       (["--markdown", w], "--markdown"),
                       (["--history", os.path.join(hist, "inside.db")], "cannot make its folder")]:
        r = regress(base, *argv)
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(err) == 1 and word in err[0] and not r.stdout,
              f"regress {' '.join(argv)}: one line before any entry runs ({err})")
    new_hist = os.path.join(w, "new", "folder", "history.db")
    r = regress(base, "--history", new_hist)
    check(r.returncode != 2 and os.path.exists(new_hist), "--history in a folder not made yet: made, as for a sweep")

    # Options of another mode are refused, not ignored.
    for argv, word in [([base, "--platform", "p.yaml"], "--platform needs --init"),
                       ([base, "--entry", "mm"], "--entry needs --trend"),
                       ([base, "--region", "matmul"], "--region needs --trend"),
                       ([base, "--plot", png], "--plot needs --trend"),
                       (["--trend", "--history", hist, "--update"], "--update does not go with --trend"),
                       (["--trend", "--history", hist, base], "reads the history"),
                       (["--init", os.path.join(w, "init.yaml"), "--junit", junit, prog],
                        "--junit does not go with --init")]:
        r = regress(*argv)
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(err) == 1 and word in err[0], f"regress {' '.join(argv[1:])}: refused ({err})")

    # An entry without regions checks nothing, and a baseline file refuses it: --init does not write one.
    regionless = os.path.join(w, "regionless.yaml")
    r = regress("--init", regionless, prog, args.regionless)
    err = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(err) == 1 and os.path.basename(args.regionless) in err[0] and
          "ran no perf region" in err[0] and not os.path.exists(regionless),
          f"--init of a program without perf regions: one line naming it, no file written ({err})")

    # --init does not replace a baseline, which holds choices of its own.
    before = open(base).read()
    r = regress("--init", base, prog)
    err = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(err) == 1 and "exists" in err[0] and "--update" in err[0] and
          open(base).read() == before, f"--init over an existing baseline: refused, the file unchanged ({err})")

    # Bad baseline files: one line naming file, line and key; exit 2.
    for name, body, line, word in [
        ("unknown", "entries:\n  - name: a\n    program: x.elf\n    regoins: {}\n", 4,
         "'regoins' in an entry (did you mean 'regions'?)"),
        ("unknown-far", "entries:\n  - name: a\n    program: x.elf\n    colour: red\n", 4,
         "'colour' in an entry (known: name, program, platform, set, tolerance, max_cycles, regions)"),
        ("tolerance", "tolerance: lots\nentries: []\n", 1, "tolerance"),
        # 5 meant as 5%: a region six times as long would pass.
        ("tolerance-percent", "tolerance: 5\nentries: []\n", 1, "tolerance is a fraction of the baseline"),
        ("tolerance-relative", "entries:\n  - name: a\n    program: x.elf\n    tolerance: {relative: 50}\n"
         "    regions: {r: 1}\n", 4, "tolerance relative is a fraction of the baseline (0.05 = 5%), at most 1; 50 "
         "would pass a region 51 times as long"),
        ("cycles", "entries:\n  - name: a\n    program: x.elf\n    regions:\n      r: {cycles: -3}\n", 5, "cycles"),
        ("zero-cycles", "entries:\n  - name: a\n    program: x.elf\n    regions:\n      r: {cycles: 0}\n", 5,
         "cycles expects a positive integer, got 0"),
        ("zero-short", "entries:\n  - name: a\n    program: x.elf\n    regions:\n      r: 0\n", 5,
         "region 'r' expects a positive integer, got 0"),
        ("setkey", "entries:\n  - name: a\n    program: x.elf\n    set: {tcdm.sise: 1}\n    regions: {r: 1}\n", 4,
         "tcdm.sise"),
        # YAML would keep one of the two silently, and --update would edit the other.
        ("twice", "entries:\n  - name: a\n    program: x.elf\n    regions:\n      r: 5\n      s: 6\n      r: 7\n", 7,
         "'r' given twice (first on line 5)"),
        # Gates that check nothing would pass whatever the programs do.
        ("noregions", "entries:\n  - name: a\n    program: x.elf\n    regions: {}\n", 4, "no regions"),
        ("noentries", "tolerance: 0\nentries: []\n", 2, "entries is empty"),
        # Counts go into signed 64-bit deltas and history.
        ("huge", "entries:\n  - name: a\n    program: x.elf\n    regions:\n"
         "      r: {cycles: 18446744073709551615}\n", 5, "at most 9223372036854775807"),
        ("maxcycles", "max_cycles: 0\nentries:\n  - name: a\n    program: x.elf\n    regions: {r: 1}\n", 1,
         "max_cycles expects a positive integer"),
        # Nine levels of aliases of ten aliases each: refused from the text, not expanded.
        ("aliases", 'a: &a ["x","x","x","x","x","x","x","x","x","x"]\n' +
         "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(8)) +
         "entries: []\n", 2, "alias"),
    ]:
        path = os.path.join(w, f"bad-{name}.yaml")
        open(path, "w").write(body)
        start = time.monotonic()
        r = regress(path)
        took = time.monotonic() - start
        err = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(err) == 1 and f"{path}:{line}" in err[0] and word in err[0] and took < 5,
              f"bad baseline '{name}': one line naming {path}:{line} and '{word}', in {took:.2f} s ({err})")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
