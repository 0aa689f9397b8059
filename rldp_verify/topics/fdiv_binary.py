"""The binary f_alpha-divergence psi_alpha(p, t) and its minimum over p: [grosse-2025] (Grosse, Saeidian,
Oechtering & Skoglund), Theorem 8 and App. A, eq. (63)-(67).

    psi_alpha(p,t) = p^a/(p+t)^(a-1) + (1-p)^a/(1-p-t)^(a-1) - 1                            eq. (65)

Exact (Fractions) for exact p, t and integer alpha, else mpmath at the working precision;
:func:`binary_min_lower` is a certified *lower* bound (a Fraction).  Importable from
:mod:`rldp_verify.topics.fdiv` as before.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import validate_alpha
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import to_mpf, working_precision

__all__ = ["psi_alpha", "dpsi_dp", "d2psi_dp2", "binary_min", "binary_min_bracket", "binary_min_lower"]


def _is_int(alpha) -> bool:
    return isinstance(alpha, Fraction) and alpha.denominator == 1


def _alpha_gt1(alpha):
    a = validate_alpha(alpha)
    if not a > 1:
        raise InputError(f"alpha must be > 1 here, got alpha={alpha}")
    return a


def _mp(x):
    return x if isinstance(x, mpmath.mpf) else to_mpf(x)


def psi_alpha(p, t, alpha):
    """psi_alpha(p, t) of eq. (65): binary D_{f_alpha}(Ber(p)||Ber(p+t)), 0 <= p, p + t < 1."""
    a = _alpha_gt1(alpha)
    if not (p >= 0 and t >= 0 and p + t < 1):
        raise InputError(f"psi_alpha needs 0 <= p, 0 <= t, p + t < 1, got p={p}, t={t}")
    if _is_int(a) and isinstance(p, Fraction) and isinstance(t, Fraction):
        k = int(a)
        first = Fraction(0) if p == 0 else p**k / (p + t) ** (k - 1)
        return first + (1 - p) ** k / (1 - p - t) ** (k - 1) - 1
    am, pm, tm = _mp(a), _mp(p), _mp(t)
    first = mpmath.mpf(0) if pm == 0 else pm**am / (pm + tm) ** (am - 1)
    return first + (1 - pm) ** am / (1 - pm - tm) ** (am - 1) - 1


def dpsi_dp(p, t, alpha):
    """d/dp psi_alpha(p, t) (eq. (66), rederived): (alpha t + p) A + (alpha t + p - 1) B with
    A = p^(a-1)/(p+t)^a, B = (1-p)^(a-1)/(1-p-t)^a. Exact for exact inputs and integer alpha."""
    a = _alpha_gt1(alpha)
    if _is_int(a) and isinstance(p, Fraction) and isinstance(t, Fraction):
        k = int(a)
        A = Fraction(0) if p == 0 else p ** (k - 1) / (p + t) ** k
        B = (1 - p) ** (k - 1) / (1 - p - t) ** k
        return (a * t + p) * A + (a * t + p - 1) * B
    am, pm, tm = _mp(a), _mp(p), _mp(t)
    A = mpmath.mpf(0) if pm == 0 else pm ** (am - 1) / (pm + tm) ** am
    B = (1 - pm) ** (am - 1) / (1 - pm - tm) ** am
    return (am * tm + pm) * A + (am * tm + pm - 1) * B


def d2psi_dp2(p, t, alpha):
    """Eq. (67): (a-1) a t^2 [p^(a-2)/(p+t)^(a+1) + (1-p)^(a-2)/(1-p-t)^(a+1)] (mpf)."""
    a = _alpha_gt1(alpha)
    am, pm, tm = _mp(a), _mp(p), _mp(t)
    first = mpmath.mpf(0) if pm == 0 else pm ** (am - 2) / (pm + tm) ** (am + 1)
    return (am - 1) * am * tm**2 * (first + (1 - pm) ** (am - 2) / (1 - pm - tm) ** (am + 1))


def binary_min(t, alpha, *, dps: int | None = None, iters: int | None = None):
    """min_{p in [0, 1-t]} psi_alpha(p, t) (eq. (63)-(65): the lower boundary of the joint range of
    (TV, D_{f_alpha})), by bisection on the sign of eq. (66) (psi is convex in p, eq. (67)).
    Returns (value, p*) as mpf; error ~10^-dps either way."""
    a = _alpha_gt1(alpha)
    with working_precision(dps) as d:
        tm = _mp(t)
        if not 0 <= tm < 1:
            raise InputError(f"binary_min needs 0 <= t < 1, got t={t}")
        if tm == 0:
            return mpmath.mpf(0), mpmath.mpf(0)
        lo, hi = mpmath.mpf(0), 1 - tm
        if dpsi_dp(lo, tm, a) >= 0:
            return psi_alpha(lo, tm, a), lo
        if iters is None:
            pstar = _minimiser(tm, a, d)
            return psi_alpha(pstar, tm, a), pstar
        for _ in range(iters):
            mid = (lo + hi) / 2
            if dpsi_dp(mid, tm, a) < 0:
                lo = mid
            else:
                hi = mid
        pstar = (lo + hi) / 2
        return psi_alpha(pstar, tm, a), pstar


def _minimiser(t, a, dps: int):
    """The root p* in (0, 1 - t) of eq. (66) (psi is convex in p, eq. (67); the caller has checked
    dpsi/dp(0) < 0), at ``dps`` digits (mpf): Newton's method with eq. (67) inside a bracket [lo, hi] with
    dpsi(lo) < 0 < dpsi(hi), a bisection step whenever Newton would leave it; stops when the step is below
    10^-(dps+3) relative to p (or the bracket is that narrow), at most 20 dps steps (then the bracket's middle).
    A proposal: :func:`binary_min_bracket` certifies its exact brackets itself. The root's condition number
    grows like 1/t^2 (psi'' ~ t^2), so 2 log10(1/t) guard digits are added."""
    guard = 10 + (2 * int(-mpmath.log10(_mp(t))) if 0 < t < 1 else 0)
    with mpmath.workdps(dps + guard):
        tm, am = _mp(t), _mp(a)
        lo, step = mpmath.mpf(0), (1 - tm) / 2
        hi = 1 - tm - step
        while dpsi_dp(hi, tm, am) <= 0:
            step /= 2
            hi = 1 - tm - step
        eps = mpmath.mpf(10) ** -(dps + 3)
        x = (lo + hi) / 2
        for _ in range(20 * dps):
            f = dpsi_dp(x, tm, am)
            if f == 0:
                break
            if f < 0:
                lo = x
            else:
                hi = x
            fp = d2psi_dp2(x, tm, am)
            nx = x - f / fp if fp > 0 else (lo + hi) / 2
            if not lo < nx < hi:
                nx = (lo + hi) / 2
            if abs(nx - x) <= eps * abs(nx) or hi - lo <= eps * hi:
                x = nx
                break
            x = nx
        return +x


def binary_min_bracket(t: Fraction, alpha, *, iters: int = 140) -> tuple[Fraction, Fraction, Fraction]:
    """Exact (lower, upper, p) with lower <= min_{p in [0, 1-t)} psi_alpha(p, t) <= upper = psi_alpha(p, t),
    for rational t in [0, 1) and integer alpha >= 2.

    Bisection on the exact sign of eq. (66) brackets the minimiser p* in [l, r]; by convexity
    (eq. (67)) psi >= max of the tangents at l and r on [l, r], and that maximum is smallest at the
    tangents' intersection (the certified lower bound, rounded down to 2^-200). When a small-denominator
    rational in the bracket has derivative exactly 0 (e.g. alpha = 2, where p* = 1/2 - t), lower = upper.
    """
    a = _alpha_gt1(alpha)
    if not (_is_int(a) and isinstance(t, Fraction) and 0 <= t < 1):
        raise InputError(f"binary_min_bracket needs rational 0 <= t < 1 and integer alpha, got t={t}, alpha={alpha}")
    zero = Fraction(0)
    if t == 0:
        return zero, zero, zero
    lo = zero
    if dpsi_dp(lo, t, a) >= 0:
        v = psi_alpha(lo, t, a)
        return v, v, lo
    fast = _bracket_near(t, a)
    if fast is not None:
        return fast
    # the right end 1 - t is outside the domain (psi -> inf); find a point with positive derivative
    step = (1 - t) / 2
    hi = 1 - t - step
    while dpsi_dp(hi, t, a) <= 0:
        step /= 2
        hi = 1 - t - step
    for _ in range(iters):
        mid = (lo + hi) / 2
        mid = Fraction(round(mid * 2**200), 2**200) if mid.denominator > 2**200 else mid
        if not lo < mid < hi:
            break
        d = dpsi_dp(mid, t, a)
        if d == 0:
            v = psi_alpha(mid, t, a)
            return v, v, mid
        if d < 0:
            lo = mid
        else:
            hi = mid
    return _tangent_bracket(t, a, lo, hi)


def _tangent_bracket(t: Fraction, a, lo: Fraction, hi: Fraction):
    """(lower, upper, p) from an exact bracket lo < p* < hi of the minimiser (dpsi(lo) < 0 < dpsi(hi)): a
    small-denominator rational in it with dpsi exactly 0 gives lower = upper; otherwise upper = the smaller of
    psi(lo), psi(hi) and lower = the tangents' intersection (convexity), rounded down to 2^-200."""
    for den in [10**k for k in range(1, 13)] + [t.denominator * j for j in (1, 2, 3, 4)]:
        c = ((lo + hi) / 2).limit_denominator(den)
        if lo <= c <= hi and dpsi_dp(c, t, a) == 0:
            v = psi_alpha(c, t, a)
            return v, v, c
    fl, fr = psi_alpha(lo, t, a), psi_alpha(hi, t, a)
    sl, sr = dpsi_dp(lo, t, a), dpsi_dp(hi, t, a)
    upper, p_up = (fl, lo) if fl <= fr else (fr, hi)
    x = (fr - fl + sl * lo - sr * hi) / (sl - sr)  # tangent intersection
    val = fl + sl * (x - lo)
    lower = Fraction(val.numerator * 2**200 // val.denominator, 2**200)
    return lower, upper, p_up


def _mpf_fraction(x) -> Fraction:
    """The exact value of a finite mpf as a Fraction (a dyadic rational; no rounding to the current precision)."""
    man, exp = x.man_exp
    return Fraction(man) * Fraction(2) ** exp


def _bracket_near(t: Fraction, a):
    """The exact answer of :func:`binary_min_bracket` from a 50-digit Newton estimate p of p* (:func:`_minimiser`)
    instead of 140 exact bisection steps. (1) A small-denominator rational c within 10^-30 (relative) of p with
    dpsi(c) exactly 0 is the minimiser (lower = upper; alpha = 2 has p* = 1/2 - t). (2) Otherwise lo, hi = p (1 -+
    10^-12) rounded to 64-bit dyadics, kept if the exact signs dpsi(lo) < 0 < dpsi(hi) confirm them (widened to
    10^-9, 10^-6, else None: the caller bisects), and the tangent bound on [lo, hi] (:func:`_tangent_bracket`). The
    same certificate as the bisection's (convexity, exact signs); the bracket is wider (~10^-12 p instead of
    2^-140), which loosens the lower bound by ~psi'' (10^-12 p)^2, far below the gaps Theorem 8's check meets
    (g_alpha jumps at 1/alpha and is tight only where (1) applies)."""
    p = _minimiser(t, a, 50)
    pf = _mpf_fraction(p)
    for den in [10**k for k in range(1, 13)] + [t.denominator * j for j in (1, 2, 3, 4)]:
        c = pf.limit_denominator(den)
        if 0 < c < 1 - t and abs(c - pf) <= pf / 10**30 and dpsi_dp(c, t, a) == 0:
            v = psi_alpha(c, t, a)
            return v, v, c
    with mpmath.workprec(64):
        for rel in (mpmath.mpf(10) ** -12, mpmath.mpf(10) ** -9, mpmath.mpf(10) ** -6):
            lo, hi = _mpf_fraction(p * (1 - rel)), _mpf_fraction(p * (1 + rel))
            if not (0 < lo < hi < 1 - t):
                return None
            if dpsi_dp(lo, t, a) < 0 < dpsi_dp(hi, t, a):
                return _tangent_bracket(t, a, lo, hi)
    return None


def binary_min_lower(t: Fraction, alpha, *, iters: int = 140) -> Fraction:
    """A certified exact lower bound on min_p psi_alpha(p, t) (see :func:`binary_min_bracket`)."""
    return binary_min_bracket(t, alpha, iters=iters)[0]
