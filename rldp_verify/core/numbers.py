"""Numbers: exact rationals, explicit float conversion, scoped high precision.

Contract (STYLE.md items 4-5):

- :func:`exact` accepts ``int``, :class:`fractions.Fraction`, sympy ``Rational`` and decimal or
  fraction strings ("0.07", "7/100", "1e-3"); it *refuses* floats. Exact code paths call it.
- :func:`from_float` converts a binary float to the rational it denotes exactly; converting a
  float is therefore always explicit.
- :func:`coerce` is the lenient boundary used by APIs that accept "numbers": exact inputs become
  ``Fraction``, floats stay floats (and must be finite).
- :func:`read_eps` reads a privacy level eps from user input (a number, or ``log(r)`` / ``ln(r)``):
  the one eps parser of the engine (the audit and the mechanism builders call it).
- :func:`working_precision` scopes mpmath's decimal precision; no module sets a global precision.
  The default working precision is :data:`DEFAULT_DPS` decimal digits.
"""

from __future__ import annotations

import math
import numbers as _numbers
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import mpmath

from rldp_verify.core.errors import InputError

# Working precisions (decimal digits). Every default ``dps`` of the engine is one of these names.
DEFAULT_DPS = 50        # certified evaluations (arb enclosures, brackets, mpmath values that are re-checked)
REFERENCE_DPS = 30      # digits of a reference value (rldp-verify reference, rldp_verify.testing)
SEARCH_DPS = 30         # numerical searches whose result is certified afterwards (eq. (82)'s split, column
                        # generation, SRR's optimality bracket, the sampler audit)
SCREEN_DPS = 40         # interval screens with a fallback (the RR tail boxes, the structured audit's log bounds)

Exact = Fraction


def _is_sympy_rational(x: Any) -> bool:
    mod = type(x).__module__
    return mod.startswith("sympy") and bool(getattr(x, "is_Rational", False))


def parse_exact(text: str) -> Fraction:
    """Parse "0.07", "7/100", "-3", "1e-3" exactly; raise :class:`InputError` otherwise."""
    s = str(text).strip()
    if not s:
        raise InputError("empty number")
    try:
        if "/" in s:
            num, den = s.split("/", 1)
            q = Fraction(Decimal(num.strip())) / Fraction(Decimal(den.strip()))
            return q
        d = Decimal(s)
        if not d.is_finite():
            raise InputError(f"not a finite number: {s!r}")
        return Fraction(d)
    except (InvalidOperation, ValueError, ZeroDivisionError):
        raise InputError(f"not a number: {s!r}") from None


def exact(x: Any) -> Fraction:
    """Return ``x`` as a Fraction; floats are refused (use :func:`from_float`)."""
    if isinstance(x, bool):
        raise InputError(f"not a number: {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, str):
        return parse_exact(x)
    if _is_sympy_rational(x):
        return Fraction(int(x.p), int(x.q))
    if isinstance(x, Decimal):
        if not x.is_finite():
            raise InputError(f"not a finite number: {x!r}")
        return Fraction(x)
    if isinstance(x, _numbers.Integral):  # numpy integers
        return Fraction(int(x))
    if isinstance(x, (float, _numbers.Real)):
        raise TypeError(
            f"exact code refuses the float {x!r}; convert explicitly with from_float() "
            "or pass a string such as '0.07'"
        )
    raise InputError(f"not a number: {x!r}")


def from_float(x: float) -> Fraction:
    """The rational number a binary float denotes, exactly (0.1 -> 3602879701896397/2**55)."""
    x = float(x)
    if not math.isfinite(x):
        raise InputError(f"not a finite number: {x!r}")
    return Fraction(x)


def coerce(x: Any) -> Fraction | float:
    """Boundary conversion: exact inputs -> Fraction, floats -> finite float."""
    if isinstance(x, bool):
        raise InputError(f"not a number: {x!r}")
    if isinstance(x, float) or (isinstance(x, _numbers.Real) and not isinstance(x, _numbers.Rational)
                                and not _is_sympy_rational(x) and not isinstance(x, Decimal)):
        xf = float(x)
        if not math.isfinite(xf):
            raise InputError(f"not a finite number: {x!r}")
        return xf
    return exact(x)


@dataclass(frozen=True)
class EpsValue:
    """A privacy level as read by :func:`read_eps`, exactly: ``exp_exact`` is e^eps when it is rational
    (eps = log(r) with r rational, or eps = 0), else None; ``eps_exact`` is eps when eps is rational (None for
    the form log(r))."""

    exp_exact: Fraction | None
    eps_exact: Fraction | None


def read_eps(eps: Any, *, float_reading: str = "binary") -> EpsValue:
    """Read eps >= 0: a number (int, Fraction, decimal or p/q string, sympy Rational, float) or the string
    ``log(r)`` / ``ln(r)`` (any case, spaces ignored) with a rational r >= 1, when e^eps = r exactly.

    A float is read as the rational it denotes (``float_reading="binary"``, :func:`from_float`: what the
    auditor checks) or as its shortest decimal repr (``"decimal"``, 0.1 -> 1/10: what a mechanism builder
    rounds e^eps down from). Nothing is rounded here. Raises :class:`InputError` naming the bad value
    (bool, None, not a number, not finite, negative, log(r) with r < 1).
    """
    if float_reading not in ("binary", "decimal"):
        raise ValueError(f"float_reading must be 'binary' or 'decimal', got {float_reading!r}")
    if isinstance(eps, bool) or eps is None:
        raise InputError(f"eps = {eps!r} is not a number")
    if isinstance(eps, str):
        t = eps.strip().lower().replace(" ", "")
        if t.lstrip("+-") in ("inf", "infinity"):
            raise InputError(f"eps = {eps!r} is not allowed: eps must be finite (a number >= 0, or log(r) with r >= 1)")
        for pre in ("log(", "ln("):
            if t.startswith(pre) and t.endswith(")"):
                inner = t[len(pre):-1]
                try:
                    r = parse_exact(inner)
                except InputError:
                    raise InputError(f"eps = {eps!r}: {inner!r} is not a rational number") from None
                if r < 1:
                    raise InputError(f"eps = {eps!r} is negative (need r >= 1 in log(r))")
                return EpsValue(r, None)
        try:
            e = parse_exact(t)
        except InputError:
            raise InputError(f"eps = {eps!r} is not a number") from None
    else:
        if isinstance(eps, float) and not math.isfinite(eps):
            raise InputError(f"eps = {eps!r} is not finite")
        try:
            v = coerce(eps)
        except (InputError, TypeError):
            raise InputError(f"eps = {eps!r} is not a number") from None
        e = (from_float(v) if float_reading == "binary" else parse_exact(repr(float(v)))) if isinstance(v, float) else v
    if e < 0:
        raise InputError(f"eps = {eps} is negative")
    if e == 0:
        return EpsValue(Fraction(1), Fraction(0))
    return EpsValue(None, e)


def check_exp_eps(t: Any, name: str = "t = e^eps") -> Fraction:
    """A privacy level given as t = e^eps (or PRAM's e^alpha), exact (floats refused, :func:`exact`) and
    >= 1, i.e. eps >= 0; raises :class:`InputError` naming ``name`` and the value otherwise."""
    q = exact(t)
    if q < 1:
        raise InputError(f"{name} must be >= 1, got {q}")
    return q


def as_list(x: Any, name: str, kind: str = "sequence of numbers") -> list[Any]:
    """``list(x)`` for a non-empty sequence; :class:`InputError` naming ``name`` when ``x`` is not iterable
    or empty (entries are not checked: the caller reads them)."""
    try:
        items = list(x)
    except TypeError:
        raise InputError(f"{name} = {x!r} is not a {kind}") from None
    if not items:
        raise InputError(f"{name} is empty")
    return items


def check_table(rows: Any, name: str) -> list[list[Any]]:
    """``rows`` as a list of lists: non-empty, rows of equal length, every entry >= 0 (entries already
    numbers); raises :class:`InputError` naming ``name``, the row or the cell otherwise. The one shape and
    sign check of a probability / bound table (the uncertainty set's P^, Definition 3's L_{u|s})."""
    try:
        out = [list(r) for r in rows]
    except TypeError:
        raise InputError(f"{name} must be a table (rows of numbers), got {rows!r}") from None
    if not out or not out[0]:
        raise InputError(f"{name} is empty")
    width = len(out[0])
    for i, r in enumerate(out):
        if len(r) != width:
            raise InputError(f"{name} row {i} has {len(r)} entries, row 0 has {width}")
        for j, v in enumerate(r):
            if v < 0:
                raise InputError(f"{name}[{i}][{j}] = {v} is negative")
    return out


def is_exact(x: Any) -> bool:
    """True for ``int`` (not ``bool``) and :class:`Fraction`: the exact number types."""
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


def to_mpf(x: Any) -> Any:
    """Convert to an mpmath number at the current working precision (Fractions exactly rounded)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, str):
        return to_mpf(parse_exact(x))
    if _is_sympy_rational(x):
        return mpmath.mpf(int(x.p)) / int(x.q)
    return mpmath.mpf(x)


@contextmanager
def working_precision(dps: int | None = None) -> Iterator[int]:
    """Scope mpmath's precision to ``dps`` decimal digits (default :data:`DEFAULT_DPS`)."""
    dps = DEFAULT_DPS if dps is None else int(dps)
    if dps < 5:
        raise InputError(f"precision must be at least 5 digits, got dps={dps}")
    with mpmath.workdps(dps):
        yield dps


def extended_ratio(a: Any, b: Any) -> Any:
    """a / b with the conventions of [goseling-2021] eq. (32): 0/0 = 1 and x/0 = +inf for x > 0
    (exact for exact a, b >= 0)."""
    if b == 0:
        return Fraction(1) if a == 0 else math.inf
    return a / b


def fraction_str(q: Fraction) -> str:
    """'p/q' (or 'p' when integral): the exact string form used in JSON files."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def sum_str(total: Any) -> str:
    """A sum for a message saying it is not 1, short and exact enough to see why: exact when ``p/q`` is short
    (``5/6``), ``1 + 1.0e-300`` when it is 1 up to a tiny difference (a float would print 1.0), 17 significant
    digits otherwise (``1.0e+400`` rather than a 401-digit integer)."""
    if isinstance(total, (Fraction, int)):
        q = Fraction(total)
        if len(fraction_str(q)) <= 24:  # short: exact ('5/6', '10001/10000')
            return fraction_str(q)
        d = q - 1
        with mpmath.workdps(30):
            if d != 0 and abs(d) < Fraction(1, 10**6):
                return f"1 {'+' if d > 0 else '-'} {mpmath.nstr(mpmath.mpf(abs(d.numerator)) / abs(d.denominator), 3)}"
            return str(mpmath.nstr(mpmath.mpf(q.numerator) / q.denominator, 17))
    return repr(total)


def decimals(printed: str) -> int:
    """The number of digits after the decimal point of a printed value (ValueError for scientific notation)."""
    s = printed.strip().lstrip("+-")
    if "e" in s.lower():
        raise ValueError(f"scientific notation not supported for printed values: {printed!r}")
    return len(s.split(".", 1)[1]) if "." in s else 0
