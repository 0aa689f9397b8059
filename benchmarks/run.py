#!/usr/bin/env python3
"""Run every benchmarks/bench_*.py; each writes reports/benchmarks/<name>.json for the report.

Usage: python benchmarks/run.py [--quiet] [--only NAME] [--workers N | --scheduler ADDRESS]

Each benchmark is one task on a Dask cluster (``dask.distributed``): a LocalCluster of ``--workers``
worker processes (default 1, so that the timings are not disturbed by a second benchmark running at the
same time), or an existing cluster (``--scheduler``; its workers must see this repository at the same
path). Each task runs its script in a subprocess, as before.
Progress (n/total, the current benchmark, an ETA) goes to stderr when it is a terminal; --quiet turns it
and the per-benchmark lines off. A benchmark that fails is reported (its JSON records the failure) and
makes the exit code 1, but the others still run. An unreachable scheduler or a worker that dies: one
line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "reports" / "benchmarks"
sys.path.insert(0, str(ROOT))
from rldp_verify.cli.progress import Progress  # noqa: E402


def run_one(task: tuple[str, str, str]) -> tuple[str, int, str, float]:
    """(name, exit code, end of stderr, seconds) of one benchmark script, run in a subprocess."""
    python, script, cwd = task
    t0 = time.perf_counter()
    proc = subprocess.run([python, script], cwd=cwd, capture_output=True, text=True)
    return Path(script).stem[len("bench_"):], proc.returncode, proc.stderr.strip()[-800:], time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--only", default=None)
    ap.add_argument("--workers", type=int, default=1, help="LocalCluster worker processes (default 1)")
    ap.add_argument("--scheduler", default=None, help="address of an existing Dask scheduler")
    args = ap.parse_args()
    from rldp_verify.core.distributed import DaskCluster, map_tasks
    from rldp_verify.core.errors import ExecutionError, InputError

    OUT.mkdir(parents=True, exist_ok=True)
    status = 0
    scripts = [s for s in sorted((ROOT / "benchmarks").glob("bench_*.py"))
               if not args.only or s.stem[len("bench_"):] == args.only]
    bar = Progress(len(scripts), desc="benchmarks", quiet=args.quiet)
    try:
        with DaskCluster(args.scheduler, n_workers=args.workers) as cluster:
            # one task per benchmark, submitted one after another so that the progress shows each
            for script in scripts:
                name = script.stem[len("bench_"):]
                bar.start(name)
                [(name, code, err, dt)] = map_tasks(run_one, [(sys.executable, str(script), str(ROOT))],
                                                    scheduler=cluster.address)
                if code != 0:
                    status = 1
                    (OUT / f"{name}.json").write_text(json.dumps({
                        "title": f"{name} (FAILED)", "columns": [], "rows": [],
                        "notes": f"benchmark exited with {code}: {err}"}, indent=1))
                    print(f"benchmark {name}: FAILED after {dt:.1f} s", file=sys.stderr)
                elif not args.quiet:
                    line = f"benchmark {name}: {dt:.1f} s"
                    if bar.bar is None:
                        print(line, file=sys.stderr)
                    else:
                        bar.bar.write(line, file=bar.bar.fp)
                bar.finish(name)
    except (InputError, ExecutionError) as exc:
        bar.close()
        print(f"benchmarks: error: {exc}", file=sys.stderr)
        return 2
    bar.close()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
