"""Divergences between distributions on a finite alphabet.

Paper: [lopuhaa-2024] (RLDP), Sec. 3, eq. (7)/(23):

    D_alpha(P^ || P) = 1/(alpha-1) * log sum_x P^_x^alpha P_x^(1-alpha)     (alpha != 1)
    D_1(P^ || P)     = sum_x P^_x log(P^_x / P_x)                          (KL, the limit alpha -> 1)

and the chi-square divergence chi2(P1 || P2) = sum_x (P1_x - P2_x)^2 / P2_x, with D_2 = log(1 + chi2).

Conventions at zero probabilities (every alpha in (0, inf)):

- a term with P^_x = 0 contributes 0;
- a term with P^_x > 0 = P_x contributes +inf when alpha >= 1 and 0 when alpha < 1
  (P_x^(1-alpha) = 0); so for alpha < 1, D_alpha is finite unless the supports are disjoint
  (then the power sum is 0 and D_alpha = +inf).

Which way results may err:

- :func:`renyi_power_sum` and :func:`chi_square` are exact (Fractions) for exact inputs and integer
  alpha; otherwise they are mpmath values at the working precision (error ~ 10^-dps, either sign).
- :func:`renyi_divergence_arb` returns a rigorous arb enclosure.
- :func:`renyi_divergence_mp` (no validation, mpf at the current precision) errs by rounding only.

Every Rényi / KL value of the engine comes from this module (one loop, :func:`_terms`, applies the zero
conventions); the binary divergence of Sec. 4.2 and the audit's block divergences call
:func:`renyi_divergence_mp`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import flint
import mpmath

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, coerce, exact, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.validate import require_sum_one

INF = mpmath.inf


def _coerce(x: Any) -> Any:
    """Like :func:`rldp_verify.core.numbers.coerce`, but an mpmath mpf stays an mpf (no loss of precision)."""
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InputError(f"not a finite number: {x}")
        return x
    return coerce(x)


def validate_alpha(alpha: Any) -> Any:
    """alpha in (0, inf): exact inputs become Fractions, floats stay floats, mpf stay mpf."""
    a = _coerce(alpha)
    if not a > 0:
        raise InputError(f"alpha must be in (0, inf), got alpha={alpha}")
    return a


def validate_distribution(p: Sequence[Any], name: str = "distribution", *, tol: float | None = None) -> list[Any]:
    """Entries finite and >= 0, summing to 1 (exactly for Fractions; within ``tol`` for floats)."""
    vals = []
    for i, x in enumerate(p):
        try:
            v = _coerce(x)
        except (InputError, TypeError):
            raise InputError(f"{name}[{i}] = {x!r} is not a finite number") from None
        if v < 0:
            raise InputError(f"{name}[{i}] = {x} is negative")
        vals.append(v)
    if not vals:
        raise InputError(f"{name} is empty")
    total = sum(vals)
    if all(isinstance(v, Fraction) for v in vals):
        require_sum_one(total, name)
    elif abs(total - 1) > (1e-12 if tol is None else tol):
        require_sum_one(total, name, mpmath.nstr(total, 17), holds=False)
    return vals


def _pair(phat: Sequence[Any], p: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    phat = validate_distribution(phat, "phat")
    p = validate_distribution(p, "p")
    if len(phat) != len(p):
        raise InputError(f"phat has {len(phat)} entries but p has {len(p)}")
    return phat, p


def _is_int(alpha: Any) -> bool:
    return isinstance(alpha, Fraction) and alpha.denominator == 1


def _terms(phat: Sequence[Any], p: Sequence[Any], infinite_if_missing: bool,
           term: Callable[[Any, Any], Any]) -> list[Any] | None:
    """The terms ``term(a, b)`` over the cells with a = P^_x > 0, with the zero conventions of this module:
    a cell with P_x <= 0 is skipped, or makes the result +inf (returned as None) when
    ``infinite_if_missing`` (alpha >= 1). The one loop behind every Rényi / KL value of the engine."""
    out = []
    for a, b in zip(phat, p, strict=True):
        if a == 0:
            continue
        if b <= 0:
            if infinite_if_missing:
                return None
            continue
        out.append(term(a, b))
    return out


def _mp(x: Any) -> Any:
    """An mpf stays as it is (no re-rounding); anything else goes through :func:`to_mpf`."""
    return x if isinstance(x, mpmath.mpf) else to_mpf(x)


def _sum(terms: list[Any], zero: Any) -> Any:
    total = zero
    for t in terms:
        total += t
    return total


def _renyi_from_terms(phat: Sequence[Any], p: Sequence[Any], is_kl: bool, gt_one: bool,
                      kl_term: Callable[[Any, Any], Any], power_term: Callable[[Any, Any], Any],
                      log: Callable[[Any], Any], a_minus_1: Any, zero: Any) -> Any:
    """D_alpha(P^||P) in one number type (mpf or arb, through the term, log and zero given): KL when
    ``is_kl``, else log(sum power_term) / (alpha - 1). None stands for +inf (a missing cell at alpha >= 1, or
    a zero power sum). The one formula behind :func:`renyi_divergence_mp` and :func:`renyi_divergence_arb`."""
    if is_kl:
        terms = _terms(phat, p, True, kl_term)
        return None if terms is None else _sum(terms, zero)
    terms = _terms(phat, p, gt_one, power_term)
    if terms is None:
        return None
    total = _sum(terms, zero)
    if total == 0:
        return None
    return log(total) / a_minus_1


def renyi_divergence_mp(phat: Sequence[Any], p: Sequence[Any], alpha: Any) -> Any:
    """D_alpha(P^ || P) as an mpf at the *current* mpmath precision, without validating the inputs (the fast
    path for callers that hold mpf vectors, e.g. the audit). Zero conventions as in the module docstring
    (a cell with P_x <= 0 counts as P_x = 0); alpha = 1 is KL; +inf is ``mpmath.inf``. Errs by rounding only."""
    a = _mp(alpha)
    gt_one = a > 1  # pragma: no mutate - '>' and '>=' agree: at a = 1 the KL branch never reads gt_one
    d = _renyi_from_terms(phat, p, a == 1, gt_one,
                          lambda x, y: _mp(x) * mpmath.log(_mp(x) / _mp(y)),
                          lambda x, y: _mp(x) ** a * _mp(y) ** (1 - a),
                          mpmath.log, a - 1, mpmath.mpf(0))
    return INF if d is None else d


def renyi_power_sum(phat: Sequence[Any], p: Sequence[Any], alpha: Any) -> Any:
    """S_alpha = sum_x P^_x^alpha P_x^(1-alpha) with the zero conventions above (alpha != 1).

    Exact Fraction for exact inputs and integer alpha >= 2; otherwise an mpf (or mpmath.inf).
    """
    phat, p = _pair(phat, p)
    alpha = validate_alpha(alpha)
    if alpha == 1:
        raise InputError("the power sum is not defined at alpha = 1 (use kl_divergence)")
    exact_path = _is_int(alpha) and all(isinstance(v, Fraction) for v in phat + p)
    if exact_path:
        k = int(alpha)
        terms = _terms(phat, p, True, lambda a, b: a**k / b ** (k - 1))     # integer alpha >= 2 here
        return INF if terms is None else _sum(terms, Fraction(0))
    gt_one = alpha > 1  # pragma: no mutate - '>' and '>=' agree: alpha = 1 was refused above
    terms = _terms(phat, p, gt_one, lambda a, b: to_mpf(a) ** to_mpf(alpha) * to_mpf(b) ** (1 - to_mpf(alpha)))
    return INF if terms is None else _sum(terms, mpmath.mpf(0))


def kl_divergence(phat: Sequence[Any], p: Sequence[Any], *, dps: int | None = None) -> Any:
    """D_1(P^||P) = sum P^_x log(P^_x/P_x) (mpf; +inf when P^_x > 0 = P_x)."""
    phat, p = _pair(phat, p)
    with working_precision(dps):
        return +renyi_divergence_mp(phat, p, 1)


def renyi_divergence(phat: Sequence[Any], p: Sequence[Any], alpha: Any, *, dps: int | None = None) -> Any:
    """D_alpha(P^ || P) at ``dps`` digits (mpf, possibly mpmath.inf). alpha = 1 gives KL."""
    alpha = validate_alpha(alpha)
    if alpha == 1:
        return kl_divergence(phat, p, dps=dps)
    with working_precision(dps):
        s = renyi_power_sum(phat, p, alpha)
        if s == INF:
            return INF
        s = to_mpf(s)       # a Fraction (exact path) rounded once; an mpf of this precision is unchanged
        if s == 0:
            return INF
        return mpmath.log(s) / (to_mpf(alpha) - 1)


def renyi_divergence_arb(phat: Sequence[Any], p: Sequence[Any], alpha: Any, *, dps: int = DEFAULT_DPS) -> Any:
    """A rigorous arb enclosure of D_alpha(P^||P) for exact inputs (None when it is +inf)."""
    phat = [exact(v) for v in validate_distribution(phat, "phat")]
    p = [exact(v) for v in validate_distribution(p, "p")]
    alpha = exact(validate_alpha(alpha))
    with arb_precision(dps):
        a_ = arb_exact(alpha)
        gt_one = alpha > 1  # pragma: no mutate - '>' and '>=' agree: at alpha = 1 the KL branch never reads gt_one
        return _renyi_from_terms(phat, p, alpha == 1, gt_one,
                                 lambda x, y: arb_exact(x) * (arb_exact(x) / arb_exact(y)).log(),
                                 lambda x, y: arb_exact(x) ** a_ * arb_exact(y) ** (1 - a_),
                                 lambda t: t.log(), a_ - 1, flint.arb(0))


def chi_square_sum(p1: Sequence[Any], p2: Sequence[Any], zero: Any, inf: Any) -> Any:
    """sum_x (p1_x - p2_x)^2 / p2_x over cells with p2_x != 0, ``inf`` when p2_x = 0 != p1_x, without
    validation: the one chi-square loop (exact for exact entries, else in the entries' own type, starting
    from ``zero``). :func:`chi_square` and the chi-square ball's ``chi2_divergence`` (ISIT eq. (2)) call it."""
    total = zero
    for a, b in zip(p1, p2, strict=True):
        if b == 0:
            if a != 0:
                return inf
            continue
        total += (a - b) ** 2 / b
    return total


def chi_square(p1: Sequence[Any], p2: Sequence[Any]) -> Any:
    """chi2(P1||P2) = sum (P1_x - P2_x)^2 / P2_x (exact for exact inputs; inf when P2_x = 0 < P1_x).

    Validated distributions; exact Fraction for exact inputs, otherwise float (or mpf for mpf inputs),
    rounding either way. chi2 = e^{D_2} - 1 mathematically, but computed from the squared differences
    (no cancellation in S_2 - 1)."""
    p1, p2 = _pair(p1, p2)
    if all(isinstance(v, Fraction) for v in p1 + p2):
        return chi_square_sum(p1, p2, Fraction(0), INF)
    return chi_square_sum(p1, p2, 0.0, math.inf)
