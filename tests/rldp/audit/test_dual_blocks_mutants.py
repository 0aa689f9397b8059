"""Issue 9 (generic mutants of audit/dual.py and audit/blocks.py): the dual's pieces and the maximiser curve
against their definitions in 000_aca93ed29ea857ee.txt Sec. 4.1 (module docstring of audit/dual.py):

- M_beta(x; w) = (sum w x^beta)^(1/beta) (geometric mean at beta = 0): hand values;
- Psi(kappa, M) = sup_{z in [0,1]} (-z M - kappa phi(-log z)): by golden section over z (concave for
  alpha > 1/2) or the two endpoints (alpha <= 1/2), in mpmath, not by the engine's closed form;
- phi(B*) at the maximiser of Psi = -dPsi/dkappa (envelope theorem), by a central difference;
- the maximiser curve: R(t) proportional to w (mu - v)^(-1/alpha) attains the support-function bound
  mu - e^{-d} M_beta(mu - v; w) with d = D_alpha(w || R(t)) computed here from the definition.
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import numpy as np
import pytest

from rldp_verify.core.rigorous import arb_exact, arb_precision, lower, upper
from rldp_verify.rldp.audit import dual
from rldp_verify.rldp.audit.blocks import Block, curve_np

F = Fraction


@pytest.fixture(autouse=True)
def _forty_digits():
    """mpmath at 40 digits inside these tests only (the tolerances below are 1e-35 .. 1e-25)."""
    with mpmath.workdps(40):
        yield


def _m(x):
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def psi_brute(kappa, M, beta):
    kappa, M, beta = _m(kappa), _m(M), _m(beta)

    def g(z):
        if z == 0:  # limit z -> 0 of -kappa (z^-beta - 1)/beta (finite only for beta < 0)
            return kappa / beta if beta < 0 else -mpmath.inf
        pz = -mpmath.log(z) if beta == 0 else (z ** (-beta) - 1) / beta
        return -z * M - kappa * pz

    if beta <= -1:
        return max(g(mpmath.mpf(0)), g(mpmath.mpf(1)))
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    r = (mpmath.sqrt(5) - 1) / 2
    for _ in range(200):
        c, d = hi - r * (hi - lo), lo + r * (hi - lo)
        if g(c) >= g(d):
            hi = d
        else:
            lo = c
    return max(g(lo), g(mpmath.mpf(1)))


CASES = [(F(1, 2), F(1), F(1, 2)), (F(2), F(1), F(1, 2)), (F(1, 3), F(2), F(0)), (F(1, 4), F(1), F(-1, 2)),
         (F(1, 3), F(2), F(-1, 3)), (F(1), F(3), F(-1)), (F(1, 2), F(1), F(-3)), (F(5), F(1), F(-3)),
         (F(0), F(1), F(1, 2)), (F(1, 2), F(0), F(1, 2))]


@pytest.mark.parametrize("kappa, M, beta", CASES)
def test_psi_against_its_definition(kappa, M, beta):
    want = psi_brute(kappa, M, beta) if kappa > 0 else mpmath.mpf(0)
    tol = mpmath.mpf("1e-20") * (1 + abs(want))
    assert abs(dual.psi_mp(_m(kappa), _m(M), beta) - want) <= tol
    assert abs(float(dual.psi_np(float(kappa), float(M), float(beta))) - float(want)) <= 1e-12 * (1 + abs(float(want)))
    with arb_precision(60):
        a = dual.psi_arb(kappa, arb_exact(M), beta)
    assert _m(upper(a)) >= want - tol           # an upper bound of Psi ...
    assert _m(lower(a)) <= want + tol           # ... that is the value itself in these decided cases


@pytest.mark.parametrize("kappa, M, beta", [c for c in CASES if c[0] > 0 and c[2] > -1 and c[1] > 0])
def test_psi_level_is_minus_the_kappa_derivative(kappa, M, beta):
    """Envelope theorem: dPsi/dkappa = -phi(-log z*), so psi_level = -(Psi(k + h) - Psi(k - h)) / 2h."""
    h = mpmath.mpf("1e-12")
    k = _m(kappa)
    der = -(psi_brute_m(k + h, M, beta) - psi_brute_m(k - h, M, beta)) / (2 * h)
    assert abs(dual.psi_level_mp(k, _m(M), beta) - der) <= mpmath.mpf("1e-8") * (1 + abs(der))
    assert abs(float(dual.psi_level_np(float(kappa), float(M), float(beta))) - float(der)) <= 1e-8 * (1 + abs(float(der)))


def psi_brute_m(k, M, beta):
    return psi_brute(F(mpmath.nstr(k, 40)), M, beta)


def test_psi_level_at_zero_kappa():
    """kappa = 0: z* = 0, so the level is phi(inf): inf for alpha >= 1, -1/beta = alpha/(1 - alpha) below."""
    assert dual.psi_level_mp(0, mpmath.mpf(1), F(1, 2)) == mpmath.inf
    assert dual.psi_level_mp(0, mpmath.mpf(1), F(0)) == mpmath.inf
    assert dual.psi_level_mp(0, mpmath.mpf(1), F(-1, 2)) == 2


# -------------------------------------------------------------------------------------- power means


@pytest.mark.parametrize("beta, want", [(F(1), F(5, 2)), (F(-1), F(8, 5)), (F(1, 2), F(9, 4)), (F(0), F(2)),
                                        (F(2), F(17, 2) ** F(1, 2))])
def test_power_means_by_hand(beta, want):
    """x = (1, 4, 100), w = (1/2, 1/2, 0): arithmetic 5/2, harmonic 8/5, beta 1/2: ((1 + 2)/2)^2, geometric 2,
    quadratic sqrt(17/2); the entry of weight 0 is ignored."""
    x, w = [F(1), F(4), F(100)], [F(1, 2), F(1, 2), F(0)]
    want_m = mpmath.sqrt(_m(F(17, 2))) if beta == 2 else _m(want)
    assert abs(dual.power_mean_mp([_m(v) for v in x], [_m(v) for v in w], beta) - want_m) < mpmath.mpf("1e-30")
    got = dual.power_mean_np(np.array([[1.0, 4.0, 100.0]]), np.array([[0.5, 0.5, 0.0]]), float(beta))
    assert got.shape == (1,) and abs(got[0] - float(want_m)) < 1e-13
    with arb_precision(40):
        a = dual.power_mean_arb([arb_exact(v) for v in x], w, beta)
        assert _m(lower(a)) - mpmath.mpf("1e-35") <= want_m <= _m(upper(a)) + mpmath.mpf("1e-35")
        assert _m(upper(a)) - _m(lower(a)) < mpmath.mpf("1e-30")


def test_power_mean_zero_entries():
    """A zero x with positive weight adds 0 when beta > 0 and makes the mean 0 when beta <= 0."""
    w = [F(1, 2), F(1, 2)]
    with arb_precision(30):
        half = dual.power_mean_arb([flint.arb(0), arb_exact(4)], w, F(1, 2))          # (0 + 2/2)^2 = 1
        assert lower(half) <= 1 <= upper(half) and upper(half) - lower(half) < F(1, 10**25)
        assert dual.power_mean_arb([flint.arb(0), arb_exact(4)], w, F(0)) == 0
        assert dual.power_mean_arb([flint.arb(0), arb_exact(4)], w, F(-1)) == 0
        assert dual.power_mean_arb([flint.arb(0), flint.arb(0)], w, F(1)) == 0
    assert dual.power_mean_mp([mpmath.mpf(0), mpmath.mpf(0)], [0.5, 0.5], F(1)) == 0
    assert dual.power_mean_np(np.array([0.0, 4.0]), np.array([0.5, 0.5]), 0.5) == 1.0


# --------------------------------------------------------------------------------------------- phi


@pytest.mark.parametrize("beta", [F(1, 2), F(0), F(-1, 3), F(2)])
def test_phi_and_inverse(beta):
    d = F(3, 10)
    want = _m(d) if beta == 0 else (mpmath.exp(_m(beta) * _m(d)) - 1) / _m(beta)
    assert abs(float(dual.phi_np(float(d), float(beta))) - float(want)) < 1e-15
    assert abs(float(dual.phi_inv_np(float(want), float(beta))) - 0.3) < 1e-14
    assert abs(dual.phi_inv_mp(want, beta) - _m(d)) < mpmath.mpf("1e-35")
    assert abs(dual.phi_inv_mp(want, float(beta)) - _m(d)) < mpmath.mpf("1e-15")
    with arb_precision(40):
        a = dual.phi_arb(d, beta)
        assert _m(lower(a)) - mpmath.mpf("1e-35") <= want <= _m(upper(a)) + mpmath.mpf("1e-35")
    if beta < 0:   # phi is bounded by -1/beta: beyond it the inverse is inf
        assert dual.phi_inv_mp(-1 / _m(beta), beta) == mpmath.inf
        assert dual.phi_inv_np(float(-1 / beta) * 1.01, float(beta)) == np.inf
        with arb_precision(30):
            assert dual.phi_arb(math.inf, beta) == arb_exact(-1 / beta)
    else:
        assert dual.phi_arb(math.inf, beta) is None
    assert dual.beta_of(F(2)) == F(1, 2) and dual.beta_of(F(1, 2)) == -1 and dual.beta_of(1) == 0


# -------------------------------------------------------------------------------------------- blocks


def _renyi(w, R, a):
    if a == 1:
        return mpmath.fsum(wi * mpmath.log(wi / ri) for wi, ri in zip(w, R, strict=True) if wi > 0)
    return mpmath.log(mpmath.fsum(wi**a * ri ** (1 - a) for wi, ri in zip(w, R, strict=True) if wi > 0)) / (a - 1)


def test_block_properties_by_hand():
    b = Block.make([F(1, 2), F(1, 2), F(0)], [F(1), F(3), F(5)], F(2))
    assert (b.vmax, b.vmax_all, b.spread, b.off, b.fixed) == (3, 5, 2, (5, 2), False)
    assert b.beta == F(1, 2) and b.x_w == 0          # log((5 - 3)/2)
    assert b.mu(mpmath.mpf(2)) == 7 and b.mu_x(mpmath.mpf(-1)) == 5 and b.mu_x(mpmath.mpf(0)) == 5
    flat = Block.make([F(1, 2), F(1, 2), F(0)], [F(2), F(2), F(1)], F(2))
    assert (flat.spread, flat.off, flat.fixed, flat.x_w) == (0, None, True, -mpmath.inf)
    assert flat.mu_x(mpmath.mpf(3)) == 2
    up = Block.make([F(1, 2), F(1, 2), F(0)], [F(2), F(2), F(3)], F(2))
    assert (up.spread, up.off, up.fixed, up.x_w) == (0, (3, 2), False, 0)
    two = Block.make([F(1, 2), F(1, 2), F(0), F(0)], [F(1), F(3), F(4), F(6)], F(2))
    assert two.off == (6, 3) and two.x_w == mpmath.log(mpmath.mpf(3) / 2)


@pytest.mark.parametrize("alpha", [F(2), F(1), F(3, 4)])
def test_curve_point_attains_the_support_bound(alpha):
    """R(t) on the curve: d = D_alpha(w || R(t)) from the definition, and <v, R(t)> equals the weak-duality bound
    mu - e^{-d} M_beta(mu - v; w) at mu = vmax + spread * t (tight there); kappa = M e^{-(1 + beta) d}."""
    w = [F(1, 5), F(3, 10), F(1, 2)]
    v = [F(1), F(3), F(2)]
    b = Block.make(w, v, alpha)
    wm, vm = [_m(x) for x in w], [_m(x) for x in v]
    beta = 1 - 1 / alpha
    for t in (mpmath.mpf("0.05"), mpmath.mpf(1), mpmath.mpf(20)):
        R, d, val, M, kappa = b.point(t)
        assert abs(mpmath.fsum(R) - 1) < mpmath.mpf("1e-35")
        mu = 3 + 2 * t
        raw = [wi * (mu - vi) ** (-1 / _m(alpha)) for wi, vi in zip(wm, vm, strict=True)]
        assert all(abs(r - q / mpmath.fsum(raw)) < mpmath.mpf("1e-35") for r, q in zip(R, raw, strict=True))
        assert abs(d - _renyi(wm, R, _m(alpha))) < mpmath.mpf("1e-30")
        assert abs(val - mpmath.fsum(r * x for r, x in zip(R, vm, strict=True))) < mpmath.mpf("1e-35")
        Mh = dual.power_mean_mp([mu - x for x in vm], wm, beta)
        assert abs(M - Mh) < mpmath.mpf("1e-30")
        assert abs(val - (mu - mpmath.exp(-d) * Mh)) < mpmath.mpf("1e-25")
        assert abs(kappa - Mh * mpmath.exp(-(1 + _m(beta)) * d)) < mpmath.mpf("1e-30")
        # the same point from the numpy curve of the screen
        dn, vn = curve_np(np.array([float(x) for x in v]), np.array([float(x) for x in w]), float(alpha),
                          np.array([float(t)]))
        assert abs(dn[0] - float(d)) < 1e-9 * (1 + float(d)) and abs(vn[0] - float(val)) < 1e-12
        # and by the curve parameter x = log t
        Rx, dx, valx, kx = b.point_x(mpmath.log(t))
        assert abs(dx - d) < mpmath.mpf("1e-30") and abs(valx - val) < mpmath.mpf("1e-30")
    R, d, val, M, kappa = b.point(mpmath.inf)
    assert wm == R and d == 0 and M is None and kappa is None and abs(val - mpmath.mpf("2.1")) < mpmath.mpf("1e-35")


def test_curve_point_off_the_support():
    """Below x_w mass 1 - e^{x - x_w} moves to the best cell off supp w: R sums to 1, d = D_alpha(w||R) (the
    power sum scales by (1 - m)^{1 - alpha}), value = <v, R>."""
    w = [F(1, 2), F(1, 2), F(0)]
    v = [F(1), F(3), F(5)]
    b = Block.make(w, v, F(2))        # x_w = 0
    wm, vm = [_m(x) for x in w], [_m(x) for x in v]
    R, d, val, kappa = b.point_x(mpmath.mpf(-1))
    keep = mpmath.exp(-1)
    assert abs(R[2] - (1 - keep)) < mpmath.mpf("1e-35") and abs(mpmath.fsum(R) - 1) < mpmath.mpf("1e-35")
    assert abs(d - _renyi(wm, R, 2)) < mpmath.mpf("1e-30")
    assert abs(val - mpmath.fsum(r * x for r, x in zip(R, vm, strict=True))) < mpmath.mpf("1e-35")
    R0, d0, val0, _, _ = b.point(mpmath.mpf(1))      # t_w = e^0 = 1
    assert abs(kappa - keep * (5 - val0) * mpmath.exp(-d / 2)) < mpmath.mpf("1e-30")
    # spread 0 with a better cell off the support: the curve starts at R^ (d = 0) and moves mass off it
    flat = Block.make(w, [F(2), F(2), F(3)], F(2))
    R, d, val, kappa = flat.point_x(mpmath.mpf(1))
    assert wm == R and d == 0 and kappa == mpmath.inf
    R, d, val, kappa = flat.point_x(mpmath.mpf(-2))
    assert abs(R[2] - (1 - mpmath.exp(-2))) < mpmath.mpf("1e-35") and abs(d - 2) < mpmath.mpf("1e-35")
    assert abs(val - (2 + (1 - mpmath.exp(-2)))) < mpmath.mpf("1e-35")


def test_curve_np_flat_and_batched():
    """A direction constant on supp w gives d = 0 and value = that constant at every t; rows are independent."""
    t = np.array([1e-3, 1.0, 1e3])
    d, val = curve_np(np.array([[2.0, 2.0, 7.0], [1.0, 3.0, 2.0]]), np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]), 2.0, t)
    assert d.shape == (2, 3) and np.all(d[0] == 0) and np.all(val[0] == 2.0)
    assert np.all(np.diff(d[1]) < 0) and np.all(np.diff(val[1]) < 0)    # larger t: closer to R^ (value 2.1)
    assert abs(val[1, -1] - 2.1) < 1e-3 and d[1, -1] < 1e-6


@pytest.mark.parametrize("beta", [0.5, 0.0, -0.5, -1.0, -3.0])
def test_screen_lambda_minimises_the_dual(beta):
    """screen._best_lambda: lambda >= 0 minimising lambda Phi + Psi(lambda m1, M1) + Psi(lambda m2, M2) (terms with
    m_i = 0 left out). Against the minimum over a grid of 4001 lambdas (and 0): never worse than it by more than
    1e-9 relative (Psi itself is checked against its definition above)."""
    from rldp_verify.rldp.audit.screen import _best_lambda

    M1 = np.array([0.3, 1.0, 2.0, 0.5, 0.05])
    M2 = np.array([0.7, 0.2, 1.5, 0.5, 3.0])
    m1 = np.array([0.4, 0.5, 0.1, 0.0, 0.9])
    m2 = np.array([0.6, 0.5, 0.9, 0.3, 0.0])
    Phi = 0.2 if beta >= 0 else 0.2 * min(1.0, -0.9 / beta)      # phi(B) < -1/beta when alpha < 1

    def f(lam):
        t1 = np.where(m1 > 0, dual.psi_np(lam * m1, M1, beta), 0.0)
        t2 = np.where(m2 > 0, dual.psi_np(lam * m2, M2, beta), 0.0)
        return lam * Phi + t1 + t2

    lam = _best_lambda(M1, M2, m1, m2, beta, Phi)
    assert lam.shape == (5,) and np.all(lam >= 0)
    grid = np.concatenate([[0.0], np.logspace(-8, 4, 4000)])
    best = np.min(f(grid[:, None]), axis=0)
    got = f(lam)
    assert np.all(got <= best + 1e-9 * (1 + np.abs(best)))


def test_power_mean_np_zero_entry_is_silent():
    """A zero x with positive weight at beta < 0 (x^beta = inf) gives M = 0 (harmonic mean with a zero), and at
    beta = 0 (log 0) M = 0 as well, without a NumPy RuntimeWarning (the screen runs with warnings as errors in
    the extreme-input tests)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert dual.power_mean_np(np.array([0.0, 4.0]), np.array([0.5, 0.5]), -1.0) == 0.0
        assert dual.power_mean_np(np.array([0.0, 4.0]), np.array([0.5, 0.5]), 0.0) == 0.0
