"""The audit's target e^eps, read from eps as given: exact when eps = log(r) with r rational (or eps = 0),
otherwise an arb enclosure; the certified comparisons of a ratio with it that decide the verdict."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rldp_verify.core.numbers import read_eps
from rldp_verify.core.rigorous import arb_exact, arb_precision

INF = math.inf


@dataclass(frozen=True)
class Target:
    """e^eps: exact when eps = log(r) with r rational (or eps = 0), otherwise an arb enclosure."""

    text: str
    exp_exact: Fraction | None
    eps_exact: Fraction | None

    def le(self, x, dps: int) -> bool:
        """Certainly x <= e^eps."""
        if x is None or x == INF:
            return False
        if self.exp_exact is not None:
            return Fraction(x) <= self.exp_exact
        x = Fraction(x)
        if x <= 1:  # eps >= 0
            return True
        with arb_precision(dps):
            e = arb_exact(self.eps_exact).exp()
            if e.is_finite():
                return bool(arb_exact(x) <= e)
            return bool(arb_exact(x).log() <= arb_exact(self.eps_exact))  # e^eps beyond arb's range

    def lt_strict(self, x, dps: int) -> bool:
        """Certainly e^eps < x."""
        if x is None:
            return False
        if x == INF:
            return True
        if self.exp_exact is not None:
            return Fraction(x) > self.exp_exact
        x = Fraction(x)
        if x <= 1:  # e^eps >= 1
            return False
        with arb_precision(dps):
            e = arb_exact(self.eps_exact).exp()
            if e.is_finite():
                return bool(arb_exact(x) > e)
            return bool(arb_exact(x).log() > arb_exact(self.eps_exact))


def parse_eps(eps) -> Target:
    """eps as a number (>= 0) or 'log(r)' / 'ln(r)' with rational r >= 1 (then e^eps = r exactly); a float is
    the rational it denotes (:func:`rldp_verify.core.numbers.read_eps`, the engine's one eps reader)."""
    v = read_eps(eps, float_reading="binary")
    if v.eps_exact is None:
        return Target(eps, v.exp_exact, None)
    return Target(str(eps), v.exp_exact, v.eps_exact)
