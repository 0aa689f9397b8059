"""Known answers for the public API (Examples 3-5 of 000_aca93ed29ea857ee.txt) and small helpers."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.mechanisms import (
    check_gamma,
    exact_level,
    grr,
    lower_bounds,
    nonrobust,
    polyopt,
    privacy_level,
    realized_eps,
    srr,
)
from rldp_verify.rldp.uncertainty import RenyiBall

PHAT = [["0.07", "0.10"], ["0.26", "0.57"]]
PSTAR = [Fraction(1, 10), Fraction(1, 10), Fraction(2, 10), Fraction(6, 10)]


def test_example4_exact_matrices():
    assert grr(PHAT, "log(2)").matrix[0] == (Fraction(2, 5), Fraction(1, 5), Fraction(1, 5), Fraction(1, 5))
    assert srr(PHAT, "log(2)").matrix[0] == (Fraction(4, 9), Fraction(1, 9), Fraction(2, 9), Fraction(2, 9))
    m = srr(PHAT, "log(2)")
    assert abs(m.mutual_information(PHAT, dps=30) - mpmath.mpf("0.1005")) < 5e-5
    assert abs(m.mutual_information(PSTAR, dps=30) - mpmath.mpf("0.0942")) < 5e-5


def test_rounding_direction():
    lv = privacy_level("1")
    with mpmath.workdps(40):
        r = mpmath.mpf(lv.exp_eps.numerator) / lv.exp_eps.denominator
        assert not lv.exact and r < mpmath.e and r > mpmath.e - mpmath.mpf(10) ** -11
    assert privacy_level("log(3/2)").exp_eps == Fraction(3, 2)
    assert privacy_level(0).exp_eps == 1
    ball = RenyiBall.from_confidence(PHAT, 2, "0.95", 100)
    L = lower_bounds(ball)
    for s in range(2):
        for u in range(2):
            assert L[s][u] <= ball.lower_certified(u, s)


def test_polyopt_records_rounding_and_guarantee():
    ball = RenyiBall.from_confidence(PHAT, 2, "0.95", 100)
    m = polyopt(ball, "0.7")
    p = m.parameters
    assert p["exp_eps_exact"] is False and "rounding" in p and p["lower_rounding"]
    L = [[Fraction(x) for x in row] for row in p["lower_bounds"]]
    assert check_gamma(m, L, exact_level(Fraction(p["exp_eps_used"]))).holds is True
    assert check_gamma(m, L, "0.7").holds is True


def test_realized_eps():
    ball = RenyiBall.from_confidence(PHAT, 2, "0.95", 100)
    assert realized_eps(polyopt(ball, "log(2)"), PSTAR) <= math.log(2)
    assert realized_eps(nonrobust(PHAT, "log(2)"), PSTAR) > math.log(2)
    Q = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    assert realized_eps(Q, [Fraction(1, 2), Fraction(1, 2)], 2, 1) == mpmath.inf
    with pytest.raises(InputError):
        realized_eps(Q, [Fraction(1, 2)], 2, 1)
