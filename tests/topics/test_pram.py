"""Tests of rldp_verify.topics.pram (seed 002, PRAM under DP)."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.topics import pram
from tests.strategies import e_alphas, q_vectors, rational_distribution

F = Fraction


@st.composite
def instance(draw, interior=False, min_S=2, max_S=6):
    S = draw(st.integers(min_S, max_S))
    return S, draw(q_vectors(S, interior=interior)), draw(rational_distribution(size=S, allow_zero=True))


@given(instance())
def test_matrix_is_stochastic_and_marginal_is_pM(inst):
    S, q, p = inst
    M = pram.pram_matrix(q)
    assert all(sum(r) == 1 for r in M) and all(M[k][k] == q[k] for k in range(S))
    assert pram.marginal(p, q) == [sum(p[k] * M[k][j] for k in range(S)) for j in range(S)]


@given(instance())
def test_simplified_f_equals_mutual_information(inst):
    S, q, p = inst
    with working_precision(40):
        assert abs(pram.f_simplified(p, q) - pram.mi_pram(p, q)) < mpmath.mpf(10) ** -35
        assert pram.mi_pram(p, q) > -mpmath.mpf(10) ** -35


@given(instance(), e_alphas)
def test_linear_rows_are_the_dp_condition(inst, t):
    S, q, _ = inst
    assert pram.satisfies(pram.dp_rows(S, t), q) == pram.is_private(q, t)


@given(instance(interior=True), e_alphas)
def test_eq10_equals_dp_on_the_interior(inst, t):
    S, q, _ = inst
    assert pram.eq10_holds(q, t) == pram.is_private(q, t)


def test_dp_ratio_infinite_and_exact():
    assert pram.dp_ratio([F(1), F(1, 2)]) is None  # M[1][0] = 1/2 > 0 = M[0][1]... column 1 has a zero
    assert pram.dp_ratio([F(1, 2), F(1, 2)]) == 1
    assert pram.dp_ratio([F(2, 3), F(2, 3)]) == 2


def test_binary_vertices_and_mirror_system():
    t = F(2)
    assert pram.vertices(pram.dp_rows(2, t), 2) == sorted(
        [(F(0), F(1)), (F(1), F(0)), (F(1, 3), F(1, 3)), (F(2, 3), F(2, 3))])
    for S in (3, 4):
        assert pram.vertices(pram.paper_rows(S, t, eq15="mirror"), S) == pram.vertices(pram.dp_rows(S, t), S)
    # eq. (15) as printed cuts off the private uniform point when e^alpha < (S+1)/(S-1)
    assert not pram.satisfies(pram.paper_rows(3, F(3, 2), eq15="printed"), [F(1, 3)] * 3)
    assert pram.satisfies(pram.paper_rows(3, F(3, 2), eq15="mirror"), [F(1, 3)] * 3)
    assert pram.is_private([F(1, 3)] * 3, F(1))


def test_vertices_rechecks_and_edge_cases():
    with pytest.raises(CertificationError):  # x >= 0 only: unbounded
        pram.vertices([[F(0), F(1)]], 1)
    assert pram.vertices([[F(-1), F(1)], [F(0), F(-1)]], 1) == []  # x >= 1 and x <= 0
    with pytest.raises(InputError):
        pram.vertices([[F(0), F(1), F(2)]], 1)


def test_lp_max_is_exact():
    val, x = pram.lp_max([[F(0), F(1)], [F(1), F(-1)]], [F(0), F(3)], 1)  # max 3x on [0, 1]
    assert val == 3 and x == (F(1),)


def test_closed_forms_and_order():
    for S in (2, 3, 10):
        assert pram.v_alpha(S, F(1)) == pram.v_malpha(S, F(1)) == pram.v_min(S, F(1)) == pram.v_max(S, F(1)) == F(1, S)
        t = F(3)
        assert pram.v_min(S, t) < pram.v_malpha(S, t) < pram.v_alpha(S, t) < pram.v_max(S, t)
    assert pram.classify([F(3, 5)] * 3, 3, F(3)) == (pram.V_ALPHA,) * 3
    assert pram.classify([F(1, 2)], 3, F(3)) == (F(1, 2),)


def test_prop32_patterns_and_orbits():
    for S in (4, 5, 6):
        pats = pram.prop32_patterns(S)
        assert len(pats) == len(set(pats)) == 2**S
        distinct_p = [F(k, S * (S + 1) // 2) for k in range(1, S + 1)]
        assert set(pram.prop32_orbit_patterns(distinct_p)) == set(pats)
    # 29 equal entries: 60 orbit representatives (types 1-3: 2 x 30 counts minus 4; types 4-5: 4)
    p = [F(5, 100)] + [F(95, 100) / 29] * 29
    assert len(pram.prop32_orbit_patterns(p)) == 60


def test_prop32_vertex_set_small():
    t = F(2)
    V = set(pram.vertices(pram.dp_rows(5, t), 5))
    assert {tuple(pram.point(pat, 5, t)) for pat in pram.prop32_patterns(5)} == V


def test_best_points_matches_brute_force():
    S, t = 5, F(5, 2)
    V = pram.vertices(pram.dp_rows(S, t), S)
    p = [F(1, 2), F(1, 5), F(1, 10), F(1, 10), F(1, 10)]
    with working_precision(30):
        brute = max(pram.f_simplified(p, v) for v in V)
        vals, gap, _ = pram.best_points(p, {v: v for v in V})
        assert vals[0][0] == brute and gap >= 0
        fl = pram.f_float_many(p, V)
        assert max(abs(float(pram.f_simplified(p, v)) - x) for v, x in zip(V, fl, strict=True)) < 1e-12


@pytest.mark.parametrize("call", [
    lambda: pram.check_S(1), lambda: pram.check_t(F(1, 2)), lambda: pram.pram_matrix([F(3, 2), F(0)]),
    lambda: pram.marginal([F(1, 2), F(1, 3)], [F(1), F(0)]), lambda: pram.eq10_holds([F(0), F(1, 2)], F(2)),
    lambda: pram.paper_rows(3, F(2), eq15="other"), lambda: pram.prop32_threshold(3),
    lambda: pram.paper_rows(3, F(2), equations=(11,)),
])
def test_bad_input_raises_input_error(call):
    with pytest.raises(InputError):
        call()


def test_threshold_value():
    with working_precision(30):
        assert abs(pram.prop32_threshold(10) - (8 + mpmath.sqrt(60)) / 2) < mpmath.mpf(10) ** -25


@pytest.mark.slow
def test_prop32_vertex_set_S8():
    t = F(4)
    V = set(pram.vertices(pram.dp_rows(8, t), 8))
    assert {tuple(pram.point(pat, 8, t)) for pat in pram.prop32_patterns(8)} == V


def test_grad_f_matches_finite_differences():
    p = [F(1, 2), F(1, 3), F(1, 6)]
    q = [F(1, 2), F(1, 3), F(3, 5)]
    with working_precision(40):
        g = pram.grad_f(p, q)
        for k in range(3):
            fd = mpmath.diff(lambda h: pram.f_simplified(p, [to_mpf(x) + (h if i == k else 0)
                                                           for i, x in enumerate(q)]), 0)
            assert abs(fd - g[k]) < mpmath.mpf(10) ** -25


def test_edges_of_the_binary_quadrilateral():
    rows = pram.dp_rows(2, F(2))
    V = pram.vertices(rows, 2)  # (0,1), (1/3,1/3), (2/3,2/3), (1,0)
    E = set(pram.edges(rows, V, 2))
    assert {(0, 1), (0, 2), (1, 3), (2, 3)} == E  # (0,1) and (1,0) are opposite, so are the symmetric ones
