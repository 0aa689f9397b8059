"""Sec. 5, last paragraph (and Sec. 4.1): robustness against F-tilde = {P : P_{U|s} in F_{U|s} for all s}
is strictly more demanding than robustness against F.

Witness on Example 1 (alpha = 2): Q = [[9/10, 1/10, 1/10, 29/50], [1/10, 9/10, 9/10, 21/50]] and e^eps = 2
(numerically eps_F(Q) = log 1.952, eps_F-tilde(Q) = log 2.176).

(eps, F)-RLDP, certified: for |S| = |U| = 2 write x = P_{u1|s1}, z = P_{u1|s2}, p = P_s1. Then
sum_x P-hat_x^2 / P_x = P-hat_s1^2 chi1(x) / p + P-hat_s2^2 chi2(z) / (1 - p) with
chi_s(t) = P-hat_{u1|s}^2 / t + P-hat_{u2|s}^2 / (1 - t), and minimising over p gives
(P-hat_s1 sqrt(chi1(x)) + P-hat_s2 sqrt(chi2(z)))^2. So the pairs (x, z) of members of F are exactly
G = {h(x, z) := P-hat_s1 sqrt(chi1(x)) + P-hat_s2 sqrt(chi2(z)) <= e^{B/2}}. Each RLDP inequality is a
half-plane condition in (x, z); we certify by exact/arb branch and bound that h > e^{B/2} on every
violating half-plane (chi_s is bounded below on a box by its monotone parts, exactly).

Not (eps, F-tilde)-RLDP: P1 in F with conditional x1 (and z = P-hat_{u1|s2}) and P2 in F with
conditional z2 (and x = P-hat_{u1|s1}) are found with certified membership (RenyiBall.contains); the
distribution with conditionals (x1, z2) lies in F-tilde and violates Definition 1 exactly.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.rldp.mechanisms import check_single_distribution, exact_level

from ._mech_common import PAPER, example_ball

Q = [[Fraction(9, 10), Fraction(1, 10), Fraction(1, 10), Fraction(29, 50)],
     [Fraction(1, 10), Fraction(9, 10), Fraction(9, 10), Fraction(21, 50)]]
R = Fraction(2)


def _chi_lower(c, lo, hi):
    """A rational lower bound of chi(t) = c0^2/t + c1^2/(1-t) for t in [lo, hi] (monotone parts)."""
    if hi <= 0 or lo >= 1:
        return None  # chi is +inf there
    t1 = c[0] ** 2 / hi if hi > 0 else None
    t2 = c[1] ** 2 / (1 - lo) if lo < 1 else None
    return (t1 or 0) + (t2 or 0)


def _violation_possible(a, b, r, box):
    """Can a2 + (a1-a2) x - r (b2 + (b1-b2) z) > 0 somewhere on the box? (exact, linear: check corners)"""
    (xl, xh), (zl, zh) = box
    return any(a[1] + (a[0] - a[1]) * x - r * (b[1] + (b[0] - b[1]) * z) > 0 for x in (xl, xh) for z in (zl, zh))


def _certify_no_violation(ph, B, a, b, r, s_num, max_boxes=20000):
    """True if h > e^{B/2} on every point of [0,1]^2 where the inequality for (s_num, other) fails."""
    ps = [sum(row) for row in ph]
    c = [[v / ps[s] for v in ph[s]] for s in range(2)]
    s_den = 1 - s_num
    boxes = [((Fraction(0), Fraction(1)), (Fraction(0), Fraction(1)))]
    n = 0
    with arb_precision(60):
        K = (arb_exact(B) / 2).exp()
        while boxes:
            box = boxes.pop()
            n += 1
            if n > max_boxes:
                return False, n
            if not _violation_possible(a, b, r, box):
                continue
            (xl, xh), (zl, zh) = box
            l1 = _chi_lower(c[s_num], xl, xh)
            l2 = _chi_lower(c[s_den], zl, zh)
            lower = arb_exact(ps[s_num]) * arb_exact(l1).sqrt() + arb_exact(ps[s_den]) * arb_exact(l2).sqrt()
            if lower > K:
                continue
            xm, zm = (xl + xh) / 2, (zl + zh) / 2
            if xh - xl >= zh - zl:
                boxes += [((xl, xm), (zl, zh)), ((xm, xh), (zl, zh))]
            else:
                boxes += [((xl, xh), (zl, zm)), ((xl, xh), (zm, zh))]
    return True, n


def _joint(p, x, z):
    return [p * x, p * (1 - x), (1 - p) * z, (1 - p) * (1 - z)]


def _extreme_member(ball, which, towards):
    """A rational conditional t (for s = which) of a certified member of F, pushed towards ``towards``, the
    other conditional kept at P-hat's; p chosen as P-hat_s."""
    ph = ball.phat
    ps = [sum(row) for row in ph]
    base = [ph[s][0] / ps[s] for s in range(2)]
    good, bad = base[which], towards
    for _ in range(40):
        mid = (good + bad) / 2
        x, z = (mid, base[1]) if which == 0 else (base[0], mid)
        best = None
        for p in (ps[0], ps[0] * Fraction(9, 10), ps[0] * Fraction(11, 10)):
            if ball.contains(_joint(p, x, z)) is True:
                best = p
                break
        if best is not None:
            good = mid
        else:
            bad = mid
    return good


def _member_p(ball, x, z):
    """The P_s1 (of the three _extreme_member tries) for which the joint with conditionals (x, z) is certified in F."""
    ps = sum(ball.phat[0])
    for p in (ps, ps * Fraction(9, 10), ps * Fraction(11, 10)):
        if ball.contains(_joint(p, x, z)) is True:
            return p
    raise ValueError("no certified member of F with these conditionals")


def _certificates(ball, x1, z2, dps) -> list[dict]:
    """Issue 23: (1) the F side -- the ``audit`` certificate of Q at e^eps = 2 over F (the ball with the rational
    radius; the auditor's PASS, re-derived by the checker); (2) the F-tilde side -- ``rigorous-value`` certificates
    that P1 (conditionals x1, P^_(u1|s2)) and P2 (P^_(u1|s1), z2) lie in F, and that at the point with conditionals
    (x1, z2) (in F-tilde: each conditional is one of a member of F) Definition 1's ratio exceeds 2 for some
    (y, s, s'), exactly."""
    from rldp_verify.certificates.audit import audit_certificate
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.value import value_certificate
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechio import Mechanism

    mech = Mechanism.from_matrix(Q, ["s1", "s2"], ["u1", "u2"])
    res = audit(mech, "log(2)", ball=ball, dps=dps)
    if res.verdict != "PASS":
        raise ValueError(f"the audit of Q over F gives {res.verdict}")
    docs = [audit_certificate(res, mech, "log(2)", name="sec5-ftilde-Q-over-F", ball=ball)]
    ph = ball.phat
    base = [ph[s][0] / sum(ph[s]) for s in range(2)]
    flat = [v for r in ph for v in r]
    for label, (x, z) in (("P1", (x1, base[1])), ("P2", (base[0], z2))):
        P = _joint(_member_p(ball, x, z), x, z)
        docs.append(value_certificate(f"{label} = {[str(v) for v in P]} (conditionals {x}, {z}) lies in F: D_2(P^||P) <= "
                                      f"B = {ball.radius}", renyi_expr(flat, P, 2), upper=ball.radius))
    cond = {0: [x1, 1 - x1], 1: [z2, 1 - z2]}
    for y, row in enumerate(Q):
        for s in (0, 1):
            num = sum(q * c for q, c in zip(row[2 * s:2 * s + 2], cond[s], strict=True))
            den = sum(q * c for q, c in zip(row[2 * (1 - s):2 * (1 - s) + 2], cond[1 - s], strict=True))
            if num > R * den:
                docs.append(value_certificate(
                    f"at the F-tilde point with conditionals ({x1}, {z2}): P(Y=y{y + 1}|s{s + 1}) / "
                    f"P(Y=y{y + 1}|s{2 - s}) > e^eps = {R}",
                    ["/", ["+", *[["*", q, c] for q, c in zip(row[2 * s:2 * s + 2], cond[s], strict=True)]],
                     ["+", *[["*", q, c] for q, c in zip(row[2 * (1 - s):2 * (1 - s) + 2], cond[1 - s], strict=True)]]],
                    lower=R, strict=True))
                return docs
    raise ValueError("no violated ratio at the F-tilde point")


@claim(
    id="rldp.sec5.ftilde-strictly-smaller",
    paper=PAPER,
    source="Sec. 5, last paragraph; Sec. 4.1 (F subset F-tilde)",
    statement="The set of (eps, F-tilde)-RLDP mechanisms is strictly smaller than the set of (eps, F)-RLDP "
              "mechanisms, F-tilde = {P : P_{U|s} in F_{U|s} for all s}.",
    hypotheses=("F = Example 1's ball with the rational radius used (the confidence radius rounded up)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="Shown by a witness mechanism (see the module docstring); the F side by a certified branch and bound "
            "over the exact (x, z)-projection of F for alpha = 2.",
)
def check_ftilde(ctx):
    ball = example_ball()
    B = Fraction(ball.radius)
    boxes = 0
    for row in Q:
        for s_num in (0, 1):
            a, b = row[2 * s_num:2 * s_num + 2], row[2 * (1 - s_num):2 * (1 - s_num) + 2]
            ok, n = _certify_no_violation(ball.phat, B, a, b, R, s_num)
            boxes += n
            if not ok:
                return Outcome.inconclusive("could not certify (eps, F)-RLDP of the witness", boxes=boxes)
    # F-tilde violation: combine extreme conditionals of two members of F
    ps = sum(ball.phat[0])
    ext = {(w, t): _extreme_member(ball, w, Fraction(t)) for w in (0, 1) for t in (0, 1)}
    res, P, x1, z2 = None, None, None, None
    for tx in (0, 1):
        for tz in (0, 1):
            x1, z2 = ext[(0, tx)], ext[(1, tz)]
            P = _joint(ps, x1, z2)
            res = check_single_distribution(Q, P, exact_level(R), 2, 2)
            if res.holds is False:
                break
        if res.holds is False:
            break
    ev = dict(Q=[[str(v) for v in r] for r in Q], exp_eps=str(R), boxes=boxes, x1=float(x1), z2=float(z2),
              ftilde_point=[str(v) for v in P], check=res.to_json())
    if res.holds is False:
        from rldp_verify.certificates.claims import built

        return Outcome.verified("Q is (log 2, F)-RLDP (certified) but violates Definition 1 at a point of F-tilde "
                                f"(conditionals {float(x1):.4f}, {float(z2):.4f})", **ev,
                                **built(_certificates, ball, x1, z2, ctx.dps))
    return Outcome.inconclusive("no F-tilde violation found for the witness", **ev)
