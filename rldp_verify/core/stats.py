"""Chi-square quantiles at working precision, with a certified bracket.

Used for the confidence radius of eq. (9)/(11) of [lopuhaa-2024]:
F_{chi2,k}^{-1}(q). The CDF is the regularised lower incomplete gamma function
P(k/2, x/2); mpmath's ``gammainc`` gives it at the working precision (for q > 1/2 we solve with
the upper tail Q(k/2, x/2) = 1 - q, which avoids cancellation) and python-flint's
``arb.gamma_upper(regularized=1)`` gives a rigorous enclosure used to certify the bracket.

Which way results may err:

- :func:`chi2_quantile` is computed at the working precision by bracketed root finding (bisection
  to a bracket, then the Illinois method inside it) and re-checked: the returned x satisfies
  |CDF(x) - q| <= 10^-(dps+2) relative to min(q, 1-q); either sign of error.
- :func:`chi2_quantile_bracket` returns rationals lo < x_q < hi, certified in arb.

No floating-point (double) value is used anywhere, so q may be as close to 0 or 1 as the
working precision allows (e.g. q = 1 - 10^-40).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import DEFAULT_DPS, exact, from_float, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision


def _check(k: Any, q: Any) -> tuple[int, Fraction]:
    if isinstance(k, bool) or int(k) != k or k < 1:
        raise InputError(f"degrees of freedom must be a positive integer, got {k}")
    q = from_float(q) if isinstance(q, float) else exact(q)
    if not 0 < q < 1:
        raise InputError(f"probability must be in (0, 1), got {q}")
    return int(k), q


def chi2_cdf(x: Any, k: int, *, dps: int | None = None) -> Any:
    """P(chi2_k <= x) at ``dps`` digits."""
    with working_precision(dps):
        x = to_mpf(x) if not isinstance(x, mpmath.mpf) else x
        if x <= 0:
            return mpmath.mpf(0)
        return mpmath.gammainc(mpmath.mpf(k) / 2, 0, x / 2, regularized=True)


def chi2_sf(x: Any, k: int, *, dps: int | None = None) -> Any:
    """P(chi2_k > x) at ``dps`` digits (no cancellation for large x)."""
    with working_precision(dps):
        x = to_mpf(x) if not isinstance(x, mpmath.mpf) else x
        if x <= 0:
            return mpmath.mpf(1)
        return mpmath.gammainc(mpmath.mpf(k) / 2, x / 2, mpmath.inf, regularized=True)


def chi2_quantile(q: Any, k: int, *, dps: int | None = None) -> Any:
    """F^{-1}_{chi2,k}(q) at ``dps`` digits: bracketed root finding, re-checked (see module doc)."""
    k, q = _check(k, q)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 15):
            half = mpmath.mpf(k) / 2
            if q <= Fraction(1, 2):
                target = to_mpf(q)
                def g(x: Any) -> Any:  # increasing
                    return mpmath.gammainc(half, 0, x / 2, regularized=True) - target
            else:
                target = to_mpf(1 - q)
                def g(x: Any) -> Any:
                    return target - mpmath.gammainc(half, x / 2, mpmath.inf, regularized=True)
            # bracket: g(lo) < 0 < g(hi), by halving / doubling from the mean k
            lo, hi = mpmath.mpf(k), mpmath.mpf(k)
            while g(lo) >= 0:
                lo /= 2
                if lo < mpmath.mpf(10) ** (-10 * (d + 15)):
                    raise CertificationError(f"chi2_{k} quantile at q={q}: no lower bracket")
            while g(hi) <= 0:
                hi *= 2
                if hi > mpmath.mpf(10) ** 8 * (k + d):
                    raise CertificationError(f"chi2_{k} quantile at q={q}: no upper bracket")
            # a few bisections make the Illinois method start from a tight bracket
            for _ in range(8):
                mid = (lo + hi) / 2
                if g(mid) < 0:
                    lo = mid
                else:
                    hi = mid
            try:
                x = mpmath.findroot(g, (lo, hi), solver="illinois", tol=mpmath.mpf(10) ** (-2 * (d + 10)),
                                    maxsteps=400)
            except (ValueError, ZeroDivisionError):
                x = None
            if x is None or not lo <= x <= hi:
                x = (lo + hi) / 2
                for _ in range(int(3.33 * (d + 15)) + 20):
                    mid = (lo + hi) / 2
                    if g(mid) < 0:
                        lo = mid
                    else:
                        hi = mid
                x = (lo + hi) / 2
            scale = min(to_mpf(q), to_mpf(1 - q))
            if abs(g(x)) > scale * mpmath.mpf(10) ** (-(d + 2)):
                raise CertificationError(f"chi2 quantile residual {mpmath.nstr(g(x), 5)} too large")
        return +x


def chi2_quantile_bracket(q: Any, k: int, *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals (lo, hi), hi - lo ~ 10^-dps * max(1, x), with CDF(lo) < q < CDF(hi) certified in arb."""
    k, q = _check(k, q)
    x = chi2_quantile(q, k, dps=dps + 10)
    with mpmath.workdps(dps + 20):
        step = mpmath.mpf(10) ** (-dps) * max(1, abs(x))
        lo = Fraction(mpmath.nstr(x - step, dps + 15, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9))
        hi = Fraction(mpmath.nstr(x + step, dps + 15, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9))
    lo = max(lo, Fraction(0))
    with arb_precision(dps + 20):
        s = arb_exact(Fraction(k, 2))
        qa = arb_exact(q)
        def sf(t: Fraction) -> Any:  # P(chi2 > t)
            return (arb_exact(t) / 2).gamma_upper(s, regularized=1)
        lo_ok = lo == 0 or bool(1 - sf(lo) < qa)
        if not (lo_ok and bool(1 - sf(hi) > qa)):
            raise CertificationError(f"could not certify the chi2_{k} quantile bracket at q={q}")
    return lo, hi
