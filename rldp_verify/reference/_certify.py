"""Certified reference values: an arb enclosure (or a certified bracket) turned into a printed decimal with
an error bound that holds for the printed number.

:class:`Ref` is one reference value: ``value`` (mpf, ``math.inf``, or a nested list of mpf for matrices)
and ``error`` (a rational upper bound on |printed value - true value|, entrywise maximum for matrices).
The printed decimal is part of the contract: :func:`ref_from_bracket` chooses it first and then bounds
the distance from it to every point of the certified enclosure, exactly in rationals.

Which way it may err: never. ``error`` is rounded up; a value that cannot be certified raises
:class:`~rldp_verify.core.errors.CertificationError` instead of being reported with a guessed error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath

from rldp_verify.core.divergence import renyi_divergence_arb
from rldp_verify.core.errors import CertificationError
from rldp_verify.core.numbers import parse_exact
from rldp_verify.core.rigorous import arb_exact, arb_precision  # noqa: F401
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper

INF = math.inf
TINY = Fraction(1, 2**1074)   # the smallest positive float64


@dataclass(frozen=True)
class Ref:
    """A reference value (decimal string(s) at ``dps`` digits) and a certified bound on its error."""

    value: object            # str, "inf", or a nested list of str
    error: Fraction           # |value - true| <= error (entrywise maximum for matrices)

    def floats(self):
        """The value as float(s) (``inf`` stays inf)."""
        return _map(self.value, lambda s: INF if s == "inf" else float(s))


def _map(v, f):
    if isinstance(v, list):
        return [_map(x, f) for x in v]
    return f(v)


def decimal_str(q: Fraction, dps: int) -> str:
    """q at ``dps`` significant digits (nearest, as mpmath prints it)."""
    with mpmath.workdps(dps + 20):
        x = mpmath.mpf(q.numerator) / q.denominator
        return mpmath.nstr(x, dps, min_fixed=-4, max_fixed=dps + 1)


def ref_from_bracket(lo: Fraction, hi: Fraction, dps: int) -> Ref:
    """Print the midpoint of [lo, hi] at ``dps`` digits; error = max distance to the bracket (exact)."""
    if lo > hi:
        raise CertificationError(f"empty bracket [{lo}, {hi}]")
    mid = (lo + hi) / 2
    s = decimal_str(mid, dps)
    v = parse_exact(s)
    return Ref(s, max(abs(v - lo), abs(hi - v)))


def lo(x: flint.arb) -> Fraction:
    """A rational <= every point of the ball, without re-rounding at the ambient (possibly 53-bit) precision."""
    with flint.ctx.workprec(max(flint.ctx.prec, 8192)):
        return arb_lower(x)


def hi(x: flint.arb) -> Fraction:
    """A rational >= every point of the ball (see :func:`lo`)."""
    with flint.ctx.workprec(max(flint.ctx.prec, 8192)):
        return arb_upper(x)


def ref_from_arb(x: flint.arb, dps: int) -> Ref:
    """The reference value of a finite arb ball: its rational end points rounded outwards to ``dps`` digits
    (:func:`ref_from_bracket`); CertificationError when the ball is not finite."""
    if not x.is_finite():
        raise CertificationError(f"the enclosure {x} is not finite")
    return ref_from_bracket(lo(x), hi(x), dps)


def ref_exact(q: Fraction, dps: int) -> Ref:
    """The reference value of an exact rational at ``dps`` digits (error bound from the decimal rounding only)."""
    return ref_from_bracket(q, q, dps)


def ref_inf() -> Ref:
    """The reference value +inf (error 0)."""
    return Ref("inf", Fraction(0))


def ref_matrix(rows: list[list[Ref]]) -> Ref:
    """A matrix of references as one reference: the values, and the largest error bound of the entries."""
    return Ref([[r.value for r in row] for row in rows],
               max((r.error for row in rows for r in row), default=Fraction(0)))


def ref_max(refs: list[Ref]) -> Ref:
    """The reference of max_i x_i from references of the x_i: max of the printed values, error = max error."""
    if any(r.value == "inf" for r in refs):
        return ref_inf()
    best = max(refs, key=lambda r: parse_exact(str(r.value)))
    return Ref(best.value, max(r.error for r in refs))


# ------------------------------------------------------------------------------------------ t-/t+


def _D(rho: Fraction, t: Fraction, alpha: Fraction, dps: int):
    """arb enclosure of D_alpha(Bern(rho) || Bern(t)); None for +inf."""
    return renyi_divergence_arb([rho, 1 - rho], [t, 1 - t], alpha, dps=dps)


def _gt(d, b) -> bool:   # certainly D > b   (D None = +inf)
    return d is None or bool(d > b)


def _mp_fraction(x) -> Fraction:
    man, exp = x.man_exp    # exact (no re-rounding at the global precision)
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


def t_pair_certified(rho: Fraction, alpha: Fraction, radius, dps: int) -> tuple[tuple[Fraction, Fraction],
                                                                                  tuple[Fraction, Fraction]]:
    """Certified brackets of t-(rho) and t+(rho) (eq. (27)-(28) with t = rho xi, RLDP paper Sec. 4.2):
    the ends of {t : D_alpha(Bern(rho)||Bern(t)) <= radius}; ``radius`` is an arb ball (None = +inf) or a
    Fraction. Returns ((lo-, hi-), (lo+, hi+)) with lo- <= t- <= hi- and lo+ <= t+ <= hi+.

    Candidates come from :func:`rldp_verify.rldp.xi_interval.t_interval` at the midpoint radius; each end is
    certified by the sign of D - radius at candidate +- delta in arb (D is monotone on each side of rho),
    delta growing from 10^-(dps+3) relative until both signs are decided.
    """
    from rldp_verify.rldp.xi_interval import t_interval

    if radius is None:
        return (Fraction(0), Fraction(0)), (Fraction(1), Fraction(1))
    extra = 10
    with arb_precision(dps + 40):
        B = arb_exact(radius) if isinstance(radius, Fraction) else radius
        B_lo, B_hi = lo(B), hi(B)
    if B_hi <= 0:   # radius exactly 0
        return (rho, rho), (rho, rho)
    B_lo = max(B_lo, Fraction(0))
    if B_hi > 0:
        with mpmath.workdps(30):
            extra = 10 + max(0, int(-mpmath.log10(mpmath.mpf(B_hi.numerator) / B_hi.denominator)))
    prec = dps + 2 * extra + 20
    with arb_precision(prec):
        Blo_a, Bhi_a = arb_exact(B_lo), arb_exact(B_hi)
    mid = (B_lo + B_hi) / 2
    tm, tp = t_interval(rho, alpha, mid, dps=dps + 10)
    # t- can be astronomically small (rho = 1e-12, alpha >= 1, B_s = 1e-6 gives t- ~ rho e^-(10^6)); below the
    # smallest float64 it is certified in [0, 2^-1074] (one arb check) instead of through a 10^6-bit rational
    tiny = tm < mpmath.mpf(2) ** -1074
    tm = TINY if tiny else _mp_fraction(tm)
    tp = _mp_fraction(tp)

    def bracket(v: Fraction, side: int):
        # side -1: t- (D decreasing in t on [0, rho]); side +1: t+ (D increasing on [rho, 1])
        end = Fraction(0) if side < 0 else Fraction(1)
        with arb_precision(prec):
            d_end = _D(rho, end, alpha, prec)
            if d_end is not None and bool(d_end <= Blo_a):
                return end, end            # the whole side is inside: t = 0 (or 1) exactly
            if side < 0 and v == TINY and rho > TINY:
                d_in = _D(rho, TINY, alpha, prec)
                if d_in is not None and bool(d_in <= Blo_a):
                    return Fraction(0), TINY   # 0 <= t- <= 2^-1074
        scale = max(abs(v), abs(v - rho), Fraction(1, 10**(dps + 20)))
        for k in range(12):
            delta = scale * Fraction(1, 10 ** max(dps + 3 - 2 * k, 1))
            outer = v + side * delta      # should be outside the ball for the largest radius
            inner = v - side * delta      # should be inside for the smallest radius
            outer = min(max(outer, Fraction(0)), Fraction(1))
            if (inner - rho) * side < 0:
                inner = rho
            with arb_precision(prec):
                # t- >= 0 and t+ <= 1 always; otherwise the outer point must be outside for the largest radius
                ok_out = outer == end or _gt(_D(rho, outer, alpha, prec), Bhi_a)
                # t- <= rho <= t+ always; otherwise the inner point must be inside for the smallest radius
                d_in = None if inner == rho else _D(rho, inner, alpha, prec)
                ok_in = inner == rho or (d_in is not None and bool(d_in <= Blo_a))
            if ok_out and ok_in:
                return (outer, inner) if side < 0 else (inner, outer)
        raise CertificationError(f"could not certify t{'-' if side < 0 else '+'}({rho}) for alpha = {alpha}, "
                                 f"radius in [{float(B_lo)!r}, {float(B_hi)!r}]")

    lo_m = (Fraction(0), Fraction(0)) if rho == 0 else bracket(tm, -1)
    hi_p = (Fraction(1), Fraction(1)) if rho == 1 else bracket(tp, +1)
    return lo_m, hi_p
