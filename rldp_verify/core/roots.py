"""The one verified bracketing root finder of the engine.

:func:`root_increasing` finds the root of a monotone increasing function of one mpf variable: it brackets
the root by geometric expansion, then refines the bracket by Illinois regula falsi with bisection
safeguards. It never fails silently: when no sign change is found it raises :class:`RootNotBracketed`
(a :class:`~rldp_verify.core.errors.CertificationError`). Computations run at the caller's mpmath precision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mpmath

from rldp_verify.core.errors import CertificationError

__all__ = ["RootNotBracketed", "root_increasing"]


class RootNotBracketed(CertificationError):
    """No sign change of the function was found in the search interval."""


def root_increasing(f: Callable[[Any], Any], x0: Any, *, lo: Any = -mpmath.inf, hi: Any = mpmath.inf) -> Any:
    """A root of an increasing f (mpf; values may be -inf on the left) near x0, within [lo, hi].

    Brackets by geometric expansion from x0 (steps 1, 2, 4, ... at most 200 times), then runs Illinois
    regula falsi with a bisection step every 8th iteration (and whenever a value is infinite) until the
    bracket is 16 ulp wide relative, or 800 iterations. Raises :class:`RootNotBracketed` when no sign change
    is found in [lo, hi]: never a silent failure. The result lies in the final bracket [a, b] with
    f(a) <= 0 <= f(b); it errs by at most that width (no certification: callers re-check what they use)."""
    f0 = f(x0)
    if f0 == 0:
        return x0
    step = mpmath.mpf(1)
    a = b = x0
    fa = fb = f0
    for _ in range(200):
        if f0 < 0:
            b = b + step
            if b > hi:
                raise RootNotBracketed(f"f < 0 up to the upper limit {mpmath.nstr(hi, 5)}")
            fb = f(b)
            if fb >= 0:
                break
            a, fa = b, fb
        else:
            a = a - step
            if a < lo:
                raise RootNotBracketed(f"f > 0 down to the lower limit {mpmath.nstr(lo, 5)}")
            fa = f(a)
            if fa <= 0:
                break
            b, fb = a, fa
        step *= 2
    else:
        raise RootNotBracketed("no sign change after 200 expansions")
    if fa == 0:
        return a
    if fb == 0:
        return b
    side = 0
    for it in range(800):
        if b - a <= mpmath.eps * 16 * (1 + abs(a)):
            break
        if not (mpmath.isfinite(fa) and mpmath.isfinite(fb)) or it % 8 == 7:
            c = (a + b) / 2
        else:
            c = (a * fb - b * fa) / (fb - fa)
            if not (a < c < b):
                c = (a + b) / 2
        fc = f(c)
        if fc == 0:
            return c
        if fc < 0:
            a, fa = c, fc
            if side == -1 and mpmath.isfinite(fb):
                fb /= 2
            side = -1
        else:
            b, fb = c, fc
            if side == 1 and mpmath.isfinite(fa):
                fa /= 2
            side = 1
    return (a + b) / 2
