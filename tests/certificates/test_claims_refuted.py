"""Issue 23: certificates behind REFUTED claims whose counterexample is exact (helper refuted-certs). Each claim's
certificates are accepted as built; each is rejected by the independent checker once wrong: the inequality's side
reversed, the counterexample moved into the statement's truth set, or a value perturbed."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest
import sympy

from rldp_verify.certificates import recheck
from rldp_verify.certificates.series import Formula, coefficient_certificates, numbers, sign_certificate
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Context


def _ok(docs):
    assert docs
    for d in docs:
        r = recheck(d)
        assert r.ok, f"{d['name']}: {r.message}"
    return docs


def _rejected(doc):
    r = recheck(doc)
    assert not r.ok, f"a wrong certificate was accepted: {doc['name']}: {r.message}"


def _negated(doc):
    """The same statement about -expr: the other side of 0 (a strict sign certificate must fail)."""
    bad = copy.deepcopy(doc)
    bad["statement"]["expr"] = ["-", bad["statement"]["expr"]]
    return bad


def _claim_certs(check, **kw):
    out = check(Context(), **kw)
    assert out.verdict.name == "REFUTED"
    assert "no_certificate" not in out.evidence
    return _ok(out.evidence["certificates"])


# --- the builder module ----------------------------------------------------------------------------------------------

def test_formula_builds_the_expression_unevaluated():
    a, t = numbers(2, F(1, 3))
    e = (1 - t) ** (1 - a) - 1
    assert e.node == ["-", ["pow", ["-", 1, "1/3"], ["-", 1, 2]], 1]
    with pytest.raises(TypeError):
        Formula.number(0.5)


def test_sign_certificate_refuses_zero():
    x = Formula.number(F(1, 3))
    with pytest.raises(ValueError):
        sign_certificate("zero", x - F(1, 3), exact=True)


def test_coefficients_of_a_rational_function_and_a_wrong_coefficient():
    s = sympy.Symbol("s")
    coeffs, docs = coefficient_certificates("(1 + s)/(1 - 2s)^2", (1 + s) / (1 - 2 * s) ** 2, s, 2)
    assert coeffs == [1, 5, 16]
    _ok(docs)
    bad = copy.deepcopy(docs[0])   # the s^2 coefficient printed as 15: the identity fails
    bad["statement"]["rhs"] = _swap(bad["statement"]["rhs"], 16, 15)
    _rejected(bad)
    bad = copy.deepcopy(docs[1])   # R(0) misstated
    bad["statement"]["lower"] = bad["statement"]["upper"] = 43
    _rejected(bad)


def _swap(e, old, new):
    if isinstance(e, list):
        return [_swap(x, old, new) for x in e]
    return new if e == old else e


# --- falpha.steps.appa.extreme-at-p0, psi-at-p0 ---------------------------------------------------------------------

def test_falpha_extreme_at_p0():
    from proofs.falpha.steps_appA_B import check_extreme, extreme_certificate, psi

    docs = _claim_certs(check_extreme)
    _rejected(_negated(docs[-1]))
    _ok(extreme_certificate(2, F(1, 10), F(3, 5)))
    hyp_t, *_ = extreme_certificate(2, F(1, 10), F(2, 5))     # t = 2/5 < 1/alpha: outside the hypothesis
    _rejected(hyp_t)
    good = extreme_certificate(2, F(1, 10), F(3, 5))[1]
    bad = copy.deepcopy(good)                                 # p = 7/10 > 1 - t: outside the hypothesis
    bad["statement"]["expr"] = _swap(bad["statement"]["expr"], "1/10", "7/10")
    _rejected(bad)
    A, P, T, Z = numbers(2, 0, F(3, 5), 0)                   # p moved to 0: psi(0) - psi(0) = 0, not > 0
    _rejected(value_certificate("moved", (psi(A, P, T) - psi(A, Z, T)).node, lower=0, strict=True))


def test_falpha_psi_at_p0_and_the_corrected_value():
    from proofs.falpha.steps_appA_B import check_psi_at_0, psi, psi_at_0_certificate

    docs = _claim_certs(check_psi_at_0)
    _rejected(_negated(docs[0]))
    _ok([psi_at_0_certificate(2, F(1, 2))])
    A, T, Z = numbers(2, F(1, 2), 0)
    corrected = ((1 - T) ** (1 - A) - 1) - psi(A, Z, T)     # the repair's value: equal, so neither side holds
    _rejected(value_certificate("corrected", corrected.node, lower=0, strict=True))
    _rejected(value_certificate("corrected", corrected.node, upper=0, strict=True))


# --- rldp.steps.a4.w-extreme-value, rldp.steps.a2.xi-domain ---------------------------------------------------------

def test_w_extreme_value():
    from proofs.rldp.steps_appA4 import check_w_extreme, printed_A76_lhs, w_extreme_certificates

    docs = _claim_certs(check_w_extreme)
    _rejected(_negated(docs[-1]))
    L = [[F(1, 4), F(1, 4)], [F(1, 3), F(1, 3)]]
    Q = [[F(1, 2), F(1, 5)], [F(3, 5), F(2, 5)]]
    t, s1, s2 = F(2), 0, 1
    low = [max(Q[s1]), -t * min(Q[s2])]
    up = [low[0] + 1, low[1]]
    _ok(w_extreme_certificates(low, up, L, Q, t, s1, s2))
    bad = w_extreme_certificates([low[0] + F(1, 7), low[1]], up, L, Q, t, s1, s2)
    _rejected(bad[1])                                             # w_low not the bounds (A77)-(A79)
    bad = w_extreme_certificates(low, up, [[F(3, 4), F(1, 2)], L[1]], Q, t, s1, s2)
    _rejected(bad[0])                                             # sum_u L_{u|s} > 1: outside the hypotheses
    Lf, Qf, T = [numbers(*r) for r in L], [numbers(*r) for r in Q], Formula.number(t)
    same = printed_A76_lhs(numbers(*low), Lf, Qf, s1, s2, T) - printed_A76_lhs(numbers(*low), Lf, Qf, s1, s2, T)
    _rejected(value_certificate("w not raised", same.node, lower=0, strict=True, exact=True))


def test_xi_domain():
    from proofs.rldp.steps_appA2 import check_xi_domain, xi_domain_certificates

    docs = _claim_certs(check_xi_domain)
    alpha, B, rho = F(11, 10), F(2961, 997), F(118, 997)
    _ok(xi_domain_certificates(alpha, B, rho))
    # a radius too small for P_end: D_alpha(P^ || P_end) > B, so P_end is outside F (xi+ inside the domain)
    _rejected(xi_domain_certificates(alpha, F(1, 1000), rho)[2])
    bad = copy.deepcopy(docs[2])
    bad["statement"]["upper"] = "1/1000"
    _rejected(bad)


# --- isit.steps.appa.eq37-eq39-as-printed, isit.thm1.nonconvex-A, isit.sec6.formulation-size ------------------------

def test_isit_eq37_eq39_as_printed():
    from proofs.isit.steps_appA_C import check_as_printed

    for d in _claim_certs(check_as_printed):
        _rejected(_negated(d))


def test_isit_nonconvex_A():
    from proofs.isit.thm1_robust_counterpart import check_nonconvex

    docs = _claim_certs(check_nonconvex)
    mid = next(d for d in docs if "midpoint" in d["name"])
    bad = copy.deepcopy(mid)                       # the "midpoint" moved into A (a = 1): f = -1/2, no violation
    bad["statement"]["expr"][1][0][1] = 1
    _rejected(bad)
    ident = next(d for d in docs if d["kind"] == "symbolic-identity")
    bad = copy.deepcopy(ident)                     # f + 1/2 = -(a - 1)(a + 2): wrong factor
    bad["statement"]["rhs"] = _swap(bad["statement"]["rhs"], 1, 2)
    _rejected(bad)


def test_isit_formulation_size():
    from proofs.isit.sec6_formulation_size import check_size, size_certificates

    docs = _claim_certs(check_size)
    for d in docs:
        bad = copy.deepcopy(d)                     # a coefficient changed: the identity fails
        bad["statement"]["rhs"] = _swap(bad["statement"]["rhs"], 3, 5)
        _rejected(bad)
    with pytest.raises(TypeError):                 # the exponential wrong variant has 2^U: no polynomial identity
        size_certificates("per-set")


# --- pram.ex3-2-3.both-ends-optimal -----------------------------------------------------------------------------------

def test_pram_both_ends():
    from proofs.pram._certs import f_expr, gap_cert
    from proofs.pram.sec3_2_binary_symmetric import check_sym_both
    from rldp_verify.topics import pram

    docs = _claim_certs(check_sym_both)
    _rejected(_negated(docs[-1]))
    p, S, t = [F(1, 3)] * 3, 3, F(2)
    hi = pram.v_alpha(S, t)
    _rejected(gap_cert("both ends at v_alpha", f_expr(p, [hi] * S), [f_expr(p, [hi] * S)]))   # a tie is no gap
    bad = copy.deepcopy(docs[0])                    # the diagonal's max misstated
    bad["statement"]["value"] = "3/5"
    _rejected(bad)


# --- kairouz.thm5.binary-optimal-every-f, kairouz.fig5 ---------------------------------------------------------------

def test_kairouz_thm5_hockey_stick():
    from proofs.kairouz.lem24_binary import TIE_P0, TIE_P1, hockey_stick_certificates

    docs = _ok(hockey_stick_certificates(TIE_P0, TIE_P1, [0, 2], [0]))
    for d in docs[:-1]:
        _rejected(_negated(d))
    with pytest.raises(ValueError):                 # T' = T: no gain, nothing to certify
        hockey_stick_certificates(TIE_P0, TIE_P1, [0, 2], [0, 2])
    bad = copy.deepcopy(docs[-1])                   # the gain's closed form with 1/4 for 1/8
    bad["statement"]["rhs"] = _swap(bad["statement"]["rhs"], 8, 4)
    _rejected(bad)


def test_kairouz_fig5_counterexample_and_rr_itself():
    from proofs.kairouz._certified import rr_theta, staircase_better_certificates
    from proofs.kairouz.sec3_5_figures import K, not_optimal_certificates, run
    from rldp_verify.topics.extremal.thresholds import t_from_eps

    _, bad_cases = run(Context(), "kl", 1.0, low=False, n=1)
    assert bad_cases, "instance 0 of the Dirichlet(1) draws is the claim's first counterexample"
    docs = _ok(not_optimal_certificates("kl", bad_cases[0]))
    _rejected(_negated(docs[-1]))
    case = bad_cases[0]
    P0, P1 = [F(x) for x in case["P0"]], [F(x) for x in case["P1"]]
    t = t_from_eps("10")
    same = staircase_better_certificates("RR against itself", K, t, "kl", rr_theta(K, t), rr_theta(K, t), P0=P0, P1=P1)
    _rejected(same[-1])


# --- falpha.fig1.other-alphas, falpha.fig2.bound-improves ------------------------------------------------------------

def test_falpha_fig1_jumps():
    from proofs.falpha.fig1_fig2 import check_other_alphas, jump_certificates

    docs = _claim_certs(check_other_alphas, draw=False)
    assert any(d["kind"] == "symbolic-identity" for d in docs)
    _rejected(jump_certificates(["4"])[0])          # alpha = 4 (Figure 1): a visible jump
    bad = copy.deepcopy(docs[-1])                   # g_2(1/2^-) with 5t^2 for 4t^2
    bad["statement"]["lhs"] = _swap(bad["statement"]["lhs"], 4, 5)
    _rejected(bad)


def test_falpha_fig2_not_improving():
    from proofs.falpha.fig1_fig2 import not_improving_certificates

    docs = _ok(not_improving_certificates([("a", "1.5")]))
    _rejected(not_improving_certificates([("a", "100")])[1])   # alpha = 100: phi improves there
    bad = copy.deepcopy(docs[1])                    # the gap overstated: phi - RLDP >= 1/10 (it is about 1/1000)
    bad["statement"]["lower"] = "1/10"
    _rejected(bad)


# --- rldp.prop2.part2-formula, rldp.sec43.smaller-Bs-lower-bound ----------------------------------------------------

def test_prop2_part2_printed_formula_exceeds_rad():
    import mpmath

    from proofs.rldp.prop2_alpha2 import (
        PART2_C,
        PART2_P,
        binary_rad_below_certificates,
        check_part2_formula,
        part2_certificates,
    )
    from rldp_verify.rldp.uncertainty import SimplexBall

    _claim_certs(check_part2_formula)
    _ok(part2_certificates())
    p, c = PART2_P, PART2_C
    with mpmath.workdps(30):        # the engine's rad_s agrees with the corrected formula (printed - 2p)
        rad = SimplexBall([p, 1 - p], 2, mpmath.log(c)).l1_radius(dps=30)
        corrected = (c + 2 * p - 1 + mpmath.sqrt((c - 1) * (c - (2 * p - 1) ** 2))) / c - 2 * p
        assert abs(rad - corrected) < mpmath.mpf(10) ** -20
    # the corrected radius, slightly shrunk: q = p + r lies inside the ball -> rejected
    corr = ["-", ["/", ["+", c, 2 * p - 1, ["sqrt", ["*", c - 1, c - (2 * p - 1) ** 2]]], c], 2 * p]
    docs = binary_rad_below_certificates("shrunk", p, c, ["*", F(999, 2000), corr], ["-", c, 1 + (1 - p) ** 2])
    _rejected(docs[2])
    _rejected(part2_certificates(p, F(3, 2))[0])     # e^B_s = 3/2 < 1 + (3/4)^2: outside part 2's hypothesis


def test_sec43_bound_is_not_a_lower_bound():
    from proofs.rldp.sec4_3_sentences import check_lower_bound, lower_bound_certificates

    _claim_certs(check_lower_bound)
    _ok(lower_bound_certificates())
    _rejected(lower_bound_certificates(F(1, 2), F(13, 10))[0])    # e^B_s = 13/10 > 1 + 1/4: above the threshold
    bad = copy.deepcopy(lower_bound_certificates()[2])            # r = sqrt(e^B - 1)/4: q = p + r inside the ball
    bad["statement"]["expr"] = _swap(bad["statement"]["expr"], 2, 4)
    _rejected(bad)
