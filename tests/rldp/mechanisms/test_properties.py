"""Property tests: every mechanism is exactly column-stochastic and satisfies its claimed guarantee by an
independent check; utility orderings implied by nested feasible sets hold."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import example, given, settings

from rldp_verify.core.numbers import to_mpf
from rldp_verify.rldp.mechanisms import (
    check_column_stochastic,
    check_gamma,
    check_ldp,
    check_prop3,
    check_single_distribution,
    exact_level,
    grr,
    independent_reporting,
    lower_bounds,
    mutual_information_bounds,
    nonrobust,
    polyopt_from_bounds,
    privacy_level,
    srr,
)
from rldp_verify.rldp.mechanisms.ir import conditional_l1_spread
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust_lower
from rldp_verify.rldp.uncertainty import RenyiBall
from tests.strategies import MECH_EPS as EPS
from tests.strategies import instances, phat_tables

FAST = settings(max_examples=25, deadline=None)
SLOWISH = settings(max_examples=6, deadline=None)


@FAST
@given(phat_tables(), __import__("hypothesis").strategies.sampled_from(EPS))
def test_grr_srr_exact_and_private(table, eps):
    for m in (grr(table, eps), srr(table, eps)):
        assert m.exact and check_column_stochastic(m)
        assert check_prop3(m, eps).holds is True            # Proposition 3
    assert check_ldp(grr(table, eps), eps).holds is True    # GRR is even eps-LDP
    lv = privacy_level(eps)
    with mpmath.workdps(40):
        true = lv.eps_value
        r = mpmath.mpf(lv.exp_eps.numerator) / lv.exp_eps.denominator
        assert r <= mpmath.exp(true) and (lv.exact or r > mpmath.exp(true) - mpmath.mpf(10) ** -11)


@SLOWISH
@given(instances(sizes=[(2, 2), (2, 3), (3, 2)]))
@example((((Fraction(7, 100), Fraction(1, 10)), (Fraction(26, 100), Fraction(57, 100))), "2", "1/20", "log(2)"))
@example((((Fraction(0), Fraction(0), Fraction(0)), (Fraction(0), Fraction(0), Fraction(1))), "1/2", "0", "0"))  # I = 0
def test_polyopt_family(inst):
    table, alpha, radius, eps = inst
    ball = RenyiBall.from_radius(table, alpha, radius)
    L = lower_bounds(ball)
    r = privacy_level(eps).exp_eps
    lvl = exact_level(r)
    p = [v for row in table for v in row]
    if r == 1:  # eps = 0: Gamma-hat is still defined; the baseline enumeration is used
        pass
    po, sp = polyopt_from_bounds(table, L, eps)
    rel, sr = polyopt_from_bounds(table, L, eps, include_same_s=False)
    nr = nonrobust(table, eps)
    for m in (po, rel, nr):
        assert m.exact and check_column_stochastic(m)
        assert len(m.outputs) <= len(p)                                     # Theorem 3: |Y| <= |X|
    assert check_gamma(po, L, lvl).holds is True                           # Theorem 2's hypothesis
    assert check_gamma(rel, L, lvl, include_same_s=False).holds is True
    assert check_single_distribution(nr, p, lvl).holds is True             # (eps, {P-hat})-RLDP
    # nested feasible sets -> utility orderings (certified brackets)
    g, s = grr(table, eps), srr(table, eps)
    I = {k: mutual_information_bounds(m.matrix, p, dps=30) for k, m in
         (("GRR", g), ("SRR", s), ("PolyOpt", po), ("relaxed", rel), ("NR", nr))}
    br = {k: tuple(Fraction(x) for x in m.parameters["optimum_bracket"]) for k, m in
          (("PolyOpt", po), ("relaxed", rel), ("NR", nr))}
    NL, active = nonrobust_lower(table)
    assert check_gamma(g, L, lvl).holds is True
    assert check_gamma(po, L, lvl, include_same_s=False).holds is True
    assert check_gamma(s, L, lvl, include_same_s=False).holds is True
    assert check_gamma(rel, NL, lvl, include_same_s=False, active=active).holds is True
    for A, B in (("NR", "relaxed"), ("relaxed", "PolyOpt"), ("PolyOpt", "GRR"), ("relaxed", "SRR"), ("NR", "SRR")):
        lo, up = br[A]
        # fail only when certainly violated (arb enclosures of I are ~1e-30 wide)
        assert I[B][0] <= up
        assert I[A][1] >= I[B][0] - (up - lo)


@SLOWISH
@given(instances(sizes=[(2, 2), (2, 3), (3, 2), (1, 2)]))
@example((((Fraction(7, 100), Fraction(1, 10)), (Fraction(26, 100), Fraction(57, 100))), "2", "1/20", "log(2)"))
@example((((Fraction(1, 2), Fraction(0)), (Fraction(0), Fraction(1, 2))), "2", "0", "log(2)"))  # d = 2 (U = S)
@example((((Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(1, 4))), "2", "0", "log(2)"))  # d = 0
def test_ir_theorem5(inst):
    table, alpha, radius, eps = inst
    ball = RenyiBall.from_radius(table, alpha, radius)
    m = independent_reporting(ball, eps)
    assert m.exact and check_column_stochastic(m)
    prm = m.parameters
    r = privacy_level(eps).exp_eps
    t, e1 = Fraction(prm["exp_eps2"]), Fraction(prm["exp_eps1"])
    d = Fraction(prm["d"])
    assert 1 <= t <= r and e1 * t == r                                        # eps1 + eps2 = log r <= eps
    # d >= Theorem 5's d computed independently at high precision
    with mpmath.workdps(30):
        rads = [to_mpf(ball.rad_value(s)) for s in range(len(table))]
        d_true = min(2, 2 * max(rads) + to_mpf(conditional_l1_spread(table)))
    assert to_mpf(d) >= d_true - mpmath.mpf(10) ** -25
    # Theorem 5's parameters: R2 is delta2-LDP with e^delta2 <= 1 + 2 (e^eps2 - 1) / d_true
    R2_ratio = prm["exp_delta2"]
    if R2_ratio != "inf":
        assert Fraction(R2_ratio) == 1 + 2 * (t - 1) / d
    else:
        assert d == 0
    # and the mechanism is (eps, {P})-RLDP at P-hat (P-hat in F)
    assert check_single_distribution(m, [v for row in table for v in row], eps).holds is True
