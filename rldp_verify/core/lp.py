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
import flint
import numpy as np

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.highs import highs_solve
from rldp_verify.core.numbers import exact

Vector = Sequence[Any]
Matrix = Sequence[Sequence[Any]]
#: a sparse row: (column index, exact coefficient) pairs
SparseRow = list[tuple[int, Fraction]]
Bound = Fraction | None
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
        return bool(self.status == cdd.LPStatusType.OPTIMAL)

    @property
    def inconsistent(self) -> bool:
        """cdd says INCONSISTENT (no feasible point; not the structural variant)."""
        return bool(self.status == cdd.LPStatusType.INCONSISTENT)

    @property
    def infeasible(self) -> bool:
        return bool(self.status in (cdd.LPStatusType.INCONSISTENT, cdd.LPStatusType.STRUC_INCONSISTENT))

    @property
    def dual_infeasible(self) -> bool:
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


def _fmpq(x: Fraction | int) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def solve_square(M: Sequence[Sequence[Fraction]], rhs: Sequence[Fraction]) -> list[Fraction] | None:
    """The exact solution z of the square system M z = rhs (python-flint ``fmpq_mat``), None if M is singular.
    The one exact square solve of the engine (LP bases, PolyOpt's basis, the staircase basis)."""
    k = len(M)
    if k == 0:
        return []
    Mm = flint.fmpq_mat(k, k, [_fmpq(x) for row in M for x in row])
    R = flint.fmpq_mat(k, 1, [_fmpq(x) for x in rhs])
    try:
        z = Mm.solve(R)
    except ZeroDivisionError:
        return None
    return [Fraction(int(q.p), int(q.q)) for q in z.entries()]


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
        return x * _fmpq(q)
    return x * q


def exact_rank(rows: Sequence[Sequence[Any]]) -> int:
    """The exact rank of a list of rational vectors (python-flint ``fmpq_mat``); 0 for no rows or no columns."""
    if not rows or not rows[0]:
        return 0
    return int(flint.fmpq_mat(len(rows), len(rows[0]), [_fmpq(x) for r in rows for x in r]).rank())


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


@dataclass(frozen=True)
class _BoundedLP:
    """The LP of :func:`solve_certified` in bound form, with what the exact certificate needs.

    maximise c.x  s.t.  glo <= G x <= gup (sparse rows G: the rows of A with two or more non-zeros, then E),
    lo <= x <= up (keyword bounds tightened by the single-non-zero rows of A; ``lo_src``/``up_src`` say where
    each bound came from: (_KW, j) or (_ROW, i); on a tie the first source is kept, keyword bounds before rows,
    rows in their order: its multiplier carries the bound's dual value); ``gsrc[i]`` is the index in [A; E] of row i
    of G;
    ``MT`` is [A; E]^T as a flint matrix (None without rows)."""

    c: list[Fraction]
    A: list[list[Fraction]]
    b: list[Fraction]
    E: list[list[Fraction]]
    f: list[Fraction]
    kw_lo: list[Bound]
    kw_up: list[Bound]
    lo: list[Bound]
    up: list[Bound]
    lo_src: list[tuple[str, int] | None]
    up_src: list[tuple[str, int] | None]
    G: list[SparseRow]
    glo: list[Bound]
    gup: list[Bound]
    gsrc: list[int]
    have_kw: bool
    MT: Any


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


def _flint_transpose(rows: list[list[Fraction]], n: int) -> Any:
    """[rows]^T as a flint fmpq_mat (n x len(rows)), exact; None without rows."""
    k = len(rows)
    if k == 0:
        return None
    flat: list[Any] = [None] * (n * k)
    for i, r in enumerate(rows):
        for j, a in enumerate(r):
            flat[j * k + i] = _fmpq(a)
    return flint.fmpq_mat(n, k, flat)


def _times(MT: Any, y: list[Fraction]) -> list[Fraction]:
    """MT * y as a list of Fractions (MT from :func:`_flint_transpose`)."""
    k = MT.ncols()
    out = MT * flint.fmpq_mat(k, 1, [_fmpq(v) for v in y])
    return [Fraction(int(q.p), int(q.q)) for q in out.entries()]


def _exact_simplex(lp: _BoundedLP, col_st: Sequence[str], row_st: Sequence[str], max_iter: int | None = None
                   ) -> tuple[list[Fraction], list[Fraction], list[Fraction]] | None:
    """Exact bounded primal simplex on  W z = 0, W = [G | -I], z = (x, r), started from HiGHS's
    basis.  Usually HiGHS's basis is already optimal and no pivot is made; the pivots repair
    bases that are optimal only up to HiGHS's tolerances.  Bland's rule (no cycling); ratio-test ties: a bound
    flip of the entering column first, then the basic column of smallest index.
    Returns (x, y, d) with y the multipliers of the rows of G and d = c - G^T y, or None
    (singular basis, unbounded, iteration limit)."""
    sx = _BoundedSimplex(lp, col_st, row_st)
    if len(sx.basic) != sx.m:
        return None
    return sx.run(max_iter if max_iter is not None else 50 + 4 * sx.m)


class _BoundedSimplex:
    """The state of :func:`_exact_simplex`: the columns of W = [G | -I] (k < n: column k of G; k >= n: the slack
    of row k - n), their bounds ``lb``/``ub`` (None: no bound), the basic columns and the point z."""

    def __init__(self, lp: _BoundedLP, col_st: Sequence[str], row_st: Sequence[str]) -> None:
        self.lp = lp
        self.n, self.m = len(lp.c), len(lp.G)
        self.N = self.n + self.m
        self.nrows_total = len(lp.A) + len(lp.E)
        lb: list[Any] = list(lp.lo) + list(lp.glo)      # None: no bound
        ub: list[Any] = list(lp.up) + list(lp.gup)
        self.lb, self.ub = lb, ub
        self.cols: list[SparseRow] = [[] for _ in range(self.n)]
        for i, row in enumerate(lp.G):
            for j, a in row:
                self.cols[j].append((i, a))
        status = list(col_st) + list(row_st)
        self.basic = [k for k in range(self.N) if status[k] == "B"]
        self.cq = [_fmpq(v) for v in lp.c]
        # non-basic start values: the bound HiGHS names ("L"/"U") if it exists, else the lower bound, else the upper
        # bound, else 0 (a free column, "Z"); a fixed column (lower = upper) gets that value whatever its code.  The
        # basic values set here are never read: they are solved for in each iteration.
        z = [Fraction(0)] * self.N
        for k in range(self.N):
            if status[k] == "U" and ub[k] is not None:
                z[k] = ub[k]
            elif lb[k] is not None:
                z[k] = lb[k]
            elif ub[k] is not None:
                z[k] = ub[k]
        self.z = z

    def wcol(self, k: int) -> SparseRow:
        return self.cols[k] if k < self.n else [(k - self.n, Fraction(-1))]

    def run(self, limit: int) -> tuple[list[Fraction], list[Fraction], list[Fraction]] | None:
        pivots = 0
        while True:
            isb = set(self.basic)
            Bm = self._basis_matrix()
            if not self._solve_basic(Bm, isb):
                return None
            duals = self._duals(Bm)
            if duals is None:
                return None
            y, dq = duals
            enter = self._entering(isb, y, dq)
            if enter is None:
                return self.z[: self.n], y, [Fraction(int(q.p), int(q.q)) for q in dq]
            if pivots >= limit:
                return None
            pivots += 1
            if not self._pivot(Bm, *enter):
                return None

    def _basis_matrix(self) -> list[list[Fraction]]:
        m = self.m
        Bm = [[Fraction(0)] * m for _ in range(m)]
        for p, k in enumerate(self.basic):
            for i, a in self.wcol(k):
                Bm[i][p] = a
        return Bm

    def _solve_basic(self, Bm: list[list[Fraction]], isb: set[int]) -> bool:
        """The basic values from the non-basic ones (exact); False when the basis is singular or the point
        violates a bound (the starting basis must be primal feasible)."""
        z, lb, ub = self.z, self.lb, self.ub
        rhs = [Fraction(0)] * self.m
        for k in range(self.N):
            if k not in isb and z[k] != 0:
                for i, a in self.wcol(k):
                    rhs[i] -= a * z[k]
        zb = solve_square(Bm, rhs)
        if zb is None:
            return False
        for p, k in enumerate(self.basic):
            z[k] = zb[p]
        return not any((lb[k] is not None and z[k] < lb[k]) or (ub[k] is not None and z[k] > ub[k])
                       for k in self.basic)

    def _duals(self, Bm: list[list[Fraction]]) -> tuple[list[Fraction], list[Any]] | None:
        """(y, d): the multipliers y of the rows of G (B^T y = c_B) and d = c - G^T y (flint fmpq); None when
        singular."""
        m, n = self.m, self.n
        cB = [self.lp.c[k] if k < n else Fraction(0) for k in self.basic]
        y = solve_square([[Bm[i][p] for i in range(m)] for p in range(m)], cB)
        if y is None:
            return None
        if not m:
            return y, list(self.cq)
        yfull = [Fraction(0)] * self.nrows_total
        for i, yi in enumerate(y):
            yfull[self.lp.gsrc[i]] = yi
        gy = self.lp.MT * flint.fmpq_mat(self.nrows_total, 1, [_fmpq(v) for v in yfull])
        gyl = gy.entries()
        return y, [self.cq[j] - gyl[j] for j in range(n)]

    def _entering(self, isb: set[int], y: list[Fraction], dq: list[Any]) -> tuple[int, int] | None:
        """Bland's rule: the first non-basic column whose reduced cost improves and that can move; (k, sign)."""
        z, lb, ub = self.z, self.lb, self.ub
        for k in range(self.N):
            if k in isb:
                continue
            dk = dq[k] if k < self.n else y[k - self.n]
            if dk > 0 and (ub[k] is None or z[k] < ub[k]):
                return k, 1
            if dk < 0 and (lb[k] is None or z[k] > lb[k]):
                return k, -1
        return None

    def _pivot(self, Bm: list[list[Fraction]], k: int, sigma: int) -> bool:
        """Move column k in direction sigma by the ratio test; False when singular or unbounded (a ray: the
        exact solver reports it)."""
        z, lb, ub, basic = self.z, self.lb, self.ub, self.basic
        rhs = [Fraction(0)] * self.m
        for i, a in self.wcol(k):
            rhs[i] -= sigma * a
        delta = solve_square(Bm, rhs)
        if delta is None:
            return False
        t_best: Fraction | None = None
        leave: int | None = None
        if lb[k] is not None and ub[k] is not None:
            t_best = ub[k] - lb[k]
        for p, kb in enumerate(basic):
            dp = delta[p]
            if dp > 0 and ub[kb] is not None:
                t = (ub[kb] - z[kb]) / dp
            elif dp < 0 and lb[kb] is not None:
                t = (lb[kb] - z[kb]) / dp
            else:
                continue
            if t_best is None or t < t_best or (t == t_best and leave is not None and kb < basic[leave]):
                t_best, leave = t, p
        if t_best is None:
            return False
        z[k] += sigma * t_best
        if leave is None:
            return True             # bound flip
        kb = basic[leave]
        z[kb] = ub[kb] if delta[leave] > 0 else lb[kb]
        basic[leave] = k
        return True


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
