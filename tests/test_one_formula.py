"""One formula, one place (issue 27): each formula's precision routes (exact, float, mpmath, arb) live in one
module, one function per route, and agree with each other on a grid; a grep over ``rldp_verify/`` finds the
formula's characteristic expression only in that module.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F
from pathlib import Path

import flint
import mpmath
import pytest

from rldp_verify.core.information import (
    mu_arb,
    mutual_information_arb,
    mutual_information_bounds,
    mutual_information_float,
    mutual_information_value,
)
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.mechanisms.grr import (
    grr_matrix,
    grr_matrix_arb,
    grr_matrix_arb_ratio,
    grr_matrix_float,
    grr_matrix_mp,
)
from rldp_verify.rldp.mechanisms.guarantees import (
    output_conditionals,
    output_conditionals_arb,
    realized_eps,
    realized_log_ratios_arb,
    realized_ratio,
)
from rldp_verify.rldp.mechanisms.ir import (
    exp_delta2,
    exp_delta2_arb,
    exp_delta2_float,
    exp_delta2_mp,
    ir_matrix,
    ir_matrix_arb,
    ir_matrix_float,
)
from rldp_verify.rldp.mechanisms.srr import srr_matrix
from rldp_verify.rldp.uncertainty import (
    chi2_radius_float,
    confidence_radius,
    confidence_radius_upper,
    radius_from_quantile_arb,
)

ENGINE = Path(__file__).resolve().parents[1] / "rldp_verify"

# formula -> (the one module that writes it, regex of its characteristic expression)
ONE_PLACE = {
    "e^delta2 = 1 + 2 (t - 1) / d (Theorem 5)": ("rldp/mechanisms/ir.py", r"1 \+ 2 \* \(\w+ - 1\) / \w"),
    "GRR denominator e^eps + a - 1 (eq. (56))": ("rldp/mechanisms/grr.py", r"=\s*\w+ \+ (size|a|a1|a2) - 1\b"),
    "SRR normaliser C = e^eps + e^-eps (a2 - 1) + a - a2 (Definition 4)": ("rldp/mechanisms/srr.py",
                                                                          r"\w+ \+ \(a2 - 1\) / \w+ \+"),
    "P(Y=y|S=s) of eq. (62)": ("rldp/mechanisms/guarantees.py", r"\* \w*\(?P\[s\]\[u\]"),
    "I_P in arb: v P log(v / q) (eq. (45))": ("core/information.py", r"\(\w+(\[\w+\])? / q\w*\)\.log\(\)"),
    "I_P in float64: log(v / q), vectorised with its error scale (eq. (45))": ("core/information.py",
                                                                              r"np\.log\(.*/ (q\b|np\.where\(py)"),
    "radius 1 + alpha (alpha - 1) q / (2n) (eq. (11))": ("rldp/uncertainty.py", r"\* \(\w+ - 1\) \* \w+ / \(2 \* n\)"),
    "chi-square quantile / n (chi2 radius)": ("rldp/uncertainty.py", r"chi2\.ppf\("),
}

GRID_T = [F(1), F(11, 10), F(3, 2), F(2), F(7), F(100)]
GRID_D = [F(1, 1000), F(1, 3), F(1), F(2)]
TABLES = [
    [[F(1, 10), F(2, 10), F(1, 10)], [F(3, 10), F(1, 10), F(2, 10)]],
    [[F(1, 3), F(0)], [F(1, 6), F(1, 2)]],
    [[F(1, 4)], [F(0)], [F(3, 4)]],
]


def _grep(pattern: str) -> set[str]:
    rx = re.compile(pattern)
    hits = set()
    for f in ENGINE.rglob("*.py"):
        for line in f.read_text().splitlines():
            code = line.split("#", 1)[0]
            if rx.search(code) and not code.strip().startswith(('"', "'", "``")):
                hits.add(str(f.relative_to(ENGINE)))
    return hits


@pytest.mark.parametrize("formula", sorted(ONE_PLACE))
def test_formula_written_in_one_module(formula):
    module, pattern = ONE_PLACE[formula]
    assert _grep(pattern) == {module}, f"{formula}: expected only in {module}"


def _close(a, b, rel=1e-13):
    return abs(float(a) - float(b)) <= rel * max(1.0, abs(float(b)))


def _contains(ball, q: F) -> bool:
    return arb_lower(ball) <= q <= arb_upper(ball)


@pytest.mark.parametrize("t", GRID_T)
@pytest.mark.parametrize("d", GRID_D + [F(0)])
def test_exp_delta2_routes_agree(t, d):
    exact = exp_delta2(t, d)
    if d == 0:
        assert exact == math.inf and exp_delta2_float(float(t), 0.0) == math.inf
        assert exp_delta2_mp(mpmath.mpf(1), d) == mpmath.inf and exp_delta2_arb(flint.arb(1), d) == math.inf
        return
    assert _close(exp_delta2_float(float(t), float(d)), exact)
    with mpmath.workdps(40):
        assert abs(exp_delta2_mp(mpmath.mpf(t.numerator) / t.denominator, d) - mpmath.mpf(exact.numerator)
                   / exact.denominator) < mpmath.mpf(10) ** -35 * max(1, exact)
    with arb_precision(40):
        assert _contains(exp_delta2_arb(arb_exact(t), d), exact)


@pytest.mark.parametrize("size", [1, 2, 3, 5])
@pytest.mark.parametrize("e", [F(1), F(3, 2), F(7), F(1000)])
def test_grr_routes_agree(size, e):
    G = grr_matrix(size, e)
    Gf = grr_matrix_float(size, float(e))
    with mpmath.workdps(40):
        Gm = grr_matrix_mp(size, mpmath.mpf(e.numerator) / e.denominator)
    with arb_precision(40):
        Ga = grr_matrix_arb(size, arb_exact(e))
        Gr = grr_matrix_arb_ratio(size, arb_exact(e * 3), arb_exact(F(3)))
    for i in range(size):
        for j in range(size):
            assert _close(Gf[i][j], G[i][j]) and _close(Gm[i][j], G[i][j])
            assert _contains(Ga[i][j], G[i][j]) and _contains(Gr[i][j], G[i][j])
    assert grr_matrix(size, math.inf) == [[int(i == j) for j in range(size)] for i in range(size)]
    assert (grr_matrix_float(size, math.inf) == grr_matrix(size, math.inf)).all()


@pytest.mark.parametrize("t", GRID_T[1:4])
@pytest.mark.parametrize("d", [F(0), F(1, 3), F(2)])
def test_ir_matrix_routes_agree(t, d):
    r = F(7)
    Q = ir_matrix(2, 3, r / t, exp_delta2(t, d))
    Qf = ir_matrix_float(2, 3, float(r), float(t), float(d))
    with arb_precision(40):
        Qa = ir_matrix_arb(2, 3, arb_exact(r / t), exp_delta2_arb(arb_exact(t), d))
    for y, row in enumerate(Q):
        for x, v in enumerate(row):
            assert _close(Qf[y][x], v) and _contains(Qa[y][x], v)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("e", [F(1), F(2), F(9)])
def test_mutual_information_routes_agree(table, e):
    a1, a2 = len(table), len(table[0])
    p = [v for r in table for v in r]
    Q = srr_matrix(a1, a2, e) if a2 > 1 else grr_matrix(a1 * a2, e)
    lo, hi = mutual_information_bounds(Q, p, dps=40)
    with arb_precision(40):
        ball = mutual_information_arb([[arb_exact(v) for v in row] for row in Q], p)
        rows = sum((mu_arb(row, p) for row in Q), flint.arb(0))
    assert arb_lower(ball) <= hi and lo <= arb_upper(ball)
    assert arb_lower(rows) <= hi and lo <= arb_upper(rows)
    with mpmath.workdps(40):
        v = mutual_information_value(Q, p)
    assert lo - F(1, 10**30) <= F(str(mpmath.nstr(v, 35))) <= hi + F(1, 10**30)
    assert _close(mutual_information_float(Q, p), (lo + hi) / 2, rel=1e-12)


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("e", [F(1), F(2), F(9)])
def test_realized_eps_routes_agree(table, e):
    a1, a2 = len(table), len(table[0])
    Q = srr_matrix(a1, a2, e) if a2 > 1 else grr_matrix(a1 * a2, e)
    ratio, _ = realized_ratio(Q, table, a1, a2)
    with mpmath.workdps(40):
        eps = realized_eps(Q, table, a1, a2, dps=40)
        assert abs(eps - mpmath.log(mpmath.mpf(ratio.numerator) / ratio.denominator)) < mpmath.mpf(10) ** -35
    with arb_precision(60):
        Qa = [[arb_exact(v) for v in row] for row in Q]
        logs = realized_log_ratios_arb(Qa, table, a1, a2)
        best = max(arb_upper(x) for x in logs) if logs else F(0)
        assert abs(float(best) - float(eps)) < 1e-14
        for row, rowa in zip(Q, Qa, strict=True):
            exact = [c for c in output_conditionals(row, table, a1, a2) if c is not None]
            balls = output_conditionals_arb(rowa, table, a1, a2)
            assert len(exact) == len(balls) and all(_contains(b, c) for b, c in zip(balls, exact, strict=True))


@pytest.mark.parametrize("alpha", [F(1, 2), F(1), F(2), F(5)])
@pytest.mark.parametrize("n", [10, 1000])
def test_confidence_radius_routes_agree(alpha, n):
    a, conf = 4, F(95, 100)
    with mpmath.workdps(30):
        B = confidence_radius(alpha, conf, n, a, dps=30)
    up = confidence_radius_upper(alpha, conf, n, a, dps=30)
    assert up is not None and F(str(mpmath.nstr(B, 25))) <= up + F(1, 10**20)
    assert float(up) - float(B) < 1e-20
    with mpmath.workdps(30):
        q = mpmath.mpf(2 * n) * ((mpmath.exp(B * (alpha - 1)) - 1) / (alpha * (alpha - 1)) if alpha != 1 else B)
    with arb_precision(100):
        ball = radius_from_quantile_arb(F(str(mpmath.nstr(q, 28))), alpha, n)
        assert abs(float(ball.mid()) - float(B)) < 1e-20
    if alpha == 2:       # eq. (11) at alpha = 2: e^B - 1 is the chi-square radius q / n
        assert _close(chi2_radius_float(n, a, 1 - conf), math.expm1(float(B)), rel=1e-12)


# Known answers: the routes share one statement, so a wrong statement would make them agree with each other;
# these anchor each formula to the paper.


def test_known_answers_theorem5_and_eq56_and_definition4():
    assert exp_delta2(3, 1) == 5 and exp_delta2(F(7, 2), 2) == F(7, 2)     # d = 2: delta2 = eps2
    assert grr_matrix(2, 3) == [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]
    S = srr_matrix(2, 2, 2)                                                # Example 4: eps = log 2, C = 4.5
    assert S[0][:2] == [F(2) / F(9, 2), F(1, 2) / F(9, 2)] and S[0][2] == 1 / F(9, 2)
    for size in (2, 4):
        assert all(sum(col) == 1 for col in zip(*grr_matrix(size, F(5, 3)), strict=True))


def test_known_answers_eq62_and_mutual_information_and_radius():
    a1 = 3
    P = [[F(1, 6)], [F(1, 3)], [F(1, 2)]]
    ratio, _ = realized_ratio(grr_matrix(a1, F(5, 2)), P, a1, 1)          # S alone: eps* = eps
    assert ratio == F(5, 2)
    p = [F(1, 6), F(1, 3), F(1, 2)]
    lo, hi = mutual_information_bounds(grr_matrix(3, math.inf), p, dps=40)    # identity: I = H(X)
    h = -sum(float(x) * math.log(float(x)) for x in p)
    assert abs(float(lo) - h) < 1e-14 and abs(float(hi) - h) < 1e-14
    from scipy.stats import chi2

    n, a = 50, 5
    q = chi2.ppf(0.95, a - 1)
    B = confidence_radius(2, F(95, 100), n, a, dps=30)                        # eq. (11): log(1 + q / n)
    assert abs(float(B) - math.log1p(q / n)) < 1e-12
    assert abs(chi2_radius_float(n, a, 0.05) - q / n) < 1e-15
