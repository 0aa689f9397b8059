"""PolyOpt and NR for large |X| (no enumeration of Gamma-hat): the public constructors.

Paper: [lopuhaa-2024], Sec. 5 (Theorems 2-3, LP (46)) and Sec. 8 (NR).  The solver is
:func:`rldp_verify.rldp.mechanisms.polyopt_cg.solve_lp46_cg`; the mechanism's rows lie in Gamma_eps
exactly (checked in rationals), so its guarantee follows from Theorem 2 (PolyOpt: (eps, F)-RLDP for the
certified lower bounds L' <= L_{u|s}(F); NR: (eps, {P-hat})-RLDP) whatever the optimisation did.
``parameters.optimum_bracket`` = [lower, upper] brackets the optimum of LP (46): lower is the certified
utility of the returned mechanism, upper a certified dual bound (see polyopt_cg).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, fraction_str
from rldp_verify.rldp.mechanisms._common import build, fstr_table, labels_for, phat_table
from rldp_verify.rldp.mechanisms.cg_cone import nr_cone, polyopt_cone
from rldp_verify.rldp.mechanisms.polyopt_cg import CGResult, solve_lp46_cg
from rldp_verify.rldp.mechanisms.rounding import DEFAULT_DIGITS, check_lower_table, lower_bounds, privacy_level

DEFAULT_TIME_LIMIT = 600.0
DEFAULT_REL_GAP = 1e-4
#: the master (see :func:`rldp_verify.rldp.mechanisms.polyopt_cg.solve_lp46_cg`): the per-block relaxation of the
#: coupling in t and a coupling of its marginals (:mod:`lagrangian`), then the proximal bundle if needed.  Measured on
#: Adult occupation x education (|X| = 224, eps = 1): certified relative width 1.4e-5 in 21 s, where the bundle alone
#: had 2.1e-2 and Wentges smoothing 0.38 after 600 s (reports/benchmarks/polyopt_large_adult.json, every row).
#: NR takes the same master: on the nine Adult NR rows it meets 1e-4 in 428 s of solver time in all, against 771 s
#: with Wentges smoothing (NR's default until 2026-11-26); slower on two rows by a few seconds (occupation x
#: education eps 2: 198 s against 194 s; relationship x education eps 2: 4.2 s against 3.7 s), much faster where
#: Wentges was slow (eps 2 with '?' kept: 178 s against 328 s; eps 0.5 and 1: 5-12 s against 5-80 s).
#: (The master's first version, one coupling and no mix at a kink, had tied with Wentges: 779 s.)
DEFAULT_STABILISATION = "lagrangian"
NR_STABILISATION = DEFAULT_STABILISATION


def _params(res: CGResult, extra: dict) -> dict:
    return {
        "route": "column generation (no enumeration of Gamma-hat)",
        "method": res.method,
        "optimum_bracket": [fraction_str(res.lower), fraction_str(res.upper)],
        "optimum_gap": float(res.gap),
        "optimum_relative_width": res.relative_width,
        "dual_bound_vector": [repr(float(t)) for t in res.dual],
        "iterations": res.iterations,
        "columns": res.columns,
        "certificate_leaves": res.certificate_leaves,
        "seconds": round(res.seconds, 3),
        "bracket_history": [[t, lo, hi] for t, lo, hi in res.history],
        **extra,
    }


def polyopt_cg_from_bounds(phat, lower, eps, *, sensitive=None, public=None, name: str = "PolyOpt",
                           guarantee: str | None = None, extra: dict | None = None, rel_gap: float = DEFAULT_REL_GAP,
                           time_limit: float = DEFAULT_TIME_LIMIT, init_columns=(), dps: int = DEFAULT_DPS,
                           digits: int = DEFAULT_DIGITS, notes=(), checkpoints=(),
                           max_iterations: int | None = None, stabilisation: str = DEFAULT_STABILISATION):
    """PolyOpt (Definition 3 as printed, pairs s1 = s2 included) for the rational lower bounds ``lower``
    by column generation.  Returns (Mechanism, CGResult).  ``max_iterations`` (with ``time_limit=math.inf``):
    a stop that does not depend on the machine's speed (see :func:`solve_lp46_cg`)."""
    table = phat_table(phat)
    S, U = labels_for(table, sensitive, public)
    level = privacy_level(eps, digits=digits, dps=dps)
    L = check_lower_table(lower, len(S), len(U))
    cone = polyopt_cone(L, level.exp_eps)
    p = [v for r in table for v in r]
    res = solve_lp46_cg(cone, p, rel_gap=rel_gap, time_limit=time_limit, init_columns=init_columns, dps=dps,
                        checkpoints=checkpoints, max_iterations=max_iterations, stabilisation=stabilisation)
    g = guarantee or "(eps, F)-RLDP for every F with F_{U|s} in D_s = {R : R_u >= L_{u|s}} (Theorem 2)"
    params = {"include_same_s": True, "lower_bounds": fstr_table(L), **_params(res, extra or {})}
    Y = [f"y{i + 1}" for i in range(len(res.rows))]
    mech = build(res.rows, S, U, Y, name=name, level=level, guarantee=g, parameters=params, phat=table, notes=notes,
                 dps=dps)
    return mech, res


def polyopt_cg(ball, eps, *, sensitive=None, public=None, rel_gap: float = DEFAULT_REL_GAP,
               time_limit: float = DEFAULT_TIME_LIMIT, dps: int = DEFAULT_DPS, digits: int = DEFAULT_DIGITS,
               stabilisation: str = DEFAULT_STABILISATION):
    """PolyOpt for the Rényi ball ``ball`` by column generation (certified L' <= L_{u|s}(F) floored to
    10^-digits, e^eps rounded down): the large-|X| counterpart of
    :func:`rldp_verify.rldp.mechanisms.polyopt.polyopt`."""
    from rldp_verify.rldp.uncertainty import RenyiBall

    if not isinstance(ball, RenyiBall):
        raise InputError(f"PolyOpt needs a RenyiBall (the uncertainty set F), got {type(ball).__name__}")
    L = lower_bounds(ball, digits=digits, dps=dps)
    extra = {"alpha": fraction_str(ball.alpha), "radius_upper": str(ball.radius), "radius_provenance": ball.provenance,
             "lower_rounding": f"L'_{{u|s}} <= L_{{u|s}}(F): certified lower bound floored to 10^-{digits}"}
    g = ("(eps, F)-RLDP, F the Rényi ball of order alpha and radius <= radius_upper around P-hat (Theorem 2)")
    mech, _ = polyopt_cg_from_bounds(ball.phat, L, eps, sensitive=sensitive, public=public, guarantee=g, extra=extra,
                                     rel_gap=rel_gap, time_limit=time_limit, dps=dps, digits=digits,
                                     stabilisation=stabilisation)
    return mech


def nonrobust_cg(phat, eps, *, sensitive=None, public=None, rel_gap: float = DEFAULT_REL_GAP,
                 time_limit: float = DEFAULT_TIME_LIMIT, init_columns=(), dps: int = DEFAULT_DPS,
                 digits: int = DEFAULT_DIGITS, checkpoints=(), max_iterations: int | None = None,
                 stabilisation: str = NR_STABILISATION):
    """NR (Theorem 3 with F = {P-hat}) by column generation.  Inputs x with P-hat_x = 0 take the
    uniform distribution over the outputs (they enter neither the constraints nor the utility).
    Returns (Mechanism, CGResult); ``max_iterations`` as in :func:`polyopt_cg_from_bounds`."""
    table = phat_table(phat)
    S, U = labels_for(table, sensitive, public)
    level = privacy_level(eps, digits=digits, dps=dps)
    cone = nr_cone(table, level.exp_eps)
    p = [Fraction(v) for r in table for v in r]
    res = solve_lp46_cg(cone, p, rel_gap=rel_gap, time_limit=time_limit, init_columns=init_columns, dps=dps,
                        checkpoints=checkpoints, max_iterations=max_iterations, stabilisation=stabilisation)
    params = {"include_same_s": False, "free_inputs": list(cone.free), **_params(res, {})}
    Y = [f"y{i + 1}" for i in range(len(res.rows))]
    mech = build(res.rows, S, U, Y, name="NR", level=level, parameters=params, phat=table,
                 guarantee="(eps, {P-hat})-RLDP only (no robustness); LP (46) optimum bracketed "
                           "(Theorem 3 with F = {P-hat})",
                 dps=dps)
    return mech, res
