"""Exact linear algebra: the engine's one exact square solve, its one elimination on arb balls, exact ranks.

:func:`solve_square` solves M z = rhs exactly (python-flint ``fmpq_mat``; None when M is singular);
:func:`solve_square_balls` solves it for an exact M and a right-hand side of arb balls (a rigorous enclosure);
:func:`exact_inverse` is M^-1 exactly; :func:`exact_rank` is the rank of rational vectors.
:func:`flint_transpose` and :func:`times` are the exact matrix-vector product that :mod:`rldp_verify.core.lp`
uses to check stationarity.  Nothing here rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import flint

__all__ = ["solve_square", "exact_inverse", "solve_square_balls", "times_exact", "exact_rank", "fmpq_of",
           "flint_transpose", "times"]


def fmpq_of(x: Fraction | int) -> flint.fmpq:
    """x as a python-flint fmpq (exact)."""
    return flint.fmpq(x.numerator, x.denominator)


def solve_square(M: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """The exact solution z of the square system M z = rhs (python-flint ``fmpq_mat``), None if M is singular.
    The one exact square solve of the engine (LP bases, PolyOpt's basis, the staircase basis)."""
    k = len(M)
    if k == 0:
        return []
    Mm = flint.fmpq_mat(k, k, [fmpq_of(x) for row in M for x in row])
    R = flint.fmpq_mat(k, 1, [fmpq_of(x) for x in rhs])
    try:
        z = Mm.solve(R)
    except ZeroDivisionError:
        return None
    return [Fraction(int(q.p), int(q.q)) for q in z.entries()]


def exact_inverse(M: Sequence[Sequence[Fraction]]) -> list[list[Fraction]]:
    """The exact inverse of the square matrix M (python-flint ``fmpq_mat``), as rows of Fractions; raises
    ZeroDivisionError when M is singular (flint's own error)."""
    k = len(M)
    inv = flint.fmpq_mat(k, k, [fmpq_of(x) for row in M for x in row]).inv()
    entries = inv.entries()
    return [[Fraction(int(q.p), int(q.q)) for q in entries[i * k:(i + 1) * k]] for i in range(k)]


def solve_square_balls(M: Sequence[Sequence[Fraction]], rhs: Sequence[Any]) -> list[Any]:
    """The solution z of M z = rhs for an exact square M and a right-hand side of python-flint ``arb`` balls (or
    exact numbers): Gauss-Jordan elimination with exact Fraction pivots whose row operations are applied to the
    balls, so the result encloses the exact solution for every point of the balls.  The one elimination on balls
    of the engine (the staircase LP's duals); exact right-hand sides belong to :func:`solve_square`.
    Raises ValueError when M is singular."""
    n = len(M)
    A = [list(map(Fraction, row)) for row in M]
    b = list(rhs)
    for c in range(n):
        p = next((r for r in range(c, n) if A[r][c] != 0), None)
        if p is None:
            raise ValueError("singular matrix")
        A[c], A[p] = A[p], A[c]
        b[c], b[p] = b[p], b[c]
        inv = 1 / A[c][c]
        A[c] = [v * inv for v in A[c]]
        b[c] = times_exact(b[c], inv)
        for r in range(n):
            if r != c and A[r][c] != 0:
                f = A[r][c]
                A[r] = [a - f * bb for a, bb in zip(A[r], A[c], strict=True)]
                b[r] = b[r] - times_exact(b[c], f)
    return b


def times_exact(x: Any, q: Fraction) -> Any:
    """x * q with q exact; an arb ball is multiplied by q as an exact fmpq."""
    if isinstance(x, flint.arb):
        return x * fmpq_of(q)
    return x * q


def exact_rank(rows: Sequence[Sequence[Any]]) -> int:
    """The exact rank of a list of rational vectors (python-flint ``fmpq_mat``); 0 for no rows or no columns."""
    if not rows or not rows[0]:
        return 0
    return int(flint.fmpq_mat(len(rows), len(rows[0]), [fmpq_of(x) for r in rows for x in r]).rank())


def flint_transpose(rows: list[list[Fraction]], n: int) -> Any:
    """[rows]^T as a flint fmpq_mat (n x len(rows)), exact; None without rows."""
    k = len(rows)
    if k == 0:
        return None
    flat: list[Any] = [None] * (n * k)
    for i, r in enumerate(rows):
        for j, a in enumerate(r):
            flat[j * k + i] = fmpq_of(a)
    return flint.fmpq_mat(n, k, flat)


def times(MT: Any, y: list[Fraction]) -> list[Fraction]:
    """MT * y as a list of Fractions (MT from :func:`flint_transpose`)."""
    k = MT.ncols()
    out = MT * flint.fmpq_mat(k, 1, [fmpq_of(v) for v in y])
    return [Fraction(int(q.p), int(q.q)) for q in out.entries()]
