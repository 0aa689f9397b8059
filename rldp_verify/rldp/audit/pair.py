"""Certified bracket [lo, hi] of the worst ratio for one (y, s1, s2) over a Rényi ball.

Paper: [lopuhaa-2024], Definition 1 (the ratio P(Y=y|S=s1)/P(Y=y|S=s2)), Sec. 4.1 /
Appendix A.1 (power-sum identity, lift of Lemma A2), and the joint projection / dual of
:mod:`rldp_verify.rldp.audit.dual`.

    rho(y, s1, s2) = sup { <q1, R1> / <q2, R2> : (R1, R2) in F_{U|s1,s2} },   q_i = Q_{y|s_i}.

Primal (gives lo). The maximiser lies on the two maximiser curves (t1 for max <q1,R1>, t2 for
min <q2,R2>), on the boundary p1 phi(d1) + p2 phi(d2) = phi(B), with equal block multipliers
kappa1/p1 = r kappa2~/p2 (r the ratio). We solve this 1-D system in mpmath, lift (R1, R2) to a
full P (masses P_s proportional to P^_s e^{beta d_s} for s in {s1, s2}, P^ elsewhere; exactly Lemma A2's
construction for one block), pull it towards P^ by tau (D_alpha(P^||.) is convex in its second argument),
round it to rationals and check membership with :meth:`RenyiBall.contains` (arb). lo is the exact
ratio of that rational witness.

Dual (gives hi). With r_hi slightly above the primal ratio, Dual(lambda, mu1, mu2) of G(r_hi) is
evaluated in arb at rational parameters; Dual <= 0 certifies rho <= r_hi (weak duality). When this
fails, r_hi is raised step by step; the last resort is the pair's Theorem-1 product bound.

alpha <= 1/2 (no KKT system): the lower end from a grid over the two maximiser curves and the upper end
from splitting the budget into intervals (:mod:`rldp_verify.rldp.audit.grid`).

Which way results may err: lo is attained by a verified member of F (it can only be below the sup);
hi is certified (it can only be above). Everything in between is working precision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint
import mpmath

from rldp_verify.core.divergence import renyi_divergence_mp
from rldp_verify.core.numbers import to_mpf
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.roots import RootNotBracketed, root_increasing
from rldp_verify.rldp.audit.blocks import Block
from rldp_verify.rldp.audit.bounds import bisect_certificate, dual_entry, product_entry
from rldp_verify.rldp.audit.bounds import product_bound as product_bound  # re-exported (proofs, pairs)
from rldp_verify.rldp.audit.deadline import NO_DEADLINE, Deadline
from rldp_verify.rldp.audit.dual import phi_arb, phi_inv_mp, power_mean_arb, psi_arb, to_float
from rldp_verify.rldp.projection import lift, phi_mp

INF = math.inf


@dataclass
class PairResult:
    """The certified bracket of one (y, s1, s2) ratio: lower (a verified witness) <= sup <= upper
    (an arb-evaluated dual), with the witness P and how it was obtained."""
    y: int
    s1: int
    s2: int
    lo: Fraction | float | None           # exact ratio of a verified witness (None: no witness; inf: x/0)
    hi: Fraction | float                  # certified upper bound (math.inf when none was found)
    witness: tuple | None = None          # |S| x |U| table of Fractions
    notes: list = field(default_factory=list)
    entry: dict | None = None             # the pair entry of rldp_verify_check.audit proving hi (bounds.dual_entry)


def _frac(x, digits: int) -> Fraction:
    """A rational close to the mpf x (denominator 2^(3.33*digits))."""
    bits = int(digits * 3.33) + 8
    return Fraction(int(mpmath.nint(mpmath.mpf(x) * 2**bits)), 2**bits)


def _frac_rel(x, digits: int) -> Fraction:
    """A rational within a relative 2^-(3.33 digits) of the mpf x: its mantissa rounded, its exponent kept, so
    that a cell of e^-100 (a witness at radius 100) is not rounded to 0 as with :func:`_frac`."""
    m, e = mpmath.frexp(mpmath.mpf(x))
    bits = int(digits * 3.33) + 8
    n = int(mpmath.nint(m * mpmath.mpf(2) ** bits))
    k = int(e) - bits
    return Fraction(n * 2**k) if k >= 0 else Fraction(n, 2**-k)


@dataclass(frozen=True)
class PrimalPoint:
    """A primal optimum of one (y, s1, s2) pair on the maximiser curves (mpf, not certified): the ratio r, the
    two conditionals R1, R2 and their divergence levels d1, d2, and the matching dual parameters lam, mu1,
    nu2 (mu2 = r * nu2) that :meth:`PairProblem.certify` then checks in arb."""

    r: Any
    R1: Any
    R2: Any
    d1: Any
    d2: Any
    lam: Any
    mu1: Any
    nu2: Any


class PairProblem:
    """One (y, s1, s2) pair of the audit: sup over P in F of P(y|s1)/P(y|s2), with its primal search,
    lift, witness and arb dual ([lopuhaa-2024], Definition 1; the reduction of the module docstring)."""
    def __init__(self, ball, Q_rows, y: int, s1: int, s2: int):
        self.ball = ball
        self.y, self.s1, self.s2 = y, s1, s2
        self.q1 = tuple(Q_rows[s1])
        self.q2 = tuple(Q_rows[s2])
        self.m1 = ball.marginal(s1)
        self.m2 = ball.marginal(s2)
        self.w1 = ball.conditional(s1) if self.m1 > 0 else None
        self.w2 = ball.conditional(s2) if self.m2 > 0 else None
        self.alpha = Fraction(ball.alpha)
        self.beta = 1 - 1 / self.alpha
        self.B = ball.radius
        self.deadline: Deadline = NO_DEADLINE

    # ----------------------------------------------------------------------------- exact ratio
    def ratio_of(self, P) -> Fraction | float | None:
        """P(Y=y|S=s1)/P(Y=y|S=s2) for an exact table P (0/0 = 1, x/0 = inf)."""
        n1 = sum(a * b for a, b in zip(self.q1, P[self.s1], strict=True))
        n2 = sum(a * b for a, b in zip(self.q2, P[self.s2], strict=True))
        M1, M2 = sum(P[self.s1]), sum(P[self.s2])
        if M1 == 0 or M2 == 0:
            return None
        a, b = n1 / M1, n2 / M2
        if b == 0:
            return Fraction(1) if a == 0 else INF
        return a / b

    # ------------------------------------------------------------------------------- primal
    def lift(self, R1, R2, d1, d2):
        """The full P (mpf table) of the lift (:func:`rldp_verify.rldp.projection.lift`) with the known d1, d2."""
        b = mpmath.mpf(self.beta.numerator) / self.beta.denominator
        masses = {self.s1: to_mpf(self.m1) * mpmath.exp(b * d1), self.s2: to_mpf(self.m2) * mpmath.exp(b * d2)}
        return lift(self.ball.phat, self.alpha, {self.s1: R1, self.s2: R2}, masses=masses)

    def witness(self, P_mp, dps: int, pulls=None):
        """Round, pull towards P^ by tau = 10^-k for k in ``pulls`` (tau = 0: no pull) and verify membership;
        returns (ratio, table) or (None, None)."""
        phat = self.ball.phat
        flat = [x for row in P_mp for x in row]
        if not all(mpmath.isfinite(x) for x in flat):
            # the lift over- or underflowed (e.g. alpha = 10, P^_x = 1/3001): no witness from this point; the
            # lower bound only loses a candidate, the certified upper bound is not affected
            return None, None
        fr = [max(Fraction(0), _frac_rel(x, dps + 5)) for x in flat]
        tot = sum(fr)
        if tot == 0:
            return None, None
        fr = [x / tot for x in fr]
        a2 = len(phat[0])
        base = [fr[i * a2:(i + 1) * a2] for i in range(len(phat))]
        for k in pulls or (dps - 15, dps - 25, dps // 2, 8, 4, 2):
            if k is not None and k < 1:
                continue
            self.deadline.check()
            tau = Fraction(0) if k is None else Fraction(1, 10**k)
            P = tuple(tuple((1 - tau) * a + tau * b for a, b in zip(r, rh, strict=True))
                      for r, rh in zip(base, phat, strict=True))
            if self.ball.contains(P, dps=dps + 10) is True:
                rho = self.ratio_of(P)
                if rho is not None:
                    return rho, P
        return None, None

    def solve_primal(self, dps: int, start=None) -> PrimalPoint | None:
        """The primal optimum on the maximiser curves, or None when no interior KKT point is found.

        Returns a :class:`PrimalPoint`: the ratio, the two conditionals and their levels, and the
        matching dual parameters (mu2 = r * nu2). A block whose direction is constant on
        supp P^_{U|s} with nothing better off it ("fixed") keeps R = P^_{U|s} and needs no budget.
        """
        a = self.alpha
        if self.m1 == 0 or self.m2 == 0 or self.B == INF or 1 + self.beta <= 0:
            return None
        blk1 = Block.make(self.w1, self.q1, a)
        blk2 = Block.make(self.w2, [-x for x in self.q2], a)
        Phi = phi_mp(mpmath.mpf(self.B.numerator) / self.B.denominator, self.beta)
        m1 = mpmath.mpf(self.m1.numerator) / self.m1.denominator
        m2 = mpmath.mpf(self.m2.numerator) / self.m2.denominator
        fix1, fix2 = blk1.fixed, blk2.fixed

        def fixed(blk):
            R, d, v, _, _ = blk.point(mpmath.inf)
            return R, d, v

        def start_x(i):
            return mpmath.mpf(0) if start is None else mpmath.mpf(start[i])

        if fix1 and fix2:
            R1, d1, v1 = fixed(blk1)
            R2, d2, v2 = fixed(blk2)
            if v2 == 0:
                return None
            return PrimalPoint(r=v1 / (-v2), R1=R1, R2=R2, d1=d1, d2=d2, lam=mpmath.mpf(0), mu1=blk1.vmax_all,
                        nu2=blk2.vmax_all)
        if fix1 or fix2:
            blk, m = (blk2, m2) if fix1 else (blk1, m1)
            dt = phi_inv_mp(Phi / m, self.beta)
            if dt == mpmath.inf:
                return None
            x = _root_or_none(lambda x: blk.point_x(x)[1] - dt, start_x(1 if fix1 else 0), decreasing=True,
                              deadline=self.deadline)
            if x is None:
                return None
            R, d, v, k = blk.point_x(x)
            lam = k / m
            if fix1:
                R1, d1, v1 = fixed(blk1)
                R2, d2, v2 = R, d, v
                mu1, nu2 = blk1.vmax_all, blk2.mu_x(x)
            else:
                R2, d2, v2 = fixed(blk2)
                R1, d1, v1 = R, d, v
                mu1, nu2 = blk1.mu_x(x), blk2.vmax_all
            if v2 == 0:
                return None
            r = v1 / (-v2)
            if fix1:  # block 2's multiplier scales with r in G(r) = <q1,R1> - r <q2,R2>
                lam = lam * r
            return PrimalPoint(r=r, R1=R1, R2=R2, d1=d1, d2=d2, lam=lam, mu1=mu1, nu2=nu2)
        cache: dict = {}
        last = [start_x(1)]  # the inner root starts where the previous one ended (the outer search moves little)

        def x2_of(x1):
            if x1 in cache:
                return cache[x1]
            d1 = blk1.point_x(x1)[1]
            left = Phi - m1 * phi_mp(d1, self.beta)
            out = None
            if left > 0:
                dt = phi_inv_mp(left / m2, self.beta)
                if dt != mpmath.inf:
                    out = _root_or_none(lambda x2: blk2.point_x(x2)[1] - dt, last[0], decreasing=True,
                                        deadline=self.deadline)
            if out is not None:
                last[0] = out
            cache[x1] = out
            return out

        def E2(x1):
            x2 = x2_of(x1)
            if x2 is None:
                return -mpmath.inf
            _, _, v1, k1 = blk1.point_x(x1)
            _, _, v2, k2 = blk2.point_x(x2)
            r = v1 / (-v2)
            return mpmath.log(k1 / m1) - mpmath.log(r * k2 / m2)

        x1 = _root_or_none(E2, start_x(0), deadline=self.deadline)
        if x1 is None:
            return None
        x2 = x2_of(x1)
        if x2 is None:
            return None
        R1, d1, v1, k1 = blk1.point_x(x1)
        R2, d2, v2, _ = blk2.point_x(x2)
        r = v1 / (-v2)
        return PrimalPoint(r=r, R1=R1, R2=R2, d1=d1, d2=d2, lam=k1 / m1, mu1=blk1.mu_x(x1), nu2=blk2.mu_x(x2))

    # --------------------------------------------------------------------------------- dual
    def dual_arb(self, r: Fraction, lam: Fraction, mu1: Fraction, nu2: Fraction, dps: int):
        """An enclosure of Dual at (lambda, mu1, mu2 = r nu2) for G(r); None when a parameter is infeasible."""
        v1 = self.q1
        v2 = tuple(-r * x for x in self.q2)
        mu2 = r * nu2
        with arb_precision(dps):
            Phi = phi_arb(self.B, self.beta)
            if Phi is None and lam != 0:
                return None
            total = flint.arb(0) if lam == 0 else arb_exact(lam) * Phi
            rational = Fraction(0)  # exact part, added once (no rounding when the bound is attained)
            for mu, v, w, m in ((mu1, v1, self.w1, self.m1), (mu2, v2, self.w2, self.m2)):
                if m == 0:
                    rational += max(v)
                    continue
                if mu < max(v):
                    return None
                M = power_mean_arb([arb_exact(mu - vi) for vi in v], w, self.beta)
                rational += mu
                total += psi_arb(lam * m, M, self.beta)
            return total + arb_exact(rational)

    def certify(self, r: Fraction, params: tuple[Fraction, Fraction, Fraction], dps: int) -> bool:
        """True when the arb dual at (r, params) proves sup <= r (a rigorous upper bound)."""
        d = self.dual_arb(r, *params, dps=dps)
        return d is not None and bool(d <= 0)

    def optimise_dual(self, r: Fraction, dps: int = 0):
        """Dual parameters (lambda, mu1, nu2) for G(r), minimised in floating point (numpy).

        Only the parameters come from floating point; :meth:`certify` evaluates the bound in arb.
        """
        import numpy as np

        from rldp_verify.rldp.audit.dual import power_mean_np, psi_np

        beta = to_float(self.beta)
        rf = to_float(r)
        Phi = to_float(phi_mp(mpmath.mpf(to_float(self.B)), self.beta)) if self.B != INF else np.inf
        blocks: list[tuple[Any, Any, float]] = []
        for v, w, m in ((np.array([to_float(x) for x in self.q1]), self.w1, self.m1),
                        (-rf * np.array([to_float(x) for x in self.q2]), self.w2, self.m2)):
            blocks.append((v, None if w is None else np.array([to_float(x) for x in w]), to_float(m)))
        lams = np.concatenate([[0.0], np.logspace(-12, 8, 161)]) if np.isfinite(Phi) else np.array([0.0])
        total = lams * (Phi if np.isfinite(Phi) else 0.0)
        mus = []
        for v, w, m in blocks:
            vmax = v.max()
            if m == 0:
                total = total + vmax
                mus.append(np.full(lams.shape, vmax))
                continue
            ts = np.concatenate([[0.0], np.logspace(-14, 6, 201)])
            mu = vmax + ts  # (T,)
            M = power_mean_np(mu[:, None] - v[None, :], np.broadcast_to(w, (len(ts), len(w))), beta)  # (T,)
            vals = mu[None, :] + psi_np(lams[:, None] * m, M[None, :], beta)  # (L, T)
            j = np.nanargmin(np.where(np.isfinite(vals), vals, np.inf), axis=1)
            total = total + vals[np.arange(len(lams)), j]
            mus.append(mu[j])
        i = int(np.nanargmin(np.where(np.isfinite(total), total, np.inf)))
        lam, mu1, mu2 = lams[i], mus[0][i], mus[1][i]
        f = lambda x: Fraction(to_float(x)) if np.isfinite(x) else Fraction(0)  # noqa: E731
        return (f(lam), max(f(mu1), max(self.q1)), max(f(mu2), max(-r * x for x in self.q2)) / r)


def _snap(x: Fraction, target: Fraction, dps: int) -> Fraction:
    """x replaced by the exact ``target`` when they agree to about dps digits (flat blocks: mu = max v)."""
    return target if abs(x - target) <= Fraction(1, 10 ** (dps - 5)) * (1 + abs(target)) else x


# the curve parameter x = log t of the primal searches: t = e^-ROOT_X_MIN reaches levels d of about
# ROOT_X_MIN / alpha (alpha 10 at the nested ball's radius 100 needs x near -1000; mpf has no underflow)
ROOT_X_MIN = 20000


def _root_or_none(f, x0, *, decreasing: bool = False, deadline: Deadline = NO_DEADLINE):
    """The root of a monotone f near x0 (:func:`rldp_verify.core.roots.root_increasing`), or None when it is
    not bracketed in [-ROOT_X_MIN, 80]: the primal search then reports "no interior KKT point" explicitly.
    ``deadline`` is checked at every evaluation of f."""
    def g(x):
        deadline.check()
        return -f(x) if decreasing else f(x)

    try:
        return root_increasing(g, x0, lo=-ROOT_X_MIN, hi=80)
    except RootNotBracketed:
        return None


# the grid witness of alpha <= 1/2 (:mod:`~rldp_verify.rldp.audit.grid`) from this alpha on (below it the curves'
# cells, (mu - v)^(-1/alpha), need exponents beyond the rationals a witness can be printed with)
GRID_ALPHA = Fraction(1, 100)


def solve_pair(problem: PairProblem, dps: int, start=None, max_tries: int = 6, want_witness=None,
               deadline: Deadline = NO_DEADLINE) -> PairResult:
    """The certified bracket for one pair (see the module docstring).

    ``want_witness(r)``: called with the primal ratio; the (costly) lifted witness is built only when it
    returns True (default: always). P^ itself is always a witness. ``deadline``: checked in every loop;
    :class:`~rldp_verify.rldp.audit.deadline.TimeLimitReached` propagates to the caller.
    """
    problem.deadline = deadline
    res = PairResult(problem.y, problem.s1, problem.s2, None, INF)
    rho_hat = problem.ratio_of(problem.ball.phat)
    if rho_hat is not None:
        res.lo, res.witness = rho_hat, problem.ball.phat
    with mpmath.workdps(dps + 15):
        sol, degenerate_note = _primal_point(problem, dps, start, res)
        if sol is not None:
            if _bracket_at_primal(problem, sol, rho_hat, dps, max_tries, want_witness, res):
                return res
        elif degenerate_note:
            res.notes.append("no interior KKT point (degenerate block, alpha <= 1/2, zero mass or infinite radius)")
            if problem.alpha < 1 and problem.m1 > 0 and problem.m2 > 0:
                _face_witnesses(problem, res, dps)
    if res.hi == INF:
        res.hi, params = bisect_certificate(problem, res.lo, dps)
        res.entry = None if params is None else dual_entry(problem, res.hi, params)
        prod, entry = product_entry(problem, dps)
        if prod < res.hi:
            res.hi, res.entry = prod, entry
            res.notes.append("upper bound from the product of the Theorem-1 projections")
        if GRID_ALPHA <= problem.alpha <= Fraction(1, 2) and problem.m1 > 0 and problem.m2 > 0 and \
                problem.B != INF and (want_witness is None or want_witness(to_float(res.hi))):
            from rldp_verify.rldp.audit.grid import grid_witness, split_entry

            with mpmath.workdps(dps + 15):
                grid_witness(problem, res, dps)
            split, entry = split_entry(problem, dps)
            if split < res.hi:
                res.hi, res.entry = split, entry
                res.notes.append("upper bound from splitting the budget into intervals (Theorem 1's projections per "
                                 "part; re-checkable by rldp_verify_check)")
    return res


def _primal_point(problem: PairProblem, dps: int, start, res: PairResult):
    """(sol, degenerate_note): the primal KKT point (None when there is none or it is not finite, with a note
    in ``res``); ``degenerate_note`` is False only when the point was found but over- or underflowed."""
    try:
        sol = problem.solve_primal(dps, start)
    except (ZeroDivisionError, ValueError, OverflowError) as exc:  # pragma: no cover - numerical trouble
        res.notes.append(f"primal solve failed: {type(exc).__name__}" + (f": {exc}" if str(exc) else ""))
        sol = None
    if sol is not None and not all(mpmath.isfinite(v) for v in (sol.r, sol.lam, sol.mu1, sol.nu2)):
        # e.g. alpha = 10 with P^_x = 1/3001 and a zero in Q: the primal point over/underflowed. No candidate
        # from it; the bracket falls back to the bisection certificate and the product bound below.
        res.notes.append("primal point not finite (over- or underflow); certified by bisection instead")
        return None, False
    return sol, True


def _dual_params(problem: PairProblem, sol: PrimalPoint, dps: int):
    """The dual parameters (lambda, mu1, nu2) of the primal point as rationals, mu1 and nu2 snapped to and
    kept at or above their Proposition-3 values max q1 and max(-q2)."""
    params = (_frac(sol.lam, dps + 10), _snap(_frac(sol.mu1, dps + 10), max(problem.q1), dps),
              _snap(_frac(sol.nu2, dps + 10), max(-x for x in problem.q2), dps))
    return (params[0], max(params[1], max(problem.q1)), max(params[2], max(-x for x in problem.q2)))


def _bracket_at_primal(problem: PairProblem, sol: PrimalPoint, rho_hat, dps: int, max_tries: int, want_witness,
                       res: PairResult) -> bool:
    """Fill ``res`` from the primal point: the lifted witness (when wanted) and a dual certificate at the
    primal parameters. True when the bracket closed (lo = hi) and the pair is done."""
    params = _dual_params(problem, sol, dps)
    r_star = sol.r
    if isinstance(rho_hat, Fraction) and rho_hat > 0 and problem.certify(rho_hat, params, dps + 10):
        res.hi, res.entry = rho_hat, dual_entry(problem, rho_hat, params)  # P^ attains the certified bound
        return True
    if want_witness is None or want_witness(r_star):
        P = problem.lift(sol.R1, sol.R2, sol.d1, sol.d2)
        rho, W = problem.witness(P, dps)
        if rho is not None and (res.lo is None or rho > res.lo):
            res.lo, res.witness = rho, W
        if res.lo is None or (res.lo != INF and to_mpf(res.lo) < r_star * (1 - mpmath.mpf(10) ** (-6))):
            _inner_witness(problem, dps, res)
        if isinstance(res.lo, Fraction) and res.lo > 0 and problem.certify(res.lo, params, dps + 10):
            res.hi, res.entry = res.lo, dual_entry(problem, res.lo, params)
            return True
    _certify_above(problem, r_star, params, dps, max_tries, res)
    return False


def _inner_witness(problem: PairProblem, dps: int, res: PairResult) -> None:
    """A witness from the primal point of the ball of radius B (1 - 10^-(dps/2)), inside F with room to spare, so
    that it is rounded without the pull towards P^ (which, by adding tau P^_x, lifts a cell far below tau P^_x:
    the 1e-300 blocks, whose witness cell is near 1e-600). Updates ``res.lo`` when it beats it."""
    ball = problem.ball
    inner = type(ball).from_radius(ball.phat, ball.alpha, Fraction(ball.radius) * (1 - Fraction(1, 10 ** (dps // 2))))
    sub = PairProblem(inner, {problem.s1: problem.q1, problem.s2: problem.q2}, problem.y, problem.s1, problem.s2)
    sub.deadline = problem.deadline
    try:
        sol = sub.solve_primal(dps)
    except (ZeroDivisionError, ValueError, OverflowError):  # pragma: no cover - numerical trouble: no candidate
        return
    if sol is None or not all(mpmath.isfinite(v) for v in (sol.r, sol.d1, sol.d2)):
        return
    rho, W = problem.witness(sub.lift(sol.R1, sol.R2, sol.d1, sol.d2), dps, pulls=(None, dps - 15))
    if rho is not None and (res.lo is None or rho > res.lo):
        res.lo, res.witness = rho, W


def _certify_above(problem: PairProblem, r_star, params, dps: int, max_tries: int, res: PairResult) -> None:
    """res.hi = the first of r*, r* (1 + 10^-(dps-12) 10^(3k)) (k = 1 .. max_tries - 1) that the dual at
    ``params`` certifies; a note when none does."""
    for k in range(max_tries):
        problem.deadline.check()
        delta = mpmath.mpf(10) ** (-(dps - 12) + 3 * k)
        r_hi = _frac(r_star * (1 + delta), dps + 10) if k else _frac(r_star, dps + 10)
        if problem.certify(r_hi, params, dps + 10):
            res.hi, res.entry = r_hi, dual_entry(problem, r_hi, params)
            return
    res.notes.append("dual certificate at the primal parameters failed")


def _face_witnesses(problem: PairProblem, res: PairResult, dps: int):
    """alpha < 1: balls can contain faces of the simplex. Try R1 on the face where q1 is maximal and/or R2
    on the face where q2 is minimal (P^ restricted and renormalised), lifted and verified like any witness."""
    def face(w, q, best):
        keep = [wi if qi == best and wi > 0 else 0 for wi, qi in zip(w, q, strict=True)]
        tot = sum(keep)
        if tot == 0:
            return None
        mp_tot = mpmath.mpf(tot.numerator) / tot.denominator
        return [mpmath.mpf(k.numerator) / k.denominator / mp_tot for k in keep]
    pw1, pw2 = problem.w1, problem.w2
    if pw1 is None or pw2 is None:  # pragma: no cover - called with m1, m2 > 0 only (both conditionals exist)
        return
    a = mpmath.mpf(problem.alpha.numerator) / problem.alpha.denominator
    w1 = [mpmath.mpf(x.numerator) / x.denominator for x in pw1]
    w2 = [mpmath.mpf(x.numerator) / x.denominator for x in pw2]
    f1 = face(pw1, problem.q1, max(q for q, w in zip(problem.q1, pw1, strict=True) if w > 0))
    f2 = face(pw2, problem.q2, min(q for q, w in zip(problem.q2, pw2, strict=True) if w > 0))
    with mpmath.workdps(dps + 15):
        for R1, R2 in ((f1, w2), (w1, f2), (f1, f2)):
            if R1 is None or R2 is None:
                continue
            d1, d2 = renyi_divergence_mp(w1, R1, a), renyi_divergence_mp(w2, R2, a)
            P = problem.lift(R1, R2, d1, d2)
            rho, W = problem.witness(P, dps)
            if rho is not None and (res.lo is None or rho > res.lo):
                res.lo, res.witness = rho, W
