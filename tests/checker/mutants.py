"""Semantic mutants of the engine used by tests/checker (issue 9 items 3 and 7).

Each mutant is a wrong variant of one engine formula, applied by patching the engine at run time
(``mutant.apply(monkeypatch)``), with the claims that must then say REFUTED. The mutation-testing
catalogue (issue 9 item 2) can import ``MUTANTS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath

from rldp_verify.core.numbers import to_mpf, working_precision


@dataclass(frozen=True)
class Mutant:
    id: str
    module: str
    description: str
    patch: Callable  # patch(monkeypatch) -> None
    killed_by: tuple[str, ...]  # claim ids that must say REFUTED

    @property
    def slow(self) -> bool:
        """Mutants whose killing claims take long (Proposition 1, Theorem 4's joint support) run in test-slow."""
        return any(c.startswith(("rldp.prop1.", "isit.thm4.")) for c in self.killed_by)

    def apply(self, monkeypatch) -> None:
        self.patch(monkeypatch)


# --- Theorem 1: B_s -----------------------------------------------------------------------------------

def _chi2_reading_radius(self, s, *, dps=None):
    """The reading that reproduces Example 2's printed numbers: 1/(a-1) log((e^{(a-1)B} - (1 - P^_s))/P^_s),
    i.e. the chi-square radius e^{B_s} - 1 = (e^B - 1)/P^_s at alpha = 2 (alpha = 1: B/P^_s unchanged)."""
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            ps = to_mpf(self.marginal(s))
            if ps == 0 or self.radius == float("inf"):
                return mpmath.inf
            B, a = to_mpf(self.radius), to_mpf(self.alpha)
            if a == 1:
                return +(B / ps)
            arg = (mpmath.exp((a - 1) * B) - (1 - ps)) / ps
            if arg <= 0:
                return mpmath.inf
            val = max(mpmath.log(arg) / (a - 1), mpmath.mpf(0))
        return +val


def _radius_times(factor):
    def patched(self, s, *, dps=None):

        v = _ORIG_RADIUS(self, s, dps=dps)
        return v if v == mpmath.inf else v * factor
    return patched


def _patch_radius(fn):
    def patch(mp):
        from rldp_verify.rldp.uncertainty import RenyiBall

        mp.setattr(RenyiBall, "conditional_radius", fn)
    return patch


def _orig_radius():
    from rldp_verify.rldp.uncertainty import RenyiBall

    return RenyiBall.conditional_radius


_ORIG_RADIUS = _orig_radius()

MUTANTS = [
    Mutant("thm1.bs-chi2-reading", "rldp_verify.rldp.uncertainty",
           "B_s = 1/(alpha-1) log((e^{(alpha-1)B} - (1-P^_s))/P^_s) (Example 2's printed reading)",
           _patch_radius(_chi2_reading_radius),
           ("rldp.thm1.radius-direct-optimisation",)),
    Mutant("thm1.bs-too-large", "rldp_verify.rldp.uncertainty", "B_s multiplied by 1.001",
           _patch_radius(_radius_times(mpmath.mpf("1.001"))),
           ("rldp.thm1.radius-direct-optimisation",)),
]


# --- Lemma A5 / A6 / Proposition 1: xi-+, L, rad -----------------------------------------------------

def _patch_attr(target: str, name: str, make):
    def patch(mp):
        import importlib

        mod, _, cls = target.partition(":")
        obj = importlib.import_module(mod)
        if cls:
            obj = getattr(obj, cls)
        mp.setattr(obj, name, make(getattr(obj, name)))
    return patch


def _swapped(orig):
    def t_interval(rho, alpha, radius, *, dps=None):
        tm, tp = orig(rho, alpha, radius, dps=dps)
        return tp, tm
    return t_interval


def _lower_with_B(orig):
    def lower_value(self, u, s, *, dps=None):
        from rldp_verify.rldp.xi_interval import t_interval

        if self.marginal(s) == 0:
            return mpmath.mpf(0)
        return t_interval(self.conditional(s)[u], self.alpha, self.radius, dps=dps)[0]   # B instead of B_s
    return lower_value


def _scaled(factor):
    def make(orig):
        def f(self, *args, **kw):
            return orig(self, *args, **kw) * factor
        return f
    return make


MUTANTS += [
    Mutant("xi.swapped", "rldp_verify.rldp.uncertainty", "t_interval returns (t+, t-): xi- and xi+ swapped",
           _patch_attr("rldp_verify.rldp.uncertainty", "t_interval", _swapped),
           ("rldp.lemma-a5.extreme-coordinates", "rldp.prop1.lower-and-rad")),
    Mutant("prop1.L-with-B", "rldp_verify.rldp.uncertainty", "L_{u|s} from the radius B instead of B_s",
           _patch_attr("rldp_verify.rldp.uncertainty:RenyiBall", "lower_value", _lower_with_B),
           ("rldp.prop1.lower-and-rad",)),
    Mutant("rad.missing-factor-2", "rldp_verify.rldp.uncertainty", "l1 radius without the factor 2 of (A6) / (30)",
           _patch_attr("rldp_verify.rldp.uncertainty:SimplexBall", "l1_radius", _scaled(mpmath.mpf(1) / 2)),
           ("rldp.lemma-a6.l1-radius", "rldp.prop1.lower-and-rad")),
]


def patch_everywhere(mp, module: str, name: str, make):
    """Replace the function ``module.name`` by ``make(original)`` in every loaded module that bound it
    (``from module import name`` copies the reference, so patching the defining module alone is not enough)."""
    import importlib
    import sys

    orig = getattr(importlib.import_module(module), name)
    new = make(orig)
    for mod in list(sys.modules.values()):
        if mod is not None and getattr(mod, name, None) is orig:
            mp.setattr(mod, name, new)


def _grr_squared(orig):
    def grr_matrix(size, exp_eps):
        return orig(size, exp_eps if exp_eps == float("inf") else exp_eps * exp_eps)
    return grr_matrix


MUTANTS += [
    Mutant("grr.exponent-squared", "rldp_verify.rldp.mechanisms.grr", "GRR built with e^{2 eps} instead of e^eps",
           lambda mp: patch_everywhere(mp, "rldp_verify.rldp.mechanisms.grr", "grr_matrix", _grr_squared),
           ("rldp.lemma3.ratio-bound",)),
]


def _argmax_half(orig):
    def binary_set_mi(P):   # the Sec. 4.2 text's misprint: argmax_A |P(A) - 1/2|
        from fractions import Fraction
        from itertools import combinations

        k = len(P)
        sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
        return max(sets, key=lambda A: abs(sum((P[i] for i in A), Fraction(0)) - Fraction(1, 2)))
    return binary_set_mi


MUTANTS += [
    Mutant("kairouz.T-argmax", "rldp_verify.topics.extremal.utilities",
           "T of eq. (30) taken in argmax_A |P(A) - 1/2| (the text's misprint) instead of argmin",
           lambda mp: patch_everywhere(mp, "rldp_verify.topics.extremal.utilities", "binary_set_mi", _argmax_half),
           ("kairouz.sec4.eq105-set-equivalence",)),
]


# --- ISIT paper (chi-square ball): Lemma 8, Theorems 2 and 4 ------------------------------------------

_CHI = "rldp_verify.topics.chisquare.ball"


def _shift(delta):
    def make(orig):
        def f(*a, **kw):
            return orig(*a, **kw) + mpmath.mpf(delta)
        return f
    return make


def _K_scaled(f):
    def make(orig):
        return lambda: orig() * mpmath.mpf(f)
    return make


def _ball_radius_scaled(orig):
    def support_ball(v, P_hat, B):
        return orig(v, P_hat, B * 1.01)
    return support_ball


MUTANTS += [
    Mutant("isit.conjugate-too-small", _CHI, "h*(v) of eq. (72) shifted by -0.01",
           lambda mp: patch_everywhere(mp, _CHI, "conjugate_h", _shift("-0.01")), ("isit.lemma8.conjugate",)),
    Mutant("isit.conjugate-too-large", _CHI, "h*(v) of eq. (72) shifted by +0.01",
           lambda mp: patch_everywhere(mp, _CHI, "conjugate_h", _shift("0.01")), ("isit.lemma8.conjugate",)),
    Mutant("isit.K-lemma8-small", _CHI, "the constant 2^{-2/3} + 2^{1/3} of (29)/(72) times 0.99",
           lambda mp: patch_everywhere(mp, _CHI, "K_LEMMA8", _K_scaled("0.99")),
           ("isit.thm4.general-joint-support",)),
    Mutant("isit.K-lemma8-large", _CHI, "the constant 2^{-2/3} + 2^{1/3} of (29)/(72) times 1.01",
           lambda mp: patch_everywhere(mp, _CHI, "K_LEMMA8", _K_scaled("1.01")),
           ("isit.thm4.support-projection",)),
    Mutant("isit.ball-radius", _CHI, "support_ball of eq. (21) with radius 1.01 B",
           lambda mp: patch_everywhere(mp, _CHI, "support_ball", _ball_radius_scaled),
           ("isit.thm2.general-ball-support",)),
]


# --- gaps of the semantic catalogue closed in issue 9 (mutation/catalogue.py): the same wrong variants -----------

def _catalogue_fn(name):
    import importlib

    return getattr(importlib.import_module("mutation.catalogue"), name)


MUTANTS += [
    Mutant("kairouz.mu-kl-swapped", "rldp_verify.topics.extremal.utilities",
           "mu_KL(c) for D(M1||M0) where D(M0||M1) is meant (eq. (12))",
           lambda mp: patch_everywhere(mp, "rldp_verify.topics.extremal.utilities", "mu_kl",
                                       lambda orig: _catalogue_fn("_mu_kl_swapped")),
           ("kairouz.eq12.utility-is-output-divergence",)),
    Mutant("isit.eq3-quantile-at-alpha", _CHI, "ISIT eq. (3) with the chi-square quantile at alpha, not 1 - alpha",
           lambda mp: patch_everywhere(mp, _CHI, "chi2_radius", lambda orig: _catalogue_fn("_chi2_radius_at_alpha")),
           ("isit.eq3.radius",)),
    Mutant("lemmaA8.srr-vectors-without-inverse", "rldp_verify.rldp.srr_threshold",
           "Theorem 4's SRR basis with 1 (not 1/t) on the rest of the block",
           lambda mp: patch_everywhere(mp, "rldp_verify.rldp.srr_threshold", "srr_vectors",
                                       lambda orig: _catalogue_fn("_srr_vectors_no_inverse")),
           ("rldp.thm4.dual-certificate",)),
]


# claims that must turn a mutated engine into a verdict rather than an exception (ERROR is a claim defect):
# (id of a mutant of mutation/catalogue.py, claim ids), run by tests/checker/test_certified_routes.py
NO_ERROR = [
    ("lemmaA8.srr-vectors-without-inverse",
     ("rldp.thm4.eps0-example1", "rldp.thm4.srr-optimal-large-eps", "rldp.thm4.dual-certificate")),
    ("def3.block-ratio-squared", ("rldp.ex3.printed-L-inputs", "rldp.sec6.srr-stricter-than-polyopt")),
    ("kairouz.staircase-pattern-complement", ("kairouz.thresholds.kl",)),
    ("kairouz.mu-mi-uniform-marginal", ("kairouz.thresholds.mi",)),
]
