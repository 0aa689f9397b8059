"""Benchmark: the large grid of issue 25 item 4 (the slow property test, as a table in the report).

The instances are those of ``tests/rldp/audit/test_extreme_inputs.py::test_audit_extremes_grid``: the same
hypothesis strategy (alpha 1e-3 .. 1e3, radii 0 .. 1e6, zero cells and 1e-300 blocks, eps at P-hat's boundary),
derandomised, 150 examples (its explicit red-team examples are in bench_audit_redteam). Each example runs the test's own check
(``_check``: a verdict or a one-line error, lo <= hi, the witness in F re-checked in arb and attaining lo, and the
audit at 10 x the radius with a lower end at least as large), each audit in a forked child under the test's
limits. The table counts the examples, the outcomes and the property failures, with the slowest examples.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from tests.rldp.audit import test_extreme_inputs as grid  # noqa: E402

EXAMPLES = 150


def main() -> int:
    runs: list[dict] = []

    seen: list[tuple] = []
    limited = grid.run_limited

    def recording(fn):   # _check's calls of run_limited: the first is the audit at the example's radius
        out = limited(fn)
        seen.append(out)
        return out

    grid.run_limited = recording

    def one(inst) -> None:
        t0 = time.perf_counter()
        seen.clear()
        failure = None
        try:
            grid._check(inst)
        except AssertionError as exc:   # a property failure is a row of the table, not a crash of the benchmark
            failure = str(exc).splitlines()[0][:200]
        kind, value = seen[0] if seen else ("none", None)
        verdict = value["verdict"] if kind == "ok" else f"one-line error ({kind})"
        runs.append({"alpha": inst["alpha"], "radius": inst["radius"], "sizes": f"{inst['a1']}x{inst['a2']}",
                     "verdict": verdict, "seconds": time.perf_counter() - t0, "failure": failure})

    run = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(
        given(grid.instances(extremes=True, min_alpha_exp=-3, max_alpha_exp=3))(one))
    t0 = time.perf_counter()
    run()
    total = time.perf_counter() - t0
    verdicts = Counter(r["verdict"] for r in runs)
    failures = [r for r in runs if r["failure"]]
    slowest = sorted(runs, key=lambda r: -r["seconds"])[:5]
    rows = [["examples", len(runs)], ["property failures", len(failures)]]
    rows += [[f"verdict {v}", n] for v, n in sorted(verdicts.items())]
    rows += [["slowest example s (both audits and the re-checks)", round(slowest[0]["seconds"], 2) if slowest else None],
             ["whole grid s", round(total, 1)]]
    rows += [[f"slow example {i + 1}: alpha {r['alpha']}, radius {r['radius']}, {r['sizes']}, {r['verdict']}",
              round(r["seconds"], 2)] for i, r in enumerate(slowest)]
    rows += [[f"FAILED: alpha {r['alpha']}, radius {r['radius']}: {r['failure']}", None] for r in failures]
    out = {"title": "The audit's extremes grid of issue 25 (the slow property test as a benchmark)",
           "columns": ["quantity", "value"], "rows": rows,
           "notes": ["Instances: tests/rldp/audit/test_extreme_inputs.py's strategy, derandomised (hypothesis), "
                     f"{EXAMPLES} examples; each checked by the test's _check (verdict or one-line error, lo <= hi, "
                     "witness in F re-checked in arb and attaining lo, monotone at 10 x the radius) in forked "
                     "children under the test's CPU and memory limits.",
                     "Wall-clock seconds on the shared 2-core machine (noisy)."]}
    dest = ROOT / "reports" / "benchmarks" / "audit_grid.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"audit grid: {len(runs)} examples, {len(failures)} property failures, {total:.0f} s", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
