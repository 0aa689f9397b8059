"""The master of column-generated LP (46): the restricted LP and the pool of columns it holds.

Paper: [lopuhaa-2024], Sec. 5, LP (46): max sum_v theta_v mu(v) s.t. sum_v theta_v v = 1_X,
theta >= 0, over the points v of Gamma-hat.  Column generation keeps a finite set of columns (points of
prod_s W_s, normalised to sum 1 on the LP coordinates, so in Gamma_eps by construction):

* :class:`RestrictedLP` -- LP (46) restricted to those columns (HiGHS, warm-started), with its row duals
  y_RMP and its basis (for the exact re-solve of :func:`cg_certify.exact_primal`);
* :class:`ColumnPool` -- the columns, exact (for the certificate) and in floats (for the masters), with
  their objective mu(v) (:func:`mu_float`), deduplicated on the normalised float column.

Used by :mod:`polyopt_cg` (the driver) and :mod:`cg_stabilisation`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import CertificationError
from rldp_verify.core.highs import IncrementalLP


class RestrictedLP:
    """Restricted LP (46): max sum_j theta_j mu_j s.t. sum_j theta_j v_j = 1 on the LP coordinates, theta >= 0;
    the engine's column-generation LP (:class:`rldp_verify.core.highs.IncrementalLP`: warm-started, duals)."""

    def __init__(self, rows: int, *, box: bool = False):
        tols = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
        self.lp = IncrementalLP([1.0] * rows, [1.0] * rows, maximize=True, options=tols)
        self.m = rows
        self.off = 0
        if box:
            # box-step stabilisation: slack columns -e_i (cost -(c_i + delta)) and +e_i (cost c_i - delta)
            # restrict the dual to the box [c - delta, c + delta]; bounds 0 switch them off (plain RMP)
            for sign in (-1.0, 1.0):
                self.lp.add_columns(np.zeros(rows), np.zeros(rows), np.zeros(rows), sign * np.eye(rows))
            self.off = 2 * rows

    @property
    def n(self) -> int:
        """Columns of LP (46) in the master so far (the box slack columns not counted)."""
        return self.lp.cols - self.off

    def set_box(self, centre: np.ndarray | None, delta: float) -> None:
        """Dual box [centre - delta, centre + delta] (None: no box, the plain restricted LP)."""
        m = self.m
        idx = np.arange(2 * m)
        if centre is None:
            self.lp.change_columns(idx, lower=np.zeros(2 * m), upper=np.zeros(2 * m))
            return
        c = np.asarray(centre, float)
        self.lp.change_columns(idx, costs=np.concatenate([-(c + delta), c - delta]), lower=np.zeros(2 * m),
                               upper=np.full(2 * m, math.inf))

    def add(self, cols: np.ndarray, costs: np.ndarray) -> None:
        """Columns ``cols`` (k x m, dense, normalised) with objective ``costs``, theta_j in [0, inf)."""
        k = len(costs)
        self.lp.add_columns(costs, np.zeros(k), np.full(k, math.inf), cols)

    def solve(self):
        """(objective, x, row duals) of the restricted LP (x without the box slack columns); CertificationError
        unless HiGHS reports an optimum."""
        sol = self.lp.solve()
        if not sol.optimal:
            raise CertificationError(f"the restricted LP (46) ended with status {sol.status}")
        return sol.objective, sol.x[self.off:], sol.row_dual

    def basis(self):
        """The basic columns (indices among the LP (46) columns; none when a box slack column is basic: no exact
        re-solve of that basis) and the basic (slack) rows of the last solve."""
        cols, rows = self.lp.basic_indices()
        cols = [j - self.off for j in cols]
        if any(j < 0 for j in cols):
            cols = []
        return cols, rows


def fsum_dot(u: np.ndarray, v: np.ndarray) -> float:
    """u . v correctly rounded (math.fsum): unlike a BLAS dot product, the same on every machine (the
    kernel OpenBLAS picks changes the last bits, and column generation amplifies them: measured on Adult
    occupation x education, NR at eps = 2, two BLAS configurations gave lower ends 0.2642 and 0.2735 after
    12 iterations)."""
    return math.fsum((u * v).tolist())


def mu_float(v: np.ndarray, p: np.ndarray) -> float:
    """mu(v) = sum_x v_x P_x log(v_x / t), t = P . v (eq. (45)): the master's objective coefficient of column v.
    The sums are math.fsum (correctly rounded), not BLAS dot products, whose last bits depend on the kernel
    OpenBLAS picks for the CPU: the same costs, hence the same master LP, on every machine."""
    t = fsum_dot(v, p)
    pos = (v > 0) & (p > 0)
    return math.fsum((v[pos] * p[pos] * np.log(v[pos] / t)).tolist()) if t > 0 else 0.0


class ColumnPool:
    """The columns of the restricted LP (46) in the order the master holds them.

    ``exact``: the exact columns, unnormalised, restricted to the LP coordinates (the certificate's input);
    ``floats``: (normalised float column, mu) pairs (the proximal bundle's cuts); ``touched``: indices of
    the columns of the last :meth:`add_exact` call (new or already there)."""

    def __init__(self, cone, lp_coords, p_lp: np.ndarray, master: RestrictedLP):
        self.cone = cone
        self.lp = lp_coords
        self.p_lp = p_lp
        self.master = master
        self.exact: list = []
        self.keys: dict = {}       # normalised float column -> its index among the master's columns
        self.floats: list = []
        self.touched: list = []

    def add_exact(self, vecs, *, check: bool = True) -> int:
        """Columns from exact vectors of the cone (unnormalised; ``check``: test membership exactly,
        not needed for products of block vertices, which lie in the cone by construction).  Returns
        how many columns were new."""
        block_v, block_mu = [], []
        self.touched.clear()
        for vec in vecs:
            progress.update()     # a deadline (the CLI's --time-limit during the set-up) is checked per column
            v = tuple(Fraction(x) for x in vec)
            if check and not self.cone.member(v):
                continue
            w = tuple(v[x] for x in self.lp)
            wf = np.array([float(t) for t in w])
            tot = float(wf.sum())
            if tot <= 0:
                continue
            vf = wf / tot
            key = tuple(vf.tolist())
            if key in self.keys:
                self.touched.append(self.keys[key])
                continue
            self.keys[key] = len(self.exact)
            self.touched.append(self.keys[key])
            self.exact.append(w)
            block_v.append(vf)
            block_mu.append(mu_float(vf, self.p_lp))
            self.floats.append((vf, block_mu[-1]))
        if block_v:
            self.master.add(np.array(block_v), np.array(block_mu))
        return len(block_v)
