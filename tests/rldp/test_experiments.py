"""Tests of rldp_verify.rldp.experiments (float helpers for the Sec. 8 experiment claims)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import entropy_float, mutual_information_float, nmi_float
from rldp_verify.rldp.experiments import (
    draw_dirichlet,
    exact_distribution,
    ir_float_matrix,
    ir_split_search,
    quantile,
    quantile_summary,
    sample_counts,
)
from rldp_verify.rldp.mechanisms import grr_matrix, ir_matrix, mutual_information_value, optimise_eps2, srr_matrix


@given(st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False), min_size=1, max_size=12)
       .filter(lambda w: sum(w) > 0))
def test_exact_distribution_sums_to_one(w):
    p = exact_distribution(w)
    assert sum(p) == 1
    assert all(isinstance(x, Fraction) and x >= 0 for x in p)
    # proportional to the weights (exact)
    i = max(range(len(w)), key=lambda k: w[k])
    for x, wx in zip(p, w, strict=True):
        assert x * Fraction(w[i]) == p[i] * Fraction(wx)


@pytest.mark.parametrize("bad", [[0.0, 0.0], [1.0, -0.5], [1.0, float("nan")], [float("inf")]])
def test_exact_distribution_rejects(bad):
    with pytest.raises(InputError):
        exact_distribution(bad)


def test_sample_counts_shape_and_total():
    rng = np.random.default_rng(1)
    p = draw_dirichlet(rng, 6, 0.5)
    c = sample_counts(rng, p, 1000, 2, 3)
    assert len(c) == 2 and all(len(r) == 3 for r in c)
    assert sum(map(sum, c)) == 1000
    with pytest.raises(InputError):
        sample_counts(rng, p, 1000, 3, 3)
    with pytest.raises(InputError):
        sample_counts(rng, p, 0, 2, 3)
    with pytest.raises(InputError):
        draw_dirichlet(rng, 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(0, 10**6), st.sampled_from(["1", "3/2", "3", "7"]))
def test_mutual_information_float_matches_mpmath(a1, a2, seed, r):
    rng = np.random.default_rng(seed)
    p = exact_distribution(draw_dirichlet(rng, a1 * a2, 0.5))
    for Q in (grr_matrix(a1 * a2, Fraction(r)), srr_matrix(a1, a2, Fraction(r))):
        want = mutual_information_value(Q, list(p), dps=40)
        got = mutual_information_float(Q, p)
        assert abs(got - float(want)) <= 1e-12 * max(1.0, abs(float(want)))


def test_nmi_and_entropy_known_values():
    p = [0.25] * 4
    assert entropy_float(p) == pytest.approx(math.log(4), rel=1e-15)
    identity = np.eye(4)
    assert nmi_float(identity, p) == pytest.approx(1.0, rel=1e-14)
    assert nmi_float(np.full((1, 4), 1.0), p) == 0.0
    assert nmi_float(identity, [1.0, 0, 0, 0]) == 0.0


def test_ir_float_matrix_matches_exact():
    Q = ir_float_matrix(2, 3, 3.0, 1.5, 0.8)
    e2 = 1 + 2 * (Fraction(3, 2) - 1) / Fraction(4, 5)
    E = ir_matrix(2, 3, Fraction(2), e2)
    assert np.max(np.abs(Q - np.array(E, dtype=float))) < 1e-15
    assert np.allclose(Q.sum(axis=0), 1.0)
    # d = 0: the public part is released exactly
    Q0 = ir_float_matrix(2, 2, 2.0, 1.5, 0)
    assert np.allclose(Q0, np.kron(np.array([[4 / 7, 3 / 7], [3 / 7, 4 / 7]]), np.eye(2)))


def test_ir_split_search_against_certified_bracket():
    table = ((Fraction(1, 10), Fraction(1, 5)), (Fraction(3, 10), Fraction(2, 5)))
    p = [v for r in table for v in r]
    r, d = Fraction(3), Fraction(7, 5)
    t, Q, val = ir_split_search(p, 2, 2, r, d)
    assert 1 <= t <= 3
    opt = optimise_eps2(table, r, d)
    # the float search never beats the certified upper bound and gets within 1e-9 of the certified lower
    assert val <= float(opt.upper) + 1e-12
    assert val >= float(opt.lower) - 1e-9
    assert val == pytest.approx(mutual_information_float(Q, p), rel=1e-15)
    with pytest.raises(InputError):
        ir_split_search(p, 2, 2, 0.5, d)
    with pytest.raises(InputError):
        ir_split_search(p, 2, 2, r, -1)


def test_quantile_summary():
    s = quantile_summary([[1, 2, 3, 4, 5], [2, 3, 4, 5, 6]], 0.75)
    assert s["per_batch"] == [4.0, 5.0]
    assert s["min"] == 4.0 and s["max"] == 5.0 and s["mean"] == 4.5
    assert s["sd"] == pytest.approx(math.sqrt(0.5))
    with pytest.raises(InputError):
        quantile_summary([[1.0]], 1.5)
    with pytest.raises(InputError):
        quantile_summary([[]], 0.5)


@pytest.mark.parametrize("r", [3.0, 1.0, 1.0778, 20.085536923187668, math.exp(0.075)])
def test_ir_split_search_stays_in_range(r):
    # regression: exp(log r) rounded above r, giving e^eps1 = r / t < 1
    p = [0.1, 0.2, 0.3, 0.4]
    t, Q, _ = ir_split_search(p, 2, 2, r, 1.3)
    assert 1.0 <= t <= r
    assert np.all(Q >= 0) and np.allclose(Q.sum(axis=0), 1.0)


@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=30),
       st.floats(min_value=0, max_value=1))
def test_quantile_matches_numpy_on_finite(v, q):
    assert quantile(v, q) == pytest.approx(float(np.quantile(v, q)), rel=1e-12, abs=1e-9)


def test_quantile_with_infinities():
    inf = math.inf
    assert quantile([1, 2, inf, inf], 0.75) == inf        # numpy gives nan here
    assert quantile([1, 2, 3, inf], 0.5) == 2.5
    assert quantile([1, 2, 3, inf], 1.0) == inf
    assert quantile([1, inf], 0.0) == 1
    with pytest.raises(InputError):
        quantile([], 0.5)
    with pytest.raises(InputError):
        quantile([1.0, float("nan")], 0.5)
    s = quantile_summary([[1, inf, inf, inf], [1, 2, 3, 4]], 0.75)
    assert s["per_batch"][0] == inf and s["max"] == inf and s["mean"] == 3.25
