"""Stabilisation of column-generated LP (46): how each master chooses the dual points it prices.

Paper: [lopuhaa-2024], Sec. 5, LP (46).  Plain column generation prices at the restricted
LP's dual y_RMP, which jumps; each class below is one way of keeping the priced points near the best dual
found so far (the stability centre, :attr:`polyopt_cg.ColumnGeneration.centre`, whose dual value
f(y) = sum_x y_x + m M(y) is the float upper bound of the bracket).  Each has ``run(cg)``, which iterates
until the float bracket's relative width (:meth:`polyopt_cg.ColumnGeneration.width_now`) is below rel_gap / 2,
the time limit or the iteration cap is reached, or no new column is found:

* :class:`LagrangianStart` -- one step: LP (46) with the coupling in t relaxed (:mod:`lagrangian`), whose dual
  is dual feasible for LP (46) and whose coupled block marginals give the restricted LP a near-optimal primal;
* :class:`ProximalBundle` -- a proximal bundle method on f: the trial point minimises the cutting-plane model
  of f plus (u/2)|y - centre|^2 (:class:`ProximalQP`, Clarabel); the restricted LP gives the lower bound;
* :class:`BoxStep` -- the restricted LP with its dual confined to a sup-norm box around the centre;
* :class:`Wentges` -- pricing at alpha centre + (1 - alpha) y_RMP (Wentges smoothing), optionally with an
  in-out upper bound on the segment y_RMP -> centre.
"""

from __future__ import annotations

import math

import numpy as np

from rldp_verify.core import progress
from rldp_verify.rldp.mechanisms.cg_pricing import MAX_BUDGET
from rldp_verify.rldp.mechanisms.lagrangian import couple, solve_relaxation


class LagrangianStart:
    """The relaxation of the coupling in t (lagrangian.py): its dual is dual feasible for LP (46) (an upper
    bound, certified at the end like any other), its block marginals coupled into product columns give the
    restricted LP (46) a near-optimal primal.  The bundle continues from there if the width is not reached."""

    def run(self, cg) -> None:
        """Run the relaxation once on ``cg``'s instance and seed its master and bracket with the result."""
        cg.it += 1
        pricing = cg.pricing
        # with a finite time limit the relaxation stops there too (with time_limit = inf: no clock, as before)
        stop = (lambda: cg.elapsed() > cg.time_limit) if math.isfinite(cg.time_limit) else None
        rel = solve_relaxation(pricing.data, pricing.pricer, cg.lp, cg.a, stop=stop)
        cg.pool.add_exact([pricing.combo_vector(pt) for pt in couple(rel.marginals, pricing.data)], check=False)
        y0 = rel.y
        _, M_up, pts = pricing.price(y0, 0.0, tau=0.1 * cg.rel_gap * abs(rel.upper) / cg.m)
        cg.improve(y0, cg.dual_value(y0, M_up), M_up)
        pricing.columns_at(y0, pts)
        cg.lb, cg.x, _ = cg.master.solve()
        now = cg.elapsed()
        cg.record(now, f"relaxation: LP(kappa) = {rel.upper:.10g} at kappa = {rel.kappa:.10g}, relaxed primal "
                       f"{rel.value:.10g}, {rel.rounds} values of kappa, {rel.solves} LP solves, {rel.columns} "
                       f"block columns; restricted LP (46) with the coupled columns {cg.lb:.10g}")
        cg.width_now(now)


class ProximalBundle:
    """Proximal bundle on the Lagrangian dual f(y) = sum_x y_x + m M(y) (f(y + c 1) = f(y)).

    The model f^(y) = sum y + m max_j (mu_j - v_j . y) over a bundle of columns (at most ``cuts`` new cuts per
    step, aged out after 8 steps without a multiplier), the trial point z = argmin f^(y) + (u/2)|y - centre|^2
    (Clarabel), priced; the centre moves to z when f drops by a tenth of the predicted decrease (serious step,
    Kiwiel's rule adapts u), else the cut of z's maximiser refines the model.  The lower bound: the restricted
    LP of every column found, re-solved when the column count has grown by ``rmp_growth`` (a count, not
    seconds: capped runs do not depend on the machine's speed) or when the trial point yielded no column, and
    priced at ``rmp_alpha`` centre + (1 - rmp_alpha) y_RMP (then at y_RMP itself, with a growing node budget,
    before the run concludes that nothing is left)."""

    def __init__(self, *, cuts: int, rmp_growth: float, rmp_alpha: float):
        self.cuts = cuts
        self.rmp_growth = rmp_growth
        self.rmp_alpha = rmp_alpha

    def run(self, cg) -> None:
        """Run the bundle iterations on ``cg`` (the driver's state) until its stopping rule holds."""
        if cg.centre is None:
            # no starting dual (prior_dual=False): the first centre is the starting columns' restricted LP dual
            _, _, y_rmp = cg.master.solve()
            y0 = cg.full(y_rmp)
            _, M_up, pts = cg.pricing.price(y0, 0.0)
            cg.centre, cg.centre_val, cg.centre_M = y0, float(np.sum(y_rmp)) + cg.m * M_up, M_up
            cg.pricing.columns_at(y0, pts)
        self.qp = ProximalQP(cg.m)
        floats = cg.pool.floats
        self.idx = list(range(len(floats)))
        self.V = np.array([v for v, _ in floats])
        self.mu = np.array([w for _, w in floats])
        self.age = np.zeros(len(self.mu))
        self.c = np.array(cg.centre[cg.lp], float) + cg.centre_M
        g0 = 1.0 - cg.m * self.V[int(np.argmax(self.mu - self.V @ self.c))]
        self.u = float(np.linalg.norm(g0)) / (0.05 * float(np.linalg.norm(self.c)) + 1e-12)
        self.t_rmp, self.n_rmp_last = 0.0, (cg.master.n if cg.x is not None else 0)
        done = cg.x is not None and (cg.width(cg.lb) <= cg.rel_gap / 2 or cg.it >= cg.cap
                                     or cg.elapsed() > cg.time_limit)     # e.g. the Lagrangian start used it up
        while not done:
            done = self.iteration(cg)

    def iteration(self, cg) -> bool:
        """One trial point: priced, a serious or null step, the bundle refreshed, the restricted LP re-solved
        when due.  True when the run is to stop."""
        cg.it += 1
        z, model, lam, status = self.qp.solve(self.V, self.mu, self.c, self.u)
        if not (np.all(np.isfinite(z)) and math.isfinite(model)):
            # the QP only proposes a trial point: without one, price at the centre (a null step)
            z, model, lam = self.c.copy(), cg.centre_val, np.zeros(len(self.mu))
        delta = cg.centre_val - model
        g_res = float(np.max(np.abs(1.0 - lam @ self.V)))
        z = z + float(np.max(self.mu - self.V @ z))
        y = cg.full(z)
        _, M_up, pts = cg.pricing.price(y, 0.0, tau=cg.tau())
        fz = float(np.sum(z)) + cg.m * M_up
        added = cg.pricing.columns_at(y, pts)
        cand = self.new_cuts(cg, z)
        step = self.step(cg, y, z, fz, M_up, delta)
        self.refresh(cg, lam, cand)
        now = cg.elapsed()
        rmp_note = ""
        converged = False
        if cg.x is None or added == 0 or cg.master.n >= (1 + self.rmp_growth) * self.n_rmp_last:
            n_rmp = self.restricted_lp(cg, added)
            converged = n_rmp == 0 and added == 0
            rmp_note = f" rmp+{n_rmp}"
            now = cg.elapsed()
        cg.record(now, f"model={model:.10g} f(z)={fz:.10g} {step} u={self.u:.3g} |g|={g_res:.1e} "
                       f"bundle={len(self.mu)} cols={cg.master.n} +{added}{rmp_note} rmp {self.t_rmp:.0f}s {status}")
        width = cg.width_now(now)
        return width <= cg.rel_gap / 2 or now > cg.time_limit or cg.it >= cg.cap or converged

    def new_cuts(self, cg, z) -> list:
        """The columns of the last pricing not yet in the bundle (the ``cuts`` most violated at z)."""
        inb = set(self.idx)
        floats = cg.pool.floats
        cand = [j for j in cg.pool.touched if j not in inb]
        if len(cand) > self.cuts:
            viol = np.array([floats[j][1] - float(floats[j][0] @ z) for j in cand])
            cand = [cand[i] for i in np.argsort(-viol)[:self.cuts]]
        return cand

    def step(self, cg, y, z, fz, M_up, delta) -> str:
        """Serious step (the centre moves to z; Kiwiel's interpolation: the better f agrees with the model, the
        longer the next step) or null step (u grows when the trial is worse than the centre by more than the
        prediction)."""
        if fz <= cg.centre_val - 0.1 * max(delta, 0.0):
            ratio = (cg.centre_val - fz) / delta if delta > 0 else 1.0
            self.u = max(self.u * min(1.0, max(0.1, 2.0 * (1.0 - ratio))), 1e-12)
            self.c = z + M_up
            cg.centre, cg.centre_val, cg.centre_M = y, fz, M_up
            return "serious"
        if fz > cg.centre_val + max(delta, 1e-12 * abs(cg.centre_val)):
            self.u = min(self.u * 1.5, 1e12)
        return "null"

    def refresh(self, cg, lam, cand) -> None:
        """Age the cuts (reset while their multiplier is positive), drop those inactive 8 times, add ``cand``."""
        self.age = np.where(lam > 1e-9 * cg.m, 0, self.age + 1)
        keep = self.age < 8
        self.V, self.mu, self.age = self.V[keep], self.mu[keep], self.age[keep]
        self.idx = [j for j, kp in zip(self.idx, keep, strict=True) if kp]
        if cand:
            floats = cg.pool.floats
            self.V = np.vstack([self.V, np.array([floats[j][0] for j in cand])])
            self.mu = np.concatenate([self.mu, [floats[j][1] for j in cand]])
            self.age = np.concatenate([self.age, np.zeros(len(cand))])
            self.idx += cand

    def restricted_lp(self, cg, added: int) -> int:
        """Re-solve the restricted LP (the lower bound) and price at the smoothed point; on a mis-pricing at the
        restricted LP's own dual, with a node budget grown tenfold (up to MAX_BUDGET) before concluding that the
        LP is solved.  Returns the number of columns this pricing added."""
        t2 = cg.clock()
        self.n_rmp_last = cg.master.n
        cg.lb, cg.x, y_rmp = cg.master.solve()
        n_rmp = 0
        pricing = cg.pricing
        for sep in ([self.rmp_alpha] if self.rmp_alpha > 0 else []) + [0.0]:
            y_full = cg.full(sep * self.c + (1 - sep) * y_rmp)
            while True:
                M_lo, M_up, pts = pricing.price(y_full, cg.last_M, tau=cg.tau())
                cg.last_M = M_lo
                if cg.improve(y_full.copy(), cg.dual_value(y_full, M_up), M_up):
                    self.c = y_full[cg.lp] + M_up
                n_rmp = pricing.columns_at(y_full, pts)
                if n_rmp or sep > 0 or added or pricing.budget >= MAX_BUDGET:
                    break
                pricing.budget *= 10
            if n_rmp:
                break
        self.t_rmp += cg.clock() - t2
        return n_rmp


class ProximalQP:
    """The proximal bundle's master: min_z 1.z + m r + (u/2)|z - c|^2 s.t. r >= mu_j - v_j . z for the cuts j
    (Clarabel, an interior-point conic solver).  Returns z, the model value 1.z + m r and the cut multipliers
    lambda_j (sum_j lambda_j = m)."""

    def __init__(self, m: int):
        self.m = m

    def solve(self, V: np.ndarray, mu: np.ndarray, c: np.ndarray, u: float):
        """The trial point for the cuts (V, mu) around the centre ``c`` with weight ``u``:
        (z, model value, multipliers)."""
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


class BoxStep:
    """Box-step bundle (trust region in the sup norm) on the Lagrangian dual f(y) = sum_x y_x + m M(y).

    The restricted LP with its dual confined to [c - delta, c + delta] around the stability centre c (the best
    dual found, shifted to feasibility); its dual y_k is priced; c moves to y_k only when f drops by a tenth
    of the predicted decrease (serious step, delta doubles when y_k is at the box's edge), else the new
    columns refine the model (null step; delta halves when f(y_k) is worse than the centre's).  The lower
    bound comes from the plain restricted LP; the run stops after 3 steps without a new column."""

    def run(self, cg) -> None:
        """Run the box-step iterations on ``cg`` (the driver's state) until its stopping rule holds."""
        master, pricing = cg.master, cg.pricing
        master.set_box(None, 0.0)
        cg.lb, cg.x, y_rmp = master.solve()
        y = cg.full(y_rmp)
        M_lo, M_up, pts = pricing.price(y, 0.0)
        cg.last_M = M_lo
        cg.centre, cg.centre_M = y, M_up
        cg.centre_val = cg.dual_value(y, M_up)
        pricing.columns_at(y, pts)
        self.delta = 0.5 * float(np.max(np.abs(y[cg.lp] + M_up))) + 1e-12
        stalls = 0
        while True:
            cg.it += 1
            step, fk, added = self.trial(cg)
            master.set_box(None, 0.0)
            cg.lb, cg.x, _ = master.solve()
            now = cg.elapsed()
            cg.record(now, f"f_k={fk:.10g} {step} delta={self.delta:.3g} cols={master.n} +{added}")
            width = cg.width_now(now)
            stalls = stalls + 1 if added == 0 else 0
            if width <= cg.rel_gap / 2 or now > cg.time_limit or stalls >= 3 or cg.it >= cg.cap:
                break

    def trial(self, cg):
        """The box-constrained restricted LP's dual y_k, priced: (step, f(y_k), columns added)."""
        c = cg.centre[cg.lp] + cg.centre_M
        cg.master.set_box(c, self.delta)
        val_box, _, yk_lp = cg.master.solve()
        yk = cg.full(yk_lp)
        M_lo, M_up, pts = cg.pricing.price(yk, cg.last_M, tau=cg.tau())
        cg.last_M = M_lo
        fk = float(np.sum(yk_lp)) + cg.m * M_up
        added = cg.pricing.columns_at(yk, pts)
        pred = cg.centre_val - val_box
        step = "null"
        if fk < cg.centre_val - 0.1 * max(pred, 0.0):
            step = "serious"
            if float(np.max(np.abs(yk_lp - c))) >= 0.9 * self.delta:
                self.delta *= 2.0
            cg.centre, cg.centre_M, cg.centre_val = yk, M_up, fk
        elif fk > cg.centre_val:
            self.delta = max(self.delta * 0.5, 1e-12)
        return step, fk, added


class Wentges:
    """Wentges smoothing: price at y_sep = alpha y_centre + (1 - alpha) y_RMP (y_RMP the restricted LP's dual),
    alpha adapted (raised by 0.1 after a successful step up to ``alpha0``, lowered by 0.3 after a mis-pricing).
    When no column is found at y_RMP the node budget grows tenfold (up to MAX_BUDGET) before the run concludes.
    ``inout``: the upper bound also from the first feasible point on the segment y_RMP -> y_centre."""

    def __init__(self, *, alpha0: float, inout: bool):
        self.alpha0 = alpha0
        self.inout = inout

    def run(self, cg) -> None:
        """Run the smoothed pricing iterations on ``cg`` (the driver's state) until its stopping rule holds."""
        self.alpha = self.alpha0
        while True:
            cg.it += 1
            cg.lb, cg.x, y_rmp = cg.master.solve()
            y_full = cg.full(y_rmp)
            added = self.smoothed(cg, y_full)
            now = cg.elapsed()
            cg.record(now, f"alpha={self.alpha:.2f} cols={cg.master.n} +{added}")
            if added == 0 and self.alpha <= 0:
                added = self.deeper(cg, y_full)
            width = cg.width_now(now)
            if width <= cg.rel_gap / 2 or now > cg.time_limit or added == 0 or cg.it >= cg.cap:
                break
            self.alpha = min(self.alpha0, self.alpha + 0.1)

    def smoothed(self, cg, y_full) -> int:
        """Price at the smoothed point, moving it towards y_RMP after each mis-pricing; the columns added."""
        pricing = cg.pricing
        while True:
            centre, alpha = cg.centre, self.alpha
            y_sep = y_full if centre is None or alpha <= 0 else alpha * centre + (1 - alpha) * y_full
            M_lo, M_up, pts = pricing.price(y_sep, cg.last_M,
                                            tau=cg.tau() if cg.centre_val < math.inf else 0.0)
            cg.last_M = M_lo
            cg.improve(y_sep.copy(), cg.dual_value(y_sep, M_up), M_up)
            if self.inout and cg.centre is not None and cg.it > 1:
                tau = 0.02 * cg.rel_gap * abs(cg.centre_val)
                val, yt, shift, more = pricing.line_bound(y_full, cg.centre + cg.centre_M, cg.centre_val, tau)
                cg.improve(yt, val, shift)
                pts.extend(more)
            added = pricing.columns_at(y_full, pts)
            if added or self.alpha <= 0 or cg.centre is None:
                return added
            self.alpha = max(0.0, self.alpha - 0.3)      # mis-pricing: move the separation point towards y_RMP

    def deeper(self, cg, y_full) -> int:
        """No column found at the restricted LP's dual: the search may have stopped early (measured on NR at
        |X| = 224: 40 nodes missed columns of reduced cost 1.6e-4 that 2,000 find); search again with ten
        times the budget before concluding."""
        pricing = cg.pricing
        added = 0
        while added == 0 and pricing.budget < MAX_BUDGET:
            pricing.budget *= 10
            M_lo, M_up, pts = pricing.price(y_full, cg.last_M, tau=cg.tau())
            cg.last_M = M_lo
            cg.improve(y_full.copy(), cg.dual_value(y_full, M_up), M_up)
            added = pricing.columns_at(y_full, pts)
            if progress.noting():
                progress.note(f"   search budget {pricing.budget} nodes: +{added} columns, ub={cg.centre_val:.10g}")
        return added
