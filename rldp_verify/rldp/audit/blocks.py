"""One block of the joint projection: the curve of maximisers of a linear function over Rényi balls.

Paper: [lopuhaa-2024], Sec. 4.1 (Theorem 1); the derivation is registered in
proofs/rldp/audit_joint_projection.py.

For a centre R^ (= P^_{U|s}) and a direction v, the maximiser of <v, R> over {D_alpha(R^||R) <= d} is,
on supp R^,

    R(t)_u  proportional to  R^_u (mu - v_u)^{-1/alpha},   mu = vmax + spread * t,  t in (0, inf),

(vmax, spread = max and range of v over supp R^). t -> inf gives R^ (d = 0); t -> 0 concentrates R on
the maximisers of v. Along the curve the ball-dual optimality holds: e^{-d(t)} M_beta'(mu) = 1, and the
block multiplier is kappa = M_beta(mu - v) e^{-(1+beta) d}.

Which way results may err: floating point (numpy) and working precision (mpmath); nothing here
certifies anything -- the certificate is the arb dual in :mod:`rldp_verify.rldp.audit.pair`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import mpmath
import numpy as np

from rldp_verify.core.divergence import renyi_divergence_mp
from rldp_verify.core.numbers import to_mpf
from rldp_verify.rldp.audit.dual import power_mean_mp

# -------------------------------------------------------------------------------- numpy (screen)


def curve_np(v, w, alpha: float, t):
    """Points of the maximiser curve for many blocks at once.

    v, w: arrays (..., U) (w a distribution, v the direction); t: array (K,) of curve parameters.
    Returns (d, value) of shape (..., K): D_alpha(w||R(t)) and <v, R(t)> (over supp w).
    """
    v = np.asarray(v, dtype=float)[..., None, :]
    w = np.asarray(w, dtype=float)[..., None, :]
    pos = w > 0
    vs = np.where(pos, v, -np.inf)
    vmax = np.max(vs, axis=-1, keepdims=True)
    vmin = np.min(np.where(pos, v, np.inf), axis=-1, keepdims=True)
    spread = vmax - vmin
    flat = spread <= 0
    spread = np.where(flat, 1.0, spread)
    x = t[:, None] + (vmax - v) / spread  # (..., K, U), >= t > 0 on supp
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        logR = np.where(pos, np.log(np.where(pos, w, 1.0)) - np.log(np.where(pos, x, 1.0)) / alpha, -np.inf)
        m = np.max(logR, axis=-1, keepdims=True)
        logR = logR - m
        logZ = np.log(np.sum(np.exp(logR), axis=-1, keepdims=True))
        logR = logR - logZ
        R = np.exp(logR)
        value = np.sum(np.where(pos, R * v, 0.0), axis=-1)
        lw = np.log(np.where(pos, w, 1.0))
        if alpha == 1:
            d = np.sum(np.where(pos, w * (lw - logR), 0.0), axis=-1)
        else:
            # log sum w^a R^(1-a) computed stably
            e = np.where(pos, alpha * lw + (1 - alpha) * logR, -np.inf)
            em = np.max(e, axis=-1, keepdims=True)
            d = (em[..., 0] + np.log(np.sum(np.exp(e - em), axis=-1))) / (alpha - 1)
    d = np.maximum(d, 0.0)
    flat2 = np.broadcast_to(flat[..., 0], d.shape)
    d = np.where(flat2, 0.0, d)
    value = np.where(flat2, np.broadcast_to(vmax[..., 0], value.shape), value)
    return d, value


# ------------------------------------------------------------------------------ mpmath (one block)


@dataclass
class Block:
    """A block (R^, v) evaluated at high precision (mpmath, current working precision).

    The maximiser curve is parametrised by x in R (monotone: larger x, smaller level d):

    - x >= x_w: R(t) with t = e^x (the curve of the module docstring);
    - x < x_w (only when max of v off supp R^ exceeds its max on supp R^, at the cell w): mass m = 1 - e^{x - x_w}
      moves to w, R = (1 - m) R(t_w) + m e_w, mu stays at v_w and d = d(t_w) - log(1 - m) (for every
      alpha: the power sum scales by (1 - m)^{1-alpha}).
    """

    w: tuple          # R^ (mpf)
    v: tuple          # direction (mpf)
    alpha: Fraction
    beta: Fraction

    @classmethod
    def make(cls, w, v, alpha: Fraction):
        """A block from exact (or mpf) w = P^_{U|s} and direction v, at order alpha (beta = 1 - 1/alpha)."""
        return cls(tuple(to_mpf(x) for x in w), tuple(to_mpf(x) for x in v), Fraction(alpha),
                   1 - 1 / Fraction(alpha))

    @cached_property
    def vmax(self):
        """max v_u over the support of w."""
        return max(vi for vi, wi in zip(self.v, self.w, strict=True) if wi > 0)

    @cached_property
    def vmax_all(self):
        """max v_u over every u (including cells outside the support of w)."""
        return max(self.v)

    @cached_property
    def spread(self):
        """max - min of v over the support of w (the curve's scale)."""
        vs = [vi for vi, wi in zip(self.v, self.w, strict=True) if wi > 0]
        return max(vs) - min(vs)

    @cached_property
    def off(self):
        """(v_w, w) for the best cell off supp R^ when it beats the support, else None."""
        best = None
        for u, (vi, wi) in enumerate(zip(self.v, self.w, strict=True)):
            if wi == 0 and vi > self.vmax and (best is None or vi > best[0]):
                best = (vi, u)
        return best

    @cached_property
    def fixed(self) -> bool:
        """R^ is the maximiser at every level (flat on the support, nothing better off it)."""
        return self.spread == 0 and self.off is None

    @cached_property
    def x_w(self):
        """The curve parameter x at which the maximiser leaves supp w (-inf when nothing better lies off it)."""
        off = self.off
        if off is None:
            return -mpmath.inf
        if self.spread == 0:
            return mpmath.mpf(0)
        return mpmath.log((off[0] - self.vmax) / self.spread)

    def mu(self, t):
        """The support value vmax + spread * t at curve parameter t."""
        return self.vmax + self.spread * t

    def mu_x(self, x):
        """The support value at curve parameter x (off-support direction below x_w)."""
        xw = self.x_w
        if x < xw:
            return self.off[0]
        if self.spread == 0:
            return self.vmax
        return self.mu(mpmath.exp(x))

    def point_x(self, x):
        """(R, d, value, kappa) at curve parameter x (see the class docstring); memoised per block and
        precision (the primal search evaluates the same x more than once)."""
        key = (x, mpmath.mp.prec)
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = self._point_x(x)
        return memo[key]

    def _point_x(self, x):
        xw = self.x_w
        if x >= xw:
            if self.spread == 0:
                R, d, val, _, _ = self.point(mpmath.inf)
                return R, d, val, mpmath.inf
            R, d, val, _, k = self.point(mpmath.exp(x))
            return R, d, val, k
        vw, u = self.off
        if self.spread == 0:
            R0, d0, val0, _, _ = self.point(mpmath.inf)
        else:
            R0, d0, val0, _, _ = self.point(mpmath.exp(xw))
        keep = mpmath.exp(x - xw)  # 1 - m
        R = [keep * r for r in R0]
        R[u] += 1 - keep
        d = d0 - (x - xw)
        val = keep * val0 + (1 - keep) * vw
        b = to_mpf(self.beta)
        kappa = keep * (vw - val0) * mpmath.exp(-b * d)
        return R, d, val, kappa

    def point(self, t):
        """(R, d, value, M, kappa) at curve parameter t (t = inf gives R^)."""
        a = to_mpf(self.alpha)
        if t == mpmath.inf or self.spread == 0:
            R = list(self.w)
            return R, mpmath.mpf(0), mpmath.fsum(r * x for r, x in zip(R, self.v, strict=True)), None, None
        # mu - v_u as (vmax - v_u) + spread * t: for t below the working precision, mu - vmax would cancel to 0
        # (a ZeroDivisionError in x^(-1/alpha) at the maximiser; the red team's radius-50 case at 35 digits)
        vmax, spread = self.vmax, self.spread
        x = [(vmax - vi) + spread * t for vi in self.v]
        raw = [wi * xi ** (-1 / a) if wi > 0 else mpmath.mpf(0) for wi, xi in zip(self.w, x, strict=True)]
        Z = mpmath.fsum(raw)
        R = [r / Z for r in raw]
        d = renyi_divergence_mp(self.w, R, a)
        value = mpmath.fsum(r * vi for r, vi in zip(R, self.v, strict=True))
        M = power_mean_mp([xi for xi, wi in zip(x, self.w, strict=True) if wi > 0], [wi for wi in self.w if wi > 0],
                          self.beta)
        b = to_mpf(self.beta)
        kappa = M * mpmath.exp(-(1 + b) * d)
        return R, d, value, M, kappa
