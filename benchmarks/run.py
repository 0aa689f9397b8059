#!/usr/bin/env python3
"""Run every benchmarks/bench_*.py; each writes reports/benchmarks/<name>.json for the report.

Usage: python benchmarks/run.py [--quiet] [--only NAME] [--no-cache] [--workers N | --scheduler ADDRESS]

Each benchmark is one task on a Dask cluster (``dask.distributed``): a LocalCluster of ``--workers``
worker processes (default 1, so that the timings are not disturbed by a second benchmark running at the
same time), or an existing cluster (``--scheduler``; its workers must see this repository at the same
path). Each task runs its script in a subprocess, as before.
Progress (n/total, the current benchmark, an ETA) goes to stderr when it is a terminal; --quiet turns it
and the per-benchmark lines off. A benchmark that fails is reported (its JSON records the failure) and
makes the exit code 1, but the others still run. An unreachable scheduler or a worker that dies: one
line on stderr, exit code 2.

Incremental (issue 28 item 3): a benchmark whose JSON already records the key it would run under is not run
again (``--no-cache`` runs every one). The key (:func:`bench_key`) is a SHA-256 over the script, the
first-party modules it imports and theirs, transitively (read from the source as the claims' keys are; a
script that drives ``rldp-verify`` in a subprocess counts the whole command line's imports), the Python and
library versions, the machine (processor, core count) and the Adult data file: a timing from another machine
or of other code is never reused.
"""

from __future__ import annotations

import argparse
import contextlib
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


def bench_deps(script: Path) -> dict:
    """``{module: digest}`` of the first-party code a benchmark script runs (part of its key)."""
    from rldp_verify.claims.cache import _imports, _module_file, closure

    # first-party code: the engine, the papers, and the tests and benchmarks a script may import (the extremes
    # grid runs the property test's own strategy and check; their engine imports count through them)
    roots = {"rldp_verify", "rldp_verify_check", "proofs", "tests", "benchmarks"}   # the checker: certificate columns
    mods = {m for m in _imports(script, "benchmarks." + script.stem) if m.split(".")[0] in roots}
    text = script.read_text()
    if "rldp-verify" in text or "rldp_verify.cli" in text:  # drives the command line (in a subprocess)
        # every subcommand module: rldp_verify.cli loads them by name (pkgutil), which no import statement shows
        import pkgutil

        import rldp_verify.cli as cli

        mods |= {"rldp_verify.cli", "rldp_verify.__main__"}
        mods |= {f"rldp_verify.cli.{m.name}" for m in pkgutil.iter_modules(cli.__path__)}
    deps: dict = {}
    for mod in sorted(m for m in mods if _module_file(m) is not None):
        deps.update(closure(mod, roots))
    return deps


def bench_key(script: Path) -> str:
    """The cache key of one benchmark script (see the module docstring)."""
    import hashlib
    import os
    import platform

    from rldp_verify.claims.cache import _environment, file_digest

    deps = bench_deps(script)
    cpu = ""
    with contextlib.suppress(OSError):
        cpu = next((ln for ln in Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name")), "")
    from rldp_verify.claims.cache import _adult_path

    adult = _adult_path()  # found as the engine finds it (beside the repository or a parent of it)
    doc = [file_digest(script), sorted(deps.items()), _environment()[:2], platform.machine(), cpu, os.cpu_count(),
           file_digest(adult) if adult is not None else None]
    return hashlib.sha256(json.dumps(doc, default=str).encode()).hexdigest()


def _recorded_key(name: str) -> str | None:
    try:
        return json.loads((OUT / f"{name}.json").read_text()).get("key")
    except (OSError, ValueError, AttributeError):
        return None


def _record_key(name: str, key: str) -> None:
    path = OUT / f"{name}.json"
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    if isinstance(doc, dict):
        doc["key"] = key
        path.write_text(json.dumps(doc, indent=1) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--only", default=None)
    ap.add_argument("--workers", type=int, default=1, help="LocalCluster worker processes (default 1)")
    ap.add_argument("--scheduler", default=None, help="address of an existing Dask scheduler")
    ap.add_argument("--no-cache", action="store_true", help="run every benchmark, even one whose key is unchanged")
    args = ap.parse_args()
    from rldp_verify.core.distributed import DaskCluster, map_tasks
    from rldp_verify.core.errors import ExecutionError, InputError

    OUT.mkdir(parents=True, exist_ok=True)
    status = 0
    scripts = [s for s in sorted((ROOT / "benchmarks").glob("bench_*.py"))
               if not args.only or s.stem[len("bench_"):] == args.only]
    keys = {s: bench_key(s) for s in scripts}
    if not args.no_cache:
        reused = [s for s in scripts if _recorded_key(s.stem[len("bench_"):]) == keys[s]]
        if reused and not args.quiet:
            print(f"benchmarks: {len(reused)} of {len(scripts)} unchanged since their last run (key recorded in "
                  f"their JSON), not re-run: {', '.join(s.stem[len('bench_'):] for s in reused)}", file=sys.stderr)
        scripts = [s for s in scripts if s not in reused]
        if reused and not scripts:
            return 0
    bar = Progress(len(scripts), desc="benchmarks", quiet=args.quiet)
    # an interrupted run (Ctrl-C, a scheduler that goes away) puts back every table it had rewritten: the
    # tracked JSONs change only when the whole run completes (issue 28 item 4)
    saved = {s: (OUT / f"{s.stem[len('bench_'):]}.json") for s in scripts}
    saved_bytes = {p: (p.read_bytes() if p.is_file() else None) for p in saved.values()}

    def restore() -> None:
        for path, data in saved_bytes.items():
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)

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
                else:
                    _record_key(name, keys[script])
                if code == 0 and not args.quiet:
                    line = f"benchmark {name}: {dt:.1f} s"
                    if bar.bar is None:
                        print(line, file=sys.stderr)
                    else:
                        bar.bar.write(line, file=bar.bar.fp)
                bar.finish(name)
    except (InputError, ExecutionError) as exc:
        bar.close()
        restore()
        print(f"benchmarks: error: {exc} (the benchmark tables are as they were)", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        bar.close()
        restore()
        print("benchmarks: interrupted (the benchmark tables are as they were)", file=sys.stderr)
        return 130
    bar.close()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
