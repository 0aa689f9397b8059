"""Certificates of the sampled instances of the high-precision property claims of the ISIT, Kairouz, PRAM and
f-alpha papers (issue 23, helper props-other3): each shape a claim writes is accepted on a true instance and a wrong
variant of it (a perturbed value, a flipped inequality, a wrong formula) is rejected by the independent checker."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.instances_other import TIE, entropy_expr, near_zero


def test_near_zero_accepts_an_irrational_identity_and_rejects_a_gap_above_1e30():
    # log 6 = log 2 + log 3: arb cannot prove the equality, but |difference| <= 1e-30
    good = ["-", ["log", 6], ["+", ["log", 2], ["log", 3]]]
    assert recheck(near_zero("log 6", [good])).ok
    assert not recheck(near_zero("log 6", [good, ["+", good, F(2, 10**30)]])).ok      # one term off by 2e-30
    assert not recheck(near_zero("log 6", [["-", ["log", 6], ["+", ["log", 2], ["log", 4]]]])).ok
    assert near_zero("x", [0])["statement"]["upper"] == "1/" + str(10**30) and F(1, 10**30) == TIE


def test_entropy_expr_leaves_out_zero_masses_and_is_the_checkers_entropy():
    p = [F(1, 2), 0, F(1, 4), F(1, 4)]
    # H = (3/2) log 2
    assert recheck(near_zero("H", [["-", entropy_expr(p), ["*", F(3, 2), ["log", 2]]]])).ok
    assert not recheck(near_zero("H", [["-", entropy_expr(p), ["*", F(3, 2), ["log", 3]]]])).ok


def test_pram_mi_identities_certificate_and_a_wrong_marginal():
    from proofs.pram import sec2_background as m

    laws = [(2, 3, [F(1, 10), F(2, 10), F(1, 10), F(3, 10), 0, F(3, 10)])]
    ev = m._mi_certificates(laws, 1)     # (3), (5) as log identities (rest.log_ties), (4) > 0
    assert [d["kind"] for d in ev["certificates"]] == ["symbolic-identity"] * 2 + ["rigorous-value"]
    assert all(recheck(d).ok for d in ev["certificates"])
    binds, t = m._mi_joint_exprs(*laws[0])
    wrong = [[n, ["+", e, F(1, 100)]] if n == "x0" else [n, e] for n, e in binds]   # p_X(0) off by 1/100
    assert not recheck(near_zero("(3) wrong p_X", [["let", wrong, t["(3)"]]])).ok
    # (4) at a product law: D_KL = 0 exactly, so 'D_KL > 0' is rejected (and the claim leaves product laws out)
    from rldp_verify.certificates.instances_other import all_nonneg

    prod = (2, 2, [F(1, 4)] * 4)
    assert m._is_product(*prod) and not m._is_product(*laws[0])
    _, tp = m._mi_joint_exprs(*prod)
    assert not recheck(all_nonneg("(4) at a product law", [tp["(4)"]], strict=True, exact=False)).ok


def test_pram_entropy_certificates_and_a_uniform_p_as_an_inequality():
    from proofs.pram import sec2_entropy as m

    ev = m._certificates([[F(1, 3), F(2, 3)], [F(1), 0, 0]], [([F(1, 3), F(2, 3)], [F(1, 2), F(1, 4), F(1, 4)])], 2)
    # the inequalities, then the 8 equalities as log identities (rest.log_ties)
    assert [d["kind"] for d in ev["certificates"]] == ["rigorous-value"] + ["symbolic-identity"] * 8
    assert all(recheck(d).ok for d in ev["certificates"])
    from rldp_verify.certificates.instances_other import all_nonneg

    u = [F(1, 3)] * 3     # log 3 - H(uniform) = 0: the tie arb cannot decide, so never stated as an inequality
    assert not recheck(all_nonneg("uniform", [["-", ["log", 3], entropy_expr(u)]], strict=True, exact=False)).ok
    # H(Z|X) = H(Z) for a dependent pair is off: H(p x q) - H(p) - H(q) with q replaced by another law
    bad = ["-", entropy_expr([a * b for a in [F(1, 3), F(2, 3)] for b in [F(1, 2), F(1, 2)]]),
           ["+", entropy_expr([F(1, 3), F(2, 3)]), entropy_expr([F(1, 4), F(3, 4)])]]
    assert not recheck(near_zero("H(Z|X)", [bad])).ok


def test_pram_f_form_certificate_and_a_wrong_off_diagonal():
    from proofs.pram import sec3_1_f_form as m

    chosen = [([F(1, 2), F(1, 3), F(1, 6)], [F(1, 5), F(7, 10), F(1)]), ([F(1), F(0)], [F(0), F(0)])]
    assert recheck(m._form_certificate(chosen)).ok
    from rldp_verify.certificates.divergence import mi_expr

    p, q = chosen[0]
    # the off-diagonal (1 - q_x)/(S - 1) read as (1 - q_x): the form no longer equals I(X, Z)
    wrong = ["+", _swap(m._form_expr(p, q), ["/", ["-", 1, q[0]], 2], ["-", 1, q[0]])]
    M = [[q[x] if x == z else (1 - q[x]) / 2 for z in range(3)] for x in range(3)]
    assert not recheck(near_zero("form", [["-", wrong, mi_expr([[M[x][z] for x in range(3)] for z in range(3)],
                                                              p)]])).ok


def test_pram_boundary_certificate_and_a_flipped_inequality():
    from proofs.pram import sec3_2_binary_symmetric as m

    chosen = [([F(1, 3), F(2, 3)], 2, F(3, 2)), ([F(1, 2), F(1, 4), F(1, 4)], 3, F(2))]
    doc = m._boundary_certificate(chosen)
    assert recheck(doc).ok
    flipped = {**doc, "statement": {**doc["statement"], "lower": None, "upper": "0"}}   # ends <= interior
    assert not recheck(flipped).ok


def _swap(tree, old, new):
    """``tree`` with every subtree equal to ``old`` (as JSON-able lists) replaced by ``new``."""
    if tree == old:
        return new
    if isinstance(tree, list):
        return [_swap(t, old, new) for t in tree]
    if isinstance(tree, dict):
        return {k: _swap(v, old, new) for k, v in tree.items()}
    return tree


def test_kairouz_mi_facts_certificate_a_tie_and_the_concave_variant():
    from proofs.kairouz import sec4_6_sentences as m

    P, Q1, Q2 = [F(1, 3), F(2, 3)], [[F(1, 2), F(1, 2)], [F(1, 5), F(4, 5)]], [[F(1), F(0)], [F(1, 3), F(2, 3)]]
    good = m.mi_facts_certificates([(P, Q1, Q2, F(3, 10), True, True)])
    assert recheck(good[0]).ok
    # X a function of Y (Q1 the identity): H(X) - I(X;Y) = 0, a tie that 'slack > 0' must not certify
    ident = [[F(1), F(0)], [F(0), F(1)]]
    assert not recheck(m.mi_facts_certificates([(P, ident, Q2, F(3, 10), True, False)])[0]).ok
    # the concave reading: the negated Jensen gap is rejected
    doc = good[0]
    terms = doc["statement"]["expr"][1:]
    from rldp_verify.certificates.instances_other import all_nonneg

    assert not recheck(all_nonneg("concave", [["-", 0, terms[1]]], strict=True, exact=False)).ok


def test_falpha_eq1_certificate_refuses_a_wrong_r_star_and_the_checker_a_smaller_one():
    import pytest

    from proofs.falpha import sec1_6_sentences as m

    P, Q = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)]
    doc = m.eq1_certificate([(P, Q, F(2), F(1, 2))])
    assert recheck(doc).ok
    with pytest.raises(ValueError, match="not max P/Q"):
        m.eq1_certificate([(P, Q, F(4, 3), F(1, 3))])      # the second-largest ratio
    assert not recheck(_swap(doc, ["log", 2], ["log", "19/10"])).ok   # log r* lowered: D_alpha < log r* fails


def test_falpha_rem7_certificate_and_a_right_side_without_its_plus_one():
    from proofs.falpha import thm6_reverse_pinsker as m

    pairs = [([F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)])]
    doc = m.rem7_certificate(pairs)
    assert recheck(doc).ok
    # the right side of (35) without its '+ 1' inside the log (log(TV R) / (alpha - 1)): rejected
    e = doc["statement"]["expr"]
    bad = _drop_plus_one(e)
    assert bad != e and not recheck({**doc, "statement": {**doc["statement"], "expr": bad}}).ok


def _drop_plus_one(tree):
    """``tree`` with every ["log", ["+", X, "1"]] replaced by ["log", X]."""
    if isinstance(tree, list):
        if len(tree) == 2 and tree[0] == "log" and isinstance(tree[1], list) and tree[1][0] == "+" \
                and len(tree[1]) == 3 and tree[1][2] == 1:
            return ["log", _drop_plus_one(tree[1][1])]
        return [_drop_plus_one(t) for t in tree]
    return tree


M1 = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 2), F(1, 4)]]
W1 = [[F(3, 4), F(1, 4)], [F(1, 2), F(1, 2)], [F(1, 5), F(4, 5)]]


def test_falpha_phi_certificate_a_flipped_inequality_and_a_wrong_branch():
    from proofs.falpha import cor11_amplification as m
    from rldp_verify.certificates.instances_other import all_nonneg

    assert recheck(m.phi_certificate([(M1, W1, F(2)), (M1, W1, F(3, 2))])).ok
    gap, cond = m.phi_expressions(M1, W1, F(2))
    assert not recheck(all_nonneg("eps* > phi", [["-", 0, gap]], strict=True, exact=False)).ok
    assert not recheck(all_nonneg("the other branch", [["-", 0, cond]], strict=True, exact=False)).ok


def test_falpha_cor11_certificate_and_lhs_without_its_minus_one():
    from proofs.falpha import cor11_amplification as m

    P_set = [[F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 2), F(1, 4)], [F(1, 3), F(1, 3), F(1, 3)]]
    doc = m.cor11_certificate([(W1, P_set, P_set[0], P_set[1], F(2)), (W1, P_set, P_set[2], P_set[0], F(3, 2))])
    assert recheck(doc).ok
    # D_f_alpha read as sum Q (P/Q)^alpha (without the - Q_Y terms, i.e. + 1): the inequality fails
    bad = _strip_minus_q(doc)
    assert bad != doc and not recheck(bad).ok


def _strip_minus_q(tree):
    """``tree`` with every ["-", ["*", q, ["pow", ...]], q] (a term Q_Y ((P_Y/Q_Y)^alpha - 1)) replaced by its first
    part Q_Y (P_Y/Q_Y)^alpha."""
    if isinstance(tree, dict):
        return {k: _strip_minus_q(v) for k, v in tree.items()}
    if isinstance(tree, list):
        if len(tree) == 3 and tree[0] == "-" and isinstance(tree[1], list) and tree[1][:1] == ["*"] \
                and len(tree[1]) == 3 and isinstance(tree[1][2], list) and tree[1][2][:1] == ["pow"] \
                and tree[1][1] == tree[2]:
            return _strip_minus_q(tree[1])
        return [_strip_minus_q(t) for t in tree]
    return tree


def test_falpha_renyi_monotone_certificate_and_equal_orders_or_a_swapped_pair():
    from proofs.falpha import steps_appA_B as m

    pairs = [([F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]), ([F(1, 5), F(3, 10), F(1, 2)], [F(1, 3), F(1, 3), F(1, 3)])]
    assert recheck(m.monotone_certificate(pairs, [F(1, 2), F(1), F(3, 2), F(2)])).ok
    assert not recheck(m.monotone_certificate(pairs, [F(2), F(3, 2)])).ok          # 'decreasing in alpha'
    assert not recheck(m.monotone_certificate([(pairs[0][0], pairs[0][0])], [F(1, 2), F(2)])).ok   # P = Q: no increase


def test_falpha_eq68_69_certificate_the_68_mutant_and_a_flipped_69(monkeypatch):
    import mpmath

    from proofs.falpha import steps_appA_B as m

    with mpmath.workdps(50):
        a, t = mpmath.mpf(2), mpmath.mpf(3) / 4
        pts68 = [(a, mpmath.mpf(1) / 10, t)]
        pts69 = [(a, [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4], [mpmath.mpf(1) / 2, mpmath.mpf(1) / 2])]
        assert recheck(m.eq68_69_certificate(pts68, pts69)).ok
        doc = m.eq68_69_certificate([], pts69)
        assert not recheck({**doc, "statement": {**doc["statement"], "lower": None, "upper": "0"}}).ok
        # the mutant steps.falpha.68-without-minus-1: (alpha t + p) (1-p)^(alpha-1)/(1-p-t)^alpha exceeds d psi/dp
        monkeypatch.setattr(m, "printed_68", lambda a, p, t: (a * t + p) * (1 - p) ** (a - 1) / (1 - p - t) ** a)
        assert not recheck(m.eq68_69_certificate(pts68, [])).ok


PHAT = ((F(1, 10), F(1, 10)), (F(1, 5), F(1, 10)), (F(3, 20), F(7, 20)))
PT = ((F(1, 8), F(1, 8)), (F(1, 8), F(1, 8)), (F(1, 4), F(1, 4)))


def test_isit_cauchy_schwarz_certificate_and_a_radius_below_chi2():
    from proofs.isit import steps_appA_C as m
    from rldp_verify.certificates.instances_other import all_nonneg

    assert recheck(all_nonneg("cs", m.cs_terms(PHAT, PT, 0, 2, F(1, 3)), strict=True, exact=False)).ok
    # B = chi2 (1 + r) with r = -1/2: P is outside F and (42) fails
    assert not recheck(all_nonneg("cs", m.cs_terms(PHAT, PT, 0, 2, F(-1, 2)), strict=True, exact=False)).ok


def test_isit_lift_certificate_and_the_38_mutant(monkeypatch):
    from proofs.isit import steps_appA_C as m
    from rldp_verify.certificates.instances_other import all_nonneg

    eqs, ineq = m.lift_terms(PHAT, PT, 0, 2, F(1, 2))
    assert recheck(near_zero("lift", eqs)).ok and recheck(all_nonneg("41", ineq, strict=True, exact=False)).ok
    monkeypatch.setattr(m, "printed_38", lambda k: k[0] + k[1] + k[2])     # steps.isit.38-without-square
    assert not recheck(near_zero("lift", m.lift_terms(PHAT, PT, 0, 2, F(1, 2))[0])).ok


def test_kairouz_large_eps_terms_and_a_bound_too_small():
    from proofs.kairouz import steps_sec7_8 as m
    from rldp_verify.certificates.instances_other import all_nonneg

    assert recheck(all_nonneg("85", m.large_eps_terms(F(1, 2), F(3, 4), 3), strict=True, exact=False)).ok
    assert recheck(all_nonneg("85 at a = 0", m.large_eps_terms(F(0), F(1, 4), 2), strict=True, exact=False)).ok
    # k = 1 in the second bound: |(1/(e^eps + k - 1) - e^-eps) e^2eps| <= k - 1 = 0 fails for the true k = 2 remainder
    terms = m.large_eps_terms(F(1, 2), F(3, 4), 2)
    assert not recheck(all_nonneg("85", [["-", t, 1] if i % 2 else t for i, t in enumerate(terms)], strict=True,
                                  exact=False)).ok


def test_kairouz_chain_140_certificates_a_non_stochastic_w_and_reversed_sublinearity():
    from proofs.kairouz import steps_sec9_10 as m

    Q = [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]]
    W = [[F(1, 4), F(3, 4)], [F(2, 3), F(1, 3)]]
    P0, P1, P = [F(1, 3), F(2, 3)], [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]
    docs = m.chain_140_certificates([("KL", Q, W, P0, P1, P, True), ("MI", Q, W, P0, P1, P, True)])
    assert [recheck(d).ok for d in docs] == [True, True]
    W_bad = [[F(1, 4), F(4, 5)], W[1]]      # a row summing to 21/20
    assert not recheck(m.chain_140_certificates([("KL", Q, W_bad, P0, P1, P, False)])[0]).ok
    rev = docs[1]["statement"]["expr"]
    flipped = ["min", *[["-", 0, t] for t in rev[1:]]]
    assert not recheck({**docs[1], "statement": {**docs[1]["statement"], "expr": flipped}}).ok


def test_kairouz_chain_115_terms_and_two_mutants(monkeypatch):
    from proofs.kairouz import steps_sec9_10 as m
    from rldp_verify.certificates.instances_other import all_nonneg

    P, eps, Tset = [F(1, 5), F(3, 10), F(1, 2)], F(1, 2), frozenset({2})
    eqs, ineqs = m.chain_115_terms(P, eps, Tset)
    assert recheck(near_zero("115", [eqs])).ok and recheck(all_nonneg("117", ineqs, strict=True, exact=False)).ok
    monkeypatch.setattr(m, "printed_115", lambda t, a, b: (a + b) / (t - 1))           # steps.kairouz.115-minus
    assert not recheck(near_zero("115", [m.chain_115_terms(P, eps, Tset)[0]])).ok
    monkeypatch.setattr(m, "printed_117_last", lambda t: t)                             # steps.kairouz.117-last
    assert not recheck(all_nonneg("117", m.chain_115_terms(P, eps, Tset)[1], strict=True, exact=False)).ok


def test_kairouz_rr_dual_identities_and_the_rr_alpha_mutant(monkeypatch):
    from proofs.kairouz import steps_sec9_10 as m

    docs = m.rr_dual_certificates([[F(1, 5), F(3, 10), F(1, 2)]], ks=(3,))
    assert all(recheck(d).ok for d in docs)
    # steps.kairouz.rr-alpha: (e^eps + k - 1) mu(S_(j_i)) in alpha*: the identities fail
    monkeypatch.setattr(m, "printed_rr_alpha", lambda t, k, s, i: ((t + k - 1) * s[i] - sum(
        x for j, x in enumerate(s) if j != i)) / ((t - 1) * (t + k - 1)))
    bad = m.rr_dual_certificates([[F(1, 5), F(3, 10), F(1, 2)]], ks=(3,))
    assert not any(recheck(d).ok for d in bad[:-1])


def test_kairouz_dual_103_identities_and_the_weights_mutant(monkeypatch):
    from proofs.kairouz import steps_sec9_10 as m

    configs, zs = {(3, 1, (1, 0, 1, 1))}, [(F(1, 10), F(3, 10))]
    assert all(recheck(d).ok for d in m.dual_103_certificates(configs, zs))
    orig = m.printed_103
    monkeypatch.setattr(m, "printed_103", lambda t, a, b, p, q, r, s, nT, nTc: orig(t, a, b, q, p, r, s, nT, nTc))
    assert not recheck(m.dual_103_certificates(configs, zs)[0]).ok        # steps.kairouz.103-weights
    assert not recheck(m.dual_103_certificates(configs, [(F(3, 10), F(1, 10))])[-2]).ok   # z1 > z2: g decreases


def test_falpha_rem10_certificates_and_the_wrong_branch(monkeypatch):
    from proofs.falpha import rem10_inverse as m

    pairs = [(F(3, 2), [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]), (F(3), [F(1, 10), F(9, 10)], [F(9, 10), F(1, 10)])]
    docs = m.inverse_certificates(pairs, orders=("1.5", "3"))
    assert [recheck(d).ok for d in docs] == [True, True]
    orig = m._branch

    def other(s, a, v):
        b, _ = orig(s, a, v)
        from proofs.falpha._certs import switch_h_expr
        return ("high", ["-", s, switch_h_expr(a)]) if b == "low" else ("low", ["-", switch_h_expr(a), s])
    monkeypatch.setattr(m, "_branch", other)
    assert not any(recheck(d).ok for d in m.inverse_certificates(pairs, orders=("1.5",)))


def test_isit_lemma8_terms_and_the_77_exponent_mutant():
    from proofs.isit import steps_appA_C as m

    terms = m.lemma8_terms([F(1, 2), F(3, 2)], [F(-1, 3), F(-2)], [F(1), F(2)])
    assert recheck(near_zero("lemma 8", terms)).ok
    # steps.isit.77-exponent: c = 2^(-2/3) lambda^(-2/3)
    bad = _swap(terms, ["pow", "$lam", F(-1, 3)], ["pow", "$lam", F(-2, 3)])
    assert bad != terms and not recheck(near_zero("lemma 8", bad)).ok


def test_falpha_eq63_certificate_and_the_minimum_at_p0_mutant():
    import mpmath

    from proofs.falpha import steps_appA_B as m

    with mpmath.workdps(30):
        a, t = mpmath.mpf(3), mpmath.mpf(2) / 7      # the minimiser is no grid point (1 - t) j/30
        _, p = m.printed_63_rhs(a, t)
        pair = (F(2), [F(1, 2), F(1, 2)], [F(1, 5), F(4, 5)], m.printed_63_rhs(a, mpmath.mpf(3) / 10)[1])
        assert recheck(m.eq63_certificate([(a, p, t)], [pair])).ok
        # steps.falpha.63-at-p0: the binary minimum taken at p = 0 is above psi at grid points
        assert not recheck(m.eq63_certificate([(a, mpmath.mpf(0), t)], [])).ok


def test_isit_thm2_bracket_certificates_and_two_wrong_variants():
    import mpmath

    from proofs.isit import sec4_general_renyi as m
    from rldp_verify.topics.chisquare.ball import chi2_divergence, support_ball

    v, P, B = [0.5, -0.25, 1.0], [0.25, 0.25, 0.5], 0.25
    with mpmath.workdps(40):
        res = support_ball(v, P, B)
        Pm = [mpmath.mpf(x) for x in P]
        th = mpmath.mpf(10) ** -20
        Pw = [(1 - th) * a + th * b for a, b in zip(res.P_star, Pm, strict=True)]
        assert chi2_divergence(Pw, Pm) <= B
    assert [recheck(d).ok for d in m.thm2_certificates([(v, P, B, res.M, Pw)])] == [True, True, True]
    assert not recheck(m.thm2_certificates([(v, P, 0.2, res.M, Pw)])[0]).ok          # W outside the smaller ball
    off = m.thm2_certificates([(v, P, B, res.M + mpmath.mpf(10) ** -2, Pw)])   # M off the minimiser: bracket > 1e-9
    assert not recheck(off[1]).ok and recheck(off[2]).ok


def test_exact_number_keeps_the_sign_of_an_mpf():
    import mpmath

    from rldp_verify.certificates.series import exact_number

    assert exact_number(mpmath.mpf(-0.5)) == F(-1, 2) and exact_number(mpmath.mpf(-3)) == -3
    assert exact_number(mpmath.mpf(2.5)) == F(5, 2) and exact_number(mpmath.mpf(0)) == 0


def test_isit_thm4_bracket_certificates_and_two_wrong_variants():
    import mpmath

    from proofs.isit import thm4_support_projection as m
    from rldp_verify.topics.chisquare.ball import lift_to_ball, support_joint_projection

    Pq = ((F(1, 5), F(1, 10)), (F(1, 10), F(3, 10)), (F(1, 5), F(1, 10)))
    B, v1, v2 = F(3, 10), [F(1, 2), F(-1, 4)], [F(-3, 5), F(1, 5)]
    with mpmath.workdps(50):
        res = support_joint_projection(v1, v2, Pq[0], Pq[1], B)
        th = mpmath.mpf(10) ** -25
        R = [[(1 - th) * r + th * mpmath.mpf((h / sum(Pq[s])).numerator) / (h / sum(Pq[s])).denominator for r, h in zip(rr, Pq[s], strict=True)]
             for s, rr in ((0, res.R1), (1, res.R2))]
        P = lift_to_ball(R[0], R[1], Pq, 0, 1)
    case = (Pq, B, v1, v2, res.M1, res.M2, res.c, P, True)
    assert [recheck(d).ok for d in m.thm4_certificates([case])] == [True, True]
    assert not recheck(m.thm4_certificates([(Pq, F(1, 5), *case[2:])])[0]).ok           # the lift outside a smaller F
    off = (*case[:6], res.c * (1 + mpmath.mpf(10) ** -3), *case[7:])                      # c off the minimiser
    assert not recheck(m.thm4_certificates([off])[1]).ok


def test_isit_thm3_certificates_and_a_point_outside_f():
    from proofs.isit import thm3_joint_projection as m

    Pq = ((F(1, 5), F(1, 10)), (F(1, 10), F(3, 10)), (F(1, 5), F(1, 10)))
    near = [[0.19, 0.11], [0.1, 0.3], [0.2, 0.1]]            # floats (binary rationals), close to P^
    assert all(recheck(d).ok for d in m.thm3_certificates([], [(Pq, F(3, 10), near)]))
    far = [[0.5, 0.01], [0.01, 0.01], [0.46, 0.01]]
    assert m._thm3_terms(Pq, F(3, 10), far) is None          # outside F: no certificate is written for it
    ex, ar = m._thm3_terms(Pq, F(3, 10), near)
    from rldp_verify.certificates.instances_other import all_nonneg

    assert not recheck(all_nonneg("in F", ex[:-1] + [["-", F(1, 1000), ex[-1][2]]])).ok   # a ball of radius 1e-3


@pytest.mark.slow
def test_isit_thm4_general_certificates_a_wrong_psi_branch_and_a_smaller_ball(monkeypatch):
    """Runs the claim's check once (about 1.5 s) to get the engine's instances."""
    from proofs.isit import sec4_general_renyi as m
    from rldp_verify.claims import Context

    got = []
    monkeypatch.setattr(m, "joint_certificates", lambda joints: got.extend(joints) or [])
    m.check_thm4(Context())
    monkeypatch.undo()
    assert got and [recheck(d).ok for d in m.joint_certificates(got[:2])] == [True, True]
    assert not recheck(m.joint_certificates([(got[0][0], got[0][1] / 2, *got[0][2:])])[0]).ok   # W outside F(B/2)
    orig = m._psi_expr
    monkeypatch.setattr(m, "_psi_expr", lambda k, M, kv, Mv: orig(k, M, Mv, kv))             # the other branch
    assert not recheck(m.joint_certificates(got[:1])[1]).ok


def test_isit_rewritings_terms_and_a_wrong_radius():
    from proofs.isit import steps_appA_C as m
    from rldp_verify.certificates.instances_other import all_nonneg, all_zero

    rec = {"ex": (PHAT, PT, 0, 2), "B": F(1, 2), "t": [F(-1, 2), F(-1), F(-3, 2), F(-1, 3), F(-2), F(-1, 4)],
           "R": [([F(3, 2)] * 6, 1, F(3, 4))], "kappa": [F(1, 2), F(1), F(3, 2)], "v": [F(-1), F(-2)]}
    ex, nz, pos = m.rewritings_terms(rec)
    assert recheck(all_zero("ex", ex)).ok and recheck(near_zero("nz", nz)).ok
    assert recheck(all_nonneg("pos", pos, strict=True, exact=False)).ok
    # (57) with the radius B + 2 in the maximiser's boundary identity: off by far more than 1e-30
    assert not recheck(near_zero("nz", [_swap(nz[-1], ["-", ["+", *nz[-1][2][1][1:]], F(3, 2)],
                                              ["-", ["+", *nz[-1][2][1][1:]], F(5, 2)])])).ok
