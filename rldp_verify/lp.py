"""Exact linear programs.

:func:`solve_exact` solves  maximise c^T x  s.t.  A x <= b, E x = f  in exact rational arithmetic
with pycddlib's GMP LP solver and re-checks the returned primal and dual solutions exactly
(feasibility and equal objective values) before returning them: a result that fails the check
raises :class:`~rldp_verify.errors.CertificationError`.

This module is the baseline; a faster floating-point solve (HiGHS) followed by an exact re-solve
of the final basis belongs next to it and must return the same certified optimum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import cdd
import cdd.gmp

from rldp_verify.errors import CertificationError
from rldp_verify.numbers import exact


@dataclass(frozen=True)
class LPResult:
    status: str               # "optimal", "infeasible", "unbounded"
    value: Fraction | None
    x: tuple[Fraction, ...] | None
    dual: tuple[Fraction, ...] | None   # one multiplier per row of [A; E] (>= 0 for the A rows)


def solve_exact(c: Sequence, A: Sequence[Sequence], b: Sequence, E: Sequence[Sequence] = (),
                f: Sequence = ()) -> LPResult:
    """maximise c.x subject to A x <= b, E x = f (exact; re-checked)."""
    c = [exact(v) for v in c]
    A = [[exact(v) for v in r] for r in A]
    b = [exact(v) for v in b]
    E = [[exact(v) for v in r] for r in E]
    f = [exact(v) for v in f]
    n = len(c)
    # cdd layout: rows [b_i, -A_i] meaning b_i - A_i x >= 0; equalities as two opposite rows;
    # the objective [0, c] is the final row.
    rows = [[bi] + [-a for a in ai] for ai, bi in zip(A, b)]
    for ei, fi in zip(E, f):
        rows.append([fi] + [-a for a in ei])
        rows.append([-fi] + list(ei))
    rows.append([Fraction(0)] + c)
    lp = cdd.gmp.linprog_from_array(rows, obj_type=cdd.LPObjType.MAX)
    cdd.gmp.linprog_solve(lp)
    st = lp.status
    if st == cdd.LPStatusType.OPTIMAL:
        x = tuple(Fraction(v) for v in lp.primal_solution)
        raw = [Fraction(0)] * (len(A) + 2 * len(E))
        for idx, val in lp.dual_solution:
            raw[idx] = Fraction(val)
        y = raw[: len(A)] + [raw[len(A) + 2 * i] - raw[len(A) + 2 * i + 1] for i in range(len(E))]
        value = Fraction(lp.obj_value)
        _recheck(c, A, b, E, f, x, y, value)
        return LPResult("optimal", value, x, tuple(y))
    if st in (cdd.LPStatusType.INCONSISTENT, cdd.LPStatusType.STRUC_INCONSISTENT):
        return LPResult("infeasible", None, None, None)
    if st in (cdd.LPStatusType.DUAL_INCONSISTENT, cdd.LPStatusType.STRUC_DUAL_INCONSISTENT):
        return LPResult("unbounded", None, None, None)
    raise CertificationError(f"cdd LP ended with status {st!r}")


def _recheck(c, A, b, E, f, x, y, value):
    n = len(c)
    if len(x) != n:
        raise CertificationError("primal solution has the wrong length")
    for i, (ai, bi) in enumerate(zip(A, b)):
        if sum(a * v for a, v in zip(ai, x)) > bi:
            raise CertificationError(f"primal solution violates inequality {i}")
    for i, (ei, fi) in enumerate(zip(E, f)):
        if sum(a * v for a, v in zip(ei, x)) != fi:
            raise CertificationError(f"primal solution violates equality {i}")
    if sum(a * v for a, v in zip(c, x)) != value:
        raise CertificationError("objective value does not match the primal solution")
    # dual: y_A >= 0, A^T y_A + E^T y_E = c, b.y_A + f.y_E = value
    yA, yE = y[: len(A)], y[len(A):]
    if any(v < 0 for v in yA):
        raise CertificationError("dual multiplier of an inequality is negative")
    for j in range(n):
        s = sum(A[i][j] * yA[i] for i in range(len(A))) + sum(E[i][j] * yE[i] for i in range(len(E)))
        if s != c[j]:
            raise CertificationError(f"dual solution violates stationarity in coordinate {j}")
    if sum(bi * v for bi, v in zip(b, yA)) + sum(fi * v for fi, v in zip(f, yE)) != value:
        raise CertificationError("duality gap is not zero")
