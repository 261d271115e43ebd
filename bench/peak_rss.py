#!/usr/bin/env python3
"""Runs a command and prints `peak-rss MB` to stderr: the largest sum of the resident memory of the command and
every process it started, sampled every 0.2 s from /proc (GNU time counts only the processes the command waits
for, not the JVM a PySpark job starts); and `cpu SECONDS`: the user and system time of those processes, each at
its last sample (a process that ends between samples loses at most its last 0.2 s). For bench/spark.

    python3 bench/peak_rss.py CMD ARG…
"""
import os
import subprocess
import sys
import time


def tree(root):
    children = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(pid))
            except (OSError, IndexError, ValueError):
                pass
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack += children.get(pid, [])
    return found


def cpu_ticks(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return 0


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


process = subprocess.Popen(sys.argv[1:])
peak = 0
ticks = {}
while process.poll() is None:
    pids = tree(process.pid)
    peak = max(peak, sum(rss_kb(pid) for pid in pids))
    for pid in pids:
        ticks[pid] = max(ticks.get(pid, 0), cpu_ticks(pid))
    time.sleep(0.2)
print(f"peak-rss {peak / 1024:.0f}", file=sys.stderr)
print(f"cpu {sum(ticks.values()) / os.sysconf('SC_CLK_TCK'):.1f}", file=sys.stderr)
sys.exit(process.returncode)
