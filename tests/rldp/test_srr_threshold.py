"""rldp_verify.rldp.srr_threshold: Lemma A8 cone comparison, SRR optimality, eps_0 bracket."""

from fractions import Fraction

import numpy as np
import pytest
from scipy.optimize import linprog

from rldp_verify.core.errors import InputError
from rldp_verify.rldp.srr_threshold import (
    compare_lemma_a8,
    cone_c_extreme_rays,
    in_cone_c,
    lemma_a8_generators,
    srr_optimality,
    srr_threshold,
    srr_vectors,
)

F = Fraction
PHAT = [F(7, 100), F(10, 100), F(26, 100), F(57, 100)]


def _float_lp(p, a1, a2, t):
    """Independent floating-point LP over the exact extreme rays of C (not V1 ∪ V2)."""
    R = cone_c_extreme_rays(a1, a2, t)
    pf = np.array([float(x) for x in p])
    def mu(v):
        v = np.array([float(x) for x in v])
        q = v @ pf
        m = (v > 0) & (pf > 0)
        return float(np.sum(v[m] * pf[m] * np.log(v[m] / q)))
    c = -np.array([mu(v) for v in R])
    A = np.array([[float(v[x]) for v in R] for x in range(a1 * a2)])
    res = linprog(c, A_eq=A, b_eq=np.ones(a1 * a2), bounds=(0, None), method="highs")
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("a1,a2", [(2, 1), (3, 1), (2, 2), (2, 3), (3, 2)])
def test_lemma_a8_spans(a1, a2):
    for t in (F(3, 2), F(4)):
        assert compare_lemma_a8(a1, a2, t).spans


def test_lemma_a8_single_secret_fails():
    assert not compare_lemma_a8(1, 2, F(2)).spans


def test_generators_in_cone_and_srr_in_v1():
    t = F(3)
    gens = set(lemma_a8_generators(2, 2, t))
    assert all(in_cone_c(g, 2, 2, t) for g in gens)
    assert all(v in gens for v in srr_vectors(2, 2, t))
    assert not in_cone_c((F(1), F(1), F(4), F(1)), 2, 2, t)


@pytest.mark.parametrize("t", [F(3, 2), F(5), F(12), F(50)])
def test_srr_verdict_matches_float_lp(t):
    r = srr_optimality(PHAT, 2, 2, t)
    lp = _float_lp(PHAT, 2, 2, t)
    isrr = float(r.srr_utility_lower)
    if r.verdict == "optimal":
        assert lp == pytest.approx(isrr, abs=1e-9)
    else:
        assert r.verdict == "not optimal" and lp > isrr + 1e-9


def test_example4_srr_utility():
    # Example 4: I_P-hat(X; SRR) = 0.1005 at eps = log 2
    r = srr_optimality(PHAT, 2, 2, F(2))
    assert round(float(r.srr_utility_lower), 4) == 0.1005


def test_threshold_bracket_example1():
    b = srr_threshold(PHAT, 2, 2, grid_points=24, tol=F(1, 10 ** 5))
    assert b.exp_eps_lower is not None and b.exp_eps_lower < b.exp_eps_upper
    assert srr_optimality(PHAT, 2, 2, b.exp_eps_lower).verdict == "not optimal"
    assert srr_optimality(PHAT, 2, 2, b.exp_eps_upper).verdict == "optimal"
    assert all(v == "optimal" for _, v in b.grid)
    assert 2.3178 < float(b.eps_lower) <= float(b.eps_upper) < 2.3180


def test_bad_inputs():
    with pytest.raises(InputError, match="sums to"):
        srr_optimality([F(1, 2), F(1, 3)], 2, 1, F(2))
    with pytest.raises(InputError, match="e\\^eps"):
        srr_optimality([F(1, 2), F(1, 2)], 2, 1, F(1))
    with pytest.raises(InputError, match="a2"):
        lemma_a8_generators(2, 0, F(2))


def test_interval_certification():
    from rldp_verify.rldp.srr_threshold import certify_srr_optimal_on
    b = srr_threshold(PHAT, 2, 2, grid_points=24, tol=F(1, 10 ** 7))
    assert b.certified_up_to is not None
    ok, _, _ = certify_srr_optimal_on(PHAT, 2, 2, b.exp_eps_upper, F(1000))
    assert ok
    ok, _, bad = certify_srr_optimal_on(PHAT, 2, 2, F(9), F(12))     # contains e^eps_0 ~ 10.154
    assert not ok and bad[0] <= F(10154281, 10 ** 6)
    # zero-mass P: never certified (SRR is not optimal there)
    ok, _, _ = certify_srr_optimal_on([F(0), F(1, 2), F(1, 2)], 3, 1, F(10), F(100), max_intervals=200)
    assert not ok
