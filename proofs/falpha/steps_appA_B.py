"""Proof steps of Appendix A (proof of Theorem 8, eqs. (63)-(69)) of 001_29f852b736fc5e16.txt (issue 30).

    psi_alpha(p, t) = p^alpha/(p+t)^(alpha-1) + (1-p)^alpha/(1-p-t)^(alpha-1) - 1      (65)

(66), (67) and the Jensen chain for alpha >= 2 are checked by ``falpha.appA.derivatives-and-jensen``; here the case
t >= 1/alpha: the bound (68), the sentence that follows it ("the maximum value of psi_alpha ... will be achieved at
p = 0") and the value printed there ("psi_alpha(0, t) = (1-t)^(1-alpha)"), and Pinsker's step (69). Wrong variants of
the printed steps are the mutants ``steps.falpha.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

import mpmath

from rldp_verify.claims import Method, claim
from rldp_verify.core.numbers import working_precision

from ..rldp._steps import Tally, mp, rand_fraction
from ._common import PAPER

THEOREM_8 = ("falpha.appA.derivatives-and-jensen", "falpha.thm8.pinsker")
ORDERS = (mpmath.mpf(3) / 2, mpmath.mpf(2), mpmath.mpf(3), mpmath.mpf(5), mpmath.mpf(11) / 10)


def psi(a, p, t):
    """(65) (a definition)."""
    return p**a / (p + t) ** (a - 1) + (1 - p) ** a / (1 - p - t) ** (a - 1) - 1


def printed_68(a, p, t):
    """(68): the lower bound (alpha t + p - 1)(1-p)^(alpha-1)/(1-p-t)^alpha on d psi/dp."""
    return (a * t + p - 1) * (1 - p) ** (a - 1) / (1 - p - t) ** a


#: "this implies that the maximum value of psi_alpha for all t >= 1/alpha will be achieved at p = 0"
PRINTED_EXTREME_AT_0 = "maximum"


def printed_psi_at_0(a, t):
    """'At this point, we have psi_alpha(0, t) = (1 - t)^(1 - alpha)' (as printed, without the - 1 of (65) and (39))."""
    return (1 - t) ** (1 - a)


def printed_69(a, tv):
    """(69): D_{f_alpha}(P||Q) >= exp(2 (alpha - 1) TV^2) - 1."""
    return mpmath.exp(2 * (a - 1) * tv**2) - 1


def _points(rng, a, count):
    for _ in range(count):
        t = 1 / a + (1 - 1 / a) * mp(rand_fraction(rng, 0, 1))          # t in [1/alpha, 1)
        p = (1 - t) * mp(rand_fraction(rng, 0, 1))                       # p in [0, 1 - t)
        yield p, t


@claim(
    id="falpha.steps.appa.eq68-eq69",
    paper=PAPER,
    source="App. A, proof of Theorem 8, eq. (68) ('We can bound the first derivative by') and eq. (69) (Pinsker)",
    statement="For t >= 1/alpha and 0 <= p < 1 - t: d psi/dp >= (alpha t + p - 1)(1-p)^(alpha-1)/(1-p-t)^alpha >= 0 (68); "
              "and D_{f_alpha}(P||Q) >= exp(2(alpha-1) TV(P||Q)^2) - 1 for distributions P, Q (69).",
    hypotheses=("alpha > 1",),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_68_69(ctx):
    rng = ctx.rng("falpha.steps.appa.68-69")
    t_ = Tally(ctx.dps, tol=mpmath.mpf(10) ** (-(ctx.dps // 2)))
    with working_precision(ctx.dps):
        for k in range(25):
            a = ORDERS[k % len(ORDERS)]
            for p, t in list(_points(rng, a, 3)) + [(mpmath.mpf(0), 1 / a)]:
                d = mpmath.diff(lambda z: psi(a, z, t), p) if p > 0 else mpmath.diff(lambda z: psi(a, z, t), p, direction=1)
                pt = {"alpha": a, "p": p, "t": t}
                t_.leq("(68) first", printed_68(a, p, t), d, pt)
                t_.leq("(68) second", 0, printed_68(a, p, t), pt)
            n = rng.choice((2, 3, 4))
            P = [mp(rand_fraction(rng, 0, 1)) for _ in range(n)]
            Q = [mp(rand_fraction(rng, 0, 1)) for _ in range(n)]
            P, Q = [x / mpmath.fsum(P) for x in P], [x / mpmath.fsum(Q) for x in Q]
            dfa = mpmath.fsum(x**a * y ** (1 - a) for x, y in zip(P, Q, strict=True)) - 1
            tv = mpmath.fsum(abs(x - y) for x, y in zip(P, Q, strict=True)) / 2
            t_.leq("(69)", printed_69(a, tv), dfa, {"alpha": a, "P": P, "Q": Q})
            t_.points += 1
    return t_.outcome("(68)-(69)", statement_claims=THEOREM_8)


@claim(
    id="falpha.steps.appa.extreme-at-p0",
    paper=PAPER,
    source="App. A, proof of Theorem 8, after (68): 'Together with the convexity of psi_alpha in p, this implies that the "
           "maximum value of psi_alpha for all t >= 1/alpha will be achieved at p = 0'",
    statement="For t >= 1/alpha, psi_alpha(., t) attains its maximum over p in [0, 1 - t) at p = 0.",
    hypotheses=("alpha > 1", "t >= 1/alpha"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="Theorem 8 needs the minimum over p ((63)-(65): inf over P, Q); psi increases in p by (68), so p = 0 gives "
            "the minimum, and psi -> inf as p -> 1 - t.",
)
def check_extreme(ctx):
    rng = ctx.rng("falpha.steps.appa.extreme")
    t_ = Tally(ctx.dps)
    with working_precision(ctx.dps):
        for k in range(20):
            a = ORDERS[k % len(ORDERS)]
            for p, t in _points(rng, a, 3):
                at0, atp = psi(a, mpmath.mpf(0), t), psi(a, p, t)
                where = "maximum" if at0 >= atp else "minimum"
                t_.truth("p = 0 is the printed extreme", where == PRINTED_EXTREME_AT_0, {"alpha": a, "t": t, "p": p},
                         psi_at_0=at0, psi_at_p=atp, p0_is_the=where,
                         psi_near_right_end=psi(a, (1 - t) * (1 - mpmath.mpf(10) ** -12), t))
            t_.points += 1
    return t_.outcome("the extreme of psi at p = 0", statement_claims=THEOREM_8,
                      repair="'the minimum value of psi_alpha ... is achieved at p = 0' (what (63) needs; the supremum "
                             "over p is +inf)")


@claim(
    id="falpha.steps.appa.psi-at-p0",
    paper=PAPER,
    source="App. A, proof of Theorem 8: 'At this point, we have psi_alpha(0, t) = (1 - t)^(1 - alpha)'",
    statement="psi_alpha(0, t) = (1 - t)^(1 - alpha).",
    hypotheses=("alpha > 1", "0 < t < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_psi_at_0(ctx):
    rng = ctx.rng("falpha.steps.appa.psi0")
    t_ = Tally(ctx.dps)
    with working_precision(ctx.dps):
        for k in range(20):
            a = ORDERS[k % len(ORDERS)]
            t = mp(rand_fraction(rng, 0, 1))
            t_.equal("psi(0, t)", printed_psi_at_0(a, t), psi(a, mpmath.mpf(0), t), {"alpha": a, "t": t})
            t_.points += 1
    return t_.outcome("psi_alpha(0, t)", kind="misprint", statement_claims=THEOREM_8,
                      repair="(1 - t)^(1 - alpha) - 1, as in (65) and in the third case of (39)")
