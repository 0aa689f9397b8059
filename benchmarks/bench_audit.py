#!/usr/bin/env python3
"""Benchmark: certified (eps, F)-RLDP audit of 240 x 240 mechanisms (issue 4, Sec. 3).

Shape: the Adult occupation x education table (seeds/000_aca93ed29ea857ee.txt, Sec. 8.1; |S| = 15 with '?'
kept as a category, |U| = 16, a = 240), F the 95% chi-square set (alpha = 2, eq. (11), n = 32,561).
Mechanisms: SRR^eps and GRR^eps (exact, Definition 4 / eq. (56)) and a dense random mechanism
(240 outputs, columns ~ Dirichlet(5), float entries read exactly).

Columns:
* audit s: rldp_verify.rldp.audit.audit end to end (tables, float screen over all 50,400 (y, s, s'), arb
  certification of the critical pairs, witness verification), wall-clock, ball built beforehand;
* verdict, [lo, hi], pairs certified in arb;
* baseline s/pair: what a user would otherwise write -- multistart SLSQP (scipy, analytic gradients, 2 starts)
  over the full P in F for one (y, s, s'), averaged over a random sample of pairs;
* baseline s (extrapolated): s/pair x 50,400 pairs (running it on every pair would take hours);
* ratio: baseline (extrapolated) / audit. The baseline gives no certificate and can miss the maximum.

Wall-clock seconds on the shared 2-core machine (other jobs running).
"""

from __future__ import annotations

import json
import os
import sys
import time
from fractions import Fraction
from functools import partial
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks._certificates import COLUMN, Certifier, seconds  # noqa: E402
from rldp_verify.certificates.audit import audit_certificate  # noqa: E402
from rldp_verify.core.errors import InputError  # noqa: E402
from rldp_verify.rldp.audit import audit  # noqa: E402
from rldp_verify.rldp.data import adult_data_path, read_counts  # noqa: E402
from rldp_verify.rldp.mechanisms import grr_matrix, srr_matrix  # noqa: E402
from rldp_verify.rldp.mechio import Mechanism  # noqa: E402
from rldp_verify.rldp.uncertainty import RenyiBall  # noqa: E402

SAMPLE_PAIRS = int(os.environ.get("BENCH_AUDIT_PAIRS", "1"))


def table():
    try:
        adult = adult_data_path()
    except InputError:
        adult = None
    if adult is not None:
        ct = read_counts(adult, 6, 3, missing=())
        return [list(r) for r in ct.counts], f"Adult occupation x education (n = {ct.n:d})"
    rng = np.random.default_rng(0)  # fallback: same shape, synthetic counts
    p = rng.dirichlet([0.5] * 240)
    return rng.multinomial(32561, p).reshape(15, 16).tolist(), "synthetic 15 x 16 (Adult data not found)"


def baseline_pair(Q, ph, B, a1, a2, y, s, t, rng, starts=2):
    """Multistart SLSQP maximising P(y|s)/P(y|t) over {P : chi2-form D_2(P^||P) <= B} (float, no certificate)."""
    q = Q[y].reshape(a1, a2)
    x = ph.reshape(-1)
    pos = x > 0
    cap = np.exp(B)

    def f(p):
        P = p.reshape(a1, a2)
        n1, m1 = q[s] @ P[s], P[s].sum()
        n2, m2 = q[t] @ P[t], P[t].sum()
        r = (n1 / m1) / (n2 / m2)
        g = np.zeros((a1, a2))
        g[s] = r * (q[s] / n1 - 1 / m1)
        g[t] = -r * (q[t] / n2 - 1 / m2)
        return -r, -g.reshape(-1)

    def con(p):
        return cap - np.sum(x[pos] ** 2 / p[pos])

    def con_jac(p):
        g = np.zeros_like(p)
        g[pos] = x[pos] ** 2 / p[pos] ** 2
        return g

    best = None
    for k in range(starts):
        # start 0 near P^ (feasible), later starts randomly perturbed
        x0 = x * np.exp(0.02 * k * rng.normal(size=x.size))
        x0 = (1 - 1e-4) * x0 / x0.sum() + 1e-4 / x.size
        res = minimize(f, x0, jac=True, method="SLSQP", bounds=[(1e-12, 1)] * x.size,
                       constraints=[{"type": "ineq", "fun": con, "jac": con_jac},
                                    {"type": "eq", "fun": lambda p: p.sum() - 1, "jac": lambda p: np.ones_like(p)}],
                       options={"maxiter": 100, "ftol": 1e-12})
        if con(res.x) >= -1e-6 * cap and abs(res.x.sum() - 1) < 1e-6:  # float tolerance a user would accept
            v = -f(res.x)[0]
            best = v if best is None else max(best, v)
    return best


def _certificate(result, m: Mechanism, eps, ball, name: str) -> dict:
    """The audit's certificate (:func:`audit_certificate`); Q is the mechanism's float entries read exactly, and
    where its columns sum to 1 only within float rounding (the random dense mechanism) the statement says
    ``"column_sums": "inexact"``: the checker certifies Q as given (its bounds use Q's rows only)."""
    return audit_certificate(result, m, eps, ball=ball, name=name)


def main(argv=None):
    """Run the table (``--only TEXT``: only the mechanisms whose name contains TEXT, printed and, with ``--out``,
    written there instead of reports/benchmarks/audit.json)."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="run only the mechanisms whose name contains this text")
    ap.add_argument("--out", help="write the table here (default: reports/benchmarks/audit.json; with --only: not "
                                  "written)")
    args = ap.parse_args(argv)
    counts, source = table()
    t0 = time.perf_counter()
    ball = RenyiBall.from_confidence(counts, 2, "0.95", int(sum(map(sum, counts))))
    t_ball = time.perf_counter() - t0
    a1, a2 = 15, 16
    rng = np.random.default_rng(1)
    Qr = rng.dirichlet([5.0] * 240, size=240).T
    Qr /= Qr.sum(axis=0)
    mechs = [("SRR eps=1", Mechanism.from_matrix(srr_matrix(a1, a2, Fraction(27183, 10000)), a1, a2), "log(2.7183)"),
             ("GRR eps=1", Mechanism.from_matrix(grr_matrix(240, Fraction(27183, 10000)), a1, a2), "log(2.7183)"),
             ("random dense (Dirichlet(5) columns)", Mechanism.from_matrix(Qr, a1, a2, normalize=True), "2")]
    rows = []
    certs = Certifier("audit")
    ph = np.array([[float(v) for v in r] for r in ball.phat])
    B = float(ball.radius)
    for name, m, eps in mechs:
        if args.only and args.only not in name:
            continue
        t = time.perf_counter()
        r = audit(m, eps, ball=ball)
        secs = time.perf_counter() - t
        js = r.to_json()
        cert = certs.certify(name, partial(_certificate, r, m, eps, ball))
        Qf = np.array([[float(v) for v in row] for row in m.matrix])
        # baseline on a sample of pairs (always including the audit's argmax)
        sample = [(r.argmax["y"], r.argmax["s"], r.argmax["s_prime"])]
        while len(sample) < SAMPLE_PAIRS:
            y, s, u = int(rng.integers(240)), int(rng.integers(a1)), int(rng.integers(a1))
            if s != u:
                sample.append((y, s, u))
        tb = time.perf_counter()
        vals = [baseline_pair(Qf, ph, B, a1, a2, y, s, u, rng) for y, s, u in sample]
        per_pair = (time.perf_counter() - tb) / len(sample)
        total_pairs = 240 * a1 * (a1 - 1)
        base_total = per_pair * total_pairs
        rows.append([name, f"{secs:.2f}", r.verdict, f"[{js['ratio_lower']}, {js['ratio_upper']}]",
                     r.pairs_certified_in_arb, f"{per_pair:.3f}", f"{base_total:.0f}", f"{base_total / secs:.0f}",
                     "no feasible point" if vals[0] is None else f"{vals[0]:.12g}", cert[0], seconds(*cert[1:])])
        print(rows[-1], flush=True)
    out = {
        "title": "Certified audit vs. multistart SLSQP, 240 x 240 mechanisms (|S| = 15, |U| = 16)",
        "columns": ["mechanism", "audit s", "verdict", "worst ratio [lo, hi]", "pairs certified in arb",
                    "baseline s/pair", "baseline s (extrapolated to 50,400 pairs)", "ratio baseline/audit",
                    "baseline value at audit argmax", COLUMN, "certificate s (build and write / re-check)"],
        "rows": rows,
        "notes": [f"P-hat: {source}; F: alpha = 2, 95% (eq. (11)), radius {float(ball.radius):.6g} "
                  f"(built in {t_ball:.2f} s, not included in 'audit s').",
                  "target: certified verdict in < 10 s per 240 x 240 mechanism.",
                  f"baseline: scipy SLSQP with analytic gradients, 2 starts per pair (maxiter 100, feasibility tolerance 1e-6), on {SAMPLE_PAIRS} sampled pairs "
                  "(incl. the audit's argmax); its total is extrapolated, not run (hours). It certifies nothing "
                  "and may stop below the maximum (compare the last column with lo).",
                  "'no feasible point': every SLSQP start ended outside F (typically 'Positive directional "
                  "derivative for linesearch' with some P_x driven to its bound); the time is still counted.",
                  "Wall-clock on a shared 2-core machine.",
                  "certificate: the audit's (a per-(y, s, s') dual entry for each of the 50,400 pairs, the witness "
                  "P as rationals); 'certificate s' is not part of 'audit s'. " + certs.note()],
    }
    dest = Path(args.out) if args.out else None if args.only else ROOT / "reports" / "benchmarks" / "audit.json"
    if dest is None:
        return 0
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {dest}")
    return 0   # a FAILED certificate shows in its row; a non-zero exit would replace the table (run.py)


if __name__ == "__main__":
    raise SystemExit(main())
