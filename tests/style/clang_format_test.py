#!/usr/bin/env python3
"""Every C and C++ source of the project is as clang-format 19 lays it out with the repository's .clang-format
(folders may turn it off with their own, as tests/isa does for its assembler macro headers). A file that
differs is named with its first differing line; `clang-format-19 -i FILE` fixes it."""
import argparse
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, fresh_dir  # noqa: E402

SOURCE_FOLDERS = ("sim", "tests", "benchmarks", "fuzz", "kernels", "scripts")
SUFFIXES = (".c", ".h", ".cpp", ".hpp")


def sources(root):
    found = []
    for folder in SOURCE_FOLDERS:
        for path, dirs, files in os.walk(os.path.join(root, folder)):
            # Build trees and caches are not sources.
            dirs[:] = sorted(d for d in dirs if not d.startswith(("build", ".", "__pycache__"))
                             and not os.path.exists(os.path.join(path, d, "CMakeCache.txt")))
            found += [os.path.join(path, f) for f in sorted(files) if f.endswith(SUFFIXES)]
    return found


def misformatted(clang_format, files):
    """{file: first differing line} as clang-format --dry-run reports them."""
    first = {}
    for start in range(0, len(files), 100):
        r = subprocess.run([clang_format, "--dry-run", "-Werror", *files[start:start + 100]],
                           capture_output=True, text=True)
        for line in r.stderr.splitlines():
            # FILE:LINE:COLUMN: error: code should be clang-formatted [-Wclang-format-violations]
            parts = line.split(":")
            if len(parts) >= 4 and "clang-format-violations" in line:
                first.setdefault(parts[0], int(parts[1]))
        if r.returncode != 0 and not first:
            raise SystemExit(f"{clang_format} failed: {r.stderr.strip()[:500]}")
    return first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True)
    ap.add_argument("--clang-format", default="clang-format-19")
    ap.add_argument("--workdir", required=True)
    args = ap.parse_args()
    if not shutil.which(args.clang_format):
        print(f"{args.clang_format} not found (scripts/install-deps.sh installs it)")
        return 1
    check = Checks()

    # The check itself: a file laid out otherwise is caught, one laid out as clang-format would is not.
    fresh_dir(args.workdir)
    shutil.copy(os.path.join(args.source, ".clang-format"), args.workdir)
    bad, good = os.path.join(args.workdir, "bad.cpp"), os.path.join(args.workdir, "good.cpp")
    open(bad, "w").write("int  answer( ) {return 42 ;}\n")
    open(good, "w").write("int answer() {\n    return 42;\n}\n")
    found = misformatted(args.clang_format, [bad, good])
    check(list(found) == [bad], f"a misformatted file is caught and a formatted one is not: {sorted(found)}")

    files = sources(args.source)
    check(len(files) > 100, f"{len(files)} C and C++ sources found under {', '.join(SOURCE_FOLDERS)}")
    found = misformatted(args.clang_format, files)
    for path, line in sorted(found.items()):
        print(f"  {os.path.relpath(path, args.source)}:{line} differs from clang-format's layout")
    check(not found, f"{len(files) - len(found)} of {len(files)} sources as clang-format lays them out")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
