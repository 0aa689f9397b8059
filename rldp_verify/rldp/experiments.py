"""Helpers for experiment-style checks (synthetic data, float utilities, quantile summaries).

Paper: [lopuhaa-2024], Sec. 8 (experiments): P* drawn from a symmetric Dirichlet prior
(Sec. 8.2: the Jeffreys prior, concentration 1/2), n samples drawn from P*, the maximum-likelihood
estimate P-hat_x = count_x / n (Sec. 3), NMI = I_{P-hat}(X;Y) / H(X) (Sec. 8), and the realised
privacy parameter eps* (Sec. 8.3, eq. (62); computed exactly by
:func:`rldp_verify.rldp.mechanisms.realized_eps`).

These helpers serve *statistical* statements (averages and quantiles over random instances). The
float routines below are plain IEEE double computations; each docstring says which way it may err.
Nothing here certifies privacy: the mechanisms whose privacy matters are built by the exact engine
(:mod:`rldp_verify.rldp.mechanisms`).

- :func:`exact_distribution` — float weights -> exact Fractions summing to exactly 1.
- :func:`draw_dirichlet`, :func:`sample_counts` — one synthetic instance (P*, counts).
- I_P(X;Y), H(X) and the NMI in double precision live with the exact ones in
  :mod:`rldp_verify.core.information` (``mutual_information_float``, ``entropy_float``, ``nmi_float``).
- :func:`ir_split_search` — eq. (82) (the IR budget split) maximised numerically in double precision.
- :func:`quantile` (inf-safe) and :func:`quantile_summary` — a quantile of each batch and its spread over
  batches.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mutual_information_float
from rldp_verify.rldp.mechanisms.ir import ir_matrix_float as ir_float_matrix


def exact_distribution(weights: Sequence[float]) -> tuple[Fraction, ...]:
    """The exact distribution proportional to ``weights`` (each float read as the rational it
    denotes, then divided by their exact sum): entries are Fractions summing to exactly 1."""
    w = []
    for i, x in enumerate(weights):
        xf = float(x)
        if not math.isfinite(xf) or xf < 0:
            raise InputError(f"weight {i} = {x!r} is not a finite non-negative number")
        w.append(Fraction(xf))
    tot = sum(w)
    if tot == 0:
        raise InputError("all weights are 0")
    return tuple(v / tot for v in w)


def draw_dirichlet(np_rng, size: int, concentration: float = 0.5) -> np.ndarray:
    """P* ~ symmetric Dirichlet(concentration) on ``size`` points (Jeffreys prior: 1/2)."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InputError(f"size must be a positive integer, got {size!r}")
    if not concentration > 0:
        raise InputError(f"Dirichlet concentration must be > 0, got {concentration!r}")
    return np_rng.dirichlet([concentration] * size)


def sample_counts(np_rng, p: Sequence[float], n: int, a1: int, a2: int) -> tuple[tuple[int, ...], ...]:
    """Counts of n i.i.d. draws from p (flat, S-major), as an a1 x a2 table of ints."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n must be a positive integer, got {n!r}")
    if len(p) != a1 * a2:
        raise InputError(f"p has {len(p)} entries, expected a1 * a2 = {a1 * a2}")
    pf = np.asarray([float(x) for x in p], dtype=float)
    c = np_rng.multinomial(n, pf / pf.sum())
    return tuple(tuple(int(v) for v in c[s * a2:(s + 1) * a2]) for s in range(a1))


def ir_split_search(p, a1: int, a2: int, exp_eps, d, *, grid: int = 64) -> tuple[float, np.ndarray, float]:
    """Eq. (82): maximise I_P(X;Y) of IR over t = e^{eps2} in [1, e^eps] numerically.

    A log-spaced grid of ``grid`` + 1 points, then golden-section refinement around the best grid
    point. Returns (t, Q, I). Errs low: the value is that of an actual split, so it never exceeds the
    true optimum of (82) by more than float rounding; it may miss the optimum when I(t) has a narrow
    peak between grid points. Privacy is not at stake here as long as ``exp_eps`` <= e^eps and ``d``
    >= Theorem 5's d (the caller's responsibility)."""
    r, dd = float(exp_eps), float(d)
    if not r >= 1:
        raise InputError(f"e^eps must be >= 1, got {exp_eps!r}")
    if dd < 0:
        raise InputError(f"d must be >= 0, got {d!r}")
    pf = [float(x) for x in p]

    def f(t):
        return mutual_information_float(ir_float_matrix(a1, a2, r, min(r, max(1.0, t)), dd), pf)

    if r == 1:
        Q = ir_float_matrix(a1, a2, r, 1.0, dd)
        return 1.0, Q, f(1.0)
    # clamp: exp(log r) may round above r, which would make e^{eps1} = r / t < 1
    ts = [min(r, max(1.0, math.exp(math.log(r) * k / grid))) for k in range(grid + 1)]
    ts[0], ts[-1] = 1.0, r
    vals = [f(t) for t in ts]
    k = int(np.argmax(vals))
    lo, hi = ts[max(0, k - 1)], ts[min(grid, k + 1)]
    g = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(40):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + g * (hi - lo)
            f2 = f(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - g * (hi - lo)
            f1 = f(x1)
    best_t, best_v = ts[k], vals[k]
    for t, v in ((x1, f1), (x2, f2)):
        if v > best_v:
            best_t, best_v = t, v
    best_t = min(r, max(1.0, best_t))
    return best_t, ir_float_matrix(a1, a2, r, best_t, dd), best_v


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with numpy's default linear interpolation, also for values containing +inf
    (numpy returns nan when it interpolates between two infinities): a quantile that falls on or
    interpolates towards +inf is +inf. Exact up to the float interpolation."""
    if not 0 <= q <= 1:
        raise InputError(f"quantile level must be in [0, 1], got {q!r}")
    v = sorted(float(x) for x in values)
    if not v:
        raise InputError("no values")
    if any(math.isnan(x) or x == -math.inf for x in v):
        raise InputError("values must be finite or +inf")
    h = (len(v) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(v) - 1)
    frac = h - lo
    if frac == 0:
        return v[lo]
    if math.isinf(v[hi]):
        return math.inf
    return v[lo] + frac * (v[hi] - v[lo])


def quantile_summary(batches: Sequence[Sequence[float]], q: float) -> dict:
    """The q-quantile (numpy's linear interpolation) of each batch, and their min / mean / max / sd
    over batches. Infinite values are kept (a quantile may be inf)."""
    if not 0 <= q <= 1:
        raise InputError(f"quantile level must be in [0, 1], got {q!r}")
    if not batches or any(len(b) == 0 for b in batches):
        raise InputError("every batch must contain at least one value")
    qs = [quantile(b, q) for b in batches]
    arr = np.asarray(qs)
    fin = arr[np.isfinite(arr)]
    return {"q": q, "per_batch": qs, "min": float(arr.min()), "max": float(arr.max()),
            "mean": float(fin.mean()) if fin.size else math.inf,
            "sd": float(fin.std(ddof=1)) if fin.size > 1 else 0.0, "batches": len(qs),
            "batch_size": [len(b) for b in batches]}
