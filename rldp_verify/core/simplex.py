"""The bound form of an LP and an exact bounded primal simplex on it (the repair step of
:func:`rldp_verify.core.lp.solve_certified`).

maximise c.x  s.t.  glo <= G x <= gup,  lo <= x <= up  is written  W z = 0, W = [G | -I], z = (x, r), with a
bound per column of W.  :class:`BoundedSimplex` starts from HiGHS's basis and pivots exactly (Fractions, python-flint
for the products) by Bland's rule; every number is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import flint

from rldp_verify.core.linalg import fmpq_of, solve_square

#: a sparse row: (column index, exact coefficient) pairs
SparseRow = list[tuple[int, Fraction]]
Bound = Fraction | None

__all__ = ["BoundedLP", "BoundedSimplex", "SparseRow", "Bound"]


@dataclass(frozen=True)
class BoundedLP:
    """The LP of :func:`rldp_verify.core.lp.solve_certified` in bound form, with what the exact certificate needs.

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


class BoundedSimplex:
    """The state of :func:`rldp_verify.core.lp._exact_simplex`: the columns of W = [G | -I] (k < n: column k of G;
    k >= n: the slack of row k - n), their bounds ``lb``/``ub`` (None: no bound), the basic columns and the point z."""

    def __init__(self, lp: BoundedLP, col_st: Sequence[str], row_st: Sequence[str]) -> None:
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
        self.cq = [fmpq_of(v) for v in lp.c]
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
        """Column k of W = [G | -I], sparse."""
        return self.cols[k] if k < self.n else [(k - self.n, Fraction(-1))]

    def run(self, limit: int) -> tuple[list[Fraction], list[Fraction], list[Fraction]] | None:
        """Pivot until optimal: (x, y, d) as :func:`rldp_verify.core.lp._exact_simplex` returns them, or None (a
        singular basis, an infeasible start, an unbounded ray, or more than ``limit`` pivots)."""
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
        gy = self.lp.MT * flint.fmpq_mat(self.nrows_total, 1, [fmpq_of(v) for v in yfull])
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
