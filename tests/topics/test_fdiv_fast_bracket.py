"""Engine tests: the Newton route of binary_min and binary_min_bracket (rldp_verify.topics.fdiv) against the
bisection they replaced (binary_min with explicit ``iters``) and the exact minimiser of alpha = 2."""

from fractions import Fraction as F

import mpmath
import pytest

from rldp_verify.core.numbers import working_precision
from rldp_verify.topics.fdiv import binary_min, binary_min_bracket, g_alpha, psi_alpha

TS = [F(1, 10**12), F(1, 1000), F(1, 7), F(3, 10), F(1, 3) - F(1, 10**9), F(1, 2) - F(1, 10**15), F(9, 10)]


@pytest.mark.parametrize("alpha", [2, 3, 5, 17, 32])
@pytest.mark.parametrize("t", TS)
def test_bracket_contains_the_bisected_minimum(alpha, t):
    lower, upper, p = binary_min_bracket(t, alpha)
    assert lower <= upper == psi_alpha(p, t, alpha)
    with working_precision(80):
        m, _ = binary_min(t, alpha, dps=80, iters=400)     # the bisection route
        tol = mpmath.mpf(10) ** -75 + abs(m) * mpmath.mpf(10) ** -70   # the bisection's own rounding
        assert mpmath.mpf(lower.numerator) / lower.denominator <= m + tol
        assert m <= mpmath.mpf(upper.numerator) / upper.denominator + tol
        if upper:
            assert (upper - lower) / upper < F(1, 10**20)
    if alpha == 2 and t < F(1, 2):                         # tight: p* = 1/2 - t exactly, lower = upper = g
        assert p == F(1, 2) - t and lower == upper == g_alpha(t, 2)


@pytest.mark.parametrize("alpha", ["1.01", "1.5", "3.7", "50.5"])
def test_newton_minimum_matches_bisection(alpha):
    a = F(alpha)
    with working_precision(50):
        for t in (F(1, 10**6), F(1, 5), 1 / a - F(1, 10**8)):
            if not 0 < t < 1:
                continue
            new, p_new = binary_min(t, a, dps=50)
            old, p_old = binary_min(t, a, dps=50, iters=200)
            assert abs(new - old) <= abs(old) * mpmath.mpf(10) ** -40
