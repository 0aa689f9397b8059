"""Mutual information I_P(X;Y) of a channel and its normalisation: the one implementation.

One orientation everywhere: ``matrix[y][x] = Q(y|x)`` (rows are outputs y, columns inputs x; a
column-stochastic matrix, as a mechanism's). A row-stochastic channel ``W[x][y]`` is passed as its
transpose (:func:`transpose`).

Paper: [lopuhaa-2024], Sec. 5 eqs. (44)-(45) and Sec. 8 (NMI = I_P(X;Y) / H(X)); the same
I(X;Z) is Sec. 2.2 of [ayed-2020] (PRAM).

    mu(v) = sum_x v_x P_x log( v_x / sum_x' v_x' P_x' )        (eq. (45); terms with v_x P_x = 0 are 0)
    I_P(X;Y) = sum_y mu(Q_y)                                   (eq. (44), Q_y the y-th row of Q)

Natural logarithms (nats): the paper's Examples 3-5 are reproduced in nats (see proofs/rldp).

Which way results may err: ``*_value`` functions return mpmath numbers at the working precision
(relative error ~10^-(dps-3)); ``*_bounds`` functions return rationals (lo, hi) with
lo <= true value <= hi, certified with arb (exact inputs only); ``*_float`` functions are double
precision (relative error of order 1e-13 for |X| up to a few hundred, either direction) and serve only
statistical statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint
import mpmath
import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper

# assumed worst-case error of numpy's float64 log, in ulp (see mu_float_bounds)
LOG_ULPS = 1024
# a nonzero float64 product below this is treated as possibly inexact (underflow) and must be evaluated in arb
_TINY = 2.0 ** -900


def transpose(channel: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """``W[x][y]`` (row-stochastic, rows inputs) -> ``Q[y][x]`` (this module's orientation)."""
    return [list(col) for col in zip(*channel, strict=True)]


def flat_distribution(p: Any) -> list[Any]:
    """P as a flat vector over X in S-major order (accepts a table or a flat vector)."""
    rows = list(p)
    if rows and isinstance(rows[0], (list, tuple)):
        return [v for r in rows for v in r]
    return rows


def _check(v: Sequence[Any], p: Sequence[Any]) -> None:
    if len(v) != len(p):
        raise InputError(f"a row of length {len(v)} does not match a distribution over {len(p)} inputs")


def mu_value(v: Sequence[Any], p: Sequence[Any], *, dps: int | None = None) -> Any:
    """mu(v) of eq. (45) (mpf, nats)."""
    _check(v, p)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            vv = [to_mpf(x) for x in v]
            pp = [to_mpf(x) for x in p]
            q = mpmath.fsum(a * b for a, b in zip(vv, pp, strict=True))
            if q == 0:
                return mpmath.mpf(0)
            tot = mpmath.fsum(a * b * mpmath.log(a / q) for a, b in zip(vv, pp, strict=True) if a * b != 0)
        return +tot


def mutual_information_value(matrix: Sequence[Sequence[Any]], p: Any, *, dps: int | None = None) -> Any:
    """I_P(X;Y) = sum_y mu(Q_y) (eq. (44)), in nats, at the working precision."""
    p = flat_distribution(p)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            tot = mpmath.fsum(mu_value(r, p, dps=d + 10) for r in matrix)
        return +tot


def entropy_value(p: Any, *, dps: int | None = None) -> Any:
    """H(X) in nats."""
    p = flat_distribution(p)
    with working_precision(dps):
        return -mpmath.fsum(to_mpf(x) * mpmath.log(to_mpf(x)) for x in p if x != 0)


def nmi_value(matrix: Sequence[Sequence[Any]], p: Any, *, dps: int | None = None) -> Any:
    """Normalised mutual information I_P(X;Y)/H(X) of Sec. 8 (0 when H(X) = 0)."""
    with working_precision(dps) as d:
        h = entropy_value(p, dps=d)
        if h == 0:
            return mpmath.mpf(0)
        return mutual_information_value(matrix, p, dps=d) / h


def mu_arb(v: Sequence[Fraction], p: Sequence[Fraction]) -> flint.arb:
    """An arb enclosure of mu(v) at the current arb precision (exact rational inputs)."""
    _check(v, p)
    q = sum(Fraction(a) * Fraction(b) for a, b in zip(v, p, strict=True))
    if q == 0:
        return flint.arb(0)
    tot = flint.arb(0)
    qa = arb_exact(q)
    for a, b in zip(v, p, strict=True):
        if a * b != 0:
            tot += arb_exact(Fraction(a) * Fraction(b)) * (arb_exact(Fraction(a)) / qa).log()
    return tot


def mutual_information_arb(matrix: Sequence[Sequence[flint.arb]], p: Sequence[Any]) -> flint.arb:
    """An arb enclosure of I_P(X;Y) = sum_y mu(Q_y) (eqs. (44)-(45)) for a matrix of arb balls (e.g. a
    mechanism evaluated on an interval of its parameter) and an exact P, at the current arb precision: one
    running sum over y and x of Q[y|x] P_x log(Q[y|x] / sum_x' Q[y|x'] P_x'), terms with P_x = 0 or an exactly
    zero entry skipped (they are 0). Rigorous: the ball contains I_P for every matrix in the balls."""
    p = flat_distribution(p)
    pa = [arb_exact(x) for x in p]
    tot = flint.arb(0)
    for row in matrix:
        _check(row, p)
        q = sum((row[x] * pa[x] for x in range(len(p)) if p[x] != 0), flint.arb(0))
        for x in range(len(p)):
            if p[x] != 0 and not row[x].is_zero():
                tot += row[x] * pa[x] * (row[x] / q).log()
    return tot


def mu_bounds(v: Sequence[Any], p: Sequence[Any], *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals lo <= mu(v) <= hi, certified in arb at ``dps`` digits (exact inputs)."""
    with arb_precision(dps):
        x = mu_arb(v, p)
        return arb_lower(x), arb_upper(x)


def mutual_information_bounds(matrix: Sequence[Sequence[Any]], p: Any, *,
                              dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals lo <= I_P(X;Y) <= hi, certified in arb (exact matrix and P required)."""
    p = [Fraction(x) for x in flat_distribution(p)]
    if not all(isinstance(x, Fraction) for r in matrix for x in r):
        raise InputError("certified utility bounds need an exact (rational) matrix")
    with arb_precision(dps):
        tot = flint.arb(0)
        for r in matrix:
            tot += mu_arb(r, p)
        return arb_lower(tot), arb_upper(tot)


def _as_float_matrix(Q: Any) -> Any:
    return np.asarray([[float(v) for v in r] for r in getattr(Q, "matrix", Q)], dtype=float)


def mutual_information_float(Q: Any, p: Sequence[Any]) -> float:
    """I_P(X;Y) = sum_{y,x} Q[y|x] P_x log(Q[y|x] / P(Y=y)) in nats (eqs. (44)-(45)), double precision: the sum
    over the rows of :func:`mu_float_bounds` (the one float route of mu).

    ``Q`` is a matrix (or a ``Mechanism``) in this module's orientation. Terms with Q[y|x] P_x = 0 are 0."""
    M = _as_float_matrix(Q)
    pf = np.asarray([float(x) for x in p], dtype=float)
    if M.shape[1] != pf.size:
        raise InputError(f"the matrix has {M.shape[1]} columns but P has {pf.size} entries")
    mu, _, _ = mu_float_bounds(M, pf)
    return float(mu.sum())


def mu_float_bounds(Vf: Any, pf: Any) -> tuple[Any, Any, Any]:
    """float64 mu(v) of eq. (45) for every row v of ``Vf`` (vectorised), with a rigorous error scale.

    Returns (mu, S1, bad): mu_f[j] ~ mu(v_j); S1[j] = sum_x v_x P_x (1 + |log(v_x/q)|) (q = v . P);
    ``bad[j]`` is True when a nonzero v_x P_x or q underflows (< 2^-900): such rows must be
    evaluated rigorously elsewhere.

    Error bound (u = 2^-53, first order in u). Inputs are correctly rounded from exact rationals:
    |fl(v_x) - v_x| <= u v_x, likewise P_x. q = sum_x v_x P_x (a nonnegative terms, any summation
    order, FMA or not) has relative error <= (a + 2) u; v_x / q then <= (a + 4) u, which moves
    log(v_x/q) by <= (a + 4) u absolutely. The only assumption (our trust level): numpy's float64
    log is within k = :data:`LOG_ULPS` = 1024 ulp (<= 2 k u |log| relative); glibc's log is < 1 ulp
    and numpy's SIMD kernels a few ulp, so k = 1024 is a wide margin, and every vertex evaluated in
    arb re-checks it (a caller's arb evaluation of the vertices it uses raises on a violation). The
    product v_x P_x log(...) adds <= 4 u relative and the final sum of a terms <= a u sum_x |t_x|:

        |mu_f - mu| <= u [ (a + 6) sum_x v_x P_x + (a + 4 + 2 k) sum_x v_x P_x |log(v_x/q)| ]
                    <= (a + 8 + 2 k) u S1    (+ O(u^2)).

    Callers apply 4 times this first-order bound (PolyOpt's ``_float_error``), which covers the O(u^2)
    terms and the rounding in evaluating S1 itself; PolyOpt re-checks every vertex it relies on in arb
    (``_rigorous_max_slack``). Err direction: either way; the bound is what
    makes the float values usable."""
    q = Vf @ pf
    vp = Vf * pf
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        lg = np.log(Vf / q[:, None])
        pos = vp > 0
        terms = np.where(pos, vp * lg, 0.0)
        absl = np.where(pos, vp * (1.0 + np.abs(lg)), 0.0)
    mu = terms.sum(axis=1)
    S1 = absl.sum(axis=1)
    bad = ((vp != 0) & (np.abs(vp) < _TINY)).any(axis=1) | (q < _TINY) | ~np.isfinite(mu)
    return mu, S1, bad


def entropy_float(p: Sequence[Any]) -> float:
    """H(X) in nats (double precision)."""
    pf = np.asarray([float(x) for x in p], dtype=float)
    nz = pf[pf > 0]
    return float(-(nz * np.log(nz)).sum())


def nmi_float(Q: Any, p: Sequence[Any]) -> float:
    """NMI = I_P(X;Y) / H(X) of Sec. 8 (0 when H(X) = 0); double precision."""
    h = entropy_float(p)
    return 0.0 if h == 0 else mutual_information_float(Q, p) / h
