"""Sound rounding of the privacy level e^eps and of the bounds L_{u|s}, rad_s.

Paper: [lopuhaa-2024], Sec. 5 (Definition 3, Theorem 2), Sec. 6 (eq. (56), Definition 4)
and Sec. 7 (Theorem 5).

e^eps and L_{u|s}(F) are usually irrational. Every mechanism here is built from rationals chosen in
the direction that only strengthens its guarantee:

- ``exp_eps`` is a rational r <= e^eps (certified in arb). Every constraint used here reads
  ``lhs <= e^eps * rhs`` with ``rhs >= 0``, so a mechanism that satisfies it with r satisfies it with
  e^eps: a mechanism built for r is eps-private (it is even log(r)-private).
- lower bounds L'_{u|s} <= L_{u|s}(F) (certified) enlarge D_s = {R : R_u >= L'_{u|s}}, which still
  contains F_{U|s}; Theorem 2 holds for any such D_s (App. A.4 uses only F_{U|s} subset D_s).
- upper bounds d_s >= rad_s(F) are exactly what Theorem 5 asks for.

Rounded values are floored/ceiled onto the grid 10^-digits so that exact arithmetic downstream
(vertex enumeration, LPs) stays small; the rounding is recorded in :class:`PrivacyLevel` and in the
mechanism's ``parameters``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, exact, fraction_str, parse_exact, read_eps, to_mpf
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper

DEFAULT_DIGITS = 12


def round_down(x: Fraction, digits: int = DEFAULT_DIGITS) -> Fraction:
    """The largest multiple of 10^-digits that is <= x (exact)."""
    x = exact(x)
    scale = 10**digits
    return Fraction(math.floor(x * scale), scale)


def round_up(x: Fraction, digits: int = DEFAULT_DIGITS) -> Fraction:
    """The smallest multiple of 10^-digits that is >= x (exact)."""
    x = exact(x)
    scale = 10**digits
    return Fraction(math.ceil(x * scale), scale)


@dataclass(frozen=True)
class PrivacyLevel:
    """The privacy parameter eps and the rational r <= e^eps a mechanism is built with.

    ``exp_eps`` is used in every exact construction; ``exact`` says whether r == e^eps.
    ``eps_lower`` = log(r) is then a rigorous statement: the mechanism is log(r)-private, and
    log(r) <= eps.
    """

    text: str
    exp_eps: Fraction
    exact: bool
    digits: int | None = None

    @property
    def eps_value(self) -> mpmath.mpf:
        """eps at the working precision (log of e^eps when e^eps was given)."""
        if self.exact:
            return mpmath.log(to_mpf(self.exp_eps))
        return to_mpf(_eps_of_text(self.text))

    def to_json(self) -> dict:
        """The ``eps`` record of a mechanism: the eps text, the exact e^eps used and how it was rounded."""
        # "exp_eps_exact" (was "exact"): whether e^eps itself was used; the mechanism JSON's top-level "exact" says
        # whether the matrix entries are exact rationals, a different thing (issue 29)
        out = {"eps": self.text, "exp_eps_used": fraction_str(self.exp_eps), "exp_eps_exact": self.exact}
        if not self.exact:
            out["rounding"] = (f"e^eps rounded down to a multiple of 10^-{self.digits}; the mechanism "
                               "satisfies its guarantee with this smaller value, hence with e^eps")
        return out


def _eps_of_text(text: str) -> Fraction:
    return parse_exact(text)


def privacy_level(eps, *, digits: int = DEFAULT_DIGITS, dps: int = DEFAULT_DPS) -> PrivacyLevel:
    """Read eps: a number (int, Fraction, decimal string) or the string ``log(r)`` / ``ln(r)`` with a
    rational r >= 1 (then e^eps = r exactly). A :class:`PrivacyLevel` is returned unchanged.

    For a rational eps > 0, e^eps is irrational; it is rounded down (certified with arb) to a
    multiple of 10^-digits, never below 1.
    """
    if isinstance(eps, PrivacyLevel):
        return eps
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 1:
        raise InputError(f"rounding digits must be a positive integer, got {digits!r}")
    v = read_eps(eps, float_reading="decimal")
    if v.exp_exact is not None:
        text = "0" if v.eps_exact == 0 else f"log({fraction_str(v.exp_exact)})"
        return PrivacyLevel(text, v.exp_exact, True)
    e = v.eps_exact
    assert e is not None    # read_eps gives eps exactly whenever e^eps is not exact
    with arb_precision(dps):
        lo = arb_lower(arb_exact(e).exp())
    r = max(Fraction(1), round_down(lo, digits))
    text = str(eps) if isinstance(eps, str) else fraction_str(e)
    return PrivacyLevel(text, r, False, digits)


def exp_eps_bracket(level: PrivacyLevel, *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals lo <= e^eps <= hi (lo == hi == e^eps when exact)."""
    if level.exact:
        return level.exp_eps, level.exp_eps
    with arb_precision(dps):
        x = arb_exact(_eps_of_text(level.text)).exp()
        return arb_lower(x), arb_upper(x)


def lower_bounds(ball, *, digits: int = DEFAULT_DIGITS, dps: int = DEFAULT_DPS) -> tuple[tuple[Fraction, ...], ...]:
    """A |S| x |U| table of rationals L'_{u|s} <= L_{u|s}(F) (certified, then floored to 10^-digits)."""
    from rldp_verify.core import progress

    a1, a2 = ball.sensitive_size, ball.public_size
    progress.step("certified lower bounds L_{u|s}(F)", a1 * a2, "cells")
    out = []
    for s in range(a1):
        row = []
        for u in range(a2):
            row.append(round_down(ball.lower_certified(u, s, dps=dps), digits))
            progress.update(s * a2 + u + 1)
        out.append(tuple(row))
    return tuple(out)


def rad_bounds(ball, *, digits: int = DEFAULT_DIGITS, dps: int = DEFAULT_DPS) -> tuple[Fraction, ...]:
    """Rationals d_s >= rad_s(F) (certified, then ceiled to 10^-digits; at most 2, since
    :meth:`~rldp_verify.rldp.uncertainty.RenyiBall.rad_certified` is at most 2 and 2 is on every grid)."""
    return tuple(round_up(ball.rad_certified(s, dps=dps), digits) for s in range(ball.sensitive_size))


def check_lower_table(lower, a1: int, a2: int) -> tuple[tuple[Fraction, ...], ...]:
    """Validate a given table of lower bounds: |S| x |U|, entries in [0, 1], rows summing to <= 1."""
    try:
        rows = [list(r) for r in lower]
    except TypeError:
        raise InputError(f"lower bounds must be a table, got {lower!r}") from None
    if len(rows) != a1 or any(len(r) != a2 for r in rows):
        raise InputError(f"lower bounds must be a {a1} x {a2} table, got {[len(r) for r in rows]}")
    out = []
    for s, r in enumerate(rows):
        vals = []
        for u, x in enumerate(r):
            try:
                v = exact(parse_exact(repr(x)) if isinstance(x, float) else x)
            except (InputError, TypeError):
                raise InputError(f"L[{s}][{u}] = {x!r} is not a number") from None
            if not 0 <= v <= 1:
                raise InputError(f"L[{s}][{u}] = {x!r} is not in [0, 1]")
            vals.append(v)
        if sum(vals) > 1:
            raise InputError(f"lower bounds of row {s} sum to {float(sum(vals))!r} > 1")
        out.append(tuple(vals))
    return tuple(out)


def exact_level(exp_eps) -> PrivacyLevel:
    """The privacy level with e^eps = ``exp_eps`` exactly (a rational >= 1), i.e. eps = log(exp_eps)."""
    r = exact(exp_eps)
    if r < 1:
        raise InputError(f"e^eps = {exp_eps} must be >= 1")
    return PrivacyLevel(f"log({fraction_str(r)})", r, True)
