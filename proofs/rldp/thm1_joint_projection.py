"""The joint projection of a Rényi ball onto (P_{U|s1}, P_{U|s2}) and the dual used by the audit.

Derived for the audit (issue 4) from 000_aca93ed29ea857ee.txt, Sec. 4.1 (the power-sum identity
P^_x^a P_x^(1-a) = P^_{u|s}^a P_{u|s}^(1-a) P^_s^a P_s^(1-a)), Theorem 1 and Appendix A.1.

Derivation (alpha != 1; beta = 1 - 1/alpha, S_s(R) = sum_u P^_{u|s}^a R_u^(1-a) = e^{(a-1) D_s}):
    sum_x P^_x^a P_x^(1-a) = sum_s A_s P_s^(1-a),  A_s = P^_s^a S_s(P_{U|s}).
For fixed (R1, R2) the other conditionals are free and S_s >= 1 (a > 1) / <= 1 (a < 1) with equality at
P^_{U|s}, so they are set to P^_{U|s}. The remaining choice of the masses P_S is
    min (a > 1) / max (a < 1) over the simplex of sum_s A_s P_s^(1-a) = (sum_s A_s^{1/a})^a, at P_s ~ A_s^{1/a}
(Hölder; checked symbolically below). With A_s^{1/a} = P^_s e^{beta D_s}, the condition D_a(P^||P) <= B becomes
    P^_{s1} phi(D_1) + P^_{s2} phi(D_2) <= phi(B),   phi(d) = (e^{beta d} - 1)/beta,
for every alpha in (0, inf) (both inequality directions flip together when a < 1). At alpha = 1 the chain
rule D_1(P^||P) = sum_s P^_s D_1(P^_{U|s}||P_{U|s}) + D_1(P^_S||P_S) gives the same with phi(d) = d.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import minimize

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import working_precision
from rldp_verify.rldp.audit.dual import phi_inv_mp, phi_mp
from rldp_verify.rldp.audit.projection import joint_projection_lhs, lift_pair
from rldp_verify.rldp.uncertainty import RenyiBall

PAPER = "000_aca93ed29ea857ee.txt"
ALPHAS = (Fraction(3, 10), Fraction(1, 2), Fraction(3, 4), Fraction(1), Fraction(2), Fraction(3))


def _symbolic_mass_step() -> bool:
    """P_s = A_s^{1/a}/T (T = sum A^{1/a}) is stationary for sum A_s P_s^(1-a) on the simplex with value T^a,
    and the rewriting with A^{1/a} = p e^{beta D} is the phi-form (identity in sympy)."""
    a = sp.symbols("alpha", positive=True)
    A = sp.symbols("A1:4", positive=True)
    T = sum(x ** (1 / a) for x in A)
    P = [x ** (1 / a) / T for x in A]
    value = sum(x * p ** (1 - a) for x, p in zip(A, P))
    ok_value = sp.simplify(sp.powsimp(sp.expand_power_base(value - T**a, force=True), force=True)) == 0
    # stationarity: d/dP_s (A_s P_s^(1-a)) = (1-a) A_s P_s^(-a) is the same for every s at P
    grads = [sp.simplify(sp.powsimp(sp.expand_power_base((1 - a) * x * p ** (-a) / ((1 - a) * T**a), force=True),
                                    force=True)) for x, p in zip(A, P)]
    ok_stat = all(sp.simplify(g - grads[0]) == 0 for g in grads)
    b, p1, p2, D1, D2, B = sp.symbols("beta p1 p2 D1 D2 B", positive=True)
    phi = lambda d: (sp.exp(b * d) - 1) / b  # noqa: E731
    lhs = p1 * sp.exp(b * D1) + p2 * sp.exp(b * D2) + (1 - p1 - p2) - sp.exp(b * B)
    ok_phi = sp.simplify(lhs - b * (p1 * phi(D1) + p2 * phi(D2) - phi(B))) == 0
    return bool(ok_value and ok_stat and ok_phi)


def _rand_ball(rng, alpha, a1, a2, zeros=False):
    counts = [[rng.randint(0 if zeros else 1, 20) for _ in range(a2)] for _ in range(a1)]
    counts[0][0] += 1
    counts[1][0] += 1
    B = Fraction(rng.randint(1, 60), 100)
    return RenyiBall.from_radius(counts, alpha, B)


def _direct_min_divergence(ball, s1, s2, R1, R2, rng):
    """min over P with P_{U|s1} = R1, P_{U|s2} = R2 of D_alpha(P^||P), by SLSQP over the masses and the
    other conditionals (independent of the closed form)."""
    a1, a2 = ball.sensitive_size, ball.public_size
    ph = np.array([[float(v) for v in r] for r in ball.phat])
    al = float(ball.alpha)
    others = [s for s in range(a1) if s not in (s1, s2)]

    def build(z):
        m = np.exp(z[:a1])
        m /= m.sum()
        P = np.zeros((a1, a2))
        P[s1] = m[s1] * np.asarray(R1, float)
        P[s2] = m[s2] * np.asarray(R2, float)
        for k, s in enumerate(others):
            c = np.exp(z[a1 + k * a2:a1 + (k + 1) * a2])
            P[s] = m[s] * c / c.sum()
        return P.reshape(-1)

    def D(z):
        P = build(z)
        x = ph.reshape(-1)
        pos = x > 0
        if al == 1:
            return float(np.sum(x[pos] * np.log(x[pos] / P[pos])))
        return float(np.log(np.sum(x[pos] ** al * P[pos] ** (1 - al))) / (al - 1))

    best = np.inf
    for _ in range(3):
        z0 = np.log(np.maximum(ph.sum(axis=1), 1e-3))
        z0 = np.concatenate([z0 + 0.1 * np.array([rng.gauss(0, 1) for _ in z0]),
                             np.concatenate([np.log(np.maximum(ph[s], 1e-3)) for s in others]) if others else []])
        r = minimize(D, z0, method="BFGS", options={"gtol": 1e-12, "maxiter": 2000})
        best = min(best, r.fun)
    return best


@claim(
    id="rldp.audit.joint-projection",
    paper=PAPER,
    source="Sec. 4.1 (power-sum identity), Theorem 1, Appendix A.1 (Lemma A2 lift); derived for the audit",
    statement="For a Rényi ball F = {P : D_alpha(P^||P) <= B} of any order alpha in (0, inf) and s1 != s2 with "
              "P^_{s_i} > 0: (R1, R2) is the pair of conditionals (P_{U|s1}, P_{U|s2}) of some P in F iff "
              "P^_{s1} phi(D_alpha(P^_{U|s1}||R1)) + P^_{s2} phi(D_alpha(P^_{U|s2}||R2)) <= phi(B), "
              "phi(d) = (e^{beta d}-1)/beta, beta = 1-1/alpha (phi(d) = d at alpha = 1); the lift with masses "
              "P_s ~ P^_s e^{beta D_s} attains D_alpha(P^||P) = phi^{-1}(sum_i P^_{s_i} phi(D_i)).",
    hypotheses=("finite S x U", "P^_{s1}, P^_{s2} > 0", "alpha in (0, inf)"),
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION, Method.PROPERTY),
    reading="our derivation (module docstring); the projection is taken up to closure",
)
def check_joint(ctx):
    sym = _symbolic_mass_step()
    rng = ctx.rng("audit.joint")
    worst_lift = mpmath.mpf(0)
    worst_direct = 0.0
    n = 0
    with working_precision(ctx.dps):
        for alpha in ALPHAS:
            for k in range(3):
                a1, a2 = 2 + k % 2, 2 + (k + 1) % 3
                ball = _rand_ball(rng, alpha, a1, a2)
                R1 = [mpmath.mpf(rng.random()) + mpmath.mpf("0.05") for _ in range(a2)]
                R2 = [mpmath.mpf(rng.random()) + mpmath.mpf("0.05") for _ in range(a2)]
                R1 = [x / mpmath.fsum(R1) for x in R1]
                R2 = [x / mpmath.fsum(R2) for x in R2]
                lhs, _ = joint_projection_lhs(ball, 0, 1, R1, R2)
                beta = 1 - 1 / alpha
                predicted = phi_inv_mp(lhs, beta)
                P = lift_pair(ball, 0, 1, R1, R2)
                flat = [x for r in P for x in r]
                got = renyi_divergence([mpmath.mpf(v.numerator) / v.denominator for v in ball.flat()], flat, alpha,
                                       dps=ctx.dps)
                worst_lift = max(worst_lift, abs(got - predicted))
                direct = _direct_min_divergence(ball, 0, 1, [float(x) for x in R1], [float(x) for x in R2], rng)
                worst_direct = max(worst_direct, float(predicted) - direct)  # > 0 would refute minimality
                n += 1
    ok = sym and worst_lift < mpmath.mpf(10) ** (-(ctx.dps - 10)) and worst_direct < 1e-7
    ev = dict(symbolic=sym, instances=n, alphas=[str(a) for a in ALPHAS], lift_max_abs_error=mpmath.nstr(worst_lift, 3),
              direct_minus_closed_form_worst=f"{-worst_direct:.3g}")
    if ok:
        return Outcome.verified(f"sympy: mass step and phi-form hold; {n} random instances: the lift attains the "
                                f"closed form to {mpmath.nstr(worst_lift, 3)} and BFGS over all other variables never "
                                "goes below it", **ev)
    if not sym or worst_lift >= mpmath.mpf(10) ** (-(ctx.dps - 10)):
        return Outcome.refuted("the closed form does not match", counterexample=ev, **ev, kind="false")
    return Outcome.inconclusive("direct optimisation found a lower divergence than the closed form", **ev)


@claim(
    id="rldp.audit.joint-projection-theorem1",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1, eq. (25)",
    statement="Setting R2 = P^_{U|s2} in the joint projection gives Theorem 1: D_alpha(P^_{U|s}||R) <= "
              "phi^{-1}(phi(B)/P^_s) = B_s for every alpha.",
    hypotheses=("P^_s > 0",),
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_thm1(ctx):
    a, B, p = sp.symbols("alpha B p", positive=True)
    b = 1 - 1 / a
    phiB = (sp.exp(b * B) - 1) / b
    Bs = sp.log(1 + b * phiB / p) / b
    Bs_paper = a / (a - 1) * sp.log((sp.exp((a - 1) * B / a) - (1 - p)) / p)
    sym = sp.simplify(sp.expand_log(Bs - Bs_paper, force=True)) == 0 or \
        all(abs(complex(sp.N((Bs - Bs_paper).subs({a: av, B: Bv, p: pv}), 30))) < 1e-25
            for av, Bv, pv in ((2, 0.3, 0.2), (sp.Rational(1, 2), 0.1, 0.7), (3, 1.2, 0.05)))
    rng = ctx.rng("audit.thm1")
    worst = mpmath.mpf(0)
    with working_precision(ctx.dps):
        for alpha in ALPHAS:
            ball = _rand_ball(rng, alpha, 3, 3)
            for s in range(3):
                beta = 1 - 1 / alpha
                ours = phi_inv_mp(phi_mp(mpmath.mpf(ball.radius.numerator) / ball.radius.denominator, beta)
                                  / (mpmath.mpf(ball.marginal(s).numerator) / ball.marginal(s).denominator), beta)
                theirs = ball.conditional_radius(s, dps=ctx.dps)
                if ours == mpmath.inf or theirs == mpmath.inf:
                    if ours != theirs:
                        worst = mpmath.inf
                    continue
                worst = max(worst, abs(ours - theirs))
    ok = sym and worst < mpmath.mpf(10) ** (-(ctx.dps - 10))
    if ok:
        return Outcome.verified("symbolic identity and numeric agreement with RenyiBall.conditional_radius",
                                max_abs_diff=mpmath.nstr(worst, 3))
    return Outcome.refuted("mismatch with Theorem 1", counterexample={"max_abs_diff": mpmath.nstr(worst, 3)}, kind="false")


@claim(
    id="rldp.audit.ball-support-dual",
    paper=PAPER,
    source="Sec. 3 eq. (8) (Rényi ball); Lagrange/Fenchel duality, derived for the audit",
    statement="For every alpha in (0, inf): sup {<v,R> : D_alpha(R^||R) <= d} = min_{mu >= max v} mu - e^{-d} "
              "M_beta(mu - v; R^) (power mean of order beta = 1 - 1/alpha), attained at R ~ R^ (mu - v)^{-1/alpha}.",
    hypotheses=("R^ with full support", "0 < d < inf"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="our derivation; checked against SLSQP over the ball",
)
def check_ball_dual(ctx):
    rng = ctx.rng("audit.ball")
    worst_gap = 0.0
    worst_primal = 0.0
    n = 0
    for alpha in ALPHAS:
        for k in range(4):
            m = 3 + k % 3
            w = np.array([rng.random() + 0.05 for _ in range(m)])
            w /= w.sum()
            v = np.array([rng.random() for _ in range(m)])
            d = 0.05 + rng.random()
            al, be = float(alpha), float(1 - 1 / alpha)
            from scipy.optimize import minimize_scalar

            def dual_at(x):
                mu = v.max() + np.exp(x)
                if be == 0:
                    M = np.exp(np.sum(w * np.log(mu - v)))
                else:
                    M = np.sum(w * (mu - v) ** be) ** (1 / be)
                return mu - np.exp(-d) * M
            grid = np.linspace(-25, 10, 141)
            j = int(np.argmin([dual_at(x) for x in grid]))
            res = minimize_scalar(dual_at, bounds=(grid[max(j - 1, 0)], grid[min(j + 1, 140)]), method="bounded",
                                  options={"xatol": 1e-12})
            dual = float(min(res.fun, dual_at(grid[j])))

            def D(R):
                R = np.clip(R, 1e-300, None)
                if al == 1:  # noqa: E501
                    return float(np.sum(w * np.log(w / R)))
                with np.errstate(all="ignore"):
                    return float(np.log(np.sum(w**al * R ** (1 - al))) / (al - 1))
            best = -np.inf
            for _ in range(3):
                x0 = np.array([rng.random() + 0.1 for _ in range(m)])
                x0 = 0.5 * x0 / x0.sum() + 0.5 * w
                r = minimize(lambda R: -(v @ R), x0, method="SLSQP", bounds=[(0, 1)] * m,
                             constraints=[{"type": "eq", "fun": lambda R: R.sum() - 1},
                                          {"type": "ineq", "fun": lambda R: d - D(R)}],
                             options={"ftol": 1e-14, "maxiter": 500})
                if D(r.x) <= d + 1e-9 and abs(r.x.sum() - 1) < 1e-9:
                    best = max(best, float(v @ r.x))
            worst_primal = max(worst_primal, best - dual)   # must be <= ~0 (weak duality)
            worst_gap = max(worst_gap, dual - best)         # small when the dual is tight
            n += 1
    ev = dict(instances=n, max_primal_minus_dual=f"{worst_primal:.3g}", max_dual_minus_primal=f"{worst_gap:.3g}")
    if worst_primal > 1e-6:
        return Outcome.refuted("a feasible point exceeds the dual bound", counterexample=ev, **ev, kind="false")
    if worst_gap > 1e-4:
        return Outcome.inconclusive("the dual bound is not attained by SLSQP", **ev)
    return Outcome.verified(f"{n} random balls over 6 orders: SLSQP maximum within {worst_gap:.2g} of the dual "
                            "(grid-minimised), never above it", **ev)
