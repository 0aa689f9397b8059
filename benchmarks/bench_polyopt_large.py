#!/usr/bin/env python3
"""Benchmark (issue 14 items 1-2): PolyOpt and NR without enumerating Gamma-hat — column generation with
block pricing and a certified bracket on the optimum of LP (46) (seeds/000_aca93ed29ea857ee.txt, Sec. 5,
Theorem 3; Sec. 8).  Writes reports/benchmarks/polyopt_large.json.

Part A (|X| <= 16, every instance of benchmarks/bench_polyopt.py, e^eps = 2): the column-generation
route (rldp_verify.rldp.mechanisms.polyopt_large.polyopt_cg_from_bounds, target width 1e-9) against
exact enumeration (polyopt_from_bounds: vertices + certified LP (46)) in the same subprocess: wall
seconds of each, both brackets, "agree" = the two brackets intersect (one optimum inside both).

Part B (Adult, alpha = 2, beta = 0.05, F the chi^2 confidence set; L' <= L_{u|s}(F) certified): the
two large Sec. 8.1 pairs occupation x education (|X| = 224 with '?' rows dropped; 240 with '?' kept,
``--with-missing``) and relationship x education (|X| = 96), eps in {0.5, 1, 2}, PolyOpt and NR.  Each
run certifies its bracket at 60 s, 600 s (and 3600 s with ``--hour``) of solver time and at the end;
recorded: certified lower/upper and relative width at each checkpoint, peak RSS, wall seconds.  The
default run (from benchmarks/run.py) uses a 60 s limit per Adult instance; ``--full`` uses 600 s
(the issue's target: relative width <= 1e-4 within 10 minutes and 4 GB) — about 2 hours in all:
``make bench-polyopt-large``.

Machine: 2 cores shared with other jobs; wall seconds are noisy (the load average is recorded).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rldp_verify.rldp.mechanisms.polyopt_cg import STABILISATIONS  # noqa: E402

PAIRS = {"occupation x education": (6, 3), "relationship x education": (7, 3)}
EPS = ("0.5", "1", "2")


def run_small(a1, a2, scale) -> dict:
    import flint  # noqa: F401  (imports shared by both routes, loaded before timing either)
    import highspy  # noqa: F401
    import scipy.sparse  # noqa: F401
    from bench_polyopt import E_EPS, instance

    from rldp_verify.core.highs import new_highs
    from rldp_verify.rldp.mechanisms import polyopt_from_bounds
    from rldp_verify.rldp.mechanisms.polyopt_large import polyopt_cg_from_bounds

    new_highs()   # the first HiGHS of the process (banner silenced) before timing
    P, L = instance(a1, a2, scale)
    table = [P[s * a2:(s + 1) * a2] for s in range(a1)]
    lam = max(sum(r) for r in L) * E_EPS
    t0, c0 = time.perf_counter(), time.process_time()
    _, res = polyopt_cg_from_bounds(table, L, "log(2)", rel_gap=1e-9, time_limit=300)
    t_cg, c_cg = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    _, sol = polyopt_from_bounds(table, L, "log(2)")
    t_en, c_en = time.perf_counter() - t0, time.process_time() - c0
    return {"|X|": a1 * a2, "S x U": f"{a1}x{a2}", "kind": "hard" if lam > 1 else "easy",
            "colgen s": round(t_cg, 3), "enumeration s": round(t_en, 3), "colgen CPU s": round(c_cg, 3),
            "enumeration CPU s": round(c_en, 3),
            "colgen bracket": [float(res.lower), float(res.upper)], "colgen width": f"{float(res.gap):.1e}",
            "enumeration width": f"{float(sol.gap):.1e}",
            "agree": bool(max(res.lower, sol.lower) <= min(res.upper, sol.upper)),
            "faster": t_cg < t_en and c_cg < c_en, "iterations": res.iterations, "columns": res.columns,
            "peak RSS MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}


def run_adult(pair, kind, eps, keep_missing, limit, checkpoints, stabilisation=None) -> dict:
    from rldp_verify.rldp.data import adult_data_path, read_counts
    from rldp_verify.rldp.mechanisms.polyopt_large import nonrobust_cg, polyopt_cg_from_bounds
    from rldp_verify.rldp.mechanisms.rounding import lower_bounds
    from rldp_verify.rldp.uncertainty import RenyiBall

    s, u = PAIRS[pair]
    ct = read_counts(adult_data_path(), s, u, missing=() if keep_missing else ("?",))
    t0, c0 = time.perf_counter(), time.process_time()
    table = [list(r) for r in ct.phat()]
    kw = {"rel_gap": 1e-4, "time_limit": limit, "checkpoints": checkpoints}
    if stabilisation:
        kw["stabilisation"] = stabilisation       # else each mechanism's default master
    if kind == "PolyOpt":
        ball = RenyiBall.from_confidence([list(r) for r in ct.counts], 2, "0.95", ct.n)
        L = lower_bounds(ball)
        t_setup = time.perf_counter() - t0
        _, res = polyopt_cg_from_bounds(table, L, eps, **kw)
    else:
        t_setup = time.perf_counter() - t0
        _, res = nonrobust_cg(table, eps, **kw)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0

    def rel(lo, hi):
        return float((hi - lo) / hi) if hi > 0 else float(hi - lo)

    return {"pair": pair, "|X|": len(ct.sensitive) * len(ct.public), "? kept": keep_missing, "mechanism": kind,
            "eps": eps, "setup s (L')": round(t_setup, 1),
            "certified": [[t, float(lo), float(hi), rel(lo, hi)] for t, lo, hi in res.certified_history],
            "final bracket": [float(res.lower), float(res.upper)], "relative width": res.relative_width,
            "solver s": round(res.seconds, 1), "wall s": round(wall, 1), "CPU s": round(cpu, 1), "iterations": res.iterations,
            "columns": res.columns, "method": res.method, "target met": res.relative_width <= 1e-4 and res.seconds <= 600,
            "peak RSS MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "load avg (1 min, at end)": round(os.getloadavg()[0], 2)}


def _sub(args, timeout):
    try:
        proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": f"no result within {timeout:.0f} s wall (machine load)"}
    if proc.returncode != 0:
        tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else str(proc.returncode)
        return {"failed": tail}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _adult_task(task):
    """One Adult run in its own subprocess (its peak RSS is its own); a Dask task with --workers/--scheduler."""
    pair, kind, eps, keep, limit, stab = task
    r = _sub(["--one-adult", pair, kind, eps, "1" if keep else "0", str(limit), stab or "default"], limit * 3 + 900)
    r.update({"pair": pair.replace("_", " "), "mechanism": kind, "eps": eps, "? kept": keep})
    return r


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one-small", nargs=3, type=int)
    ap.add_argument("--one-adult", nargs=6)
    ap.add_argument("--full", action="store_true", help="600 s per Adult instance (the issue's target)")
    ap.add_argument("--hour", action="store_true", help="3600 s per Adult instance")
    ap.add_argument("--with-missing", action="store_true", help="also occupation x education with '?' kept")
    ap.add_argument("--missing-only", action="store_true", help="only occupation x education with '?' kept")
    ap.add_argument("--only", choices=("small", "adult"), default=None)
    ap.add_argument("--eps", nargs="*", default=None)
    ap.add_argument("--pair", choices=("occupation", "relationship"), default=None, help="only this pair")
    ap.add_argument("--mechanism", choices=("PolyOpt", "NR"), default=None, help="only this mechanism")
    ap.add_argument("--stabilisation", choices=STABILISATIONS, default=None,
                    help="the master of the Adult runs (default: each mechanism's own, polyopt_large.DEFAULT_STABILISATION "
                         "and NR_STABILISATION); the rows keep the method they ran with")
    ap.add_argument("--workers", type=int, default=1,
                    help="Adult runs at a time on a Dask LocalCluster of N workers (default 1: one after another; "
                         "each run is single-threaded, so N <= cores keeps the timings those of one core)")
    ap.add_argument("--scheduler", default=None, help="address of an existing Dask scheduler for the Adult runs")
    ap.add_argument("--merge", action="store_true",
                    help="keep the other rows of the existing Adult JSON (rows of the same pair, '?' kept, mechanism "
                         "and eps are replaced): runs can be made one at a time")
    args = ap.parse_args()
    if args.one_small:
        print(json.dumps(run_small(*args.one_small)))
        return 0
    if args.one_adult:
        pair, kind, eps, keep, limit, stab = args.one_adult
        limit = float(limit)
        cps = [c for c in (60.0, 600.0, 3600.0) if c < limit]
        print(json.dumps(run_adult(pair.replace("_", " "), kind, eps, keep == "1", limit, cps,
                                   None if stab == "default" else stab)))
        return 0
    from bench_polyopt import SIZES

    dest = ROOT / "reports" / "benchmarks"
    dest.mkdir(parents=True, exist_ok=True)
    small_path, adult_path = dest / "polyopt_large.json", dest / "polyopt_large_adult.json"
    start = time.perf_counter()
    full = args.full or args.hour

    def load_note():
        try:
            return "load average {:.2f}/{:.2f}/{:.2f}".format(*os.getloadavg())
        except OSError:
            return ""

    if args.only in (None, "small"):
        small = []
        for a1, a2, scale in SIZES:
            r = _sub(["--one-small", str(a1), str(a2), str(scale)], 1200)
            r.setdefault("S x U", f"{a1}x{a2}")
            r.setdefault("|X|", a1 * a2)
            small.append(r)
            print(json.dumps(r), flush=True)
        faster = [r for r in small if r.get("|X|", 0) >= 12 and "faster" in r]
        cols = ["|X|", "S x U", "kind", "colgen s", "enumeration s", "colgen CPU s", "enumeration CPU s", "faster", "agree", "colgen width",
                "enumeration width", "colgen bracket", "iterations", "columns", "peak RSS MB", "failed"]
        notes = [
            f"Brackets agree with exact enumeration (the two certified brackets intersect) on "
            f"{sum(1 for r in small if r.get('agree'))}/{len(small)} instances; column generation faster on "
            f"{sum(1 for r in faster if r['faster'])}/{len(faster)} instances with |X| >= 12 (faster = less wall and less "
            "CPU time).",
            "Instances of bench_polyopt (seeded P-hat, L = floor(1000 scale P-hat_(u|s))/1000, e^eps = 2, Definition 3 "
            "with the s1 = s2 pairs). colgen = polyopt_cg_from_bounds (target relative width 1e-9): its default master, "
            "the per-block relaxation of the coupling in t (HiGHS) and coupled product columns, then a proximal bundle "
            "(Clarabel QP) for the dual and the HiGHS restricted LP for the primal; pricing over "
            "closed-form per-block vertex sets (Lagrangian bound on t = P.w + branch and bound; nodes of at most 4,096 "
            "combinations evaluated combination by combination), certified bracket [arb utility of an exactly feasible mechanism, sum_x y'_x with "
            "max_v mu(v) - y'.v <= 0 certified]; enumeration = polyopt_from_bounds (all vertices + certified LP (46)). "
            "Both in one subprocess per instance (peak RSS is that process's).",
            f"Wall seconds on the shared 2-core machine (other helpers' jobs running); part A "
            f"{time.perf_counter() - start:.0f} s; {load_note()}.",
        ]
        small_path.write_text(json.dumps({
            "title": "PolyOpt without enumeration (issue 14), |X| <= 16: column generation vs exact enumeration",
            "columns": cols, "rows": [[r.get(c, "") for c in cols] for r in small], "notes": notes}, indent=1))
        print("\n".join(notes))
    if args.only in (None, "adult"):
        if not full and adult_path.exists() and json.loads(adult_path.read_text()).get("full"):
            print("Adult part: keeping the earlier --full results in", adult_path)
            return 0
        limit = 3600.0 if args.hour else (600.0 if full else 60.0)
        cases = [("occupation_x_education", False), ("relationship_x_education", False)]
        if args.with_missing or args.missing_only:
            cases.insert(1, ("occupation_x_education", True))
        if args.missing_only:
            cases = [c for c in cases if c[1]]
        if args.pair:
            cases = [c for c in cases if c[0].startswith(args.pair)]
        eps_list = args.eps or (EPS if full else ("1",))
        t1 = time.perf_counter()
        tasks = [(pair, kind, eps, keep, limit, args.stabilisation) for eps in eps_list for pair, keep in cases
                 for kind in ((args.mechanism,) if args.mechanism else ("PolyOpt", "NR"))]
        if args.workers > 1 or args.scheduler:
            from rldp_verify.core.distributed import DaskCluster, map_tasks

            with DaskCluster(args.scheduler, n_workers=args.workers) as cluster:
                adult = map_tasks(_adult_task, tasks, scheduler=cluster.address)   # in the order of tasks
            for r in adult:
                print(json.dumps(r), flush=True)
        else:
            adult = []
            for t in tasks:
                adult.append(_adult_task(t))
                print(json.dumps(adult[-1]), flush=True)
        cols = ["pair", "|X|", "? kept", "mechanism", "eps", "certified", "final bracket", "relative width",
                "solver s", "wall s", "CPU s", "setup s (L')", "iterations", "columns", "peak RSS MB", "target met",
                "load avg (1 min, at end)", "method", "failed"]
        if args.merge and adult_path.exists():
            old = json.loads(adult_path.read_text())
            key = ("pair", "? kept", "mechanism", "eps", "method")    # rows of other masters are kept beside
            new_keys = {tuple(r.get(k) for k in key) for r in adult}
            kept = [dict(zip(old["columns"], row, strict=True)) for row in old["rows"]]
            for r in kept:     # rows measured before the method column existed: Wentges smoothing
                if not r.get("method"):
                    r["method"] = "column generation (Wentges-smoothed) + block pricing"
            kept = [r for r in kept if tuple(r.get(k) for k in key) not in new_keys]
            adult = kept + adult
            full = full and bool(old.get("full", True))
        met = sum(1 for r in adult if r.get("target met"))
        notes = [
            f"Target (issue 14): certified relative width <= 1e-4 within 600 s and 4 GB: met on {met}/{len(adult)} rows "
            f"(solver-time limit {limit:.0f} s per run"
            + ("; rows from earlier invocations keep their own limit: 600 s, or 3600 s where 'certified' has a "
               "3600 s checkpoint" if args.merge else "") + ").",
            "Adult data (n = 32,561; rows with '?' dropped unless '? kept'), alpha = 2, beta = 0.05, F the chi^2 "
            "confidence set, L' <= L_(u|s)(F) certified and floored to 1e-12; NR = F = {P-hat}. 'certified' lists "
            "[solver seconds, lower, upper, relative width] at the 60/600/3600 s checkpoints and at the end (time "
            "spent certifying at a checkpoint is excluded from the solver seconds; 'wall s' includes everything).",
            f"Shared 2-core machine with other helpers' jobs running: these times are noisy (each run's load average "
            f"is in its row); {'the last invocation (--merge: rows from earlier invocations kept)' if args.merge else 'Adult part'} "
            f"{time.perf_counter() - t1:.0f} s"
            + (f" with {args.workers} runs at a time (Dask LocalCluster)" if args.workers > 1 and not args.scheduler else "")
            + f"; {load_note()}.",
        ]
        adult_path.write_text(json.dumps({
            "title": "PolyOpt and NR on the large Adult pairs (Sec. 8.1): certified bracket over time (issue 14)",
            "columns": cols, "rows": [[r.get(c, "") for c in cols] for r in adult], "notes": notes, "full": full},
            indent=1))
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
