"""Wrong variants of the certificates that the PRAM and f_alpha claims carry (issue 23): each is built by the
claim's own builder, accepted as built, and rejected by the independent checker once perturbed."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.topics import pram


def _ok(doc):
    r = recheck(doc)
    assert r.ok, r.message
    return r


def _rejected(doc):
    r = recheck(doc)
    assert not r.ok, f"a wrong certificate was accepted: {r.message}"
    return r


def _q(s) -> F:
    return F(s)


@pytest.fixture(scope="module")
def diagonal():
    """pram.ex3-2-3.interval at S = 5, e^alpha = 2: max and min q_1 on the diagonal of the DP polytope."""
    from proofs.pram._certs import diagonal_interval_certs

    t = F(2)
    return diagonal_interval_certs(5, t, pram.v_malpha(5, t), pram.v_alpha(5, t))


def test_diagonal_interval_lp_accepted_and_value_off_by_one_ulp_rejected(diagonal):
    for doc in diagonal:
        _ok(doc)
        bad = copy.deepcopy(doc)
        v = _q(bad["statement"]["value"])
        bad["statement"]["value"] = str(v + F(1, 10**30))   # the end moved by 1e-30: not the optimum
        _rejected(bad)


def test_diagonal_interval_lp_perturbed_dual_rejected(diagonal):
    bad = copy.deepcopy(diagonal[0])
    y = bad["data"]["y"]
    i = next(k for k, v in enumerate(y) if _q(v) != 0)
    y[i] = str(_q(y[i]) + F(1, 10**30))
    _rejected(bad)


def test_diagonal_interval_claims_a_wrong_end_is_refused():
    from proofs.pram._certs import diagonal_interval_certs

    t = F(2)
    with pytest.raises(ValueError):   # the builder refuses an end that is not the LP optimum
        diagonal_interval_certs(5, t, pram.v_malpha(5, t), pram.v_alpha(5, t) + F(1, 10**30))


@pytest.fixture(scope="module")
def prop32():
    """pram.prop3-2.vertex-set at S = 5, e^alpha = 2: Proposition 3.2's 32 points are the vertex set."""
    from proofs.pram.prop3_2_vertex_structure import _prop32_certs

    (doc,) = _prop32_certs([(5, F(2))])
    return doc


def test_prop32_vertex_set_accepted_missing_vertex_rejected(prop32):
    _ok(prop32)
    bad = copy.deepcopy(prop32)
    del bad["statement"]["vertices"][3]
    del bad["data"]["tight"][3]
    _rejected(bad)


def test_prop32_vertex_moved_by_one_ulp_rejected(prop32):
    bad = copy.deepcopy(prop32)
    v = bad["statement"]["vertices"][5]
    v[0] = str(_q(v[0]) + F(1, 10**30))
    _rejected(bad)


def test_ex321_ends_tie_narrowed_and_gap_overstated_rejected():
    """pram.ex3-2-1.optimum: f at the two ends agrees to 1e-30 (an enclosure of 0 made empty is rejected), and
    beats the interior (a lower bound raised above the true gap is rejected)."""
    from proofs.pram._certs import ends_certs

    t, p = F(2), [F(1, 3), F(2, 3)]
    lo, hi = 1 / (1 + t), t / (1 + t)
    tie, gap = ends_certs(p, [lo, lo], [hi, hi], [[lo + (hi - lo) * F(k, 20)] * 2 for k in range(1, 20)])
    _ok(tie)
    _ok(gap)
    bad = copy.deepcopy(tie)
    bad["statement"]["lower"], bad["statement"]["upper"] = "1/1000", "1/100"   # the tie moved off 0
    _rejected(bad)
    bad = copy.deepcopy(gap)
    bad["statement"]["lower"] = "1/10"   # f(end) - max f(interior) is about 0.00976
    _rejected(bad)


def test_local_max_directional_derivative_sign_flip_rejected():
    """pram.sec3.local-solvers-suffice: the derivative from the local vertex towards an adjacent one is < 0;
    the same certificate claiming > 0 is rejected."""
    from proofs.pram._certs import directional_derivative_expr
    from rldp_verify.certificates.value import value_certificate

    p = [F(1, 3)] * 3
    v, w = [F(4, 21), F(3, 7), F(3, 7)], [F(1, 4)] * 3
    doc = value_certificate("df < 0", directional_derivative_expr(p, v, w), upper=0, strict=True)
    _ok(doc)
    bad = copy.deepcopy(doc)
    bad["statement"]["lower"], bad["statement"]["upper"] = 0, None
    _rejected(bad)


def test_rem10_sup_certificate_with_s_moved_past_the_jump_rejected():
    """falpha.rem10.switch-point-h1: g(1/alpha^-) = e^{4/9} - 1 ~ 0.5596 < s = 3/5; the same certificate with s
    moved below the jump value is rejected."""
    from proofs.falpha.rem10_inverse import _h1_certs

    certs = _h1_certs(F(3, 2), F(3, 5), F(2, 3))
    for doc in certs:
        _ok(doc)
    bad = copy.deepcopy(certs[0])
    bad["statement"]["upper"] = "11/20"   # 0.55 < e^{4/9} - 1
    _rejected(bad)


def test_ex12_phi_bound_with_a_wrong_alpha_in_phi_rejected():
    """falpha.ex12.bound-holds at N = 5, e^eps = 6, alpha = 3: eps* <= phi is accepted; phi computed at the wrong
    order inside the same certificate (alpha = 11/10 in R_alpha, which makes phi < eps*) is rejected."""
    from proofs.falpha.ex12_randomized_response import _point_certs

    branch, doc = _point_certs(5, 6, "P", F(3))
    _ok(branch)
    _ok(doc)
    bad = copy.deepcopy(doc)
    body = bad["statement"]["expr"][2]          # ["min", phi - eps*, RLDP(RR) - eps*]
    phi = body[1][1]                            # ["/", ["log", inner], alpha - 1]
    phi[2] = "1"                                # divide by 1 instead of alpha - 1 = 2: still >= eps*
    _ok(bad)
    r_alpha = phi[1][1][1][1]                   # R_alpha(Gamma_max, Gamma_min) inside inner
    r_alpha[1][1][1][2] = "11/10"               # Gamma_max^alpha with the wrong alpha
    r_alpha[2][1][2][2] = "11/10"
    _rejected(bad)


def test_ex5_output_divergence_claimed_positive_rejected():
    """falpha.ex5.k-singular-no-contraction: D_2 of the two outputs is exactly 0; claiming it > 0 is rejected."""
    from proofs.falpha.prop3_no_contraction import _ex5_certs

    W = [[F(1), F(0)], [F(1), F(0)]]
    d_in, d_out = _ex5_certs(W, [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)])
    _ok(d_in)
    _ok(d_out)
    bad = copy.deepcopy(d_out)
    bad["statement"]["lower"], bad["statement"]["upper"], bad["statement"]["strict"] = 0, None, True
    _rejected(bad)


def test_prop3_witness_equality_for_intersecting_rows_rejected():
    """falpha.prop3.disjoint-supports / ex4: the exact equality of the output and input power sums holds for rows
    with disjoint supports (whatever the rows are) and is rejected when row 1 shares an output with row 0, or when
    one side is moved by 1e-30."""
    from proofs.falpha._certs import witness_certs

    W = [[F(1, 2), F(1, 2), F(0), F(0)], [F(0), F(0), F(1, 3), F(2, 3)], [F(1, 4)] * 4]
    (doc,) = witness_certs(W, 0, 1, (3,))
    _ok(doc)
    W[1] = [F(0), F(1, 3), F(1, 3), F(1, 3)]
    (bad,) = witness_certs(W, 0, 1, (3,))
    _rejected(bad)
    bad = copy.deepcopy(doc)   # the input power sum 2^(alpha-1) moved by 1e-30
    bad["statement"]["rhs"] = ["+", bad["statement"]["rhs"], "1/" + str(10**30)]
    _rejected(bad)


def test_f_minimum_rows_equal_marginal_perturbed_diagonal_rejected():
    """pram.sec3-1.f-minimum: the rows of M(1/S) are identical exactly; with one diagonal entry 1/S + 1e-30 (in the
    sum of squares only) the exact evaluation is not 0 and the certificate is rejected."""
    from proofs.pram.sec3_1_f_form import _uniform_certs

    (doc,) = _uniform_certs([3])
    _ok(doc)
    bad = copy.deepcopy(doc)
    diff = bad["statement"]["lhs"][1][1]        # ["-", M[1][0], M[0][0]]
    assert diff[0] == "-" and diff[2] == "1/3"
    diff[2] = str(F(1, 3) + F(1, 10**30))
    _rejected(bad)


def test_rem9_tightness_identity_with_a_wrong_exponent_and_sign_flip_rejected():
    """falpha.rem9 / falpha.thm8.tight-iff: D_f([0,1]||[t,1-t]) = (1-t)^(1-alpha) - 1 exactly (accepted); with the
    exponent 2 - alpha it is rejected; eq. (66) at p = 0 below 1/alpha is < 0, and claiming it > 0 is rejected."""
    from proofs.falpha._certs import equality_certificate
    from proofs.falpha.thm8_pinsker import _binary_f, _dpsi
    from rldp_verify.certificates.value import value_certificate

    a, t = 3, F(1, 2)
    good = equality_certificate("psi(0,t) = g(t)", _binary_f(F(0), t, a), ["-", ["pow", ["-", 1, t], 1 - a], 1], "")
    _ok(good)
    _rejected(equality_certificate("psi(0,t) = g(t)", _binary_f(F(0), t, a), ["-", ["pow", ["-", 1, t], 2 - a], 1], ""))
    neg = value_certificate("eq. (66) < 0", _dpsi(F(0), F(1, 4), a), upper=0, strict=True)
    _ok(neg)
    _rejected(value_certificate("eq. (66) > 0", _dpsi(F(0), F(1, 4), a), lower=0, strict=True))


def test_maximal_correlation_certificates_reject_intersecting_witness_and_disjoint_converse():
    """falpha.prop3.maximal-correlation-route: B B^T = I needs rows i, j disjoint (a shared output makes G_ij != 0:
    rejected), and the Dobrushin coefficient < 1 fails for a channel with two disjoint rows (TV = 1: rejected)."""
    from proofs.falpha.prop3_no_contraction import _maxcorr_certs

    good = [[F(1, 2), F(1, 2), F(0)], [F(0), F(0), F(1)], [F(1, 3)] * 3]
    shared = [[F(1, 2), F(1, 2), F(0)], [F(0), F(1, 2), F(1, 2)], [F(1, 3)] * 3]
    (w_ok, d_ok) = _maxcorr_certs([(good, 0, 1)], [shared])
    _ok(w_ok)
    _ok(d_ok)
    (w_bad, d_bad) = _maxcorr_certs([(shared, 0, 1)], [good])
    _rejected(w_bad)
    _rejected(d_bad)
