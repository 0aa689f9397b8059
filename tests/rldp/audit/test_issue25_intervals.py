"""Issue 25 leftovers: decided audits whose interval was wide. Each upper end is re-checked against a member of F
(a wrong, too low upper end is caught by the witness), and the result says whether an infinite upper end is
tight (attained by a witness with P(Y=y|S=s') = 0) or only not excluded.

Red-team inputs of ../shared/data/redteam (Z2, X8, X1), inlined.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.audit.deadline import NO_DEADLINE
from rldp_verify.rldp.audit.exact import audit_single
from rldp_verify.rldp.audit.grid import split_upper
from rldp_verify.rldp.audit.pair import PairProblem
from rldp_verify.rldp.audit.pairs import product_upper
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall

Z2 = [["0", "164366/1014871", "914375/1855379", "113059/311220", "446341/529554", "143677/302981", "237603/297773",
       "0", "5680/27759"],
      ["37967/107366", "399426/1014871", "858389/1855379", "61207/155610", "83213/529554", "0", "60170/297773",
       "809542/1265835", "817681/2165202"],
      ["69399/107366", "451079/1014871", "82615/1855379", "3607/14820", "0", "159304/302981", "0", "456293/1265835",
       "904481/2165202"]]
Z2_PHAT = "1000/4063,42/239,907/4063;0,0,0;520/4063,836/4063,86/4063"
X8 = [["0", "6/11", "0", "2/21", "1/4", "7/24", "5/28", "5/23"], ["7/15", "0", "4/13", "1/3", "3/20", "0", "9/28", "2/23"],
      ["7/15", "3/11", "3/13", "5/21", "1/10", "1/3", "1/7", "9/23"], ["1/15", "2/11", "6/13", "1/3", "1/2", "3/8", "5/14", "7/23"]]
X8_PHAT = "257/1974,61/329,311/1316,23/564;757/3948,25/658,265/3948,109/987"
X1 = [["1", "165/284", "7/36", "139/550", "0", "1", "776/1519", "923/1695"],
      ["0", "119/284", "29/36", "411/550", "1", "0", "743/1519", "772/1695"]]
X1_PHAT = "973/3456,143/3456,271/1152,899/3456;263/3456,365/3456,0,0"


def _mech(rows, a1, a2):
    return Mechanism.from_matrix([[F(v) for v in r] for r in rows], a1, a2)


def _witness_ratio(res, rows, a1, a2, ball):
    """The witness re-checked: inside F (arb) and its exact ratio."""
    assert ball.contains(res.witness, dps=60) is True
    return audit_single([[F(v) for v in r] for r in rows], res.witness, a1, a2)[0]


def test_zero_mass_row_gives_a_tight_infinite_upper_end():
    """Z2 (P-hat_s = 0 for s = 1, a zero in Q): the ratio is genuinely infinite. Before: [140.3, inf] with no
    witness of inf. Now lo = hi = inf, the witness (re-checked inside F) has P(Y=y|S=s') = 0, and the note says
    the upper end is tight."""
    res = audit(_mech(Z2, 3, 3), "1.3812453574145074", phat=Z2_PHAT, alpha=10, radius=3)
    ball = RenyiBall.from_radius(Z2_PHAT, 10, 3)
    assert res.verdict == "FAIL" and res.ratio_lower == math.inf and res.ratio_upper == math.inf
    assert _witness_ratio(res, Z2, 3, 3, ball) == math.inf
    assert any("upper end inf is tight" in n for n in res.notes)


def test_large_radius_upper_end_is_finite_and_above_the_witness():
    """X8 (alpha 3/2, radius 2000, zero entries, P-hat of full support): the ratio is finite, Proposition 3's
    bound is not. Before: [7.8e35, inf]. Now a finite certified upper end (about 2.4e870), not below the
    witness's exact ratio."""
    res = audit(_mech(X8, 2, 4), "1.1391964703845507", phat=X8_PHAT, alpha=F(3, 2), radius=2000)
    ball = RenyiBall.from_radius(X8_PHAT, F(3, 2), 2000)
    assert res.verdict == "FAIL" and res.ratio_upper != math.inf
    assert res.ratio_lower <= _witness_ratio(res, X8, 2, 4, ball) <= res.ratio_upper
    assert F(10) ** 860 < res.ratio_upper < F(10) ** 880
    assert any("not tight" in n for n in res.notes)


def test_product_upper_is_not_below_the_tight_audit():
    """product_upper (the large-radius upper end) against the precision-round audit of the same ball (radius 50,
    where the interval is tight): a variant that returned a bound below a ratio attained in F is caught."""
    ball = RenyiBall.from_radius(X8_PHAT, F(3, 2), 50)
    Q = [[F(v) for v in r] for r in X8]
    res = audit(_mech(X8, 2, 4), "1", ball=ball)
    hi = product_upper(Q, ball, 2, 4, 50, NO_DEADLINE)
    assert _witness_ratio(res, X8, 2, 4, ball) <= hi
    assert res.ratio_lower <= hi and hi != math.inf


def test_unrepresentable_finite_bound_says_why():
    """X1 at radius 1e5 (alpha 10): finite ratio but a bound beyond 2^4096; inf with a note that says it is not
    tight and why; at radius 1000 the same audit gives a finite upper end above the witness."""
    res = audit(_mech(X1, 2, 4), "1.6943573748081344", phat=X1_PHAT, alpha=10, radius=100000)
    assert res.verdict == "FAIL" and res.ratio_upper == math.inf
    assert any("upper end inf is not tight: the ratio is finite" in n for n in res.notes)
    res = audit(_mech(X1, 2, 4), "1.6943573748081344", phat=X1_PHAT, alpha=10, radius=1000)
    ball = RenyiBall.from_radius(X1_PHAT, 10, 1000)
    assert res.ratio_upper != math.inf and _witness_ratio(res, X1, 2, 4, ball) <= res.ratio_upper


def test_blocks_1e300_apart_give_a_tight_interval():
    """The 1e-300 blocks (alpha 2, radius 1): the witness cell is near 1e-600, so pulling the rounded witness
    towards P-hat (adding tau P-hat_x with tau >= 1e-35) lifted it to 1e-335. Before: [2.3e334, 4.7e599]. Now the
    witness comes from a slightly smaller ball, unpulled: lo and hi agree to 20 digits, the witness re-checked
    inside F attains lo."""
    Z = [["0", "1/2", "1/4", "0"], ["1", "1/2", "3/4", "1"]]
    phat = "1,1;1e300,1e300"
    res = audit(_mech(Z, 2, 2), "1", phat=phat, alpha=2, radius=1)
    ball = RenyiBall.from_radius(phat, 2, 1)
    assert res.verdict == "FAIL"
    assert _witness_ratio(res, Z, 2, 2, ball) == res.ratio_lower
    assert res.ratio_lower <= res.ratio_upper <= res.ratio_lower * (1 + F(1, 10**20))
    assert 4 * F(10) ** 599 < res.ratio_lower < 5 * F(10) ** 599


A = [["868/1441", "121/448", "428/741", "273/613"], ["65/1441", "101/224", "623/1482", "235/613"],
     ["508/1441", "125/448", "1/494", "105/613"]]


def test_alpha_half_lower_end_from_the_curve_grid_and_width_stated():
    """alpha = 1/2, radius 0.1 (a.json, P-hat 0.1, 0.2; 0.3, 0.4): no KKT system below alpha 1/2, the lower end was
    P-hat's own ratio 3.07 with the upper end 8.44 (a local optimiser finds 8.025 inside F). Now the grid witness
    on the two maximiser curves gives lo > 8.0, re-checked inside F and attaining lo; lo <= hi; the note states
    hi/lo and why the dual upper end is not tight."""
    phat = "0.1,0.2;0.3,0.4"
    res = audit(_mech(A, 2, 2), "1", phat=phat, alpha=F(1, 2), radius=F(1, 10))
    ball = RenyiBall.from_radius(phat, F(1, 2), F(1, 10))
    assert _witness_ratio(res, A, 2, 2, ball) == res.ratio_lower
    assert 8 < res.ratio_lower <= res.ratio_upper
    assert any(n.startswith("alpha <= 1/2: hi/lo = ") for n in res.notes)
    # the budget-split bound is the printed upper end (its pair entry of mode "split" is re-derived by
    # rldp_verify_check: tests/certificates/test_audit_split.py), within 0.1 % of lo: [8.0215, 8.0292]
    assert any("splitting the budget" in n for n in res.notes)
    assert F(80214, 10000) < res.ratio_lower <= res.ratio_upper < res.ratio_lower * F(1001, 1000)
    assert res.ratio_upper < F(80292, 10000)


@pytest.mark.parametrize("alpha", [F(1, 2), F(3, 10), F(1, 10), F(2)])
def test_split_upper_is_not_below_a_witness(alpha):
    """split_upper (the budget-split upper end) is at least the exact ratio of the audit's verified witness for the
    same pair, for alpha <= 1/2 and for alpha = 2 (where the audit is tight to 20 digits): a variant that bounds the
    numerator at the interval's left end, or the denominator at its right end, falls below it."""
    phat = "0.1,0.2;0.3,0.4"
    ball = RenyiBall.from_radius(phat, alpha, F(1, 10))
    res = audit(_mech(A, 2, 2), "1", ball=ball)
    y, s1, s2 = res.argmax["y"], res.argmax["s"], res.argmax["s_prime"]
    Q = [[F(v) for v in r] for r in A]
    rows = [tuple(Q[y][s * 2:(s + 1) * 2]) for s in range(2)]
    hi = split_upper(PairProblem(ball, rows, y, s1, s2), 50)
    assert _witness_ratio(res, A, 2, 2, ball) == res.ratio_lower <= hi


def test_help_says_what_the_time_limit_does_not_interrupt(capsys):
    """--time-limit is checked between steps; `audit --help` says which steps run to completion (a single arb or
    mpmath evaluation, the screen's tables, the closing exact steps) and that the audit can end after the limit."""
    from rldp_verify.cli import main

    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "checked between steps" in out and "one step is not interrupted" in out
    assert "can end later than the limit" in out
