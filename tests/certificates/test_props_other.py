"""The builders of :mod:`rldp_verify.certificates.instances_other` (issue 23: certificates for the sampled instances
of exact property tests): the checker accepts each shape on a true instance and rejects a wrong variant of it."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.instances_other import agreement, all_nonneg, all_zero, bind, covers, ldp_terms, matmul

W1 = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]          # level 2 (1/2 over 1/4)
W2 = [[F(2, 3), F(1, 3), 0], [F(1, 3), F(1, 3), F(1, 3)]]  # level inf (1/3 over 0)


def _composition(r):
    binds, C = bind("c", matmul(W1, W2))
    return all_nonneg("composition", ldp_terms(W1, 2) + ldp_terms(C, r), binds=binds)


def test_ldp_of_a_composition_accepted_at_its_level_and_rejected_below():
    assert recheck(_composition(F(3, 2))).ok
    bad = recheck(_composition(F(149, 100)))   # the composition's level is 3/2 exactly ((1/4) / (1/6))
    assert not bad.ok and "not certainly" in bad.message


def test_ldp_terms_rejects_a_channel_above_its_stated_level():
    assert recheck(all_nonneg("W1", ldp_terms(W1, 2))).ok
    assert not recheck(all_nonneg("W1", ldp_terms([[F(1, 2), F(1, 2)], [F(1, 5), F(4, 5)]], 2))).ok


def test_matmul_is_the_product_the_checker_evaluates():
    binds, C = bind("c", matmul(W1, W2))
    want = [[sum(W1[i][k] * W2[k][j] for k in range(2)) for j in range(3)] for i in range(2)]
    terms = [["-", C[i][j], want[i][j]] for i in range(2) for j in range(3)]
    assert recheck(all_zero("product", terms, binds=binds)).ok
    want[1][2] += F(1, 10**30)   # one entry off by 1e-30
    terms = [["-", C[i][j], want[i][j]] for i in range(2) for j in range(3)]
    assert not recheck(all_zero("product", terms, binds=binds)).ok
    with pytest.raises(ValueError, match="rows"):
        matmul(W2, W1[:1])


def test_all_zero_is_exact_and_rejects_any_nonzero_term():
    assert recheck(all_zero("eq", [["-", ["/", 1, 3], F(1, 3)], 0])).ok
    assert not recheck(all_zero("eq", [["-", ["/", 1, 3], F(1, 3)], F(-1, 10**40)])).ok


def test_all_nonneg_arb_and_strict():
    e = ["-", ["log", 2], F(693147, 10**6)]    # log 2 = 0.693147180...
    assert recheck(all_nonneg("log2", [e], exact=False, strict=True)).ok
    assert not recheck(all_nonneg("log2", [["-", ["log", 2], F(693148, 10**6)]], exact=False)).ok
    # exact mode refuses what it cannot evaluate exactly (a logarithm)
    assert not recheck(all_nonneg("log2", [e])).ok
    # strict: an exact zero is not > 0
    assert recheck(all_nonneg("zero", [0])).ok and not recheck(all_nonneg("zero", [0], strict=True)).ok


def test_covers_names_the_cap():
    assert covers(20, 300, "x").startswith("the first 20 of the 300 sampled instances' x")
    assert covers(5, 5, "x").startswith("all 5 sampled")
    assert covers(20, 300, "x", chosen=True).startswith("20 of the 300 sampled")
    with pytest.raises(ValueError):
        all_zero("empty", [])


def test_agreement_rejects_a_point_where_the_conditions_differ():
    priv = [[F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]]     # level 3/2
    pts = [(True, ldp_terms(priv, 2), ldp_terms(priv, F(3, 2)), ()),
           (False, ldp_terms(priv, F(5, 4)), ldp_terms(priv, F(6, 5)), ())]
    assert all(recheck(d).ok for d in agreement("A iff B", pts))
    # a point where A holds (level 3/2 <= 2) and B does not (3/2 > 5/4), claimed as "both hold" or "both fail"
    for holds in (True, False):
        docs = agreement("A iff B", [(holds, ldp_terms(priv, 2), ldp_terms(priv, F(5, 4)), ())])
        assert len(docs) == 1 and not recheck(docs[0]).ok
    # a failing point whose failure is a tie (an inequality holding with equality) is not a failure
    docs = agreement("A iff B", [(False, ldp_terms(priv, F(3, 2)), ldp_terms(priv, F(5, 4)), ())])
    assert not recheck(docs[0]).ok


def test_mu_expr_matches_the_definitions_and_a_wrong_value_is_rejected():
    from rldp_verify.certificates.instances_other import mu_expr, utility_expr, zero_entries
    P0, P1, P = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)], [F(1, 5), F(2, 5), F(2, 5)]
    c = [F(1, 3), F(1, 2), F(1, 7)]
    a, b = sum(x * y for x, y in zip(P0, c, strict=True)), sum(x * y for x, y in zip(P1, c, strict=True))
    want = {"tv": abs(a - b) / 2, "chi2": (a - b) ** 2 / b, "hockey": max(a - 2 * b, F(0))}
    for name, v in want.items():
        e = mu_expr(name, c, P0=P0, P1=P1, gamma=2)
        assert recheck(all_zero(name, [["-", e, v]])).ok
        assert not recheck(all_zero(name, [["-", e, v + F(1, 10**20)]])).ok
    import math
    kl = float(a * math.log(a / b))
    e = mu_expr("kl", c, P0=P0, P1=P1)
    assert recheck(all_nonneg("kl", [["-", e, F(kl) - F(1, 10**9)], ["-", F(kl) + F(1, 10**9), e]], exact=False)).ok
    assert not recheck(all_nonneg("kl", [["-", e, F(kl) + F(1, 10**6)]], exact=False)).ok
    pc = sum(x * y for x, y in zip(P, c, strict=True))
    mi = float(sum(p * x * math.log(x / pc) for p, x in zip(P, c, strict=True)))
    e = utility_expr("mi", [c], [c], P=P)
    assert recheck(all_nonneg("mi", [["-", e, F(mi) - F(1, 10**9)], ["-", F(mi) + F(1, 10**9), e]], exact=False)).ok
    # an entry left out of MI's sum as zero must be zero
    assert recheck(all_nonneg("zeros", zero_entries([[0, F(1, 2)]], [[0, F(1, 2)]]))).ok
    assert not recheck(all_nonneg("zeros", zero_entries([[F(1, 10**30), F(1, 2)]], [[0, F(1, 2)]]))).ok
    with pytest.raises(ValueError, match="unknown"):
        mu_expr("hellinger", c, P0=P0, P1=P1)


def test_a_dominance_witness_w_perturbed_is_rejected():
    """kairouz.thm20.blackwell's shape: Q2 = Q1 W with W stochastic, as a feasible point (lp-optimum of max 0)."""
    from proofs.kairouz.sec5_approximate_dp import _t20_certificates
    Q1 = [[F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]]
    Wt = [[F(1, 3), F(2, 3)], [F(1, 2), F(1, 2)]]
    Q2 = [[sum(Q1[x][y] * Wt[y][z] for y in range(2)) for z in range(2)] for x in range(2)]
    docs = _t20_certificates(Q1, Q2)
    assert docs and all(recheck(d).ok for d in docs)
    bad = list(docs[0]["data"]["x"])
    bad[0], bad[1] = str(F(bad[0]) + F(1, 100)), str(F(bad[1]) - F(1, 100))   # rows still sum to 1, Q1 W != Q2
    wrong = {**docs[0], "data": {**docs[0]["data"], "x": bad}}
    assert not recheck(wrong).ok


def test_reverse_pinsker_terms_equality_and_a_wrong_gamma():
    """falpha.thm6.reverse-pinsker's shape: (22)'s rhs - lhs, exact; a binary pair attains it with the pair's own
    Gammas, not with the set's (Gamma_max = max(P/Q, Q/P) is larger)."""
    from proofs.falpha.thm6_reverse_pinsker import _thm6_terms
    p, q = [F(1, 2), F(1, 2)], [F(1, 3), F(2, 3)]
    for a in (2, 3, 5):
        assert recheck(all_zero("binary equality", [_thm6_terms(a, p, q, None)])).ok
        assert recheck(all_nonneg("(22)", [_thm6_terms(a, p, q, [p, q])])).ok
        assert not recheck(all_zero("binary equality", [_thm6_terms(a, p, q, [p, q])])).ok
    assert _thm6_terms(2, [F(1, 2), F(1, 2)], [1, 0], None) is None   # P > 0 = Q: Gamma_max infinite


def test_minus_abs_states_an_equality_inside_a_min():
    """kairouz.steps.s8-2.algebra-57-67's shape: min(inequalities, -|equality terms|) >= 0."""
    from rldp_verify.certificates.value import abs_expr
    ok = ["let", [["t", F(3, 2)]], ["min", ["-", "$t", 1], ["-", abs_expr(["-", ["*", "$t", 2], 3])]]]
    assert recheck(all_nonneg("min", [ok])).ok
    bad = ["let", [["t", F(3, 2)]], ["min", ["-", "$t", 1], ["-", abs_expr(["-", ["*", "$t", 2], F(3) + F(1, 10**40)])]]]
    assert not recheck(all_nonneg("min", [bad])).ok
