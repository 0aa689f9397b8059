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
- :class:`VectorLaplace` -- vectors of n coordinates, each in [lower, upper] (OpenDP's ``vector_domain(atom_domain(
  bounds), size=n)`` with ``l1_distance``), each coordinate rounded to its lattice index (floats; integers are their
  own index, k = 0) and given independent discrete Laplace noise of scale s 2^-k. The ratio is the product of the
  coordinates' ratios, t^(sum_j |y_j - i_j| - |y_j - i'_j|) <= t^(-||i - i'||_1), attained at every output below
  lower in every coordinate; in the local model every two inputs are neighbours, so eps = max over inputs of
  ||i - i'||_1 2^k / s = n (i(upper) - i(lower)) 2^k / s exactly (the L1 diameter of the input box over the scale).
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

__all__ = ["LatticeLaplace", "VectorLaplace", "UnboundedLoss", "NoisyArgmax", "NoisyTopK", "permute_and_flip",
           "lattice_index", "lattice_text", "K_MIN_F64"]

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
class VectorLaplace(LaplaceHistogram):
    """Vectors of ``size`` coordinates in [lower, upper], each rounded to the 2^k lattice (integers: k = 0, no
    rounding) plus independent discrete Laplace noise of scale s 2^-k (OpenDP's ``make_laplace`` / ``make_geometric``
    on ``vector_domain(atom_domain(bounds=(lower, upper)), size=n)`` with ``l1_distance``). ``d`` is the number of
    lattice points of one coordinate (the inputs are the d^size points of the box)."""

    lower: float = 0
    upper: float = 1
    size: int = 1
    k: int = 0

    kind = ("vectors in a box plus independent discrete Laplace noise per coordinate (OpenDP's exact sampler), eps = "
            "size (i(upper) - i(lower)) 2^k / scale exactly (the L1 diameter of the inputs over the scale)")

    def _span(self) -> int:
        return lattice_index(self.upper, self.k) - lattice_index(self.lower, self.k)

    def eps(self) -> Fraction:
        """max over inputs x, x' of ||i(x) - i(x')||_1 2^k / scale = size (i(upper) - i(lower)) 2^k / scale."""
        return Fraction(self.size * self._span()) * Fraction(2) ** self.k / Fraction(self.scale)

    def witness(self) -> dict:
        """x = (upper, ..., upper), x' = (lower, ..., lower), any output below lower in every coordinate."""
        return {"x": f"({self.upper!r},) * {self.size}", "x_prime": f"({self.lower!r},) * {self.size}",
                "y": f"any output with every coordinate < {self.lower!r}"}


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


def permute_and_flip(v: list, scale) -> list:
    """Pr[i | v] = p_i int_0^1 prod_{j != i} (1 - p_j t) dt, p_j = e^((v_j - max v) / scale), for every index i of the
    exact scores v: the law of the argmax of v + i.i.d. exponential noise of scale ``scale``, which OpenDP samples as
    permute-and-flip (McKenna and Sheldon, NeurIPS 2020); arb balls at the current precision (the polynomial
    prod_{j != i} (1 - p_j t) integrated term by term; O(n^2) for all i)."""
    import flint

    from rldp_verify.core.rigorous import arb_exact

    b = arb_exact(Fraction(scale))
    top = max(v)
    p = [(arb_exact(x - top) / b).exp() for x in v]
    full = [flint.arb(1)]                      # prod_j (1 - p_j t), lowest degree first
    for pj in p:
        full = [*full, flint.arb(0)]
        full = [full[0]] + [full[m] - pj * full[m - 1] for m in range(1, len(full))]
    out = []
    for pi in p:
        # prod_{j != i} (1 - p_j t) = full / (1 - p_i t), divided from the lowest degree: q_m = c_m + p_i q_(m-1);
        # p_i <= 1, so the division does not amplify the balls' radii
        q = [full[0]]
        for m in range(1, len(full) - 1):
            q.append(full[m] + pi * q[-1])
        out.append(pi * sum((c / (m + 1) for m, c in enumerate(q)), flint.arb(0)))
    return out


@dataclass
class NoisyArgmax:
    """Report noisy max on a finite list of score vectors (the inputs), as OpenDP samples it exactly (noise of scale
    b added to each score, the index of the largest returned; ``negate``: of the smallest):

    - ``noise="exponential"`` (OpenDP's MaxDivergence): the law of the argmax is permute-and-flip's (Ding, Kifer,
      Sumner, Wang, Xiao, 2021; McKenna and Sheldon, NeurIPS 2020): with p_j = e^((s_j - s*) / b),
      Pr[i | s] = p_i int_0^1 prod_{j != i} (1 - p_j t) dt (a uniform arrival time for each index);
    - ``noise="gumbel"`` (ZeroConcentratedDivergence): Pr[i | s] = e^(s_i / b) / sum_j e^(s_j / b).

    Both laws give every index positive probability, so rho = max over inputs x, x' and indices i of
    Pr[i | x] / Pr[i | x'] is finite; the probabilities are irrational, so :meth:`ratio_bounds` gives a certified
    enclosure (arb balls), whose lower end is attained up to the ball's width."""

    inputs: list                 # score vectors, exact rationals, all of one length
    scale: float
    noise: str = "exponential"
    negate: bool = False
    params: dict = field(default_factory=dict)

    kind = "report noisy max on a finite list of score vectors (exact argmax law)"

    def _probs(self, s):
        from rldp_verify.core.rigorous import arb_exact

        b = arb_exact(Fraction(self.scale))
        v = [-x for x in s] if self.negate else list(s)
        if self.noise == "gumbel":
            w = [(arb_exact(x) / b).exp() for x in v]
            tot = sum(w[1:], w[0])
            return [x / tot for x in w]
        return permute_and_flip(v, self.scale)

    def _table(self, dps):
        from rldp_verify.core.rigorous import arb_precision

        with arb_precision(dps + 20):
            return [self._probs(s) for s in self.inputs]

    def ratio_bounds(self, dps):
        """(lower, upper) rationals enclosing rho, and the witness (x, x', i) of the largest lower end."""
        from rldp_verify.core.rigorous import arb_precision, lower, upper

        tab = self._table(dps)
        lo, hi, arg = Fraction(0), Fraction(0), (0, 0, 0)
        with arb_precision(dps + 20):
            for i in range(len(tab[0])):
                # max over x, x' of P(i|x) / P(i|x') = max_x P(i|x) / min_x P(i|x): one pass per output, the upper
                # end the largest upper end over the smallest lower end, the lower end that of the pair of the
                # largest lower end and the smallest upper end (attained by that pair)
                ends = [(lower(row[i]), upper(row[i])) for row in tab]
                if any(not e[0] > 0 for e in ends):
                    raise InputError("noisy max: a probability enclosure does not exclude 0; raise dps")
                x = max(range(len(ends)), key=lambda t: ends[t][0])
                xp = min(range(len(ends)), key=lambda t: ends[t][1])
                hi = max(hi, max(e[1] for e in ends) / min(e[0] for e in ends))
                if ends[x][0] / ends[xp][1] > lo:
                    lo, arg = ends[x][0] / ends[xp][1], (x, xp, i)
        return lo, hi, arg

    def witness(self) -> dict:
        """Inputs x, x' and the index i of the largest ratio."""
        x, xp, i = self.ratio_bounds(20)[2]
        return {"x": f"scores {list(map(str, self.inputs[x]))}", "x_prime": f"scores {list(map(str, self.inputs[xp]))}",
                "y": f"index {i}"}

    def dense(self):
        """Refused: the probabilities are irrational (certified enclosures only)."""
        raise InputError("noisy max has irrational output probabilities: no exact dense channel; audit it with --ldp")


@dataclass
class NoisyTopK(NoisyArgmax):
    """Noisy top k (OpenDP's ``make_noisy_top_k``), the ordered k indices of a finite list of score vectors:

    - ``noise="gumbel"`` (ZeroConcentratedDivergence: Gumbel noise of scale b on each score, the indices of the k
      largest returned in decreasing order of their noisy scores). Adding i.i.d. Gumbel noise and sorting gives the
      Plackett-Luce law (Yellott, J. Math. Psych. 1977; the Gumbel-top-k trick, Kool, van Hoof, Welling, ICML 2019):
      with w_j = e^(s_j / b),

          Pr[(i_1, ..., i_k) | s] = prod_{m=1..k} w_{i_m} / (sum_j w_j - sum_{l < m} w_{i_l});

    - ``noise="exponential"`` (MaxDivergence): OpenDP 0.16 does not sort one draw of exponential noise; it peels
      (rust/src/measurements/noisy_top_k, ``exponential_top_k`` -> ``peel_permute_and_flip``): k rounds of
      permute-and-flip with fresh randomness, each on the scores not yet selected. The law is the product of the
      rounds' argmax laws, each relative to the largest remaining score,

          Pr[(i_1, ..., i_k) | s] = prod_{m=1..k} PF(i_m | s restricted to [n] minus {i_1, ..., i_(m-1)})

      (:func:`permute_and_flip`). (Sorting one i.i.d. exponential draw gives another law, which OpenDP's sampler
      rejects in the tests.)

    Both are positive for every ordered k-tuple of distinct indices, so rho is finite; enclosed in arb as for
    noisy max."""

    k: int = 2

    kind = ("noisy top k on a finite list of score vectors (exact law: Plackett-Luce for Gumbel noise, peeled "
            "permute-and-flip for exponential noise)")

    def outputs(self) -> list:
        """The ordered k-tuples of distinct indices (the order of :meth:`_probs`)."""
        import itertools

        return list(itertools.permutations(range(len(self.inputs[0])), self.k))

    def _probs(self, s):
        from rldp_verify.core.rigorous import arb_exact

        v = [-x for x in s] if self.negate else list(s)
        if self.noise == "exponential":
            return self._peeled(v)
        if self.noise != "gumbel":
            raise InputError(f"noisy top k: noise = {self.noise!r} must be gumbel or exponential")
        b = arb_exact(Fraction(self.scale))
        w = [(arb_exact(x) / b).exp() for x in v]
        total = sum(w[1:], w[0])
        out = []
        for t in self.outputs():
            p, rest = arb_exact(Fraction(1)), total
            for i in t:
                p, rest = p * w[i] / rest, rest - w[i]
            out.append(p)
        return out

    def _peeled(self, v):
        """prod over the rounds of the permute-and-flip probability among the indices left (memoised per prefix)."""
        from rldp_verify.core.rigorous import arb_exact

        rounds: dict = {}

        def law(prefix):
            if prefix not in rounds:
                left = [j for j in range(len(v)) if j not in prefix]
                rounds[prefix] = dict(zip(left, permute_and_flip([v[j] for j in left], self.scale), strict=True))
            return rounds[prefix]

        out = []
        for t in self.outputs():
            p = arb_exact(Fraction(1))
            for m, i in enumerate(t):
                p = p * law(t[:m])[i]
            out.append(p)
        return out

    def witness(self) -> dict:
        """Inputs x, x' and the ordered k-tuple of the largest ratio."""
        x, xp, i = self.ratio_bounds(20)[2]
        return {"x": f"scores {list(map(str, self.inputs[x]))}", "x_prime": f"scores {list(map(str, self.inputs[xp]))}",
                "y": f"indices {list(self.outputs()[i])} (in decreasing noisy score)"}

    def dense(self):
        """Refused: the probabilities are irrational (certified enclosures only)."""
        raise InputError("noisy top k has irrational output probabilities: no exact dense channel; audit it with --ldp")
