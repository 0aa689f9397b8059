"""Chi-square quantiles at working precision, with a certified bracket.

Used for the confidence radius of eq. (9)/(11) of 000_aca93ed29ea857ee.txt:
F_{chi2,k}^{-1}(q). The CDF is the regularised lower incomplete gamma function
P(k/2, x/2); mpmath's ``gammainc`` gives it at the working precision and python-flint's
``arb.gamma_upper(regularized=1)`` gives a rigorous enclosure used to certify the bracket.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import mpmath

from rldp_verify.errors import CertificationError, InputError
from rldp_verify.numbers import exact, to_mpf, working_precision
from rldp_verify.rigorous import arb_exact, arb_precision, lower, upper


def _check(k, q):
    if int(k) != k or k < 1:
        raise InputError(f"degrees of freedom must be a positive integer, got {k}")
    q = exact(q) if not isinstance(q, float) else Fraction(q)
    if not 0 < q < 1:
        raise InputError(f"probability must be in (0, 1), got {q}")
    return int(k), q


def chi2_cdf(x, k: int, *, dps: int | None = None):
    """P(chi2_k <= x) at ``dps`` digits."""
    with working_precision(dps):
        x = to_mpf(x) if not isinstance(x, mpmath.mpf) else x
        return mpmath.gammainc(mpmath.mpf(k) / 2, 0, x / 2, regularized=True)


def chi2_quantile(q, k: int, *, dps: int | None = None) -> mpmath.mpf:
    """F^{-1}_{chi2,k}(q) at ``dps`` digits (bracketing root finder, re-checked)."""
    k, q = _check(k, q)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            qq = to_mpf(q)
            f = lambda x: mpmath.gammainc(mpmath.mpf(k) / 2, 0, x / 2, regularized=True) - qq  # noqa: E731
            # start from SciPy's double-precision quantile, polish by Newton at working precision
            from scipy.stats import chi2 as _chi2

            x0 = mpmath.mpf(float(_chi2.ppf(float(q), k)))
            half = mpmath.mpf(k) / 2
            df = lambda x: mpmath.exp((half - 1) * mpmath.log(x / 2) - x / 2 - mpmath.loggamma(half)) / 2  # noqa: E731
            x = mpmath.findroot(f, x0, solver="newton", df=df)
            if abs(f(x)) > mpmath.mpf(10) ** (-(d + 2)):
                raise CertificationError(f"chi2 quantile residual {mpmath.nstr(f(x), 5)} too large")
        return +x


def chi2_quantile_bracket(q, k: int, *, dps: int = 50) -> tuple[Fraction, Fraction]:
    """Rationals (lo, hi), hi - lo ~ 10^-dps, with CDF(lo) < q < CDF(hi) certified in arb."""
    k, q = _check(k, q)
    x = chi2_quantile(q, k, dps=dps + 10)
    with mpmath.workdps(dps + 20):
        step = mpmath.mpf(10) ** (-dps) * max(1, abs(x))
        lo = Fraction(mpmath.nstr(x - step, dps + 15, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9))
        hi = Fraction(mpmath.nstr(x + step, dps + 15, strip_zeros=False, min_fixed=-1e9, max_fixed=1e9))
    with arb_precision(dps + 20):
        s = arb_exact(Fraction(k, 2))
        qa = arb_exact(q)
        cdf = lambda t: 1 - (arb_exact(t) / 2).gamma_upper(s, regularized=1)  # noqa: E731
        if not (cdf(lo) < qa and cdf(hi) > qa):
            raise CertificationError(f"could not certify the chi2_{k} quantile bracket at q={q}")
    return lo, hi
