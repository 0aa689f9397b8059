"""Soundness under mutation: mechanisms exactly at their eps must never PASS after a 1e-9 push towards
violation (issue 4, Sec. 5)."""

from fractions import Fraction

import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.uncertainty import RenyiBall
from tests.rldp.audit.helpers import grr_matrix, mech, mutate, srr_matrix


@pytest.mark.parametrize("a1,a2,e", [(2, 2, Fraction(2)), (3, 2, Fraction(3, 2)), (2, 3, Fraction(5))])
def test_grr_ldp_boundary(a1, a2, e):
    Q = grr_matrix(a1 * a2, e)
    assert audit(mech(Q, a1, a2), f"log({e})", ldp=True).verdict == "PASS"
    # the diagonal entry of row 0 up, in column 0; the ratio Q[0|0]/Q[0|1] exceeds e
    bad = audit(mech(mutate(Q, 0, 0, 1), a1, a2), f"log({e})", ldp=True)
    assert bad.verdict == "FAIL"
    assert bad.ratio_lower > e


@pytest.mark.parametrize("a1,a2,e", [(2, 2, Fraction(2)), (3, 2, Fraction(3)), (2, 3, Fraction(3, 2))])
def test_srr_full_simplex_boundary(a1, a2, e):
    Q = srr_matrix(a1, a2, e)
    assert audit(mech(Q, a1, a2), f"log({e})", full_simplex=True).verdict == "PASS"
    # output (s1,u1): its entry at (s1,u2) is 1/(eC); the worst cross-s ratio is Q[y|s1,u1]/Q[y|s2,.] = e.
    bad = audit(mech(mutate(Q, 0, 0, 1), a1, a2), f"log({e})", full_simplex=True)
    assert bad.verdict != "PASS"


def test_srr_ball_with_empty_cell_boundary():
    # P^ has an empty cell, so F contains P with P_{u|s} = 0 there: SRR attains exactly e^eps over F
    e = Fraction(2)
    Q = srr_matrix(2, 2, e)
    phat = [[0, 5], [3, 4]]
    ball = RenyiBall.from_radius(phat, 2, Fraction(1, 10))
    ok = audit(mech(Q, 2, 2), "log(2)", ball=ball, dps=30)
    assert ok.verdict == "PASS"
    assert ok.ratio_upper == e  # certified exactly
    # y = (s1,u1): P(y|s2)/P(y|s1) = e when P_{U|s1} avoids the empty cell (s1,u1); push Q[y|s2,u1] up
    bad = audit(mech(mutate(Q, 0, 2, 1), 2, 2), "log(2)", ball=ball, dps=30)
    assert bad.verdict != "PASS"


@pytest.mark.parametrize("alpha", [Fraction(1), Fraction(2), Fraction(3, 4)])
def test_ball_exact_boundary_never_pass_below(alpha):
    """eps set exactly at the witnessed ratio (e^eps = lo) or slightly below it: never PASS, and FAIL below."""
    Q = [[Fraction(1, 2), Fraction(1, 5), Fraction(3, 10), Fraction(3, 5)],
         [Fraction(1, 2), Fraction(4, 5), Fraction(7, 10), Fraction(2, 5)]]
    ball = RenyiBall.from_radius([[3, 5], [4, 7]], alpha, Fraction(1, 20))
    r = audit(mech(Q, 2, 2), "1", ball=ball, dps=30)
    lo = r.ratio_lower
    at = audit(mech(Q, 2, 2), f"log({lo})", ball=ball, dps=30, max_dps=30)
    assert at.verdict != "FAIL"
    assert at.verdict == "INCONCLUSIVE" or at.ratio_upper == lo
    below = audit(mech(Q, 2, 2), f"log({lo * (1 - Fraction(1, 10**9))})", ball=ball, dps=30)
    assert below.verdict == "FAIL"
    # and the 1e-9 push of the matrix at the argmax pair towards violation
    y, s, _ = r.argmax["y"], r.argmax["s"], r.argmax["s_prime"]
    Qm = mutate(Q, y, s * 2, 1 - y)
    pushed = audit(mech(Qm, 2, 2), f"log({lo})", ball=ball, dps=30, max_dps=30)
    assert pushed.verdict != "PASS"
