"""Chi-square uncertainty sets: support functions and the joint projection onto two conditionals.

Source: Goseling & Lopuhaä-Zwakenberg, "Robust Optimization for Local Differential Privacy" (ISIT),
[goseling-2021], Sec. II eqs. (2)-(3) and Sec. IV, Theorems 2-4, Lemma 8.

The uncertainty set is the chi-square ball around an estimate ``P_hat`` on a finite alphabet,

    F = { P in simplex : sum_i (P_hat_i - P_i)^2 / P_i <= B },          eq. (2)
    B = F^{-1}_{chi2, |S x U| - 1}(1 - alpha) / n.                     eq. (3)

On the simplex the constraint reads ``sum_i P_hat_i^2 / P_i <= B + 1`` (cells with ``P_hat_i = 0``
contribute 0 for every ``P_i >= 0``), i.e. F is the Renyi ball of order 2 around the estimate,
``D_2(P_hat || P) = log sum_i P_hat_i^2 / P_i <= log(1 + B)``.

Closed forms provided here (all evaluated in mpmath at the scoped working precision):

* :func:`support_ball` -- Theorem 2, eq. (21): ``delta*(v | F)``.
  Minimising (21) over ``c`` in closed form (``sqrt(c) = S / (B + 1)``) and noting that ``w = M 1``
  is optimal for a given ``max w = M`` leaves the one-dimensional convex problem

      delta*(v | F) = min_{M >= max v}  M - S(M)^2 / (B + 1),   S(M) = sum_i P_hat_i sqrt(M - v_i).

* :func:`joint_projection_lhs`, :func:`joint_projection_bound` -- Theorem 3, eq. (28): the
  projection of F onto ``(P_{U|s1}, P_{U|s2})`` is
  ``{(R1, R2) : sum_i sqrt(sum_u P_hat_{s_i,u}^2 / R_{u|s_i}) <= sqrt(B+1) - 1 + P_hat_{s1} + P_hat_{s2}}``.
  :func:`lift_to_ball` is the lifting (33)-(34) used in its proof.
* :func:`conjugate_h` -- Lemma 8, eq. (72).
* :func:`support_joint_projection` -- Theorem 4, eq. (29). With ``K = 2^{-2/3} + 2^{1/3}``,
  ``C = sqrt(B+1) - 1 + P_hat_{s1} + P_hat_{s2}`` and ``lambda_i(M) = sum_u P_hat_{s_i,u} sqrt(M - v_i(u))``
  the same reduction ``w_i = M_i 1`` gives
  ``delta* = min_{c >= 0, M_i >= max v_i} M_1 + M_2 + c C - K c^{2/3} (lambda_1^{2/3} + lambda_2^{2/3})``.

Error direction. Every function returns the value of the stated formula at the working precision;
the minimisations are solved to (about) the working precision by bracketed root finding on the
monotone derivative and the minimiser is returned, so a caller can re-evaluate the objective
(:func:`ball_objective`, :func:`joint_objective`) at it. The objective at *any* feasible point is an
upper bound of the minimum (and, by weak Lagrangian duality, of the support function), so the value
returned may exceed the true minimum by the root-finding error (<= about 10^-(dps-5) relative),
never fall below it by more than rounding. None of these routines certifies privacy.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import chi_square_sum
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import as_list, coerce, to_mpf
from rldp_verify.core.roots import root_increasing
from rldp_verify.core.validate import require_sum_one
from rldp_verify.rldp.projection import kappa, lift
from rldp_verify.rldp.uncertainty import chi2_radius_float

__all__ = [
    "BallSupport",
    "JointSupport",
    "K_LEMMA8",
    "ball_objective",
    "chi2_divergence",
    "chi2_radius",
    "conjugate_h",
    "joint_objective",
    "joint_projection_bound",
    "joint_projection_lhs",
    "lift_to_ball",
    "support_ball",
    "support_joint_projection",
]


def K_LEMMA8() -> mpmath.mpf:
    """The constant ``2^{-2/3} + 2^{1/3} = 3 * 2^{-2/3}`` of eqs. (29) and (72), at working precision."""
    return mpmath.mpf(2) ** (mpmath.mpf(-2) / 3) + mpmath.mpf(2) ** (mpmath.mpf(1) / 3)


# ----------------------------------------------------------------------------------------- inputs

def _vector(name: str, xs, *, nonneg: bool = False) -> list:
    out = []
    for i, x in enumerate(as_list(xs, name)):
        if isinstance(x, mpmath.mpf):
            if not mpmath.isfinite(x) or (nonneg and x < 0):
                raise InputError(f"{name}[{i}] = {x} is negative or not finite")
            out.append(+x)
            continue
        try:
            q = coerce(x)
        except TypeError:
            raise InputError(f"{name}[{i}] is not a number: {x!r}") from None
        if nonneg and q < 0:
            raise InputError(f"{name}[{i}] = {x!r} is negative")
        out.append(to_mpf(q))
    return out


def _radius(B) -> mpmath.mpf:
    if isinstance(B, mpmath.mpf):
        if not (mpmath.isfinite(B) and B > 0):
            raise InputError(f"radius B must be positive, got B={B}")
        return +B
    q = coerce(B)
    if not q > 0:
        raise InputError(f"radius B must be positive, got B={B!r}")
    return to_mpf(q)


def _distribution(name: str, xs) -> list:
    p = _vector(name, xs, nonneg=True)
    tot = mpmath.fsum(p)
    if abs(tot - 1) > mpmath.mpf(10) ** -12:
        require_sum_one(tot, name, mpmath.nstr(tot, 15), must=True, holds=False)
    return p


chi2_radius = chi2_radius_float   # eq. (3): the engine's one float route, rldp.uncertainty


def chi2_divergence(P, P_hat):
    """``sum_i (P_hat_i - P_i)^2 / P_i`` of eq. (2), with ``0/0 = 0`` and ``x/0 = inf`` (x > 0).

    Exact (a Fraction) when every entry is exact, an mpf otherwise; the loop is the engine's one
    chi-square, :func:`rldp_verify.core.divergence.chi_square_sum` (= chi2(P_hat || P); P need not be
    normalised here).
    """
    if len(list(P)) != len(list(P_hat)):
        raise InputError(f"P has {len(list(P))} cells but P_hat has {len(list(P_hat))}")
    ps = [x if isinstance(x, mpmath.mpf) else coerce(x) for x in P]
    qs = [x if isinstance(x, mpmath.mpf) else coerce(x) for x in P_hat]
    for p in ps:
        if p < 0:
            raise InputError(f"P has a negative entry {p!r}")
    if all(isinstance(x, (int, Fraction)) for x in ps + qs):
        return chi_square_sum(qs, ps, 0, mpmath.inf)
    return chi_square_sum([to_mpf(q) for q in qs], [to_mpf(p) for p in ps], mpmath.mpf(0), mpmath.inf)


# ----------------------------------------------------------------------------- root finding

def _root_increasing(f, scale):
    """The offset ``delta > 0`` where an increasing ``f(delta)`` with ``f(0+) < 0 < f(inf)`` vanishes.

    Returns 0 when ``f`` stays >= 0 down to ``delta = scale * exp(-4 prec)`` (the minimiser of the
    convex function whose derivative is ``f`` is then the lower bound, to that accuracy).

    Works in ``t = log(delta)`` (``f`` may behave like ``-1/sqrt(delta)`` near 0) with the engine's one root
    finder, :func:`rldp_verify.core.roots.root_increasing`, on [t0 - 4 prec, t0 + 4 prec] around
    t0 = log(max(scale, 1)); raises :class:`CertificationError` (``RootNotBracketed``) when no bracket is found.
    """
    scale = max(abs(scale), mpmath.mpf(1))
    t0 = mpmath.log(scale)
    span = 4 * mpmath.mp.prec

    def g(t):
        return f(mpmath.exp(t))

    if g(t0 - span) >= 0:   # f >= 0 down to delta = exp(t0 - 4 prec): the minimum sits at delta = 0
        return mpmath.mpf(0)
    return mpmath.exp(root_increasing(g, t0, lo=t0 - span, hi=t0 + span))


# ------------------------------------------------------------------------------- Theorem 2

def ball_objective(v, w, c, P_hat, B) -> mpmath.mpf:
    """The objective of eq. (21) at a point ``w >= v``, ``c >= 0``:
    ``-2 sqrt(c) sum P_hat sqrt(w - v) + max w + c (B + 1)`` (an upper bound of delta*(v|F))."""
    v, w, p = _vector("v", v), _vector("w", w), _vector("P_hat", P_hat, nonneg=True)
    if not len(v) == len(w) == len(p):
        raise InputError(f"v, w, P_hat must have equal length, got {len(v)}, {len(w)}, {len(p)}")
    c = c if isinstance(c, mpmath.mpf) else to_mpf(coerce(c))
    if c < 0:
        raise InputError(f"c must be >= 0, got c={c}")
    for i, (wi, vi) in enumerate(zip(w, v, strict=True)):
        if wi < vi:
            raise InputError(f"w[{i}] = {wi} is below v[{i}] = {vi}")
    S = mpmath.fsum(pi * mpmath.sqrt(wi - vi) for pi, wi, vi in zip(p, w, v, strict=True))
    return -2 * mpmath.sqrt(c) * S + max(w) + c * (1 + _radius(B))


@dataclass(frozen=True)
class BallSupport:
    """Result of :func:`support_ball`: value of (21), its minimiser (w = M 1, c) and the maximiser
    ``P_star`` of ``v . P`` over F obtained from the Lagrange conditions (a primal witness)."""

    value: mpmath.mpf
    M: mpmath.mpf
    c: mpmath.mpf
    P_star: list


def support_ball(v, P_hat, B) -> BallSupport:
    """``delta*(v | F)`` by the closed form of Theorem 2, eq. (21) (003, Sec. IV-A).

    Reduced to ``min_{M >= max v} M - S(M)^2/(B+1)``; ``c = S(M)^2/(B+1)^2``. The primal witness is
    ``P_i = theta P_hat_i / (Z sqrt(M - v_i))`` (``Z`` normalising) plus ``1 - theta`` on the cells
    with ``P_hat_i = 0`` where ``v_i = max v`` when the minimum sits at ``M = max v``.
    Errs upwards by at most the root-finding error (see module docstring).
    """
    v = _vector("v", v)
    p = _distribution("P_hat", P_hat)
    if len(v) != len(p):
        raise InputError(f"v has {len(v)} cells but P_hat has {len(p)}")
    b1 = 1 + _radius(B)
    m = max(v)
    gaps = [m - vi for vi in v]  # exactly 0 at the arg-max cells

    def S(delta):
        return mpmath.fsum(pi * mpmath.sqrt(g + delta) for pi, g in zip(p, gaps, strict=True) if pi != 0)

    flat = all(g == 0 for pi, g in zip(p, gaps, strict=True) if pi != 0)  # every P_hat-cell sits at max v

    def dphi(delta):
        if flat:  # S(delta) = sqrt(delta), S'(delta) = 1/(2 sqrt(delta)): constant derivative
            return 1 - 1 / b1
        terms = []
        for pi, g in zip(p, gaps, strict=True):
            if pi != 0:
                if g + delta <= 0:
                    return -mpmath.inf
                terms.append(pi / mpmath.sqrt(g + delta))
        return 1 - S(delta) * mpmath.fsum(terms) / b1

    spread = m - min(v)
    delta = mpmath.mpf(0) if dphi(mpmath.mpf(0)) >= 0 else _root_increasing(dphi, spread)
    M = m + delta
    s = S(delta)
    value = M - s * s / b1
    c = (s / b1) ** 2
    # primal witness
    if flat and delta == 0:
        return BallSupport(value, M, c, list(p))
    pos = [(i, pi / mpmath.sqrt(gaps[i] + delta)) for i, pi in enumerate(p) if pi != 0]
    Z = mpmath.fsum(x for _, x in pos)
    theta = min(mpmath.mpf(1), Z * s / b1) if delta == 0 else mpmath.mpf(1)
    P_star = [mpmath.mpf(0)] * len(p)
    for i, x in pos:
        P_star[i] = theta * x / Z
    if theta < 1:
        top = [i for i, pi in enumerate(p) if pi == 0 and gaps[i] == 0]
        if not top:
            raise CertificationError("support_ball: boundary minimiser without a free top cell")
        for i in top:
            P_star[i] = (1 - theta) / len(top)
    return BallSupport(value, M, c, P_star)


# ------------------------------------------------------------------------------- Theorem 3

def _rows(a1, a2):
    r1 = _vector("P_hat_s1", a1, nonneg=True)
    r2 = _vector("P_hat_s2", a2, nonneg=True)
    if len(r1) != len(r2):
        raise InputError(f"the two rows of P_hat differ in length: {len(r1)} and {len(r2)}")
    if mpmath.fsum(r1) + mpmath.fsum(r2) > 1 + mpmath.mpf(10) ** -12:
        raise InputError("the rows P_hat_{s1,.} and P_hat_{s2,.} carry more than total mass 1")
    return r1, r2


def joint_projection_bound(a1, a2, B) -> mpmath.mpf:
    """``C = sqrt(B+1) - 1 + P_hat_{s1} + P_hat_{s2}``, the right-hand side of eq. (28) / eq. (66).

    ``a1``, ``a2`` are the *joint* rows ``(P_hat_{s1,u})_u`` and ``(P_hat_{s2,u})_u``."""
    r1, r2 = _rows(a1, a2)
    return mpmath.sqrt(1 + _radius(B)) - 1 + mpmath.fsum(r1) + mpmath.fsum(r2)


def joint_projection_lhs(R1, R2, a1, a2) -> mpmath.mpf:
    """Left-hand side of eq. (28): ``sum_i sqrt(sum_u P_hat_{s_i,u}^2 / R_{u|s_i})``."""
    r1, r2 = _rows(a1, a2)
    R1 = _distribution("R1", R1)
    R2 = _distribution("R2", R2)
    if len(R1) != len(r1) or len(R2) != len(r2):
        raise InputError(f"R1/R2 have lengths {len(R1)}/{len(R2)}, rows have {len(r1)}")
    return kappa(r1, R1, 2) + kappa(r2, R2, 2)


def lift_to_ball(R1, R2, P_hat, s1: int, s2: int):
    """The joint distribution (33)-(34) built from conditionals ``(R1, R2)`` in the proof of Theorem 3.

    ``P_hat`` is a table (list of rows, one per s). Exact (Fractions) only when the kappas are
    rational; otherwise mpf. Requires ``P_hat_{s1} > 0`` and ``P_hat_{s2} > 0``.
    """
    rows = [list(r) for r in P_hat]
    if not 0 <= s1 < len(rows) or not 0 <= s2 < len(rows) or s1 == s2:
        raise InputError(f"s1={s1}, s2={s2} must be distinct row indices below {len(rows)}")
    tab = [_vector(f"P_hat[{s}]", r, nonneg=True) for s, r in enumerate(rows)]
    R = {s1: _distribution("R1", R1), s2: _distribution("R2", R2)}
    for s in (s1, s2):
        if mpmath.fsum(tab[s]) == 0:
            raise InputError(f"P_hat_s{s} = 0: the lift (33) needs positive marginals")
    return lift(tab, 2, R, masses={s: kappa(tab[s], R[s], 2) for s in (s1, s2)})


# ------------------------------------------------------------------------------- Lemma 8

def conjugate_h(v, kappa) -> mpmath.mpf:
    """Lemma 8, eq. (72): the convex conjugate of ``h(x) = sqrt(sum_i kappa_i^2 / x_i)``:
    ``h*(v) = -(2^{-2/3} + 2^{1/3}) lambda^{2/3}`` with ``lambda = sum kappa_i sqrt(-v_i)`` when
    ``max v <= 0`` and ``+inf`` otherwise."""
    v = _vector("v", v)
    k = _vector("kappa", kappa, nonneg=True)
    if len(v) != len(k):
        raise InputError(f"v has {len(v)} entries but kappa has {len(k)}")
    if max(v) > 0:
        return mpmath.inf
    lam = mpmath.fsum(ki * mpmath.sqrt(-vi) for ki, vi in zip(k, v, strict=True))
    return -K_LEMMA8() * mpmath.cbrt(lam) ** 2


# ------------------------------------------------------------------------------- Theorem 4

def joint_objective(v1, v2, w1, w2, c, a1, a2, B) -> mpmath.mpf:
    """The objective of eq. (29) at ``c >= 0``, ``w_i >= v_i`` (an upper bound of the support)."""
    r1, r2 = _rows(a1, a2)
    vs = (_vector("v1", v1), _vector("v2", v2))
    ws = (_vector("w1", w1), _vector("w2", w2))
    c = c if isinstance(c, mpmath.mpf) else to_mpf(coerce(c))
    if c < 0:
        raise InputError(f"c must be >= 0, got c={c}")
    lam = []
    for i, (row, v, w) in enumerate(zip((r1, r2), vs, ws, strict=True)):
        if not len(row) == len(v) == len(w):
            raise InputError(f"v{i+1}, w{i+1} and the row of P_hat differ in length")
        for u, (wu, vu) in enumerate(zip(w, v, strict=True)):
            if wu < vu:
                raise InputError(f"w{i+1}[{u}] = {wu} is below v{i+1}[{u}] = {vu}")
        lam.append(mpmath.fsum(a * mpmath.sqrt(wu - vu) for a, wu, vu in zip(row, w, v, strict=True)))
    C = joint_projection_bound(r1, r2, B)
    return (-K_LEMMA8() * mpmath.cbrt(c) ** 2 * mpmath.fsum(mpmath.cbrt(x) ** 2 for x in lam)
            + max(ws[0]) + max(ws[1]) + c * C)


@dataclass(frozen=True)
class JointSupport:
    """Result of :func:`support_joint_projection`: value of (29), minimiser ``(c, M1, M2)`` (with
    ``w_i = M_i 1``) and the candidate maximisers ``R_i ~ P_hat_{s_i,u} / sqrt(M_i - v_i(u))``."""

    value: mpmath.mpf
    c: mpmath.mpf
    M1: mpmath.mpf
    M2: mpmath.mpf
    R1: list
    R2: list


def support_joint_projection(v1, v2, a1, a2, B) -> JointSupport:
    """``delta*(v1, v2 | F_{U|s1,s2})`` by the closed form of Theorem 4, eq. (29) (003, Sec. IV-B).

    ``a1``, ``a2`` are the joint rows ``(P_hat_{s1,u})_u``, ``(P_hat_{s2,u})_u``. Solved as the nested
    convex problem ``min_c [c C + sum_i min_{M_i >= max v_i} (M_i - K c^{2/3} lambda_i(M_i)^{2/3})]``
    by bracketed root finding on the monotone derivatives (envelope theorem for the outer one).
    Errs upwards by at most the root-finding error.
    """
    r1, r2 = _rows(a1, a2)
    V = (_vector("v1", v1), _vector("v2", v2))
    rows = (r1, r2)
    for i in range(2):
        if len(V[i]) != len(rows[i]):
            raise InputError(f"v{i+1} has {len(V[i])} entries but the row of P_hat has {len(rows[i])}")
    C = joint_projection_bound(r1, r2, B)
    K = K_LEMMA8()
    ms = [max(v) for v in V]

    gaps = [[m - x for x in v] for m, v in zip(ms, V, strict=True)]  # exactly 0 at the arg-max cells

    def lam(i, delta):
        return mpmath.fsum(a * mpmath.sqrt(g + delta) for a, g in zip(rows[i], gaps[i], strict=True) if a != 0)

    def dlam(i, delta):
        t = []
        for a, g in zip(rows[i], gaps[i], strict=True):
            if a != 0:
                if g + delta <= 0:
                    return mpmath.inf
                t.append(a / (2 * mpmath.sqrt(g + delta)))
        return mpmath.fsum(t)

    def inner(i, c):
        """offset delta_i = M_i - max v_i minimising M - K c^{2/3} lambda_i(M)^{2/3}."""
        zero = mpmath.mpf(0)
        if all(a == 0 for a in rows[i]) or c == 0:
            return zero
        k = K * mpmath.cbrt(c) ** 2 * 2 / 3

        def d(delta):
            L = lam(i, delta)
            dl = dlam(i, delta)
            if dl == mpmath.inf or L <= 0:
                return -mpmath.inf
            return 1 - k * dl / mpmath.cbrt(L)

        if d(zero) >= 0:
            return zero
        spread = max(V[i]) - min(V[i]) + (c ** 2 if c > 1 else 1)
        return _root_increasing(d, spread)

    def Lam(c):
        ds = [inner(0, c), inner(1, c)]
        return ds, mpmath.fsum(mpmath.cbrt(lam(i, ds[i])) ** 2 for i in range(2))

    zero = mpmath.mpf(0)
    if lam(0, zero) == 0 and lam(1, zero) == 0:
        # every P_hat-cell sits at max v_i: the inner minimum is m_i - c lambda-coefficient, the dual is
        # m_1 + m_2 + c (C - P_hat_{s1} - P_hat_{s2}) = m_1 + m_2 + c (sqrt(B+1) - 1), minimal at c = 0
        c, ds = zero, [zero, zero]
    else:
        def douter(c):
            _, L = Lam(c)
            return C - 2 * K * L / (3 * mpmath.cbrt(c))

        c = _root_increasing(douter, 1)
        ds, _ = Lam(c)
    Ms = [ms[i] + ds[i] for i in range(2)]
    L = [lam(i, ds[i]) for i in range(2)]
    value = (Ms[0] + Ms[1] + c * C
             - K * mpmath.cbrt(c) ** 2 * mpmath.fsum(mpmath.cbrt(x) ** 2 for x in L))
    Rs = []
    for i in range(2):
        pos = [(u, a / mpmath.sqrt(gaps[i][u] + ds[i])) for u, a in enumerate(rows[i])
               if a != 0 and gaps[i][u] + ds[i] > 0]
        R = [mpmath.mpf(0)] * len(rows[i])
        Z = mpmath.fsum(x for _, x in pos)
        if Z > 0:
            for u, x in pos:
                R[u] = x / Z
        else:
            top = [u for u, g in enumerate(gaps[i]) if g == 0]
            for u in top:
                R[u] = mpmath.mpf(1) / len(top)
        Rs.append(R)
    return JointSupport(value, c, Ms[0], Ms[1], Rs[0], Rs[1])
