#!/usr/bin/env python3
"""Wall time of ``rldp-verify report`` with ``--jobs 2`` against ``--jobs 1``, on this machine.
Writes reports/benchmarks/report_jobs.json.

Usage: python benchmarks/measure_jobs.py [--repeats R] [--set NAME=ARGS ...]

Each set of report arguments runs with --jobs 1 and --jobs 2 back to back, in the order 1, 2, 2, 1, ...
(so that a change of the machine's load during the measurement hits both alike); the table gives every
wall time, the median per jobs value and the ratio jobs 2 / jobs 1, and the load average around each
run. The reports of the two runs are compared (verdicts and summaries must be identical).
Not run by benchmarks/run.py: it runs the report itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SETS = {
    "fast claims (all)": [],
    "all claims of pram (slow included)": ["--include-slow", "--only", "pram"],
    "all claims of falpha (slow included)": ["--include-slow", "--only", "falpha"],
}


def run(args: list[str], jobs: int, out: Path) -> tuple[float, tuple, int]:
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--quiet", "--jobs", str(jobs), "--out", str(out),
                        *args], cwd=ROOT, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        raise SystemExit(f"measure_jobs: report {args} --jobs {jobs} failed: {p.stderr.strip()[-400:]}")
    return dt, (load, os.getloadavg()[0]), p.returncode


def verdicts(out: Path) -> list:
    return [(c["id"], c["verdict"], c["summary"]) for c in json.loads((out / "verification.json").read_text())["claims"]]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=1, help="pairs of runs per set (default 1: order 1, 2)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=ARGS",
                    help="a set of report arguments, e.g. 'fast=' or 'sec8=--include-slow --only rldp.sec8'")
    args = ap.parse_args()
    sets = {k: v.split() for k, v in (s.split("=", 1) for s in args.set)} if args.set else DEFAULT_SETS
    rows, notes = [], []
    for name, rargs in sets.items():
        times: dict[int, list[float]] = {1: [], 2: []}
        with tempfile.TemporaryDirectory() as tmp:
            order = [1, 2, 2, 1] * ((args.repeats + 1) // 2)
            order = order[:2 * args.repeats]
            same = True
            for i, jobs in enumerate(order):
                out = Path(tmp) / f"r{i}"
                dt, (l0, l1), code = run(rargs, jobs, out)
                times[jobs].append(dt)
                rows.append([name, jobs, round(dt, 1), f"{l0:.1f} -> {l1:.1f}", code])
                print(f"{name}: --jobs {jobs}: {dt:.1f} s (load {l0:.1f} -> {l1:.1f})", flush=True)
                if i > 0:
                    same = same and verdicts(out) == verdicts(Path(tmp) / "r0")
        m1, m2 = statistics.median(times[1]), statistics.median(times[2])
        notes.append(f"{name}: median --jobs 1 {m1:.1f} s, --jobs 2 {m2:.1f} s, ratio {m2 / m1:.2f} "
                     f"(target <= 0.60); reports identical (verdicts and summaries): {'yes' if same else 'NO'}")
    notes.append(f"machine: {os.cpu_count()} cores, shared with other jobs during the measurement (load averages in "
                 "the table): ratios are indicative; runs alternate 1, 2, 2, 1 to spread the load changes")
    doc = {"title": "report --jobs 2 against --jobs 1 (wall time)",
           "columns": ["claims", "jobs", "wall seconds", "load average (1 min) before -> after", "exit code"],
           "rows": rows, "notes": notes}
    out = ROOT / "reports" / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    (out / "report_jobs.json").write_text(json.dumps(doc, indent=1) + "\n")
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
