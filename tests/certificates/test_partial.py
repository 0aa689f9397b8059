"""Certificates of the evidence that earlier rounds left uncovered (issue 23, helper "partial",
:mod:`rldp_verify.certificates.partial` and the claims' builders): each is accepted as built and rejected once
made wrong (an upper end lowered, a multiplier out of its range, a box missing, a term of a formula dropped, an
enclosure moved)."""

from fractions import Fraction as F

import pytest

from rldp_verify.certificates import partial, recheck
from rldp_verify.certificates.partial import pair_upper_certificates, phi_convexity_certificates
from rldp_verify.rldp.audit.pair import PairProblem, solve_pair
from rldp_verify.rldp.uncertainty import RenyiBall

PHAT = [[3, 5, 2], [4, 1, 6]]
Q_Y = [F(1, 5), F(1, 2), F(3, 10), F(2, 5), F(1, 10), F(7, 20)]     # one output's row over X = S x U


def _case(alpha, radius=F(1, 5)):
    ball = RenyiBall.from_radius(PHAT, alpha, radius)
    rows = [tuple(Q_Y[0:3]), tuple(Q_Y[3:6])]
    r = solve_pair(PairProblem(ball, rows, 0, 0, 1), 30)
    assert r.entry is not None and r.entry.get("mode") is None and r.entry["r"] == r.hi
    return (Q_Y, 3, 0, 1, ball.phat, ball.alpha, ball.radius, r.entry), r


@pytest.mark.parametrize("alpha", [F(3, 4), F(1), F(2)])
def test_pair_upper_end(alpha):
    """hi = the entry's r is certified (beta < 0, = 0, > 0); hi lowered by a millionth is rejected; the lower end
    lo of the same bracket in place of hi is rejected (lo < hi)."""
    case, r = _case(alpha)
    assert all(recheck(d).ok for d in pair_upper_certificates("pair", [case]))
    entry = case[-1]
    low = pair_upper_certificates("pair", [(*case[:-1], {**entry, "r": entry["r"] * (1 - F(1, 10**6))})])
    assert not recheck(low[0]).ok
    assert r.lo < r.hi
    at_lo = pair_upper_certificates("pair", [(*case[:-1], {**entry, "r": r.lo})])
    assert not recheck(at_lo[0]).ok


def test_pair_upper_side_conditions():
    """mu1 below max q1 (x1 < 0) or t of the wrong sign for alpha fails the exact side conditions."""
    case, _ = _case(F(2))
    entry = case[-1]
    for wrong in ({**entry, "mu1": max(Q_Y[0:3]) - F(1, 10**9)}, {**entry, "t": -abs(entry["t"]) - 1}):
        docs = pair_upper_certificates("pair", [(*case[:-1], wrong)])
        assert not recheck(docs[-1]).ok


def test_phi_convexity_boxes():
    """phi'' > 0 on [1/1000, 999/1000] / rho is accepted; a box dropped, or phi'' without its alpha a c / (t(1-t))
    term (which vanishes where a = c), is rejected; the identity with that term dropped is rejected too."""
    docs = phi_convexity_certificates("phi", [(F(3), F(3, 10))], F(1, 1000), F(999, 1000))
    assert all(recheck(d).ok for d in docs)
    box_doc = docs[0]
    boxes = box_doc["data"]["boxes"]
    assert len(boxes) >= 2
    gap = {**box_doc, "data": {"boxes": boxes[:1] + boxes[2:]}}
    assert not recheck(gap).ok
    e = box_doc["statement"]["expr"]            # ["let", binds, ["*", rho^2, ["/", num, S^2]]]
    num_ = e[2][2][1]
    wrong = ["let", e[1], ["*", e[2][1], ["/", num_[1], e[2][2][2]]]]
    assert not recheck({**box_doc, "statement": {**box_doc["statement"], "expr": wrong}}).ok
    ident = docs[-1]
    assert ident["kind"] == "symbolic-identity"
    rhs = ident["statement"]["rhs"]                # ["+", (a - c)^2, alpha a c / (t (1-t))]
    no_alpha = ["+", rhs[1], [rhs[2][0], *(f for f in rhs[2][1:] if f != "$alpha")]]
    assert not recheck({**ident, "statement": {**ident["statement"], "rhs": no_alpha}}).ok


def test_phi_second_derivative_matches_mpmath():
    """The closed form of phi'' agrees with mpmath's numerical second derivative of D_alpha(Bern(rho)||Bern(rho xi))
    (alpha = 1/2, 1, 5)."""
    import mpmath

    from rldp_verify.certificates.value import expr
    from rldp_verify.rldp.xi_interval import phi
    from rldp_verify_check.value import evaluate, num

    for alpha in (F(1, 2), F(1), F(5)):
        rho, xi = F(3, 10), F(2)
        e = expr(partial.phi_second_derivative_expr(rho, alpha))
        closed = float(evaluate(e, {"$xi": num(xi)}).mid())
        with mpmath.workdps(30):
            numeric = mpmath.diff(lambda x: phi(mpmath.mpf(3) / 10, x, alpha, 0), 2, 2)
        assert abs(closed - float(numeric)) <= 1e-12 * abs(closed)


def test_lemma_a6_enclosure_near_one():
    """alpha = 1, B = 4, rho = 19/20: the engine's 25-digit t+ is 1 while D_1(Bern(rho)||Bern(1)) is infinite; the
    enclosure recomputed at 120 digits is certified (D(lo) <= B), and lo moved up past t+ is rejected."""
    from proofs.rldp.lemA6_l1_radius import _tplus_enclosure
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.certificates.value import value_certificate

    rho, B = F(19, 20), F(4)
    lo, hi = _tplus_enclosure(F(1), rho, F(1), B)
    assert rho < lo < hi <= 1 and hi - lo < (1 - lo) / 10**5
    assert recheck(value_certificate("in", ["-", B, binary_renyi_expr(rho, lo, 1)], lower=0)).ok
    above = 1 - (1 - lo) / 10**9
    assert not recheck(value_certificate("in", ["-", B, binary_renyi_expr(rho, above, 1)], lower=0)).ok


def test_pinsker_strict_tight_and_chi2():
    """Theorem 8's binary bound at alpha = 3: t = 1/4 (strict: psi - g > 0 on boxes, exact tail), t = 1/2 (tight:
    eq. (66) > 0 on boxes, psi(0, t) = g(t) exactly) and t = 1/3 = 1/alpha (eq. (67) > 0 on boxes, eq. (66) = 0 and
    psi = g at p = 0 exactly); alpha = 2 by the chi^2 identity. Wrong variants rejected: g with exponent alpha
    instead of alpha - 1, g(1/2) + 10^-9 in the equality, a box dropped, a tail cut p_c = 1/2 too early, eq. (67)
    with its sign flipped."""
    from rldp_verify.certificates import qs
    from rldp_verify.certificates.partial import g_alpha_value, pinsker_certificates

    docs, done, left = pinsker_certificates("thm8", 3, [F(1, 4), F(1, 3), F(1, 2)])
    assert done == [F(1, 4), F(1, 3), F(1, 2)] and not left
    assert all(recheck(d).ok for d in docs)

    def named(*words):
        return next(d for d in docs if all(w in d["name"] for w in words))
    strict, tight_boxes = named("psi(p, t) - g(t) > 0", "t = 1/4"), named("eq. (66) > 0", "t = 1/2")
    tight_eq, tails, tangent = named("psi(0, t) - g(t) = 0", "t = 1/2"), named("the tails"), named("eq. (67) > 0")
    wrong = (4 * F(1, 16) + 1) ** 3 - 1                         # (4t^2 + 1)^alpha - 1 at t = 1/4: above min psi
    bad = {**strict, "statement": {**strict["statement"], "expr": [*strict["statement"]["expr"][:2], qs(wrong)]}}
    assert not recheck(bad).ok
    eq = tight_eq["statement"]["expr"]
    assert eq[2] == qs(g_alpha_value(F(1, 2), 3))
    assert not recheck({**tight_eq, "statement": {**tight_eq["statement"],
                                                  "expr": [*eq[:2], qs(g_alpha_value(F(1, 2), 3) + F(1, 10**9))]}}).ok
    boxes = tight_boxes["data"]["boxes"]
    assert not recheck({**tight_boxes, "data": {"boxes": boxes[:-2] + boxes[-1:]}}).ok
    early = ["-", ["-", ["*", ["pow", qs(F(1, 4)), 3], ["pow", qs(F(1, 4)), -2]], 1], qs(g_alpha_value(F(1, 4), 3))]
    assert not recheck({**tails, "statement": {**tails["statement"], "expr": ["min", early]}}).ok
    assert not recheck({**tangent, "statement": {**tangent["statement"],
                                                 "expr": ["-", tangent["statement"]["expr"]]}}).ok
    d2, done2, _ = pinsker_certificates("thm8", 2, [F(1, 8), F(3, 4)])
    assert done2 == [F(1, 8), F(3, 4)] and all(recheck(d).ok for d in d2)
    assert d2[-1]["kind"] == "symbolic-identity"


def test_eq46_bracket_beyond_100_vertices():
    """The LP (46) claims' brackets and vertex lists are certified beyond the former caps (100 and 20 vertices): a
    Gamma-hat with 162 vertices is accepted; its upper end lowered by 10^-6, or a vertex dropped from the list
    (vertex-enumeration), is rejected."""
    import dataclasses

    from proofs.rldp._mech_common import rand_instance
    from rldp_verify.certificates.exact_gaps import eq46_bracket_certificates, gamma_hat_vertex_certificate
    from rldp_verify.claims.core import Context
    from rldp_verify.rldp.mechanisms import lower_bounds, polyopt_from_bounds, privacy_level

    rng = Context().rng("partial2")
    rand_instance(rng, 1)
    ball, eps = rand_instance(rng, 2)
    L = lower_bounds(ball, dps=30)
    _, sol = polyopt_from_bounds(ball.phat, L, eps, dps=30)
    assert len(sol.vertices) > 100
    assert all(recheck(d).ok for d in eq46_bracket_certificates("eq46", sol))
    assert not recheck(eq46_bracket_certificates("eq46", dataclasses.replace(sol, upper=sol.upper - F(1, 10**6)))[1]).ok
    r = privacy_level(eps).exp_eps
    assert recheck(gamma_hat_vertex_certificate("V", L, r, sol.vertices)).ok
    assert not recheck(gamma_hat_vertex_certificate("V", L, r, sol.vertices[:-1])).ok


def test_exact_ties_moves_rational_equalities():
    """An arb "within 1e-30" certificate's rational equalities that are exactly 0 move to an exact certificate; a
    rational difference of 10^-40 (false exactly, true within 1e-30) and an irrational one (log 2 - log 2 written
    apart) stay in arb; all accepted. The exact certificate with the 10^-40 difference forced in is rejected."""
    from rldp_verify.certificates.instances_rldp import within_certificate
    from rldp_verify.certificates.partial import exact_ties

    zero = ["-", ["*", F(1, 3), 3], 1]
    tiny = ["-", ["+", 1, F(1, 10**40)], 1]
    irrational = ["-", ["log", 2], ["*", 2, ["log", ["sqrt", 2]]]]
    doc = within_certificate("ties", [zero, tiny, irrational], F(1, 10**30))
    docs, moved = exact_ties([doc])
    assert moved == 1 and len(docs) == 2
    exact, rest = docs
    assert exact["statement"]["exact"] and exact["statement"]["lower"] == exact["statement"]["upper"] == 0
    assert all(recheck(d).ok for d in docs)
    assert len(rest["statement"]["expr"]) == 3                  # ["max", |tiny|, |irrational|]
    forced = {**exact, "statement": {**exact["statement"], "expr": [*exact["statement"]["expr"], rest["statement"]["expr"][1]]}}
    assert not recheck(forced).ok
    assert exact_ties([within_certificate("none", [irrational], F(1, 10**30))])[1] == 0


def test_pinsker_small_t_split_form():
    """alpha = 3, t = 10^-8: eq. (3) as written needs too many boxes, the cancellation-free form q R1(t/q) + (1-q)
    R2(t/(1-q)) certifies it (two covers, the binomial expansions as identities); R2's j = 2 term dropped is
    rejected (psi - g < 0 then), and a binomial coefficient off by one in the identity is rejected."""
    import json

    from rldp_verify.certificates.partial import pinsker_certificates

    t = F(1, 10**8)
    docs, done, left = pinsker_certificates("thm8", 3, [t])
    assert done == [t] and not left
    assert all(recheck(d).ok for d in docs)
    far = next(d for d in docs if "series) for every p" in d["name"])
    text = json.dumps(far["statement"]["expr"])
    dropped = text.replace('["*", 3, ["pow", ["/", "1/100000000", ["-", 1, ["+", "$p", "1/100000000"]]], 2]], ', "", 1)
    assert dropped != text
    assert not recheck({**far, "statement": {**far["statement"], "expr": json.loads(dropped)}}).ok
    ident = next(d for d in docs if "R2's binomial expansion" in d["name"])
    wrong = json.loads(json.dumps(ident).replace('["*", 3, ', '["*", 4, ', 1))
    assert wrong != ident and not recheck(wrong).ok


def test_pair_audit_certificate():
    """The bracket's upper end as an ``audit`` of the scaled one-row channel: accepted; R = c hi lowered by 10^-9
    (with its pair entry) rejected; the entry's mu1 not scaled by c rejected."""
    from rldp_verify.certificates import qs
    from rldp_verify.certificates.partial import pair_audit_certificate

    (Q_y, a2, s1, s2, phat, alpha, B, entry), r = _case(F(2))
    doc = pair_audit_certificate("pair", Q_y, a2, s1, s2, phat, alpha, B, r.lo, r.hi, entry, r.witness)
    assert recheck(doc).ok
    st, pairs = doc["statement"], doc["data"]["pairs"]
    low = qs(F(st["ratio_upper"]) * (1 - F(1, 10**9)))
    lowered = {**doc, "statement": {**st, "ratio_upper": low, "eps": {"exp_eps": low}},
               "data": {**doc["data"], "pairs": [{**p, "r": low} for p in pairs]}}
    assert not recheck(lowered).ok
    unscaled = [{**p, "mu1": qs(entry["mu1"])} if (p["s"], p["s_prime"]) == (s1, s2) else p for p in pairs]
    assert not recheck({**doc, "data": {**doc["data"], "pairs": unscaled}}).ok
