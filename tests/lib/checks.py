"""What the Python end-to-end tests share: named checks that print ok/FAIL and count failures, and a view of
the repository (build/ and configs/ side by side) for files that name paths relative to its root, and the
children of a process (to interrupt a run once its first simulation has started)."""
import os
import shutil


class Checks:
    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok   " if condition else "FAIL ") + what, flush=True)
        if not condition:
            self.failures.append(what)
        return condition

    def exit_status(self):
        if self.failures:
            print(f"{len(self.failures)} check(s) failed", flush=True)
        return 1 if self.failures else 0


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def repository_view(source, build, workdir):
    """A fresh workdir holding build -> the build tree and configs -> the source's configs/, so that sweep
    and baseline files naming build/kernels/... and configs/... resolve whatever the build folder is called."""
    fresh_dir(workdir)
    os.symlink(os.path.abspath(build), os.path.join(workdir, "build"))
    os.symlink(os.path.join(os.path.abspath(source), "configs"), os.path.join(workdir, "configs"))
    return workdir


def children_of(pid):
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after its last ')'.
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry))
    return found
