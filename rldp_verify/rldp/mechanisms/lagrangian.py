"""LP (46) with the coupling in t relaxed: a per-block Dantzig-Wolfe LP, and a coupling of its block marginals.

Paper: [lopuhaa-2024], Sec. 5, eqs. (45)-(46), Theorem 3.  Notation of
:mod:`rldp_verify.rldp.mechanisms.pricing`: a column of LP (46) is w = (w_s)_s in prod_s W_s, with

    mu(w) = sum_s A_s(w_s) + phi(t),  t = sum_s T_s(w_s),  phi(t) = -t log t,

A_s(w_s) = sum_{x in s} P_x w_x log w_x and T_s(w_s) = P_s . w_s.  For every kappa, phi(t) <= kappa t +
phi*(kappa) with phi*(kappa) = e^(-1-kappa).  Replacing phi by that bound makes the column's cost a sum of
per-block terms, so the columns can be chosen block by block:

    LP(kappa) = max sum_{s,j} theta_sj (A_sj + kappa T_sj) + sigma phi*(kappa)
                s.t. sum_j theta_sj w_sj = 1 on the coordinates of block s,  sum_j theta_sj = sigma (every s),
                     theta, sigma >= 0.

Its dual: min sum_x y_x s.t. y . w_sj + r_s >= A_sj + kappa T_sj for every block vertex and
sum_s r_s + phi*(kappa) <= 0.  At a dual optimum, for every w in prod_s W_s,
mu(w) - y . w <= sum_s (A_s + kappa T_s - y . w_s) + phi*(kappa) <= sum_s r_s + phi*(kappa) <= 0: y is dual
feasible for LP (46) itself, so LP(kappa) >= LP (46) for every kappa (an upper bound, certified in
polyopt_cg by the block pricing's branch and bound).  Pricing LP(kappa) is exact and needs no search:
the reduced cost of every vertex of every block is one vectorised expression (about 1.3 million
vertices on Adult occupation x education).  kappa minimises the convex function LP(kappa), whose
derivative is tau - sigma e^(-1-kappa) (tau = sum theta_sj T_sj): the update kappa = -1 - log(tau / sigma)
safeguarded by bisection.

Lower bound: the per-block marginals theta_s (each of mass sigma) are coupled into product columns
(:func:`couple`); every coupling (weights theta_c, sum_c theta_c = sigma) is a feasible point of LP (46) whose
value is the relaxed objective sum theta A + sigma phi(tau / sigma) minus the Jensen gap
sigma phi(tau / sigma) - sum_c theta_c phi(t_c) >= 0, small when every product column has t_c close to
tau / sigma.  The greedy coupling below keeps each column's t close to that value.

Measured on Adult occupation x education (|X| = 224, alpha = 2, beta = 0.05, eps = 1, the issue 14
instance): LP(kappa) converged in 15 s (8 values of kappa, 12,000 block columns) to 0.6110994, and one
greedy coupling of 161 product columns gave 0.6110910: a relative width of 1.4e-5, where the aggregated
column generation (proximal bundle) stood at 2.1e-2 after ten minutes.  Where LP(kappa) has a kink at its
minimum (its optimal primal jumps there), the relaxed optimum mixes the primals of both sides: found by a
golden-section search on the mix (on the 13 x 1 benchmark instance the relaxed primal went from 0 to the
optimum 0.0596601).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import CertificationError
from rldp_verify.core.highs import IncrementalLP
from rldp_verify.rldp.mechanisms.cone_blocks import BlockData
from rldp_verify.rldp.mechanisms.pricing import Pricer

#: greedy couplings of the block marginals whose product columns start the restricted LP (46): measured on Adult
#: occupation x education (|X| = 224, eps = 2), 8 couplings gave a lower end 1.2566077 (relative width 9.6e-6
#: after the relaxation alone), one coupling 1.2565261 (7.5e-5, then 11 bundle iterations to reach 1e-4 / 2)
COUPLINGS = 8

#: blocks with at most this many vertices start with all of them (NR's blocks, 2 |U| vertices); larger ones
#: start with the vertex w = 1 (PolyOpt's blocks all have it)
SMALL_BLOCK = 64


@dataclass
class Relaxation:
    """The outcome of :func:`solve_relaxation` (floats)."""

    y: np.ndarray                   # dual of LP(kappa) at the best kappa, over all |X| coordinates (0 off the LP)
    kappa: float
    upper: float                    # LP(kappa) at that kappa (= sum y over the LP coordinates)
    value: float                    # the relaxed primal objective at the marginals below (<= upper)
    sigma: float | None             # sigma of that primal (None: no relaxed primal had a finite value)
    marginals: list | None = field(default_factory=list)   # per block: list of (vertex j, mass theta_sj)
    rounds: int = 0                 # values of kappa tried
    solves: int = 0                 # LP solves in all
    columns: int = 0
    history: list = field(default_factory=list)     # (kappa, LP(kappa), relaxed primal value, columns)


def _phi_star(kappa: float) -> float:
    return math.exp(-1.0 - kappa)


def solve_relaxation(data: list[BlockData], pricer: Pricer, lp_coords, dim: int, *, top: int = 10,
                     max_rounds: int = 60, rel_tol: float = 1e-10, rc_tol: float = 1e-9,
                     stop: Callable[[], bool] | None = None) -> Relaxation:
    """LP(kappa) by column generation over the block vertices, minimised over kappa (see the module).
    ``top``: columns added per block and LP solve; stops when the relaxed primal value is within
    ``rel_tol`` (relative) of LP(kappa), after ``max_rounds`` values of kappa, or when the bracket on kappa
    has closed.  Deterministic (no clock) unless ``stop`` is given: ``stop()`` true (a caller's time limit)
    ends the column generation of the current value of kappa at its next LP solve and the search over kappa
    after that round, with the best values so far (the caller certifies its bracket in any case)."""
    lp = list(lp_coords)
    m = len(lp)
    pos = {x: i for i, x in enumerate(lp)}
    S = len(data)
    W = [bd.block.dense() for bd in data]
    R = m + S
    rhs = [1.0] * m + [0.0] * S     # the rows of LP (46) on the LP coordinates, then one convexity row per block
    model = IncrementalLP(rhs, rhs, maximize=True, options={"primal_feasibility_tolerance": 1e-10,
                                                  "dual_feasibility_tolerance": 1e-10})
    kappa = -1.0
    cols: list[tuple[int, int]] = []
    have: set[tuple[int, int]] = set()
    sig = np.zeros(R)
    sig[m:] = -1.0
    model.add_columns(np.array([_phi_star(kappa)]), np.zeros(1), np.full(1, math.inf), sig[None, :])

    T = A = np.zeros(0)            # T_s(j), A_s(j) of the columns, in their order (grown by add)

    def add(pairs):
        nonlocal T, A
        V = np.zeros((len(pairs), R))
        for i, (s, j) in enumerate(pairs):
            V[i, [pos[x] for x in data[s].block.coords]] = W[s][j]
            V[i, m + s] = 1.0
        T = np.concatenate([T, [data[s].T[j] for s, j in pairs]])
        A = np.concatenate([A, [data[s].A[j] for s, j in pairs]])
        c = A[-len(pairs):] + kappa * T[-len(pairs):]
        model.add_columns(c, np.zeros(len(pairs)), np.full(len(pairs), math.inf), V)
        cols.extend(pairs)
        have.update(pairs)

    start: list[tuple[int, int]] = []
    for s, bd in enumerate(data):
        b = bd.block
        if len(b) <= SMALL_BLOCK:
            start.extend((s, j) for j in range(len(b)))
            continue
        one = np.nonzero((b.masks == 0) & (b.kidx < 0) & (b.a2 == 1.0))[0]
        if not len(one):
            raise CertificationError(f"block s = {b.s} has {len(b)} vertices and no vertex w = 1: no starting "
                                     "column for the Lagrangian master")
        start.append((s, int(one[0])))
    add(start)

    solves = 0

    def solve_cg():
        nonlocal solves
        while True:
            solves += 1
            sol = model.solve()
            if not sol.optimal:
                raise CertificationError(f"the relaxed LP (46) ended with status {sol.status}")
            y = np.zeros(dim)
            y[lp] = sol.row_dual[:m]
            r = sol.row_dual[m:]
            pricer.set_dual(y)
            new = []
            for s in range(S):
                rc = pricer.F[s] + kappa * data[s].T - r[s]
                k = min(top, len(rc))
                best = np.argpartition(-rc, k - 1)[:k] if k < len(rc) else np.arange(len(rc))
                new += [(s, int(j)) for j in sorted(best.tolist()) if rc[j] > rc_tol and (s, int(j)) not in have]
            if not new or (stop is not None and stop()):
                return sol, y
            add(new)

    lo = hi = None
    best_up, best_val = math.inf, -math.inf
    out: tuple[np.ndarray, float] | None = None
    marg: list | None = None
    sigma_best: float | None = None
    history = []
    side: dict = {}                 # the last primal (theta over cols, sigma) with dv < 0 and with dv >= 0

    def relaxed(th, sigma):
        tau = math.fsum((th * T).tolist())
        return (math.fsum((th * A).tolist()) - tau * math.log(tau / sigma) if tau > 0 and sigma > 0 else -math.inf), tau

    def keep(th, sigma, val):
        nonlocal best_val, sigma_best, marg
        if val > best_val:
            best_val, sigma_best = val, sigma
            marg = [[] for _ in range(S)]
            for t, (s, j) in zip(th.tolist(), cols, strict=True):
                if t > 0:
                    marg[s].append((j, t))

    for _ in range(max_rounds):
        sol, y = solve_cg()
        x = np.asarray(sol.x)
        sigma, th = float(x[0]), x[1:]
        val, tau = relaxed(th, sigma)
        history.append((kappa, float(sol.objective), val, len(cols)))
        if progress.noting():
            progress.note(f"relaxation: kappa={kappa:.12f} LP(kappa)={sol.objective:.12g} relaxed primal={val:.12g} "
                f"sigma={sigma:.8f} columns={len(cols)}")
        if sol.objective < best_up:
            best_up, out = float(sol.objective), (y.copy(), kappa)
        keep(th, sigma, val)
        dv = tau - sigma * _phi_star(kappa)
        side[dv < 0] = (th, sigma)
        if len(side) == 2:
            # LP(kappa) is piecewise linear: at its kink the optimal primal jumps, and the relaxed optimum mixes
            # the primals of both sides (the relaxed objective is concave: golden-section search on the mix)
            tm, sm = _mix(relaxed, side[True], side[False], len(cols))
            keep(tm, sm, relaxed(tm, sm)[0])
        if best_up - best_val <= rel_tol * abs(best_up) or (stop is not None and stop()):
            break
        if dv < 0:
            lo = kappa
        else:
            hi = kappa
        if lo is not None and hi is not None and hi - lo <= 1e-13 * (1 + abs(kappa)):
            break
        new = -1.0 - math.log(tau / sigma) if tau > 0 and sigma > 0 else kappa - 1.0
        if lo is not None and hi is not None and not lo < new < hi:
            new = 0.5 * (lo + hi)
        kappa = new
        model.change_columns(np.arange(1 + len(cols)), costs=np.concatenate([[_phi_star(kappa)], A + kappa * T]))
    if out is None:
        raise CertificationError(f"the relaxation solved no LP(kappa) with a finite value in {max_rounds} rounds")
    y, k_best = out
    # one round (value of kappa) per history entry
    return Relaxation(y, k_best, best_up, best_val, sigma_best, marg, len(history), solves, len(cols), history)


def _mix(relaxed, side_a, side_b, n: int):
    """The mix lam (theta_a, sigma_a) + (1 - lam) (theta_b, sigma_b) of the primals on both sides of LP(kappa)'s
    kink that maximises the relaxed objective (concave in lam: golden-section search, 60 steps)."""
    (ta, sa), (tb, sb) = side_a, side_b
    ta = np.concatenate([ta, np.zeros(n - len(ta))])
    tb = np.concatenate([tb, np.zeros(n - len(tb))])
    g = (math.sqrt(5) - 1) / 2
    a, b = 0.0, 1.0
    for _ in range(60):
        c1, c2 = b - g * (b - a), a + g * (b - a)
        if relaxed(c1 * ta + (1 - c1) * tb, c1 * sa + (1 - c1) * sb)[0] >= \
                relaxed(c2 * ta + (1 - c2) * tb, c2 * sa + (1 - c2) * sb)[0]:
            b = c2
        else:
            a = c1
    lam = 0.5 * (a + b)
    return lam * ta + (1 - lam) * tb, lam * sa + (1 - lam) * sb


def couple(marginals, data: list[BlockData], *, orders: int = COUPLINGS) -> list[tuple]:
    """The product columns of ``orders`` greedy couplings (:func:`_couple`) of the same marginals, with the blocks
    taken in decreasing spread of T, then in permutations drawn from numpy generators seeded 1, 2, ... (the same
    columns on every machine).  The restricted LP (46) mixes them, which can only do better than any one."""
    pts, seen = [], set()
    S = len(marginals)
    for k in range(orders):
        perm = None if k == 0 else np.random.default_rng(k).permutation(S).tolist()
        for pt in _couple(marginals, data, perm):
            if pt not in seen:
                seen.add(pt)
                pts.append(pt)
    return pts


def _couple(marginals, data: list[BlockData], perm=None) -> list[tuple]:
    """One greedy coupling (blocks in the order ``perm``, default decreasing spread of T): product columns
    ((s, j_s) for every block) whose weights have the given block marginals (each of the
    same mass), chosen so that every column's t = sum_s T_s(j_s) stays close to the mean: blocks in
    decreasing spread of T; each takes the vertex (with mass left) that brings the running deviation
    sum (T_s - mean_s) closest to 0; the column's weight is the least mass left among its vertices, so
    every column uses up at least one vertex (at most sum_s |support_s| columns).  Returns the points
    (the weights are left to the restricted LP (46), which can only do better)."""
    S = len(marginals)
    atoms = []
    for s, mg in enumerate(marginals):
        if not mg:
            raise CertificationError(f"block {s} has no mass in the relaxed LP (46)")
        tot = math.fsum(t for _, t in mg)
        atoms.append([(j, t / tot, float(data[s].T[j])) for j, t in mg])
    mean = [math.fsum(w * T for _, w, T in at) for at in atoms]
    spread = [max(T for *_, T in at) - min(T for *_, T in at) for at in atoms]
    order = sorted(range(S), key=lambda s: (-spread[s], s)) if perm is None else perm
    rem = [[w for _, w, _ in at] for at in atoms]
    points = []
    left = 1.0
    for _ in range(sum(len(at) for at in atoms)):
        if left <= 1e-12:
            break
        dev, pick = 0.0, {}
        for s in order:
            k = min((k for k in range(len(atoms[s])) if rem[s][k] > 1e-15),
                    key=lambda k: (abs(dev + atoms[s][k][2] - mean[s]), k), default=None)
            if k is None:
                break
            pick[s] = k
            dev += atoms[s][k][2] - mean[s]
        if len(pick) < S:
            break
        w = min(rem[s][pick[s]] for s in range(S))
        for s in range(S):
            rem[s][pick[s]] -= w
        left -= w
        points.append(tuple((s, atoms[s][pick[s]][0]) for s in range(S)))
    return points
