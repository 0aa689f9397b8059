"""Thresholds: closed form of Lemma 24, RR / binary status, bracketing (rldp_verify.topics.extremal.thresholds)."""

from fractions import Fraction

import pytest
from hypothesis import example, given, settings

from rldp_verify.topics.extremal.staircase import pattern_column, pattern_set
from rldp_verify.topics.extremal.thresholds import (
    OPTIMAL,
    SUBOPTIMAL,
    binary_status,
    bracket_threshold,
    default_grid,
    log_bounds,
    rr_status,
    universal_binary_threshold,
)
from rldp_verify.topics.extremal.utilities import binary_set_hypothesis, dot, mu_kl, mu_mi
from tests.strategies import extremal_distribution_pair as distribution_pair


def _all_ratios_within(P0, P1, t):
    k = len(P0)
    T = binary_set_hypothesis(P0, P1)
    Tc = frozenset(range(k)) - T
    def r(A):
        return dot(P0, pattern_column(A, k, t)) / dot(P1, pattern_column(A, k, t))
    lo, hi = r(Tc), r(T)
    return all(lo <= r(pattern_set(j, k)) <= hi for j in range(2**k))


@settings(max_examples=40)
@given(distribution_pair(min_size=2, max_size=5))
@example(((Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))))
def test_universal_threshold_is_exact(pair):
    P0, P1 = pair
    u = universal_binary_threshold(P0, P1)
    if u.a_star is None:
        assert _all_ratios_within(P0, P1, Fraction(10**6))
        return
    assert _all_ratios_within(P0, P1, 1 + u.a_star)
    assert not _all_ratios_within(P0, P1, 1 + u.a_star * (1 + Fraction(1, 10**6)) + Fraction(1, 10**12))


def test_tie_gives_zero_threshold():
    P0 = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    P1 = (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    assert universal_binary_threshold(P0, P1).a_star == 0


def test_k2_rr_always_optimal_for_kl():
    P0, P1 = (Fraction(1, 3), Fraction(2, 3)), (Fraction(3, 4), Fraction(1, 4))
    for t in (Fraction(11, 10), Fraction(3), Fraction(10**5)):
        assert rr_status(mu_kl(P0, P1), 2, t).status == OPTIMAL


def test_bracket_ends_have_opposite_certified_status():
    P0 = (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5))
    P1 = (Fraction(1, 10), Fraction(2, 5), Fraction(1, 2))
    mu = mu_kl(P0, P1)
    br = bracket_threshold(lambda t: rr_status(mu, 3, t), "rr", default_grid(0.05, 30, 1.5), tol=1e-4)
    assert br.kind == "bisected"
    assert rr_status(mu, 3, br.t_lo).status == SUBOPTIMAL
    assert rr_status(mu, 3, br.t_hi).status == OPTIMAL
    lo, hi = br.eps_bracket()
    assert 0 < hi - lo < 2e-4
    T = binary_set_hypothesis(P0, P1)
    bb = bracket_threshold(lambda t: binary_status(mu, 3, t, T), "binary", default_grid(0.05, 30, 1.5), tol=1e-4)
    assert binary_status(mu, 3, bb.t_lo, T).status == OPTIMAL
    assert binary_status(mu, 3, bb.t_hi, T).status == SUBOPTIMAL


def test_mi_rr_threshold_exists():
    P = (Fraction(2, 5), Fraction(3, 10), Fraction(1, 5), Fraction(1, 10))
    br = bracket_threshold(lambda t: rr_status(mu_mi(P), 4, t), "rr", default_grid(0.05, 30, 1.5), tol=1e-3)
    assert br.kind == "bisected"


def test_log_bounds_round_outward():
    lo, hi = log_bounds(Fraction(17, 7))
    import math
    assert lo <= math.log(17 / 7) <= hi and hi - lo < 1e-9


def test_bad_regime_rejected():
    from rldp_verify.core.errors import InputError
    with pytest.raises(InputError):
        bracket_threshold(lambda t: None, "sideways")
