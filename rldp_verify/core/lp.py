"""Exact linear programs.

:func:`solve_exact` solves  maximise c^T x  s.t.  A x <= b, E x = f  in exact rational arithmetic
with pycddlib's GMP LP solver and re-checks the returned primal and dual solutions exactly
(feasibility and equal objective values) before returning them: a result that fails the check
raises :class:`~rldp_verify.core.errors.CertificationError`.

:func:`solve_certified` solves the same LP (optionally with variable bounds) in floating point with
HiGHS, then re-solves HiGHS's final basis exactly in rationals (python-flint ``fmpq_mat``) and
certifies it: exact primal feasibility, exact dual feasibility (signs and stationarity) and zero
duality gap; by weak duality the returned value is then the exact optimum.  A basis that is optimal
only within HiGHS's tolerances (reduced costs of order 1e-18 with the wrong sign) is repaired by
exact primal simplex pivots from it (Bland's rule).  If that fails (or HiGHS does not report an
optimum) it falls back to :func:`solve_exact` (keyword bounds become rows; refused with
CertificationError when that dense system would be huge).  Neither function rounds: every returned
number is exact.

The routes have one implementation each: :func:`solve_rows` is the engine's one call of cdd's exact LP (rows in
cdd's H-format; :func:`solve_exact` and the topics' exact LPs use it); the float LP is
:func:`rldp_verify.core.highs.highs_solve`; the exact linear algebra (:func:`solve_square`,
:func:`solve_square_balls`, :func:`exact_rank`) is in :mod:`rldp_verify.core.linalg` and importable from here;
the bound form and the exact simplex of :func:`solve_certified` are in :mod:`rldp_verify.core.simplex`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

import cdd
import cdd.gmp
import numpy as np

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.highs import highs_solve
from rldp_verify.core.linalg import exact_rank as exact_rank
from rldp_verify.core.linalg import flint_transpose as _flint_transpose
from rldp_verify.core.linalg import solve_square as solve_square
from rldp_verify.core.linalg import solve_square_balls as solve_square_balls
from rldp_verify.core.linalg import times as _times
from rldp_verify.core.linalg import times_exact as times_exact
from rldp_verify.core.numbers import exact
from rldp_verify.core.simplex import Bound, BoundedSimplex, SparseRow
from rldp_verify.core.simplex import BoundedLP as _BoundedLP

Vector = Sequence[Any]
Matrix = Sequence[Sequence[Any]]
#: where a bound of :func:`solve_certified` came from: a keyword bound (index j) or a single-non-zero row (index i)
_KW, _ROW = "kw", "row"


class LPStatus(StrEnum):
    """How an LP ended (a ``str``: compares equal to "optimal", "infeasible", "unbounded")."""

    OPTIMAL = "optimal"
    INFEASIBLE = "infeasible"
    UNBOUNDED = "unbounded"


@dataclass(frozen=True)
class LPResult:
    """An exact LP result (every number a Fraction); ``status`` must be checked before the values."""

    status: LPStatus
    value: Fraction | None
    x: tuple[Fraction, ...] | None
    dual: tuple[Fraction, ...] | None   # one multiplier per row of [A; E] (>= 0 for the A rows)
    # solve_certified only: multipliers d_j of the keyword bounds lower/upper (c = A^T y + E^T y + d;
    # d_j < 0 only at x_j = lower_j, d_j > 0 only at x_j = upper_j); None when no keyword bounds.
    reduced_costs: tuple[Fraction, ...] | None = None
    method: str = "cdd-exact"           # "cdd-exact" or "highs+exact-basis"


@dataclass(frozen=True)
class CddSolution:
    """What cddlib's exact GMP LP returned: ``status`` is cdd's own ``LPStatusType`` member (kept for messages);
    ``x``, ``value`` and ``dual`` (row index -> multiplier, rows not listed: 0) are read only at an optimum."""

    status: Any
    x: tuple[Fraction, ...] | None = None
    value: Fraction | None = None
    dual: dict[int, Fraction] | None = None

    @property
    def optimal(self) -> bool:
        """cdd reached an optimum."""
        return bool(self.status == cdd.LPStatusType.OPTIMAL)

    @property
    def inconsistent(self) -> bool:
        """cdd says INCONSISTENT (no feasible point; not the structural variant)."""
        return bool(self.status == cdd.LPStatusType.INCONSISTENT)

    @property
    def infeasible(self) -> bool:
        """cdd says the constraints have no point (INCONSISTENT or STRUC_INCONSISTENT)."""
        return bool(self.status in (cdd.LPStatusType.INCONSISTENT, cdd.LPStatusType.STRUC_INCONSISTENT))

    @property
    def dual_infeasible(self) -> bool:
        """cdd says the dual has no point (DUAL_INCONSISTENT or STRUC_DUAL_INCONSISTENT)."""
        return bool(self.status in (cdd.LPStatusType.DUAL_INCONSISTENT, cdd.LPStatusType.STRUC_DUAL_INCONSISTENT))


def solve_rows(rows: Matrix) -> CddSolution:
    """maximise c0 + c.x over {x : b_i + a_i.x >= 0} with pycddlib's exact GMP LP: the one cdd LP call of the
    engine.  ``rows`` are in cddlib's H-format ``[b_i, a_i...]`` with the objective ``[c0, c...]`` as the last
    row (exact numbers; floats refused).  No re-check here: callers check the status and re-check the point
    (:func:`solve_exact` re-checks primal and dual)."""
    lp = cdd.gmp.linprog_from_array([[exact(v) for v in r] for r in rows], obj_type=cdd.LPObjType.MAX)
    cdd.gmp.linprog_solve(lp)
    if lp.status != cdd.LPStatusType.OPTIMAL:
        return CddSolution(lp.status)
    return CddSolution(lp.status, tuple(Fraction(v) for v in lp.primal_solution), Fraction(lp.obj_value),
                       {idx: Fraction(val) for idx, val in lp.dual_solution})


def solve_exact(c: Vector, A: Matrix, b: Vector, E: Matrix = (), f: Vector = ()) -> LPResult:
    """maximise c.x subject to A x <= b, E x = f (exact; re-checked)."""
    c, A, b, E, f = _exact_lp(c, A, b, E, f)
    # cdd layout: rows [b_i, -A_i] meaning b_i - A_i x >= 0; equalities as two opposite rows;
    # the objective [0, c] is the final row.
    rows = [[bi] + [-a for a in ai] for ai, bi in zip(A, b, strict=True)]
    for ei, fi in zip(E, f, strict=True):
        rows.append([fi] + [-a for a in ei])
        rows.append([-fi] + list(ei))
    rows.append([Fraction(0)] + c)
    sol = solve_rows(rows)
    if sol.optimal:
        assert sol.x is not None and sol.value is not None and sol.dual is not None
        raw = sol.dual

        def mult(i: int) -> Fraction:
            return raw.get(i, Fraction(0))

        y = [mult(i) for i in range(len(A))] + [mult(len(A) + 2 * i) - mult(len(A) + 2 * i + 1)
                                                 for i in range(len(E))]
        _recheck(c, A, b, E, f, sol.x, y, sol.value)
        return LPResult(LPStatus.OPTIMAL, sol.value, sol.x, tuple(y))
    if sol.infeasible:
        return LPResult(LPStatus.INFEASIBLE, None, None, None)
    if sol.dual_infeasible:
        # a dual without a feasible point means unbounded *or* infeasible (both sides can be empty, e.g.
        # a row 0 x <= -1): unbounded only when the constraints have a point, checked with objective 0
        if any(c) and solve_exact([Fraction(0)] * len(c), A, b, E, f).status is LPStatus.INFEASIBLE:
            return LPResult(LPStatus.INFEASIBLE, None, None, None)
        return LPResult(LPStatus.UNBOUNDED, None, None, None)
    raise CertificationError(f"cdd LP ended with status {sol.status!r}")


def _exact_lp(c: Vector, A: Matrix, b: Vector, E: Matrix, f: Vector) -> tuple[
        list[Fraction], list[list[Fraction]], list[Fraction], list[list[Fraction]], list[Fraction]]:
    return ([exact(v) for v in c], [[exact(v) for v in r] for r in A], [exact(v) for v in b],
            [[exact(v) for v in r] for r in E], [exact(v) for v in f])


def _recheck(c: list[Fraction], A: list[list[Fraction]], b: list[Fraction], E: list[list[Fraction]],
             f: list[Fraction], x: Sequence[Fraction], y: Sequence[Fraction], value: Fraction) -> None:
    n = len(c)
    if len(x) != n:
        raise CertificationError("primal solution has the wrong length")
    for i, (ai, bi) in enumerate(zip(A, b, strict=True)):
        if sum(a * v for a, v in zip(ai, x, strict=True)) > bi:
            raise CertificationError(f"primal solution violates inequality {i}")
    for i, (ei, fi) in enumerate(zip(E, f, strict=True)):
        if sum(a * v for a, v in zip(ei, x, strict=True)) != fi:
            raise CertificationError(f"primal solution violates equality {i}")
    if sum(a * v for a, v in zip(c, x, strict=True)) != value:
        raise CertificationError("objective value does not match the primal solution")
    # dual: y_A >= 0, A^T y_A + E^T y_E = c, b.y_A + f.y_E = value
    yA, yE = y[: len(A)], y[len(A):]
    if any(v < 0 for v in yA):
        raise CertificationError("dual multiplier of an inequality is negative")
    for j in range(n):
        s = sum(A[i][j] * yA[i] for i in range(len(A))) + sum(E[i][j] * yE[i] for i in range(len(E)))
        if s != c[j]:
            raise CertificationError(f"dual solution violates stationarity in coordinate {j}")
    if sum(bi * v for bi, v in zip(b, yA, strict=True)) + sum(fi * v for fi, v in zip(f, yE, strict=True)) != value:
        raise CertificationError("duality gap is not zero")


# --------------------------------------------------------------------------------------------
# HiGHS + exact basis re-solve


def _highs_basis(lp: _BoundedLP) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """HiGHS's final basis for the bound form of the LP (None unless HiGHS reports an optimum)."""
    from scipy import sparse

    n, m = len(lp.c), len(lp.G)
    starts, idx, vals = [0], [], []
    for row in lp.G:
        for j, a in row:
            idx.append(j)
            vals.append(float(a))
        starts.append(len(idx))
    M = sparse.csr_matrix((np.array(vals), np.array(idx), np.array(starts)), shape=(m, n))    # floats, ints

    def fl(v: Bound, default: float) -> float:
        return default if v is None else float(v)

    sol = highs_solve([float(v) for v in lp.c], [fl(v, -math.inf) for v in lp.lo], [fl(v, math.inf) for v in lp.up],
                      [fl(v, -math.inf) for v in lp.glo], [fl(v, math.inf) for v in lp.gup], M)
    if not sol.optimal:
        return None
    return sol.col_basis, sol.row_basis


def solve_certified(c: Vector, A: Matrix, b: Vector, E: Matrix = (), f: Vector = (), *,
                    lower: Vector | None = None, upper: Vector | None = None) -> LPResult:
    """maximise c.x s.t. A x <= b, E x = f, lower <= x <= upper (None entries: no bound).

    HiGHS in floating point, then the final basis re-solved and certified in exact rationals
    (see the module docstring); falls back to :func:`solve_exact` when the certificate fails or
    HiGHS does not report "optimal".  Rows of A with a single non-zero are treated as bounds.
    The result is exact and certified either way (the fallback raises CertificationError on a
    failed re-check).  ``dual`` has one multiplier per row of [A; E]; ``reduced_costs`` one per
    keyword bound (only when ``lower``/``upper`` are given).
    """
    c, A, b, E, f = _exact_lp(c, A, b, E, f)
    n = len(c)
    for name, rows in (("A", A), ("E", E)):
        for i, r in enumerate(rows):
            if len(r) != n:
                raise InputError(f"row {i} of {name} has {len(r)} entries, expected {n}")
    kw_lo: list[Bound] = [None] * n if lower is None else [None if v is None else exact(v) for v in lower]
    kw_up: list[Bound] = [None] * n if upper is None else [None if v is None else exact(v) for v in upper]
    lp = _bounded_form(c, A, b, E, f, kw_lo, kw_up, lower is not None or upper is not None)
    if lp is None:      # a row 0 <= b_i < 0: infeasible; the exact solver says so
        return _fallback(c, A, b, E, f, kw_lo, kw_up)
    try:
        basis = _highs_basis(lp)
    except Exception:  # HiGHS failure: use the exact solver
        basis = None
    if basis is not None:
        out = _certify_basis(lp, *basis)
        if out is not None:
            return out
    return _fallback(c, A, b, E, f, kw_lo, kw_up)


def _bounded_form(c: list[Fraction], A: list[list[Fraction]], b: list[Fraction], E: list[list[Fraction]],
                  f: list[Fraction], kw_lo: list[Bound], kw_up: list[Bound], have_kw: bool) -> _BoundedLP | None:
    """The bound form of :func:`solve_certified`'s LP; None when a zero row of A has b_i < 0 (infeasible)."""
    n = len(c)
    # bounds: tightest of keyword bounds and single-non-zero rows of A; remember the source
    lo, up = list(kw_lo), list(kw_up)
    lo_src: list[tuple[str, int] | None] = [(_KW, j) if kw_lo[j] is not None else None for j in range(n)]
    up_src: list[tuple[str, int] | None] = [(_KW, j) if kw_up[j] is not None else None for j in range(n)]
    G: list[SparseRow] = []
    grhs_lo: list[Bound] = []
    grhs_up: list[Bound] = []
    gsrc: list[int] = []
    for i, (r, bi) in enumerate(zip(A, b, strict=True)):
        nz = [(j, a) for j, a in enumerate(r) if a]
        if len(nz) == 1:
            _tighten(nz[0], bi, i, lo, up, lo_src, up_src)
        elif not nz:
            if bi < 0:
                return None
        else:
            G.append(nz)
            grhs_lo.append(None)
            grhs_up.append(bi)
            gsrc.append(i)
    for i, (r, fi) in enumerate(zip(E, f, strict=True)):
        G.append([(j, a) for j, a in enumerate(r) if a])
        grhs_lo.append(fi)
        grhs_up.append(fi)
        gsrc.append(len(A) + i)
    return _BoundedLP(c, A, b, E, f, kw_lo, kw_up, lo, up, lo_src, up_src, G, grhs_lo, grhs_up, gsrc, have_kw,
                      _flint_transpose(A + E, n))


def _tighten(entry: tuple[int, Fraction], bi: Fraction, i: int, lo: list[Bound], up: list[Bound],
             lo_src: list[tuple[str, int] | None], up_src: list[tuple[str, int] | None]) -> None:
    """The row a x_j <= b_i of A (a single non-zero) as a bound on x_j, kept when strictly tighter."""
    j, a = entry
    bound = bi / a
    uj, lj = up[j], lo[j]
    if a > 0 and (uj is None or bound < uj):
        up[j], up_src[j] = bound, (_ROW, i)
    elif a < 0 and (lj is None or bound > lj):
        lo[j], lo_src[j] = bound, (_ROW, i)


def _fallback(c: list[Fraction], A: list[list[Fraction]], b: list[Fraction], E: list[list[Fraction]],
              f: list[Fraction], kw_lo: list[Bound], kw_up: list[Bound]) -> LPResult:
    """solve_exact with the keyword bounds turned into rows; multipliers mapped back."""
    n = len(c)
    nb = sum(1 for v in kw_lo if v is not None) + sum(1 for v in kw_up if v is not None)
    if n * (len(A) + nb) > 4 * 10 ** 7:
        raise CertificationError(f"HiGHS's basis did not certify and the exact fallback ({n} variables, "
                                 f"{len(A) + nb} dense rows) is too large")
    extra: list[list[Fraction]] = []
    eb: list[Fraction] = []
    where: list[tuple[int, int]] = []
    for j in range(n):
        lj, uj = kw_lo[j], kw_up[j]
        if lj is not None:
            r = [Fraction(0)] * n
            r[j] = Fraction(-1)
            extra.append(r)
            eb.append(-lj)
            where.append((j, -1))
        if uj is not None:
            r = [Fraction(0)] * n
            r[j] = Fraction(1)
            extra.append(r)
            eb.append(uj)
            where.append((j, 1))
    res = solve_exact(c, list(A) + extra, list(b) + eb, E, f)
    if res.status != LPStatus.OPTIMAL or not where or res.dual is None:
        return res
    y = list(res.dual)
    yA, yX, yE = y[: len(A)], y[len(A): len(A) + len(extra)], y[len(A) + len(extra):]
    d = [Fraction(0)] * n
    for (j, sign), val in zip(where, yX, strict=True):
        d[j] += sign * val
    return LPResult(LPStatus.OPTIMAL, res.value, res.x, tuple(yA + yE), tuple(d), "cdd-exact")


def _exact_simplex(lp: _BoundedLP, col_st: Sequence[str], row_st: Sequence[str], max_iter: int | None = None
                   ) -> tuple[list[Fraction], list[Fraction], list[Fraction]] | None:
    """Exact bounded primal simplex on  W z = 0, W = [G | -I], z = (x, r), started from HiGHS's
    basis.  Usually HiGHS's basis is already optimal and no pivot is made; the pivots repair
    bases that are optimal only up to HiGHS's tolerances.  Bland's rule (no cycling); ratio-test ties: a bound
    flip of the entering column first, then the basic column of smallest index.
    Returns (x, y, d) with y the multipliers of the rows of G and d = c - G^T y, or None
    (singular basis, unbounded, iteration limit)."""
    sx = BoundedSimplex(lp, col_st, row_st)
    if len(sx.basic) != sx.m:
        return None
    return sx.run(max_iter if max_iter is not None else 50 + 4 * sx.m)


def _certify_basis(lp: _BoundedLP, col_st: Sequence[str], row_st: Sequence[str]) -> LPResult | None:
    """HiGHS's basis re-solved (and repaired) exactly, then certified by :func:`_recheck_bounded`; None when
    that fails (the caller falls back to :func:`solve_exact`)."""
    c, A, b, E, f = lp.c, lp.A, lp.b, lp.E, lp.f
    n = len(c)
    sol = _exact_simplex(lp, col_st, row_st)
    if sol is None:
        return None
    x, yG, d = sol
    y = [Fraction(0)] * (len(A) + len(E))
    for i, yi in enumerate(yG):
        y[lp.gsrc[i]] = yi
    rc = [Fraction(0)] * n
    for j in range(n):
        if d[j] == 0:
            continue
        src = lp.up_src[j] if d[j] > 0 else lp.lo_src[j]
        if src is None:
            return None
        kind, idx = src
        if kind == _KW:
            rc[j] = d[j]
        else:
            y[idx] = d[j] / A[idx][j]
    xt = tuple(x)
    value = sum((cj * xj for cj, xj in zip(c, xt, strict=True)), Fraction(0))
    try:
        _recheck_bounded(c, A, b, E, f, lp.kw_lo, lp.kw_up, xt, y, rc, value, lp.MT)
    except CertificationError:
        return None
    return LPResult(LPStatus.OPTIMAL, value, xt, tuple(y), tuple(rc) if lp.have_kw else None,
                    "highs+exact-basis")


def _recheck_bounded(c: Sequence[Fraction], A: Sequence[Sequence[Fraction]], b: Sequence[Fraction],
                     E: Sequence[Sequence[Fraction]], f: Sequence[Fraction], lo: Sequence[Any],
                     up: Sequence[Any], x: Sequence[Fraction], y: Sequence[Fraction], d: Sequence[Fraction],
                     value: Fraction, MT: Any = None) -> None:
    """Exact certificate: x feasible; y_A >= 0; c = A^T y_A + E^T y_E + d with d_j < 0 only where
    lower_j is finite and d_j > 0 only where upper_j is finite; and the dual bound
    b.y_A + f.y_E + sum_j (d_j upper_j if d_j > 0 else d_j lower_j) equals c.x (weak duality)."""
    n = len(c)
    _check_primal_bounded(A, b, E, f, lo, up, x, n)
    yA, yE = y[: len(A)], y[len(A):]
    if any(v < 0 for v in yA):
        raise CertificationError("dual multiplier of an inequality is negative")
    stat = _stationarity(A, E, y, d, MT)
    if any(stat[j] != c[j] for j in range(n)):
        raise CertificationError("dual solution violates stationarity")
    bound = _dual_bound(b, f, yA, yE, d, lo, up)
    if bound != value or sum(cj * xj for cj, xj in zip(c, x, strict=True)) != value:
        raise CertificationError("duality gap is not zero")


def _check_primal_bounded(A: Sequence[Sequence[Fraction]], b: Sequence[Fraction], E: Sequence[Sequence[Fraction]],
                          f: Sequence[Fraction], lo: Sequence[Any], up: Sequence[Any], x: Sequence[Fraction],
                          n: int) -> None:
    """x satisfies A x <= b, E x = f and lo <= x <= up exactly (CertificationError naming the first violation)."""
    nzx = [(j, v) for j, v in enumerate(x) if v != 0]
    for i, (ai, bi) in enumerate(zip(A, b, strict=True)):
        if sum(ai[j] * v for j, v in nzx) > bi:
            raise CertificationError(f"primal solution violates inequality {i}")
    for i, (ei, fi) in enumerate(zip(E, f, strict=True)):
        if sum(ei[j] * v for j, v in nzx) != fi:
            raise CertificationError(f"primal solution violates equality {i}")
    for j in range(n):
        if lo[j] is not None and x[j] < lo[j]:
            raise CertificationError(f"primal solution violates lower bound {j}")
        if up[j] is not None and x[j] > up[j]:
            raise CertificationError(f"primal solution violates upper bound {j}")


def _stationarity(A: Sequence[Sequence[Fraction]], E: Sequence[Sequence[Fraction]], y: Sequence[Fraction],
                  d: Sequence[Fraction], MT: Any) -> list[Fraction]:
    """d + [A; E]^T y, exact (by flint when ``MT`` = [A; E]^T is given)."""
    if MT is not None:
        return [dj + t for dj, t in zip(d, _times(MT, list(y)), strict=True)]
    stat = list(d)
    for rows, ys in ((A, y[: len(A)]), (E, y[len(A):])):
        for r, yi in zip(rows, ys, strict=True):
            if yi != 0:
                for j, a in enumerate(r):
                    if a != 0:
                        stat[j] += a * yi
    return stat


def _dual_bound(b: Sequence[Fraction], f: Sequence[Fraction], yA: Sequence[Fraction], yE: Sequence[Fraction],
                d: Sequence[Fraction], lo: Sequence[Any], up: Sequence[Any]) -> Fraction | int:
    """b.y_A + f.y_E + sum_j (d_j upper_j if d_j > 0 else d_j lower_j); CertificationError when a reduced cost
    has the sign of a missing bound."""
    bound = (sum(bi * v for bi, v in zip(b, yA, strict=True) if v != 0)
             + sum(fi * v for fi, v in zip(f, yE, strict=True) if v != 0))
    for j, dj in enumerate(d):
        if dj > 0:
            if up[j] is None:
                raise CertificationError(f"reduced cost {j} positive without an upper bound")
            bound += dj * up[j]
        elif dj < 0:
            if lo[j] is None:
                raise CertificationError(f"reduced cost {j} negative without a lower bound")
            bound += dj * lo[j]
    return bound
