"""Issue 23 leftovers: certificates wired into the claims that had none (kairouz.thm6.binary-optimal-tv,
kairouz.cor10.rr-kl-expansion, ...), each accepted as built and rejected in a wrong variant."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck

P0, P1 = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 5), F(1, 5), F(3, 5))
T = F(3)


def _alpha70(t, P0, P1, half=F(1, 2)):
    return [(t - 1) / (t + 1) * abs(a - b) * half for a, b in zip(P0, P1, strict=True)]


def test_thm6_binary_tv_certificate_and_wrong_duals():
    """Theorem 6 as an lp-optimum: accepted with the dual (70); rejected with (70) without its factor 1/2 (1^T alpha
    above the binary mechanism's TV) and with (70) at half its size (not dual feasible)."""
    from proofs.kairouz.thm6_tv import binary_tv_certificates

    (good,) = binary_tv_certificates(P0, P1, T, _alpha70(T, P0, P1))
    assert recheck(good).ok, recheck(good).message
    for wrong in (_alpha70(T, P0, P1, F(1)), _alpha70(T, P0, P1, F(1, 4))):
        (bad,) = binary_tv_certificates(P0, P1, T, wrong)
        assert not recheck(bad).ok


def test_thm6_binary_on_a_wrong_set_rejected():
    """The binary mechanism's theta on a set other than T = {x : P0(x) >= P1(x)} is not optimal: rejected."""
    from types import SimpleNamespace

    from proofs.kairouz._certified import binary_theta, staircase_optimum_certificates

    (bad,) = staircase_optimum_certificates("wrong T", 3, T, "tv", binary_theta(3, T, {0}),
                                            SimpleNamespace(alpha=_alpha70(T, P0, P1)), P0=P0, P1=P1)
    assert not recheck(bad).ok


def test_cor10_coefficient_certificates_and_the_printed_coefficient():
    """Corollary 10: the derived coefficient c differs from the printed -G and the scaled remainder at eps = 40 is
    nearer c (accepted); the same certificates for a pair where the printed coefficient is right would have to
    fail -- P1 = P0 makes c = -G = 0: rejected (the gap is 0, not > 0)."""
    from proofs.kairouz.thm8_rr_kl import CX_P0, CX_P1, coefficient_certificates

    assert all(recheck(d).ok for d in coefficient_certificates(CX_P0, CX_P1))
    gap, _ = coefficient_certificates(CX_P0, CX_P0)
    assert not recheck(gap).ok
    _, near = coefficient_certificates(CX_P0, CX_P1)
    near["statement"]["lower"] = "3/10"         # a larger margin than holds (the value is ~ (c + G)/2 = 0.21)
    assert not recheck(near).ok


def test_prop32_sharpness_vertex_sets():
    """pram.prop3-2.condition-sharpness: the exact vertex set at e^alpha = S - 2 is Proposition 3.2's 2^S points
    (accepted); just above S - 2 the same 2^S points as the vertex list (the sharpening stated one step too far) are
    rejected, and the true vertex set is accepted."""
    from proofs.pram._certs import vertex_cert
    from proofs.pram.prop3_2_vertex_structure import compare_vertex_set
    from rldp_verify.topics import pram

    S = 5
    for t, holds in ((F(3), True), (F(301, 100), False)):
        ok, V, P = compare_vertex_set(S, t)
        assert ok is holds
        assert recheck(vertex_cert("true vertex set", pram.dp_rows(S, t), sorted(V))).ok
        assert recheck(vertex_cert("Prop 3.2's points", pram.dp_rows(S, t), sorted(P))).ok is holds


def test_a8_derivative_identity_and_a_wrong_a8():
    """rldp.steps.a1.a8-derivative: d/dP_s RHS(A7) = (A8) certified at alpha = 3/2; (A8) without its factor
    (alpha - 1) (a wrong derivative) is refused by the builder and rejected by the checker."""
    import sympy as sp

    from proofs.rldp.steps_appA1 import printed_A7_rhs, printed_A8
    from rldp_verify.certificates.identity import identity_certificate

    x, C, ph = sp.symbols("P_s C Phat_s", positive=True)
    a = sp.Rational(3, 2)
    lhs = sp.diff(printed_A7_rhs(a, C, ph, x), x)
    assert recheck(identity_certificate("(A8)", lhs, printed_A8(a, C, ph, x))).ok
    with pytest.raises(ValueError, match="not a rational identity"):   # the builder refuses to write it
        identity_certificate("(A8) wrong", lhs, printed_A8(a, C, ph, x) / (a - 1))
    b = sp.Integer(3)                   # the checker, handed the wrong identity anyway, rejects it
    good = identity_certificate("(A8)", sp.diff(printed_A7_rhs(b, C, ph, x), x), printed_A8(b, C, ph, x))
    bad = copy.deepcopy(good)
    bad["statement"]["rhs"] = ["*", "1/2", bad["statement"]["rhs"]]     # (A8) / (alpha - 1) at alpha = 3
    assert recheck(good).ok and not recheck(bad).ok


def test_setting1_cube_weights_and_a_point_outside():
    """pram.steps.app5-3.setting-1-cube: convex-combination weights of a cube corner accepted; the same weights
    for a point just outside the cube (a coordinate moved by 1/1000) rejected."""
    from proofs.pram.steps_app5 import _hull_certificate, _hull_weights, printed_cube_ends
    from rldp_verify.topics.pram import point, prop32_patterns

    S, t = 5, F(11, 10)
    lo, hi = printed_cube_ends(S, t)
    V = [tuple(point(p, S, t)) for p in prop32_patterns(S)]
    corner = (hi,) + (lo,) * (S - 1)
    lam = _hull_weights(V, list(corner))
    assert recheck(_hull_certificate(S, t, V, corner, lam, 1)).ok
    assert not recheck(_hull_certificate(S, t, V, (hi + F(1, 1000),) + corner[1:], lam, 1)).ok


def test_citation_minor_certificate_rejects_a_proportional_display():
    """pram.steps.app5-3.lemma5-1-citations: the non-zero minor of (19) against the used inequality is accepted; the
    same certificate for (12), which does state it (all minors 0), is rejected."""
    import sympy as sp

    from proofs.pram.steps_app5 import CONSTRAINTS, USED, S, _coefficients, qi, qj, t, x, y
    from rldp_verify.certificates.identity import refutation_certificate

    name = "(S-1) q_i + e^alpha q_j <= e^alpha"
    u = _coefficients(USED[name])
    for label, ok in (("19", True), ("12", False)):
        g = _coefficients(CONSTRAINTS[label].subs({x: qi, y: qj}, simultaneous=True))
        doc = refutation_certificate(f"({label}) minor (0, 1)", g[0] * u[1], g[1] * u[0], {S: 5, t: 2})
        assert recheck(doc).ok is ok, (label, sp.expand(g[0] * u[1] - g[1] * u[0]))


def test_srr_above_polyopt_certificates_and_a_dropped_vertex():
    """rldp.sec6.srr-utility-below-polyopt: Gamma-hat's vertex list and the weak-duality bound below I(SRR) accepted;
    the vertex list without its last vertex rejected (no longer complete), and the same bound against GRR's utility
    (which is below it) rejected."""
    from proofs.rldp.sec8_orderings import _srr_above_polyopt_certificates
    from rldp_verify.rldp.mechanisms import grr, lower_bounds, polyopt_from_bounds, srr
    from rldp_verify.rldp.uncertainty import RenyiBall

    ball = RenyiBall.from_radius([["7", "10"], ["26", "57"]], 2, "inf")
    L = lower_bounds(ball)
    _, sol = polyopt_from_bounds(ball.phat, L, "log(2)")
    sr = srr(ball.phat, "log(2)")
    p = [v for row in ball.phat for v in row]
    docs = _srr_above_polyopt_certificates(L, sol, sr, p)["certificates"]
    assert all(recheck(d).ok for d in docs)
    vert = copy.deepcopy(docs[0])
    vert["statement"]["vertices"] = vert["statement"]["vertices"][:-1]     # a vertex dropped with its tight rows:
    vert["data"]["tight"] = vert["data"]["tight"][:-1]                       # the facets' multipliers miss it
    assert not recheck(vert).ok
    low = _srr_above_polyopt_certificates(L, sol, grr(ball, "log(2)"), p)["certificates"][1]
    assert not recheck(low).ok


def test_pram_table_row_certificate_and_the_printed_row():
    """pram.table4.counts at alpha = 0.5: the all-v_alpha vertex beats every listed vertex with the printed counts
    (0, 29, 0, 1) at the true e^0.5 (accepted); the reverse, a printed-count vertex beating it, rejected."""
    from proofs.pram._certs import table_row_certificate
    from proofs.pram._common import SCENARIO_IV
    from proofs.pram.sec4_1_tables import TABLE4, _counts
    from rldp_verify.topics import pram

    pats = pram.prop32_orbit_patterns(SCENARIO_IV)
    printed = [pat for pat in pats if _counts(pat) == TABLE4["0.5"]]
    best = (pram.V_ALPHA,) * 30
    assert printed and best in pats
    assert recheck(table_row_certificate("ours", SCENARIO_IV, F(1, 2), best, printed)).ok
    assert not recheck(table_row_certificate("printed", SCENARIO_IV, F(1, 2), printed[0], [best])).ok
