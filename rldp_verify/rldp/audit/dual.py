"""The joint projection of a Rényi ball and the Lagrangian dual bound used to certify the audit.

Paper: [lopuhaa-2024] (RLDP), Sec. 3 eq. (8), Sec. 4.1 (Theorem 1 and the power-sum
identity P^_x^a P_x^(1-a) = P^_{u|s}^a P_{u|s}^(1-a) P^_s^a P_s^(1-a)), Appendix A.1; and
[goseling-2021] (ISIT), Theorems 2-4 (the chi-square case alpha = 2).

Notation. beta = 1 - 1/alpha, and

    phi(d) = (e^{beta d} - 1)/beta   (alpha != 1),     phi(d) = d   (alpha = 1),

an increasing function of d >= 0 with phi(inf) = inf for alpha >= 1 and -1/beta = alpha/(1-alpha) for
alpha < 1.

Joint projection (derived in proofs/rldp/audit_joint_projection.py). For s1 != s2 with P^_{s_i} > 0,

    F_{U|s1,s2} = {(R1, R2) : P^_{s1} phi(D_alpha(P^_{U|s1}||R1)) + P^_{s2} phi(D_alpha(P^_{U|s2}||R2)) <= phi(B)}

(up to closure). R2 = P^_{U|s2} gives Theorem 1 (B_s = phi^{-1}(phi(B)/P^_s)); alpha = 2 with
B = log(1 + B_chi2) gives ISIT Theorem 3, eq. (28).

Support function of one ball {R : D_alpha(R^||R) <= d} (weak duality, every alpha in (0, inf)):

    sup <v, R>  <=  mu - e^{-d} M_beta(mu - v; R^)           for every mu >= max_u v_u,

M_beta(x; w) = (sum_u w_u x_u^beta)^{1/beta} the weighted power mean over supp w (geometric mean when
beta = 0). The maximiser is R_u proportional to R^_u (mu - v_u)^{-1/alpha}.

Joint dual bound. For G = sup_{F_{U|s1,s2}} <v1,R1> + <v2,R2> and every lambda >= 0, mu_i >= max v_i:

    G <= Dual = lambda phi(B) + sum_i [ mu_i + Psi(lambda P^_{s_i}, M_i(mu_i)) ],
    Psi(kappa, M) = sup_{z in [0,1]} ( -z M - kappa phi(-log z) )                 (z = e^{-d})

                  = -z* M - kappa (z*^{-beta} - 1)/beta,  z* = min(1, (kappa/M)^{1/(1+beta)})   (alpha > 1/2)
                  = max(-M, kappa/beta)                                              (alpha <= 1/2)

For alpha > 1/2 the bound is tight (convex problem, Slater); for alpha <= 1/2 it is valid but may not be.

Which way results may err: the numpy/mpmath functions are approximations at their precision; the arb
functions return enclosures, so ``dual_arb`` <= 0 certifies G <= 0.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import numpy as np

from rldp_verify.core.rigorous import arb_exact
from rldp_verify.rldp.projection import phi_mp

# ------------------------------------------------------------------------------------- exponents


def beta_of(alpha: Fraction) -> Fraction:
    """beta = 1 - 1/alpha (exact)."""
    return 1 - 1 / Fraction(alpha)


# ---------------------------------------------------------------------------------------- numpy


def to_float(x) -> float:
    """x (a Fraction, int or float) as the nearest float64, +-inf when it overflows (never OverflowError).

    For the float screen and float start points only; nothing certified is computed from it.
    """
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def phi_np(d, beta: float):
    """phi(d) = (e^{beta d} - 1)/beta elementwise in float64 (d at beta = 0); the screen's fast route."""
    d = np.asarray(d, dtype=float)
    if beta == 0:
        return d
    with np.errstate(over="ignore", invalid="ignore"):
        return np.expm1(beta * d) / beta


def phi_inv_np(y, beta: float):
    """phi^{-1}(y) (inf where 1 + beta y <= 0)."""
    y = np.asarray(y, dtype=float)
    if beta == 0:
        return y.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        arg = beta * y
        out = np.where(arg > -1, np.log1p(np.maximum(arg, -1 + 1e-300)) / beta, np.inf)
    return out


def power_mean_np(x, w, beta: float, axis=-1):
    """M_beta(x; w) along ``axis`` over the entries with w > 0 (x > 0 there; x = 0 allowed for beta > 0)."""
    x = np.asarray(x, dtype=float)
    w = np.asarray(w, dtype=float)
    pos = w > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if beta == 0:
            lg = np.where(pos, np.log(np.where(pos, x, 1.0)), 0.0)
            return np.exp(np.sum(w * lg, axis=axis))
        t = np.where(pos, np.power(np.where(pos, x, 1.0), beta), 0.0)
        s = np.sum(w * t, axis=axis)
        return np.power(s, 1.0 / beta)


def psi_np(kappa, M, beta: float):
    """Psi(kappa, M) elementwise (see the module docstring)."""
    kappa = np.asarray(kappa, dtype=float)
    M = np.asarray(M, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if 1 + beta <= 0:  # alpha <= 1/2: endpoints z = 1, z = 0
            return np.maximum(-M, kappa / beta)
        ratio = np.where(M > 0, kappa / np.where(M > 0, M, 1.0), np.inf)
        z = np.minimum(1.0, np.power(ratio, 1.0 / (1 + beta)))
        if beta == 0:
            val = -z * M + kappa * np.log(np.where(z > 0, z, 1.0))
        else:
            val = -z * M - kappa * (np.power(np.where(z > 0, z, 1.0), -beta) - 1) / beta
        val = np.where(kappa > 0, val, 0.0 if beta <= 0 else 0.0)
        return val


def psi_level_np(kappa, M, beta: float):
    """phi(d*) at the maximiser of Psi (the budget used by the block), for alpha > 1/2."""
    ratio = np.where(M > 0, kappa / np.where(M > 0, M, 1.0), np.inf)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        z = np.minimum(1.0, np.power(ratio, 1.0 / (1 + beta)))
        d = -np.log(np.where(z > 0, z, 1e-300))
    return phi_np(d, beta)


# --------------------------------------------------------------------------------------- mpmath


def phi_inv_mp(y, beta):
    """phi^{-1}(y) = log(1 + beta y)/beta (y at beta = 0), mpf; +inf when 1 + beta y <= 0."""
    b = mpmath.mpf(beta.numerator) / beta.denominator if isinstance(beta, Fraction) else mpmath.mpf(beta)
    if b == 0:
        return y
    arg = 1 + b * y
    if arg <= 0:
        return mpmath.inf
    return mpmath.log(arg) / b


def power_mean_mp(x, w, beta):
    """The weighted power mean (sum_i w_i x_i^beta)^(1/beta) (geometric mean at beta = 0), mpf."""
    b = mpmath.mpf(beta.numerator) / beta.denominator if isinstance(beta, Fraction) else mpmath.mpf(beta)
    if b == 0:
        return mpmath.exp(mpmath.fsum(wi * mpmath.log(xi) for xi, wi in zip(x, w, strict=True) if wi > 0))
    s = mpmath.fsum(wi * xi**b for xi, wi in zip(x, w, strict=True) if wi > 0)
    if s == 0:
        return mpmath.mpf(0)
    return s ** (1 / b)


def psi_mp(kappa, M, beta):
    """psi(kappa, M) of the joint dual (see the module docstring), mpf; 0 at kappa = 0."""
    b = mpmath.mpf(beta.numerator) / beta.denominator if isinstance(beta, Fraction) else mpmath.mpf(beta)
    if kappa == 0:
        return mpmath.mpf(0)
    if 1 + b <= 0:
        return max(-M, kappa / b)
    z = mpmath.mpf(1) if M == 0 or kappa >= M else (kappa / M) ** (1 / (1 + b))
    if b == 0:
        return -z * M + kappa * mpmath.log(z)
    return -z * M - kappa * (z ** (-b) - 1) / b


def psi_level_mp(kappa, M, beta):
    """phi(d*) used by the maximiser of Psi (alpha > 1/2)."""
    b = mpmath.mpf(beta.numerator) / beta.denominator if isinstance(beta, Fraction) else mpmath.mpf(beta)
    if kappa == 0:
        return mpmath.inf if b >= 0 else -1 / b
    z = mpmath.mpf(1) if M == 0 or kappa >= M else (kappa / M) ** (1 / (1 + b))
    return phi_mp(-mpmath.log(z), beta)


# ------------------------------------------------------------------------------------------ arb


def phi_arb(B: Fraction, beta: Fraction):
    """An enclosure of phi(B) for rational B >= 0 (None for +inf)."""
    if math.inf == B:
        return None if beta >= 0 else arb_exact(-1 / beta)
    if beta == 0:
        return arb_exact(B)
    return (arb_exact(beta) * arb_exact(B)).exp().__sub__(1) / arb_exact(beta)


def power_mean_arb(x, w, beta: Fraction):
    """M_beta over the entries with w > 0 (x: arbs >= 0 there); an enclosure.

    Zero entries (x exactly 0): they contribute 0 when beta > 0 and force M = 0 when beta <= 0.
    """
    b = arb_exact(beta)
    items = [(xi, wi) for xi, wi in zip(x, w, strict=True) if wi > 0]
    zero = [xi for xi, _ in items if xi == 0]
    if zero and beta <= 0:
        return flint.arb(0)
    items = [(xi, wi) for xi, wi in items if xi != 0]
    if not items:
        return flint.arb(0)
    tot = flint.arb(0)
    if beta == 0:
        for xi, wi in items:
            tot += arb_exact(wi) * xi.log()
        return tot.exp()
    for xi, wi in items:
        tot += arb_exact(wi) * (xi.log() * b).exp()
    return (tot.log() / b).exp()


def psi_arb(kappa: Fraction, M, beta: Fraction):
    """An enclosure of an UPPER bound of Psi(kappa, M) (exact value when the case is decided)."""
    if kappa == 0:
        return flint.arb(0)
    k = arb_exact(kappa)
    if 1 + beta <= 0:
        a, c = -M, k / arb_exact(beta)
        return a.union(c) if not (a > c or c > a) else (a if a > c else c)
    if M == 0 or k >= M:  # certainly capped: z* = 1, Psi = -M exactly
        return -M
    # interior formula: the unconstrained sup over z > 0, an upper bound of the sup over [0, 1]
    b = arb_exact(beta)
    z = ((k / M).log() / (1 + b)).exp()
    if beta == 0:
        return -z * M + k * z.log()
    return -z * M - k * (((z.log()) * (-b)).exp() - 1) / b
