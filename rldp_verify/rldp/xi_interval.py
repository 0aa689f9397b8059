"""The binary Rényi ball and the t-interval (xi-, xi+) of the core RLDP paper.

Paper: [lopuhaa-2024] (RLDP), Sec. 4.2 eqs. (26)-(28), Sec. 4.3 (Lemma 1), App. A.2-A.3.

xi-/xi+ (eqs. (26)-(28)). With t = rho*xi, phi_{B_s}(rho, xi) = D_alpha(Bern(rho) || Bern(t)) - B_s,
so rho*xi-(rho) and rho*xi+(rho) are the endpoints t-(rho) <= rho <= t+(rho) of the binary Rényi
ball {t in [0,1] : D_alpha(Bern(rho)||Bern(t)) <= B_s}. This form also covers rho = 0 and the
alpha < 1 case in which phi stays finite at the ends of its domain (t-, t+ are then 0 or 1).
Reading: the domain of xi in (28) is printed as [1, (1-rho)^-1); the proof of Lemma A5
(psi = (1-rho*xi)/(1-rho) >= 0) gives [1, rho^-1], which we use.

alpha = 2 (Sec. 4.3, Lemma 1): :func:`t_interval_alpha2` gives (t-, t+) in closed form, an independent route.

Which way results may err: :func:`t_interval` and friends return mpmath values at the working precision
(|error| <~ 10^-(dps-5)); :func:`t_interval_certified` rounds outward (a rational t- below, t+ above).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from rldp_verify.core.divergence import renyi_divergence_arb, renyi_divergence_mp, validate_alpha
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, exact, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper

INF = math.inf

# ---------------------------------------------------------------------------------------------
# Binary Rényi divergence and the t-interval (xi-, xi+)
# ---------------------------------------------------------------------------------------------


def binary_renyi(rho, t, alpha):
    """D_alpha(Bern(rho) || Bern(t)) as an mpf at the current precision (inf allowed); t <= 0 or t >= 1 count
    as a zero cell (:func:`rldp_verify.core.divergence.renyi_divergence_mp`)."""
    rho, t = to_mpf(rho), to_mpf(t)
    return renyi_divergence_mp((rho, 1 - rho), (t, 1 - t), to_mpf(alpha))


def binary_renyi_arb(rho: Fraction, t: Fraction, alpha: Fraction):
    """Rigorous enclosure of D_alpha(Bern(rho)||Bern(t)) for rational inputs; None for +inf."""
    return renyi_divergence_arb([rho, 1 - rho], [t, 1 - t], alpha)


def phi(rho, xi, alpha, B_s):
    """phi_{B_s}(rho, xi) of eq. (26) (mpf): D_alpha(Bern(rho)||Bern(rho*xi)) - B_s."""
    return binary_renyi(rho, to_mpf(rho) * to_mpf(xi), alpha) - to_mpf(B_s)


def _root_outside(g, out, inn, tol, cap: int):
    """Shrink a bracket with g(out) > 0 >= g(inn) (either order) to width <= ``tol`` max(1, |out|) (or until no
    working-precision point lies between its ends); returns its outside end.

    The Illinois variant of regula falsi (superlinear on the smooth g here: ~10 evaluations instead of ~130
    halvings at 30 digits), with a halving every fifth step, so that after ``cap`` steps the bracket is at most
    2^-(cap/5) of its start even where interpolation stalls; the signs of g at both ends are kept throughout."""
    go, gi = g(out), g(inn)
    side = 0
    for k in range(cap):
        if abs(inn - out) <= tol * max(1, abs(out)):
            break
        m = (out + inn) / 2
        if k % 5 != 4 and go != gi:
            x = inn - gi * (inn - out) / (gi - go)
            if min(out, inn) < x < max(out, inn):
                m = x
        if m in (out, inn):        # no representable point left between the ends
            break
        gm = g(m)
        if gm > 0:
            out, go = m, gm
            if side == 1:
                gi /= 2
            side = 1
        else:
            inn, gi = m, gm
            if side == -1:
                go /= 2
            side = -1
    return out


def t_interval(rho, alpha, radius, *, dps: int | None = None):
    """(t-, t+) = (rho*xi-(rho), rho*xi+(rho)) at ``dps`` digits; ``radius`` may be inf."""
    alpha = validate_alpha(alpha)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            r = to_mpf(rho)
            if r < 0 or r > 1:
                raise InputError(f"rho must be in [0, 1], got {rho}")
            B = mpmath.inf if radius == INF or radius == mpmath.inf else to_mpf(radius)
            if B < 0:
                raise InputError(f"radius must be >= 0, got {radius}")
            if mpmath.inf == B:
                return mpmath.mpf(0), mpmath.mpf(1)
            if B == 0:
                return +r, +r
        # near the centre D(rho||t) ~ (t - rho)^2, so a small radius needs about log10(1/B) more digits
        extra = 0 if B >= 1 else int(-mpmath.log10(B)) + 1
        with mpmath.workdps(d + 10 + extra):
            r = to_mpf(rho)
            B = to_mpf(radius)
            f = lambda t: binary_renyi(r, t, alpha) - B  # noqa: E731
            # the same sign as f, and near-linear in t about rho (D ~ c (t - rho)^2): what regula falsi needs
            sB = mpmath.sqrt(B)
            fs = lambda t: mpmath.sqrt(max(binary_renyi(r, t, alpha), 0)) - sB  # noqa: E731
            iters = int(3.33 * (d + 8)) + 10
            tol = mpmath.mpf(10) ** -(d + 10)
            # lower end: f decreasing on [0, rho]; t- can be tiny (e.g. 1e-27), so bisect geometrically to keep
            # the relative precision: first a bracket lo = rho (lo/rho)^2 ... with f(lo) > 0, then a root in log t
            if r == 0 or f(mpmath.mpf(0)) <= 0:
                tm = mpmath.mpf(0)
            else:
                lo, hi = r / 2, r
                while f(lo) <= 0:
                    hi, lo = lo, lo * lo / r
                # in x = log t (relative precision of a tiny t-): to a relative width of 10^-(d + 10)
                x = _root_outside(lambda x: fs(mpmath.exp(x)), mpmath.log(lo), mpmath.log(hi), tol,
                                  5 * (iters + int(mpmath.log(mpmath.log(hi / lo) + 2, 2))))
                tm = mpmath.exp(x)
            tp = mpmath.mpf(1) if r == 1 or f(mpmath.mpf(1)) <= 0 else \
                _root_outside(fs, mpmath.mpf(1), r, tol, 5 * iters)
        return +tm, +tp


def xi_minus(rho, alpha, B_s, *, dps: int | None = None):
    """xi-(rho) of eq. (27) (requires rho > 0)."""
    if to_mpf(rho) <= 0:
        raise InputError(f"xi-(rho) needs rho > 0, got {rho}")
    with working_precision(dps):
        return t_interval(rho, alpha, B_s, dps=dps)[0] / to_mpf(rho)


def xi_plus(rho, alpha, B_s, *, dps: int | None = None):
    """xi+(rho) of eq. (28) on the domain [1, 1/rho] (requires rho > 0)."""
    if to_mpf(rho) <= 0:
        raise InputError(f"xi+(rho) needs rho > 0, got {rho}")
    with working_precision(dps):
        return t_interval(rho, alpha, B_s, dps=dps)[1] / to_mpf(rho)


def t_interval_alpha2(rho, radius, *, dps: int | None = None):
    """Closed form of (t-, t+) = rho*(xi-, xi+) for alpha = 2 ([lopuhaa-2024], Sec. 4.3, Lemma 1):

        xi-+(rho) = (e^B + 2 rho - 1 -+ sqrt((e^B - 1)(e^B - (2 rho - 1)^2))) / (2 e^B rho)

    the two roots of the quadratic phi_B(rho, xi) = 0 (D_2(Bern(rho)||Bern(rho xi)) = B). Evaluated at
    ``dps`` digits (rounding error either sign, ~10^-dps); an independent route to :func:`t_interval`.
    """
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            r = to_mpf(rho)
            if r < 0 or r > 1:
                raise InputError(f"rho must be in [0, 1], got {rho}")
            if radius == INF or radius == mpmath.inf:
                return mpmath.mpf(0), mpmath.mpf(1)
            B = to_mpf(radius)
            if B < 0:
                raise InputError(f"radius must be >= 0, got {radius}")
            eB = mpmath.exp(B)
            root = mpmath.sqrt((eB - 1) * (eB - (2 * r - 1) ** 2))
            tm = (eB + 2 * r - 1 - root) / (2 * eB)
            tp = (eB + 2 * r - 1 + root) / (2 * eB)
            tm = max(tm, mpmath.mpf(0))
            tp = min(tp, mpmath.mpf(1))
        return +tm, +tp


def t_interval_certified(rho: Fraction, alpha, radius_arb, *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals (lo, hi) with lo <= t- and hi >= t+, certified in arb.

    ``radius_arb`` is an arb enclosure of the radius (None = +inf). Falls back to the trivially
    valid bounds 0 and 1 if a certificate cannot be found (never to an unsafe value).
    """
    rho = exact(rho)
    alpha = exact(validate_alpha(alpha))
    if radius_arb is None:
        return Fraction(0), Fraction(1)
    with arb_precision(dps):
        B_hi = arb_exact(arb_upper(radius_arb))
    if alpha == 2:   # the proposal from Lemma 1's roots (one sqrt instead of ~300 bisection steps); same check below
        tm, tp = _t_interval_alpha2_proposal(rho, Fraction(arb_upper(radius_arb)), dps)
    else:
        tm, tp = t_interval(rho, alpha, Fraction(arb_upper(radius_arb)), dps=dps)

    def outside(t: Fraction) -> bool:  # certainly D(Bern rho||Bern t) > radius
        with arb_precision(dps):
            v = binary_renyi_arb(rho, t, alpha)
            return v is None or bool(v > B_hi)

    lo = Fraction(0)
    if tm > 0:
        for k in range(dps - 6, 0, -4):
            cand = _round_down(tm - mpmath.mpf(10) ** (-k), dps)
            if cand <= 0:
                break
            if outside(cand):
                lo = cand
                break
    hi = Fraction(1)
    if tp < 1:
        for k in range(dps - 6, 0, -4):
            cand = _round_up(tp + mpmath.mpf(10) ** (-k), dps)
            if cand >= 1:
                break
            if outside(cand):
                hi = cand
                break
    return lo, hi


def t_plus_inner(rho: Fraction, alpha, radius_arb, dps: int) -> Fraction:
    """A rational t <= t+(rho) (certified: D_alpha(Bern rho||Bern t) <= lower end of the radius), or rho."""
    rho = exact(rho)
    alpha = exact(alpha)
    if radius_arb is None:
        return Fraction(1)
    B_lo = arb_lower(radius_arb)
    if B_lo <= 0:
        return rho
    tp = t_interval(rho, alpha, B_lo, dps=dps)[1]
    with arb_precision(dps):
        B_a = arb_exact(B_lo)
    for k in range(dps - 6, 0, -4):
        cand = _round_down(tp - mpmath.mpf(10) ** (-k), dps)
        if cand <= rho:
            break
        with arb_precision(dps):
            v = binary_renyi_arb(rho, cand, alpha)
            if v is not None and bool(v <= B_a):
                return cand
    return rho


def _t_interval_alpha2_proposal(rho: Fraction, B: Fraction, dps: int):
    """(t-, t+) for alpha = 2 at ``dps`` + 10 (+ log10(1/B)) digits, as :func:`t_interval` computes them, from the
    quadratic e^B t^2 - (e^B + 2 rho - 1) t + rho^2 = 0 of Lemma 1 (Sec. 4.3) in a form without cancellation:
    t+ = (expm1(B) + 2 rho + sqrt(expm1(B) (expm1(B) + 4 rho (1 - rho)))) / (2 e^B) (all terms >= 0) and
    t- = rho^2 / (e^B t+) (the product of the roots). A proposal only: :func:`t_interval_certified` checks it
    in arb. Error ~10^-(dps + 8), below :func:`t_interval`'s bisection (the two agree on the rounding grid of
    the certified bounds, 10^-(dps + 2), except on a grid point)."""
    with working_precision(dps) as d:
        extra = 0 if B >= 1 or B == 0 else int(-math.log10(B)) + 1
        with mpmath.workdps(d + 10 + extra):
            r, b = to_mpf(rho), to_mpf(B)
            if b == 0:
                return +r, +r
            em1, eB = mpmath.expm1(b), mpmath.exp(b)
            tp = (em1 + 2 * r + mpmath.sqrt(em1 * (em1 + 4 * r * (1 - r)))) / (2 * eB)
            tp = min(tp, mpmath.mpf(1))
            tm = r * r / (eB * tp)
        return +tm, +tp


def _round_down(x, digits: int) -> Fraction:
    with mpmath.workdps(digits + 10):
        scale = 10 ** (digits + 2)
        return Fraction(int(mpmath.floor(x * scale)), scale)


def _round_up(x, digits: int) -> Fraction:
    with mpmath.workdps(digits + 10):
        scale = 10 ** (digits + 2)
        return Fraction(int(mpmath.ceil(x * scale)), scale)
