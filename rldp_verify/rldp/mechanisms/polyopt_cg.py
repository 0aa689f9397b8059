"""PolyOpt and NR at large |X|: LP (46) by stabilised column generation, with a certified bracket.

Paper: [lopuhaa-2024], Sec. 5 (Definition 3, Theorems 2-3, eqs. (44)-(46)) and Sec. 8
(NR = Theorem 3 with F = {P-hat}).  The exact route (:mod:`rldp_verify.rldp.mechanisms.polyopt`) enumerates
Gamma-hat; this one never does.

LP (46) and its dual, in the paper's notation (X the inputs, m of them on the LP coordinates, v a point of
Gamma-hat = the cone points normalised to sum_x v_x = 1, mu(v) of eq. (45))::

    primal  max sum_v theta_v mu(v)  s.t.  sum_v theta_v v = 1_X,  theta >= 0;
    dual    min sum_x y_x            s.t.  mu(v) <= y . v for every v  (equivalently M(y) <= 0,
            M(y) = max_v mu(v) - y . v; for any y, y + M(y) 1 is feasible with value f(y) = sum_x y_x + m M(y)).

The objects, one per part of the method:

====================================  ======================================================================
object                                its part of LP (46)
====================================  ======================================================================
:class:`cg_master.RestrictedLP`       the master: LP (46) over the columns found so far (HiGHS); its optimum
                                      is the float lower end, its row duals y_RMP the plain pricing point
:class:`cg_master.ColumnPool`         the columns v_j (points of prod_s W_s, in Gamma_eps by construction),
                                      exact and in floats with mu(v_j)
:class:`cg_pricing.Pricing`           the pricing problem M(y) (Dinkelbach steps on G(y + M 1), searched by
                                      the block branch and bound :class:`pricing.Pricer`) and the new columns
:mod:`cg_stabilisation`               which dual points are priced: :class:`~cg_stabilisation.LagrangianStart`
                                      then :class:`~cg_stabilisation.ProximalBundle` (the default,
                                      ``"lagrangian"``), the bundle alone (``"bundle"``),
                                      :class:`~cg_stabilisation.Wentges` (``"wentges"``, ``inout``),
                                      :class:`~cg_stabilisation.BoxStep` (``"boxstep"``)
:class:`ColumnGeneration`             the driver: the run's state (iteration, stability centre y with its
                                      f(y), float bracket [lb, f(centre)], history), each iteration's record
                                      (history, progress, log, certified checkpoints), the final certificate
:mod:`cg_certify`                     the certificate: :func:`~cg_certify.certify_upper` (upper = sum_x y'_x
                                      with M(y') <= 0 proven), :func:`~cg_certify.exact_primal` (rows exactly
                                      in Gamma_eps, lower = their certified utility)
:func:`solve_lp46_cg`                 the entry point: a thin function over the driver
====================================  ======================================================================

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
* Master (``stabilisation="wentges"``): HiGHS on the restricted LP (46), warm-started as columns are added,
  with Wentges dual smoothing: pricing at y_sep = alpha y_centre + (1 - alpha) y_RMP, where y_centre is the
  dual with the best bound so far; alpha adapts (raised after a successful step, reset to 0 after a
  mis-pricing).  When no column is found at y_RMP the pricing's node budget grows tenfold (up to 40,000)
  before the run concludes: a truncated search misses columns (NR at |X| = 224: 40 nodes missed reduced
  costs of 1.6e-4 that 2,000 nodes find).  The float upper estimate of M(y) is tightened by a search that
  only has to prove G(y + (M + tau) 1) <= 0 (tau a tenth of the target width over |X|).
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
from rldp_verify.core.numbers import SEARCH_DPS
from rldp_verify.rldp.mechanisms.cg_certify import CERT_ATTEMPTS, certify_upper, exact_primal
from rldp_verify.rldp.mechanisms.cg_cone import Cone
from rldp_verify.rldp.mechanisms.cg_master import ColumnPool, RestrictedLP
from rldp_verify.rldp.mechanisms.cg_pricing import Pricing
from rldp_verify.rldp.mechanisms.cg_stabilisation import BoxStep, LagrangianStart, ProximalBundle, Wentges
from rldp_verify.rldp.mechanisms.cone_blocks import block_data
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


#: the ``method`` of the result, per master
_METHODS = {
    "bundle": "column generation (proximal bundle, Clarabel QP; restricted LP for the primal) + block pricing",
    "lagrangian": "per-block LP with the coupling in t relaxed (HiGHS) + coupled product columns, then "
                  "column generation (proximal bundle) + block pricing",
    "boxstep": "column generation (box-step) + block pricing",
}


class ColumnGeneration:
    """The driver of column generation for LP (46) on ``cone`` and the distribution ``p`` (exact, flat).

    The state the masters share: the restricted LP (``master``) and its columns (``pool``), the pricing
    (``pricing``), the iteration count ``it``, the restricted LP's last optimum ``lb`` and primal ``x`` (the
    float lower end), the stability centre ``centre`` (a dual vector on X) with its shift ``centre_M`` and its
    dual value ``centre_val`` = f(centre) (the float upper end), ``last_M`` (the last M(y) found, the next
    Dinkelbach start), the float ``history`` and the ``certified`` brackets.  Every clock reading is
    :meth:`elapsed` or :meth:`clock` (this module's ``time``), net of the time spent in checkpoints."""

    def __init__(self, cone: Cone, p: list[Fraction], data, pricer: Pricer, *, box: bool, rel_gap: float,
                 time_limit: float, cap: float, checkpoints: Sequence[float], dps: int, alternatives: int,
                 neighbours: int, t_start: float):
        self.cone, self.p, self.a = cone, p, cone.a
        self.pf = np.array([x.numerator / x.denominator for x in p], dtype=float)
        self.lp = np.array(cone.lp_coords)
        self.m = len(self.lp)
        self.master = RestrictedLP(self.m, box=box)
        self.pool = ColumnPool(cone, self.lp, self.pf[self.lp], self.master)
        self.pricing = Pricing(cone, data, pricer, self.pool, alternatives=alternatives, neighbours=neighbours)
        self.rel_gap, self.time_limit, self.cap, self.dps = rel_gap, time_limit, cap, dps
        self.t_start = t_start
        self.history: list = []
        self.certified: list = []
        self.pending = sorted(checkpoints)
        self.paused = 0.0
        self.centre: np.ndarray | None = None
        self.centre_val, self.centre_M = math.inf, 0.0
        self.it = 0
        self.last_M = 0.0
        self.lb: float = -math.inf
        self.x = None

    # ------------------------------------------------------------------ clock and dual vectors
    def clock(self) -> float:
        """A clock reading (seconds), for intervals measured by the masters (log lines only)."""
        return time.perf_counter()

    def elapsed(self) -> float:
        """Seconds since the start, without the time spent certifying at checkpoints."""
        return time.perf_counter() - self.t_start - self.paused

    def full(self, y_lp) -> np.ndarray:
        """A dual vector on X: ``y_lp`` on the LP coordinates, 0 elsewhere."""
        y = np.zeros(self.a)
        y[self.lp] = y_lp
        return y

    def dual_value(self, y, M: float) -> float:
        """f = sum_x y_x + m M on the LP coordinates: the value of the dual feasible y + M 1."""
        return float(np.sum(y[self.lp])) + self.m * M

    def tau(self) -> float:
        """The pricing's tolerance for tightening its upper estimate of M: a tenth of the target width over m."""
        return 0.1 * self.rel_gap * abs(self.centre_val) / self.m

    def improve(self, y, val: float, M: float) -> bool:
        """The stability centre moves to y (shift M) if its dual value ``val`` is below the centre's."""
        if val < self.centre_val:
            self.centre, self.centre_val, self.centre_M = y, val, M
            return True
        return False

    # ------------------------------------------------------------------ start
    def start(self, init_columns) -> None:
        """The starting columns: the uniform row (h = 1 in every block), GRR and SRR rows, the caller's."""
        from rldp_verify.rldp.mechanisms.grr import grr_matrix
        from rldp_verify.rldp.mechanisms.srr import srr_matrix

        cone = self.cone
        start = [[Fraction(1)] * self.a]
        start.extend(grr_matrix(self.a, cone.e))
        progress.update()     # a deadline (the CLI's --time-limit) is checked between the parts of the set-up
        start.extend(srr_matrix(cone.shape[0], cone.shape[1], cone.e))
        progress.update()
        start.extend(init_columns)
        self.pool.add_exact(start)

    def prior_dual(self) -> None:
        """An independent starting dual: y = lambda P-hat (lambda = max over the cone of mu(v) / (P-hat . v),
        the largest divergence of an output's posterior from the prior), by Dinkelbach steps on lambda.
        Measured at Adult occupation x education, eps = 1: sum y = 0.763, against 0.830 from the dual
        of the starting columns (uniform, GRR, SRR), which plain column generation did not improve on
        in ten minutes.  Its maximisers are added as columns."""
        d = self.full(self.pf[self.lp])
        lam, found = self.pricing.prior_direction(d)
        progress.update()
        y0 = lam * d
        _, M_up, pts = self.pricing.price(y0, 0.0, tau=0.1 * self.rel_gap * float(np.sum(y0[self.lp])) / self.m)
        val = self.dual_value(y0, M_up)
        self.improve(y0, val, M_up)
        self.pricing.columns_at(y0, found + pts)
        if progress.noting():
            progress.note(f"prior-direction dual: sum y = {val:.10g}")

    def announce(self, rel_gap: float, reserve: float = 0.0) -> None:
        """Take over the caller's deadline (the CLI's --time-limit, which also covered the set-up: the loop
        enforces it) and show the loop's progress line (no count exists: the time limit is the total, the
        bracket and its width are the status).  Under a deadline the loop stops ``reserve`` seconds early (at
        most half of what is left), so that the closing steps -- the certificate's pricing passes, the exact
        rows and their utility -- end near the deadline rather than after it."""
        left = progress.take_over_deadline()
        if left is not None:
            left -= min(reserve, left / 2)
            self.time_limit = min(self.time_limit, time.perf_counter() - self.t_start - self.paused + left)
        if math.isfinite(self.time_limit):
            progress.step(f"column generation (stops at relative width {rel_gap:.0e} or the time limit)",
                          int(math.ceil(self.time_limit)), "s")
        else:
            cap = self.cap
            progress.step(f"column generation (stops at relative width {rel_gap:.0e} or {cap} iterations)",
                          None if cap == math.inf else int(cap), "iterations")

    # ------------------------------------------------------------------ one iteration's bookkeeping
    def width(self, lb: float) -> float:
        """The float bracket's relative width (centre_val - lb) / |centre_val|."""
        return (self.centre_val - lb) / max(abs(self.centre_val), 1e-300)

    def width_now(self, now: float) -> float:
        """The float bracket's relative width, also shown as progress."""
        width = self.width(self.lb)
        self.report(now, width)
        return width

    def report(self, now: float, width: float) -> None:
        """The progress line: iteration, columns, float bracket and width, the last certified bracket."""
        if not progress.active():
            return
        cert = ""
        if self.certified:
            when, c_lo, c_up = self.certified[-1]
            c_w = float((c_up - c_lo) / c_up) if c_up > 0 else float(c_up - c_lo)
            cert = f"; certified [{float(c_lo):.8g}, {float(c_up):.8g}] width {c_w:.1e} at {when:.0f} s"
        done = int(now) if math.isfinite(self.time_limit) else self.it
        progress.update(done, f"iteration {self.it}, {self.master.n} columns, bracket [{self.lb:.8g}, "
                              f"{self.centre_val:.8g}] width {width:.1e} (float, certified at the end){cert}")

    def record(self, now: float, msg: str) -> None:
        """The end of a master iteration: the float bracket into the history, a certified checkpoint when one
        is due, the log line."""
        self.history.append((round(now, 3), float(self.lb), float(self.centre_val)))
        self.checkpoint(now)
        if progress.noting():
            progress.note(f"it {self.it}: t={now:.1f}s lb={self.lb:.10g} ub={self.centre_val:.10g} {msg}")

    def checkpoint(self, now: float) -> None:
        """The certified bracket at each checkpoint passed (its time excluded from the run's clock)."""
        while self.pending and now >= self.pending[0] and self.centre is not None:
            self.pending.pop(0)
            c0 = time.perf_counter()
            up, _, _ = self.certify_upper()
            _, low = exact_primal(self.master, self.pool.exact, self.cone, self.p, self.lp, self.x, self.dps)
            self.certified.append((round(now, 3), low, up))
            self.paused += time.perf_counter() - c0

    # ------------------------------------------------------------------ certificate
    def certify_upper(self, *, report: bool = False):
        """(upper, y', leaves) of :func:`cg_certify.certify_upper` at the stability centre."""
        pricing = self.pricing
        return certify_upper(pricing.pricer, self.centre, self.centre_M, self.lp, pricing.n_min,
                             max_nodes=max(60, pricing.budget), report=report)

    def certify(self, method: str) -> CGResult:
        """The certified bracket of the final state: upper from the centre, lower from the restricted LP's x."""
        progress.step("column generation: certifying the upper bound (branch and bound, attempts)", CERT_ATTEMPTS,
                      "attempts")
        upper, y_cert, leaves = self.certify_upper(report=True)
        progress.step("column generation: exact rows in Gamma_eps and their certified utility")
        rows, lower = exact_primal(self.master, self.pool.exact, self.cone, self.p, self.lp, self.x, self.dps)
        if lower > upper:
            raise CertificationError("certified lower bound exceeds the certified upper bound of LP (46)")
        total = time.perf_counter() - self.t_start - self.paused
        self.certified.append((round(total, 3), lower, upper))
        return CGResult(rows, lower, upper, tuple(float(t) for t in y_cert), self.history, self.it, self.master.n,
                        total, leaves, method=method, columns_exact=self.pool.exact,
                        certified_history=self.certified)


def _block_data(cone: Cone, p: list[Fraction]) -> list:
    """The block data (costs of every block vertex) of ``cone`` under ``p``, with progress."""
    data = []
    for i, b in enumerate(cone.blocks):
        data.append(block_data(b, p))
        progress.update(i + 1)
    return data


def _iteration_cap(max_iterations: int | None, stabilisation: str, inout: bool) -> float:
    """The iteration cap (inf: none); InputError for options that do not exist or do not combine."""
    if max_iterations is not None and max_iterations < 1:
        raise InputError(f"max_iterations must be at least 1, got {max_iterations}")
    if stabilisation not in STABILISATIONS:
        raise InputError(f"unknown stabilisation {stabilisation!r} ({', '.join(STABILISATIONS)})")
    if inout and stabilisation != "wentges":
        raise InputError(f"inout=True is an option of the Wentges master, not of {stabilisation!r}")
    return math.inf if max_iterations is None else max_iterations


def solve_lp46_cg(cone: Cone, p: Sequence[Fraction], *, rel_gap: float = 1e-4, time_limit: float = 600.0,
                  init_columns: Sequence[Sequence[Fraction]] = (), dps: int = SEARCH_DPS,
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
    ``certified_history`` (seconds, lower, upper) with the time spent certifying excluded.
    ``stabilisation`` (one of :data:`STABILISATIONS`), ``alpha0`` and ``inout`` (Wentges), ``bundle_cuts``,
    ``rmp_growth`` and ``rmp_alpha`` (proximal bundle): the master, see :mod:`cg_stabilisation`;
    ``alternatives``, ``neighbours``: the pricing's extra columns, see :class:`cg_pricing.Pricing`;
    ``prior_dual``: start from the dual lambda P-hat (:meth:`ColumnGeneration.prior_dual`).
    Log lines (one per iteration with its float bracket) go through :func:`rldp_verify.core.progress.note`:
    ``with progress.notes(print): solve_lp46_cg(...)``."""
    t_start = time.perf_counter()
    progress.step("column generation: block data (costs of the block vertices)", len(cone.blocks), "blocks")
    p = [Fraction(x) for x in p]
    if len(p) != cone.a:
        raise InputError(f"a distribution over {len(p)} inputs does not match |X| = {cone.a}")
    data = _block_data(cone, p)
    progress.step("column generation: the starting columns")
    pricer = Pricer(data, cone.a)
    cap = _iteration_cap(max_iterations, stabilisation, inout)
    cg = ColumnGeneration(cone, p, data, pricer, box=stabilisation == "boxstep", rel_gap=rel_gap,
                          time_limit=time_limit, cap=cap, checkpoints=checkpoints, dps=dps,
                          alternatives=alternatives, neighbours=neighbours, t_start=t_start)
    cg.start(init_columns)
    t_price = time.perf_counter()
    if prior_dual:
        cg.prior_dual()
    # what follows the loop's last check costs about three pricing passes like the prior-direction dual's:
    # the Lagrangian start's coupled columns and their pricing, certify_upper's attempts, the exact rows and
    # the utility (measured at 20 x 18 under load: 5 s, 1.7 s and 3.9 s against 3.4-4.2 s for the dual)
    cg.announce(rel_gap, reserve=3.0 * (time.perf_counter() - t_price) if prior_dual else 0.0)
    masters: list[LagrangianStart | BoxStep | Wentges | ProximalBundle] = []
    if stabilisation == "lagrangian":
        masters.append(LagrangianStart())
    elif stabilisation == "boxstep":
        masters.append(BoxStep())
    elif stabilisation == "wentges":
        masters.append(Wentges(alpha0=alpha0, inout=inout))
    if stabilisation in ("bundle", "lagrangian"):
        masters.append(ProximalBundle(cuts=bundle_cuts, rmp_growth=rmp_growth, rmp_alpha=rmp_alpha))
    for master in masters:
        master.run(cg)
    return cg.certify(_METHODS.get(stabilisation, CGResult.method))
