"""Tests of rldp_verify.topics.fdiv (001_29f852b736fc5e16.txt machinery)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics.fdiv import (
    R_alpha,
    amplification_bound,
    binary_min,
    binary_min_bracket,
    dpsi_dp,
    eta_tv,
    f_alpha,
    f_alpha_divergence,
    f_alpha_via_hockey_stick,
    g_alpha,
    g_alpha_generalized_inverse,
    g_alpha_inverse,
    gamma_extremes,
    hockey_stick,
    likelihood_ratio_extremes,
    psi_alpha,
    push,
    renyi_from_f_alpha,
    reverse_pinsker_bound,
    rldp_level,
    total_variation,
)
from tests.strategies import channel, int_alphas, real_alphas, tvs
from tests.strategies import fdiv_distribution_pair as distribution_pair

F = Fraction


# ---------------------------------------------------------------- known answers

def test_f_alpha_divergence_known_values():
    p, q = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)]
    # sum p^3/q^2 - 1 = (1/8)/(1/16) + (1/27)/(1/16) + (1/216)/(1/4) - 1
    assert f_alpha_divergence(p, q, 3) == F(2) + F(16, 27) + F(1, 54) - 1
    assert f_alpha(F(2), 3) == 7


def test_eq4_counterexample_values():
    # alpha = 1/2, P = (1, 0), Q = (1/4, 3/4): D_f = 1/2, true D_alpha = 2 log 2, eq. (4) gives -2 log(3/2)
    p, q = [F(1), F(0)], [F(1, 4), F(3, 4)]
    with working_precision(30):
        d = f_alpha_divergence(p, q, F(1, 2), dps=30)
        assert abs(d - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -25
        assert abs(renyi_from_f_alpha(d, F(1, 2), dps=30) - 2 * mpmath.log(2)) < mpmath.mpf(10) ** -25
        assert abs(renyi_divergence(p, q, F(1, 2), dps=30) - 2 * mpmath.log(2)) < mpmath.mpf(10) ** -25


def test_R_alpha_limits_and_exactness():
    assert R_alpha(F(1), F(1), 3) == 0
    assert R_alpha(F(2), F(1, 2), 2) == F(3) - F(3, 2)
    assert R_alpha(F(1), F(0), 4) == 4 - 1
    with working_precision(30):
        assert abs(R_alpha(F(2), F(1, 2), F(5, 2), dps=30) - ((2**2.5 - 1) - (1 - 0.5**2.5) / 0.5)) < 1e-12


def test_g_alpha_alpha2_is_chi2_joint_range():
    for t in (F(1, 10), F(1, 3), F(1, 2), F(3, 4)):
        expected = 4 * t * t if t < F(1, 2) else t / (1 - t)
        assert g_alpha(t, 2) == expected
        lb, ub, _ = binary_min_bracket(t, 2)
        assert lb == ub == expected


def test_printed_inverse_h1_example():
    with working_precision(30):
        printed = g_alpha_inverse(F(3, 5), F(3, 2), dps=30)
        true = g_alpha_generalized_inverse(F(3, 5), F(3, 2), dps=30)
        assert abs(true - mpmath.mpf(2) / 3) < mpmath.mpf(10) ** -25
        assert printed > true + mpmath.mpf("0.01")


# ---------------------------------------------------------------- properties

@given(distribution_pair(allow_zero=True), int_alphas)
@settings(max_examples=40)
def test_integral_representation_exact(pq, a):
    p, q = pq
    assert f_alpha_via_hockey_stick(p, q, a) == f_alpha_divergence(p, q, a)


@given(distribution_pair(allow_zero=True), st.fractions(min_value=0, max_value=50, max_denominator=100))
@settings(max_examples=60)
def test_hockey_stick_forms(pq, g):
    p, q = pq
    e = hockey_stick(p, q, g)
    assert e == sum(abs(x - g * y) for x, y in zip(p, q, strict=True)) / 2 - abs(1 - g) / 2
    assert e >= 0
    assert hockey_stick(p, q, F(1)) == total_variation(p, q)


@given(distribution_pair(), int_alphas)
@settings(max_examples=60)
def test_reverse_pinsker_exact(pq, a):
    p, q = pq
    assert f_alpha_divergence(p, q, a) <= reverse_pinsker_bound(p, q, a)
    m, M = likelihood_ratio_extremes(p, q)
    assert f_alpha_divergence(p, q, a) <= reverse_pinsker_bound(p, q, a, gamma_min=min(m, 1), gamma_max=max(M, 1))


@given(tvs, int_alphas)
@settings(max_examples=40)
@example(F(1, 2) - F(1, 10**9), 2)
@example(F(1, 3), 3)
def test_pinsker_bracket_certifies(t, a):
    lb, ub, p = binary_min_bracket(t, a)
    assert lb <= ub == psi_alpha(p, t, a)
    assert lb >= g_alpha(t, a)


@given(tvs, real_alphas)
@settings(max_examples=15)
def test_pinsker_high_precision(t, a):
    with working_precision(40):
        m, pstar = binary_min(t, a, dps=40)
        assert m >= g_alpha(t, a, dps=40) * (1 - mpmath.mpf(10) ** -30)
        assert 0 <= pstar <= 1 - mpmath.mpf(t.numerator) / t.denominator


@given(distribution_pair(), real_alphas)
@settings(max_examples=30)
def test_inverse_bound_sound(pq, a):
    p, q = pq
    with working_precision(40):
        d = max(f_alpha_divergence(p, q, a, dps=40), 0)  # P = Q can round to -1e-41
        tv = mpmath.mpf(total_variation(p, q).numerator) / total_variation(p, q).denominator
        assert g_alpha_inverse(d, a, dps=40) >= g_alpha_generalized_inverse(d, a, dps=40)
        assert g_alpha_generalized_inverse(d, a, dps=40) >= tv - mpmath.mpf(10) ** -15


@given(channel(allow_zero=False), st.integers(2, 4), int_alphas)
@settings(max_examples=15)
def test_amplification_bound_dominates_true_level(W, nw, a):
    M = [[F(1 + ((w + 1) * (x + 2)) % 5, 1) for x in range(len(W))] for w in range(nw)]
    M = [[v / sum(r) for v in r] for r in M]
    out = amplification_bound(M, W, a, dps=30)
    eps_star = rldp_level([push(W, r) for r in M], a, dps=30)
    import flint
    assert out["phi"].upper() >= flint.arb(mpmath.nstr(eps_star, 25)).lower()


def test_dpsi_sign_threshold():
    # dpsi/dp at p = 0 is (alpha t - 1)(1-t)^-alpha: negative below 1/alpha, zero at, positive above
    assert dpsi_dp(F(0), F(1, 4), 3) < 0
    assert dpsi_dp(F(0), F(1, 3), 3) == 0
    assert dpsi_dp(F(0), F(1, 2), 3) > 0


def test_gamma_extremes_and_eta():
    W = [[F(1, 2), F(1, 2), F(0)], [F(0), F(1, 2), F(1, 2)], [F(1), F(0), F(0)]]
    assert eta_tv(W) == 1
    lo, hi = gamma_extremes([[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]])
    assert (lo, hi) == (F(1, 2), F(2))  # ratios 2, 2/3 and (reversed) 1/2, 3/2


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("call", [
    lambda: R_alpha(F(2), F(1, 2), 1),
    lambda: R_alpha(F(1, 2), F(1, 2), 2),
    lambda: g_alpha(F(1), 2),
    lambda: g_alpha(F(1, 2), F(1, 2)),
    lambda: psi_alpha(F(1, 2), F(1, 2), 2),
    lambda: f_alpha_divergence([F(1)], [F(1, 2), F(1, 2)], 2),
    lambda: push([[F(1), F(0)], [F(1, 2)]], [F(1, 2), F(1, 2)]),
    lambda: binary_min_bracket(F(1, 2), F(5, 2)),
    lambda: hockey_stick([F(1)], [F(1)], -1),
    lambda: f_alpha_via_hockey_stick([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], F(5, 2)),
])
def test_bad_input_raises_input_error(call):
    with pytest.raises(InputError):
        call()


# ---------------------------------------------------------------- exhaustive (report job)

@pytest.mark.slow
def test_all_falpha_claims_including_slow():
    from rldp_verify.claims import Context, Verdict, discover, run_claims

    claims = [c for c in discover("proofs") if c.id.startswith("falpha.")]
    results = run_claims(claims, Context(include_slow=True))
    assert all(r.verdict is not Verdict.ERROR for r in results), [r.claim.id for r in results if r.verdict is Verdict.ERROR]
    expected_refuted = {"falpha.def1.eq4-alpha-lt-1", "falpha.ex5.k-singular-no-contraction", "falpha.sec6.footnote1-finite-rldp",
                        "falpha.rem10.injective-not-bijective", "falpha.rem10.switch-point-h1",
                        "falpha.ex12.tightens-with-alpha"}
    assert {r.claim.id for r in results if r.verdict is Verdict.REFUTED} == expected_refuted
