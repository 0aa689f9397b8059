#!/usr/bin/env python3
"""Run every benchmarks/bench_*.py; each writes reports/benchmarks/<name>.json for the report.

Usage: python benchmarks/run.py [--quiet] [--only NAME]
Progress (n/total, the current benchmark, an ETA) goes to stderr when it is a terminal; --quiet turns it
and the per-benchmark lines off. A benchmark that fails is reported (its JSON records the failure) and makes the exit code 1, but the
others still run.
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--only", default=None)
    args = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    status = 0
    scripts = [s for s in sorted((ROOT / "benchmarks").glob("bench_*.py"))
               if not args.only or s.stem[len("bench_"):] == args.only]
    bar = Progress(len(scripts), desc="benchmarks", quiet=args.quiet)
    for script in scripts:
        name = script.stem[len("bench_"):]
        bar.start(name)
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True)
        dt = time.perf_counter() - t0
        if proc.returncode != 0:
            status = 1
            (OUT / f"{name}.json").write_text(json.dumps({
                "title": f"{name} (FAILED)", "columns": [], "rows": [],
                "notes": f"benchmark exited with {proc.returncode}: {proc.stderr.strip()[-800:]}"}, indent=1))
            print(f"benchmark {name}: FAILED after {dt:.1f} s", file=sys.stderr)
        elif not args.quiet:
            line = f"benchmark {name}: {dt:.1f} s"
            if bar.bar is None:
                print(line, file=sys.stderr)
            else:
                bar.bar.write(line, file=bar.bar.fp)
        bar.finish(name)
    bar.close()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
