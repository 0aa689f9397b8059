#!/usr/bin/env python3
"""The project's loops, timed on this machine (issue 28 item 5): the test command, and the report cold, warm,
and warm after one proofs module was edited. Writes (or, with --merge, updates rows of)
reports/benchmarks/loops.json.

Usage: python benchmarks/measure_loops.py [--only tests,cold,warm,edited] [--merge] [--jobs N]

Every measurement runs in a fresh clone of this repository's HEAD (``git clone`` into a temporary directory,
with ``../shared`` linked beside it as CI has it). The clone gets its own virtual environment by ``make setup``
(timed as a row of its own, not counted in the others), so nothing here is touched (a clone sharing this
checkout's venv would re-point its editable install when the tests run the bootstrap) and the clone starts as
CI and a new user start. The rows:

- **tests**: ``make test``'s lint (ruff, mypy) and ``pytest -q -n 2 --dist worksteal``;
- **cold**: ``make report NO_CACHE=1``'s commands (benchmarks and claims with ``--no-cache``, then the pin check);
- **warm**: ``make report``'s commands in the fresh clone, nothing changed: the committed report and benchmark
  tables carry their keys, so what a newcomer's first ``make report`` costs when the committed report is current;
- **edited**: a comment appended to ``proofs/rldp/ex1_confidence_ball.py``, then ``make report``'s commands.

Each row records the wall time, the 1-minute load average before and after, the exit code and the last line
of output. Not run by benchmarks/run.py: it runs the report itself.
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
OUT = ROOT / "reports" / "benchmarks" / "loops.json"
COLUMNS = ["run", "wall seconds", "load average (1 min) before -> after", "exit code", "last line", "commit",
           "git status after (changed paths)"]


def timed(name: str, cmds: list[list[str]], cwd: Path, env: dict, head: str) -> list:
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    code, tail = 0, ""
    for cmd in cmds:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
        lines = (p.stdout + p.stderr).strip().splitlines()
        tail = (lines[-1] if lines else "")[:300]
        if p.returncode:
            code = p.returncode
            break
    dt = time.perf_counter() - t0
    after = os.getloadavg()[0]
    status = subprocess.run(["git", "status", "--porcelain"], cwd=cwd, capture_output=True, text=True).stdout.split("\n")
    changed = [ln[3:] for ln in status if ln.strip() and ln[3:] != ".venv"]
    dirty = "clean" if not changed else ", ".join(changed[:6]) + (" ..." if len(changed) > 6 else "")
    print(f"{name}: {dt:.1f} s, exit {code}, load {load:.1f} -> {after:.1f}; git status: {dirty}; {tail}", flush=True)
    return [name, round(dt, 1), f"{load:.1f} -> {after:.1f}", code, tail, head, dirty]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="tests,cold,warm,edited", help="comma-separated subset of the runs")
    ap.add_argument("--merge", action="store_true", help="replace only the measured rows of the existing table")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    which = set(args.only.split(","))
    base = Path(tempfile.mkdtemp(prefix="loops-", dir=ROOT.parent))
    clone = base / "main"
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        if (ROOT.parent / "shared").is_dir():  # ../shared beside the clone, as CI has it
            (base / "shared").symlink_to(ROOT.parent / "shared")
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True,
                              text=True).stdout.strip()
        env = dict(os.environ)
        jobs = str(args.jobs)

        def report(*flags: str) -> list[list[str]]:
            return [["make", "-s", "report", f"JOBS={jobs}", *(["NO_CACHE=1"] if flags else [])]]

        rows = [timed("set-up of the clone (make setup: venv and packages; not counted below)",
                      [["make", "-s", "setup"]], clone, env, head)]
        if "tests" in which:
            rows.append(timed("test command (make test)", [["make", "-s", "test"]], clone, env, head))
        if "warm" in which:
            rows.append(timed("report warm (fresh clone, committed report current)", report(), clone, env, head))
        if "edited" in which:
            f = clone / EDITED
            f.write_text(f.read_text() + "\n# edited by measure_loops.py\n")
            rows.append(timed(f"report after editing {EDITED}", report(), clone, env, head))
        if "cold" in which:
            rows.append(timed("report cold (--no-cache)", report("--no-cache"), clone, env, head))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    old = []
    if args.merge and OUT.is_file():
        names = {r[0] for r in rows}
        old = [r for r in json.loads(OUT.read_text()).get("rows", []) if r[0] not in names]
    doc = {"title": "The loops: test command and report, cold and warm (issue 28)", "columns": COLUMNS,
           "rows": old + rows,
           "notes": [f"{os.cpu_count()} cores; each run in a fresh clone of the commit in the last column with the "
                     "checkout's venv. Targets: test command < 300 s, report cold < 900 s, warm < 60 s, after one "
                     "edited proofs module < 120 s.", "Load averages show what else ran on the machine meanwhile."]}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(doc, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
