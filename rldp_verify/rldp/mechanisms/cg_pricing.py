"""Pricing of column-generated LP (46): the maximal reduced cost M(y) and the columns that have a positive one.

Paper: [lopuhaa-2024], Sec. 5, eqs. (45)-(46).  For a dual vector y of LP (46) the reduced
cost of a column v (normalised, sum_x v_x = 1) is mu(v) - y . v; its maximum over Gamma-hat is

    M(y) = max_v (mu(v) - y . v) / (1 . v)   over the cone points v = a product of block vertices,

and y + M(y) 1 is dual feasible, with dual value f(y) = sum_x y_x + m M(y) (m = the LP coordinates).
:class:`Pricing` finds M(y) by Dinkelbach steps on G(y + M 1) = max_v mu(v) - (y + M 1) . v, which is
decreasing in M and is maximised by the block branch and bound :class:`pricing.Pricer`; it returns the
maximisers (and the neighbourhoods of the best one) as new columns of the :class:`cg_master.ColumnPool`.
Used by :mod:`polyopt_cg` and :mod:`cg_stabilisation`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from rldp_verify.core import progress
from rldp_verify.rldp.mechanisms.cg_master import ColumnPool, fsum_dot
from rldp_verify.rldp.mechanisms.pricing import Pricer

#: the pricing's branch and bound gives up growing its node budget (after a mis-pricing) at this many nodes
MAX_BUDGET = 40000


class Pricing:
    """The pricing oracle of LP (46) over the blocks of ``cone`` (their data ``data``, searched by ``pricer``).

    ``budget``: the node budget of the branch and bound (40 at the start; the masters grow it tenfold when
    no column is found, up to :data:`MAX_BUDGET`).  ``n_min``: a lower bound on the normalisation 1 . w of
    every block-vertex product w (a search gap g at M bounds M* by M + g / n_min).  ``alternatives``: other
    near-best points of each search kept as columns; ``neighbours``: per block, this many points that differ
    from the best one (and from the uniform point, h = 1 in every block) in that block."""

    def __init__(self, cone, data, pricer: Pricer, pool: ColumnPool, *, alternatives: int, neighbours: int):
        self.cone = cone
        self.data = data
        self.pricer = pricer
        self.pool = pool
        self.lp = pool.lp
        self.m = len(pool.lp)
        self.alternatives = alternatives
        self.neighbours = neighbours
        self.budget = 40
        n_min = sum(float(np.min(bd.N)) for bd in data) * (1 - 1e-9)
        self.n_min = n_min if n_min > 0 else 1e-300
        self.uniform = None
        if cone.kind == "polyopt":     # the vertex w = 1 (h = 1) of every block: type (i) with B empty
            self.uniform = tuple((s, int(np.nonzero((b.masks == 0) & (b.kidx < 0) & (b.a2 == 1.0))[0][0]))
                                 for s, b in enumerate(cone.blocks))

    # ------------------------------------------------------------------ points of prod_s W_s
    def combo_vector(self, point) -> list:
        """The exact vector of the point ``point`` ((block, vertex) pairs) on all of X."""
        v = [Fraction(0)] * self.cone.a
        for s, j in point:
            b = self.cone.blocks[s]
            for x, val in zip(b.coords, b.exact_point(j), strict=True):
                v[x] = val
        return v

    def combo_float(self, point):
        """(w, A, T) of the point: w in floats, A = sum_x w_x P_x log w_x and T = P . w from the block data."""
        w = np.zeros(self.cone.a)
        A = T = 0.0
        for s, j in point:
            b = self.cone.blocks[s]
            w[list(b.coords)] = b.dense([j])[0]
            A += self.data[s].A[j]
            T += self.data[s].T[j]
        return w, A, T

    def combo_mu(self, point):
        """(w, mu(w)) with mu(w) = A - T log T (eq. (45), w unnormalised)."""
        w, A, T = self.combo_float(point)
        return w, A - (T * math.log(T) if T > 0 else 0.0)

    def reduced_cost(self, point, y) -> float:
        """(mu(w) - y . w) / (1 . w): the reduced cost of the normalised column of ``point`` at y."""
        w, mu = self.combo_mu(point)
        return (mu - fsum_dot(w, y)) / float(w.sum())

    # ------------------------------------------------------------------ M(y)
    def price(self, y, M0, tau=0.0):
        """Dinkelbach on M: returns (M lower estimate, M upper estimate (float), new points).  With
        ``tau`` > 0 the upper estimate is tightened by a branch and bound at M + tau that only has to
        prove G <= 0 (then M* <= M + tau), instead of M + (the search's gap) / n_min, which n_min
        (the smallest normalisation over the cone) makes loose."""
        pricer = self.pricer
        M = M0
        pts = []
        below = False
        pricer.set_dual(y)
        for _ in range(30):
            progress.update()     # a deadline (the CLI's --time-limit during the set-up) is checked per step
            pricer.shift(M)
            best, pt, ub, _ = pricer.solve(gap_tol=1e-11, max_nodes=self.budget, alternatives=self.alternatives)
            pts.append(pt)
            pts.extend(pricer.alternatives)
            w, mu = self.combo_mu(pt)
            N = float(w.sum())
            rc = (mu - fsum_dot(w, y)) / N
            tol = 1e-12 * (1 + abs(M)) * N
            if best > tol and rc > M:
                M, below = rc, True          # Dinkelbach step from below
            elif best < -tol and not below:
                M, below = rc, True          # started above M*: rc <= M*, continue from below
            else:
                break
        M_up = M + max(ub, 0.0) / self.n_min
        if tau > 0 and M_up > M + tau:
            pricer.shift(M + tau)
            _, _, ub2, _ = pricer.solve(gap_tol=1e-11, max_nodes=max(200, self.budget), prune_at=0.0)
            M_up = min(M_up, M + tau + max(ub2, 0.0) / self.n_min)
        return M, M_up, pts

    def line_bound(self, y_out, z, val_z, tau):
        """In-out upper bound: the first point of the segment from y_out (the restricted LP's dual,
        infeasible) to the in-point z (G(z) <= 0) where G <= 0, by Dinkelbach steps on the fraction
        theta (G(y_out + theta (z - y_out)) is convex in theta); then proven <= 0 at theta + tau' by a
        branch and bound that may prune at 0.  Returns (value, point, M shift still needed, points)."""
        d = z - y_out
        sd = float(np.sum(d[self.lp]))
        if sd <= 0:
            return val_z, z, 0.0, []
        theta, pts = 0.0, []
        for _ in range(20):
            self.pricer.set_dual(y_out + theta * d)
            best, pt, _, _ = self.pricer.solve(gap_tol=1e-11, max_nodes=40)
            pts.append(pt)
            w, mu = self.combo_mu(pt)
            if best <= 1e-12 * (1 + abs(best)) * float(w.sum()):
                break
            den = fsum_dot(w, d)
            if den <= 0:
                return val_z, z, 0.0, pts
            theta = min(1.0, (mu - fsum_dot(w, y_out)) / den)
            if theta >= 1.0:
                return val_z, z, 0.0, pts
        th = min(1.0, theta + tau / sd)
        yt = y_out + th * d
        self.pricer.set_dual(yt)
        _, _, ub, _ = self.pricer.solve(gap_tol=1e-11, max_nodes=200, prune_at=0.0)
        shift = max(ub, 0.0) / self.n_min
        val = float(np.sum(yt[self.lp])) + self.m * shift
        if val < val_z:
            return val, yt, shift, pts
        return val_z, z, 0.0, pts

    def prior_direction(self, d):
        """lambda = max over the cone of mu(v) / (d . v) by Dinkelbach steps (d = P-hat on the LP coordinates:
        the largest divergence of an output's posterior from the prior); returns lambda and the maximisers."""
        lam, found = 0.0, []
        for _ in range(40):
            progress.update()     # a deadline (the CLI's --time-limit during the set-up) is checked per step
            self.pricer.set_dual(lam * d)
            progress.update()
            best, pt, _, _ = self.pricer.solve(gap_tol=1e-11, max_nodes=self.budget)
            found.append(pt)
            w, mu = self.combo_mu(pt)
            if best <= 1e-12 * (1 + lam) * float(w.sum()):
                break
            lam = mu / fsum_dot(w, d)
        return lam, found

    # ------------------------------------------------------------------ new columns
    def neighbourhood(self, base, k):
        """Points that differ from ``base`` (one vertex per block) in one block, the k with the largest
        reduced cost per block at the pricer's dual (exact pricing over this family: every vertex of the
        block is evaluated).  Assumes pricer.set_dual(y) was called."""
        F, data = self.pricer.F, self.data
        Fb = np.array([F[s][j] for s, j in base])
        Tb = np.array([data[s].T[j] for s, j in base])
        Nb = np.array([data[s].N[j] for s, j in base])
        out = []
        for s, j0 in base:
            T = Tb.sum() - Tb[s] + data[s].T
            g = F[s] + (Fb.sum() - Fb[s]) - T * np.log(np.maximum(T, 1e-300))
            rc = g / (Nb.sum() - Nb[s] + data[s].N)
            kk = min(k, len(rc))
            top = np.argpartition(-rc, kk - 1)[:kk] if kk < len(rc) else np.arange(len(rc))
            out.extend(tuple((r, (j if r == s else jj)) for r, jj in base)
                       for j in top.tolist() if rc[j] > 1e-12 and j != j0)
        return out

    def columns_at(self, y, pts) -> int:
        """Add the points with positive reduced cost at y (and the neighbourhoods of the best one and of
        the uniform point) to the pool; returns how many columns were added."""
        if self.neighbours:
            self.pricer.set_dual(y)
            for base in [pts[0]] + ([self.uniform] if self.uniform is not None else []):
                pts.extend(self.neighbourhood(base, self.neighbours))
        seen, vecs = set(), []
        for pt in pts:
            progress.update()     # a deadline (the CLI's --time-limit during the set-up) is checked per point
            if pt in seen:
                continue
            seen.add(pt)
            if self.reduced_cost(pt, y) > 1e-12:
                vecs.append(self.combo_vector(pt))
        return self.pool.add_exact(vecs, check=False)
