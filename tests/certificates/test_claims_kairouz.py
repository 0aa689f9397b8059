"""Certificates of the claims of Kairouz et al. (proofs/kairouz) and ISIT (proofs/isit), issue 23: each is built by
the claim's own builder, accepted by the independent checker, and a wrong variant of it is rejected."""

import copy
from fractions import Fraction

from proofs.isit.lem7_intersection_support import _nonconvex_certificates
from proofs.kairouz._certified import mu_expr, staircase_bound_certificate, utility_expr
from proofs.kairouz.lem26_mi_lp_bound import _certificate as lemma26_certificate
from proofs.kairouz.thm7_kl_small_eps import _thm7_certificate, constants_certificates
from proofs.kairouz.thm8_rr_kl import CX_P0, CX_P1, eq88_certificate, excess_certificates
from rldp_verify.certificates import qs, recheck
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.extremal.staircase import pattern_matrix, solve_staircase_lp
from rldp_verify.topics.extremal.utilities import binary_mechanism, mu_kl, mu_mi

F = Fraction
P0, P1, T = (F(1, 2), F(1, 3), F(1, 6)), (F(1, 6), F(1, 3), F(1, 2)), F(3)


def _ok(doc) -> bool:
    return recheck(doc).ok


def _kl_solution():
    with arb_precision(50):
        return solve_staircase_lp(3, T, mu_kl(P0, P1))


def test_thm7_weak_duality_certificate_and_a_lowered_dual():
    sol = _kl_solution()
    assert _ok(_thm7_certificate(P0, P1, T, sol))
    # a dual lowered by one part in 10^6 is no longer feasible for some pattern column (S_j^T alpha < mu_j)
    low = [a * arb_exact(F(999999, 10 ** 6)) for a in sol.alpha]
    bound = ["*", 2 * (T + 1) ** 2, utility_expr("kl", binary_mechanism(P0, P1, T), P0=P0, P1=P1)]
    assert not _ok(staircase_bound_certificate("lowered dual", 3, T, "kl", bound, low, P0=P0, P1=P1))
    # the bound without Theorem 7's factor 2 (t+1)^2 (BIN < OPT here) is rejected
    assert not _ok(staircase_bound_certificate("OPT <= BIN", 3, T, "kl", bound[2], sol.alpha, P0=P0, P1=P1))


def test_lemma26_certificate_and_a_bound_without_its_factor_k():
    P = (F(1, 2), F(3, 10), F(1, 5))
    with arb_precision(50):
        sol = solve_staircase_lp(3, T, mu_mi(P))
    assert _ok(lemma26_certificate(P, T, sol))
    # (114) with k/(e^eps + k - 1) replaced by 1/(e^eps + k - 1): below OPT, rejected
    mx = ["max", *[mu_expr("mi", c, P=P) for c in pattern_matrix(3, T)]]
    assert not _ok(staircase_bound_certificate("OPT <= max mu/(t+k-1)", 3, T, "mi", ["*", 1 / (T + 2), mx],
                                               sol.alpha, P=P))


def test_lemma7_nonconvex_lp_optima_and_perturbed_dual_and_value():
    lhs, rhs = _nonconvex_certificates(F(-1))["certificates"]
    assert _ok(lhs) and _ok(rhs)
    assert rhs["statement"]["value"] == "1/2" and lhs["statement"]["value"] == -1
    bad_dual = copy.deepcopy(rhs)
    bad_dual["data"]["y"][0] = qs(F(bad_dual["data"]["y"][0]) + 1)
    assert not _ok(bad_dual)
    bad_value = copy.deepcopy(rhs)
    bad_value["statement"]["value"] = qs(F(1, 2) - F(1, 10 ** 30))
    assert not _ok(bad_value)


def test_printed_constants_and_a_narrowed_bound():
    a, b = constants_certificates()
    assert _ok(a) and _ok(b)
    narrowed = copy.deepcopy(a)
    narrowed["statement"]["upper"] = "27.65"   # 2 (e + 1)^2 = 27.6512...
    assert not _ok(narrowed)
    narrowed["statement"]["upper"] = "27.66"
    assert _ok(narrowed)


def test_refutations_re_evaluated_and_reversed_sides_rejected():
    eq88 = eq88_certificate((F(1, 2), F(3, 10), F(1, 5)), (F(1, 10), F(2, 5), F(1, 2)), [0, 1])
    assert _ok(eq88)
    printed_side = copy.deepcopy(eq88)
    printed_side["statement"]["upper"], printed_side["statement"]["lower"] = None, 0   # (88)'s printed '>'
    assert not _ok(printed_side)
    docs = excess_certificates(CX_P0, CX_P1, (10, 20, 30), symmetrised=False)
    assert all(_ok(d) for d in docs)
    # the true e^-eps coefficient is -0.228: with delta = 1/2 and G = 0.656 the excess at eps = 30 is about
    # 0.1 e^-30 ~ 1e-14, so a lower end of 1e-12 is wrong
    too_high = copy.deepcopy(docs[-1])
    too_high["statement"]["lower"] = qs(F(1, 10 ** 12))
    assert not _ok(too_high)


def test_thm18_vertex_list_and_dominance_witnesses_and_their_wrong_variants():
    from proofs.kairouz.sec5_approximate_dp import _dominates, _thm18_certificates
    from rldp_verify.topics.extremal.polytope import approx_ldp_binary_vertices
    from rldp_verify.topics.extremal.utilities import quaternary_mechanism

    t, delta = F(2), F(1, 10)
    verts = approx_ldp_binary_vertices(2, t, delta)
    pairs = [(V, _dominates(quaternary_mechanism(t, delta), V)) for V in verts]
    docs = _thm18_certificates(t, delta, pairs, {2: verts})
    assert len(docs) == 1 + 5 + 1 + len(verts) and all(_ok(d) for d in docs)
    (vert,) = [d for d in docs if d["kind"] == "vertex-enumeration"]
    missing = copy.deepcopy(vert)   # a vertex dropped from the list (and its tight rows)
    del missing["statement"]["vertices"][0], missing["data"]["tight"][0]
    assert not _ok(missing)
    w = copy.deepcopy(docs[-1])   # a witness W moved off Q_QT W = V
    w["data"]["x"][0] = qs(F(w["data"]["x"][0]) + F(1, 10 ** 9))
    assert not _ok(w)
    qt = copy.deepcopy(docs[0])   # Q_QT with delta 1/100 instead of 1/10 is not (eps, delta)-LDP
    qt["statement"]["b"] = [qs(F(1, 100)) if F(v) == delta else v for v in qt["statement"]["b"]]
    assert not _ok(qt)


def test_isit_eq3_radius_certificate_and_a_wrong_level():
    from proofs.isit.eq3_radius import _certificate
    from rldp_verify.topics.chisquare.ball import chi2_radius

    nB = F(chi2_radius(75, 15, 0.05)) * 75
    assert _ok(_certificate(15, F(1, 20), 75, nB))
    assert not _ok(_certificate(15, F(1, 25), 75, nB))          # the 0.96-quantile is not n B
    assert not _ok(_certificate(15, F(1, 20), 75, nB * F(1000001, 10 ** 6)))   # n B moved by 1e-6 (relative)


def test_staircase_optimum_certificates_accept_the_optimum_and_reject_a_suboptimal_theta():
    from proofs.kairouz._certified import staircase_optimum_certificates
    from rldp_verify.topics.extremal.staircase import pattern_index
    from rldp_verify.topics.extremal.utilities import mu_chi2

    t = F(3, 2)
    with arb_precision(50):
        sol = solve_staircase_lp(3, t, mu_kl(P0, P1))
        sol_chi2 = solve_staircase_lp(3, t, mu_chi2(P0, P1))
    docs = staircase_optimum_certificates("kl", 3, t, "kl", sol.theta, sol, P0=P0, P1=P1)
    assert [d["kind"] for d in docs] == ["lp-optimum", "rigorous-value"] and all(_ok(d) for d in docs)
    # randomized response (theta on the singletons, 1/(t + k - 1) each) is not KL-optimal at t = 3/2 here
    rr = [F(0)] * 8
    for i in range(3):
        rr[pattern_index({i}, 3)] = 1 / (t + 2)
    assert sol.theta != tuple(rr)
    feas, value = staircase_optimum_certificates("rr", 3, t, "kl", rr, sol, P0=P0, P1=P1)
    assert _ok(feas) and not _ok(value)
    (exact,) = staircase_optimum_certificates("chi2", 3, t, "chi2", sol_chi2.theta, sol_chi2, P0=P0, P1=P1)
    assert _ok(exact)
    bad = copy.deepcopy(exact)   # one equality multiplier alpha_i moved by 1e-9
    bad["data"]["y"][-1] = qs(F(bad["data"]["y"][-1]) + F(1, 10 ** 9))
    assert not _ok(bad)
    (rr_exact,) = staircase_optimum_certificates("rr chi2", 3, t, "chi2", rr, sol_chi2, P0=P0, P1=P1)
    assert sol_chi2.theta == tuple(rr) or not _ok(rr_exact)


def test_eq105_witness_and_the_argmin_set_in_place_of_the_texts():
    from proofs.kairouz.eq105_set_equivalence import _certificate

    P = (F(1, 2), F(1, 4), F(1, 4))
    text = {frozenset(), frozenset({0, 1, 2})}          # |P(A) - 1/2| = 1/2, the largest
    argmin = {frozenset({0}), frozenset({1, 2})}         # P(A) = 1/2
    assert _ok(_certificate(P, text, argmin))
    assert not _ok(_certificate(P, argmin, argmin))      # h(1/2) > h(1/2) is false


def test_cor16_bound_and_a_wrong_factor():
    from proofs.kairouz._certified import precise_dual
    from proofs.kairouz.cor16_mi_bound_large_eps import _certificate
    from rldp_verify.topics.extremal.thresholds import t_from_eps

    P, t = (F(1, 2), F(3, 10), F(1, 5)), t_from_eps(12)
    assert _ok(_certificate(P, t, 50))
    with arb_precision(50):
        sol = solve_staircase_lp(3, t, mu_mi(P))
    H = ["+", 0, *[["*", -x, ["log", x]] for x in P]]
    wrong = ["-", H, ["*", F(11, 10) * 2, ["log", t], 1 / t]]      # (1 + delta) in place of (1 - delta)
    assert not _ok(staircase_bound_certificate("1+delta", 3, t, "mi", wrong, precise_dual(3, t, "mi", sol.basis, P=P),
                                               P=P))


def test_better_mechanism_certificate_and_its_reversal():
    from proofs.kairouz._certified import rr_theta, staircase_better_certificates

    t = F(3, 2)
    with arb_precision(50):
        sol = solve_staircase_lp(3, t, mu_kl(P0, P1))
    docs = staircase_better_certificates("RR not optimal", 3, t, "kl", sol.theta, rr_theta(3, t), P0=P0, P1=P1)
    assert all(_ok(d) for d in docs)
    feas, reversed_ = staircase_better_certificates("reversed", 3, t, "kl", rr_theta(3, t), sol.theta, P0=P0, P1=P1)
    assert _ok(feas) and not _ok(reversed_)
    off = [x * 2 for x in sol.theta]                                # not a point of S theta = 1
    assert not _ok(staircase_better_certificates("off", 3, t, "kl", off, rr_theta(3, t), P0=P0, P1=P1)[0])


def test_claim4_certificate_and_an_instance_outside_the_hypothesis():
    from proofs.kairouz.claim4_single_heavy_atom import _certificate

    P = (F(101, 200), F(9, 20), F(3, 100), F(3, 200))
    assert not _ok(_certificate(P, F(7, 50)))     # P(x*) = 0.505 < 1 - z*(0.14): outside Claim 4's hypothesis
    assert _ok(_certificate((F(3, 4), F(1, 8), F(1, 8)), F(1, 2)))
