"""Interval-arithmetic proof that randomized response stays optimal for all eps >= eps_hi."""

from fractions import Fraction

from hypothesis import given, settings

from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.staircase import pattern_index, pattern_matrix, solve_exact_matrix
from rldp_verify.topics.extremal.tail import _h_all, _q, certify_rr_tail, kl_tail, mi_tail
from rldp_verify.topics.extremal.thresholds import OPTIMAL, rr_status
from rldp_verify.topics.extremal.utilities import mu_kl
from tests.strategies import extremal_distribution_pair as distribution_pair

P0 = (Fraction(1, 2), Fraction(3, 10), Fraction(1, 5))
P1 = (Fraction(1, 10), Fraction(2, 5), Fraction(1, 2))


@settings(max_examples=10)
@given(distribution_pair(min_size=3, max_size=4))
def test_h_over_s_equals_reduced_cost(pair):
    a, b = pair
    k = len(a)
    t = Fraction(7)
    with arb_precision(50):
        m = kl_tail(a, b)
        A = frozenset({0, 1})
        h = _h_all([m(frozenset({i})) for i in range(k)], {A: m(A)}, [A], k, 1 / t, 1 / t)[0] * _q(t)
        cols = pattern_matrix(k, t)
        mu = mu_kl(a, b)
        mus = [mu(c) for c in cols]
        basis = [pattern_index({i}, k) for i in range(k)]
        B = [[cols[j][i] for j in basis] for i in range(k)]
        alpha = solve_exact_matrix([[B[i][r] for i in range(k)] for r in range(k)], [mus[j] for j in basis])
        col = cols[pattern_index(A, k)]
        g = sum((alpha[i] * _q(col[i]) for i in range(1, k)), alpha[0] * _q(col[0])) - mus[pattern_index(A, k)]
        assert abs(h - g) < _q(Fraction(1, 10**30))


def test_tail_certificate_agrees_with_pointwise_status():
    assert certify_rr_tail(3, kl_tail(P0, P1), Fraction(1, 25))      # eps >= 3.22 > eps* = 3.2007
    assert not certify_rr_tail(3, kl_tail(P0, P1), Fraction(1, 20))  # eps = 3.0 < eps*: RR not optimal there
    for t in (Fraction(25), Fraction(10**3), Fraction(10**9)):
        assert rr_status(mu_kl(P0, P1), 3, t).status == OPTIMAL


def test_ratio_tie_tail_is_not_certified():
    a = (Fraction(3, 10), Fraction(3, 10), Fraction(2, 5))
    b = (Fraction(1, 5), Fraction(1, 5), Fraction(3, 5))
    assert not certify_rr_tail(3, kl_tail(a, b), Fraction(1, 10**6))


def test_mi_tail():
    P = (Fraction(2, 5), Fraction(3, 10), Fraction(1, 5), Fraction(1, 10))
    assert certify_rr_tail(4, mi_tail(P), Fraction(1, 8))
    assert not certify_rr_tail(4, mi_tail(P), Fraction(1, 2))
    assert not certify_rr_tail(4, mi_tail(P), Fraction(3, 2))  # outside (0, 1)
