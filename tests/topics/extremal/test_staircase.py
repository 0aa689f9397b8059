"""Engine tests: pattern matrix, certified staircase LP (rldp_verify.topics.extremal.staircase)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from proofs.kairouz.thm4_staircase_lp import cdd_lp_value
from rldp_verify.core.errors import InputError
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.polytope import ldp_polytope_vertices
from rldp_verify.topics.extremal.staircase import (
    pattern_index,
    pattern_matrix,
    pattern_set,
    solve_exact_matrix,
    solve_staircase_lp,
)
from rldp_verify.topics.extremal.utilities import (
    binary_mechanism,
    is_ldp,
    is_stochastic,
    mu_chi2,
    mu_kl,
    mu_tv,
    randomized_response,
    utility,
)
from tests.strategies import extremal_distribution_pair as distribution_pair
from tests.strategies import t_values


def test_pattern_matrix_reproduces_printed_S3():
    t = Fraction(5)
    S = pattern_matrix(3, t)
    rows = [[S[j][i] for j in range(8)] for i in range(3)]
    assert rows[0] == [1, 1, 1, 1, t, t, t, t]
    assert rows[1] == [1, 1, t, t, 1, 1, t, t]
    assert rows[2] == [1, t, 1, t, 1, t, 1, t]


@given(st.integers(1, 8), st.data())
def test_pattern_index_inverts_pattern_set(k, data):
    j = data.draw(st.integers(0, 2**k - 1))
    assert pattern_index(pattern_set(j, k), k) == j


@pytest.mark.parametrize("bad", [Fraction(1, 2), Fraction(-3)])
def test_t_below_one_is_rejected(bad):
    with pytest.raises(InputError, match="t = e\\^eps"):
        pattern_matrix(3, bad)


def test_t_equal_one_and_bad_shapes_are_rejected():
    with pytest.raises(InputError):
        solve_staircase_lp(3, Fraction(1), [Fraction(0)] * 8)
    with pytest.raises(InputError, match="expected 2\\^k"):
        solve_staircase_lp(3, Fraction(2), [Fraction(0)] * 7)
    with pytest.raises(InputError):
        pattern_matrix(17, Fraction(2))
    with pytest.raises(TypeError):
        pattern_matrix(3, 2.0)


def test_solve_exact_matrix_rejects_singular():
    with pytest.raises(ValueError):
        solve_exact_matrix([[Fraction(1), Fraction(2)], [Fraction(2), Fraction(4)]], [Fraction(1), Fraction(1)])


@settings(max_examples=25)
@given(distribution_pair(), t_values)
def test_exact_lp_matches_cdd_and_dominates_binary_and_rr(pair, t):
    P0, P1 = pair
    k = len(P0)
    for mu in (mu_chi2(P0, P1), mu_tv(P0, P1)):
        sol = solve_staircase_lp(k, t, mu)
        assert sol.exact and sol.gap == 0
        assert sol.value == cdd_lp_value(k, t, [mu(c) for c in pattern_matrix(k, t)])
        Q = sol.mechanism()
        assert is_stochastic(Q) and is_ldp(Q, t) and len(Q[0]) <= k
        assert utility(Q, mu) == sol.value
        assert sol.value >= utility(binary_mechanism(P0, P1, t), mu)
        assert sol.value >= utility(randomized_response(k, t), mu)


@settings(max_examples=15)
@given(distribution_pair(max_size=3), t_values)
def test_certified_kl_optimum_bounds_every_vertex_mechanism(pair, t):
    P0, P1 = pair
    k = len(P0)
    with arb_precision(40):
        mu = mu_kl(P0, P1)
        sol = solve_staircase_lp(k, t, mu)
        for V in ldp_polytope_vertices(k, k + 1, t):
            assert not (utility(V, mu) > sol.value)  # never certainly above the certified optimum


def test_tv_optimum_closed_form():
    P0 = (Fraction(1, 2), Fraction(1, 4), Fraction(1, 4))
    P1 = (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    t = Fraction(3)
    sol = solve_staircase_lp(3, t, mu_tv(P0, P1))
    assert sol.value == (t - 1) / (t + 1) * Fraction(1, 4)
