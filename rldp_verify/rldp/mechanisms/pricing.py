"""Pricing for LP (46) over the block product: max over Gamma-hat of mu(v) - y . v without enumerating it.

Paper: [lopuhaa-2024], Sec. 5, eqs. (45)-(46), Theorem 3.  Gamma_eps = cone(prod_s W_s)
(:mod:`rldp_verify.rldp.mechanisms.cone_blocks`).  For a vector y' and w = (w_s)_s in prod_s W_s,

    g_y'(w) = mu(w) - y' . w = sum_s F_s(w_s) + phi(t),   F_s = sum_{x in s} P_x w_x log w_x - y'_s . w_s,
    t = sum_s T_s(w_s),  T_s = P_s . w_s,  phi(t) = -t log t (concave).

g is convex (mu is), so its maximum over the polytope prod_s W_s is attained at a product of block
vertices: G(y') = max over one vertex j_s per block of sum_s F_sj + phi(sum_s T_sj).  g is positively
homogeneous, so G(y') <= 0 says mu(v) <= y' . v on the whole cone; then every mechanism whose rows lie
in Gamma_eps has utility sum_y mu(Q_y) <= y' . sum_y Q_y = sum_x y'_x: the certified upper bound.

Bound (Lagrangian relaxation of t): for every kappa, phi(t) <= phi*(kappa) + kappa t with
phi*(kappa) = max_t (phi(t) - kappa t) (= e^(-1-kappa) for t unrestricted), so

    G <= U(kappa) = phi*(kappa) + sum_s max_j (F_sj + kappa T_sj).

Its minimum over kappa equals max_t phi(t) + H(t), H the sup-convolution of the per-block upper hulls
in (T, F); only the one block whose hull segment contains the optimum mixes two hull points.  A
branch and bound on the index range (ordered by T) of that block closes the rest: a node restricts
some blocks to contiguous ranges of their T-order, the ranges of the children partition the parent's.
A node of at most ENUM_MAX combinations is evaluated combination by combination instead (a leaf).
Float search first; the certificate (:meth:`Pricer.rigorous_bound`, used by polyopt_cg) re-evaluates every leaf with the
proven float error bounds of :func:`cone_blocks.block_data` and phi* in arb, so its verdict is rigorous
(trust level: numpy's log within LOG_ULPS ulp, as in mechanisms.polyopt).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from rldp_verify.rldp.mechanisms.cone_blocks import LOG_ULPS, U64, BlockData

#: a node whose block ranges hold at most this many combinations is searched exhaustively (one vectorised
#: evaluation of every combination) instead of being bounded by the relaxation and split.  Measured on the
#: benchmark instance |S| x |U| = 13 x 1 (2 vertices per block, 8,192 combinations, where the relaxation
#: mixes one block at every node: 15,000 nodes per column-generation run): 5.9 s with the search alone, 0.45 s
#: with small nodes enumerated, against 0.97 s for the enumeration of Gamma-hat (benchmarks/bench_polyopt_large.py,
#: part A).  Large instances never reach such nodes (a node restricts one block at a time), so their search is
#: unchanged.
ENUM_MAX = 4096
_INV_E = math.exp(-1.0)


def _phi(t):
    return -t * np.log(t)


def _combine(arrays):
    """Every combination of one entry per array, summed: entry (i_0, ..., i_k) of the C-order product."""
    acc = arrays[0]
    for arr in arrays[1:]:
        acc = (acc[:, None] + arr[None, :]).reshape(-1)
    return acc


class Pricer:
    """The pricing problem for fixed block data; :meth:`set_dual` loads y' and computes F.  ``enum_max``: nodes of
    at most this many combinations are enumerated (default ENUM_MAX, read when the pricer is made; 0: never)."""

    def __init__(self, data: list[BlockData], dim: int, *, enum_max: int | None = None):
        self.data = data
        self.dim = dim
        self.enum_max = ENUM_MAX if enum_max is None else enum_max
        self._prep = []
        for bd in data:
            b = bd.block
            nb = bd.nbits
            full = (1 << nb) - 1
            k = b.kidx
            kb = np.where(k >= 0, np.left_shift(1, np.maximum(k, 0)), 0)
            comp = full ^ b.masks ^ kb
            singleton = nb > 20
            self._prep.append((np.array(b.coords), b.masks, comp, np.where(k >= 0, k, nb), singleton))
        self.F: list[np.ndarray] = []                 # F_sj per block, loaded by set_dual (shifted by shift)
        self.F_err: list[np.ndarray] | None = None    # their proven error bounds (set_dual(errors=True) only)
        self.y: np.ndarray | None = None

    def set_dual(self, y: np.ndarray, *, errors: bool = False) -> None:
        """F_sj = A_sj - y' . w_sj for every block vertex (float); with ``errors`` also the proven error
        bounds that :meth:`rigorous_bound` needs."""
        self.y = y_arr = np.asarray(y, dtype=float)
        F_all: list[np.ndarray] = []
        F_err: list[np.ndarray] = []
        for bd, (coords, masks, comp, kk, singleton) in zip(self.data, self._prep, strict=True):
            b = bd.block
            ys = y_arr[coords]
            nb = bd.nbits
            if singleton:     # NR-type blocks with many coordinates: masks are single bits
                idx = np.log2(masks).astype(int)
                Y1 = ys[idx]
                Y2 = np.zeros(len(masks))
            else:
                sums = np.zeros(1 << nb)
                for k in range(nb):
                    st = 1 << k
                    v = sums.reshape(-1, 2 * st)
                    v[:, st:] = v[:, :st] + ys[k]
                Y1, Y2 = sums[masks], sums[comp]
            yk = np.append(ys, 0.0)[kk]
            Y = b.a1 * Y1 + b.a2 * Y2 + b.a3 * yk
            F = bd.A - Y
            F_all.append(F)
            if errors:
                ey = (nb + 2) * U64 * float(np.sum(np.abs(ys))) * (1 + 1e-10)
                Y_err = ((b.a1 + b.a2 + b.a3) * ey
                         + 6 * U64 * (np.abs(b.a1 * Y1) + np.abs(b.a2 * Y2) + np.abs(b.a3 * yk)))
                F_err.append(bd.A_err + Y_err + 2 * U64 * np.abs(F) + 1e-300)
        self.F, self.F_err = F_all, (F_err if errors else None)
        self.Fs = [F[bd.order] for F, bd in zip(self.F, self.data, strict=True)]
        if not hasattr(self, "Ts"):
            self.Ts = [bd.T[bd.order] for bd in self.data]
            self.Ns = [bd.N[bd.order] for bd in self.data]
        self._F0, self._Fs0 = self.F, self.Fs

    def shift(self, M: float) -> None:
        """For the float search only: F as for y' + M 1, i.e. F0 - M N (no error bounds)."""
        self.F = [F - M * bd.N for F, bd in zip(self._F0, self.data, strict=True)]
        self.Fs = [F - M * N for F, N in zip(self._Fs0, self.Ns, strict=True)]
        self.F_err = None

    # ---------------------------------------------------------------------------------- hulls
    def hull(self, s: int, lo: int, hi: int):
        """Upper hull (positions in T-order, increasing T) of block s restricted to positions [lo, hi)."""
        return lo + _upper_hull(self.Ts[s][lo:hi], self.Fs[s][lo:hi])

    def bound(self, node: Node, hulls: dict) -> Relax:
        """Lagrangian bound of a node: max_t phi(t) + H(t), H the sup-convolution of the hulls."""
        segs_dT, segs_dF, segs_sl, segs_blk = [], [], [], []
        t0, f0 = 0.0, 0.0
        starts = []
        for s, _bd in enumerate(self.data):
            h = hulls[s]
            T, F = self.Ts[s][h], self.Fs[s][h]
            t0 += T[0]
            f0 += F[0]
            starts.append(h)
            if len(h) > 1:
                dT, dF = np.diff(T), np.diff(F)
                segs_dT.append(dT)
                segs_dF.append(dF)
                segs_sl.append(dF / dT)
                segs_blk.append(np.full(len(dT), s))
        if segs_dT:
            dT, dF = np.concatenate(segs_dT), np.concatenate(segs_dF)
            sl, blk = np.concatenate(segs_sl), np.concatenate(segs_blk)
            srt = np.argsort(-sl, kind="stable")
            dT, dF, sl, blk = dT[srt], dF[srt], sl[srt], blk[srt]
        else:
            dT = dF = sl = np.zeros(0)
            blk = np.zeros(0, dtype=int)
        tb = t0 + np.concatenate([[0.0], np.cumsum(dT)])          # breakpoints
        fb = f0 + np.concatenate([[0.0], np.cumsum(dF)])
        vals = _phi(np.maximum(tb, 1e-300)) + fb
        best_k = int(np.argmax(vals))
        best, best_t, seg = float(vals[best_k]), float(tb[best_k]), -1
        if len(sl):
            ts = np.exp(np.minimum(sl - 1.0, 700.0))                   # phi'(t) + slope = 0
            inside = (ts > tb[:-1]) & (ts < tb[1:])
            if inside.any():
                cand = np.nonzero(inside)[0]
                v = _phi(ts[cand]) + fb[cand] + (ts[cand] - tb[cand]) * sl[cand]
                i = int(np.argmax(v))
                if v[i] > best:
                    best, best_t, seg = float(v[i]), float(ts[cand[i]]), int(cand[i])
        # block positions at the optimum: segments with slope above the optimum are taken
        kappa = -math.log(best_t) - 1.0 if best_t > 0 else 700.0     # phi'(t*)
        pos = [h[0] for h in starts]
        taken = np.arange(best_k) if seg < 0 else np.arange(seg)
        counts = np.bincount(blk[taken], minlength=len(self.data)) if len(taken) else np.zeros(len(self.data), int)
        for s in range(len(self.data)):
            pos[s] = int(starts[s][counts[s]])
        mix = None
        if seg >= 0:
            s = int(blk[seg])
            mix = (s, int(starts[s][counts[s]]), int(starts[s][counts[s] + 1]))
        # at a breakpoint the relaxation is attained by the combination ``pos`` itself (no mixing)
        return Relax(best, kappa, pos, mix)

    def size(self, node: Node, cap: int) -> int:
        """The number of combinations of the node (counted up to ``cap`` + 1: larger is larger)."""
        n = 1
        for s, bd in enumerate(self.data):
            lo, hi = node.range(s, len(bd.T))
            n *= hi - lo
            if n > cap:
                return cap + 1
        return n

    def node_bound(self, node: Node, hulls_for) -> Relax:
        """The node's bound: its exact maximum when it holds at most ``enum_max`` combinations (then a leaf),
        else the Lagrangian relaxation of :meth:`bound` on the hulls ``hulls_for(node)``."""
        if self.size(node, self.enum_max) <= self.enum_max:
            return self.enumerate(node)
        return self.bound(node, hulls_for(node))

    def enumerate(self, node: Node) -> Relax:
        """The exact maximum of g over the node's combinations (float), as a Relax without a mixing block."""
        ranges = [node.range(s, len(bd.T)) for s, bd in enumerate(self.data)]
        F = _combine([self.Fs[s][lo:hi] for s, (lo, hi) in enumerate(ranges)])
        T = _combine([self.Ts[s][lo:hi] for s, (lo, hi) in enumerate(ranges)])
        vals = F + _phi(np.maximum(T, 1e-300))
        k = int(np.argmax(vals))
        idx = np.unravel_index(k, [hi - lo for lo, hi in ranges])
        pos = [lo + int(i) for (lo, _), i in zip(ranges, idx, strict=True)]
        return Relax(float(vals[k]), math.nan, pos, None, exact=True)

    # ------------------------------------------------------------------------------- primal
    def value(self, pos) -> tuple[float, float]:
        """(g, t) of the combination given by T-order positions ``pos``."""
        f = t = 0.0
        for s in range(len(self.data)):
            f += self.Fs[s][pos[s]]
            t += self.Ts[s][pos[s]]
        return f + float(_phi(max(t, 1e-300))), t

    def improve(self, pos, node: Node, sweeps: int = 2, alternatives: int = 0):
        """Coordinate ascent: each block in turn takes its best vertex (within the node) given the
        rest.  With ``alternatives`` = k > 0 also returns, for every block, the k next-best
        replacements of that block's vertex in the final point (more columns per pricing)."""
        pos = list(pos)
        n = len(self.data)
        fs = np.array([self.Fs[s][pos[s]] for s in range(n)])
        ts = np.array([self.Ts[s][pos[s]] for s in range(n)])
        cur = float(fs.sum() + _phi(max(ts.sum(), 1e-300)))
        alts = []
        for sweep in range(sweeps + (1 if alternatives else 0)):
            changed = False
            last = sweep == sweeps
            for s in range(n):
                lo, hi = node.range(s, len(self.Ts[s]))
                f_rest = fs.sum() - fs[s]
                t_rest = ts.sum() - ts[s]
                v = self.Fs[s][lo:hi] + _phi(np.maximum(t_rest + self.Ts[s][lo:hi], 1e-300))
                if last:
                    k = min(alternatives + 1, len(v))
                    top = np.argpartition(-v, k - 1)[:k] if k < len(v) else np.arange(len(v))
                    for i in top.tolist():
                        if lo + i != pos[s]:
                            p2 = list(pos)
                            p2[s] = lo + i
                            alts.append(p2)
                    continue
                i = int(np.argmax(v))
                if v[i] + f_rest > cur + 1e-15 * (1 + abs(cur)):
                    pos[s] = lo + i
                    fs[s], ts[s] = self.Fs[s][lo + i], self.Ts[s][lo + i]
                    cur = float(fs.sum() + _phi(max(ts.sum(), 1e-300)))
                    changed = True
            if not changed and not alternatives:
                break
        if alternatives:
            return pos, cur, alts
        return pos, cur

    def point(self, pos) -> tuple[tuple[int, int], ...]:
        """(block, vertex index) of every block at T-order positions ``pos``."""
        return tuple((s, int(bd.order[pos[s]])) for s, bd in enumerate(self.data))

    # ---------------------------------------------------------------------------- search
    def solve(self, *, gap_tol: float = 1e-12, max_nodes: int = 200, stop_above: float | None = None,
              alternatives: int = 0, prune_at: float | None = None):
        """Float branch and bound for G(y'). Returns (best value, best point, upper bound, leaves).
        ``stop_above``: stop as soon as a point with value > stop_above is found.  ``prune_at``: also
        prune nodes whose bound is <= prune_at (enough to prove G <= prune_at).  With
        ``alternatives`` > 0, ``self.alternatives`` holds extra good points (see :meth:`improve`)."""
        self.alternatives = []
        root = Node({})
        cache = {}

        def hulls_for(node):
            out = {}
            for s, bd in enumerate(self.data):
                lo, hi = node.range(s, len(bd.T))
                key = (s, lo, hi)
                if key not in cache:
                    cache[key] = self.hull(s, lo, hi)
                out[s] = cache[key]
            return out

        best_val, best_pos = -math.inf, None
        rel = self.node_bound(root, hulls_for)
        heap = [(-rel.value, 0, root, rel)]
        counter = 1
        leaves = []
        nodes = 0
        floor = -math.inf if prune_at is None else prune_at
        while heap:
            negb, _, node, rel = heapq.heappop(heap)
            ub = -negb
            if ub <= max(best_val + gap_tol * (1 + abs(best_val)), floor):
                leaves.append((node, rel))
                continue
            nodes += 1
            cands = [rel.pos]
            if rel.mix is not None:
                s, a, b = rel.mix
                p2 = list(rel.pos)
                p2[s] = b if rel.pos[s] == a else a
                cands.append(p2)
            for c in cands:
                if nodes == 1:
                    p, v = self.improve(c, node)
                else:
                    p, v = c, self.value(c)[0]
                if v > best_val:
                    best_val, best_pos = v, p
            if stop_above is not None and best_val > stop_above:
                return best_val, self.point(best_pos), math.inf, []
            if ub <= max(best_val + gap_tol * (1 + abs(best_val)), floor) or rel.mix is None or nodes > max_nodes:
                leaves.append((node, rel))
                continue
            s, a, b = rel.mix
            lo, hi = node.range(s, len(self.data[s].T))
            cut = b                                  # left: [lo, b) keeps a; right: [b, hi) keeps b
            if not lo < cut < hi:
                leaves.append((node, rel))
                continue
            for child in (node.with_range(s, lo, cut), node.with_range(s, cut, hi)):
                r = self.node_bound(child, hulls_for)
                heapq.heappush(heap, (-r.value, counter, child, r))
                counter += 1
        ub = max([best_val] + [r.value for _, r in leaves] + [-negb for negb, *_ in heap])
        if alternatives:
            _, _, alts = self.improve(best_pos, root, sweeps=0, alternatives=alternatives)
            self.alternatives = [self.point(a) for a in alts]
        return best_val, self.point(best_pos), ub, leaves

    # ------------------------------------------------------------------------ certificate
    def _errors(self) -> list[np.ndarray]:
        """The error bounds of F (RuntimeError unless :meth:`set_dual` was called with ``errors=True``)."""
        if self.F_err is None:
            raise RuntimeError("rigorous_bound needs set_dual(y, errors=True)")
        return self.F_err

    def rigorous_bound(self, node: Node, kappa: float) -> Fraction:
        """A rational >= max over the node's combinations of g_y'(w) (rigorous, see module docstring);
        needs :meth:`set_dual` with ``errors=True``.  Nodes of at most ``enum_max`` combinations are bounded
        combination by combination (:meth:`rigorous_enumeration`; ``kappa`` unused)."""
        F_err = self._errors()
        if self.size(node, self.enum_max) <= self.enum_max:
            return self.rigorous_enumeration(node)
        import flint

        from rldp_verify.core.rigorous import arb_exact, arb_precision
        from rldp_verify.core.rigorous import upper as arb_upper

        tot = 0.0
        absum = 0.0
        tlo = thi = 0.0
        ak = abs(kappa)
        for s, bd in enumerate(self.data):
            lo, hi = node.range(s, len(bd.T))
            o = bd.order[lo:hi]
            T, Te = bd.T[o], bd.T_err[o]
            val = self.F[s][o] + F_err[s][o] + kappa * T + ak * Te
            m = float(np.max(val))
            tot += m
            absum += float(np.max(np.abs(self.F[s][o]) + F_err[s][o] + ak * (T + Te))) + abs(m)
            tlo += float(np.min(T - Te))
            thi += float(np.max(T + Te))
        n = len(self.data)
        slack = 4 * (n + 8) * U64 * (absum + abs(tot)) + 1e-300
        tlo = max(0.0, tlo - 4 * n * U64 * abs(tlo))
        thi = thi + 4 * n * U64 * abs(thi) + 1e-300
        with arb_precision(60):
            k = arb_exact(Fraction(kappa))
            t0 = (-1 - k).exp()
            a, b = arb_exact(Fraction(tlo)), arb_exact(Fraction(thi))
            # phi*(kappa) on [a, b]: -t log t - kappa t is concave with maximiser t0 (clamped)
            cands = []
            if bool(t0 < a):
                cands.append(a)
            elif bool(t0 > b):
                cands.append(b)
            else:
                cands.extend([t0, a, b])          # t0 overlapping an end: take the max of all
            vals = []
            for t in cands:
                if bool(t > 0):
                    vals.append(-t * t.log() - k * t)
                else:
                    vals.append(flint.arb(0) - k * t)
            if len(cands) == 3:
                phis = t0                         # the exact maximum value at t0 is e^(-1-kappa) = t0
                vals.append(phis)
            ph = max(arb_upper(v) for v in vals)
        return ph + Fraction(tot) + Fraction(slack)


    def rigorous_enumeration(self, node: Node) -> Fraction:
        """A rational >= g_y'(w) for every combination w of the node: the largest of :meth:`rigorous_values`."""
        return Fraction(float(np.max(self.rigorous_values(node))))

    def rigorous_values(self, node: Node) -> np.ndarray:
        """Floats >= g_y'(w), one per combination w of the node (C order of the block ranges), evaluated in
        floats with proven error bounds: F_s + F_err_s summed (a sum of n floats is within (n - 1) u of the sum
        of its absolute values; 2 n u is used), t in [sum (T - T_err), sum (T + T_err)] widened by 2 n u, and
        phi bounded above on that interval (phi is concave with maximum 1/e at t = 1/e: phi(t_hi) left of it,
        phi(t_lo) right of it, 1/e when the interval may contain it), phi evaluated with log trusted to LOG_ULPS
        ulp; every float operation after that is covered by a relative margin of 16 u."""
        F_err = self._errors()
        n = len(self.data)
        parts = []
        for s, bd in enumerate(self.data):
            lo, hi = node.range(s, len(bd.T))
            o = bd.order[lo:hi]
            F_up = self.F[s][o] + F_err[s][o]
            parts.append((F_up, np.abs(F_up), np.maximum(bd.T[o] - bd.T_err[o], 0.0), bd.T[o] + bd.T_err[o]))
        F_up, F_abs, t_lo, t_hi = (_combine([p[i] for p in parts]) for i in range(4))
        g = 2.0 * n * U64
        F_up = F_up + g * F_abs
        t_lo = t_lo * (1.0 - g)
        t_hi = t_hi * (1.0 + g) + 1e-300
        left, right = t_hi < 0.3678, t_lo > 0.3679            # 1/e = 0.36787944...
        t = np.where(left, t_hi, np.where(right, t_lo, _INV_E))
        ph = np.where(left | right, _phi(np.maximum(t, 1e-300)), _INV_E)
        ph = ph + (2 * LOG_ULPS + 8) * U64 * np.abs(ph) + 1e-300     # also covers 1/e's rounding
        val = F_up + ph
        return val + 16 * U64 * (np.abs(F_up) + np.abs(ph)) + 1e-300


def _upper_hull(T: np.ndarray, F: np.ndarray) -> np.ndarray:
    """Indices (increasing T) of the upper convex hull of points sorted by T (quickhull)."""
    n = len(T)
    if n == 1:
        return np.array([0])
    i0 = 0
    same = np.nonzero(T[0] == T)[0]
    i0 = int(same[np.argmax(F[same])])
    same = np.nonzero(T[-1] == T)[0]
    i1 = int(same[np.argmax(F[same])])
    if T[i0] == T[i1]:
        return np.array([i0])
    out = [i0, i1]
    stack = [(i0, i1)]
    scale = 1e-14 * (1.0 + float(np.max(np.abs(F))))
    while stack:
        i, j = stack.pop()
        if j - i < 2:
            continue
        Ts, Fs = T[i + 1:j], F[i + 1:j]
        d = Fs - (F[i] + (Ts - T[i]) * ((F[j] - F[i]) / (T[j] - T[i])))
        k = int(np.argmax(d))
        if d[k] <= scale:
            continue
        k += i + 1
        out.append(k)
        stack.append((i, k))
        stack.append((k, j))
    return np.array(sorted(out))


@dataclass
class Relax:
    """The Lagrangian relaxation at a branch-and-bound node: its bound max_t phi(t) + H(t), the multiplier kappa
    at the optimum, the hull vertex chosen in every block and the block that mixes two hull points (if any).
    The value is a float search bound; certification is :meth:`Pricer.rigorous_bound`."""

    value: float        # the Lagrangian bound max_t phi(t) + H(t)
    kappa: float        # the multiplier at the optimum, kappa = phi'(t*) = -log t* - 1
    pos: list           # hull vertex (T-order position) of every block at the optimum
    mix: tuple | None   # (block, position a, position b): the block that mixes two hull points
    exact: bool = False  # the node was enumerated: value is its exact (float) maximum, attained at pos


@dataclass(frozen=True)
class Node:
    """A branch-and-bound node: for some blocks, a range [lo, hi) of hull positions in T-order."""

    ranges: dict = field(default_factory=dict)     # block -> (lo, hi) in T-order

    def range(self, s: int, n: int) -> tuple[int, int]:
        """The range of block ``s`` at this node ((0, n) when unrestricted)."""
        return self.ranges.get(s, (0, n))

    def with_range(self, s: int, lo: int, hi: int) -> Node:
        """A child node with block ``s`` restricted to [lo, hi)."""
        r = dict(self.ranges)
        r[s] = (lo, hi)
        return Node(r)

    def __lt__(self, other):      # heap ties
        return False
