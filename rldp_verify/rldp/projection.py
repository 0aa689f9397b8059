"""The joint projection F_{U|s1,s2} of a Rényi ball and the lift back into F: the one implementation.

The audit (:mod:`rldp_verify.rldp.audit`) bounds ratios over this projection; the chi-square ball of
:mod:`rldp_verify.topics.chisquare.ball` is the case alpha = 2 (ISIT Theorem 3, eq. (28), and its lift
(33)-(34): the lift mass :func:`kappa` is then sqrt(sum_u P^_{s,u}^2 / R_u)). Independent second routes
(direct optimisation over F, the closed forms as printed) live in ``proofs/`` and ``tests/`` only.

Paper: [lopuhaa-2024], Sec. 4.1 (power-sum identity), Theorem 1, Appendix A.1 (Lemma A2's lift);
[goseling-2021] Theorem 3 (alpha = 2) and its proof's lift (33)-(34).

    (R1, R2) in F_{U|s1,s2}  iff  P^_{s1} phi(D_alpha(P^_{U|s1}||R1)) + P^_{s2} phi(D_alpha(P^_{U|s2}||R2)) <= phi(B)

with phi(d) = (e^{beta d} - 1)/beta, beta = 1 - 1/alpha (phi(d) = d at alpha = 1). The lift of (R1, R2)
is P_{s,u} = (P^_s e^{beta d_s} / T) R_s(u) for s in {s1, s2} and P^_{s,u} / T elsewhere, where
T normalises; it attains D_alpha(P^||P) = phi^{-1}(sum_i P^_{s_i} phi(d_i)) (computed in the claim).

Which way results may err: mpmath values at the working precision (no certification here).
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import renyi_divergence_mp
from rldp_verify.core.numbers import to_mpf


def phi_mp(d, beta):
    """phi(d) = (e^{beta d} - 1)/beta (phi(d) = d at beta = 0), mpf; phi(inf) = inf (beta >= 0) or -1/beta."""
    b = mpmath.mpf(beta.numerator) / beta.denominator if isinstance(beta, Fraction) else mpmath.mpf(beta)
    if d == mpmath.inf:
        return mpmath.inf if b >= 0 else -1 / b
    if b == 0:
        return d
    return mpmath.expm1(b * d) / b


def joint_projection_sides(ball, s1: int, s2: int, R1, R2):
    """The two sides (lhs, rhs) = (sum_i P^_{s_i} phi(D_alpha(P^_{U|s_i} || R_i)), phi(B)) of the projection
    inequality (000 Sec. 4.1 / Theorem 1; at alpha = 2 ISIT eq. (28) up to the map x -> 2(x - 1)), as mpf at the
    working precision: rounding either way, not a certificate. lhs = inf when R_i misses the support of
    P^_{U|s_i} at alpha >= 1. (Was ``joint_projection_lhs``; the chi-square form is
    :func:`rldp_verify.topics.chisquare.ball.joint_projection_lhs`.)"""
    beta = 1 - 1 / Fraction(ball.alpha)
    a = to_mpf(ball.alpha)
    lhs = mpmath.mpf(0)
    for s, R in ((s1, R1), (s2, R2)):
        m = ball.marginal(s)
        if m == 0:
            continue
        w = [to_mpf(x) for x in ball.conditional(s)]
        Rm = [to_mpf(x) for x in R]
        if any(wi > 0 and ri == 0 for wi, ri in zip(w, Rm, strict=True)) and a >= 1:
            return mpmath.inf, phi_mp(to_mpf(ball.radius), beta)
        d = renyi_divergence_mp(w, Rm, a)
        lhs += to_mpf(m) * phi_mp(d, beta)
    rhs = phi_mp(mpmath.inf if ball.radius == float("inf") else to_mpf(ball.radius), beta)
    return lhs, rhs


def joint_projection_lhs(ball, s1: int, s2: int, R1, R2):
    """Deprecated alias of :func:`joint_projection_sides` (kept for one release; the name clashed with the
    chi-square ball's ``joint_projection_lhs``, which returns the left-hand side of ISIT eq. (28) only)."""
    warnings.warn("rldp_verify.rldp.projection.joint_projection_lhs is renamed joint_projection_sides",
                  DeprecationWarning, stacklevel=2)
    return joint_projection_sides(ball, s1, s2, R1, R2)


def in_joint_projection(ball, s1: int, s2: int, R1, R2) -> bool:
    """(R1, R2) in F_{U|s1,s2}, decided at the working precision (not a certificate)."""
    lhs, rhs = joint_projection_sides(ball, s1, s2, R1, R2)
    return lhs <= rhs


def kappa(row, R, alpha):
    """The lift mass P^_s e^{beta D_alpha(P^_{U|s} || R)} of a joint row ``row`` = (P^_{s,u})_u replaced by the
    conditional R (mpf; 0 for a zero row, inf when R misses the row's support and alpha >= 1). At alpha = 2
    this is sqrt(sum_u P^_{s,u}^2 / R_u), the kappa of ISIT's lift (33)."""
    a = to_mpf(alpha)
    beta = 1 - 1 / a
    m = mpmath.fsum(to_mpf(x) for x in row)
    if m == 0:
        return mpmath.mpf(0)
    d = renyi_divergence_mp([to_mpf(x) / m for x in row], [to_mpf(x) for x in R], a)
    return m * mpmath.exp(beta * d)


def lift(phat, alpha, replaced: dict, *, masses: dict | None = None):
    """The distribution P (mpf table) with conditionals ``replaced[s]`` at the rows s in ``replaced`` and
    P^'s conditionals elsewhere, with P_s proportional to P^_s e^{beta d_s} (d_s = D_alpha(P^_{U|s}||R_s)) at the
    replaced rows and to P^_s elsewhere: the lift of Lemma A2 / ISIT (33)-(34), which attains
    D_alpha(P^||P) = phi^{-1}(sum_s P^_s phi(d_s)). ``masses[s]`` may give the unnormalised mass of a replaced
    row when the caller already holds it (e.g. from d_s)."""
    beta = to_mpf(1 - 1 / Fraction(alpha))
    a = to_mpf(alpha)
    out_masses, rows = [], []
    for s, row in enumerate(phat):
        m = to_mpf(sum(row))
        if s in replaced:
            R = [x if isinstance(x, mpmath.mpf) else to_mpf(x) for x in replaced[s]]
            if masses is not None and s in masses:
                out_masses.append(masses[s])
            elif m > 0:
                d = renyi_divergence_mp([to_mpf(x) for x in row_conditional(row)], R, a)
                out_masses.append(m * mpmath.exp(beta * d))
            else:
                out_masses.append(mpmath.mpf(0))
            rows.append(R)
        else:
            out_masses.append(m)
            rows.append([to_mpf(x) / m if m > 0 else mpmath.mpf(0) for x in row])
    T = mpmath.fsum(out_masses)
    return [[mm / T * r for r in row] for mm, row in zip(out_masses, rows, strict=True)]


def row_conditional(row) -> list:
    """P^_{U|s} from the joint row (P^_{s,u})_u (exact for exact rows)."""
    m = sum(row)
    return [x / m for x in row]


def lift_pair(ball, s1: int, s2: int, R1, R2):
    """The full distribution P (mpf table) whose conditionals at s1, s2 are R1, R2 (:func:`lift`)."""
    return lift(ball.phat, ball.alpha, {s1: R1, s2: R2})
