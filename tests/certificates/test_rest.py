"""Certificates of the last limits (issue 23, :mod:`rldp_verify.certificates.rest`): the builders' documents are
accepted, and wrong variants of what they state are rejected by the checker."""

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.identity import Tree, tree_identity_certificate
from rldp_verify.certificates.rest import appb_limit_certificates, appb_power_sums
from rldp_verify.certificates.taylor import X, log, series_certificate

W = [[F(1, 2), F(1, 2), 0, 0], [0, 0, F(1, 3), F(2, 3)], [F(1, 4)] * 4]   # falpha.prop3.appendix-b-limit's channel


@pytest.mark.parametrize("a", [2, 3])
def test_appb_limit_accepted(a):
    docs = appb_limit_certificates(W, 0, 1, 3, a)
    assert [d["kind"] for d in docs] == ["symbolic-identity", "series", "series"]
    assert all(recheck(d).ok for d in docs)


def test_appb_limit_rows_sharing_an_output_rejected():
    """Rows 0 and 1 both reach output 1: S_out(0) != S_in(0), so log(S_out/S_in) has c_0 != 0 (the ratio's limit is
    not 1): that certificate is rejected."""
    V = [[F(1, 2), F(1, 2), 0, 0], [0, F(1, 2), F(1, 4), F(1, 4)], [F(1, 4)] * 4]
    docs = appb_limit_certificates(V, 0, 1, 3, 2)
    assert recheck(docs[0]).ok and not recheck(docs[1]).ok


def test_appb_limit_wrong_output_power_sum_rejected():
    """S_out with Q_Y^(-alpha) in place of Q_Y^(1 - alpha): S_out'(0) = 8 != S_in(0) = 2, so c_0 = log 4."""
    s_in, s_out = appb_power_sums(X, W, 0, 1, 3, 2)
    P = [1 - X, X / 2, X / 2]
    Q = [(1 - X) / 2, (1 - X) / 2, X]
    PY = [sum(P[x] * W[x][y] for x in range(3)) for y in range(4)]
    QY = [sum(Q[x] * W[x][y] for x in range(3)) for y in range(4)]
    right = sum(PY[y] ** 2 * QY[y] ** -1 for y in range(4))
    wrong = sum(PY[y] ** 2 * QY[y] ** -2 for y in range(4))
    assert recheck(series_certificate("t", log(s_out / s_in), [(0, 0, 0)])).ok
    assert recheck(series_certificate("t", log(right / s_in), [(0, 0, 0)])).ok
    r = recheck(series_certificate("t", log(wrong / s_in), [(0, 0, 0)]))
    assert not r.ok and "not certainly in its interval" in r.message, r.message


def test_appb_cancelled_form_with_a_wrong_factor_rejected():
    """The cancelled S_in with ((N - 2)/(N - 1))^(alpha - 1) in place of ^alpha is not the printed S_in."""
    g, a = Tree.var("gamma"), 3
    printed = appb_power_sums(g, W, 0, 1, 3, a, cancelled=False)[0]
    right = (1 - g) ** a * ((1 - g) / 2) ** (1 - a) + (g / 2) ** a * ((1 - g) / 2) ** (1 - a) + g * F(1, 2) ** a
    assert recheck(tree_identity_certificate("t", printed, right)).ok
    wrong = (1 - g) ** a * ((1 - g) / 2) ** (1 - a) + (g / 2) ** a * ((1 - g) / 2) ** (1 - a) + g * F(1, 2) ** (a - 1)
    assert not recheck(tree_identity_certificate("t", printed, wrong)).ok


def test_appb_limit_document_edits_rejected():
    docs = appb_limit_certificates(W, 0, 1, 3, 2)
    bad = copy.deepcopy(docs[1])
    bad["statement"]["coefficients"] = [[0, "1/1000000", "1/1000000"]]     # a non-zero constant term
    assert not recheck(bad).ok
    bad = copy.deepcopy(docs[2])
    bad["statement"]["coefficients"] = [[0, None, 0]]                      # log S_in < 0
    assert not recheck(bad).ok


def test_appb_power_sums_refuse_a_non_integer_order():
    with pytest.raises(ValueError, match="integer >= 2"):
        appb_power_sums(X, W, 0, 1, 3, F(7, 2))


def test_cor15_binary_mi_accepted_and_wrong_leading_coefficient_rejected():
    from rldp_verify.certificates.rest import cor15_binary_mi_certificates

    ident, ser = cor15_binary_mi_certificates()
    assert recheck(ident).ok and recheck(ser).ok
    lead = ident["statement"]["rhs"][1][1]
    assert lead[0] == "/" and lead[2] == 2                   # a^2 z (1 - z) / 2
    for wrong in (3, 1):                                      # z(1-z)/3 and z(1-z) in place of z(1-z)/2
        bad = copy.deepcopy(ident)
        bad["statement"]["rhs"][1][1][2] = wrong
        assert not recheck(bad).ok
    bad = copy.deepcopy(ident)                                # the a^3 remainder dropped: not I either
    bad["statement"]["rhs"][1][2] = 0
    assert not recheck(bad).ok


def test_cor15_wrong_printed_mechanism_and_wrong_log_expansion_rejected():
    from rldp_verify.certificates.rest import cor15_binary_mi_certificates

    ident, ser = cor15_binary_mi_certificates()
    bad = copy.deepcopy(ident)
    bad["statement"]["atoms"]["L2"] = ["log", ["+", 1, ["*", ["-", 1, "$z"], "$a"]]]   # log(1 + a(1 - z)) for L2
    r = recheck(bad)
    assert not r.ok and "log/exp node" in r.message, r.message
    r = recheck(series_certificate("t", log(1 + X) - X + X * X / 3, [(0, 0, 0), (1, 0, 0), (2, 0, 0)]))
    assert not r.ok and "not certainly in its interval" in r.message
    r = recheck(series_certificate("t", log(1 + X) - X, [(0, 0, 0), (1, 0, 0), (2, 0, 0)]))   # c_2 = -1/2
    assert not r.ok


def test_cor15_wrong_mechanism_gets_no_certificate():
    """I with (1 - z) and z swapped in one term (not the binary mechanism's): its a^1 or a^2 coefficient differs, so
    R has a pole at a = 0 and the builder refuses; the printed formula itself is accepted."""
    from rldp_verify.certificates.rest import cor15_binary_mi, cor15_binary_mi_certificates

    def swapped(t, z, L1, L2, L3):
        return (1 / (t + 1)) * (z * t * (L1 - L2) - z * L2) + (1 / (t + 1)) * ((1 - z) * t * (L1 - L3) - z * L3)

    assert all(recheck(d).ok for d in cor15_binary_mi_certificates(cor15_binary_mi))
    with pytest.raises(ValueError, match="vanishes at a = 0"):
        cor15_binary_mi_certificates(swapped)


P3 = [F(1, 5), F(3, 10), F(1, 2)]          # T = {2} (P(T) = 1/2) maximises P(A) P(A^c)


def _t(eps):
    from rldp_verify.topics.extremal.thresholds import t_from_eps

    return t_from_eps(eps)


def test_binary_optimality_accepted_and_edits_rejected():
    from rldp_verify.certificates.rest import binary_basis, binary_optimality_certificates

    t = _t(0.01)
    docs = binary_optimality_certificates(P3, {2}, t, binary_basis(P3, {2}, t))
    assert [d["kind"] for d in docs] == ["symbolic-identity"] * 4 + ["rigorous-value"]
    bad = copy.deepcopy(docs[0])                       # an entry of M = (S_B^T)^-1 perturbed in S_j^T alpha = mu_j
    lhs = bad["statement"]["lhs"]
    assert "M = " in bad["statement"]["substitution"]
    bad["statement"]["lhs"] = ["*", "1000001/1000000", lhs]
    assert not recheck(bad).ok
    from rldp_verify_check.value import evaluate

    least = evaluate(docs[-1]["statement"]["expr"])      # the smallest non-basic reduced cost (a positive ball)
    assert least > 0
    bad = copy.deepcopy(docs[-1])                      # claimed above twice its value: rejected
    bad["statement"]["lower"] = str(F(float(least.mid()) * 2))
    assert not recheck(bad).ok


def test_binary_optimality_refused_where_false():
    """The binary mechanism on a set that does not maximise P(A)P(A^c), and at eps = 3 (where binary is not optimal):
    the reduced costs' certificate is rejected; a basis without T^c's pattern is refused."""
    from rldp_verify.certificates.rest import binary_basis, binary_optimality_certificates

    t = _t(0.01)
    basis = binary_basis(P3, {2}, t)
    for docs in (binary_optimality_certificates(P3, {0}, t, [1, 3, 4]),   # {0} (P = 1/5) and {1, 2}: patterns 4, 3
                 binary_optimality_certificates(P3, {2}, _t(3), basis)):
        assert all(recheck(d).ok for d in docs[:-1])             # the identities hold for any basis
        assert not recheck(docs[-1]).ok                          # a reduced cost is negative
    with pytest.raises(ValueError, match="including T's"):
        binary_optimality_certificates(P3, {2}, t, [1, 2, 3])


def test_binary_optimality_with_a_wrong_inverse_refused(monkeypatch):
    """A builder whose (S_B^T)^-1 is off in one entry writes an identity the checker rejects."""
    from rldp_verify.certificates import rest

    right = rest._inverse_transpose

    def off(B):
        M = right(B)
        M[0][0] += F(1, 10 ** 9)
        return M

    t = _t(0.01)
    basis = rest.binary_basis(P3, {2}, t)
    monkeypatch.setattr(rest, "_inverse_transpose", off)
    docs = rest.binary_optimality_certificates(P3, {2}, t, basis)
    assert not recheck(docs[0]).ok                               # S_j^T alpha = mu_j fails


ISIT = ([F(3, 10), F(-6, 5), F(5)], [F(1, 10), F(1, 2), F(0)], F(7, 10), [F(-1), F(-1, 2), F(-1)], [F(1, 5), F(3, 2), F(1)])


@pytest.mark.parametrize("tau, side", [(F(-1, 5), "> 0"), (F(10), "<= 0")])
def test_robust_counterpart_accepted_on_both_sides(tau, side):
    from rldp_verify.certificates.rest import robust_counterpart_certificates

    x, a0, g, lo, hi = ISIT
    docs = robust_counterpart_certificates(x, a0, g, tau, lo, hi)
    assert all(recheck(d).ok for d in docs) and f"f(a*) {side}" in docs[-1]["name"]


def test_robust_counterpart_wrong_dual_point_and_edits_rejected(monkeypatch):
    """v* = x - gamma (a* - a0) (a factor 2 dropped) leaves a duality gap: the builder's equality is rejected; edits
    of the sign, of a* in A and of the equality are rejected."""
    from rldp_verify.certificates import rest

    x, a0, g, lo, hi = ISIT
    docs = rest.robust_counterpart_certificates(x, a0, g, F(-1, 5), lo, hi)
    bad = copy.deepcopy(docs[1])
    bad["statement"]["expr"] = ["+", bad["statement"]["expr"], "1/1000000000"]
    assert not recheck(bad).ok
    bad = copy.deepcopy(docs[-1])
    bad["statement"]["lower"], bad["statement"]["upper"] = None, 0
    assert not recheck(bad).ok
    bad = copy.deepcopy(docs[0])
    bad["statement"]["expr"] = ["-", bad["statement"]["expr"], 100]
    assert not recheck(bad).ok
    monkeypatch.setattr(rest, "_dual_point", lambda x, a0, gamma, a: [x[i] - gamma * (a[i] - a0[i])
                                                                      for i in range(len(x))])
    docs = rest.robust_counterpart_certificates(x, a0, g, F(-1, 5), lo, hi)
    assert recheck(docs[0]).ok and not recheck(docs[1]).ok      # the duality gap is not 0


def test_cor9_ratio_enclosure_accepted_and_moved_ends_rejected():
    """kairouz.cor9.symkl-bound-small-eps's ratio OPT / bound at one (instance, eps): the enclosure is accepted; the
    same certificates with the upper end below the ratio, or the lower end above it, are rejected."""
    from proofs.kairouz import thm7_kl_small_eps as c9
    from rldp_verify.core.rigorous import arb_exact, arb_precision
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp
    from rldp_verify.topics.extremal.utilities import mu_symkl

    P0, P1, t = c9.TIE_P0, c9.TIE_P1, F(101, 100)
    with arb_precision(50):
        sol = solve_staircase_lp(3, t, mu_symkl(P0, P1))
        r = sol.value / arb_exact(2 * (t - 1) ** 2 / (t + 1) * c9._tv(P0, P1) ** 2)
    docs = c9._c9_ratio_certificates(P0, P1, t, sol, r)
    assert [d["kind"] for d in docs] == ["rigorous-value", "lp-optimum", "rigorous-value"]
    assert all(recheck(d).ok for d in docs)
    shift = 4 * (float(r.rad()) + 1e-11)                     # beyond the rounding: the ends cross the ratio
    low = c9._c9_ratio_certificates(P0, P1, t, sol, r - shift)
    high = c9._c9_ratio_certificates(P0, P1, t, sol, r + shift)
    assert recheck(high[0]).ok and not recheck(high[2]).ok   # lower end above the ratio: rejected
    assert not recheck(low[0]).ok and recheck(low[2]).ok     # upper end below the ratio: rejected


def test_lp_complexity_grid_accepted_and_wrong_form_rejected():
    """rldp.sec5.lp-complexity's grid facts: accepted for the paper's a^(omega a); the wrong variant a^omega (its
    ratio grows without bound) and a bound lowered below the grid's maximum are rejected."""
    from proofs.rldp import sec1_9_sentences as s

    grid = [(a, de) for a in (3, 100, 10 ** 8) for de in (1, 30)]
    tail = [(10 ** 7, 6), (10 ** 8, 6)]
    docs = s._lp_complexity_certificates(grid, tail)
    assert all(recheck(d).ok for d in docs)
    assert not recheck(s._lp_complexity_certificates(grid, tail, "omega")[0]).ok
    bad = copy.deepcopy(docs[0])
    bad["statement"]["upper"] = "-13913/10000"                # log(cost/stated) <= -0.0050: not so at a = 10^8 (~0)
    assert not recheck(bad).ok
    bad = copy.deepcopy(docs[1])
    bad["statement"]["expr"] = ["-", bad["statement"]["expr"][2], bad["statement"]["expr"][1]]   # steps reversed
    bad["statement"]["upper"] = "-1/10"
    assert not recheck(bad).ok


def test_ex12_gaps_accepted_and_wrong_variants_rejected():
    """falpha.ex12.asymptotically-tight's finite facts on the setting N = 5, e^eps = 2, P^(N): accepted; the orders
    swapped (the gap at 10.5 is not below 1e-3 nor below the gap at 10000.5) and a gap bound of 1e-6 (the gap is of
    order 1/alpha) rejected."""
    from proofs.falpha import ex12_randomized_response as ex12

    docs = ex12._asym_certs(5, 2, "P")
    assert all(recheck(d).ok for d in docs)
    swapped = ex12._asym_certs(5, 2, "P", alphas=("10000.5", "10.5"))
    assert not recheck(swapped[2]).ok and not recheck(swapped[3]).ok
    bad = copy.deepcopy(docs[2])
    bad["statement"]["upper"] = "1/1000000"
    assert not recheck(bad).ok


def _entropy(p):
    return ["-", 0, ["+", 0, *[["*", x, ["log", x]] for x in p]]]


def test_log_ties_moves_only_true_log_identities():
    """A near_zero certificate of five 'equalities': H(uniform_4) = log 4, log 6 - log 2 = log 3 and t log t = 7 t/50
    at t = e^(7/50) (true, rational functions of logs and exps: proved with the atoms log p and e^(7/50)),
    H(uniform_4) = log 3 + 1e-40 (false; stays within, and is then rejected there), sqrt 2 - sqrt 2 (not of this
    form: stays)."""
    from rldp_verify.certificates.instances_other import near_zero
    from rldp_verify.certificates.rest import log_ties

    q = "1/4"
    ties = [["-", _entropy([q] * 4), ["log", 4]], ["-", ["-", ["log", 6], ["log", 2]], ["log", 3]],
            ["-", _entropy([q] * 4), ["+", ["log", 3], "1/10000000000000000000000000000000000000000"]],
            ["-", ["sqrt", 2], ["sqrt", 2]], ["-", ["xlogx", ["exp", "7/50"]], ["*", ["exp", "7/50"], "7/50"]]]
    docs, moved = log_ties([near_zero("t", ties)])
    assert moved == 3 and [d["kind"] for d in docs] == ["symbolic-identity"] * 3 + ["rigorous-value"]
    assert all(recheck(d).ok for d in docs[:3])
    assert not recheck(docs[3]).ok                     # log 4 - log 3 is not within 1e-30 of 0
    assert docs[2]["statement"]["atoms"] == {"E0": ["exp", "7/50"]}
    assert set(docs[0]["statement"]["atoms"]) == {"L2"}
    bad = copy.deepcopy(docs[0])                       # log(1/4) written as -1 log 2 (not -2 log 2): rejected
    s = json.dumps(bad)
    bad = json.loads(s.replace('{"L2": -2}', '{"L2": -1}', 1))
    assert not recheck(bad).ok


def test_log_tie_certificate_refuses_a_false_identity():
    from rldp_verify.certificates.rest import log_tie_certificate

    with pytest.raises(ValueError):
        log_tie_certificate("t", ["-", ["log", 6], ["+", ["log", 2], ["log", 2]]])
    with pytest.raises(ValueError, match="operation 'sqrt'"):
        log_tie_certificate("t", ["-", ["sqrt", 4], 2])


def test_cor15_ratio_enclosure_accepted_and_moved_ends_rejected():
    """kairouz.cor15.mi-small-eps's ratio OPT / (P(T)P(T^c) eps^2/2) at one (P, t): accepted; the upper end below the
    ratio or the lower end above it rejected."""
    from proofs.kairouz import cor15_mi_small_eps as c15
    from rldp_verify.core.rigorous import arb_exact, arb_precision
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp
    from rldp_verify.topics.extremal.utilities import mu_mi

    P, t, c = P3, F(101, 100), F(1, 8)                         # T = {2}: P(T)P(T^c)/2 = 1/8
    with arb_precision(50):
        sol = solve_staircase_lp(3, t, mu_mi(P))
        e = arb_exact(t).log()
        r = sol.value / (arb_exact(c) * e * e)
    docs = c15._ratio_certificates(P, c, t, sol, r)
    assert all(recheck(d).ok for d in docs)
    shift = 4 * (float(r.rad()) + 1e-11)
    high, low = (c15._ratio_certificates(P, c, t, sol, r + s) for s in (shift, -shift))
    assert recheck(high[0]).ok and not recheck(high[2]).ok
    assert not recheck(low[0]).ok and recheck(low[2]).ok
