"""The joint projection F_{U|s1,s2} of a Rényi ball (see :mod:`rldp_verify.rldp.audit.dual`).

Paper: 000_aca93ed29ea857ee.txt, Sec. 4.1 (power-sum identity), Theorem 1, Appendix A.1 (Lemma A2's lift);
003_726cfd382c041001.txt Theorem 3 (alpha = 2) and its proof's lift (33)-(34).

    (R1, R2) in F_{U|s1,s2}  iff  P^_{s1} phi(D_alpha(P^_{U|s1}||R1)) + P^_{s2} phi(D_alpha(P^_{U|s2}||R2)) <= phi(B)

with phi(d) = (e^{beta d} - 1)/beta, beta = 1 - 1/alpha (phi(d) = d at alpha = 1). The lift of (R1, R2)
is P_{s,u} = (P^_s e^{beta d_s} / T) R_s(u) for s in {s1, s2} and P^_{s,u} / T elsewhere, where
T normalises; it attains D_alpha(P^||P) = phi^{-1}(sum_i P^_{s_i} phi(d_i)) (computed in the claim).

Which way results may err: mpmath values at the working precision (no certification here).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import renyi_divergence_mp
from rldp_verify.core.numbers import to_mpf
from rldp_verify.rldp.audit.dual import phi_mp


def joint_projection_lhs(ball, s1: int, s2: int, R1, R2):
    """(lhs, rhs) = (sum_i P^_{s_i} phi(D_i), phi(B)) as mpf at the working precision."""
    beta = 1 - 1 / Fraction(ball.alpha)
    a = to_mpf(ball.alpha)
    lhs = mpmath.mpf(0)
    for s, R in ((s1, R1), (s2, R2)):
        m = ball.marginal(s)
        if m == 0:
            continue
        w = [to_mpf(x) for x in ball.conditional(s)]
        Rm = [to_mpf(x) for x in R]
        if any(wi > 0 and ri == 0 for wi, ri in zip(w, Rm)) and a >= 1:
            return mpmath.inf, phi_mp(to_mpf(ball.radius), beta)
        d = renyi_divergence_mp(w, Rm, a)
        lhs += to_mpf(m) * phi_mp(d, beta)
    rhs = phi_mp(mpmath.inf if ball.radius == float("inf") else to_mpf(ball.radius), beta)
    return lhs, rhs


def in_joint_projection(ball, s1: int, s2: int, R1, R2) -> bool:
    lhs, rhs = joint_projection_lhs(ball, s1, s2, R1, R2)
    return lhs <= rhs


def lift_pair(ball, s1: int, s2: int, R1, R2):
    """The full distribution P (mpf table) whose conditionals at s1, s2 are R1, R2 (see module doc)."""
    beta = to_mpf(1 - 1 / Fraction(ball.alpha))
    a = to_mpf(ball.alpha)
    masses, rows = [], []
    for s, row in enumerate(ball.phat):
        m = to_mpf(sum(row))
        if s in (s1, s2):
            R = [to_mpf(x) for x in (R1 if s == s1 else R2)]
            if m > 0:
                d = renyi_divergence_mp([to_mpf(x) for x in ball.conditional(s)], R, a)
                masses.append(m * mpmath.exp(beta * d))
            else:
                masses.append(mpmath.mpf(0))
            rows.append(R)
        else:
            masses.append(m)
            rows.append([to_mpf(x) / m if m > 0 else mpmath.mpf(0) for x in row])
    T = mpmath.fsum(masses)
    return [[mm / T * r for r in row] for mm, row in zip(masses, rows)]
