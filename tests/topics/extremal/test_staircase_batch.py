"""Engine tests: the batched float screen of LP (11) (rldp_verify.topics.extremal.staircase.solve_staircase_lp_batch)
against the certified exact solver, its bound, its final bases and its input checks."""

import math
from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.topics.extremal.staircase import (
    certify_basis,
    pattern_matrix,
    pattern_matrix_float,
    pattern_subset_sums,
    solve_staircase_lp,
    solve_staircase_lp_batch,
)
from rldp_verify.topics.extremal.utilities import mu_kl, mu_tv


def _instances(rng, n, k):
    """n seeded pairs (P0, P1) with rational entries (exact for the certified solver) and their float copies."""
    out = []
    for _ in range(n):
        pair = []
        for _ in range(2):
            w = [int(x) for x in rng.integers(1, 50, size=k)]
            pair.append([Fraction(x, sum(w)) for x in w])
        out.append(tuple(pair))
    return out


def test_pattern_matrix_float_matches_the_exact_matrix_and_subset_sums_match_products():
    t = Fraction(7, 2)
    S = pattern_matrix_float(4, t)
    assert np.array_equal(S, np.array([[float(c[i]) for c in pattern_matrix(4, t)] for i in range(4)]))
    X = np.random.default_rng(1).random((3, 4))
    assert np.allclose(X @ S, X.sum(1)[:, None] + (float(t) - 1) * pattern_subset_sums(X), rtol=1e-15)


@pytest.mark.parametrize("k, t", [(2, Fraction(3, 2)), (3, Fraction(21, 20)), (4, Fraction(5)), (5, Fraction(2))])
@pytest.mark.parametrize("mu_of", ["kl", "tv"])
def test_batch_matches_the_certified_optimum(k, t, mu_of):
    pairs = _instances(np.random.default_rng(k), 6, k)
    cols = pattern_matrix(k, t)
    fns = [(mu_kl if mu_of == "kl" else mu_tv)(P0, P1) for P0, P1 in pairs]
    MU = np.array([[float(f(c).mid()) if hasattr(f(c), "mid") else float(f(c)) for c in cols] for f in fns])
    res = solve_staircase_lp_batch(k, float(t), MU)
    assert not res.fallback.any()
    for i, f in enumerate(fns):
        exact = solve_staircase_lp(k, t, f)
        value = float(exact.value.mid()) if hasattr(exact.value, "mid") else float(exact.value)
        assert res.upper[i] >= value * (1 - 1e-13) - 1e-15      # the dual bound is above OPT
        assert res.upper[i] == pytest.approx(value, rel=1e-10, abs=1e-14)
        assert res.lower[i] == pytest.approx(value, rel=1e-10, abs=1e-14)
        if mu_of == "tv":   # exact objective: the final basis certifies exactly unless OPT has ties among bases
            cert = certify_basis(cols, [f(c) for c in cols], list(res.basis[i]))
            assert cert is None or cert[1] == exact.value


@pytest.mark.parametrize("eps", [0.05, 1.0, 10.0, 30.0])
def test_batch_is_tight_from_small_to_very_large_eps(eps):
    """At eps = 30 the mu_j of multi-element patterns are ~e^30 times OPT: the bound is normalised by |S_j|_1."""
    k, t = 6, math.exp(eps)
    rng = np.random.default_rng(3)
    P0, P1 = rng.dirichlet([1.0] * k, size=20), rng.dirichlet([1.0] * k, size=20)
    S = pattern_matrix_float(k, t)
    a, b = P0 @ S, P1 @ S
    res = solve_staircase_lp_batch(k, t, a * np.log(a / b))
    assert not res.fallback.any()
    assert np.abs(res.relative_gap).max() < 1e-9


def test_pivot_limit_falls_back_to_highs_with_the_same_answer():
    k, t = 5, 2.5
    rng = np.random.default_rng(4)
    P0, P1 = rng.dirichlet([1.0] * k, size=5), rng.dirichlet([1.0] * k, size=5)
    S = pattern_matrix_float(k, t)
    MU = (P0 @ S) * np.log((P0 @ S) / (P1 @ S))
    full = solve_staircase_lp_batch(k, t, MU)
    cut = solve_staircase_lp_batch(k, t, MU, max_iter=0)
    assert (full.iterations > 0).any() and cut.fallback[full.iterations > 0].all()
    assert np.allclose(cut.upper, full.upper, rtol=1e-9)


def test_bad_inputs_are_rejected():
    with pytest.raises(InputError, match="t = e\\^eps"):
        solve_staircase_lp_batch(3, 1.0, np.zeros((1, 8)))
    with pytest.raises(InputError, match="2\\^k"):
        solve_staircase_lp_batch(3, 2.0, np.zeros((1, 7)))
    with pytest.raises(InputError, match="finite"):
        solve_staircase_lp_batch(3, 2.0, np.full((1, 8), np.nan))
