"""Certificates of the sampled instances of the rldp property tests (issue 23,
:mod:`rldp_verify.certificates.instances_rldp`): each builder shape is accepted on true instances and rejected
once one instance is made false; the claims' own documents are rejected once a raw number in them is perturbed."""

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates import recheck
from rldp_verify.certificates.claims import KEY
from rldp_verify.claims import Context


def test_all_zero_accepts_equalities_and_rejects_one_perturbed():
    es = [["-", ["/", ["*", F(1, 3), F(2, 7)], F(2, 7)], F(1, 3)], ["-", ["+", F(1, 2), F(1, 3)], F(5, 6)]]
    assert recheck(inst.all_zero_certificate("eq", es)).ok
    bad = es + [["-", ["+", F(1, 2), F(1, 3)], F(5, 6) + F(1, 10**30)]]   # one instance off by 1e-30
    assert not recheck(inst.all_zero_certificate("eq", bad)).ok


def test_all_nonneg_and_positive_reject_one_false_instance():
    es = [["-", F(1, 2), F(1, 3)], ["-", F(1, 3), F(1, 3)]]
    assert recheck(inst.all_nonneg_certificate("ge", es)).ok
    assert not recheck(inst.all_positive_certificate("gt", es)).ok            # the second is 0, not > 0
    assert not recheck(inst.all_nonneg_certificate("ge", es + [["-", F(1, 3), F(1, 2)]])).ok
    arb = [["-", ["log", 3], 1]]                                                 # log 3 > 1, in arb
    assert recheck(inst.all_positive_certificate("log", arb, exact=False)).ok
    assert not recheck(inst.all_positive_certificate("log", [["-", ["log", 2], 1]], exact=False)).ok


def test_ldp_expressions_and_level():
    Q = [[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]]                                # randomized response, level 3
    assert recheck(inst.all_nonneg_certificate("ldp", inst.ldp_expressions(Q, 3))).ok
    assert not recheck(inst.all_nonneg_certificate("ldp", inst.ldp_expressions(Q, F(299, 100)))).ok
    assert recheck(inst.ldp_level_certificate("lvl", Q, 3)).ok
    assert not recheck(inst.ldp_level_certificate("lvl", Q, F(301, 100))).ok    # every ratio < t: not attained
    assert not recheck(inst.ldp_level_certificate("lvl", Q, F(299, 100))).ok


def test_empty_instance_list_refused():
    with pytest.raises(ValueError, match="no instance"):
        inst.all_zero_certificate("eq", [])


def _docs(outcome):
    docs = outcome.evidence.get(KEY)
    assert docs, outcome.evidence.get("no_certificate")
    return docs


def _perturb_first_number(doc, delta=F(1, 10**12)):
    """The document with the first rational leaf of its expression (a raw datum of an instance) moved by delta."""
    bad = copy.deepcopy(doc)

    def walk(e):
        for i, a in enumerate(e):
            if isinstance(a, list):
                if walk(a):
                    return True
            elif i > 0 and not (isinstance(a, str) and a.startswith("$")):
                e[i] = str(F(a) + delta)
                return True
        return False

    assert walk(bad["statement"]["expr"])
    return json.loads(json.dumps(bad))


def test_sec1_claims_certificates_accepted_and_wrong_variants_rejected(monkeypatch):
    import functools

    import proofs.rldp.sec1_9_sentences as s

    ctx = Context(dps=30)
    for check in (s.check_x_equals_s, s.check_eq3, s.check_composition):
        docs = _docs(check(ctx))
        assert all(recheck(d).ok for d in docs), check.__name__
    assert not recheck(_perturb_first_number(_docs(s.check_x_equals_s(ctx))[0])).ok
    # wrong variants of what the certificates state: P(y, s) for P(y|s); the prior odds inverted; max for product
    joint = lambda Q, P, y, s_, a2: ["+", *(["*", Q[y][x], P[x]] for x in range(s_ * a2, s_ * a2 + a2))]  # noqa: E731
    monkeypatch.setattr(s, "cond_output_expr", joint)
    assert not recheck(_docs(s.check_x_equals_s(ctx))[0]).ok
    monkeypatch.undo()
    monkeypatch.setattr(s, "_eq3_sides", functools.partial(s._eq3_sides, prior="inverted"))
    assert not all(recheck(d).ok for d in _docs(s.check_eq3(ctx)))
    monkeypatch.undo()
    monkeypatch.setattr(s, "_composition_certificates",
                        functools.partial(s._composition_certificates, level=lambda a, b: ["max", a, b]))
    docs = _docs(s.check_composition(ctx))
    assert not recheck(docs[0]).ok and not recheck(docs[1]).ok


def test_robust_lp_and_condition41_reject_wrong_values():
    L = [[F(1, 10), F(1, 5), F(1, 10)], [F(1, 5), F(1, 5), F(1, 5)]]
    row = [F(1, 10), F(3, 10), F(2, 10), F(2, 10), F(2, 10), F(2, 10)]
    hi, doc = inst.robust_lp_certificate("lp", row[:3], L[0], True)
    assert hi == F(27, 100) and recheck(doc).ok
    bad = copy.deepcopy(doc)
    bad["statement"]["value"] = "26/100"                                            # the optimum understated
    assert not recheck(bad).ok
    # (41) for s1 = 0, s2 = 1: max over D_0 = 27/100, min over D_1 = 1/5, so r = 27/20 is exactly enough
    docs = inst.condition41_certificates("c41", [(row, L, F(27, 20), "log(27/20)", 0, 1, 3)])
    assert all(recheck(d).ok for d in docs)
    docs = inst.condition41_certificates("c41", [(row, L, F(13, 10), "log(13/10)", 0, 1, 3)])
    assert not all(recheck(d).ok for d in docs)
    # r claimed as e^eps rounded down but above it: e^(3/10) = 1.3498... < 27/20
    docs = inst.condition41_certificates("c41", [(row, L, F(27, 20), "3/10", 0, 1, 3)])
    assert not recheck(docs[-1]).ok


def test_definition1_at_points_rejects_a_point_outside_F_and_a_violation():
    phat = [F(1, 4), F(1, 4), F(1, 4), F(1, 4)]                                    # |S| = |U| = 2
    Q = [[F(2, 3), F(2, 3), F(1, 3), F(1, 3)], [F(1, 3), F(1, 3), F(2, 3), F(2, 3)]]  # RR on S, level 2
    P = [F(3, 10), F(1, 5), F(1, 4), F(1, 4)]
    good = (Q, P, 2, "log(2)", phat, F(2), F(1, 10))
    assert all(recheck(d).ok for d in inst.definition1_at_points_certificates("d1", [good]))
    lowered = (Q, P, 2, "log(199/100)", phat, F(2), F(1, 10))                       # e^eps below the level
    assert not all(recheck(d).ok for d in inst.definition1_at_points_certificates("d1", [lowered]))
    far = (Q, [F(7, 10), F(1, 10), F(1, 10), F(1, 10)], 2, "log(2)", phat, F(2), F(1, 10))   # D_2 > 1/10
    assert not recheck(inst.definition1_at_points_certificates("d1", [far])[0]).ok
    arb_eps = (Q, P, 2, "7/10", phat, F(2), F(1, 10))                               # e^0.7 = 2.01... >= 2
    assert all(recheck(d).ok for d in inst.definition1_at_points_certificates("d1", [arb_eps]))
    assert not all(recheck(d).ok for d in inst.definition1_at_points_certificates(
        "d1", [(Q, P, 2, "69/100", phat, F(2), F(1, 10))]))                         # e^0.69 = 1.99... < 2


def test_prop3_expressions_reject_a_cross_s_ratio_above_e_eps():
    from rldp_verify.rldp.mechanisms import srr_matrix

    Q = srr_matrix(2, 2, F(2))                                                    # (log 2, P_X)-RLDP, tight
    assert recheck(inst.all_nonneg_certificate("p3", inst.prop3_expressions(Q, 2, 2))).ok
    assert not recheck(inst.all_nonneg_certificate("p3", inst.prop3_expressions(Q, 2, F(19, 10)))).ok
    # read with |U| = 1 (every pair across s), SRR's within-s ratio e^2eps breaks the condition at e^eps
    assert not recheck(inst.all_nonneg_certificate("p3", inst.prop3_expressions(Q, 1, 2))).ok


@pytest.mark.slow
def test_prop3_lemma2_lemma3_claims_certificates_accepted_and_wrong_variants_rejected(monkeypatch):
    import proofs.rldp.lem2_srr_private as l2
    import proofs.rldp.lem3_ratio_bound as l3
    import proofs.rldp.prop3_px_rldp as p3

    ctx = Context(dps=30)
    for check in (p3.check_iff, p3.check_eq57, l2.check_srr, l3.check_lemma3):
        assert all(recheck(d).ok for d in _docs(check(ctx))), check.__name__
    # the factor without its 1/2 (a tighter, false bound): Lemma 3's certificate fails
    monkeypatch.setattr(l3, "_factor_expr", lambda r, P, P2: ["+", 1, ["*", ["/", ["-", r, 1], 4], ["+", *(
        ["max", ["-", x, y], ["-", y, x]] for x, y in zip(P, P2, strict=True))]]])
    assert not all(recheck(d).ok for d in _docs(l3.check_lemma3(ctx)))
    # Proposition 3 read with the within-s pairs too (|U| = 1 for the ratio condition): SRR's certificates fail
    original = inst.prop3_expressions
    monkeypatch.setattr(inst, "prop3_expressions", lambda Q, a2, t: original(Q, 1, t))
    assert not all(recheck(d).ok for d in _docs(l2.check_srr(ctx)))


def test_cone_membership_separates_the_cones_on_srr():
    """Example 3's setting: SRR lies in the relaxed cone (s1 != s2) but violates Definition 3 with s1 = s2."""
    from proofs.rldp._mech_common import example_ball
    from rldp_verify.rldp.mechanisms import lower_bounds, srr

    ball = example_ball()
    L = lower_bounds(ball, dps=30)
    Q = srr(ball.phat, "log(2)").matrix
    assert recheck(inst.cone_membership_certificate("srr", [(Q, L, 2)], same_s=False)).ok
    assert not recheck(inst.cone_membership_certificate("srr", [(Q, L, 2)])).ok
    assert not recheck(inst.cone_membership_certificate("srr", [(Q, L, F(3, 2))], same_s=False)).ok   # e^eps lowered


def test_body_step_facts_accept_true_points_and_reject_wrong_ones():
    from proofs.rldp.steps_sec6_7 import _lemma3_step_facts, _thm5_step_facts

    P, P2 = [F(1, 2), F(1, 2), F(0)], [F(0), F(1, 4), F(3, 4)]
    q = [F(1, 5), F(3, 10), F(2, 5)]                                              # max/min = 2
    ok = inst.all_nonneg_certificate("l3", [["min", *_lemma3_step_facts(F(2), q, P, P2)]])
    assert recheck(ok).ok
    assert not recheck(inst.all_nonneg_certificate("l3", [["min", *_lemma3_step_facts(F(19, 10), q, P, P2)]])).ok
    hat = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    cond = [[F(3, 5), F(2, 5)], [F(1, 4), F(3, 4)]]
    ds = [F(1, 5), F(0)]                                                           # ||P_U|0 - P^_U|0||_1 = 1/5
    assert recheck(inst.all_nonneg_certificate("t5", [["min", *_thm5_step_facts(hat, cond, ds, 0, 1)]])).ok
    bad = [F(19, 100), F(0)]                                                       # d_0 below the distance
    assert not recheck(inst.all_nonneg_certificate("t5", [["min", *_thm5_step_facts(hat, cond, bad, 0, 1)]])).ok


@pytest.mark.slow
def test_a4_certificates_accepted_and_wrong_readings_rejected(monkeypatch):
    import proofs.rldp.steps_appA4 as a4

    ctx = Context(dps=30)
    for check in (a4.check_dual, a4.check_feasibility):
        assert all(recheck(d).ok for d in _docs(check(ctx))), check.__name__
    # (A80)-(A81)'s rest term without e^eps on the s2 block: (A81) - (A82) no longer 0
    monkeypatch.setattr(a4, "_rest_expr", lambda L, Q_y, s1, s2, t: ["-", ["+", *(["*", q, l] for q, l in zip(
        Q_y[s1], L[s1], strict=True))], ["+", *(["*", q, l] for q, l in zip(Q_y[s2], L[s2], strict=True))]])
    assert not recheck(_docs(a4.check_dual(ctx))[0]).ok
    monkeypatch.undo()
    # the bound of (A77) read as min_u Q_{y|s1,u}: the bounds' dual value falls below the primal
    monkeypatch.setattr(a4, "_lower_expr", lambda Q_y, s1, s2, t, S: [
        ["min", *Q_y[s1]] if s == s1 else (["-", ["*", t, ["min", *Q_y[s2]]]] if s == s2 else 0) for s in range(S)])
    assert not all(recheck(d).ok for d in _docs(a4.check_feasibility(ctx)))


def test_a6_combination_facts_reject_a_wrong_split():
    from proofs.rldp.steps_appA6 import _combination_facts, printed_v_minus, printed_v_plus

    t, s = F(2), 0
    v = [[F(1, 2), F(1)], [F(1), F(1)]]                                           # block 0 in {1/t, 1, t}
    vp, vm = printed_v_plus(v, s, t), printed_v_minus(v, s, t)
    assert recheck(inst.all_nonneg_certificate("a6", [["min", *_combination_facts(v, vp, vm, s, t)]])).ok
    assert not recheck(inst.all_nonneg_certificate("a6", [["min", *_combination_facts(v, vp, vp, s, t)]])).ok
    assert not recheck(inst.all_nonneg_certificate("a6", [["min", *_combination_facts(v, v, vm, s, t)]])).ok  # 1 in V_s


def test_a52_certificate_rejects_a_wrong_printed_formula(monkeypatch):
    import proofs.rldp.steps_appA3 as a3

    pts = [(F(1, 3), F(1, 4), F(2)), (F(2), F(3, 5), F(1, 2))]
    assert recheck(a3._a52_certificate(pts)).ok
    monkeypatch.setattr(a3, "printed_A52", lambda Bt, rho, xi: rho / xi + (1 - rho) / (1 - rho * xi) - Bt - 1)
    assert not recheck(a3._a52_certificate(pts)).ok                               # (1 - rho) not squared


def test_nr_sides_and_whole_simplex_reject_wrong_data():
    from proofs.rldp.sec8_nr import _sides
    from proofs.rldp.thm1_projection import _whole_simplex_certificates

    table = [[F(1, 10), F(3, 10)], [F(2, 5), F(1, 5)]]
    Q = [[F(1, 2), F(1, 2), F(1, 3), F(2, 5)], [F(1, 2), F(1, 2), F(2, 3), F(3, 5)]]   # P(y0|s0) = 1/2, P(y0|s1) = 16/45
    holds = ["-", ["max", *_sides(table, Q, F(3, 2))]]
    assert recheck(inst.all_nonneg_certificate("nr", [holds])).ok
    fails = ["min", *_sides(table, Q, F(5, 4))]                                    # 1/2 > (5/4)(16/45): both fail
    assert recheck(inst.all_positive_certificate("nr", [fails])).ok
    assert not recheck(inst.all_nonneg_certificate("nr", [["-", ["max", *_sides(table, Q, F(5, 4))]]])).ok
    # Theorem 1's whole simplex: alpha = 1/2, P^_s = 1/2, B = 2; the lift P in F; with B = 1/10 the hypothesis fails
    phat = [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]]
    R, gamma = [F(1), F(0)], F(1, 10)
    P = [gamma * R[0], gamma * R[1], (1 - gamma) / 2, (1 - gamma) / 2]
    good = _whole_simplex_certificates([(F(1, 2), F(2), phat, 0, R, P)])
    assert all(recheck(d).ok for d in good)
    bad = _whole_simplex_certificates([(F(1, 2), F(1, 10), phat, 0, R, P)])
    assert not recheck(bad[0]).ok and not recheck(bad[1]).ok


def test_dual_form_equality_rejects_definition3_without_e_eps():
    from proofs.rldp.thm2_cone import _dual_form_certificates

    v, L = [F(3), F(1), F(2), F(5)], [[F(1, 10), F(1, 5)], [F(1, 4), F(0)]]
    assert all(recheck(d).ok for d in _dual_form_certificates([(v, L, F(2), 0, 1, 2), (v, L, F(3, 2), 1, 0, 2)]))
    hi = F(1, 10) * 3 + F(1, 5) * 1 + (1 - F(3, 10)) * 3           # max over D_0 of R^T v_0 (mass left on u = 0)
    lo = F(1, 4) * 2 + (1 - F(1, 4)) * 2                             # min over D_1 of R^T v_1 (mass left on u = 0)
    assert recheck(inst.all_zero_certificate("d", [["-", ["-", hi, ["*", 2, lo]],
                                                    inst.definition3_max_expr(v, L, 2, 0, 1, 2)]])).ok
    # Definition 3's maximum taken at e^eps = 1 instead of 2
    assert not recheck(inst.all_zero_certificate("d", [["-", ["-", hi, ["*", 2, lo]],
                                                        inst.definition3_max_expr(v, L, 1, 0, 1, 2)]])).ok
