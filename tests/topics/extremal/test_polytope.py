"""Exact vertex enumeration (rldp_verify.topics.extremal.polytope)."""

from fractions import Fraction

import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.topics.extremal.polytope import (
    approx_ldp_binary_vertices,
    exact_feasible_point,
    is_staircase,
    ldp_polytope_vertices,
    lp_polytope_vertices,
    nonzero_columns,
)


@pytest.mark.parametrize("l", [1, 2, 3, 4, 5])
def test_k2_vertex_count_is_l_squared(l):
    # independent count for k = 2: a vertex is one constant column (l choices) or an ordered pair of
    # distinct outputs carrying the two binary patterns (l(l-1) choices)
    V = ldp_polytope_vertices(2, l, Fraction(3))
    assert len(V) == l * l
    assert all(is_staircase(Q, Fraction(3)) and nonzero_columns(Q) <= 2 for Q in V)


def test_lp_polytope_k2_has_three_vertices():
    # {theta_00 = 1}, {theta_11 = 1/t}, {theta_01 = theta_10 = 1/(1+t)}
    t = Fraction(2)
    V = sorted(lp_polytope_vertices(2, t))
    assert len(V) == 3
    assert (Fraction(0), Fraction(1, 3), Fraction(1, 3), Fraction(0)) in V


def test_vertices_have_at_most_k_nonzero_columns():
    for k, l in ((3, 4), (4, 3)):
        V = ldp_polytope_vertices(k, l, Fraction(5, 2))
        assert max(nonzero_columns(Q) for Q in V) <= k


def test_enumeration_refuses_large_instances():
    with pytest.raises(InputError):
        ldp_polytope_vertices(5, 5, Fraction(2))


def test_exact_feasible_point():
    x = exact_feasible_point([[Fraction(1), Fraction(1)]], [Fraction(1)], 2)
    assert x is not None and sum(x) == 1 and min(x) >= 0
    assert exact_feasible_point([[Fraction(1), Fraction(1)]], [Fraction(-1)], 2) is None


def test_approx_ldp_vertices_are_private_and_delta_zero_recovers_pure():
    t, d = Fraction(2), Fraction(1, 10)
    V = approx_ldp_binary_vertices(2, t, d)
    for Q in V:
        assert all(Q[a][y] <= t * Q[b][y] + d for y in range(2) for a, b in ((0, 1), (1, 0)))
    assert len(approx_ldp_binary_vertices(2, t, Fraction(0))) == len(ldp_polytope_vertices(2, 2, t))


@pytest.mark.slow
def test_exhaustive_vertex_enumeration_bounds():
    for k, l in ((3, 5), (4, 4)):
        V = ldp_polytope_vertices(k, l, Fraction(2))
        assert all(is_staircase(Q, Fraction(2)) and nonzero_columns(Q) <= k for Q in V)
