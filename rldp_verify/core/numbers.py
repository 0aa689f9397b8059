"""Numbers: exact rationals, explicit float conversion, scoped high precision.

Contract (STYLE.md items 4-5):

- :func:`exact` accepts ``int``, :class:`fractions.Fraction`, sympy ``Rational`` and decimal or
  fraction strings ("0.07", "7/100", "1e-3"); it *refuses* floats. Exact code paths call it.
- :func:`from_float` converts a binary float to the rational it denotes exactly; converting a
  float is therefore always explicit.
- :func:`coerce` is the lenient boundary used by APIs that accept "numbers": exact inputs become
  ``Fraction``, floats stay floats (and must be finite).
- :func:`working_precision` scopes mpmath's decimal precision; no module sets a global precision.
  The default working precision is :data:`DEFAULT_DPS` decimal digits.
"""

from __future__ import annotations

import math
import numbers as _numbers
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Iterator

import mpmath

from rldp_verify.core.errors import InputError

DEFAULT_DPS = 50

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
    if isinstance(x, float) or isinstance(x, _numbers.Real):
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


def fraction_str(q: Fraction) -> str:
    """'p/q' (or 'p' when integral): the exact string form used in JSON files."""
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def mp_str(x: Any, digits: int = 20) -> str:
    """A decimal string of an mpf / Fraction / float with ``digits`` significant digits."""
    if isinstance(x, Fraction):
        with mpmath.workdps(digits + 5):
            return str(mpmath.nstr(to_mpf(x), digits))
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return str(mpmath.nstr(x, digits))
