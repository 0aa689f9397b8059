"""The catalogue of semantic mutants: wrong variants of the engine's mathematics.

Each mutant is a formula that a paper misprints (the ones reports/verification.md found) or that a
careless implementation could contain, applied by patching the engine at run time (see
:mod:`rldp_verify.claims.mutants` for how it is run and judged). The claims listed with a mutant are
the ones that reach the patched code (``python -m mutation.reach`` lists them per engine function);
globs such as ``rldp.thm1.*`` are allowed.

Adding a mutant: write the wrong variant as a function with the original's signature (or a ``wrap``
factory that receives the original), add a ``mutant(...)`` entry below with a unique id, the engine
module (a key of MODULES), a one-sentence description of the mistake, and the claims to run; then
``make mutation-one M=<id>`` and, if it survives, strengthen or add a check (with its pinned verdict)
or document the equivalence with ``equivalent="why"``.

Patch targets are written "<key>:<attribute path>" with <key> from MODULES, so a module move is one
edit of that table.

A paper may keep its own mutants in its folder (``proofs/<name>/mutants.py`` with a ``MUTANTS`` list, written
with the same ``mutant``/``replace``/``wrap``); they are added at the end of this catalogue
(:meth:`rldp_verify.claims.catalogue.Catalogue.mutants`).
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath

from mutation.step_variants import variant_mutants
from mutation.steps_catalogue import STEP_MUTANTS
from rldp_verify.claims.catalogue import Catalogue
from rldp_verify.claims.mutants import mutant, replace, wrap

# where each engine module lives (the one table to edit when modules move)
MODULES = {
    "uncertainty": "rldp_verify.rldp.uncertainty",
    "xi_interval": "rldp_verify.rldp.xi_interval",
    "stats": "rldp_verify.core.stats",
    "divergence": "rldp_verify.core.divergence",
    "gamma": "rldp_verify.rldp.gamma",
    "polyopt": "rldp_verify.rldp.mechanisms.polyopt",
    "utility": "rldp_verify.core.information",
    "srr": "rldp_verify.rldp.mechanisms.srr",
    "grr": "rldp_verify.rldp.mechanisms.grr",
    "ir": "rldp_verify.rldp.mechanisms.ir",
    "guarantees": "rldp_verify.rldp.mechanisms.guarantees",
    "rounding": "rldp_verify.rldp.mechanisms.rounding",
    "audit.dual": "rldp_verify.rldp.audit.dual",
    "audit.exact": "rldp_verify.rldp.audit.exact",
    "audit.pair": "rldp_verify.rldp.audit.pair",
    "audit.core": "rldp_verify.rldp.audit.core",
    "audit.grid": "rldp_verify.rldp.audit.grid",
    "falpha": "rldp_verify.topics.fdiv",
    "extremal_utilities": "rldp_verify.topics.extremal.utilities",
    "staircase": "rldp_verify.topics.extremal.staircase",
    "pram": "rldp_verify.topics.pram",
    "chisquare_projection": "rldp_verify.topics.chisquare.ball",
    "srr_threshold": "rldp_verify.rldp.srr_threshold",
    "experiments": "rldp_verify.rldp.experiments",
}

U = "uncertainty"


def _one_minus(q):
    from rldp_verify.core.numbers import exact

    return 1 - q if isinstance(q, (float, mpmath.mpf)) else 1 - exact(q)


def _mpf(x):
    """x (Fraction, int, float, str or mpf) as an mpf."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)

# claim groups (globs) used below
THM1 = ("rldp.thm1.*", "rldp.sec41.*", "rldp.audit.joint-projection-theorem1")
EX2 = ("rldp.example2.*", "rldp.ex3.recomputed-L", "rldp.ex5.*")
PROP1 = ("rldp.prop1.*", "rldp.prop2.*", "rldp.lemma-a5.*", "rldp.lemma-a6.*", "rldp.lemma-a7.*", "rldp.lemma1.*",
         "rldp.sec42.*")
POLYOPT = ("rldp.sec5.*", "rldp.thm2.*", "rldp.thm3.*", "rldp.ex3.*", "rldp.ex4.*", "rldp.ex5.*",
           "rldp.relaxed-polyopt.*", "rldp.sec6.*", "rldp.orderings.*")


# ---------------------------------------------------------------------------------------------
# Theorem 1: the conditional radius B_s (eq. (23))
# ---------------------------------------------------------------------------------------------


def _bs_patches(arg_of, factor_of, alpha1=None):
    """Patches of RenyiBall.conditional_radius and its arb twin computing
    B_s = factor(alpha) * log(arg(alpha, B, P_s)) (``alpha1(B, P_s)`` for alpha = 1)."""

    def mp_version(self, s, *, dps=None):
        from rldp_verify.core.numbers import to_mpf, working_precision

        with working_precision(dps) as d:
            with mpmath.workdps(d + 10):
                ps = to_mpf(self.marginal(s))
                if ps == 0 or self.radius == math.inf:
                    return mpmath.inf
                if self.radius == 0 or ps == 1:
                    return to_mpf(self.radius)
                B, a = to_mpf(self.radius), to_mpf(self.alpha)
                if a == 1:
                    return +(alpha1(B, ps) if alpha1 else B / ps)
                arg = arg_of(a, B, ps, mpmath.exp)
                if arg <= 0:
                    return mpmath.inf
                val = max(factor_of(a) * mpmath.log(arg), mpmath.mpf(0))
            return +val

    def arb_version(self, s, *, dps=50):
        from rldp_verify.core.rigorous import arb_exact, arb_precision

        ps = self.marginal(s)
        if ps == 0 or self.radius == math.inf:
            return None
        with arb_precision(dps):
            B, a, p = arb_exact(self.radius), arb_exact(self.alpha), arb_exact(ps)
            if self.alpha == 1:
                return alpha1(B, p) if alpha1 else B / p
            arg = arg_of(a, B, p, lambda x: x.exp())
            if not arg > 0:
                return None
            return factor_of(a) * arg.log()

    return (replace(f"{U}:RenyiBall.conditional_radius", mp_version),
            replace(f"{U}:RenyiBall.conditional_radius_arb", arb_version))


_correct_factor = lambda a: a / (a - 1)  # noqa: E731


MUTANTS = [
    mutant("thm1.bs-chi2-radius", U,
           "B_s = log((e^B - (1 - P^_s))/P^_s) for every alpha: the chi-square radius (e^B - 1)/P^_s that "
           "reproduces Example 2's printed numbers",
           _bs_patches(lambda a, B, p, exp: (exp(B) - (1 - p)) / p, lambda a: 1),
           THM1 + EX2 + PROP1),
    mutant("thm1.bs-factor-inverted", U,
           "B_s with the factor (alpha-1)/alpha in front of the log instead of alpha/(alpha-1)",
           _bs_patches(lambda a, B, p, exp: (exp((a - 1) * B / a) - (1 - p)) / p, lambda a: (a - 1) / a),
           THM1 + EX2),
    mutant("thm1.bs-exponent-without-alpha", U,
           "B_s with e^{(alpha-1)B} inside the log instead of e^{(alpha-1)B/alpha}",
           _bs_patches(lambda a, B, p, exp: (exp((a - 1) * B) - (1 - p)) / p, _correct_factor),
           THM1 + EX2),
    mutant("thm1.bs-no-division", U,
           "B_s without the division by P^_s inside the log",
           _bs_patches(lambda a, B, p, exp: exp((a - 1) * B / a) - (1 - p), _correct_factor),
           THM1 + EX2),
    mutant("thm1.bs-kl-times-ps", U,
           "alpha = 1 (KL): B_s = B P^_s instead of B / P^_s",
           _bs_patches(lambda a, B, p, exp: (exp((a - 1) * B / a) - (1 - p)) / p, _correct_factor,
                       alpha1=lambda B, p: B * p),
           THM1 + ("rldp.sec3.kl-limit",)),
    mutant("thm1.bs-equals-B", U,
           "no projection: the conditional radius B_s taken equal to the joint radius B",
           _bs_patches(lambda a, B, p, exp: exp((a - 1) * B / a), _correct_factor, alpha1=lambda B, p: B),
           THM1 + EX2 + PROP1),
]


# ---------------------------------------------------------------------------------------------
# xi-, xi+ (eqs. (26)-(28)), Lemma 1, Proposition 1/2 (eqs. (29)-(30))
# ---------------------------------------------------------------------------------------------


def _swap_t_interval(orig):
    def t_interval(rho, alpha, radius, *, dps=None):
        tm, tp = orig(rho, alpha, radius, dps=dps)
        return tp, tm
    return t_interval


def _xi_plus_printed_domain(orig):
    def t_interval(rho, alpha, radius, *, dps=None):
        tm, tp = orig(rho, alpha, radius, dps=dps)
        r = mpmath.mpf(Fraction(rho).numerator) / Fraction(rho).denominator if isinstance(rho, Fraction) else \
            mpmath.mpf(rho)
        if r < 1:
            tp = min(tp, r / (1 - r))    # xi in [1, (1-rho)^-1) as printed in (28): t+ <= rho/(1-rho)
        return tm, tp
    return t_interval


def _cert_printed_domain(orig):
    def t_interval_certified(rho, alpha, radius_arb, *, dps=50):
        lo, hi = orig(rho, alpha, radius_arb, dps=dps)
        rho = Fraction(rho)
        if rho < 1:
            hi = min(hi, rho / (1 - rho))
        return lo, hi
    return t_interval_certified


def _alpha2_no_sqrt(rho, radius, *, dps=None):
    from rldp_verify.core.numbers import to_mpf, working_precision

    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            r = to_mpf(rho)
            if radius == math.inf or radius == mpmath.inf:
                return mpmath.mpf(0), mpmath.mpf(1)
            eB = mpmath.exp(to_mpf(radius))
            root = (eB - 1) * (eB - (2 * r - 1) ** 2)   # the square root dropped (Lemma 1 as converted)
            tm = max((eB + 2 * r - 1 - root) / (2 * eB), mpmath.mpf(0))
            tp = min((eB + 2 * r - 1 + root) / (2 * eB), mpmath.mpf(1))
        return +tm, +tp


def _alpha2_denominator(rho, radius, *, dps=None):
    from rldp_verify.core.numbers import to_mpf, working_precision

    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            r = to_mpf(rho)
            if radius == math.inf or radius == mpmath.inf:
                return mpmath.mpf(0), mpmath.mpf(1)
            eB = mpmath.exp(to_mpf(radius))
            root = mpmath.sqrt((eB - 1) * (eB - (2 * r - 1) ** 2))
            tm = max((eB + 2 * r - 1 - root) / (2 * eB * r), mpmath.mpf(0))   # xi- printed, not t- = rho xi-
            tp = min((eB + 2 * r - 1 + root) / (2 * eB * r), mpmath.mpf(1))
        return +tm, +tp


def _rad_no_factor2(orig):
    def l1_radius(self, *, dps=None, max_size=20, exhaustive=False):
        return orig(self, dps=dps, max_size=max_size, exhaustive=exhaustive) / 2
    return l1_radius


def _rad_cert_no_factor2(orig):
    def l1_radius_certified(self, radius_arb, *, dps=50, max_size=20):
        return orig(self, radius_arb, dps=dps, max_size=max_size) / 2
    return l1_radius_certified


def _rad_singletons(self, *, dps=None, max_size=20, exhaustive=False):
    from rldp_verify.core.numbers import to_mpf, working_precision
    from rldp_verify.rldp.uncertainty import t_interval

    with working_precision(dps):
        vals = [t_interval(r, self.alpha, self.radius, dps=dps)[1] - to_mpf(r) for r in self.center if 0 < r < 1]
        return 2 * max([mpmath.mpf(0)] + vals)   # max over singletons U1 = {u} only


def _rad_prop2_printed(orig):
    def l1_radius(self, *, dps=None, max_size=20, exhaustive=False):
        from rldp_verify.core.numbers import to_mpf
        from rldp_verify.rldp.uncertainty import t_interval

        val = orig(self, dps=dps, max_size=max_size, exhaustive=exhaustive)
        if self.alpha == 2 and self.radius not in (math.inf, mpmath.inf):
            pmin = min(self.center)
            if mpmath.exp(to_mpf(self.radius)) - 1 >= (1 - to_mpf(pmin)) ** 2:
                # Prop. 2 part 2 as printed: 2 P^_min xi+ = 2 t+(P^_min), too large by 2 P^_min
                return 2 * t_interval(pmin, 2, self.radius, dps=dps)[1]
        return val
    return l1_radius


def _lower_from_B(self, u, s, *, dps=None):
    from rldp_verify.rldp.uncertainty import t_interval

    if self.marginal(s) == 0:
        return mpmath.mpf(0)
    rho = self.conditional(s)[u]
    return t_interval(rho, self.alpha, self.radius, dps=dps)[0]    # B instead of B_s


def _lower_cert_from_B(self, u, s, *, dps=50):
    from rldp_verify.core.rigorous import arb_exact, arb_precision
    from rldp_verify.rldp.uncertainty import t_interval_certified

    if self.marginal(s) == 0:
        return Fraction(0)
    rho = self.conditional(s)[u]
    with arb_precision(dps):
        B = None if self.radius == math.inf else arb_exact(self.radius)
    return t_interval_certified(rho, self.alpha, B, dps=dps)[0]


MUTANTS += [
    mutant("eq27-28.xi-swapped", U, "xi- and xi+ swapped: (t-, t+) returned as (t+, t-)",
           wrap("xi_interval:t_interval", _swap_t_interval), PROP1 + EX2),
    mutant("eq28.xi-plus-printed-domain", U,
           "xi+ searched on the printed domain [1, (1-rho)^-1) of eq. (28), i.e. t+ <= rho/(1-rho)",
           (wrap("xi_interval:t_interval", _xi_plus_printed_domain),
            wrap("xi_interval:t_interval_certified", _cert_printed_domain)), PROP1 + EX2),
    mutant("lemma1.sqrt-dropped", U,
           "Lemma 1's closed form without its square root (as the text conversion printed it)",
           replace("xi_interval:t_interval_alpha2", _alpha2_no_sqrt), PROP1),
    mutant("lemma1.xi-for-t", U,
           "Lemma 1's closed form returns xi-+ (divided by rho) where t-+ = rho xi-+ is meant",
           replace("xi_interval:t_interval_alpha2", _alpha2_denominator), PROP1),
    mutant("eq30.rad-missing-factor-2", U, "rad_s without the factor 2 of eq. (30)",
           (wrap(f"{U}:SimplexBall.l1_radius", _rad_no_factor2),
            wrap(f"{U}:SimplexBall.l1_radius_certified", _rad_cert_no_factor2)),
           PROP1 + EX2 + ("rldp.thm5.*", "rldp.sec9.ir-quick")),
    mutant("eq30.rad-singletons-only", U, "rad_s maximised over singletons U1 = {u} instead of all subsets U1",
           replace(f"{U}:SimplexBall.l1_radius", _rad_singletons), PROP1 + EX2),
    mutant("prop2.part2-printed-formula", U,
           "rad_s by Proposition 2 part 2 as printed (2 P^_min xi+ = 2 t+, too large by 2 P^_min) above its "
           "threshold (alpha = 2)",
           wrap(f"{U}:SimplexBall.l1_radius", _rad_prop2_printed), PROP1 + EX2),
    mutant("eq29.lower-with-B", U, "L_{u|s} computed with the joint radius B instead of B_s",
           (replace(f"{U}:RenyiBall.lower_value", _lower_from_B),
            replace(f"{U}:RenyiBall.lower_certified", _lower_cert_from_B)),
           PROP1 + EX2 + POLYOPT),
]


# ---------------------------------------------------------------------------------------------
# Confidence radius, eqs. (9)-(14)
# ---------------------------------------------------------------------------------------------


def _conf_at_beta(orig):
    def confidence_radius(alpha, confidence, n, a, *, dps=None):
        return orig(alpha, _one_minus(confidence), n, a, dps=dps)   # F^-1(beta) instead of F^-1(1-beta)
    return confidence_radius


def _conf_upper_at_beta(orig):
    def confidence_radius_upper(alpha, confidence, n, a, *, dps=50):
        return orig(alpha, _one_minus(confidence), n, a, dps=dps)
    return confidence_radius_upper


def _conf_dof(orig):
    def confidence_radius(alpha, confidence, n, a, *, dps=None):
        return orig(alpha, confidence, n, a + 1, dps=dps)    # chi2 with a (not a-1) degrees of freedom
    return confidence_radius


def _conf_upper_dof(orig):
    def confidence_radius_upper(alpha, confidence, n, a, *, dps=50):
        return orig(alpha, confidence, n, a + 1, dps=dps)
    return confidence_radius_upper


def _radius_no_log(q, alpha, n):
    return q / n    # the chi-square radius F^-1/n used as the Rényi radius (no log(1 + .))


_STATS_ORIGINAL = {}


def _chi2_quantile_tail(orig):
    _STATS_ORIGINAL["chi2_quantile"] = orig

    def chi2_quantile(q, k, *, dps=None):
        return orig(_one_minus(q), k, dps=dps)
    return chi2_quantile


def _chi2_bracket_tail(orig):
    # the bracket calls chi2_quantile itself: run it at 1 - q with the original quantile inside, so that the
    # whole engine is consistently wrong (the bracket's own certificate then holds for 1 - q)
    def chi2_quantile_bracket(q, k, *, dps=50):
        import rldp_verify.core.stats as st

        patched = st.chi2_quantile
        st.chi2_quantile = _STATS_ORIGINAL["chi2_quantile"]
        try:
            return orig(_one_minus(q), k, dps=dps)
        finally:
            st.chi2_quantile = patched
    return chi2_quantile_bracket


MUTANTS += [
    mutant("eq12.quantile-at-beta", U,
           "eq. (12) as printed: B = log(1 + F^-1(0.05)/n), the chi-square quantile at beta instead of 1 - beta",
           (wrap(f"{U}:confidence_radius", _conf_at_beta), wrap(f"{U}:confidence_radius_upper", _conf_upper_at_beta)),
           ("rldp.example1.*", "rldp.audit.confidence-radius", "rldp.sec3.*", "rldp.sec8.*", "rldp.ex*", "rldp.example*", "rldp.thm4.eps0-example1")),
    mutant("eq11.degrees-of-freedom", U, "the chi-square quantile with |X| degrees of freedom instead of |X| - 1",
           (wrap(f"{U}:confidence_radius", _conf_dof), wrap(f"{U}:confidence_radius_upper", _conf_upper_dof)),
           ("rldp.example1.*", "rldp.audit.confidence-radius", "rldp.sec3.*", "rldp.sec8.*", "rldp.ex*", "rldp.example*")),
    mutant("eq11.chi2-radius-as-renyi", U, "B = F^-1(1-beta)/n (the chi-square radius) instead of log(1 + F^-1/n)",
           replace(f"{U}:_radius_from_quantile", _radius_no_log),
           ("rldp.example1.*", "rldp.audit.confidence-radius", "rldp.sec3.*", "rldp.sec8.*", "rldp.ex*", "rldp.example*")),
    mutant("stats.chi2-quantile-lower-tail", "stats",
           "F^-1_{chi2,k}(q) and its certified bracket computed at 1 - q (lower/upper tail swapped)",
           (wrap("stats:chi2_quantile", _chi2_quantile_tail), wrap("stats:chi2_quantile_bracket", _chi2_bracket_tail)),
           ("rldp.example1.*", "rldp.audit.confidence-radius", "rldp.sec3.*", "rldp.sec8.*", "rldp.ex*", "rldp.example*", "isit.*")),
]


# ---------------------------------------------------------------------------------------------
# Rényi divergence (eq. (6)-(7)), chi-square
# ---------------------------------------------------------------------------------------------


def _renyi_no_denominator(orig):
    def renyi_divergence(phat, p, alpha, *, dps=None):

        d = orig(phat, p, alpha, dps=dps)
        a = _mpf(alpha)
        return d if a == 1 or d == mpmath.inf else d * (a - 1)   # log(sum) without the 1/(alpha-1)
    return renyi_divergence


def _renyi_swapped(orig):
    def renyi_divergence(phat, p, alpha, *, dps=None):
        return orig(p, phat, alpha, dps=dps)
    return renyi_divergence


def _renyi_arb_swapped(orig):
    def renyi_divergence_arb(phat, p, alpha, *, dps=50):
        return orig(p, phat, alpha, dps=dps)
    return renyi_divergence_arb


def _renyi_arb_factor(orig):
    def renyi_divergence_arb(phat, p, alpha, *, dps=50):
        from rldp_verify.core.numbers import exact

        d = orig(phat, p, alpha, dps=dps)
        a = exact(alpha)
        if d is None or a == 1:
            return d
        return d * flint.arb(a.numerator) / a.denominator   # alpha/(alpha-1) log S instead of log S/(alpha-1)
    return renyi_divergence_arb


def _chi_square_neyman(p1, p2):
    from rldp_verify.core.divergence import _pair

    p1, p2 = _pair(p1, p2)
    exact = all(isinstance(v, Fraction) for v in p1 + p2)
    total = Fraction(0) if exact else 0.0
    for a, b in zip(p1, p2, strict=True):
        if a == 0:
            if b != 0:
                return math.inf
            continue
        total += (a - b) ** 2 / a     # divides by P1 (Neyman) instead of P2 (Pearson)
    return total


MUTANTS += [
    mutant("eq6.renyi-without-1-over-alpha-minus-1", "divergence",
           "D_alpha = log sum P^^alpha P^(1-alpha), the factor 1/(alpha-1) forgotten (mpmath route)",
           wrap("divergence:renyi_divergence", _renyi_no_denominator),
           THM1 + PROP1 + ("rldp.example1.*", "rldp.sec3.*", "rldp.lemma2.*", "isit.thm3.*", "falpha.*")),
    mutant("eq6.renyi-arguments-swapped", "divergence", "D_alpha(P || P^) computed where D_alpha(P^ || P) is meant",
           (wrap("divergence:renyi_divergence", _renyi_swapped),
            wrap("divergence:renyi_divergence_arb", _renyi_arb_swapped)),
           THM1 + PROP1 + ("rldp.example1.*", "rldp.sec3.*", "isit.thm3.*")),
    mutant("eq6.renyi-arb-alpha-factor", "divergence",
           "the certified (arb) D_alpha with a factor alpha/(alpha-1) in place of 1/(alpha-1)",
           wrap("divergence:renyi_divergence_arb", _renyi_arb_factor),
           THM1 + PROP1 + ("rldp.example1.*", "rldp.sec3.*", "isit.thm3.*", "rldp.audit.*")),
    mutant("sec3.chi-square-neyman", "divergence", "chi^2(P1||P2) divided by P1 (Neyman) instead of P2 (Pearson)",
           replace("divergence:chi_square", _chi_square_neyman),
           ("rldp.sec3.*", "rldp.example1.*", "rldp.sec8.*", "isit.*", "falpha.rem9.*")),
]


# ---------------------------------------------------------------------------------------------
# Definition 3 (Gamma_eps), PolyOpt (Theorems 2-3, eq. (44)-(46))
# ---------------------------------------------------------------------------------------------


def _force_relaxed(orig):
    def f(*args, include_same_s=True, **kw):
        return orig(*args, include_same_s=False, **kw)     # Definition 3 without its s1 = s2 rows
    return f


def _polyopt_rows_no_L_correction(lower, exp_eps, *, include_same_s=True, active=None):
    r = Fraction(exp_eps)
    L = [[Fraction(v) for v in row] for row in lower]
    a1, a2 = len(L), len(L[0])
    act = list(range(a1)) if active is None else sorted(set(active))
    rows = []
    for s1 in act:
        for s2 in act:
            if s1 == s2 and not include_same_s:
                continue
            for u1 in range(a2):
                for u2 in range(a2):
                    c = [Fraction(0)] * (a1 * a2)
                    for u in range(a2):
                        c[s1 * a2 + u] += L[s1][u]
                        c[s2 * a2 + u] -= r * L[s2][u]
                    c[s1 * a2 + u1] += 1    # the (1 - sum_u L_{u|s}) coefficients written as 1
                    c[s2 * a2 + u2] -= r
                    rows.append(tuple(c))
    return rows


def _block_vertices_e2(orig):
    def block_vertices(L_s, exp_eps):
        return orig(L_s, Fraction(exp_eps) ** 2)     # h in [1, e^{2 eps}]: the ratio bound squared
    return block_vertices


def _gamma_eps_squared(orig):
    def gamma_hat_vertices(lower_table, exp_eps, **kw):
        return orig(lower_table, Fraction(exp_eps) ** 2, **kw)
    return gamma_hat_vertices


def _mu_sum_v(v, p, *, dps=None):
    from rldp_verify.core.numbers import to_mpf, working_precision

    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            vv, pp = [to_mpf(x) for x in v], [to_mpf(x) for x in p]
            q = mpmath.fsum(vv) / len(vv)    # normaliser under the uniform distribution, not under P
            if q == 0:
                return mpmath.mpf(0)
            tot = mpmath.fsum(a * b * mpmath.log(a / q) for a, b in zip(vv, pp, strict=True) if a * b != 0)
        return +tot


def _mu_arb_sum_v(v, p):
    from rldp_verify.core.rigorous import arb_exact

    q = sum(Fraction(a) for a in v) / len(v)
    if q == 0:
        return flint.arb(0)
    tot, qa = flint.arb(0), arb_exact(q)
    for a, b in zip(v, p, strict=True):
        if a * b != 0:
            tot += arb_exact(Fraction(a) * Fraction(b)) * (arb_exact(Fraction(a)) / qa).log()
    return tot


def _mu_float_sum_v(orig):
    def mu_float_bounds(Vf, pf):
        import numpy as np

        Vf = np.asarray(Vf, dtype=float)
        n = Vf.shape[1]
        return orig(Vf, np.full(n, 1.0 / n) * 0 + np.asarray(pf, dtype=float))
    return mu_float_bounds


def _mu_log2(orig):
    def mu_value(v, p, *, dps=None):
        return orig(v, p, dps=dps) / mpmath.log(2)     # bits instead of nats
    return mu_value


def _mu_arb_log2(orig):
    def mu_arb(v, p):
        return orig(v, p) / flint.arb(2).log()
    return mu_arb


MUTANTS += [
    mutant("def3.without-same-s-rows", "gamma",
           "Definition 3 without its s1 = s2 rows (the relaxed cone used for PolyOpt)",
           (wrap("gamma:gamma_hat_vertices", _force_relaxed), wrap("gamma:gamma_inequalities", _force_relaxed),
            wrap("guarantees:check_gamma", _force_relaxed)),
           POLYOPT),
    mutant("def3.block-ratio-squared", "gamma",
           "the vertex blocks P_s built with h in [1, e^{2 eps}] (the ratio bound of Lemma 3 squared)",
           wrap("gamma:block_vertices", _block_vertices_e2), POLYOPT),
    mutant("def3.gamma-hat-eps-doubled", "gamma", "Gamma-hat's vertices enumerated at 2 eps",
           wrap("gamma:gamma_hat_vertices", _gamma_eps_squared), POLYOPT),
    mutant("eq45.mu-uniform-normaliser", "utility",
           "mu(v) with the normaliser sum_x v_x / |X| (the uniform distribution) instead of sum_x v_x P_x",
           (replace("utility:mu_value", _mu_sum_v), replace("utility:mu_arb", _mu_arb_sum_v)),
           POLYOPT + ("rldp.thm4.*", "rldp.thm5.*", "rldp.sec8.*", "rldp.sec9.*", "rldp.lemma2.*", "rldp.prop3.*")),
    mutant("eq44.utility-in-bits", "utility", "I_P(X;Y) in bits (log base 2) where the paper's nats are meant",
           (wrap("utility:mu_value", _mu_log2), wrap("utility:mu_arb", _mu_arb_log2)),
           POLYOPT + ("rldp.thm4.*", "rldp.thm5.*", "rldp.sec8.*", "rldp.sec9.*")),
]


# ---------------------------------------------------------------------------------------------
# Mechanisms: SRR (Definition 4), GRR (eq. (56)), IR (Theorem 5), guarantees, eq. (62)
# ---------------------------------------------------------------------------------------------


def _srr_same_exponent(a1, a2, exp_eps):
    e = Fraction(exp_eps)
    a = a1 * a2
    C = e + (a2 - 1) * e + a - a2          # "e eps" read as e^eps in the second case
    return [[((e if u == u2 else e) if s == s2 else 1) / C for s in range(a1) for u in range(a2)]
            for s2 in range(a1) for u2 in range(a2)]


def _srr_squared(a1, a2, exp_eps):
    e = Fraction(exp_eps)
    a = a1 * a2
    C = e * e + (a2 - 1) / (e * e) + a - a2   # exponents 2 eps / -2 eps
    return [[((e * e if u == u2 else 1 / (e * e)) if s == s2 else 1) / C for s in range(a1) for u in range(a2)]
            for s2 in range(a1) for u2 in range(a2)]


def _grr_inverted(size, exp_eps):
    if exp_eps == math.inf:
        return [[Fraction(int(i != j)) / max(1, size - 1) for j in range(size)] for i in range(size)]
    e = Fraction(exp_eps)
    den = 1 + (size - 1) * e
    return [[1 / den if i == j else e / den for j in range(size)] for i in range(size)]


def _exp_delta2_no_2(t, d):
    t, d = Fraction(t), Fraction(d)
    if d == 0:
        return math.inf
    return 1 + (t - 1) / d     # the factor 2 of Theorem 5 missing


def _ir_distance_no_2(rad_upper, table):
    """Theorem 5's d with max_s d_s where the paper has max_s 2 d_s (the factor 2 dropped)."""
    from rldp_verify.rldp.mechanisms.ir import conditional_l1_spread

    ds = [Fraction(v) for v in rad_upper]
    return min(Fraction(2), max(ds) + conditional_l1_spread(table))


def _decide_reversed(orig):
    def _decide(items, level, what):
        flipped = ((rhs, lhs, w) for lhs, rhs, w in items)    # the inequality lhs <= e^eps rhs reversed
        return orig(flipped, level, what)
    return _decide


def _prop3_with_same_s(Q, a1, a2):
    from rldp_verify.rldp.audit.exact import _ratio

    best, arg = None, None
    for y, row in enumerate(Q):
        blocks = [row[s * a2:(s + 1) * a2] for s in range(a1)]
        for s in range(a1):
            for t in range(a1):            # s = s' included (Proposition 3 without s != s')
                r = _ratio(max(blocks[s]), min(blocks[t]))
                if best is None or r > best:
                    best, arg = r, (y, s, t, blocks[s].index(max(blocks[s])), blocks[t].index(min(blocks[t])))
    y, s, t, u, v = arg
    P = [[Fraction(0)] * a2 for _ in range(a1)]
    P[s][u] += Fraction(1, 2)
    P[t][v] += Fraction(1, 2)
    return best, {"y": y, "s": s, "s_prime": t, "u": u, "u_prime": v}, tuple(tuple(r) for r in P)


def _check_prop3_same_s(mech, eps, a1=None, a2=None):
    from rldp_verify.rldp.mechanisms.guarantees import _check_width, _decide, _matrix, _sizes
    from rldp_verify.rldp.mechanisms.rounding import privacy_level

    level = privacy_level(eps)
    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)

    def items():
        for y, r in enumerate(Q):
            blocks = [r[s * a2:(s + 1) * a2] for s in range(a1)]
            for s in range(a1):
                for t in range(a1):          # s = s' not skipped
                    u = max(range(a2), key=blocks[s].__getitem__)
                    v = min(range(a2), key=blocks[t].__getitem__)
                    yield blocks[s][u], blocks[t][v], {"y": y, "s": s, "u": u, "s'": t, "u'": v}

    return _decide(items(), level, "(eps, P_X)-RLDP via Proposition 3")


def _eq62_inverted(Q, P, a1, a2):
    from rldp_verify.rldp.audit.exact import _ratio

    marg = [sum(P[s]) for s in range(a1)]
    best, arg = None, None
    for y, row in enumerate(Q):
        joint = [sum(row[s * a2 + u] * P[s][u] for u in range(a2)) for s in range(a1)]   # P(Y=y, S=s)
        for s in range(a1):
            for t in range(a1):
                if s == t or marg[s] == 0 or marg[t] == 0:
                    continue
                r = _ratio(joint[s], joint[t])       # P(S=s|Y=y)/P(S=s'|Y=y): eq. (62) inverted by Bayes
                if best is None or r > best:
                    best, arg = r, (y, s, t)
    if best is None:
        return Fraction(1), None
    y, s, t = arg
    return best, {"y": y, "s": s, "s_prime": t}


def _realized_eps_inverted(mech, p, a1=None, a2=None, *, dps=None):
    from rldp_verify.core.numbers import to_mpf, working_precision
    from rldp_verify.rldp.mechanisms.guarantees import _check_width, _exact_flat, _matrix, _sizes

    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)
    flat = _exact_flat(p, a1 * a2)
    best = Fraction(1)
    for r in Q:
        joint = [sum(r[s * a2 + u] * flat[s * a2 + u] for u in range(a2)) for s in range(a1)
                 if sum(flat[s * a2:(s + 1) * a2]) > 0]
        if min(joint) == 0:
            if max(joint) > 0:
                return mpmath.inf
            continue
        best = max(best, max(joint) / min(joint))
    with working_precision(dps):
        return mpmath.log(to_mpf(best))


MUTANTS += [
    mutant("def4.srr-second-case-e", "srr",
           "SRR with e^eps (not e^-eps) for s' = s, u' != u (the garbled 'e eps' read literally)",
           replace("srr:srr_matrix", _srr_same_exponent),
           ("rldp.ex4.*", "rldp.lemma2.*", "rldp.thm4.*", "rldp.sec6.*", "rldp.sec9.*", "rldp.sec8.*", "rldp.prop3.*")),
    mutant("def4.srr-exponents-doubled", "srr", "SRR with exponents 2 eps and -2 eps",
           replace("srr:srr_matrix", _srr_squared),
           ("rldp.ex4.*", "rldp.lemma2.*", "rldp.thm4.*", "rldp.sec6.*", "rldp.sec9.*", "rldp.sec8.*", "rldp.prop3.*")),
    mutant("eq56.grr-inverted", "grr", "GRR with the e^eps weight off the diagonal (1 on it)",
           replace("grr:grr_matrix", _grr_inverted),
           ("rldp.prop3.*", "rldp.thm5.*", "rldp.ex4.*", "rldp.audit.grr-matrix", "rldp.sec8.*", "rldp.sec9.*",
            "kairouz.*")),
    mutant("thm5.delta2-missing-2", "ir", "e^{delta2} = 1 + (e^{eps2} - 1)/d, the factor 2 of Theorem 5 missing",
           replace("ir:exp_delta2", _exp_delta2_no_2),
           ("rldp.thm5.*", "rldp.ex5.*", "rldp.sec8.*", "rldp.sec9.*")),
    mutant("thm5.d-missing-factor-2", "ir",
           "Theorem 5's d = min{2, max_s d_s + max ||P^_{U|s} - P^_{U|s'}||_1}: the factor 2 of 2 d_s dropped",
           replace("ir:distance_from", _ir_distance_no_2),
           ("rldp.thm5.*", "rldp.ex5.*", "rldp.sec9.ir-quick")),
    mutant("guarantees.threshold-reversed", "guarantees",
           "privacy check with its inequality reversed (rhs <= e^eps lhs instead of lhs <= e^eps rhs)",
           wrap("guarantees:_decide", _decide_reversed),
           ("rldp.lemma2.*", "rldp.prop3.*", "rldp.thm2.*", "rldp.thm5.*", "rldp.relaxed-polyopt.*", "rldp.ex*",
            "rldp.sec6.*")),
    mutant("prop3.same-s-pairs", "audit.exact",
           "Proposition 3's maximum taken over all (s, s') including s = s'",
           (replace("audit.exact:audit_full_simplex", _prop3_with_same_s),
            replace("guarantees:check_prop3", _check_prop3_same_s)),
           ("rldp.prop3.*", "rldp.lemma2.*", "rldp.relaxed-polyopt.*", "rldp.sec9.*", "rldp.audit.*", "rldp.example3.*")),
    mutant("eq62.inverted", "audit.exact",
           "eq. (62) inverted: the realised eps* from P(S=s|Y=y)/P(S=s'|Y=y) instead of P(Y=y|S=s)/P(Y=y|S=s')",
           (replace("audit.exact:audit_single", _eq62_inverted),
            replace("guarantees:realized_eps", _realized_eps_inverted)),
           ("rldp.sec8.*", "rldp.audit.*", "rldp.example3.*")),
]


# ---------------------------------------------------------------------------------------------
# The audit's dual (ISIT Theorem 3 / phi of the dual)
# ---------------------------------------------------------------------------------------------


def _audit_ball_lenient(orig):
    """A lenient auditor: the upper end of a Rényi-ball audit taken at P-hat only (the exact ratio of P-hat),
    the verdict recomputed from it; the lower end and witness are kept."""
    def _audit_ball(Q, mech, ball, target, dps, screen, *args, **kw):
        from rldp_verify.rldp.audit import core, exact

        res = orig(Q, mech, ball, target, dps, screen, *args, **kw)
        hi, _ = exact.audit_single(Q, ball.phat, ball.sensitive_size, ball.public_size)
        res.ratio_upper = hi
        res.verdict = core._verdict(target, res.ratio_lower, hi, res.dps)
        return res
    return _audit_ball


def _ball_objective_c_times_B(orig):
    """eq. (21) with c B where the paper has c (B + 1): the objective too low by c."""
    def ball_objective(v, w, c, P_hat, B):
        return orig(v, w, c, P_hat, B) - _mpf(c)
    return ball_objective


def _joint_objective_without_masses(orig):
    """eq. (29) without the term c (P^_{s1} + P^_{s2}) of its constant: the objective too low."""
    def joint_objective(v1, v2, w1, w2, c, a1, a2, B):
        return orig(v1, v2, w1, w2, c, a1, a2, B) - _mpf(c) * (_mpf(sum(a1)) + _mpf(sum(a2)))
    return joint_objective


def _beta_alpha_minus_1(alpha):
    return Fraction(alpha) - 1      # phi with beta = alpha - 1 instead of 1 - 1/alpha


def _pair_problem_wrong_beta(orig):
    def __init__(self, *args, **kw):
        orig(self, *args, **kw)
        self.beta = self.alpha - 1  # the pair solver's dual with phi of order beta = alpha - 1
    return __init__


def _phi_mp_no_div(orig):
    def phi_mp(d, beta):
        v = orig(d, beta)
        b = Fraction(beta)
        return v if b == 0 or v == mpmath.inf else v * (mpmath.mpf(b.numerator) / b.denominator)
    return phi_mp


def _phi_np_no_div(orig):
    def phi_np(d, beta):
        v = orig(d, beta)
        return v if beta == 0 else v * float(beta)
    return phi_np


def _phi_arb_no_div(orig):
    def phi_arb(B, beta):
        v = orig(B, beta)
        return v if v is None or beta == 0 else v * flint.arb(Fraction(beta).numerator) / Fraction(beta).denominator
    return phi_arb


AUDIT = ("rldp.audit.*", "rldp.example3.*", "rldp.sec8.realized-eps", "isit.thm3.*", "isit.thm4.*", "isit.thm2.*")

MUTANTS += [
    mutant("audit.lenient-upper-at-phat", "audit.core",
           "a lenient auditor: the upper end of sup_F P(y|s)/P(y|s') taken at P-hat only (a lower bound), so the "
           "bracket can have lo > hi and every mechanism private at P-hat passes",
           wrap("audit.core:_audit_ball", _audit_ball_lenient), AUDIT + ("rldp.audit.pair-bracket", "rldp.thm5.*")),
    mutant("audit.dual-phi-wrong-beta", "audit.pair",
           "the audit's pair dual with phi(d) = (e^{beta d} - 1)/beta for beta = alpha - 1 instead of 1 - 1/alpha",
           wrap("audit.pair:PairProblem.__init__", _pair_problem_wrong_beta), AUDIT + ("rldp.audit.pair-bracket",),
           include_slow=True),
    mutant("audit.screen-phi-wrong-beta", "audit.dual",
           "the audit's float screen with phi of order beta = alpha - 1 instead of 1 - 1/alpha",
           replace("audit.dual:beta_of", _beta_alpha_minus_1), AUDIT,
           equivalent="phi_beta(B) = (e^{beta B} - 1)/beta increases with beta and alpha - 1 >= 1 - 1/alpha, so the "
                      "wrong phi only enlarges the float screen's budget Phi (beta_of is used nowhere else): fewer "
                      "pairs are screened out and those are certified individually; the certified bracket of the "
                      "audit cannot change, only its running time"),
    mutant("audit.dual-phi-without-division", "audit.dual", "phi(d) = e^{beta d} - 1 (the division by beta dropped)",
           (wrap("audit.dual:phi_mp", _phi_mp_no_div), wrap("audit.dual:phi_np", _phi_np_no_div),
            wrap("audit.dual:phi_arb", _phi_arb_no_div)), AUDIT),
]


# ---------------------------------------------------------------------------------------------
# Companion papers: f_alpha (falpha), Kairouz (extremal), PRAM, ISIT (chi-square projection)
# ---------------------------------------------------------------------------------------------


def _f_alpha_no_minus_one(orig):
    def f_alpha_divergence(p, q, alpha, *, dps=None):
        v = orig(p, q, alpha, dps=dps)
        a = _mpf(alpha)
        if a == 1 or v == math.inf or v == mpmath.inf:
            return v
        return v + 1 if a > 1 else 1 - v     # sum P^a Q^(1-a) itself, without the -1 of f_alpha
    return f_alpha_divergence


def _renyi_from_f_alpha_no_denominator(d_f, alpha, *, dps=None):
    from rldp_verify.core.numbers import to_mpf, working_precision

    with working_precision(dps):
        d = to_mpf(d_f) if not isinstance(d_f, mpmath.mpf) else d_f
        if d == mpmath.inf or d == math.inf:
            return mpmath.inf
        a = _mpf(alpha)
        arg = d + 1 if a > 1 else 1 - d
        return mpmath.inf if arg <= 0 else mpmath.log(arg)     # eq. (4) without 1/(alpha-1)


def _tv_no_half(p, q):
    from rldp_verify.topics.fdiv import _pair

    p, q = _pair(p, q)
    return sum(abs(x - y) for x, y in zip(p, q, strict=True))     # the factor 1/2 of TV forgotten


def _hockey_no_correction(orig):
    def hockey_stick(p, q, gamma):
        from rldp_verify.topics.fdiv import _pair

        p2, q2 = _pair(p, q)
        return sum(max(x - gamma * y, 0) for x, y in zip(p2, q2, strict=True))   # without the - (1 - gamma)^+ term
    return hockey_stick


def _mu_kl_swapped(P0, P1):
    from rldp_verify.core.rigorous import as_arb as _arb
    from rldp_verify.topics.extremal.utilities import dot

    def mu(col):
        a, b = dot(P0, col), dot(P1, col)
        if b == 0:
            return flint.arb(0)
        return _arb(b) * (_arb(b) / _arb(a)).log()     # D(M1||M0) instead of D(M0||M1)
    return mu


def _mu_mi_wrong_p(P):
    from rldp_verify.core.rigorous import as_arb as _arb
    from rldp_verify.topics.extremal.utilities import dot

    n = len(P)
    unif = tuple(Fraction(1, n) for _ in P)

    def mu(col):
        m = dot(unif, col)                   # the marginal under the uniform prior instead of P
        if m == 0:
            return flint.arb(0)
        tot = flint.arb(0)
        for p, c in zip(P, col, strict=True):
            if c != 0 and p != 0:
                tot += _arb(p * c) * (_arb(c) / _arb(m)).log()
        return tot
    return mu


def _binary_set_mi_farthest(P):
    """T in argmax_A |P(A) - 1/2| over the proper non-empty A (the worst set where (30) takes the best)."""
    from itertools import combinations

    k = len(P)
    sets = [frozenset(A) for r in range(1, k) for A in combinations(range(k), r)]
    return max(sets, key=lambda A: abs(sum((P[i] for i in A), Fraction(0)) - Fraction(1, 2)))


def _pattern_column_inverted(T, k, t):
    t = Fraction(t)
    return tuple(Fraction(1) if i in T else t for i in range(k))   # e^eps on the complement of T


def _pram_off_diagonal(q):
    from rldp_verify.topics.pram import check_q

    q = check_q(q)
    S = len(q)
    return [[q[k] if z == k else (1 - q[k]) / S for z in range(S)] for k in range(S)]   # /S instead of /(S-1)


def _pram_v_min_as_v_malpha(S, t):
    return 1 / (1 + (S - 1) * t)       # v_min = e^-alpha/(e^alpha + S - 1) replaced by v_-alpha


def _pram_marginal_transposed(p, q):
    from rldp_verify.topics.pram import check_p, check_q

    q = check_q(q)
    S = len(q)
    p = check_p(p, S)
    c = sum(p[k] * (1 - q[k]) for k in range(S)) / (S - 1)
    return [p[j] * q[j] + c for j in range(S)]      # the k = j term not removed from c


def _pram_dp_ratio_inverted(orig):
    def dp_ratio(q):
        r = orig(q)
        return None if r is None else (1 / r if r != 0 else None)   # min/max instead of max/min
    return dp_ratio


def _chi2_radius_at_alpha(n, cells, alpha):
    from scipy.stats import chi2

    return float(chi2.ppf(float(alpha), cells - 1)) / int(n)     # quantile at alpha, not 1 - alpha


def _srr_vectors_no_inverse(a1, a2, exp_eps):
    from rldp_verify.rldp.srr_threshold import _check_sizes

    t = _check_sizes(a1, a2, exp_eps)
    a = a1 * a2
    out = []
    for s in range(a1):
        for u in range(a2):
            v = [Fraction(1)] * a
            for w in range(a2):
                v[s * a2 + w] = t if w == u else Fraction(1)    # 1 instead of 1/t on the rest of the block
            out.append(tuple(v))
    return out


MUTANTS += [
    mutant("falpha.eq3-without-minus-1", "falpha", "D_{f_alpha} without the -1 of f_alpha (x^alpha instead of x^alpha - 1)",
           wrap("falpha:f_alpha_divergence", _f_alpha_no_minus_one), ("falpha.*",)),
    mutant("falpha.eq4-without-1-over-alpha-minus-1", "falpha", "eq. (4) without the factor 1/(alpha - 1)",
           replace("falpha:renyi_from_f_alpha", _renyi_from_f_alpha_no_denominator), ("falpha.def1.*",)),
    mutant("falpha.tv-without-half", "falpha", "TV(P||Q) = sum |P - Q| (the 1/2 forgotten)",
           replace("falpha:total_variation", _tv_no_half), ("falpha.*",)),
    mutant("falpha.hockey-stick-without-correction", "falpha", "E_gamma without its -(1 - gamma)^+ term",
           wrap("falpha:hockey_stick", _hockey_no_correction), ("falpha.*",)),
    mutant("kairouz.mu-kl-swapped", "extremal_utilities", "mu_KL(c) for D(M1||M0) where D(M0||M1) is meant",
           replace("extremal_utilities:mu_kl", _mu_kl_swapped), ("kairouz.*",)),
    mutant("kairouz.mu-mi-uniform-marginal", "extremal_utilities",
           "mu of mutual information with the column's mass under the uniform prior instead of P",
           replace("extremal_utilities:mu_mi", _mu_mi_wrong_p), ("kairouz.*", "rldp.sec1.ir-randomized-response-optimal")),
    mutant("kairouz.binary-set-farthest-from-half", "extremal_utilities",
           "eq. (30)'s T taken with P(T) farthest from 1/2 instead of closest (a binary mechanism that is not optimal)",
           replace("extremal_utilities:binary_set_mi", _binary_set_mi_farthest), ("kairouz.thm12.*",)),
    mutant("kairouz.staircase-pattern-complement", "staircase", "staircase pattern columns with e^eps on the complement of T",
           replace("staircase:pattern_column", _pattern_column_inverted), ("kairouz.*",)),
    mutant("pram.eq8-off-diagonal", "pram", "PRAM's off-diagonal (1 - q_k)/S instead of (1 - q_k)/(S - 1)",
           replace("pram:pram_matrix", _pram_off_diagonal), ("pram.*",)),
    mutant("pram.eq9-marginal-double-count", "pram", "eq. (9)'s marginal without removing the k = j term from c",
           replace("pram:marginal", _pram_marginal_transposed), ("pram.*",)),
    mutant("pram.prop32-v-min-as-v-malpha", "pram", "Proposition 3.2's v_min replaced by v_-alpha",
           replace("pram:v_min", _pram_v_min_as_v_malpha), ("pram.table3.*", "pram.prop3-2.*", "pram.table1.counts")),
    mutant("pram.dp-ratio-inverted", "pram", "the DP ratio min/max instead of max/min",
           wrap("pram:dp_ratio", _pram_dp_ratio_inverted), ("pram.*",)),
    mutant("isit.eq21-c-times-B", "chisquare_projection",
           "ISIT eq. (21) with c B instead of c (B + 1): an objective below the support function, which a point of "
           "F then beats",
           wrap("chisquare_projection:ball_objective", _ball_objective_c_times_B), ("isit.thm2.*",)),
    mutant("isit.eq29-without-row-masses", "chisquare_projection",
           "ISIT eq. (29) without c (P^_{s1} + P^_{s2}) in its constant: an objective below the support function",
           wrap("chisquare_projection:joint_objective", _joint_objective_without_masses), ("isit.thm4.*",)),
    mutant("isit.eq3-quantile-at-alpha", "chisquare_projection",
           "ISIT eq. (3): the chi-square quantile at alpha instead of 1 - alpha",
           replace("chisquare_projection:chi2_radius", _chi2_radius_at_alpha), ("isit.*",)),
    mutant("lemmaA8.srr-vectors-without-inverse", "srr_threshold",
           "the SRR generators with 1 (not 1/t) on the rest of the block (Lemma A8's V2 garbled)",
           replace("srr_threshold:srr_vectors", _srr_vectors_no_inverse), ("rldp.lemmaA8.*", "rldp.thm4.*")),
]



# issue 23: one mutant per certificate kind, each an engine error that the independent checker catches in a
# claim's certificate whatever the claim's verdict says (killed_by names the claim "(certificate rejected by
# rldp_verify_check)"); the mutants of tests/certificates/test_mutants.py in the catalogue's form, on claims
def _dec_always_down(orig):
    return lambda x, digits, down: orig(x, digits, True if down is False else down)


def _lp_dual_perturbed(orig):
    import dataclasses

    def solve(*args, **kwargs):
        res = orig(*args, **kwargs)
        if res.dual is None:
            return res
        return dataclasses.replace(res, dual=tuple(v + Fraction(1, 10**9) for v in res.dual))
    return solve


def _drop_last_vertex(orig):
    return lambda *args, **kwargs: orig(*args, **kwargs)[:-1]


def _mi_as_realised_eps(orig):
    def mi(matrix, p, **kw):
        from rldp_verify.rldp.mechanisms.guarantees import realized_eps

        return realized_eps(matrix, p, 2, 2) if len(p) == 4 else orig(matrix, p, **kw)
    return mi


MUTANTS += [
    mutant("certificate.audit-upper-end-rounded-down", "audit.core",
           "the audit's printed upper end (ratio_upper) rounded down instead of up (issue 23's first finding)",
           wrap("audit.core:_dec", _dec_always_down),
           ("rldp.example3.audit-example1", "rldp.sec6.srr-stricter-than-polyopt")),
    mutant("certificate.lp-dual-off", "rldp_verify.core.lp",
           "an exact LP's dual multipliers off by 10^-9 (the optimum itself right): the dual no longer proves it",
           wrap("rldp_verify.core.lp:solve_exact", _lp_dual_perturbed), ("isit.lemma7.intersection-support",)),
    mutant("certificate.gamma-hat-vertex-dropped", "gamma",
           "Gamma-hat's vertex enumeration loses its last vertex (the dimension and counts of a large list survive)",
           wrap("gamma:gamma_hat_vertices", _drop_last_vertex), ("rldp.sec5.gamma-hat-dimension",)),
    mutant("certificate.mutual-information-as-realised-eps", "utility",
           "I(X;Y) computed as the realised eps* of eq. (62) (on 2 x 2 inputs): the reading that reproduces Example "
           "3's printed I_P* = 0.2804, which rldp.ex3.true-utility then says VERIFIED; its rigorous-value "
           "certificate of the agreement is rejected",
           wrap("utility:mutual_information_value", _mi_as_realised_eps), ("rldp.ex3.true-utility",)),
]

# issue 23, symbolic identities: the builder's sympy-to-tree conversion drops the last term of every sum (an
# identity certificate then states a different identity, which the checker's grid evaluation rejects)
def _identity_tree_drops_a_term(orig):
    def to_tree(e):
        tree = orig(e)
        return tree[:-1] if isinstance(tree, list) and tree[0] == "+" and len(tree) > 2 else tree
    return to_tree


MUTANTS += [
    mutant("certificate.identity-term-dropped", "rldp_verify.certificates.identity",
           "the symbolic-identity builder drops the last term of every sum when it writes the expression tree",
           wrap("rldp_verify.certificates.identity:to_tree", _identity_tree_drops_a_term),
           ("rldp.lemma1.roots-symbolic",)),
]


# issue 23 (identities): symbolic identities with log and exp atoms (rldp_verify/certificates/identity_logs.py)
def _log_node_atom_dropped(orig):
    def log_of(self, x, ns):
        return orig(self, x, dict(list(dict(ns).items())[:-1]))    # log(x y) written as log x
    return log_of


MUTANTS += [
    mutant("certificate.identity-log-atom-dropped", "rldp_verify.certificates.identity_logs",
           "the log-atom identity builder drops the last atom of every log node's decomposition (log(x y) written as "
           "log x, log x as log 1)",
           wrap("rldp_verify.certificates.identity_logs:Atoms.log_of", _log_node_atom_dropped),
           ("rldp.thm1.factorisation",)),
]


def _decide_side_flipped(orig):
    def decide(reading, rows, statistic, threshold, side, **kw):
        return orig(reading, rows, statistic, threshold, "<=" if side == ">=" else ">=", **kw)
    return decide


def _decide_threshold_strict(orig):
    def decide(reading, rows, statistic, threshold, side, **kw):
        return orig(reading, rows, statistic, threshold * 2 if side == ">=" else threshold / 2, side, **kw)
    return decide


#: the claims decided by the statistical standard (issue 24)
_STANDARD_CLAIMS = ("isit.sec5.*", "rldp.sec8.synthetic-*", "rldp.sec8.realized-eps-sides", "rldp.sec8.beta-impact*",
                    "rldp.sec9.polyopt-close-to-nr", "rldp.sec9.nonrobust-privacy-cost", "rldp.sec9.rldp-beats-ldp")

# the statistical standard (issue 24): a reading decided the wrong way round, or against a lenient threshold
MUTANTS += [
    mutant("standard.side-flipped", "rldp_verify.core.standard",
           "the statistical standard decides 'x >= threshold' as 'x <= threshold' and vice versa",
           wrap("rldp_verify.core.standard:decide", _decide_side_flipped), _STANDARD_CLAIMS, include_slow=True),
    mutant("standard.strict-threshold", "rldp_verify.core.standard",
           "the statistical standard's thresholds made stricter by a factor of 2 (<< read as <= eps/4)",
           wrap("rldp_verify.core.standard:decide", _decide_threshold_strict), _STANDARD_CLAIMS, include_slow=True),
]

def _gamma_extremes_unordered(orig):
    """Gamma_max over unordered pairs only (itertools.combinations for permutations): a/b is taken, b/a forgotten."""
    from itertools import combinations

    from rldp_verify.topics.fdiv import likelihood_ratio_extremes

    def gamma_extremes(dists):
        orig(dists)   # the original's input validation
        lo, hi = Fraction(1), Fraction(1)
        for a, b in combinations([list(d) for d in dists], 2):
            m, M = likelihood_ratio_extremes(a, b)
            lo, hi = min(lo, m), max(hi, M)
        return lo, hi
    return gamma_extremes


def _dp_ratio_diagonal_only(orig):
    """The PRAM privacy ratio taken only as diagonal over off-diagonal entries of a column (q_z / ((1 - q_k)/(S-1))),
    the reverse ratio forgotten."""
    from rldp_verify.topics.pram import pram_matrix

    def dp_ratio(q):
        orig(q)
        M = pram_matrix([Fraction(x) for x in q])
        S = len(M)
        return max([Fraction(1)] + [M[z][z] / M[k][z] for z in range(S) for k in range(S) if k != z and M[k][z] > 0])
    return dp_ratio


def _protocol_joint(orig):
    """The robust problems written without Theorem 1's dual: the uncertain P_SU a decision variable of the
    objective, bilinear in (P, Q) and so not a convex program."""
    def init(self, kind, n_s, d, eps, **kw):
        import cvxpy as cp

        orig(self, kind, n_s, d, eps, **kw)
        if kind[0] == "R":
            P = cp.Variable((self.n_s, self.n_u), nonneg=True)
            b = cp.hstack([cp.sum(cp.multiply(Q, self.d), axis=1) for Q in self.Q])
            self.problem = cp.Problem(cp.Minimize(cp.vec(P, order="C") @ b),
                                      self.problem.constraints + [cp.sum(P) == 1])
    return init


def _read_rows_drops_last(orig):
    """The CSV reader loses its last row (an off-by-one slip)."""
    def read_rows(path):
        p, rows = orig(path)
        return p, rows[:-1]
    return read_rows


def _f_simplified_without_s_minus_1(orig):
    """Sec. 3.1's O(S) form of f(q) with the (S - 1) of the off-diagonal entries dropped: (1 - q_x) log(1 - q_x)."""
    from rldp_verify.topics.pram import check_p, check_q

    def f_simplified(p, q):
        q = [mpmath.mpf(x) if not isinstance(x, Fraction) else mpmath.mpf(x.numerator) / x.denominator
             for x in check_q(q)]
        S = len(q)
        p = [mpmath.mpf(x) if not isinstance(x, Fraction) else mpmath.mpf(x.numerator) / x.denominator
             for x in check_p(p, S)]
        c = mpmath.fsum(p[k] * (1 - q[k]) for k in range(S)) / (S - 1)
        m = [p[j] * q[j] + c - p[j] * (1 - q[j]) / (S - 1) for j in range(S)]
        ent = mpmath.fsum(v * mpmath.log(v) for v in m if v > 0)
        return mpmath.fsum(p[x] * (q[x] * mpmath.log(q[x]) if q[x] > 0 else 0)
                           + p[x] * ((1 - q[x]) * mpmath.log(1 - q[x]) if q[x] < 1 else 0) for x in range(S)) - ent
    return f_simplified


def _mi_pram_in_bits(orig):
    """f(q) = I(X, Z) in bits where the claims work in nats."""
    def mi_pram(p, q):
        return orig(p, q) / mpmath.log(2)
    return mi_pram


def _mu_kl_inverted(orig):
    """mu(c) = (P0.c) log((P1.c)/(P0.c)): the KL ratio inverted."""
    def mu_kl(P0, P1):
        f = orig(P0, P1)
        return lambda col: -f(col)
    return mu_kl


# issue 24 item 2: a second route for the Sec. 8.1 counts (the file read line by line beside the engine's reader)
MUTANTS += [
    mutant("issue24.kairouz-mu-kl-inverted", "extremal_utilities",
           "Kairouz's KL utility mu(c) = (P0.c) log((P1.c)/(P0.c)), the ratio inverted: caught by Figure 5's second "
           "route (a float interior-point LP (11) on its own mu)",
           wrap("extremal_utilities:mu_kl", _mu_kl_inverted), ("kairouz.fig5.optimal-mechanisms-kl",
                                                                 "kairouz.fig3-8.experiments",
                                                                 "kairouz.fig4.better-of-two"),
           include_slow=True),
    mutant("issue24.pram-f-simplified-without-s-minus-1", "pram",
           "Sec. 3.1's O(S) form of f(q) = I(X, Z) with the (S - 1) of the off-diagonal entries dropped",
           wrap("pram:f_simplified", _f_simplified_without_s_minus_1), ("pram.table1.counts", "pram.table2.counts",
                                                                       "pram.table4.counts")),
    mutant("issue24.pram-mi-in-bits", "pram", "I(X, Z) of the PRAM matrix in bits (log base 2) where nats are meant",
           wrap("pram:mi_pram", _mi_pram_in_bits), ("pram.sec4-2.boundary-maximises",)),
    mutant("issue24.csv-reader-drops-last-row", "rldp_verify.rldp.data",
           "the engine's CSV reader drops the last data row (an off-by-one slip): n = 32,560",
           wrap("rldp_verify.rldp.data:_read_rows", _read_rows_drops_last), ("rldp.sec8.adult-n",)),
]

# issue 24 item 3: the statements indexed last session (tests/proofs/test_issue24_statements.py), each with a wrong
# variant of the engine object its check rests on (rldp.sec1.ir-randomized-response-optimal: kairouz.mu-mi-uniform-
# marginal above, through its second route; rldp.sec43.smaller-Bs-lower-bound is REFUTED (a misprint) on the
# unmutated engine, so no mutant can kill it by a verdict)
MUTANTS += [
    mutant("issue24.gamma-extremes-unordered-pairs", "falpha",
           "Gamma_max of eq. (21) over unordered pairs of distributions only (combinations for permutations): the "
           "ratio b/a of each pair forgotten",
           wrap("falpha:gamma_extremes", _gamma_extremes_unordered), ("falpha.sec1.post-processing-min",)),
    mutant("issue24.pram-dp-ratio-diagonal-only", "pram",
           "the privacy ratio of the PRAM matrix (8) as diagonal over off-diagonal entries only, the reverse ratio "
           "(1 - q_k)/(S - 1) over q_z forgotten",
           wrap("pram:dp_ratio", _dp_ratio_diagonal_only), ("pram.sec2-3.post-processing",)),
    mutant("issue24.isit-robust-problem-joint", "rldp_verify.topics.chisquare.protocols",
           "the robust-utility problems written without Theorem 1's dual (the uncertain P_SU a decision variable: "
           "bilinear, not convex)",
           wrap("rldp_verify.topics.chisquare.protocols:ProtocolSolver.__init__", _protocol_joint),
           ("isit.sec1.convex-formulations",)),
]

# issue 23 leftovers: the audit certificate forms "split" (alpha <= 1/2), "unary" and "seeded-grr", exercised by
# proofs/rldp/audit_certificate_forms.py; each engine error loosens a printed upper end that the checker re-derives
def _split_levels_shrunk(orig):
    def level_e(y, beta, dps):
        return orig(y * Fraction(7, 8), beta, dps)
    return level_e


def _unary_ratio_hot_bit_only(orig):
    def ratio(self):
        r = self._best()[2]
        return orig(self) if r is None else r
    return ratio


def _hashing_ratio_against_all_buckets(orig):
    def ratio(self):
        orig(self)
        return self.a / (1 - self.a) if self.a < 1 else orig(self)
    return ratio


MUTANTS += [
    mutant("certificate.split-levels-shrunk", "audit.grid",
           "the budget split's levels phi^-1(t / P^_s) taken at 7/8 of the budget t (both projections of each part "
           "shrink): the alpha <= 1/2 upper end falls below the true supremum",
           wrap("audit.grid:_level_e", _split_levels_shrunk), ("rldp.audit.split-certificate-alpha-half",)),
    mutant("certificate.unary-ratio-hot-bit-only", "rldp_verify.structured.channels",
           "the worst ratio of a unary encoding taken as the factor of the bit at x alone (the bit at x' forgotten: "
           "p/q instead of p/q (1-q)/(1-p) for OUE)",
           wrap("rldp_verify.structured.channels:UnaryProduct.ratio", _unary_ratio_hot_bit_only),
           ("rldp.audit.unary-and-hashing-ldp",)),
    mutant("certificate.seeded-grr-ratio-against-all-buckets", "rldp_verify.structured.channels",
           "local hashing's worst ratio taken as a / (1 - a) (the reported bucket against all other buckets "
           "together) instead of a / b",
           wrap("rldp_verify.structured.channels:PublicMixture.ratio", _hashing_ratio_against_all_buckets),
           ("rldp.audit.unary-and-hashing-ldp",)),
]

# issue 24 leftovers (helper verdicts): wrong variants of the engine functions behind the first routes of the claims that
# got a second route this round; each is killed by the routes' disagreement (ERROR via ConsistencyFailure)
def _staircase_batch_unscaled(orig):
    """LP (11)'s batched optimum returned in the solver's normalised units (the objectives divided by
    max_j |mu_j| / |S_j|_1 and never multiplied back): both bounds off by the same factor, so their gap still closes."""
    import dataclasses

    import numpy as np

    from rldp_verify.topics.extremal.staircase import pattern_matrix_float

    def solve_staircase_lp_batch(k, t, MU, *, max_iter=None):
        res = orig(k, t, MU, max_iter=max_iter)
        M = np.atleast_2d(np.asarray(MU, dtype=float))
        scale = (np.abs(M) / pattern_matrix_float(k, t).sum(axis=0)).max(axis=1)
        scale[scale == 0] = 1.0
        return dataclasses.replace(res, upper=res.upper / scale, lower=res.lower / scale)
    return solve_staircase_lp_batch


def _v_alpha_without_minus_one(S, t):
    """v_alpha = e^alpha / (e^alpha + S): the - 1 of Proposition 3.2 dropped."""
    return t / (t + S)


_FIG34 = ("kairouz.fig3.regimes", "kairouz.fig3.beats-geometric", "kairouz.fig4.better-of-two",
          "kairouz.fig7.better-of-two")
_PRAM_FIGS = tuple(f"pram.fig{i}.estimates-improve-with-alpha" for i in (1, 2, 3, 4))

MUTANTS += [
    mutant("issue24.staircase-batch-unscaled", "staircase",
           "LP (11)'s batched float optimum returned in the normalised units of the solver (the objective's scale "
           "max_j |mu_j|/|S_j|_1 not multiplied back): caught by the second routes of Figures 3, 4 and 7 (the certified "
           "LP (11) with arb mu at the cells the verdicts turn on, |X| = 12 included)",
           wrap("staircase:solve_staircase_lp_batch", _staircase_batch_unscaled), _FIG34, include_slow=True),
    mutant("issue24.pram-v-alpha-without-minus-one", "pram",
           "Proposition 3.2's vertex coordinate v_alpha = e^alpha/(e^alpha + S), the - 1 dropped: caught by the second "
           "route of Figures 1-4 (the PRAM matrix at q must attain the ratio e^alpha)",
           replace("pram:v_alpha", _v_alpha_without_minus_one), _PRAM_FIGS, include_slow=True),
    mutant("issue24.sec43-rad-singletons-only", U,
           "rad_s maximised over singletons U1 = {u} instead of all subsets U1: caught by Sec. 4.3's second route "
           "(rad_s by Lagrangian duality over the ball)",
           replace(f"{U}:SimplexBall.l1_radius", _rad_singletons), ("rldp.sec43.smaller-Bs-lower-bound",)),
]

# issue 23, structured certificate forms under {P} and a Rényi ball ("subsets", "unary", "seeded-grr"), exercised by
# proofs/rldp/audit_certificate_structured.py; each engine error lowers a printed upper end that the checker re-derives
def _subsets_p_as_grr(orig):
    def subsets(st, cond, *args):
        _, wit = orig(st, cond, *args)
        A, B = st._prob({0}, 0), st._prob(set(), 0)
        g = (B + (A - B) * max(max(r) for r in cond)) / B
        return max(g, 1 / g), wit
    return subsets


def _unary_p_hot_bit_only(orig):
    def ue(structure, *args):
        _, wit = orig(structure, *args)
        return structure.bit.prob(1, 1) / structure.bit.prob(1, 0), wit
    return ue


def _hashing_p_upper_at_searched_seeds(orig):
    def hashing(st, *args):
        lo, _, wit = orig(st, *args)
        return lo, lo, wit
    return hashing


def _unary_ball_hot_bit_only(orig):
    def audit_ball(model, *args, **kw):
        res = orig(model, *args, **kw)
        if not hasattr(model.structure, "bit"):               # GRR / subsets on a ball: not this mutant's route
            return res
        bit = model.structure.bit
        res.ratio_upper = min(res.ratio_upper, bit.prob(1, 1) / bit.prob(1, 0))
        return res
    return audit_ball


_SP = ("rldp.audit.structured-p-and-ball",)
MUTANTS += [
    mutant("certificate.subsets-p-ratio-as-grr", "rldp_verify.structured.rldp",
           "subset selection's (eps, P) ratio by GRR's formula on the hottest cell, (B + (A - B) max P(u|s)) / B (the "
           "other m - 1 cells of the subset forgotten)",
           wrap("rldp_verify.structured.rldp:_subsets", _subsets_p_as_grr), _SP),
    mutant("certificate.unary-p-ratio-hot-bit-only", "rldp_verify.structured.rldp",
           "a unary encoding's (eps, P) ratio as h(1) = p/q (the cold bit's factor (1 - q)/(1 - p) forgotten)",
           wrap("rldp_verify.structured.rldp:_ue", _unary_p_hot_bit_only), _SP),
    mutant("certificate.seeded-grr-p-upper-at-searched-seeds", "rldp_verify.structured.rldp",
           "local hashing's (eps, P) upper end taken as the best searched seed's ratio (as if the seeds were the "
           "whole public range) instead of max(a/b, b/a)",
           wrap("rldp_verify.structured.rldp:_hashing", _hashing_p_upper_at_searched_seeds), _SP),
    mutant("certificate.unary-ball-upper-hot-bit-only", "rldp_verify.structured.audit",
           "the Rényi-ball upper end of a unary encoding as h(1) = p/q (the cold bit's factor forgotten)",
           wrap("rldp_verify.structured.audit:_audit_ball", _unary_ball_hot_bit_only), _SP),
]

# the proof steps' mutants (issue 30): wrong variants of the printed steps, killed by the step claims
MUTANTS += STEP_MUTANTS

# the wrong variants of the steps that statement-level claims check (issue 30, mutation/step_variants.py): each
# rewrites the one function of the claim's module (or of the engine function it calls) that computes the step
MUTANTS += variant_mutants()

# the mutants kept in the papers' own folders (proofs/<name>/mutants.py)
MUTANTS += Catalogue.load().mutants()


# issue 23 (certs-value): the confidence ball's certified radius (eq. (11), "rounded up") rounded to nearest at
# dps + 5 significant digits instead: below the true B about half the time, by < 5e-55 relative. The claim's own check
# compares with eq. (11) at the quantile bracket's lower end (~1e-50 below B) and stays VERIFIED; the checker rejects
# the certificate F_chi2,k(n (e^R - 1)) > confidence (R >= B) of a radius below B.
def _radius_rounded_to_nearest(alpha, confidence, n, a, *, dps=50):
    from rldp_verify.rldp.uncertainty import confidence_radius

    B = confidence_radius(alpha, confidence, n, a, dps=dps + 10)
    return None if mpmath.isinf(B) else Fraction(mpmath.nstr(B, dps + 5, strip_zeros=False, min_fixed=-math.inf,
                                                             max_fixed=math.inf))


MUTANTS += [
    mutant("certificate.confidence-radius-rounded-to-nearest", U,
           "the confidence ball's certified radius (eq. (11)) rounded to nearest instead of up (below the true B about "
           "half the time, by < 5e-55 relative): caught by the independent checker (F_chi2,k(n (e^R - 1)) > confidence)",
           replace(f"{U}:confidence_radius_upper", _radius_rounded_to_nearest), ("rldp.audit.confidence-radius",)),
]


# issue 23 (ball-certs): the structured Rényi-ball certificate of GRR / subset selection with its pair entries built on
# the lightest `take` cells of s (and the heaviest `rest` of s') instead of the heaviest (lightest): entries proving
# the ratio for the wrong output sets. The checker lumps the right cells and rejects the GRR ball's certificate of
# rldp.audit.structured-p-and-ball.
def _lump_lightest(orig):
    def lump(row, n, heavy, A, B):
        return orig(row, n, not heavy, A, B)
    return lump


MUTANTS += [
    mutant("certificate.subsets-ball-lumps-lightest", "rldp_verify.certificates.audit",
           "the Rényi-ball certificate of GRR / subset selection built on the lightest cells of s (the heaviest of s') "
           "instead of the heaviest (lightest): caught by the independent checker (the lumped bound exceeds r)",
           wrap("rldp_verify.certificates.audit:_lump", _lump_lightest), _SP),
]


# issue 23 (interval-certs): the tail proof of Kairouz et al. (rldp_verify.topics.extremal.tail) with s = e^-eps taken
# at each box's midpoint instead of as a ball containing the whole box: the branch-and-bound then "proves" h_j > 0 on
# boxes where only the midpoint was evaluated. The claims' tails are true, so their verdicts stay VERIFIED; the
# checker evaluates each box as a whole and rejects the coarse boxes.
def _tail_at_midpoint(lo, hi):
    lo, hi = Fraction(lo), Fraction(hi)
    m = (lo + hi) / 2
    return flint.arb(flint.fmpq(m.numerator, m.denominator))


MUTANTS += [
    mutant("certificate.rr-tail-at-box-midpoints", "rldp_verify.topics.extremal.tail",
           "the RR tail proof's boxes of s = e^-eps evaluated at their midpoints instead of as a ball containing the "
           "box (h_j > 0 'proved' on boxes from one point): caught by the independent checker (interval certificates)",
           replace("rldp_verify.topics.extremal.tail:_interval", _tail_at_midpoint),
           ("kairouz.thm8.rr-optimal-kl-distinct-ratios", "kairouz.thm14.rr-optimal-mi",
            "kairouz.steps.s9-5.rr-dual-tail")),
]

# issue 23, the audit certificate forms for OpenDP's lattice noise ("lattice-laplace"), local hashing's witness
# seed ("seeded-grr" with hash_witness) and TreeHist ("product"), exercised by proofs/rldp/audit_certificate_noise.py;
# the first and third lower a printed ratio (lattice rounding, the fragment's factor forgotten), the second writes a
# seed that does not separate the inputs
def _lattice_eps_without_rounding(orig):
    def eps(self):
        orig(self)
        return (Fraction(self.upper) - Fraction(self.lower)) / Fraction(self.scale)   # OpenDP's map, no lattice
    return eps


def _hash_witness_seed_before(orig):
    def hash_witness(st):
        w = orig(st)
        if w is None or w["seed"] == 0:
            return w
        s = w["seed"] - 1                                   # the search's last seed before the separating one
        return {**w, "seed": s, "buckets": [int(st.hash_fn(x, s)) for x in w["inputs"]]}
    return hash_witness


def _treehist_upper_word_only(orig):
    def upper(self):
        from rldp_verify.structured.treehist import _rho

        orig(self)
        return _rho(self.word)                              # the fragment's factor rho_F forgotten
    return upper


_NOISE = ("rldp.audit.lattice-noise-and-hash-witness",)
MUTANTS += [
    mutant("certificate.lattice-eps-without-rounding", "rldp_verify.structured.noise",
           "float lattice Laplace noise's eps taken as (upper - lower) / scale, the rounding of the bounds to the 2^k "
           "lattice forgotten (k = 0, [0.2, 1.7], scale 1/2: 3 instead of 4)",
           wrap("rldp_verify.structured.noise:LatticeLaplace.eps", _lattice_eps_without_rounding), _NOISE),
    mutant("certificate.hash-witness-seed-before", "rldp_verify.certificates.audit_forms",
           "local hashing's witness written at the seed before the separating one (an off-by-one in the search), "
           "whose two buckets are equal",
           wrap("rldp_verify.certificates.audit_forms:hash_witness", _hash_witness_seed_before), _NOISE),
    mutant("certificate.treehist-upper-word-only", "rldp_verify.structured.treehist",
           "TreeHist's upper end taken as the word report's ratio rho_W alone (the fragment mixture's factor rho_F "
           "forgotten)",
           wrap("rldp_verify.structured.treehist:PrefixMixture.upper", _treehist_upper_word_only),
           ("rldp.audit.treehist-product",)),
]

# issue 23, the ``product`` form of composed protocols (any part form, released / secret mixtures, ``coordinates``),
# exercised by proofs/rldp/audit_certificate_composed.py: SPL's ratio with its last attribute's factor dropped, SFP's
# upper end with its fragment factor forgotten, SMP's ratio from its first attribute only, Hadamard response's against
# the mean level; each lowers a printed upper end below the product (SMP: the max) the checker derives; and TreeHist's
# prefix witness (GRR / unary parts) with x and x' swapped, below the printed lower end
def _spl_ratio_last_factor_dropped(orig):
    def ratio(self):
        orig(self)
        out = Fraction(1)
        for c in self.components[:-1]:                      # the last attribute's factor forgotten
            out *= c.ratio()
        return out
    return ratio


def _sfp_upper_word_only(orig):
    def upper(self):
        from rldp_verify.structured.sketch import _part_max

        orig(self)
        return _part_max(self.word)                         # the fragment's factor rho_F forgotten
    return upper


def _smp_ratio_first_attribute(orig):
    def ratio(self):
        orig(self)
        return self.components[0].ratio()                   # the max over the released attributes forgotten
    return ratio


def _hr_ratio_against_mean_level(orig):
    def ratio(self):
        orig(self)
        return self.hi / ((self.hi + self.lo) / 2)          # hi against the mean level, not against lo
    return ratio


def _treehist_prefix_witness_swapped(orig):
    def prefix_witness(st):
        w = orig(st)
        if w is None:
            return w
        return {**w, "parts": [{**p, **{k: p[k][::-1] for k in ("inputs", "buckets") if k in p}} for p in w["parts"]]}
    return prefix_witness


_COMPOSED = ("rldp.audit.composed-product-forms",)
MUTANTS += [
    mutant("certificate.spl-ratio-last-factor-dropped", "rldp_verify.structured.composite",
           "SPL's ratio taken over all attributes but the last (a factor of the product over attributes dropped)",
           wrap("rldp_verify.structured.composite:AttributeProduct.ratio", _spl_ratio_last_factor_dropped), _COMPOSED),
    mutant("certificate.sfp-upper-word-only", "rldp_verify.structured.sketch",
           "SFP's upper end taken as the word report's ratio alone (the released fragment report's factor forgotten)",
           wrap("rldp_verify.structured.sketch:ReleasedProduct.upper", _sfp_upper_word_only), _COMPOSED),
    mutant("certificate.smp-ratio-first-attribute", "rldp_verify.structured.channels",
           "SMP's ratio taken as its first attribute's (the max over the released attribute's channels forgotten)",
           wrap("rldp_verify.structured.channels:AttributeMixture.ratio", _smp_ratio_first_attribute), _COMPOSED),
    mutant("certificate.hr-ratio-against-mean-level", "rldp_verify.structured.composite",
           "Hadamard response's ratio taken as hi over the mean of the two levels (as if every output were half in "
           "both supports) instead of max(hi/lo, lo/hi)",
           wrap("rldp_verify.structured.composite:TwoLevel.ratio", _hr_ratio_against_mean_level), _COMPOSED),
    mutant("certificate.treehist-prefix-witness-swapped", "rldp_verify.certificates.audit_forms",
           "TreeHist over GRR / unary encoding: the lower end's witness written with x and x' swapped (its ratio read "
           "the wrong way: the inverse of the printed lower end)",
           wrap("rldp_verify.certificates.audit_forms:prefix_witness", _treehist_prefix_witness_swapped), _COMPOSED),
]

# issue 23 (proto-mfl), the eps-LDP audit certificate forms of multi-freq-ldpy's HE ("laplace-histogram"), RS+FD
# ("rsfd") and ordered SS ("ordered-subsets"), exercised by proofs/rldp/audit_certificate_mfl.py; each engine error
# lowers the printed upper end (HE: eps = 1/b; RS+FD: neighbouring tuples read as differing in one attribute only;
# ordered SS: the array read as a set), which the checker re-derives from the form
def _he_eps_factor_two_dropped(orig):
    def eps(self):
        orig(self)
        return 1 / Fraction(self.scale)                     # the factor 2 of |e_x - e_x'|_1 = 2 dropped
    return eps


def _rsfd_one_attribute_differs(orig):
    def _solve(self):
        from rldp_verify.structured.channels import max_ratio_of_sums

        orig(self)
        opts = [list(self._options(c)) for c in self.components]
        opts = [opts[0]] + [[e for e in o if e[0][0] == e[0][1]] for o in opts[1:]]   # t_j = t'_j beyond attribute 0
        return max_ratio_of_sums(opts, [self._weight(c) for c in self.components])
    return _solve


def _ordered_ss_read_as_set(orig):
    def ratio(self):
        from rldp_verify.structured.channels import _max

        orig(self)
        r = self._r()                                       # the unordered subsets' ratio: the order's leak forgotten
        return _max(r, None if r is None or r == 0 else 1 / r)
    return ratio


_MFL = ("rldp.audit.mfl-he-rsfd-ordered-ss",)
MUTANTS += [
    mutant("certificate.he-eps-factor-two-dropped", "rldp_verify.structured.channels",
           "histogram encoding's eps taken as 1/b instead of 2/b (the two coordinates where e_x and e_x' differ "
           "counted once)",
           wrap("rldp_verify.structured.channels:LaplaceHistogram.eps", _he_eps_factor_two_dropped), _MFL),
    mutant("certificate.rsfd-one-attribute-differs", "rldp_verify.structured.channels",
           "RS+FD's ratio of sums maximised over tuples that differ in the first attribute only (t_j = t'_j forced "
           "on the others: neighbouring tuples misread as differing in one attribute)",
           wrap("rldp_verify.structured.channels:FakeDataMixture._solve", _rsfd_one_attribute_differs), _MFL),
    mutant("certificate.ordered-ss-read-as-set", "rldp_verify.structured.channels",
           "subset selection's ordered array (the true value first) audited as the unordered set: max(r, 1/r) "
           "instead of inf",
           wrap("rldp_verify.structured.channels:SubsetSelection.ratio", _ordered_ss_read_as_set), _MFL),
]

# issue 23 (proto-hash), the eps-LDP audit certificate forms of pure-ldp's RAPPOR ("bloom"), private count sketch
# ("signed-sketch"), heavy hitters over histogram encoding ("laplace-reports") and local hashing over a compound seed
# (the Hadamard mechanism's rows), exercised by proofs/rldp/audit_certificate_hash.py; the first three lower the
# printed upper end below the bound the checker re-derives from the form, the fourth writes rows that do not separate


def _bloom_cold_side_dropped(orig):
    def _r(self):
        r1, _ = orig(self)
        return r1, Fraction(1)                              # the positions set under x' only forgotten
    return _r


def _signed_sketch_other_entry_dropped(orig):
    def _value(self, typ):
        if typ[0] == "same":
            return orig(self, typ)
        return self._r(typ[1], 0)                           # the entry at h_j(x') forgotten (r(0, s') dropped)
    return _value


def _laplace_reports_word_dropped(orig):
    def eps(self):
        orig(self)
        return 2 / Fraction(self.frag_scale)                # the word report's 2/b_W forgotten
    return eps


def _compound_witness_first_row_halved(orig):
    def compound_witness(st):
        w = orig(st)
        if w is None or not isinstance(w["seed"], list) or "images" in w:
            return w
        rows = [w["seed"][0] >> 1] + w["seed"][1:]          # an off-by-one in the row of the separating bit
        return {**w, "seed": rows, "buckets": [int(st.hash_fn(x, tuple(rows))) for x in w["inputs"]]}
    return compound_witness


_HASH = ("rldp.audit.hash-bloom-sketch-reports",)
MUTANTS += [
    mutant("certificate.bloom-cold-side-dropped", "rldp_verify.structured.composite",
           "the Bloom filter's pair ratio taken as r1^|S - T| only (the positions set under x' only, each worth "
           "r2 = max_b C(b)/H(b), forgotten)",
           wrap("rldp_verify.structured.composite:BloomProduct._r", _bloom_cold_side_dropped), _HASH),
    mutant("certificate.signed-sketch-other-entry-dropped", "rldp_verify.structured.sketch",
           "the signed sketch's ratio for two inputs at different positions taken as r(s, 0) (the other input's "
           "entry forgotten)",
           wrap("rldp_verify.structured.sketch:SignedSketch._value", _signed_sketch_other_entry_dropped), _HASH),
    mutant("certificate.laplace-reports-word-dropped", "rldp_verify.structured.sketch",
           "the two Laplace reports' eps taken as 2/b_F (the word report forgotten)",
           wrap("rldp_verify.structured.sketch:LaplaceReports.eps", _laplace_reports_word_dropped), _HASH),
    mutant("certificate.compound-witness-first-row-halved", "rldp_verify.certificates.audit_hash",
           "the Hadamard mechanism's witness written at the first row halved (an off-by-one in the separating bit), "
           "where the two inputs' sign tuples are equal",
           wrap("rldp_verify.certificates.audit_hash:compound_witness", _compound_witness_first_row_halved), _HASH),
]


# issue 23 (proto-more), the eps-LDP audit certificate forms of OpenDP's discrete Gaussian ("lattice-gaussian") and
# noisy max / top k ("noisy-max"), exercised by proofs/rldp/audit_certificate_more.py; each engine error prints a
# finite or too low upper end, which the checker re-derives from the form
def _gaussian_ratio_bounded(orig):
    def ratio(self):
        r = orig(self)
        g = self.params.get("lattice-gaussian")
        if r != math.inf or g is None:
            return r
        return Fraction(3) ** int(g["size"])                   # the unbounded Gaussian loss read as a bounded one
    return ratio


def _noisy_max_exponential_as_softmax(orig):
    def _probs(self, s):
        import dataclasses
        return orig(dataclasses.replace(self, noise="gumbel"), s)   # exponential noise's argmax law read as softmax
    return _probs


_MORE = ("rldp.audit.opendp-gaussian-noisy-max",)
MUTANTS += [
    mutant("certificate.gaussian-ratio-bounded", "rldp_verify.structured.noise",
           "discrete Gaussian noise's eps-LDP ratio taken as a finite constant (3 per coordinate) instead of inf (the "
           "log ratio at y, linear in y, read as bounded)",
           wrap("rldp_verify.structured.noise:UnboundedLoss.ratio", _gaussian_ratio_bounded), _MORE),
    mutant("certificate.noisy-max-exponential-as-softmax", "rldp_verify.structured.noise",
           "noisy max with exponential noise audited with the softmax law of Gumbel noise (permute-and-flip's law "
           "replaced: its ratio e^(1/b) instead of 2 e^(1/b) - 1 at two scores)",
           wrap("rldp_verify.structured.noise:NoisyArgmax._probs", _noisy_max_exponential_as_softmax), _MORE),
]


def _hash_p_cell_off_by_one(orig):
    def _hashing(st, P, a2):
        import dataclasses
        return orig(dataclasses.replace(st, hash_fn=lambda x, s, f=st.hash_fn: f(x + 1, s)), P, a2)
    return _hashing


MUTANTS += [
    mutant("certificate.hash-p-cell-off-by-one", "rldp_verify.structured.rldp",
           "local hashing's (eps, P) audit hashes cell x + 1 where it audits cell x (an off-by-one in the cell index "
           "s |U| + u): the printed lower end is a ratio of other buckets",
           wrap("rldp_verify.structured.rldp:_hashing", _hash_p_cell_off_by_one), _MORE),
]


# issue 23 (proto-more2), OpenDP's threshold releases ("threshold-release"), Hadamard response's FAIL ("two-level" with
# "hadamard_witness") and a unary encoding on a ball of radius inf ("simplex"), exercised by
# proofs/rldp/audit_certificate_more2.py; each engine error prints an end that the checker re-derives otherwise
def _threshold_ratio_bounded(orig):
    def ratio(self):
        r = orig(self)
        return Fraction(3) if "threshold-release" in self.params else r   # the key set's change ignored
    return ratio


def _hr_witness_output_swapped(orig):
    def hadamard_witness(st):
        w = orig(st)
        if w is None:
            return w
        S = [set(st.support(v)) for v in w["inputs"]]
        return {**w, "y": min(S[1] - S[0])}             # y taken in A(x') minus A(x): the inverse ratio
    return hadamard_witness


def _simplex_witness_one_secret(orig):
    def infinite_ball(res):
        fset, data, sizes = orig(res)
        if data.get("witness") is not None:                 # all the mass on secret 0: the ratio 1 at this witness
            data = {**data, "witness": [[("1" if s == u == 0 else "0") for u in range(sizes[1])]
                                        for s in range(sizes[0])]}
        return fset, data, sizes
    return infinite_ball


_MORE2 = ("rldp.audit.threshold-hadamard-simplex",)
MUTANTS += [
    mutant("certificate.threshold-ratio-bounded", "rldp_verify.structured.noise",
           "a threshold release's eps-LDP ratio taken as a finite constant (3) instead of inf (a key released under x "
           "and never under x' = {} ignored)",
           wrap("rldp_verify.structured.noise:UnboundedLoss.ratio", _threshold_ratio_bounded), _MORE2),
    mutant("certificate.hr-witness-output-swapped", "rldp_verify.certificates.audit_more2",
           "Hadamard response's witness output taken in the support of x' and not of x (its ratio lo/hi, the inverse "
           "of the printed lower end)",
           wrap("rldp_verify.certificates.audit_more2:hadamard_witness", _hr_witness_output_swapped), _MORE2),
    mutant("certificate.simplex-witness-one-secret", "rldp_verify.certificates.audit_more2",
           "a unary encoding on a ball of radius inf written with a witness holding one secret only (ratio 1, below "
           "the printed lower end)",
           wrap("rldp_verify.certificates.audit_more2:infinite_ball", _simplex_witness_one_secret), _MORE2),
]


# issue 23, the series kind: the Taylor builder states a misprinted coefficient's sign without deciding it (always
# "> 0"); (86)'s O(1) coefficient is certainly < 0, so the independent checker rejects the certificate
def _series_sign_undecided(orig):
    def coefficient_sign_certificate(name, f, j, *, at=0, prec=128):
        from rldp_verify.certificates.taylor import series_certificate

        return series_certificate(f"{name}: c_{j} > 0", f, [(j, 0, None)], at=at, strict=True, prec=prec)
    return coefficient_sign_certificate


MUTANTS += [
    mutant("certificate.series-sign-undecided", "rldp_verify.certificates.taylor",
           "the series builder states every refuting Taylor coefficient as > 0 without deciding its side",
           wrap("rldp_verify.certificates.taylor:coefficient_sign_certificate", _series_sign_undecided),
           ("kairouz.thm8.expansion-86",)),
]


# issue 23 (mfl2), RS+FD under {P} ("rsfd" with the set "distribution"), exercised by
# proofs/rldp/audit_certificate_mfl.py: UE-r's best set of ones of each size taken by P(.|s) alone (Dinkelbach's
# lambda P(.|s') left out of the order), so the engine prints a ratio below eq. (62)'s, which the checker re-derives
def _rsfd_p_ones_by_s_alone(orig):
    def _random_oracle(c, pi, pj, j):
        from rldp_verify.structured.rsfd import _h

        orig(c, pi, pj, j)
        h0, h1 = _h(c, "random")
        k, dh = c.d, h1 - h0
        w = [Fraction(k) / (n * h1 + (k - n) * h0) for n in range(k + 1)]

        def best(lam):
            order = sorted(range(k), key=lambda v: -dh * pi[v])          # the mistake: pi(.|s') not in the order
            n, a, b, top = 0, Fraction(0), Fraction(0), w[0] * h0 * (1 - lam)
            sa = sb = Fraction(0)
            for m, v in enumerate(order, 1):
                sa, sb = sa + pi[v], sb + pj[v]
                if (val := w[m] * (h0 * (1 - lam) + dh * (sa - lam * sb))) > top:
                    n, a, b, top = m, sa, sb, val
            return (w[n] * (h0 + dh * a), w[n] * (h0 + dh * b)), f"attribute {j}: {n} ones"
        return best
    return _random_oracle


MUTANTS += [
    mutant("certificate.rsfd-p-ones-by-s-alone", "rldp_verify.structured.rsfd",
           "RS+FD's (eps, P) audit picks UE-r's ones of each size by P(.|s) alone instead of by (h1 - h0)(P(v|s) - "
           "lambda P(v|s')), so Dinkelbach stops below eq. (62)'s ratio and the printed upper end is too low",
           wrap("rldp_verify.structured.rsfd:_random_oracle", _rsfd_p_ones_by_s_alone), _MFL),
]


# issue 23, local hashing on a Rényi ball ("seeded-grr", set renyi-ball), exercised by
# proofs/rldp/audit_certificate_structured.py (its "OLH ball"): the engine's upper end lowered to the witness's ratio
def _hashing_ball_upper_at_witness(orig):
    def hashing_ball_interval(st, ball, **kw):
        res = orig(st, ball, **kw)
        res.upper = res.lower                       # as if the best searched seed and witness were the supremum
        return res
    return hashing_ball_interval


MUTANTS += [
    mutant("certificate.seeded-grr-ball-upper-at-witness", "rldp_verify.structured.ball_hashing",
           "local hashing's Rényi-ball upper end taken as its witness's exact ratio (the best searched seed at one P "
           "in F) instead of max(a/b, b/a), which bounds every P",
           wrap("rldp_verify.structured.ball_hashing:hashing_ball_interval", _hashing_ball_upper_at_witness),
           ("rldp.audit.structured-p-and-ball",)),
]


# issue 23, local hashing's ``seed_table`` under {P} over a complete seed range, exercised by
# proofs/rldp/audit_certificate_structured.py (its "OLH complete"): the builder hashes the public index u alone
def _seed_table_hashes_u_only(orig):
    def seed_table(st, sizes):
        t = orig(st, sizes)
        a2 = int(sizes[1])
        return t if t is None else {**t, "buckets": [[int(st.hash_fn(x % a2, h)) for x in range(len(r))]
                                                     for h, r in zip(st.seeds, t["buckets"], strict=True)]}
    return seed_table


MUTANTS += [
    mutant("certificate.seed-table-hashes-u-only", "rldp_verify.certificates.audit_hash",
           "local hashing's seed table written with the bucket of the public index u instead of the input x = s |U| + "
           "u (every secret's cells sharing the same buckets): the checker's ratio differs from the printed exact one",
           wrap("rldp_verify.certificates.audit_hash:seed_table", _seed_table_hashes_u_only),
           ("rldp.audit.structured-p-and-ball",)),
]


def _he_ball_upper_from_phat(orig):
    def audit_laplace_rldp(model, target, shape, t0, **kw):
        res = orig(model, target, shape, t0, **kw)
        ball = kw.get("ball")
        if ball is not None and sum(1 for r in ball.phat if sum(r) > 0) < 2:   # P^'s ratio 1 taken for all of F
            from rldp_verify.rldp.audit import PASS

            res.ratio_upper, res.ratio_lower, res.verdict = Fraction(1), Fraction(1), PASS
        return res
    return audit_laplace_rldp


MUTANTS += [
    mutant("certificate.he-ball-upper-from-phat", "rldp_verify.structured.laplace_rldp",
           "the Laplace histogram's ratio on a Rényi ball taken from P^ (1 when P^ gives one secret positive mass) "
           "instead of e^(2/b) for every P in F (a P in F moving mass to a second secret attains it)",
           wrap("rldp_verify.structured.laplace_rldp:audit_laplace_rldp", _he_ball_upper_from_phat), _MFL),
]


# issue 23 (helper rest): the last limits and duals (rldp_verify/certificates/rest.py); each builder writes what it
# computed and the checker rejects it
def _robust_dual_point_half(orig):
    return lambda x, a0, gamma, a: [x[i] - gamma * (a[i] - a0[i]) for i in range(len(x))]


def _binary_inverse_off(orig):
    def inverse(B):
        M = orig(B)
        M[0][0] += Fraction(1, 10 ** 9)
        return M
    return inverse


MUTANTS += [
    mutant("certificate.robust-dual-point-half", "rldp_verify.certificates.rest",
           "ISIT Theorem 1's dual point written as v* = x - gamma (a* - a0) (the factor 2 of the gradient dropped): "
           "delta*(v*|A) - f_*(v*) no longer equals f(a*)",
           wrap("rldp_verify.certificates.rest:_dual_point", _robust_dual_point_half),
           ("isit.thm1.robust-counterpart",)),
    mutant("certificate.binary-dual-inverse-off", "rldp_verify.certificates.rest",
           "the binary mechanism's dual alpha = M mu_B with M = (S_B^T)^-1 off by 1e-9 in one entry: alpha no longer "
           "solves the basic equations S_B^T alpha = mu_B",
           wrap("rldp_verify.certificates.rest:_inverse_transpose", _binary_inverse_off),
           ("kairouz.thm12.binary-optimal-mi",)),
]
