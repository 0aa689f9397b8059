"""The checker's "erf" and "pi" and the chi-square CDF for odd k written with them (issue 23): the formula against
mpmath.gammainc over a grid spanning magnitudes, and quantile certificates with their wrong twins rejected."""

import math
from fractions import Fraction as F

import flint
import mpmath
import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.value import chi2_cdf_expr, chi2_quantile_certificates, value_certificate
from rldp_verify_check.value import evaluate

KS = (1, 3, 5, 7, 9, 15, 21, 41)
XS = [F(mpmath.nstr(mpmath.mpf(10) ** (mpmath.mpf(e) / 8), 15)) for e in range(-24, 25)]   # 10^-3 .. 10^3


def _ball(e, rel=F(1, 10**40)):
    """The ends (mpf, 120 digits) of an arb ball of ``e`` whose width is at most ``rel`` times its lower end."""
    prec = 128
    while True:
        with flint.ctx.workprec(prec):
            v = evaluate(e)
            lo, hi = (mpmath.mpf(b.str(120, radius=False)) for b in (v.lower(), v.upper()))
        if lo > 0 and hi - lo <= lo * mpmath.mpf(rel.numerator) / rel.denominator or prec > 8192:
            return lo, hi
        prec *= 2


def _cdf(k, x):
    return mpmath.gammainc(mpmath.mpf(k) / 2, 0, mpmath.mpf(x.numerator) / x.denominator / 2, regularized=True)


def test_chi2_cdf_matches_mpmath_gammainc():
    """F_k(x) written with erf (odd k) equals the regularized lower incomplete gamma P(k/2, x/2) of mpmath at 120
    digits on 8 k x 49 x in [1e-3, 1e3]: the reference lies in the ball (widened by 1e-100 relative for mpmath's
    own rounding) of relative width <= 1e-40. Every bad point is listed."""
    bad = []
    with mpmath.workdps(120):
        for k in KS:
            for x in XS:
                lo, hi = _ball(chi2_cdf_expr(k, x))
                ref, tol = _cdf(k, x), mpmath.mpf(10) ** -100
                if not lo * (1 - tol) <= ref <= hi * (1 + tol):
                    bad.append(f"k={k} x={x}: got [{mpmath.nstr(lo, 20)}, {mpmath.nstr(hi, 20)}] wanted "
                               f"{mpmath.nstr(ref, 20)}")
    assert not bad, "\n".join(bad)


def test_a_wrong_formula_disagrees_with_mpmath():
    """The test above can fail: erf(sqrt(x)) for erf(sqrt(x/2)), or the sum one term short, misses the reference
    at every x <= 30 (beyond, both are 1 to within 1e-30)."""
    def wrong_arg(k, x):
        e = chi2_cdf_expr(k, x)
        return ["let", e[1], _replace(e[2], ["/", "$x", 2], "$x")]

    def short_sum(k, x):
        e = chi2_cdf_expr(k, x)
        return ["let", e[1], ["-", e[2][1], ["*", *e[2][2][1:3], ["+", *e[2][2][3][1:-1], 0]]]]

    with mpmath.workdps(60):
        for wrong, ks in ((wrong_arg, KS), (short_sum, KS[2:])):
            for k in ks:
                misses = 0
                xs = [x for x in XS[::4] if x <= 30]
                for x in xs:
                    lo, hi = _ball(wrong(k, x), F(1, 10**30))
                    misses += not lo <= _cdf(k, x) <= hi
                assert misses == len(xs) >= 8, (wrong.__name__, k)


def _replace(e, old, new):
    if e == old:
        return new
    return [_replace(a, old, new) for a in e] if isinstance(e, list) else e


def test_even_k_refused():
    with pytest.raises(ValueError, match="odd"):
        chi2_cdf_expr(4, 1)


def test_erf_and_pi():
    assert recheck(value_certificate("pi", ["pi"], lower=F(314159, 100000), upper=F(314160, 100000))).ok
    assert not recheck(value_certificate("pi", ["pi"], lower=F(314160, 100000))).ok
    x = math.erf(0.5)
    lo, hi = F(math.nextafter(x, 0)), F(math.nextafter(x, 1))
    with flint.ctx.workprec(300):
        above = bool(evaluate(["erf", ["/", 1, 2]]) > flint.arb(flint.fmpq(*F(x).as_integer_ratio())))
    lo, hi = (F(x), hi) if above else (lo, F(x))
    assert recheck(value_certificate("erf(1/2)", ["erf", ["/", 1, 2]], lower=lo, upper=hi)).ok
    narrow = (lo, F(x)) if above else (F(x), hi)        # one ulp too narrow: the true value is left out
    assert not recheck(value_certificate("erf(1/2)", ["erf", ["/", 1, 2]], lower=narrow[0], upper=narrow[1])).ok
    assert recheck(value_certificate("erf(-1/2)", ["+", ["erf", ["-", ["/", 1, 2]]], ["erf", ["/", 1, 2]]],
                                     lower=F(-1, 10**100), upper=F(1, 10**100))).ok   # erf is odd


@pytest.mark.parametrize("c, k", [(F(95, 100), 3), (F(5, 100), 3), (F(9, 10), 1), (F(99, 100), 5)])
def test_quantile_certificates_and_their_wrong_twins(c, k):
    """F_k^{-1}(c) between the doubles around it is accepted; each of these is rejected beside it: the bracket one
    ulp too narrow (an end moved across the quantile to the double x), a quantile claimed just below / above the
    true one (by 10^-25 relative), and the CDF with a wrong erf argument (sqrt(x) or sqrt(x/4) for sqrt(x/2))."""
    with mpmath.workdps(60):
        q = mpmath.findroot(lambda t: mpmath.gammainc(mpmath.mpf(k) / 2, 0, t / 2, regularized=True)
                            - mpmath.mpf(c.numerator) / c.denominator, (mpmath.mpf("1e-6"), 100),
                            solver="illinois")
        x = float(q)
        lo, hi = (F(x), F(math.nextafter(x, math.inf))) if x < q else (F(math.nextafter(x, 0)), F(x))
        near = F(mpmath.nstr(q, 40))
    ok = chi2_quantile_certificates("q", c, k, lo, hi)
    assert len(ok) == 2 and all(recheck(d).ok for d in ok)
    # one ulp too narrow: the end on q's side moved to the double x on the other side of q
    too_narrow = chi2_quantile_certificates("q", c, k, lo=F(x) if x > q else None, hi=F(x) if x < q else None)
    assert not any(recheck(d).ok for d in too_narrow)
    below = near * (1 - F(1, 10**25))
    above = near * (1 + F(1, 10**25))
    assert not recheck(chi2_quantile_certificates("q", c, k, hi=below)[0]).ok   # "q < below": false
    assert not recheck(chi2_quantile_certificates("q", c, k, lo=above)[0]).ok   # "q > above": false
    assert recheck(chi2_quantile_certificates("q", c, k, lo=below, hi=above)[1]).ok
    # a wrong erf argument: erf(sqrt(x)) (F too large) breaks F(lo) < c; erf(sqrt(x/4)) (F too small) breaks F(hi) > c
    for d, arg in zip(ok, ("$x", ["/", "$x", 4]), strict=True):
        d["statement"]["expr"] = _replace(d["statement"]["expr"], ["erf", ["sqrt", ["/", "$x", 2]]], ["erf", ["sqrt", arg]])
        assert not recheck(d).ok
