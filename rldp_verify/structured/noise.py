"""Additive noise on a lattice, as OpenDP samples it for float inputs (``make_laplace`` / ``make_gaussian`` on
``atom_domain(T=float)``, OpenDP >= 0.12, rust/src/measurements/noise/nature/float): the input x is rounded to the
index i(x) = floor(x 2^-k + 1/2) of the nearest multiple of 2^k (ties up), integer noise with scale s 2^-k is
added exactly (discrete Laplace / discrete Gaussian, Canonne, Kamath, Steinke 2020), and (i + Z) 2^k is returned as
a float (post-processing).

- :class:`LatticeLaplace` -- eps-LDP on the inputs [lower, upper]: the ratio t^(|y - i| - |y - i'|) (t = e^(-2^k / s))
  is at most e^((i(upper) - i(lower)) 2^k / s), attained at every lattice output y <= i(lower) and so at every float
  output below lower (the float rounding of (i + Z) 2^k merges lattice points that all have this ratio). eps =
  (i(upper) - i(lower)) 2^k / s exactly: a rational. A subclass of :class:`LaplaceHistogram`: the audit decides it
  through :meth:`eps`.
- :class:`UnboundedLoss` -- a mechanism whose privacy-loss ratio has no finite bound (Gaussian noise: the ratio
  exp(((y - i')^2 - (y - i)^2) / (2 s'^2)) grows without bound in y when i != i'; a threshold release: an output
  possible under one input and impossible under the other): rho = inf, or 1 when the mechanism does not depend on
  the input at all.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import INF, LaplaceHistogram

__all__ = ["LatticeLaplace", "UnboundedLoss", "lattice_index", "lattice_text", "K_MIN_F64"]

K_MIN_F64 = -1074            # 2^-1074: the spacing of float64's subnormals (OpenDP's default k for f64)


def lattice_index(x: float, k: int) -> int:
    """floor(x 2^-k + 1/2): the index of the nearest multiple of 2^k, ties rounded up (OpenDP's
    ``find_nearest_multiple_of_2k``: the largest argmin_i |i 2^k - x|)."""
    return math.floor(Fraction(x) / Fraction(2) ** k + Fraction(1, 2))


def lattice_text(lower: float, upper: float, k: int) -> str:
    """The lattice indices of the bounds, or (fine lattices, whose indices run to hundreds of digits) what they are."""
    if k < -64:
        return f"2^k = 2^{k}: the bounds are lattice points, indices lower 2^{-k} and upper 2^{-k}"
    return f"2^k = 2^{k}: lattice indices {lattice_index(lower, k)} and {lattice_index(upper, k)}"


@dataclass
class LatticeLaplace(LaplaceHistogram):
    """Float inputs in [lower, upper] rounded to the 2^k lattice, plus discrete Laplace noise of scale s 2^-k."""

    lower: float = 0.0
    upper: float = 1.0
    k: int = K_MIN_F64

    kind = ("float input rounded to the 2^k lattice plus discrete Laplace noise (OpenDP's exact sampler), eps = "
            "(i(upper) - i(lower)) 2^k / scale exactly")

    def _span(self) -> int:
        return lattice_index(self.upper, self.k) - lattice_index(self.lower, self.k)

    def eps(self) -> Fraction:
        """(i(upper) - i(lower)) 2^k / scale, exactly."""
        return Fraction(self._span()) * Fraction(2) ** self.k / Fraction(self.scale)

    def witness(self) -> dict:
        """x = upper, x' = lower, any output below lower."""
        return {"x": repr(self.upper), "x_prime": repr(self.lower),
                "y": f"any output y < {self.lower!r} ({lattice_text(self.lower, self.upper, self.k)})"}


@dataclass
class UnboundedLoss:
    """No finite eps: ``reason`` says why; ``constant`` when every input has the same output law (rho = 1)."""

    reason: str
    x: str
    x_prime: str
    y: str
    constant: bool = False
    params: dict = field(default_factory=dict)

    kind = "a mechanism without a finite eps-LDP bound (privacy loss unbounded in the output)"

    def ratio(self):
        """inf (1 when the output does not depend on the input)."""
        return Fraction(1) if self.constant else INF

    def witness(self) -> dict:
        """The two inputs and the outputs where the ratio grows without bound."""
        return {"x": self.x, "x_prime": self.x_prime, "y": self.y if not self.constant else "any output"}

    def dense(self):
        """Refused: the outputs are unbounded or continuous."""
        raise InputError(f"{self.reason}: no dense channel (unbounded outputs); audit it with --ldp")
