#!/usr/bin/env python3
"""Benchmark: exact PolyOpt (Sec. 5 of seeds/000_aca93ed29ea857ee.txt) — vertices of Gamma-hat and
the certified LP (46) — by |X|.  Writes reports/benchmarks/polyopt.json.

Columns per instance (|S| x |U|, P-hat random with a fixed seed, L_{u|s} = floor(600 P-hat_{u|s})/1000,
e^eps = 2, Definition 3 as printed, i.e. include_same_s=True):

* vertices: |V(Gamma-hat)| (exact);
* product s: rldp_verify.gamma's block-product characterisation (exact; checked against cdd in tests);
* cdd s / normaliz s / lrs s: the plain double description of the a^2 + a inequalities
  (cdd: pycddlib GMP on the full system; normaliz (PyNormaliz, optional) and lrs on the
  duplicate-free system), only where they finish in reasonable time (blank = not run);
* LP s: rldp_verify.lp.solve_certified on LP (46) (HiGHS + exact basis re-solve + exact
  certificate) with mu(v) evaluated in float64 and taken as exact rationals (the LP optimum is exact
  for that objective; the rigorous bracket for the true mu is the next column's job);
* eq46 s: the project's full PolyOpt LP, rldp_verify.mechanisms.polyopt.solve_eq46 (mu at 50 digits,
  certified dual bracket), on the same vertices;
* total s = product + LP (exact vertices + certified LP), and product + eq46.

Wall-clock seconds on the shared 2-core machine (other jobs running) and CPU seconds are both recorded.

Not in the table (memory / time budget): the 2x8 instance at L scale 0.6 (176,397 vertices), measured
once separately on 2026-11-21 with the same code: product 29.8 s wall (9.9 s CPU), certified LP
110.5 s wall (42.9 s CPU), peak RSS 1.4 GB.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rldp_verify.gamma import gamma_hat_vertices  # noqa: E402
from rldp_verify.lp import solve_certified  # noqa: E402
from rldp_verify.numbers import from_float  # noqa: E402

E_EPS = Fraction(2)
# (|S|, |U|, L scale in thousandths): L_(u|s) = floor(scale * P-hat_(u|s)) / 1000.  With
# sum_u L_(u|s) * e^eps > 1 (scale 600) the cone facets cut the block boxes and the vertex count grows
# fast (|X| = 16: 179k (2x8) and 339k (4x4) vertices, beyond this benchmark's 10-minute / memory
# budget on the shared machine); with scale 400 every block is the box [1, e^eps]^U and
# |V| = 2^|X| - 2.
SIZES = [(2, 2, 600), (2, 3, 600), (3, 2, 600), (2, 4, 600), (4, 2, 600), (3, 3, 600), (2, 5, 600),
         (5, 2, 600), (2, 6, 600), (3, 4, 600), (4, 3, 600), (2, 7, 600), (4, 4, 400), (2, 8, 400)]
# the plain double descriptions (and the mpmath-heavy solve_eq46) take minutes at |X| = 12 on the
# loaded machine: run them up to |X| = 10 and at |X| = 12 only for the 4x3 instance
BASELINE_MAX, LRS_MAX = 10, 9
BASELINE_EXTRA = {(4, 3)}
BUDGET = 500.0           # seconds: sizes are skipped once the budget is spent


def instance(a1, a2, scale=600):
    rng = random.Random(1000 * a1 + a2)
    a = a1 * a2
    w = [rng.randint(1, 30) for _ in range(a)]
    P = [Fraction(x, sum(w)) for x in w]
    L = []
    for s in range(a1):
        ps = sum(P[s * a2:(s + 1) * a2])
        L.append([Fraction(int(scale * P[s * a2 + u] / ps), 1000) for u in range(a2)])
    return P, L


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def lp46(V, P):
    a = len(P)
    Vf = np.array([[float(x) for x in v] for v in V])
    pf = np.array([float(x) for x in P])
    q = Vf @ pf
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(Vf > 0, Vf * pf * np.log(Vf / q[:, None]), 0.0)
    mu = terms.sum(axis=1)
    c = [from_float(float(m)) for m in mu]
    E = [[v[x] for v in V] for x in range(a)]
    return solve_certified(c, [], [], E, [Fraction(1)] * a, lower=[Fraction(0)] * len(V))


def main() -> int:
    rows = []
    start = time.perf_counter()
    have_normaliz = True
    try:
        import PyNormaliz  # noqa: F401
    except ImportError:
        have_normaliz = False
    largest = 0
    for a1, a2, scale in SIZES:
        a = a1 * a2
        if time.perf_counter() - start > BUDGET:
            rows.append({"|X|": a, "S x U": f"{a1}x{a2}", "L scale": scale / 1000,
                         "vertices": "skipped (time budget)"})
            continue
        P, L = instance(a1, a2, scale)
        V, t_prod, c_prod = timed(lambda: gamma_hat_vertices(L, E_EPS, method="product"))
        lam = max(sum(r) for r in L) * E_EPS
        row = {"|X|": a, "S x U": f"{a1}x{a2}", "L scale": scale / 1000,
               "max_s e^eps sum_u L": round(float(lam), 3), "vertices": len(V), "product s": round(t_prod, 3)}
        ok = True
        base = a <= BASELINE_MAX or (a1, a2) in BASELINE_EXTRA
        if base:
            Vc, t, _ = timed(lambda: gamma_hat_vertices(L, E_EPS, method="cdd"))
            row["cdd s"] = round(t, 3)
            ok &= Vc == V
        if have_normaliz and base:
            Vn, t, _ = timed(lambda: gamma_hat_vertices(L, E_EPS, method="normaliz"))
            row["normaliz s"] = round(t, 3)
            ok &= set(Vn) == set(V)
        if a <= LRS_MAX:
            Vl, t, _ = timed(lambda: gamma_hat_vertices(L, E_EPS, method="lrs"))
            row["lrs s"] = round(t, 3)
            ok &= set(Vl) == set(V)
        res, t_lp, c_lp = timed(lambda: lp46(V, P))
        row["LP s"] = round(t_lp, 3)
        row["LP method"] = res.method
        row["total s (product+LP)"] = round(t_prod + t_lp, 3)
        row["total CPU s"] = round(c_prod + c_lp, 3)
        if base:
            from rldp_verify.mechanisms.polyopt import solve_eq46
            _, t46, _ = timed(lambda: solve_eq46(V, P))
            row["eq46 s"] = round(t46, 3)
            row["total s (product+eq46)"] = round(t_prod + t46, 3)
        row["methods agree"] = ok
        if res.status == "optimal" and ok:
            largest = max(largest, a)
        rows.append(row)
        print(json.dumps(row), flush=True)
    columns = ["|X|", "S x U", "L scale", "max_s e^eps sum_u L", "vertices", "product s", "cdd s", "normaliz s", "lrs s", "LP s", "LP method",
               "total s (product+LP)", "total CPU s", "eq46 s", "total s (product+eq46)", "methods agree"]
    table = [[r.get(c, "") for c in columns] if isinstance(r, dict) else r for r in rows]
    notes = (f"e^eps = 2, Definition 3 with s1 = s2 rows (PolyOpt as printed); seeded random P-hat, "
             f"L_(u|s) = floor(scale * 1000 * P-hat_(u|s))/1000. With max_s e^eps sum_u L > 1 the vertex count "
             "grows much faster than 2^|X|: the |X| = 16 instances at scale 0.6 have 178,928 (2x8) and 338,800 (4x4) "
             f"candidate vertices and are left out (memory/time budget of this benchmark). Largest |X| with exact vertices and a certified LP: {largest}. "
             "Wall seconds on the shared 2-core machine (load from other jobs inflates them); 'total CPU s' is "
             "process CPU time. cdd = pycddlib GMP on all a^2+a rows; normaliz = PyNormaliz "
             f"({'installed' if have_normaliz else 'not installed'}) and lrs = lrslib 7.1 on the duplicate-free rows; "
             "product = block-product characterisation (rldp_verify.gamma). 'methods agree' = exact equality "
             "of the vertex sets. LP = solve_certified on LP (46) with float64 mu taken as exact rationals "
             "(exact optimum of that LP); eq46 = the project's solve_eq46 (mu at 50 digits and rigorous bracket), "
             "whose time is dominated by evaluating mu for every vertex in mpmath/arb.")
    out = {"title": "PolyOpt: exact vertices of Gamma-hat and certified LP (46) by |X|", "columns": columns,
           "rows": table, "notes": notes}
    dest = ROOT / "reports" / "benchmarks"
    dest.mkdir(parents=True, exist_ok=True)
    (dest / "polyopt.json").write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
