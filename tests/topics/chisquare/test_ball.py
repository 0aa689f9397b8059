"""Tests of rldp_verify.topics.chisquare.ball (Theorems 2-4 and Lemma 8 of 003)."""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
from hypothesis import HealthCheck, example, given, settings

from rldp_verify.core.errors import InputError
from rldp_verify.topics.chisquare.ball import (
    ball_objective,
    chi2_divergence,
    chi2_radius,
    conjugate_h,
    joint_objective,
    joint_projection_bound,
    joint_projection_lhs,
    lift_to_ball,
    support_ball,
    support_joint_projection,
)
from tests.strategies import ball_instance, joint_instance

DPS = 30


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator if isinstance(q, Fraction) else mpmath.mpf(q)


def _random_point_in_ball(P_hat, B, rnd):
    """A random P in F: mix P_hat with a random distribution and shrink until the divergence is <= B."""
    q = [Fraction(rnd.randint(1, 20)) for _ in P_hat]
    t = sum(q)
    q = [x / t for x in q]
    theta = Fraction(1)
    while True:
        P = [(1 - theta) * a + theta * b for a, b in zip(P_hat, q, strict=True)]
        if chi2_divergence(P, P_hat) <= B:
            return P
        theta /= 2


@settings(max_examples=25, deadline=None)
@given(ball_instance())
@example(([Fraction(8, 10), Fraction(-7, 10)], [Fraction(1), Fraction(0)], Fraction(3, 10)))  # flat P_hat
def test_support_ball_bounds_every_point_and_is_attained(inst):
    v, P_hat, B = inst
    with mpmath.workdps(DPS):
        res = support_ball(v, P_hat, B)
        # attained: the witness is in F (up to rounding) and reaches the value
        P = res.P_star
        assert chi2_divergence(P, [mpmath.mpf(x.numerator) / x.denominator for x in P_hat]) <= \
            mpmath.mpf(B.numerator) / B.denominator + mpmath.mpf(10) ** (-DPS + 8)
        assert abs(mpmath.fsum(mpmath.mpf(a.numerator) / a.denominator * b for a, b in zip(v, P, strict=True)) - res.value) \
            < mpmath.mpf(10) ** (-DPS + 8)
        # an upper bound of v.P for random P in F
        rnd = random.Random(str(inst))
        for _ in range(5):
            Q = _random_point_in_ball(P_hat, B, rnd)
            assert _mp(sum(a * b for a, b in zip(v, Q, strict=True))) <= res.value + mpmath.mpf(10) ** (-DPS + 8)
        # eq. (21) at the returned point equals the value
        assert abs(ball_objective(v, [res.M] * len(v), res.c, P_hat, B) - res.value) < mpmath.mpf(10) ** (-DPS + 8)


def test_support_ball_constant_payoff_is_the_constant():
    with mpmath.workdps(DPS):
        assert support_ball([2, 2, 2], ["1/2", "1/4", "1/4"], "1/10").value == 2


def test_ball_objective_is_an_upper_bound_weak_duality():
    v, P_hat, B = [Fraction(1), Fraction(-1), Fraction(1, 2)], [Fraction(1, 3)] * 3, Fraction(1, 5)
    rnd = random.Random(1)
    with mpmath.workdps(DPS):
        value = support_ball(v, P_hat, B).value
        for _ in range(20):
            w = [x + Fraction(rnd.randint(0, 30), 10) for x in v]
            c = Fraction(rnd.randint(0, 40), 10)
            assert ball_objective(v, w, c, P_hat, B) >= value - mpmath.mpf(10) ** (-DPS + 8)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(joint_instance())
def test_support_joint_projection_bounds_conditionals_of_points_in_F(inst):
    v1, v2, table, B = inst
    with mpmath.workdps(DPS):
        res = support_joint_projection(v1, v2, table[0], table[1], B)
        flat_hat = [x for r in table for x in r]
        rnd = random.Random(str(inst))
        for _ in range(4):
            P = _random_point_in_ball(flat_hat, B, rnd)
            n_u = len(v1)
            rows = [P[s * n_u:(s + 1) * n_u] for s in range(2)]
            val = sum(a * b for a, b in zip(v1, rows[0], strict=True)) / sum(rows[0]) + \
                sum(a * b for a, b in zip(v2, rows[1], strict=True)) / sum(rows[1])
            assert _mp(val) <= res.value + mpmath.mpf(10) ** (-DPS + 8)
        assert abs(joint_objective(v1, v2, [res.M1] * len(v1), [res.M2] * len(v1), res.c, table[0], table[1], B)
                   - res.value) < mpmath.mpf(10) ** (-DPS + 8)


def test_support_joint_projection_attained_by_the_lift():
    table = [[Fraction(1, 10), Fraction(2, 10)], [Fraction(3, 10), Fraction(1, 10)], [Fraction(2, 10), Fraction(1, 10)]]
    v1, v2, B = [Fraction(1), Fraction(0)], [Fraction(-1, 2), Fraction(-3, 2)], Fraction(1, 10)
    with mpmath.workdps(40):
        res = support_joint_projection(v1, v2, table[0], table[1], B)
        P = lift_to_ball(res.R1, res.R2, table, 0, 1)
        chi = chi2_divergence([x for r in P for x in r], [x for r in table for x in r])
        assert chi <= B + mpmath.mpf(10) ** -30
        attained = sum(float(a) * b for a, b in zip(v1, res.R1, strict=True)) + sum(float(a) * b for a, b in zip(v2, res.R2, strict=True))
        assert abs(attained - res.value) < 1e-25
        assert joint_projection_lhs(res.R1, res.R2, table[0], table[1]) <= \
            joint_projection_bound(table[0], table[1], B) + mpmath.mpf(10) ** -30


def test_support_joint_projection_constant_vectors():
    with mpmath.workdps(DPS):
        a = ["1/4", "1/4"]
        assert support_joint_projection(["1/2", "1/2"], ["1/2", "1/2"], a, a, "1/10").value == 1


def test_conjugate_h_matches_direct_sup_and_is_infinite_for_positive_v():
    with mpmath.workdps(DPS):
        kap, v = [Fraction(1, 2), Fraction(1, 3)], [Fraction(-1), Fraction(-2)]
        lam = mpmath.mpf(1) / 2 + mpmath.sqrt(2) / 3
        assert abs(conjugate_h(v, kap) + 3 * mpmath.mpf(2) ** (-mpmath.mpf(2) / 3) * lam ** (mpmath.mpf(2) / 3)) \
            < mpmath.mpf(10) ** -25
        # direct: sup over x on the family x = c kappa / sqrt(-v) and a grid around it never beats it
        best = -mpmath.inf
        for i in range(1, 200):
            for j in range(1, 60):
                x = [mpmath.mpf(i) / 100, mpmath.mpf(j) / 30]
                val = sum(_mp(a) * b for a, b in zip(v, x, strict=True)) - mpmath.sqrt(sum(_mp(k) ** 2 / y for k, y in zip(kap, x, strict=True)))
                best = max(best, val)
        assert best <= conjugate_h(v, kap) + mpmath.mpf(10) ** -20
        assert best >= conjugate_h(v, kap) - mpmath.mpf("0.01")
        assert conjugate_h([Fraction(1, 10), -1], [1, 1]) == mpmath.inf


def test_chi2_radius_matches_scipy_and_validates():
    from scipy.stats import chi2

    assert chi2_radius(75, 15, 0.05) == pytest.approx(chi2.ppf(0.95, 14) / 75, rel=1e-15)
    with pytest.raises(InputError, match="alpha"):
        chi2_radius(75, 15, 1.5)
    with pytest.raises(InputError, match="n="):
        chi2_radius(0, 15, 0.05)


@pytest.mark.parametrize("call, match", [
    (lambda: support_ball([1, 2], ["1/2", "1/2", "0"], "1/10"), "cells"),
    (lambda: support_ball([1, 2], ["1/2", "-1/2"], "1/10"), "negative"),
    (lambda: support_ball([1, 2], ["1/2", "1/4"], "1/10"), "sum to 1"),
    (lambda: support_ball([1, 2], ["1/2", "1/2"], "0"), "B="),
    (lambda: support_joint_projection([1], [1, 2], ["1/4"], ["1/4", "1/4"], "1/10"), "length"),
    (lambda: lift_to_ball(["1/2", "1/2"], ["1/2", "1/2"], [[0, 0], ["1/2", "1/2"]], 0, 1), "marginal"),
    (lambda: conjugate_h([1, "x"], [1, 1]), "not a number"),
])
def test_bad_input_raises_input_error(call, match):
    with pytest.raises(InputError, match=match):
        call()


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(joint_instance(max_u=5))
def test_support_joint_projection_exhaustive(inst):
    test_support_joint_projection_bounds_conditionals_of_points_in_F.hypothesis.inner_test(inst)
