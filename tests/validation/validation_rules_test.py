#!/usr/bin/env python3
"""The rules of scripts/validation.py, on small synthetic sets of figures (--figures-json), without simulating:

- figures within 20% of the paper pass with no reason, and the page is written;
- a figure more than 20% off with no reason fails: exit status 1, one line naming the figure, no page written
  (an existing page is left as it was);
- the same figure with a reason passes, and the page carries the reason with its {placeholders} filled;
- a reason for a figure that is within 20% (stale), for an unknown figure, or naming a value the figure does not
  have, fails naming the figure;
- ranges count as matching anywhere inside them, a lower bound only when we are more than 20% below it.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402


def figure(fid, paper, ours, bound="value", details=None):
    return {"id": fid, "seed": "000", "what": f"figure {fid}", "paper": paper, "bound": bound, "unit": "",
            "source": "Sec. 1", "ours": ours, "ours_text": None, "measured_by": "a synthetic run",
            "details": details or {}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    work = fresh_dir(args.workdir)
    check = Checks()
    count = [0]

    def run(figures, reasons_text):
        count[0] += 1
        fig_path = os.path.join(work, f"figures{count[0]}.json")
        reasons = os.path.join(work, f"reasons{count[0]}.yaml")
        out = os.path.join(work, f"page{count[0]}.md")
        with open(fig_path, "w") as f:
            json.dump({"meta": {"commit": "abc1234"}, "figures": figures}, f)
        with open(reasons, "w") as f:
            f.write(reasons_text)
        r = subprocess.run([sys.executable, args.script, "--figures-json", fig_path, "--reasons", reasons,
                            "--out", out], capture_output=True, text=True, timeout=60)
        page = open(out).read() if os.path.exists(out) else None
        return r, page

    within = [figure("a.close", 2.0, 2.3), figure("a.range", (390e3, 400e3), 395e3, "range"),
              figure("a.bound", 7.5, 9.0, "at_least"), figure("a.info", None, 6.1, "info")]
    r, page = run(within, "")
    check(r.returncode == 0 and page is not None, f"figures within 20% pass with no reasons (exit {r.returncode}: "
          f"{r.stderr.strip()})")
    check(page is not None and "| figure a.close | Sec. 1 | 2.00 | 2.30 | 1.15 | ok |" in page,
          "the page has the figure's row with paper, ours, ratio and ok")

    off = within + [figure("b.far", 0.24, 0.40, details={"ipm": 5.123, "sleep": 1312})]
    r, page = run(off, "")
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 1, f"a figure 67% off without a reason fails (exit {r.returncode})")
    check(len(lines) == 1 and "'b.far'" in lines[0] and "no reason" in lines[0],
          f"one line naming the figure: {lines}")
    check(page is None, "no page is written when the rules fail")

    # An existing page is not touched by a failing run.
    existing = os.path.join(work, f"page{count[0] + 1}.md")
    with open(existing, "w") as f:
        f.write("old page\n")
    r, _ = run(off, "")
    check(r.returncode == 1 and open(existing).read() == "old page\n", "a failing run leaves the old page as it was")

    reason = "b.far: |\n  the loop retires {ipm:.2f} instructions per MAC and sleeps {sleep} cycles.\n"
    r, page = run(off, reason)
    check(r.returncode == 0, f"the same figure with a reason passes (exit {r.returncode}: {r.stderr.strip()})")
    check(page is not None and "the loop retires 5.12 instructions per MAC and sleeps 1312 cycles." in page
          and "**off**" in page, "the page shows the reason with the run's numbers filled in")

    r, page = run(within, "a.close: the loop is slow.\n")
    check(r.returncode == 1 and "'a.close'" in r.stderr and "stale" in r.stderr and page is None,
          f"a reason for a figure within 20% fails as stale: {r.stderr.strip()}")

    r, _ = run(within, "no.such: text\n")
    check(r.returncode == 1 and "'no.such'" in r.stderr, f"a reason for an unknown figure fails: {r.stderr.strip()}")

    r, _ = run(off, "b.far: '{missing:.1f} cycles'\n")
    check(r.returncode == 1 and "'b.far'" in r.stderr and "missing" in r.stderr,
          f"a reason naming a value the run does not give fails: {r.stderr.strip()}")

    edges = [figure("c.low_bound", 7.5, 5.9, "at_least"), figure("c.below_range", (390e3, 400e3), 700e3, "range"),
             figure("c.edge", 100.0, 119.0)]
    r, _ = run(edges, "")
    named = {fid for fid in ("c.low_bound", "c.below_range", "c.edge") if f"'{fid}'" in r.stderr}
    check(r.returncode == 1 and named == {"c.low_bound", "c.below_range"} and len(r.stderr.strip().splitlines()) == 2,
          f"21% below a lower bound and 75% above a range fail, 19% above a value passes: {r.stderr.strip()}")

    r, _ = run(within, "a.close: [not, a, string]\n")
    check(r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1,
          f"a malformed reasons file is one line: {r.stderr.strip()}")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
