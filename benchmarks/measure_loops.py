#!/usr/bin/env python3
"""The project's loops, timed on this machine (issue 28 item 5): the test command, and the report cold, warm,
and warm after one proofs module was edited. Writes reports/benchmarks/loops.json.

Usage: python benchmarks/measure_loops.py [--clone DIR] [--skip-tests] [--skip-report] [--jobs N]

Every measurement runs in a fresh clone of this repository's HEAD (``git clone``, default a temporary
directory beside this one, so that ``../shared`` is found the same way) with this checkout's virtual
environment, so nothing here is touched and the clone starts without a result cache, as CI and a new user do.

- **test command**: ``make test`` in the clone (lint + pytest on both cores), set-up excluded (the venv exists);
- **report, cold**: ``rldp-verify report --include-slow --jobs N --no-cache`` plus ``benchmarks/run.py --no-cache``,
  i.e. ``make report`` without its cache;
- **report, warm**: ``make report`` again, nothing changed (the cache of the cold run is there);
- **report, one proofs module edited**: a comment appended to ``proofs/rldp/ex1_confidence_ball.py``, then
  ``make report``.

Each row records the wall time, the 1-minute load average before and after, and the exit code. The report
runs use ``--include-slow`` (as ``make report`` does). Not run by benchmarks/run.py: it runs the report itself.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITED = "proofs/rldp/ex1_confidence_ball.py"


def timed(name: str, cmd: list[str], cwd: Path, env: dict) -> list:
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    tail = " ".join((p.stdout + p.stderr).strip().splitlines()[-1:])[:300]
    print(f"{name}: {dt:.1f} s, exit {p.returncode}, load {load:.1f} -> {os.getloadavg()[0]:.1f}; {tail}", flush=True)
    return [name, round(dt, 1), f"{load:.1f} -> {os.getloadavg()[0]:.1f}", p.returncode, tail]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clone", default=None, help="where to clone (default: a temporary directory beside the repo)")
    ap.add_argument("--skip-tests", action="store_true")
    ap.add_argument("--skip-report", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    base = Path(args.clone) if args.clone else Path(tempfile.mkdtemp(prefix="loops-", dir=ROOT.parent))
    clone = base / "main"
    if clone.exists():
        shutil.rmtree(clone)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    (clone / ".venv").symlink_to(ROOT / ".venv")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True).stdout.strip()
    env = {**os.environ, "RLDP_VERIFY_ADULT_DATA": str(ROOT.parent / "shared" / "data" / "adult.data")}
    py = str(ROOT / ".venv" / "bin" / "python")
    rows = []
    if not args.skip_tests:
        rows.append(timed("test command (make test)", ["make", "-s", "test"], clone, env))
    if not args.skip_report:
        jobs = str(args.jobs)
        t = timed("report cold: benchmarks (--no-cache)", [py, "benchmarks/run.py", "--quiet", "--no-cache"], clone, env)
        c = timed("report cold: claims (--no-cache)", [py, "-m", "rldp_verify", "report", "--include-slow", "--quiet",
                                                      "--jobs", jobs, "--no-cache"], clone, env)
        rows += [t, c, ["report cold (sum of the two)", round(t[1] + c[1], 1), "", max(t[3], c[3]), ""]]
        rows.append(timed("report warm (make report, nothing changed)", ["make", "-s", "report", f"JOBS={jobs}"],
                          clone, env))
        f = clone / EDITED
        f.write_text(f.read_text() + "\n# edited by measure_loops.py\n")
        rows.append(timed(f"report warm after editing {EDITED} (make report)", ["make", "-s", "report",
                                                                               f"JOBS={jobs}"], clone, env))
    doc = {"title": "The loops: test command and report, cold and warm (issue 28)",
           "columns": ["run", "wall seconds", "load average (1 min) before -> after", "exit code", "last line"],
           "rows": rows,
           "notes": [f"fresh clone of {head} with this checkout's venv; {os.cpu_count()} cores; targets: test command "
                     "< 300 s, report cold < 900 s, warm < 60 s, after one edited proofs module < 120 s",
                     "load averages show what else ran on the machine meanwhile"]}
    out = ROOT / "reports" / "benchmarks"
    out.mkdir(parents=True, exist_ok=True)
    (out / "loops.json").write_text(json.dumps(doc, indent=1) + "\n")
    if not args.clone:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
