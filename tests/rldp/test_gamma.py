"""rldp_verify.rldp.gamma: every fast enumeration equals the plain cdd double description exactly."""

from fractions import Fraction

import pytest
from hypothesis import example, given, settings

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.gamma import block_vertices, gamma_hat_vertices, gamma_inequalities
from tests.strategies import exp_eps_values, lower_tables

F = Fraction
EX1_L = [[F("0.1620"), F("0.2829")], [F("0.1923"), F("0.5337")]]


def _feasible(v, L, e, same):
    A, b = gamma_inequalities(L, e, include_same_s=same)
    return sum(v) == 1 and all(sum(x * y for x, y in zip(r, v, strict=True)) <= bi for r, bi in zip(A, b, strict=True))


def test_inequality_count_and_rows():
    A, b = gamma_inequalities(EX1_L, F(2))
    assert len(A) == 4 + 16 and all(x == 0 for x in b)
    # row (s1,u1,s2,u2) = (0,0,1,1): v00 - 2 v11 + L00(v00-v00) + L10(v01-v00) - 2[L01(v10-v11) + L11(v11-v11)]
    r = A[4 + 0 * 8 + 0 * 4 + 1 * 2 + 1]
    L = EX1_L
    want = [1 - L[0][1], L[0][1], -2 * L[1][0], -2 + 2 * L[1][0]]
    assert r == want
    A2, _ = gamma_inequalities(EX1_L, F(2), include_same_s=False)
    assert len(A2) == 4 + 8


def test_example3_vertex_count():
    # Example 3 (eps = log 2, Example 2's printed L): V has 16 rows
    for m in ("cdd", "cdd-reduced", "lrs", "product"):
        V = gamma_hat_vertices(EX1_L, F(2), method=m)
        assert len(V) == 16
        assert all(_feasible(v, EX1_L, F(2), True) for v in V)


@settings(max_examples=25, deadline=None)
@given(lower_tables(max_a1=3, max_a2=3, max_a=6), exp_eps_values)
@example([[F(0)], [F(0)]], F(2))
@example([[F(1, 2), F(1, 2)], [F(0), F(1, 10)]], F(3, 2))  # c_s = 0 in one block
def test_fast_methods_equal_cdd(L, e):
    base = set(gamma_hat_vertices(L, e, method="cdd"))
    assert set(gamma_hat_vertices(L, e, method="cdd-reduced")) == base
    assert set(gamma_hat_vertices(L, e)) == base
    if len(L) >= 2 and all(sum(r) < 1 for r in L):
        assert set(gamma_hat_vertices(L, e, method="product")) == base


@settings(max_examples=10, deadline=None)
@given(lower_tables(max_a1=3, max_a2=2, max_a=6), exp_eps_values)
def test_lrs_equals_cdd(L, e):
    for same in (True, False):
        base = set(gamma_hat_vertices(L, e, include_same_s=same, method="cdd"))
        assert set(gamma_hat_vertices(L, e, include_same_s=same, method="lrs")) == base


def test_product_at_nine_against_cdd():
    L = [[F(1, 10), F(2, 10), F(1, 20)], [F(3, 10), F(1, 10), F(0)], [F(1, 5), F(1, 5), F(1, 5)]]
    e = F(5, 4)
    assert gamma_hat_vertices(L, e, method="product") == gamma_hat_vertices(L, e, method="cdd")


def test_product_sorted_and_normalised():
    V = gamma_hat_vertices(EX1_L, F(3), method="product")
    assert sorted(V) == V and all(sum(v) == 1 for v in V)


def test_block_vertices_box():
    # L = 0: the block polytope is the box [1, e]^U
    V = block_vertices([F(0), F(0)], F(2))
    assert set(V) == {(F(1), F(1)), (F(1), F(2)), (F(2), F(1)), (F(2), F(2))}


@pytest.mark.parametrize("L,e,msg", [
    ([[F(-1, 10)]], F(2), "negative"),
    ([[F(6, 10), F(6, 10)]], F(2), "sums to"),
    ([[F(1, 10)], [F(1, 10), F(0)]], F(2), "row 1"),
    ([[F(1, 10)]], F(1, 2), "exp_eps"),
    ([], F(2), "is empty"),
])
def test_bad_input(L, e, msg):
    with pytest.raises(InputError, match=msg):
        gamma_inequalities(L, e)


def test_bad_method_and_product_preconditions():
    with pytest.raises(InputError, match="method"):
        gamma_hat_vertices(EX1_L, F(2), method="magic")
    with pytest.raises(InputError, match="product"):
        gamma_hat_vertices(EX1_L, F(2), include_same_s=False, method="product")


def test_floats_refused():
    with pytest.raises((TypeError, InputError)):
        gamma_inequalities([[0.1, 0.2], [0.1, 0.2]], F(2))


@pytest.mark.slow
def test_product_equals_cdd_at_ten_and_twelve():
    import random
    rng = random.Random(7)
    for a1, a2 in ((2, 5), (5, 2), (3, 4)):
        L = [[F(rng.randint(0, 15), 100) for _ in range(a2)] for _ in range(a1)]
        e = F(3, 2)
        assert gamma_hat_vertices(L, e, method="product") == gamma_hat_vertices(L, e, method="cdd-reduced")


@settings(max_examples=10, deadline=None)
@given(lower_tables(max_a1=3, max_a2=3, max_a=6), exp_eps_values)
def test_normaliz_equals_cdd(L, e):
    pytest.importorskip("PyNormaliz")
    for same in (True, False):
        base = set(gamma_hat_vertices(L, e, include_same_s=same, method="cdd"))
        assert set(gamma_hat_vertices(L, e, include_same_s=same, method="normaliz")) == base
