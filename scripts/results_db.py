"""Opens a pulpsim results database to read it, as `pulpsim` does (sim/runs/results_store.cpp).

A database in WAL mode is read through a shared-memory file next to it, which a reader who may not write to
its folder cannot create, and SQLite then refuses to read it at all. Such a reader reads the file as
immutable, which is exact when no log holds changes the file lacks: a sweep that ended leaves none.
"""
import os
import sqlite3
import urllib.parse


def read_as_immutable(path):
    folder = os.path.dirname(path) or "."
    wal = path + "-wal"
    log_holds_changes = os.path.exists(wal) and os.path.getsize(wal) > 0
    return not os.access(folder, os.W_OK | os.X_OK) and not os.path.exists(path + "-shm") and not log_holds_changes


def connect_read_only(path):
    uri = f"file:{urllib.parse.quote(os.path.abspath(path))}?mode=ro"
    if read_as_immutable(path):
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True)
