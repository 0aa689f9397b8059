"""Exact probabilities of the events that LDP libraries' float samplers draw.

A float64 "uniform" in CPython (``random.random()``) and in NumPy's legacy generator (``np.random.random``,
``random_sample``, the uniforms inside ``choice``) is U = k / 2^53 with k uniform on {0, ..., 2^53 - 1}
(CPython ``random_random``: ``(a >> 5) * 67108864 + (b >> 6)) / 2^53``; NumPy ``mt19937_next_double``: the
same expression). A comparison of U with a float64 threshold c is therefore an event of exact probability

    Pr[U <  c] = clip(ceil(c 2^53), 0, 2^53) / 2^53          (:func:`prob_lt`)
    Pr[U <= c] = clip(floor(c 2^53) + 1, 0, 2^53) / 2^53     (:func:`prob_le`)

with c the exact binary rational of the float. NumPy's legacy ``binomial(1, p)`` (inversion, numpy
``random_binomial_inversion`` with n = 1, which the legacy generator calls for n p <= 30) is a rejection
loop on these uniforms: with t = min(p, 1 - p) (``q = 1.0 - p`` in float when p > 0.5), qq = fl(1 - t),
qn = fl(exp(log(qq))) and px = fl(fl(t qn) / qq), a draw returns 0 when U <= qn, 1 when qn < U and
fl(U - qn) <= px, and is repeated otherwise (:func:`prob_binomial1`). ``exp``/``log`` are the C library's,
which CPython's ``math`` module calls as well (glibc on Linux; stated in the model). Integer draws
(``random.randint``, NumPy's legacy ``randint`` and ``choice`` without ``p``, numba's ``randint``,
``permutation`` and ``choice``) are exactly uniform (rejection sampling on raw bits) and need no model.
numba's nopython ``np.random.random()`` is the same k / 2^53 (numba/cpython/randomimpl.py ``get_next_double``)
from numba's own Mersenne Twister state.
"""

from __future__ import annotations

import math
from fractions import Fraction

TWO53 = 2**53

__all__ = ["TWO53", "prob_lt", "prob_le", "prob_binomial1", "binomial1_runs", "numpy_choice_first", "ideal",
           "prob_choices_first"]


def _grid(c) -> Fraction:
    """c 2^53 exactly (c a float, read as its binary rational, or an exact Fraction)."""
    if isinstance(c, Fraction):
        return c * TWO53
    v = float(c)
    if not math.isfinite(v):
        raise ValueError(f"threshold {c!r} is not finite")
    return Fraction(v) * TWO53


def prob_lt(c: float) -> Fraction:
    """Pr[k / 2^53 < c] for k uniform on {0, ..., 2^53 - 1}: ceil(c 2^53) / 2^53, clipped to [0, 1]."""
    n = math.ceil(_grid(c))
    return Fraction(min(max(n, 0), TWO53), TWO53)


def prob_le(c: float) -> Fraction:
    """Pr[k / 2^53 <= c]: (floor(c 2^53) + 1) / 2^53, clipped to [0, 1] (0 when c < 0)."""
    g = _grid(c)
    if g < 0:
        return Fraction(0)
    return Fraction(min(math.floor(g) + 1, TWO53), TWO53)


def binomial1_runs(p: float, impl: str = "numpy") -> tuple[int, int, bool]:
    """(n0, n1, flipped) of ``binomial(1, p)``'s rejection loop: a uniform k / 2^53 with k < n0 gives the
    inversion result 0, n0 <= k < n0 + n1 gives 1, larger k a new draw; the result is 1 - (inversion result)
    when ``flipped`` (p > 0.5). ``impl``: "numpy" (legacy: qn = exp(log(1 - t))) or "numba" (qn = 1 - t)."""
    if impl not in ("numpy", "numba"):
        raise ValueError(f"unknown binomial implementation {impl!r}")
    p = float(p)
    flip = p > 0.5
    t = 1.0 - p if flip else p
    qq = 1.0 - t
    qn = math.exp(1 * math.log(qq)) if impl == "numpy" else qq
    px = (1 * t * qn) / (1 * qq)
    n0 = int(prob_le(qn) * TWO53)          # k / 2^53 <= qn
    # then qn < k / 2^53 and fl(k / 2^53 - qn) <= px; fl(u - qn) is nondecreasing in u: bisection on k
    if n0 >= TWO53 or not (n0 / TWO53 - qn) <= px:
        return n0, 0, flip
    a, b = n0, TWO53                      # predicate true at a, false at b (b is beyond the range)
    while b - a > 1:
        m = (a + b) // 2
        if (m / TWO53 - qn) <= px:
            a = m
        else:
            b = m
    return n0, a - n0 + 1, flip


def prob_binomial1(p: float, impl: str = "numpy") -> Fraction:
    """Pr[``binomial(1, p)`` == 1], exactly, for the float p: ``impl="numpy"`` for NumPy's legacy generator,
    ``"numba"`` for numba's nopython ``np.random.binomial`` (numba/np/random/legacy.py; p == 1 returns 1);
    n0 / (n0 + n1) from :func:`binomial1_runs`."""
    p = float(p)
    if impl not in ("numpy", "numba"):
        raise ValueError(f"unknown binomial implementation {impl!r}")
    if p <= 0.0:          # numpy and numba: p == 0 returns 0 (p < 0 is refused)
        return Fraction(0)
    if impl == "numba" and p == 1.0:
        return Fraction(1)
    n0, n1, flip = binomial1_runs(p, impl)
    x1 = Fraction(n1, n0 + n1)          # Pr[inversion returns 1 | accepted]
    return 1 - x1 if flip else x1


def numpy_choice_first(weights) -> float:
    """The float threshold of outcome 0 in NumPy's legacy ``choice(a, p=weights)``: ``cdf = p.cumsum();
    cdf /= cdf[-1]``; the draw is ``cdf.searchsorted(U, side='right')``, so outcome 0 is the event U < cdf[0]."""
    import numpy as np

    cdf = np.asarray(weights, dtype=float).cumsum()
    cdf /= cdf[-1]
    return float(cdf[0])


def ideal(p: float) -> Fraction:
    """The exact-Bernoulli model: Pr = p as the binary rational it is (what an ideal sampler would draw)."""
    return Fraction(float(p))


def prob_choices_first(weights) -> Fraction:
    """Pr[outcome 0] of CPython's ``random.choices(population, weights=weights)``: ``cum_weights`` are the float
    running sums, ``total = cum_weights[-1]``, and the draw is ``bisect_right(cum_weights, random() * total)``, so
    outcome 0 is the event fl(U total) < cum_weights[0] with U = k / 2^53; fl(U total) is nondecreasing in k, and the
    number of such k is found by bisection (exact, with the float products the code computes)."""
    import itertools

    cum = list(itertools.accumulate(float(w) for w in weights))
    total, c0 = cum[-1] + 0.0, cum[0]
    if not math.isfinite(total) or total <= 0:
        raise ValueError(f"weights {weights!r} do not sum to a positive finite number")
    if total == 1.0:
        return prob_lt(c0)
    lo, hi = 0, TWO53                 # predicate "(k / 2^53) * total < c0" true below lo's end, false at hi
    if not (0.0 * total) < c0:
        return Fraction(0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if (mid / TWO53) * total < c0:
            lo = mid
        else:
            hi = mid
    return Fraction(lo + 1, TWO53)
