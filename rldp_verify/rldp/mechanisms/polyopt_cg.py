"""PolyOpt and NR at large |X|: LP (46) by stabilised column generation, with a certified bracket.

Paper: seeds/000_aca93ed29ea857ee.txt, Sec. 5 (Definition 3, Theorems 2-3, eqs. (44)-(46)) and Sec. 8
(NR = Theorem 3 with F = {P-hat}).  The exact route (:mod:`rldp_verify.rldp.mechanisms.polyopt`) enumerates
Gamma-hat; this one never does.

* Columns are points of prod_s W_s (:mod:`cone_blocks`), normalised to sum 1: every column lies in
  Gamma_eps by construction, and the returned rows are re-checked exactly in rationals.
* Pricing max_v mu(v) - y . v over Gamma-hat: :class:`pricing.Pricer` (per-block vertices, Lagrangian
  bound on the concave term in t = P . w, branch and bound).  The maximal reduced cost M(y) is found by
  Dinkelbach steps on G(y + M 1) (G decreasing in M).
* Master (default, ``stabilisation="lagrangian"``): first LP (46) with the coupling in t relaxed
  (:mod:`lagrangian`): a per-block Dantzig-Wolfe LP, priced exactly over every block vertex, minimised over the
  multiplier kappa of t; its dual is dual feasible for LP (46), and its block marginals, coupled into product
  columns, give the restricted LP (46) a primal within a Jensen gap of it.  Measured on Adult occupation x
  education (|X| = 224, eps = 1): relative width 1.4e-5 after 20 s, where the bundle alone had 2.1e-2 after
  600 s.  If the width is not reached, the proximal bundle below continues from that dual.
* Master (``stabilisation="bundle"``): a proximal bundle method on the Lagrangian dual
  f(y) = sum_x y_x + m M(y) for the upper bound: the trial point minimises the cutting-plane model of f
  (a bundle of at most a few hundred columns, aged out when inactive) plus (u/2)|y - centre|^2, a QP
  solved by Clarabel; it moves the centre when f drops by a tenth of the predicted decrease (Kiwiel's
  rule adapts u).  The lower bound comes from the restricted LP of every column found (HiGHS), re-solved
  when the column count has grown by ``rmp_growth`` (a rule in columns, not seconds, so that capped runs
  do not depend on the machine's speed) and priced at alpha centre + (1 - alpha) y_RMP.  Measured on
  Adult occupation x education (|X| = 224, eps = 1): the upper bound 0.6168 after 300 s, against 0.7626
  (unchanged for more than ten minutes) with Wentges smoothing alone, which needed an hour to reach 0.6188.
* Master (``stabilisation="wentges"``): HiGHS on the restricted LP (46), warm-started as columns are added, with Wentges dual
  smoothing: pricing at y_sep = alpha y_centre + (1 - alpha) y_RMP, where y_centre is the dual with the
  best bound so far; alpha adapts (raised after a successful step, reset to 0 after a mis-pricing).
  When no column is found at y_RMP the pricing's node budget grows tenfold (up to 40,000) before the
  run concludes: a truncated search misses columns (NR at |X| = 224: 40 nodes missed reduced costs of
  1.6e-4 that 2,000 nodes find).  The float upper estimate of M(y) is tightened by a search that only
  has to prove G(y + (M + tau) 1) <= 0 (tau a tenth of the target width over |X|).
  Options (measured, not the default): ``stabilisation="boxstep"`` (a box-step bundle: the dual
  confined to a sup-norm trust region around the stability centre; fewer bracket gains per
  iteration than Wentges on Adult relationship x education, |X| = 96) and ``inout=True`` (the upper
  bound from the first feasible point on the segment y_RMP -> y_centre, found by Dinkelbach steps on
  the fraction; a little better per iteration, about twice the cost per iteration).
* Bracket of the optimum of LP (46) (= the best utility of a mechanism with rows in Gamma_eps):
  lower = the certified (arb) utility I_P(X;Y) of the returned mechanism, whose rows are exactly in
  Gamma_eps (rationals); upper = sum_x y'_x for a float vector y' = y_centre + M 1 with G(y') <= 0
  proven leaf by leaf by :meth:`pricing.Pricer.rigorous_bound` (then mu(v) <= y' . v on the cone and every
  cone mechanism has utility <= sum_y y' . Q_y = sum_x y'_x).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.highs import IncrementalLP
from rldp_verify.rldp.mechanisms.cg_certify import CERT_ATTEMPTS, certify_upper, exact_primal
from rldp_verify.rldp.mechanisms.cg_cone import Cone
from rldp_verify.rldp.mechanisms.cone_blocks import block_data
from rldp_verify.rldp.mechanisms.lagrangian import couple, solve_relaxation
from rldp_verify.rldp.mechanisms.pricing import Pricer

#: the masters of :func:`solve_lp46_cg` (``stabilisation=``); the CLI's ``--stabilisation`` choices are tied to this
#: tuple by a test (test_polyopt_cg.py::test_cli_stabilisation_choices)
STABILISATIONS = ("lagrangian", "bundle", "wentges", "boxstep")

@dataclass
class CGResult:
    """The certified outcome: rows (exact, in Gamma_eps), bracket [lower, upper] of LP (46)'s optimum."""

    rows: list                      # exact rows Q_y (Fractions), columns x in S-major order
    lower: Fraction
    upper: Fraction
    dual: tuple                     # y' (floats, exact as binary fractions) of the upper bound
    history: list = field(default_factory=list)   # (seconds, float lower, float upper) per iteration
    iterations: int = 0
    columns: int = 0
    seconds: float = 0.0
    certificate_leaves: int = 0
    method: str = "column generation (Wentges-smoothed) + block pricing"
    columns_exact: list = field(default_factory=list)   # the columns of the final LP, exact (for warm starts)
    certified_history: list = field(default_factory=list)   # (seconds, lower, upper), certified brackets

    @property
    def gap(self) -> Fraction:
        """upper - lower: the certified width of the bracket on the optimum of LP (46) (exact)."""
        return self.upper - self.lower

    @property
    def relative_width(self) -> float:
        """(upper - lower) / upper as a float (the absolute width when upper <= 0)."""
        return float(self.gap / self.upper) if self.upper > 0 else float(self.gap)


# --------------------------------------------------------------------------------------- master
class _Master:
    """Restricted LP (46): max sum_j theta_j mu_j s.t. sum_j theta_j v_j = 1 on the LP coordinates, theta >= 0;
    the engine's column-generation LP (:class:`rldp_verify.core.highs.IncrementalLP`: warm-started, duals)."""

    def __init__(self, rows: int, *, box: bool = False):
        self.lp = IncrementalLP(np.ones(rows), np.ones(rows), maximize=True,
                                options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
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


def _dot(u: np.ndarray, v: np.ndarray) -> float:
    """u . v correctly rounded (math.fsum): unlike a BLAS dot product, the same on every machine (the
    kernel OpenBLAS picks changes the last bits, and column generation amplifies them: measured on Adult
    occupation x education, NR at eps = 2, two BLAS configurations gave lower ends 0.2642 and 0.2735 after
    12 iterations)."""
    return math.fsum((u * v).tolist())


def _mu_float(v: np.ndarray, p: np.ndarray) -> float:
    """mu(v) = sum_x v_x P_x log(v_x / t), t = P . v: the master's objective coefficient of column v.  The
    sums are math.fsum (correctly rounded), not BLAS dot products, whose last bits depend on the kernel
    OpenBLAS picks for the CPU: the same costs, hence the same master LP, on every machine."""
    t = _dot(v, p)
    pos = (v > 0) & (p > 0)
    return math.fsum((v[pos] * p[pos] * np.log(v[pos] / t)).tolist()) if t > 0 else 0.0


def solve_lp46_cg(cone: Cone, p: Sequence[Fraction], *, rel_gap: float = 1e-4, time_limit: float = 600.0,
                  init_columns: Sequence[Sequence[Fraction]] = (), dps: int = 30, log=None,
                  alpha0: float = 0.5, alternatives: int = 2, neighbours: int = 6, checkpoints: Sequence[float] = (),
                  stabilisation: str = "lagrangian", inout: bool = False, prior_dual: bool = True,
                  max_iterations: int | None = None, bundle_cuts: int = 30, rmp_growth: float = 0.1,
                  rmp_alpha: float = 0.5) -> CGResult:
    """Certified bracket on the optimum of LP (46) for ``cone`` and the flat distribution ``p``.

    ``rel_gap``: stop when the float bracket's relative width is below rel_gap / 2 (the certified one
    is then a little wider); ``time_limit`` (seconds): stop and certify what is there.
    ``max_iterations``: stop after this many master iterations and certify what is there.  With
    ``time_limit=math.inf`` and no ``checkpoints`` the run does not depend on the machine's speed (the
    report's path: the same bracket on every machine with the same floating-point arithmetic).
    ``init_columns``: extra starting columns (exact vectors; kept only if exactly in the cone).
    ``checkpoints`` (seconds): also certify the bracket when the run passes these times; recorded in
    ``certified_history`` (seconds, lower, upper) with the time spent certifying excluded."""
    t_start = time.perf_counter()
    progress.step("column generation: block data (costs of the block vertices)", len(cone.blocks), "blocks")
    p = [Fraction(x) for x in p]
    a = cone.a
    if len(p) != a:
        raise InputError(f"a distribution over {len(p)} inputs does not match |X| = {a}")
    pf = np.array([x.numerator / x.denominator for x in p], dtype=float)
    lp = np.array(cone.lp_coords)
    m = len(lp)
    data = []
    for i, b in enumerate(cone.blocks):
        data.append(block_data(b, p))
        progress.update(i + 1)
    progress.step("column generation: the starting columns")
    pricer = Pricer(data, a)
    n_min = sum(float(np.min(bd.N)) for bd in data) * (1 - 1e-9)
    if n_min <= 0:
        n_min = 1e-300

    if max_iterations is not None and max_iterations < 1:
        raise InputError(f"max_iterations must be at least 1, got {max_iterations}")
    cap = math.inf if max_iterations is None else max_iterations
    if stabilisation not in STABILISATIONS:
        raise InputError(f"unknown stabilisation {stabilisation!r} ({', '.join(STABILISATIONS)})")
    if inout and stabilisation != "wentges":
        raise InputError(f"inout=True is an option of the Wentges master, not of {stabilisation!r}")
    boxstep = stabilisation == "boxstep"
    master = _Master(m, box=boxstep)
    cols_exact: list = []          # exact columns, unnormalised (restricted to the LP coordinates)
    col_keys: dict = {}            # normalised float column -> its index among the master's columns
    cols_float: list = []          # (normalised float column, mu) in the order of the master's columns
    touched: list = []             # indices of the columns of the last add_exact call (new or already there)

    def add_exact(vecs, *, check: bool = True):
        """Columns from exact vectors of the cone (unnormalised; ``check``: test membership exactly,
        not needed for products of block vertices, which lie in the cone by construction)."""
        block_v, block_mu = [], []
        touched.clear()
        for v in vecs:
            v = tuple(Fraction(x) for x in v)
            if check and not cone.member(v):
                continue
            w = tuple(v[x] for x in lp)
            wf = np.array([float(t) for t in w])
            tot = float(wf.sum())
            if tot <= 0:
                continue
            vf = wf / tot
            key = tuple(vf.tolist())
            if key in col_keys:
                touched.append(col_keys[key])
                continue
            col_keys[key] = len(cols_exact)
            touched.append(col_keys[key])
            cols_exact.append(w)
            block_v.append(vf)
            block_mu.append(_mu_float(vf, pf[lp]))
            cols_float.append((vf, block_mu[-1]))
        if block_v:
            master.add(np.array(block_v), np.array(block_mu))
        return len(block_v)

    def combo_vector(point):
        v = [Fraction(0)] * a
        for s, j in point:
            b = cone.blocks[s]
            for x, val in zip(b.coords, b.exact_point(j), strict=True):
                v[x] = val
        return v

    def combo_float(point):
        w = np.zeros(a)
        A = T = 0.0
        for s, j in point:
            b = cone.blocks[s]
            w[list(b.coords)] = b.dense([j])[0]
            A += data[s].A[j]
            T += data[s].T[j]
        return w, A, T

    # starting columns: the uniform row (h = 1 in every block), GRR and SRR rows, the caller's
    start = [[Fraction(1)] * a]
    from rldp_verify.rldp.mechanisms.grr import grr_matrix
    from rldp_verify.rldp.mechanisms.srr import srr_matrix

    start.extend(grr_matrix(a, cone.e))
    start.extend(srr_matrix(cone.shape[0], cone.shape[1], cone.e))
    start.extend(init_columns)
    add_exact(start)

    budget = [40]     # node budget of the pricing's branch and bound (grows when it stalls)

    def price(y, M0, tau=0.0):
        """Dinkelbach on M: returns (M lower estimate, M upper estimate (float), new points).  With
        ``tau`` > 0 the upper estimate is tightened by a branch and bound at M + tau that only has to
        prove G <= 0 (then M* <= M + tau), instead of M + (the search's gap) / n_min, which n_min
        (the smallest normalisation over the cone) makes loose."""
        M = M0
        pts = []
        below = False
        pricer.set_dual(y)
        for _ in range(30):
            pricer.shift(M)
            best, pt, ub, _ = pricer.solve(gap_tol=1e-11, max_nodes=budget[0], alternatives=alternatives)
            pts.append(pt)
            pts.extend(pricer.alternatives)
            w, A, T = combo_float(pt)
            N = float(w.sum())
            rc = (A - (T * math.log(T) if T > 0 else 0.0) - _dot(w, y)) / N
            tol = 1e-12 * (1 + abs(M)) * N
            if best > tol and rc > M:
                M, below = rc, True          # Dinkelbach step from below
            elif best < -tol and not below:
                M, below = rc, True          # started above M*: rc <= M*, continue from below
            else:
                break
        M_up = M + max(ub, 0.0) / n_min
        if tau > 0 and M_up > M + tau:
            pricer.shift(M + tau)
            _, _, ub2, _ = pricer.solve(gap_tol=1e-11, max_nodes=max(200, budget[0]), prune_at=0.0)
            M_up = min(M_up, M + tau + max(ub2, 0.0) / n_min)
        return M, M_up, pts

    def line_bound(y_out, z, val_z, tau):
        """In-out upper bound: the first point of the segment from y_out (the restricted LP's dual,
        infeasible) to the in-point z (G(z) <= 0) where G <= 0, by Dinkelbach steps on the fraction
        theta (G(y_out + theta (z - y_out)) is convex in theta); then proven <= 0 at theta + tau' by a
        branch and bound that may prune at 0.  Returns (value, point, M shift still needed, points)."""
        d = z - y_out
        sd = float(np.sum(d[lp]))
        if sd <= 0:
            return val_z, z, 0.0, []
        theta, pts = 0.0, []
        for _ in range(20):
            pricer.set_dual(y_out + theta * d)
            best, pt, _, _ = pricer.solve(gap_tol=1e-11, max_nodes=40)
            pts.append(pt)
            w, A, T = combo_float(pt)
            if best <= 1e-12 * (1 + abs(best)) * float(w.sum()):
                break
            den = _dot(w, d)
            if den <= 0:
                return val_z, z, 0.0, pts
            theta = min(1.0, (A - (T * math.log(T) if T > 0 else 0.0) - _dot(w, y_out)) / den)
            if theta >= 1.0:
                return val_z, z, 0.0, pts
        th = min(1.0, theta + tau / sd)
        yt = y_out + th * d
        pricer.set_dual(yt)
        _, _, ub, _ = pricer.solve(gap_tol=1e-11, max_nodes=200, prune_at=0.0)
        shift = max(ub, 0.0) / n_min
        val = float(np.sum(yt[lp])) + m * shift
        if val < val_z:
            return val, yt, shift, pts
        return val_z, z, 0.0, pts

    def reduced_cost(pt, y):
        w, A, T = combo_float(pt)
        return (A - (T * math.log(T) if T > 0 else 0.0) - _dot(w, y)) / float(w.sum())

    def neighbourhood(base, y, k):
        """Points that differ from ``base`` (one vertex per block) in one block, the k with the largest
        reduced cost at y per block (exact pricing over this family: every vertex of the block is
        evaluated).  Assumes pricer.set_dual(y) was called."""
        Fb = np.array([pricer.F[s][j] for s, j in base])
        Tb = np.array([data[s].T[j] for s, j in base])
        Nb = np.array([data[s].N[j] for s, j in base])
        out = []
        for s, j0 in base:
            T = Tb.sum() - Tb[s] + data[s].T
            g = pricer.F[s] + (Fb.sum() - Fb[s]) - T * np.log(np.maximum(T, 1e-300))
            rc = g / (Nb.sum() - Nb[s] + data[s].N)
            kk = min(k, len(rc))
            top = np.argpartition(-rc, kk - 1)[:kk] if kk < len(rc) else np.arange(len(rc))
            for j in top.tolist():
                if rc[j] > 1e-12 and j != j0:
                    out.append(tuple((r, (j if r == s else jj)) for r, jj in base))
        return out

    uniform = None
    if cone.kind == "polyopt":     # the vertex w = 1 (h = 1) of every block: type (i) with B empty
        uniform = tuple((s, int(np.nonzero((b.masks == 0) & (b.kidx < 0) & (b.a2 == 1.0))[0][0]))
                        for s, b in enumerate(cone.blocks))
    history = []
    certified = []
    pending = sorted(checkpoints)
    paused = 0.0
    centre, centre_val, centre_M = None, math.inf, 0.0
    it = 0
    last_M = 0.0
    x = None

    def columns_at(y, pts):
        """Add the points with positive reduced cost at y (and the neighbourhoods of the best one and of
        the uniform point); returns how many columns were added."""
        if neighbours:
            pricer.set_dual(y)
            for base in [pts[0]] + ([uniform] if uniform is not None else []):
                pts.extend(neighbourhood(base, y, neighbours))
        seen, vecs = set(), []
        for pt in pts:
            if pt in seen:
                continue
            seen.add(pt)
            if reduced_cost(pt, y) > 1e-12:
                vecs.append(combo_vector(pt))
        return add_exact(vecs, check=False)

    def report(now, lb, width):
        if progress.active():
            cert = ""
            if certified:
                _, c_lo, c_up = certified[-1]
                c_w = float((c_up - c_lo) / c_up) if c_up > 0 else float(c_up - c_lo)
                cert = f"; certified [{float(c_lo):.8g}, {float(c_up):.8g}] width {c_w:.1e} at {certified[-1][0]:.0f} s"
            done = int(now) if math.isfinite(time_limit) else it
            progress.update(done, f"iteration {it}, {master.n} columns, bracket [{lb:.8g}, {centre_val:.8g}] "
                                  f"width {width:.1e} (float, certified at the end){cert}")

    def checkpoint(now, lb_x):
        nonlocal paused
        while pending and now >= pending[0] and centre is not None:
            pending.pop(0)
            c0 = time.perf_counter()
            up, _, _ = certify_upper(pricer, centre, centre_M, lp, n_min, max_nodes=max(60, budget[0]))
            _, low = exact_primal(master, cols_exact, cone, p, lp, lb_x, dps)
            certified.append((round(now, 3), low, up))
            paused += time.perf_counter() - c0

    def record(now, lb, x, msg):
        """The end of a master iteration: the float bracket into the history, a certified checkpoint when one
        is due, the log line."""
        history.append((round(now, 3), float(lb), float(centre_val)))
        checkpoint(now, x)
        if log:
            log(f"it {it}: t={now:.1f}s lb={lb:.10g} ub={centre_val:.10g} {msg}")

    def width_now(now, lb):
        """The float bracket's relative width, also shown as progress."""
        width = (centre_val - lb) / max(abs(centre_val), 1e-300)
        report(now, lb, width)
        return width

    if prior_dual:
        # An independent starting dual: y = lambda P-hat (lambda = max over the cone of mu(v) / (P-hat . v),
        # the largest divergence of an output's posterior from the prior), by Dinkelbach steps on lambda.
        # Measured at Adult occupation x education, eps = 1: sum y = 0.763, against 0.830 from the dual
        # of the starting columns (uniform, GRR, SRR), which plain column generation did not improve on
        # in ten minutes.  Its maximisers are added as columns.
        d = np.zeros(a)
        d[lp] = pf[lp]
        lam, found = 0.0, []
        for _ in range(40):
            pricer.set_dual(lam * d)
            best, pt, _, _ = pricer.solve(gap_tol=1e-11, max_nodes=budget[0])
            found.append(pt)
            w, A, T = combo_float(pt)
            if best <= 1e-12 * (1 + lam) * float(w.sum()):
                break
            lam = (A - (T * math.log(T) if T > 0 else 0.0)) / _dot(w, d)
        y0 = lam * d
        M_lo, M_up, pts = price(y0, 0.0, tau=0.1 * rel_gap * float(np.sum(y0[lp])) / m)
        val = float(np.sum(y0[lp])) + m * M_up
        if val < centre_val:
            centre, centre_val, centre_M = y0, val, M_up
        columns_at(y0, found + pts)
        if log:
            log(f"prior-direction dual: sum y = {val:.10g}")

    # a deadline of the caller (the CLI's --time-limit, which also covered the set-up): the loop enforces it
    left = progress.take_over_deadline()
    if left is not None:
        time_limit = min(time_limit, time.perf_counter() - t_start - paused + left)
    # no count exists: the time limit is the total, the bracket and its width are the status
    if math.isfinite(time_limit):
        progress.step(f"column generation (stops at relative width {rel_gap:.0e} or the time limit)",
                      int(math.ceil(time_limit)), "s")
    else:
        progress.step(f"column generation (stops at relative width {rel_gap:.0e} or {cap} iterations)",
                      None if cap == math.inf else int(cap), "iterations")
    method = {"bundle": "column generation (proximal bundle, Clarabel QP; restricted LP for the primal) + block pricing",
              "lagrangian": "per-block LP with the coupling in t relaxed (HiGHS) + coupled product columns, then "
                            "column generation (proximal bundle) + block pricing",
              "boxstep": "column generation (box-step) + block pricing"}.get(stabilisation, CGResult.method)
    lb, x = -math.inf, None
    if stabilisation == "lagrangian":
        # The relaxation of the coupling in t (lagrangian.py): its dual is dual feasible for LP (46) (an upper
        # bound, certified below like any other), its block marginals coupled into product columns give the
        # restricted LP (46) a near-optimal primal.  The bundle continues from there if the width is not reached.
        it += 1
        rel = solve_relaxation(data, pricer, lp, a, log=log)
        add_exact([combo_vector(pt) for pt in couple(rel.marginals, data)], check=False)
        y0 = rel.y
        M_lo, M_up, pts = price(y0, 0.0, tau=0.1 * rel_gap * abs(rel.upper) / m)
        val = float(np.sum(y0[lp])) + m * M_up
        if val < centre_val:
            centre, centre_val, centre_M = y0, val, M_up
        columns_at(y0, pts)
        lb, x, _ = master.solve()
        now = time.perf_counter() - t_start - paused
        record(now, lb, x, f"relaxation: LP(kappa) = {rel.upper:.10g} at kappa = {rel.kappa:.10g}, relaxed primal "
                           f"{rel.value:.10g}, {rel.rounds} values of kappa, {rel.solves} LP solves, {rel.columns} "
                           f"block columns; restricted LP (46) with the coupled columns {lb:.10g}")
        width_now(now, lb)
    if stabilisation in ("bundle", "lagrangian"):
        # Proximal bundle on the Lagrangian dual f(y) = sum_x y_x + m M(y) (f(y + c 1) = f(y)): the model
        # f^(y) = sum y + m max_j (mu_j - v_j . y) over a bundle of columns, the trial point
        # z = argmin f^(y) + (u/2)|y - centre|^2 (Clarabel), priced; the centre moves to z when f drops by a
        # tenth of the predicted decrease (serious step), else the cut of z's maximiser refines the model.
        # The lower bound: the restricted LP of every column found, re-solved when the column count has
        # grown by rmp_growth (a count, not seconds: capped runs do not depend on the machine's speed) or
        # when the trial point yielded no column, and priced at rmp_alpha centre + (1 - rmp_alpha) y_RMP
        # (then at y_RMP itself, with a growing node budget, before the run concludes that nothing is left).
        if centre is None:
            # no starting dual (prior_dual=False): the first centre is the starting columns' restricted LP dual
            _, _, y_rmp = master.solve()
            y0 = np.zeros(a)
            y0[lp] = y_rmp
            M_lo, M_up, pts = price(y0, 0.0)
            centre, centre_val, centre_M = y0, float(np.sum(y_rmp)) + m * M_up, M_up
            columns_at(y0, pts)
        qp = _ProxQP(m)
        b_idx = list(range(len(cols_float)))
        bV = np.array([v for v, _ in cols_float])
        bmu = np.array([w for _, w in cols_float])
        age = np.zeros(len(bmu))
        c = np.array(centre[lp], float) + centre_M
        g0 = 1.0 - m * bV[int(np.argmax(bmu - bV @ c))]
        u = float(np.linalg.norm(g0)) / (0.05 * float(np.linalg.norm(c)) + 1e-12)
        t_rmp, n_rmp_last = 0.0, (master.n if x is not None else 0)
        done = x is not None and ((centre_val - lb) / max(abs(centre_val), 1e-300) <= rel_gap / 2 or it >= cap)
        while not done:
            it += 1
            z, model, lam, status = qp.solve(bV, bmu, c, u)
            if not (np.all(np.isfinite(z)) and math.isfinite(model)):
                # the QP only proposes a trial point: without one, price at the centre (a null step)
                z, model, lam = c.copy(), centre_val, np.zeros(len(bmu))
            delta = centre_val - model
            g_res = float(np.max(np.abs(1.0 - lam @ bV)))
            z = z + float(np.max(bmu - bV @ z))
            y = np.zeros(a)
            y[lp] = z
            M_lo, M_up, pts = price(y, 0.0, tau=0.1 * rel_gap * abs(centre_val) / m)
            fz = float(np.sum(z)) + m * M_up
            added = columns_at(y, pts)
            inb = set(b_idx)
            cand = [j for j in touched if j not in inb]
            if len(cand) > bundle_cuts:
                viol = np.array([cols_float[j][1] - float(cols_float[j][0] @ z) for j in cand])
                cand = [cand[i] for i in np.argsort(-viol)[:bundle_cuts]]
            step = "null"
            if fz <= centre_val - 0.1 * max(delta, 0.0):
                # serious step; Kiwiel's interpolation: the better f agrees with the model, the longer the next step
                step = "serious"
                ratio = (centre_val - fz) / delta if delta > 0 else 1.0
                u = max(u * min(1.0, max(0.1, 2.0 * (1.0 - ratio))), 1e-12)
                c = z + M_up
                centre, centre_val, centre_M = y, fz, M_up
            elif fz > centre_val + max(delta, 1e-12 * abs(centre_val)):
                u = min(u * 1.5, 1e12)       # the trial is worse than the centre by more than the prediction
            keep = (age := np.where(lam > 1e-9 * m, 0, age + 1)) < 8
            bV, bmu, age = bV[keep], bmu[keep], age[keep]
            b_idx = [j for j, kp in zip(b_idx, keep, strict=True) if kp]
            if cand:
                bV = np.vstack([bV, np.array([cols_float[j][0] for j in cand])])
                bmu = np.concatenate([bmu, [cols_float[j][1] for j in cand]])
                age = np.concatenate([age, np.zeros(len(cand))])
                b_idx += cand
            now = time.perf_counter() - t_start - paused
            rmp_note = ""
            converged = False
            if x is None or added == 0 or master.n >= (1 + rmp_growth) * n_rmp_last:
                t2 = time.perf_counter()
                n_rmp_last = master.n
                lb, x, y_rmp = master.solve()
                n_rmp = 0
                for sep in ([rmp_alpha] if rmp_alpha > 0 else []) + [0.0]:
                    # price at the smoothed point; on a mis-pricing at the restricted LP's own dual, with a
                    # node budget grown tenfold (up to 40,000) before concluding that the LP is solved
                    y_full = np.zeros(a)
                    y_full[lp] = sep * c + (1 - sep) * y_rmp
                    while True:
                        M_lo, M_up, pts = price(y_full, last_M, tau=0.1 * rel_gap * abs(centre_val) / m)
                        last_M = M_lo
                        val = float(np.sum(y_full[lp])) + m * M_up
                        if val < centre_val:
                            centre, centre_val, centre_M = y_full.copy(), val, M_up
                            c = y_full[lp] + M_up
                        n_rmp = columns_at(y_full, pts)
                        if n_rmp or sep > 0 or added or budget[0] >= 40000:
                            break
                        budget[0] *= 10
                    if n_rmp:
                        break
                converged = n_rmp == 0 and added == 0
                rmp_note = f" rmp+{n_rmp}"
                t_rmp += time.perf_counter() - t2
                now = time.perf_counter() - t_start - paused
            record(now, lb, x, f"model={model:.10g} f(z)={fz:.10g} {step} u={u:.3g} |g|={g_res:.1e} "
                               f"bundle={len(bmu)} cols={master.n} +{added}{rmp_note} rmp {t_rmp:.0f}s {status}")
            width = width_now(now, lb)
            if width <= rel_gap / 2 or now > time_limit or it >= cap or converged:
                break
    elif boxstep:
        # Box-step bundle (trust region in the sup norm) on the Lagrangian dual
        # f(y) = sum_x y_x + m M(y), M(y) = max over normalised cone points of mu(v) - y . v:
        # the restricted LP with its dual confined to [c - delta, c + delta] around the stability centre
        # c (the best dual found, shifted to feasibility); its dual y_k is priced; c moves to y_k only
        # when f drops by a tenth of the predicted decrease (serious step), else the new columns refine
        # the model (null step).  The lower bound comes from the plain restricted LP.
        master.set_box(None, 0.0)
        lb, x, y_rmp = master.solve()
        y = np.zeros(a)
        y[lp] = y_rmp
        M_lo, M_up, pts = price(y, 0.0)
        last_M = M_lo
        centre, centre_M = y, M_up
        centre_val = float(np.sum(y[lp])) + m * M_up
        columns_at(y, pts)
        delta = 0.5 * float(np.max(np.abs(y[lp] + M_up))) + 1e-12
        stalls = 0
        while True:
            it += 1
            c = centre[lp] + centre_M
            master.set_box(c, delta)
            val_box, _, yk_lp = master.solve()
            yk = np.zeros(a)
            yk[lp] = yk_lp
            M_lo, M_up, pts = price(yk, last_M, tau=0.1 * rel_gap * abs(centre_val) / m)
            last_M = M_lo
            fk = float(np.sum(yk_lp)) + m * M_up
            added = columns_at(yk, pts)
            pred = centre_val - val_box
            step = "null"
            if fk < centre_val - 0.1 * max(pred, 0.0):
                step = "serious"
                if float(np.max(np.abs(yk_lp - c))) >= 0.9 * delta:
                    delta *= 2.0
                centre, centre_M, centre_val = yk, M_up, fk
            elif fk > centre_val:
                delta = max(delta * 0.5, 1e-12)
            master.set_box(None, 0.0)
            lb, x, _ = master.solve()
            now = time.perf_counter() - t_start - paused
            record(now, lb, x, f"f_k={fk:.10g} {step} delta={delta:.3g} cols={master.n} +{added}")
            width = width_now(now, lb)
            stalls = stalls + 1 if added == 0 else 0
            if width <= rel_gap / 2 or now > time_limit or stalls >= 3 or it >= cap:
                break
    else:
        # Wentges smoothing: price at y_sep = alpha y_centre + (1 - alpha) y_RMP (the earlier master)
        alpha = alpha0
        while True:
            it += 1
            lb, x, y_rmp = master.solve()
            y_full = np.zeros(a)
            y_full[lp] = y_rmp
            added = 0
            while True:
                y_sep = y_full if centre is None or alpha <= 0 else alpha * centre + (1 - alpha) * y_full
                M_lo, M_up, pts = price(y_sep, last_M, tau=0.1 * rel_gap * abs(centre_val) / m if centre_val < math.inf else 0.0)
                last_M = M_lo
                val = float(np.sum(y_sep[lp])) + m * M_up
                if val < centre_val:
                    centre, centre_val, centre_M = y_sep.copy(), val, M_up
                if inout and centre is not None and it > 1:
                    tau = 0.02 * rel_gap * abs(centre_val)
                    val, yt, shift, more = line_bound(y_full, centre + centre_M, centre_val, tau)
                    if val < centre_val:
                        centre, centre_val, centre_M = yt, val, shift
                    pts.extend(more)
                added = columns_at(y_full, pts)
                if added or alpha <= 0 or centre is None:
                    break
                alpha = max(0.0, alpha - 0.3)      # mis-pricing: move the separation point towards y_RMP
            now = time.perf_counter() - t_start - paused
            record(now, lb, x, f"alpha={alpha:.2f} cols={master.n} +{added}")
            while added == 0 and alpha <= 0 and budget[0] < 40000:
                # no column found at the restricted LP's dual: the search may have stopped early
                # (measured on NR at |X| = 224: 40 nodes missed columns of reduced cost 1.6e-4 that
                # 2,000 find); search again with ten times the budget before concluding
                budget[0] *= 10
                M_lo, M_up, pts = price(y_full, last_M, tau=0.1 * rel_gap * abs(centre_val) / m)
                last_M = M_lo
                val = float(np.sum(y_full[lp])) + m * M_up
                if val < centre_val:
                    centre, centre_val, centre_M = y_full.copy(), val, M_up
                added = columns_at(y_full, pts)
                if log:
                    log(f"   search budget {budget[0]} nodes: +{added} columns, ub={centre_val:.10g}")
            width = width_now(now, lb)
            if width <= rel_gap / 2 or now > time_limit or added == 0 or it >= cap:
                break
            alpha = min(alpha0, alpha + 0.1)
    # ---------------------------------------------------------------- certification
    progress.step("column generation: certifying the upper bound (branch and bound, attempts)", CERT_ATTEMPTS,
                  "attempts")
    upper, y_cert, leaves = certify_upper(pricer, centre, centre_M, lp, n_min, max_nodes=max(60, budget[0]), report=True)
    progress.step("column generation: exact rows in Gamma_eps and their certified utility")
    rows, lower = exact_primal(master, cols_exact, cone, p, lp, x, dps)
    if lower > upper:
        raise CertificationError("certified lower bound exceeds the certified upper bound of LP (46)")
    total = time.perf_counter() - t_start - paused
    certified.append((round(total, 3), lower, upper))
    return CGResult(rows, lower, upper, tuple(float(t) for t in y_cert), history, it, master.n,
                    total, leaves, method=method, columns_exact=cols_exact, certified_history=certified)


# ----------------------------------------------------------------------------- proximal bundle
class _ProxQP:
    """The proximal bundle's master: min_z 1.z + m r + (u/2)|z - c|^2 s.t. r >= mu_j - v_j . z for the cuts j
    (Clarabel, an interior-point conic solver).  Returns z, the model value 1.z + m r and the cut multipliers
    lambda_j (sum_j lambda_j = m)."""

    def __init__(self, m: int):
        self.m = m

    def solve(self, V: np.ndarray, mu: np.ndarray, c: np.ndarray, u: float):
        import clarabel
        from scipy import sparse

        m = self.m
        k = len(mu)
        P = sparse.diags(np.concatenate([np.full(m, u), [0.0]]), format="csc")
        q = np.concatenate([1.0 - u * c, [float(m)]])
        A = sparse.csc_matrix(np.hstack([-V, -np.ones((k, 1))]))
        b = -np.asarray(mu, float)
        st = clarabel.DefaultSettings()
        st.verbose = False
        st.tol_gap_abs = 1e-12
        st.tol_gap_rel = 1e-12
        st.tol_feas = 1e-12
        sol = clarabel.DefaultSolver(P, q, A, b, [clarabel.NonnegativeConeT(k)], st).solve()
        z = np.array(sol.x)[:m]
        lam = np.array(sol.z)
        model = float(np.sum(z)) + m * float(np.max(mu - V @ z)) if np.all(np.isfinite(z)) else math.nan
        return z, model, lam, str(sol.status)
