"""Validation of probability distributions and stochastic matrices: the one place (issue 27).

Two orientations of a channel occur in the engine: a mechanism ``Q[y][x]`` (rows outputs, columns inputs) is
*column*-stochastic; a channel ``W[x][y]`` (rows inputs) is *row*-stochastic. Every check takes the orientation
explicitly (``columns=True`` for Q, ``columns=False`` for W).

Every failure is an :class:`~rldp_verify.core.errors.InputError` whose message names the bad value. The two
message forms the engine has always used are kept byte for byte:

- ``"<name> sums to <total>, not 1<note>"`` (:func:`require_sum_one`);
- ``"<name> must sum to 1, sums to <total>"`` (:func:`require_sum_one`, ``must=True``).

Exact inputs (ints, Fractions) are compared with 1 exactly; the checks with a tolerance say so.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError


def require_sum_one(total: Any, name: str, shown: Any = None, note: str = "", *, must: bool = False,
                    holds: bool | None = None) -> None:
    """Raise InputError unless the distribution ``name`` sums to 1: ``holds`` (when given) is the caller's
    verdict (e.g. a comparison within a tolerance), otherwise ``total == 1`` exactly. ``shown`` is how the
    total is printed (default: ``total`` itself); ``note`` is appended to the message."""
    ok = (total == 1) if holds is None else holds
    if ok:
        return
    text = total if shown is None else shown
    if must:
        raise InputError(f"{name} must sum to 1, sums to {text}{note}")
    raise InputError(f"{name} sums to {text}, not 1{note}")


def line_sums(matrix: Sequence[Sequence[Any]], *, columns: bool) -> list[Any]:
    """The column sums (``columns=True``: Q[y][x], sum over y) or row sums (``columns=False``: W[x][y])."""
    if columns:
        return [sum(r[c] for r in matrix) for c in range(len(matrix[0]))]
    return [sum(r) for r in matrix]


def is_stochastic(matrix: Sequence[Sequence[Any]], *, columns: bool) -> bool:
    """Every entry >= 0 and every column (``columns=True``) or row (``columns=False``) sums to exactly 1
    (exact comparison)."""
    if columns:
        return all(v >= 0 for r in matrix for v in r) and all(s == 1 for s in line_sums(matrix, columns=True))
    return all(all(v >= 0 for v in row) and sum(row) == 1 for row in matrix)


def stochastic_defects(matrix: Sequence[Sequence[Any]], *, columns: bool, tol: float) -> list[tuple[int, Any]]:
    """(index, sum) of each column (``columns=True``) or row that does not sum to 1: exactly when every entry is
    a Fraction, within ``tol`` (as floats) otherwise."""
    exact = all(isinstance(v, Fraction) for r in matrix for v in r)
    bad = []
    for i, s in enumerate(line_sums(matrix, columns=columns)):
        ok = (s == 1) if exact else abs(float(s) - 1) <= tol
        if not ok:
            bad.append((i, s))
    return bad
