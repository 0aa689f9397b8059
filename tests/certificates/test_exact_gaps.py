"""The exact-gap certificates (issue 23, rldp_verify.certificates.exact_gaps): each shape is accepted on the right
data and rejected by the independent checker on a wrong variant (a perturbed entry, a wrong level, a flipped
verdict, a ratio outside {1, t, 1/t})."""

from __future__ import annotations

import copy
from fractions import Fraction as F

from rldp_verify.certificates import recheck
from rldp_verify.certificates.exact_gaps import (
    entries_equal_certificate,
    ldp_audit_certificate,
    ldp_level,
    ratio_set_identities,
    transpose,
)
from rldp_verify.certificates.identity import Tree
from rldp_verify.rldp.mechanisms.grr import grr_matrix


def _grr(n, r):
    return [[r / (r + n - 1) if y == x else 1 / (r + n - 1) for x in range(n)] for y in range(n)]


def test_ldp_audit_accepts_grr_at_its_level_and_rejects_wrong_variants():
    Q = _grr(4, F(3, 2))
    doc = ldp_audit_certificate("grr", Q, F(3, 2), sizes=[2, 2], level=F(3, 2))
    assert recheck(doc).ok, recheck(doc).message
    # a perturbed entry: its column no longer sums to 1
    bad = copy.deepcopy(doc)
    bad["statement"]["Q"][0][0] = "3/10"
    assert not recheck(bad).ok and "distribution" in recheck(bad).message
    # a level stated above the true one (the witness end is not attained)
    wrong = ldp_audit_certificate("grr", Q, F(2), level=F(2))
    assert not recheck(wrong).ok and "not attained" in recheck(wrong).message
    # PASS at an e^eps below the level
    low = copy.deepcopy(doc)
    low["statement"]["eps"] = {"exp_eps": "7/5"}
    assert not recheck(low).ok and "PASS" in recheck(low).message


def test_ldp_audit_of_a_channel_above_eps_is_a_fail_that_the_checker_accepts_and_a_flipped_pass_it_rejects():
    Q = _grr(3, F(2))
    doc = ldp_audit_certificate("grr above", Q, F(3, 2))
    assert doc["statement"]["verdict"] == "FAIL" and recheck(doc).ok
    flipped = copy.deepcopy(doc)
    flipped["statement"]["verdict"] = "PASS"
    assert not recheck(flipped).ok
    assert ldp_level([[F(1), F(0)], [F(0), F(1)]]) == float("inf")
    import pytest

    with pytest.raises(TypeError, match="exact"):
        ldp_audit_certificate("float", [[0.5, 0.5], [0.5, 0.5]], 2)


def test_entries_equal_accepts_the_tools_grr_and_rejects_a_perturbed_entry():
    r, n = F(7), 6
    got = grr_matrix(n, r)
    pairs = [(got[y][x], ["/", r if y == x else 1, ["+", r, n, -1]]) for y in range(n) for x in range(n)]
    assert recheck(entries_equal_certificate("eq56", pairs)).ok
    pairs[7] = (pairs[7][0] + F(1, 10**30), pairs[7][1])
    bad = recheck(entries_equal_certificate("eq56", pairs))
    assert not bad.ok and "not certainly" in bad.message


def test_ratio_set_identities_accept_figure2_binary_and_reject_a_ratio_t_squared():
    t = Tree.var("t")
    QT = [[t, t, 1, t, 1], [1, 1, t, 1, t]]
    good = ratio_set_identities("binary", [[v / (1 + t) for v in row] for row in QT], t)
    assert len(good) == 20 and all(recheck(d).ok for d in good)
    QT[0][1] = t * t
    bad = [recheck(d).ok for d in ratio_set_identities("binary", [[v / (1 + t) for v in row] for row in QT], t)]
    assert bad[:10].count(False) == 2 and all(bad[10:])     # pairs (x1, x2): t^2/t = t is fine; (x2, x3), (x2, x5)


def test_grr_claims_certificates_reject_a_tool_grr_with_a_wrong_denominator():
    from proofs.rldp.ex4_grr_srr import _grr_certificates

    r = F(2)
    ok = _grr_certificates([(2, 2, r, grr_matrix(4, r))])
    assert all(recheck(d).ok for d in ok)
    wrong = [[v * (r + 3) / (r + 4) if y == x else v for x, v in enumerate(row)]
             for y, row in enumerate(grr_matrix(4, r))]       # diagonal r / (r + |X|): off eq. (56)
    assert not any(recheck(d).ok for d in _grr_certificates([(2, 2, r, wrong)]))


def test_geometric_mechanism_audit_rejects_the_untruncated_rows():
    from proofs.kairouz.sec3_4_experiments import geometric_truncated

    a = F(1, 2)
    Q = geometric_truncated(6, a)
    assert recheck(ldp_audit_certificate("geo", transpose(Q), 32, level=32)).ok
    c = (1 - a) / (1 + a)
    untruncated = [[c * a ** abs(y - x) for y in range(6)] for x in range(6)]   # rows not summing to 1
    assert not recheck(ldp_audit_certificate("geo", transpose(untruncated), 32, level=32)).ok
    from proofs.kairouz.sec3_4_experiments import _certificates

    docs = _certificates([(6, a, F(32), Q)])["certificates"]
    assert [d["kind"] for d in docs] == ["rigorous-value", "rigorous-value", "audit"] and all(recheck(d).ok for d in docs)
    docs = _certificates([(6, a, F(32), untruncated)])["certificates"]
    assert not recheck(docs[1]).ok and not recheck(docs[2]).ok                  # off the formula, not stochastic


def test_lemma_a8_reduction_certificates_reject_a_wrong_decomposition_and_a_vector_outside_c():
    from proofs.rldp.lemA8_cone import _reduction_certificates

    t = F(2)
    fact = {"a1": 2, "a2": 1, "t": t, "decomp": [(0, [F(1), F(1)], [t, F(1)], [1 / t, F(1)])],
            "in_C": [[F(1), F(1)], [t, F(1)]], "V2p": [(F(1), F(1)), (t, F(1)), (F(1), t), (t, t)]}
    assert all(recheck(d).ok for d in _reduction_certificates([fact]))
    swapped = {**fact, "decomp": [(0, [F(1), F(1)], [1 / t, F(1)], [t, F(1)])]}    # v+ and v- exchanged
    assert not recheck(_reduction_certificates([swapped])[0]).ok
    outside = {**fact, "in_C": [[t * t, F(1)]]}                                       # t^2 > t * 1
    assert not recheck(_reduction_certificates([outside])[1]).ok
    import pytest

    off_block = {**fact, "decomp": [(0, [F(1), t], [t, t], [1 / t, t])]}              # block 1 is not all 1
    with pytest.raises(ValueError, match="outside block"):
        _reduction_certificates([off_block])


def test_cor11_certificates_reject_a_mechanism_above_the_bound_and_a_wrong_binary():
    from proofs.kairouz.thm6_tv import _cor11_certificates
    from rldp_verify.topics.extremal.polytope import ldp_polytope_vertices
    from rldp_verify.topics.extremal.utilities import binary_mechanism

    t, P0, P1 = F(3), [F(1, 4), F(3, 4)], [F(2, 3), F(1, 3)]
    V, Qb = ldp_polytope_vertices(2, 3, t), binary_mechanism(P0, P1, t)
    docs = _cor11_certificates([(2, 3, t, V, [(P0, P1, Qb)])])
    assert all(recheck(d).ok for d in docs)
    identity = [[F(1), F(0), F(0)], [F(0), F(1), F(0)]]          # not eps-LDP: TV(M0, M1) = TV(P0, P1) > the bound
    assert not recheck(_cor11_certificates([(2, 3, t, [identity], [(P0, P1, Qb)])])[0]).ok
    rr = [[F(2, 3), F(1, 3)], [F(1, 3), F(2, 3)]]                  # log 2-LDP, below the bound: no equality
    assert not recheck(_cor11_certificates([(2, 3, t, V, [(P0, P1, rr)])])[1]).ok


def test_lemma24_certificates_reject_wrong_coefficients_and_no_violation_at_eps_zero():
    from proofs.kairouz.lem24_binary import _l24_certificates

    ok = _l24_certificates([1, 0, 0], [2, 12, 16], 1 + F(1, 10**6))
    assert all(recheck(d).ok for d in ok)
    assert not recheck(_l24_certificates([1, 0, 0], [2, 12, 15], 1 + F(1, 10**6))[0]).ok   # N/D is not the difference
    assert not recheck(_l24_certificates([-1, 0, 0], [2, 12, 16], 2)[1]).ok                # a negative coefficient
    assert not recheck(_l24_certificates([1, 0, 0], [2, 12, 16], 1)[3]).ok                 # e^eps = 1: no violation


def test_eq61_certificates_reject_a_threshold_moved_and_a_worse_theta():
    from proofs.kairouz.lem24_binary import _eq61_certificates
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp
    from rldp_verify.topics.extremal.thresholds import universal_binary_threshold
    from rldp_verify.topics.extremal.utilities import mu_hockey

    P0, P1 = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 5), F(1, 5), F(3, 5))
    a = universal_binary_threshold(P0, P1).a_star
    a_lo, a_hi = a * (1 - F(1, 10**6)), a * (1 + F(1, 10**6))
    from proofs.kairouz.lem24_binary import _bounds, _violations

    Tj, r = _violations(P0, P1, 1 + a_hi)[0]
    lo, hi = _bounds(P0, P1, 1 + a_hi)
    wit = (P0, P1, (r + hi) / 2) if r > hi else (P1, P0, 2 / (r + lo))
    theta = solve_staircase_lp(3, 1 + a_hi, mu_hockey(*wit)).theta
    docs = _eq61_certificates([(P0, P1, a, a_lo, a_hi, Tj, wit, theta)], [list(P0)], [list(P1)])
    assert all(recheck(d).ok for d in docs)
    late = _eq61_certificates([(P0, P1, a_hi, a_lo, a_hi, Tj, wit, theta)], [], [])     # "inside" at a*(1 + 1e-6)
    assert not recheck(late[0]).ok
    worse = [F(0)] * len(theta)
    worse[-1] = 1 / (1 + a_hi)                                         # the all-e^eps column: a utility of 0
    assert not recheck(_eq61_certificates([(P0, P1, a, a_lo, a_hi, Tj, wit, worse)], [], [])[2]).ok


def test_delta2_diagonal_certificate_rejects_a_table_whose_conditionals_coincide():
    from proofs.rldp.thm5_ir_private import _diagonal_certificate

    assert recheck(_diagonal_certificate([[[F(1, 2), F(0)], [F(0), F(1, 2)]]])).ok
    half = [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]]        # equal conditionals: d = 0, not 2
    assert not recheck(_diagonal_certificate([half])).ok
    near = [[F(1, 3), F(1, 6)], [F(1, 6), F(1, 3)]]        # d = 2/3
    assert not recheck(_diagonal_certificate([near])).ok


def test_eq46_bracket_rejects_an_upper_end_lowered_and_a_lower_end_raised():
    import dataclasses

    from proofs.rldp._mech_common import rand_instance
    from rldp_verify.certificates.exact_gaps import eq46_bracket_certificates, gamma_hat_vertex_certificate
    from rldp_verify.claims.core import Context
    from rldp_verify.rldp.mechanisms import lower_bounds, polyopt_from_bounds, privacy_level

    ball, eps = rand_instance(Context().rng("thm3"), 0)
    L = lower_bounds(ball, dps=30)
    _, sol = polyopt_from_bounds(ball.phat, L, eps, dps=30)
    assert all(recheck(d).ok for d in eq46_bracket_certificates("eq46", sol))
    gap = F(1, 10**6)
    assert not recheck(eq46_bracket_certificates("eq46", dataclasses.replace(sol, upper=sol.upper - gap))[1]).ok
    assert not recheck(eq46_bracket_certificates("eq46", dataclasses.replace(sol, lower=sol.lower + gap))[0]).ok
    r = privacy_level(eps).exp_eps
    assert recheck(gamma_hat_vertex_certificate("V", L, r, sol.vertices)).ok
    assert not recheck(gamma_hat_vertex_certificate("V", L, r, sol.vertices[1:])).ok      # a vertex missing


def test_infeasibility_certificate_refuses_a_feasible_system_and_its_value_or_dual_perturbed_is_rejected():
    import pytest

    from rldp_verify.certificates.exact_gaps import infeasibility_certificate

    E, f = [[F(1), F(1)], [F(1), F(-1)]], [F(1), F(3)]          # x1 + x2 = 1, x1 - x2 = 3: x2 = -1 < 0
    doc = infeasibility_certificate("empty", E, f)
    assert recheck(doc).ok and F(doc["statement"]["value"]) > 0
    zero = copy.deepcopy(doc)
    zero["statement"]["value"] = 0                                # "the phase-one optimum is 0": feasible
    assert not recheck(zero).ok
    dual = copy.deepcopy(doc)
    dual["data"]["y"][0] = str(F(dual["data"]["y"][0]) + F(1, 7))
    assert not recheck(dual).ok
    with pytest.raises(ValueError, match="feasible"):
        infeasibility_certificate("not empty", E, [F(2), F(0)])   # x = (1, 1)
