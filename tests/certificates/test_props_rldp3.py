"""Certificates of the sampled instances of the rldp high-precision property tests (issue 23, round 3:
:mod:`rldp_verify.certificates.instances_rldp`'s arb builders): each shape is accepted on a true instance and
rejected once the instance is made false (a raw number perturbed, the inequality flipped or a tolerance
tightened)."""

from fractions import Fraction as F

import mpmath

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates import recheck
from rldp_verify.certificates.series import exact_number
from rldp_verify.core.divergence import renyi_divergence

PHAT = [[F(1, 5), F(3, 10)], [F(2, 5), F(1, 10)]]


def test_projection_slack_shape():
    """B_s - D_alpha(P^_(U|s)||P_(U|s)) > 0 at a point of F; a B far smaller makes it false and the checker rejects."""
    P = [F(9, 50), F(8, 25), F(2, 5), F(1, 10)]
    ok = inst.all_positive_certificate("proj", inst.projection_slack_expressions([(PHAT, F(2), F(1, 10), P, 0)]),
                                       exact=False)
    assert recheck(ok).ok
    for alpha in (F(1), F(1, 2)):
        assert recheck(inst.all_positive_certificate(
            "proj", inst.projection_slack_expressions([(PHAT, alpha, F(1, 10), P, 0)]), exact=False)).ok
    tiny = inst.projection_slack_expressions([(PHAT, F(2), F(1, 10**6), P, 0)])   # B_s ~ 2e-6 < D
    assert not recheck(inst.all_positive_certificate("proj", tiny, exact=False)).ok


def test_ball_slack_and_within_shapes():
    """B - D_alpha(P^||P) > 0 inside F; |D - B| <= 1e-30 at a point on the boundary (up to 60 digits); one P
    moved off the boundary by 1e-25, or the flipped inequality, is rejected."""
    P = [F(9, 50), F(8, 25), F(2, 5), F(1, 10)]
    assert recheck(inst.all_positive_certificate("in", inst.ball_slack_expressions([(PHAT, F(2), F(1, 10), P)]),
                                                 exact=False)).ok
    assert not recheck(inst.all_positive_certificate(   # the flipped inequality: D - B > 0
        "in", [["-", 0, e] for e in inst.ball_slack_expressions([(PHAT, F(2), F(1, 10), P)])], exact=False)).ok
    flat = [v for r in PHAT for v in r]
    with mpmath.workdps(60):
        B = exact_number(renyi_divergence(flat, P, 2, dps=60))          # D as a binary rational: the boundary up to 1e-55
        boundary = [(PHAT, F(2), B, P)]
        far = [(PHAT, F(2), B + F(1, 10**25), P)]
    tol = F(1, 10**30)
    assert recheck(inst.within_certificate("bd", inst.ball_slack_expressions(boundary), tol)).ok
    assert not recheck(inst.within_certificate("bd", inst.ball_slack_expressions(far), tol)).ok


def test_ball_dual_shape():
    """rldp.audit.ball-support-dual's three shapes at R = R^ (in the ball, not the maximiser): R in the ball and
    dual(mu) - v.R >= 0 are accepted, the 1e-15 tightness is rejected (R^ is no maximiser); e^{-d} written as
    e^{+d} (a wrong dual) and an R outside the ball are rejected."""
    import json

    half = [F(1, 2), F(1, 2)]
    inside, gap, tight = inst.ball_dual_certificates("dual", [(F(2), half, [F(0), F(1)], F(1, 10), F(2), half)])
    assert recheck(inside).ok and recheck(gap).ok
    assert not recheck(tight).ok
    wrong = json.loads(json.dumps(gap).replace('["exp", "-1/10"]', '["exp", "1/10"]'))
    assert wrong != gap and not recheck(wrong).ok
    outside = inst.ball_dual_certificates("dual", [(F(2), half, [F(0), F(1)], F(1, 10), F(2),
                                                    [F(1, 100), F(99, 100)])])[0]
    assert not recheck(outside).ok


def test_phi_second_difference_shape():
    """rldp.sec42.phi-convex's second differences of eq. (26) are accepted at true points (alpha = 1/2, 1, 2);
    the factor 2 written as 201/100 (a wrong second difference) is rejected."""
    import json

    from proofs.rldp.sec4_2_phi import _convexity_certificate

    pts = [(a, F(1, 10), F(1, 2) / F(1, 10)) for a in (F(1, 2), F(1), F(2))]
    doc = _convexity_certificate(pts)
    assert recheck(doc).ok
    wrong = json.loads(json.dumps(doc).replace('["*", 2, ', '["*", "201/100", '))
    assert wrong != doc and not recheck(wrong).ok


def test_alpha2_root_residual_shape():
    """Lemma 1's closed-form roots are on the boundary within 1e-30 (both signs, E = e^B and E = e^B_s of eq. (23));
    the root at a B off by 1e-20, or with the square root dropped (the conversion's misprint), is rejected."""
    rho, B, tol = F(3, 10), F(1, 5), F(1, 10**30)
    E = ["exp", B]
    good = [inst.alpha2_residual_expr(rho, inst.alpha2_root_expr(rho, E, sg), E) for sg in (-1, 1)]
    Es = ["exp", inst.conditional_radius_expr(F(1, 2), 2, B)]
    good.append(inst.alpha2_residual_expr(rho, inst.alpha2_root_expr(rho, Es, -1), Es))
    assert recheck(inst.within_certificate("roots", good, tol)).ok
    off = inst.alpha2_residual_expr(rho, inst.alpha2_root_expr(rho, ["exp", B + F(1, 10**20)], -1), E)
    assert not recheck(inst.within_certificate("roots", [off], tol)).ok
    no_sqrt = ["/", ["+", E, 2 * rho - 1, ["-", ["*", ["-", E, 1], ["-", E, (2 * rho - 1) ** 2]]]], ["*", 2, E]]
    assert not recheck(inst.within_certificate("roots", [inst.alpha2_residual_expr(rho, no_sqrt, E)], tol)).ok


def _perturbed(doc, delta=F(1, 10**20)):
    """The document with the first rational leaf of its expression (a raw datum) moved by delta."""
    import copy

    bad = copy.deepcopy(doc)

    def walk(e):
        for i, a in enumerate(e):
            if isinstance(a, list):
                if walk(a):
                    return True
            elif i > 0 and isinstance(a, (int, str)) and not isinstance(a, bool) and a != "$x":
                try:
                    e[i] = str(F(a) + delta)
                except (ValueError, ZeroDivisionError):
                    continue
                return True
        return False
    assert walk(bad["statement"]["expr"])
    return bad


def test_chain_rule_shape():
    """Theorem 6's two identities at a rational (P, R1, R2) are accepted within 1e-30; one raw number moved by
    1e-20 is rejected."""
    from proofs.rldp.thm6_chain_rule import _chain_expressions

    R1 = [[F(3, 4), F(1, 3)], [F(1, 4), F(2, 3)]]
    R2 = [[F(1, 2), F(1, 5), F(1, 10)], [F(1, 2), F(4, 5), F(9, 10)]]
    P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(0), F(5, 12)]
    doc = inst.within_certificate("chain", _chain_expressions(P, R1, R2, 2, 3), F(1, 10**30))
    assert recheck(doc).ok
    assert not recheck(_perturbed(doc)).ok


def test_mi_concavity_gap_shape():
    """Jensen's gap of I_P(X;Y) at a rational instance is certified > 0; the convex reading (the gap negated, the
    claim's wrong variant) is rejected."""
    from proofs.rldp.sec1_9_sentences import _concavity_gap_expr

    W = [[F(3, 4), F(1, 4)], [F(1, 5), F(4, 5)], [F(1, 2), F(1, 2)]]
    case = (W, [F(1, 2), F(1, 2), F(0)], [F(0), F(1, 3), F(2, 3)], F(3, 10))
    assert recheck(inst.all_positive_certificate("jensen", [_concavity_gap_expr(*case)], exact=False)).ok
    assert not recheck(inst.all_positive_certificate("jensen", [_concavity_gap_expr(*case, "convex")],
                                                     exact=False)).ok


def test_mu_facts_shapes():
    """Theorem 4's mu: I_P(X;Y) = sum_y mu(Q_y) and homogeneity within 1e-30, strict subadditivity > 0 at rational
    instances; homogeneity with gamma off by 1e-20 and subadditivity at proportional vectors (a tie, not > 0) are
    rejected."""
    from proofs.rldp.thm4_srr_optimal import _mu_fact_expr
    from rldp_verify.certificates.divergence import mi_expr
    from rldp_verify.certificates.staircase import mu_expr

    p = [F(1, 2), F(1, 3), F(1, 6)]
    Q = [[F(1, 2), F(1, 4), F(0)], [F(1, 2), F(3, 4), F(1)]]
    tol = F(1, 10**30)
    assert recheck(inst.within_certificate("mi", [["-", mi_expr(Q, p), ["+", *(mu_expr(r, p) for r in Q)]]], tol)).ok
    v1, v2 = [F(1), F(2), F(0)], [F(3), F(1), F(1)]
    assert recheck(inst.within_certificate("hom", [_mu_fact_expr("hom", p, v1, v2, F(7, 3))], tol)).ok
    assert recheck(inst.all_positive_certificate("sub", [_mu_fact_expr("sub", p, v1, v2, 1)], exact=False)).ok
    wrong = ["-", mu_expr([F(7, 3) * x for x in v1], p), ["*", F(7, 3) + F(1, 10**20), mu_expr(v1, p)]]
    assert not recheck(inst.within_certificate("hom", [wrong], tol)).ok
    assert not recheck(inst.all_positive_certificate("sub", [_mu_fact_expr("sub", p, v1, [2 * x for x in v1], 1)],
                                                     exact=False)).ok


def test_argmax_at_min_shape():
    """Lemma A7 point 1: above the threshold (1 - 2 P^_min)^2 the maximum over subsets is certified at {x_min};
    below it (the claim's own example: P^ = (1/10, 2/10, 7/10), B~ = 4/25, argmax {0, 1}) the certificate is
    rejected."""
    c = [F(1, 10), F(2, 10), F(7, 10)]
    assert recheck(inst.all_positive_certificate("argmax", [inst.argmax_at_min_expression(c, (1 - 2 * c[0]) ** 2)],
                                                 exact=False)).ok
    assert not recheck(inst.all_positive_certificate("argmax", [inst.argmax_at_min_expression(c, F(4, 25))],
                                                     exact=False)).ok


def test_rad_below_sqrt_shape():
    """Proposition 2 part 3 at P^_U|s = (1/2, 1/2), e^B_s = 11/10: rad_s = 0.3015 < sqrt(1/10) is certified; the
    literal bound e^B_s - 1 = 1/10 (the sqrt dropped) is rejected."""
    import json

    doc = inst.all_positive_certificate("part3", [inst.rad_below_sqrt_expression([F(1, 2), F(1, 2)], F(11, 10))],
                                        exact=False)
    assert recheck(doc).ok
    literal = json.loads(json.dumps(doc).replace('["sqrt", ["-", "$E", 1]]', '["-", "$E", 1]'))
    assert literal != doc and not recheck(literal).ok


def _steps_ok(ev) -> bool:
    docs = ev.get("certificates")
    assert docs, ev.get("no_certificate")
    return all(recheck(d).ok for d in docs)


def test_steps_a1_shapes(monkeypatch):
    """App. A.1's step certificates at an exact instance are accepted; with the catalogue's wrong printed steps
    ((A2) with swapped exponents, (A24) times P^_s, (A5) reversed) they are rejected."""
    from mutation import steps_catalogue as cat
    from proofs.rldp import steps_appA1 as a1

    phat = ((F(1, 10), F(2, 10), F(1, 10)), (F(3, 10), F(1, 10), F(2, 10)))
    p = ((F(3, 10), F(1, 10), F(1, 10)), (F(1, 10), F(2, 10), F(2, 10)))   # P_s != P^_s
    c1 = [(F(1, 2), phat, p, 0, F(1, 3), F(1, 2)), (F(3), phat, p, 1, F(1, 3), F(1, 2))]
    c5 = [(F(1, 2), phat, p, 0, None), (F(3), phat, p, 1, F(1, 4))]
    c24 = [(phat, p, 0, None), (phat, p, 1, F(1, 5))]
    assert _steps_ok(a1._a1_certificates(c1)) and _steps_ok(a1._a5_certificates(c5))
    assert _steps_ok(a1._a24_certificates(c24))
    monkeypatch.setattr(a1, "printed_A2", cat._a2_swapped_exponents)
    monkeypatch.setattr(a1, "printed_A24", cat._a24_times_phat)
    monkeypatch.setattr(a1, "printed_A5", lambda alpha: ">=" if alpha < 1 else "<=")
    assert not _steps_ok(a1._a1_certificates(c1))
    assert not _steps_ok(a1._a24_certificates(c24))
    assert not _steps_ok(a1._a5_certificates(c5))


def test_steps_a1_extremum_and_lift_shapes(monkeypatch):
    """(A7)-(A10) and (A13)-(A20) certificates at exact instances (boundary and inside) are accepted; with the
    catalogue's wrong (A9) (exponent alpha - 1) and (A18) (C^{1/alpha}) they are rejected."""
    from mutation import steps_catalogue as cat
    from proofs.rldp import steps_appA1 as a1

    phat = ((F(1, 10), F(2, 10), F(1, 10)), (F(3, 10), F(1, 10), F(2, 10)))
    p = ((F(3, 10), F(1, 10), F(1, 10)), (F(1, 10), F(2, 10), F(2, 10)))
    grid = [mpmath.mpf(j) / 64 for j in range(1, 64)] + [mpmath.mpf(10) ** -8, 1 - mpmath.mpf(10) ** -8, None]
    c7 = [(F(1, 2), phat, p, 0, None, grid), (F(3), phat, p, 1, F(1, 3), grid)]
    c13 = [(F(1, 2), phat, p, 0, None), (F(3), phat, p, 1, F(1, 3))]
    assert _steps_ok(a1._a7_certificates(c7)) and _steps_ok(a1._a13_certificates(c13))
    monkeypatch.setattr(a1, "printed_A9", cat._a9_exponent)
    monkeypatch.setattr(a1, "printed_A18", cat._a18_c_power)
    assert not _steps_ok(a1._a7_certificates(c7))
    assert not _steps_ok(a1._a13_certificates(c13))


def test_steps_a2_shapes(monkeypatch):
    """App. A.2's step certificates at exact instances are accepted; with the catalogue's wrong steps ((A34)'s sign,
    xi with mu - 1, psi without its denominator, F(rho, 1) flipped, (A44)'s sides swapped) they are rejected."""
    from mutation import steps_catalogue as cat
    from proofs.rldp import steps_appA2 as a2

    phat = [F(1, 5), F(3, 10), F(1, 2)]
    zeros = [(F(3, 2), F(1, 2), F(2, 3), F(1, 5), F(3, 10)), (F(3), F(2), F(1, 3), F(1, 2), F(1, 5))]
    psi = [(F(2), phat, [0], F(1, 2), F(1, 3)), (F(3, 2), phat, [0, 2], F(1), F(1, 4))]
    f = [(F(2), F(1, 2), F(1, 3), (F(3, 2), F(2), F(1, 10**6)))]
    a44 = [(F(2), phat, [1, -1, 1], F(1, 2), F(3, 2))]

    def all_ok():
        return [_steps_ok(a2._steps_evidence("z", 2, a2._zero_ties(zeros), [], "", "")), _steps_ok(a2._psi_evidence(psi)),
                _steps_ok(a2._f_evidence(f)), _steps_ok(a2._a44_evidence(a44))]
    assert all(all_ok())
    monkeypatch.setattr(a2, "printed_A34", cat._a34_sign)
    monkeypatch.setattr(a2, "printed_psi", cat._psi_no_denominator)
    monkeypatch.setattr(a2, "printed_F_at_1", cat._f_at_1_flipped)
    monkeypatch.setattr(a2, "printed_A44_ratio", cat._a44_sides_swapped)
    assert not any(all_ok())


def test_steps_a3_shapes():
    """(A54)'s zero and signs, (A56)-(A58) at exact B~ are accepted; the radical of (A58) / rho_opt dropped (the
    conversion's misprint, sqrt(B~) read as B~) is rejected."""
    import json

    from proofs.rldp import steps_appA3 as a3

    docs54 = a3._a54_evidence([F(1, 4), F(3, 5)])["certificates"]
    docs56 = a3._a56_evidence([(F(1, 4), [F(1, 10), F(26, 100)]), (F(3, 5), [F(1, 2)])])["certificates"]
    assert all(recheck(d).ok for d in docs54 + docs56)
    for d in docs54 + docs56:
        wrong = json.loads(json.dumps(d).replace('["sqrt", "$B"]', '"$B"'))
        assert wrong != d and not recheck(wrong).ok


def test_steps_a5_shape(monkeypatch):
    """(A83)-(A89) at an exact mechanism are accepted; (A88) with the relation reversed is rejected."""
    from proofs.rldp import steps_appA5 as a5

    case = ([F(1, 3), F(2, 3)], [[1, 3], [4, 1], [2, 2]], [[F(1, 2), F(1, 2), F(0)], [F(0), F(1, 3), F(2, 3)]], [2, 5],
            True)
    assert _steps_ok(a5._convexity_evidence([case]))
    monkeypatch.setattr(a5, "PRINTED_A88_RELATION", "<=")
    assert not _steps_ok(a5._convexity_evidence([case]))


def test_min_over_gamma_shape():
    """The closed-form minimum over gamma of D_alpha(P^||P_gamma) at a boundary R with P^'s other conditional is B
    within 1e-30 (R from the engine's t_interval at 40 digits), and above B once the other conditional moves by 1/20;
    the unmoved case claimed strictly above B is rejected."""
    from proofs.rldp.sec4_1_projection import min_over_gamma_expr
    from rldp_verify.rldp.uncertainty import RenyiBall
    from rldp_verify.rldp.xi_interval import t_interval

    phat, alpha, B = ((F(1, 5), F(3, 10)), (F(1, 10), F(2, 5))), F(2), F(1, 10)
    ball = RenyiBall.from_radius(phat, alpha, B)
    with mpmath.workdps(40):
        Bs = ball.conditional_radius(0, dps=40)
        c = [mpmath.mpf(v.numerator) / v.denominator for v in ball.conditional(0)]
        t = t_interval(ball.conditional(0)[0], alpha, Bs, dps=40)[0]
        R = [t, (1 - t) / (1 - c[0]) * c[1]]
    other = list(ball.conditional(1))
    moved = [other[0] * F(19, 20) + F(1, 20), other[1] * F(19, 20)]
    same = ["-", min_over_gamma_expr(alpha, phat, 0, R, other), B]
    assert recheck(inst.within_certificate("same", [same], F(1, 10**30))).ok
    assert recheck(inst.all_positive_certificate("moved", [["-", min_over_gamma_expr(alpha, phat, 0, R, moved), B]],
                                                 exact=False)).ok
    assert not recheck(inst.all_positive_certificate("same", [same], exact=False)).ok


def test_tplus_concavity_shape():
    """Lemma A6's concavity certificate at (alpha, B) = (2, 1/5) and (1/2, 4) (a plateau t+ = 1) is accepted; one t+
    moved by 1e-6 (its enclosure no longer brackets the root) is rejected."""
    from proofs.rldp.lemA6_l1_radius import _concavity_evidence
    from rldp_verify.rldp.xi_interval import t_interval

    combos = [(a, B, [t_interval(F(k, 40), a, B, dps=25)[1] for k in range(41)]) for a, B in ((F(2), F(1, 5)),
                                                                                            (F(1, 2), F(4)))]
    assert _steps_ok(_concavity_evidence(combos))
    bad = [(a, B, [t + (mpmath.mpf(10) ** -6 if k == 20 else 0) for k, t in enumerate(ts)]) for a, B, ts in combos[:1]]
    assert not _steps_ok(_concavity_evidence(bad))


def test_pair_bracket_witness_shape():
    """A bracket's lower end is certified at its witness (in F, ratio exactly >= lo); lo raised by 1e-12 and a witness
    outside F are rejected."""
    from types import SimpleNamespace

    from proofs.rldp.def1_audit_pair import _witness_evidence
    from rldp_verify.rldp.uncertainty import RenyiBall

    ball = RenyiBall.from_radius(((1, 1), (1, 1)), 2, F(1, 10))
    Qy = [F(1, 2), F(1, 4), F(1, 3), F(1, 5)]
    W = ((F(1, 4), F(1, 4)), (F(1, 4), F(1, 4)))
    lo = (F(1, 2) + F(1, 4)) / (F(1, 3) + F(1, 5))
    assert _steps_ok(_witness_evidence([(ball, Qy, 0, 1, SimpleNamespace(witness=W, lo=lo))]))
    assert not _steps_ok(_witness_evidence([(ball, Qy, 0, 1, SimpleNamespace(witness=W, lo=lo + F(1, 10**12)))]))
    far = ((F(7, 10), F(1, 10)), (F(1, 10), F(1, 10)))      # D_2(P^||far) > 1/10; its ratio >= 0 holds
    assert not _steps_ok(_witness_evidence([(ball, Qy, 0, 1, SimpleNamespace(witness=far, lo=F(0)))]))
