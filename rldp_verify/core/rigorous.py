"""Certified enclosures with python-flint's arb balls.

An :class:`flint.arb` is a ball [m - r, m + r] guaranteed to contain the true value of every
operation applied to it. Everything that *certifies* privacy goes through here: a bound is
"certified" when the whole ball lies on the right side.

Precision is scoped with :func:`arb_precision` (bits); nothing sets flint's global precision.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import flint

from rldp_verify.core.numbers import exact


def dps_to_bits(dps: int) -> int:
    """Binary precision for ``dps`` decimal digits, with 16 guard bits."""
    return int(dps * 3.3219280948873626) + 16


@contextmanager
def arb_precision(dps: int) -> Iterator[int]:
    """Scope flint's working precision to (about) ``dps`` decimal digits plus guard bits."""
    bits = dps_to_bits(dps)
    with flint.ctx.workprec(bits):
        yield bits


def arb_exact(q: Any) -> flint.arb:
    """A ball containing the rational ``q`` (exact input only)."""
    q = exact(q)
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def as_arb(x: Any) -> flint.arb:
    """``x`` as an arb ball: a ball is returned unchanged; an int, Fraction or float becomes the exact point
    ball of the rational it denotes (a float's exact binary value, as ``Fraction(x)``; no rounding at all)."""
    if isinstance(x, flint.arb):
        return x
    q = Fraction(x)
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def upper(x: flint.arb) -> Fraction:
    """A rational number >= every point of the ball (rounded up)."""
    return _arf_to_fraction(x.upper(), down=False)


def lower(x: flint.arb) -> Fraction:
    """A rational number <= every point of the ball (rounded down)."""
    return _arf_to_fraction(x.lower(), down=True)


# Magnitudes beyond these are not turned into exact fractions (exp(-1e12) would need a 10^11-digit
# denominator): tiny values are rounded outward to 0 or +-2^-TINY_BITS, the direction that keeps the bound.
TINY_BITS = 4096
HUGE_BITS = 1 << 20


def _arf_to_fraction(a: Any, *, down: bool | None = None) -> Fraction:
    # arb.upper()/lower() return exact arbs (radius 0) whose midpoint is a dyadic rational.
    m = flint.arb(a).mid()
    man_f, exp_f = m.man_exp()
    man, exp = int(man_f), int(exp_f)
    if man != 0 and down is not None:
        mag = exp + abs(man).bit_length()  # |value| < 2^mag
        if mag < -TINY_BITS:
            if down:
                return Fraction(0) if man > 0 else Fraction(-1, 2**TINY_BITS)
            return Fraction(1, 2**TINY_BITS) if man > 0 else Fraction(0)
        if mag > HUGE_BITS:
            from rldp_verify.core.errors import CertificationError

            raise CertificationError(f"a certified bound of magnitude 2^{mag} is too large to represent exactly")
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))

