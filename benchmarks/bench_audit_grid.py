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
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from benchmarks._certificates import Certifier  # noqa: E402
from tests.rldp.audit import test_extreme_inputs as grid  # noqa: E402

EXAMPLES = int(os.environ.get("BENCH_AUDIT_GRID_EXAMPLES", "150"))   # fewer: a dry run


def _certify(inst) -> dict:
    """In a forked child under the test's limits (``grid.run_limited``), after the example was timed: its audit at
    its radius again, with the arguments of the test's ``_audit``, and that audit's certificate
    (:func:`rldp_verify.certificates.audit.audit_certificate`)."""
    from rldp_verify.certificates.audit import audit_certificate
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism
    from rldp_verify.rldp.uncertainty import RenyiBall

    m = Mechanism.from_matrix(inst["Q"], inst["a1"], inst["a2"])
    ball = RenyiBall.from_radius(inst["phat"], inst["alpha"], inst["radius"])
    res = audit(m, inst["eps"], ball=ball, dps=20, max_dps=40, time_limit=grid.AUDIT_SECONDS)
    doc = audit_certificate(res, m, inst["eps"], ball=ball)
    return {"doc": doc, "verdict": str(res.verdict), "hi": doc["statement"]["ratio_upper"]}


def _certificate(certs: Certifier, k: int, inst, first) -> str:
    """The certificate cell of example ``k`` (``first``: its timed audit's (kind, value) from run_limited)."""
    kind, value = first
    if kind != "ok":
        return certs.none(f"no audit verdict ({kind})")
    kind, out = grid.run_limited(lambda: _certify(inst))
    if kind != "ok":
        return certs.none(f"the certificate's run ended in {kind}: {str(out).splitlines()[0][:160]}")
    doc = out["doc"]
    cell = certs.certify(f"example {k:03d}", lambda name: {**doc, "name": name})[0]
    if out["verdict"] != value["verdict"]:          # a time limit can end the two runs at different points
        cell += f"; of a second run that printed {out['verdict']} (the timed run: {value['verdict']})"
    return cell


def main() -> int:
    runs: list[dict] = []
    certs = Certifier("audit_grid")
    cert_seconds = [0.0]

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
        seconds = time.perf_counter() - t0
        kind, value = seen[0] if seen else ("none", None)
        verdict = value["verdict"] if kind == "ok" else f"one-line error ({kind})"
        t1 = time.perf_counter()                 # the certificate, timed apart from the example's seconds
        cert = _certificate(certs, len(runs) + 1, inst, seen[0] if seen else ("none", None))
        cert_seconds[0] += time.perf_counter() - t1
        runs.append({"alpha": inst["alpha"], "radius": inst["radius"], "sizes": f"{inst['a1']}x{inst['a2']}",
                     "verdict": verdict, "seconds": seconds, "failure": failure, "certificate": cert})

    run = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(
        given(grid.instances(extremes=True, min_alpha_exp=-3, max_alpha_exp=3))(one))
    t0 = time.perf_counter()
    run()
    total = time.perf_counter() - t0
    certs.seconds = cert_seconds[0]              # the forked children's second audits and certificates included
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
    cells = Counter(r["certificate"].split(":")[0].split(" (")[0] for r in runs)
    rows += [[f"certificates {c} (of the audit at the example's radius)", n] for c, n in sorted(cells.items())]
    rows += [[f"certificate {r['certificate']}: example {i + 1}, alpha {r['alpha']}, radius {r['radius']}", None]
             for i, r in enumerate(runs) if not r["certificate"].startswith("re-checked")]
    rows += [["certificates s (second audit, building, writing and re-checking; all examples)",
              round(cert_seconds[0], 1)]]
    out = {"title": "The audit's extremes grid of issue 25 (the slow property test as a benchmark)",
           "columns": ["quantity", "value"], "rows": rows,
           "notes": ["Instances: tests/rldp/audit/test_extreme_inputs.py's strategy, derandomised (hypothesis), "
                     f"{EXAMPLES} examples; each checked by the test's _check (verdict or one-line error, lo <= hi, "
                     "witness in F re-checked in arb and attaining lo, monotone at 10 x the radius) in forked "
                     "children under the test's CPU and memory limits.",
                     "Wall-clock seconds on the shared 2-core machine (noisy).",
                     "Certificates: after each example was timed, its audit at its radius runs again in a forked "
                     "child under the same limits and writes its certificate (example-NNN.json, in the order of the "
                     "examples), timed apart; the audit at 10 x the radius (the monotonicity check) has none. "
                     + certs.note()]}
    dest = ROOT / "reports" / "benchmarks" / "audit_grid.json"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"audit grid: {len(runs)} examples, {len(failures)} property failures, {total:.0f} s", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
