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

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import working_precision
from rldp_verify.rldp.audit.dual import phi_inv_mp, phi_mp
from rldp_verify.rldp.projection import joint_projection_sides, lift_pair
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
    value = sum(x * p ** (1 - a) for x, p in zip(A, P, strict=True))
    ok_value = sp.simplify(sp.powsimp(sp.expand_power_base(value - T**a, force=True), force=True)) == 0
    # stationarity: d/dP_s (A_s P_s^(1-a)) = (1-a) A_s P_s^(-a) is the same for every s at P
    grads = [sp.simplify(sp.powsimp(sp.expand_power_base((1 - a) * x * p ** (-a) / ((1 - a) * T**a), force=True),
                                    force=True)) for x, p in zip(A, P, strict=True)]
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


JOINT_COVERS = (
    "the derivation's identities for every alpha != 1 (module docstring; |S| = 3 where a sum over s appears): the mass "
    "step sum_s A_s P_s^(1-a) = T^a at P_s = A_s^(1/a)/T, the power-rule gradients (1-a) A_s P_s^(-a) = (1-a) T^a of "
    "every s (the differentiation itself is not certified), the phi-form of the condition, and the lift: "
    "P^_s^a P_s^(1-a) S_s = P^_s e^(beta D_s) Z^(a-1) with P_s = P^_s e^(beta D_s)/Z, S_s = e^((a-1) D_s), and "
    "log(sum_s P^_s e^(beta D_s) Z^(a-1))/(a-1) = phi^-1(sum_s P^_s phi(D_s)), all where the logs' bases are > 0; "
    "not the reduction to the masses by (25) (certified in rldp.thm1.factorisation) and S_s >= 1 (a > 1) / <= 1, not "
    "that the stationary point is the optimum (Hoelder), not alpha = 1 (the chain rule), not the 18 sampled instances "
    "(an equality of logarithms: arb cannot decide it) nor the floating-point BFGS search (no certificate of a minimum)")


def _sum(terms):
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


def joint_projection_certificates(variant: str | None = None) -> list[dict]:
    """The ``symbolic-identity`` certificates (log and exp atoms) of the derivation in the module docstring, both
    sides written from its formulas (a real power x^c = exp(c log x); beta = 1 - 1/alpha): the mass step and its
    gradients (|S| = 3), the phi-form, and the lift's two steps (:data:`JOINT_COVERS`).  ``variant`` (a wrong one,
    for the tests): "sign" (phi^-1's 1 + beta y read 1 - beta y) or "factor2" (the mass step's value read 2 T^a)."""
    from rldp_verify.certificates.identity import Tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    name = "rldp.audit.joint-projection: "
    a = Tree.var("alpha")
    b = 1 - 1 / a
    # the mass step: A_s^(1/a) = e^(log(A_s)/a) =: R_s, T = sum R_s, T^a =: U
    M = Atoms()
    for s in (1, 2, 3):
        M.exp(f"A{s}^(1/alpha)", M.log(f"log A{s}", Tree.var(f"A{s}")) / a)
    M.log("log T", _sum([Tree.var(f"A{s}^(1/alpha)") for s in (1, 2, 3)]))
    M.exp("T^alpha", a * Tree.var("log T"))
    roots = [M.power(Tree.var(f"A{s}"), 1 / a, {f"log A{s}": 1}, {f"A{s}^(1/alpha)": 1}) for s in (1, 2, 3)]
    T = _sum(roots)
    Ta = M.power(T, a, {"log T": 1}, {"T^alpha": 1})
    P = [r / T for r in roots]
    logs = [{f"A{s}^(1/alpha)": 1, "log T": -1} for s in (1, 2, 3)]
    value = _sum([Tree.var(f"A{s}") * M.power(P[s - 1], 1 - a, logs[s - 1], {
        f"A{s}^(1/alpha)": 1, f"log A{s}": -1, "log T": -1, "T^alpha": 1}) for s in (1, 2, 3)])
    docs = [log_identity_certificate(name + "mass step sum_s A_s P_s^(1-a) = T^a", value,
                                     2 * Ta if variant == "factor2" else Ta, M,
                                     words="P_s = A_s^(1/alpha)/T, T = sum_s A_s^(1/alpha), |S| = 3")]
    docs += [log_identity_certificate(
        name + f"gradient (1-a) A_s P_s^(-a) = (1-a) T^a, s = {s}",
        (1 - a) * Tree.var(f"A{s}") * M.power(P[s - 1], -a, logs[s - 1], {f"log A{s}": -1, "T^alpha": 1}),
        (1 - a) * Ta, M, words="the power rule's d/dP_s (A_s P_s^(1-a)) at P_s = A_s^(1/alpha)/T (not differentiated)")
        for s in (1, 2, 3)]
    docs.append(_phi_form(name, a))
    docs += _lift(name, a, b, variant)
    return docs


def _phi_form(name: str, a) -> dict:
    """p1 e^(beta D1) + p2 e^(beta D2) + (1 - p1 - p2) - e^(beta B) = beta (p1 phi(D1) + p2 phi(D2) - phi(B))."""
    from rldp_verify.certificates.identity import Tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    b = Tree.var("beta")
    A = Atoms()
    e = {d: A.exp(f"e^(beta {d})", b * Tree.var(d)) for d in ("D1", "D2", "B")}

    def phi(d):
        return (A.exp_of(b * Tree.var(d), {f"e^(beta {d})": 1}) - 1) / b

    p1, p2 = Tree.var("p1"), Tree.var("p2")
    lhs = p1 * e["D1"] + p2 * e["D2"] + (1 - p1 - p2) - e["B"]
    return log_identity_certificate(name + "phi-form of D_alpha(P^||P) <= B", lhs,
                                    b * (p1 * phi("D1") + p2 * phi("D2") - phi("B")), A,
                                    words="phi(d) = (e^(beta d) - 1)/beta; the masses p1, p2 and 1 - p1 - p2")


def _lift(name: str, a, b, variant) -> list[dict]:
    """The lift's D_alpha in two steps (one term; the sum over |S| = 3)."""
    from rldp_verify.certificates.identity import Tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    ph, D, Z = Tree.var("Phat_s"), Tree.var("D_s"), Tree.var("Z")
    A = Atoms()
    A.exp("Phat_s^alpha", a * A.log("log Phat_s", ph))
    A.exp("Z^alpha", a * A.log("log Z", Z))
    A.exp("e^(beta D_s)", b * D)
    A.exp("S_s", (a - 1) * D)
    ebd = A.exp_of(b * D, {"e^(beta D_s)": 1})
    P1a = A.power(ph * ebd / Z, 1 - a, {"log Phat_s": 1, "e^(beta D_s)": 1, "log Z": -1},
                  {"log Phat_s": 1, "Phat_s^alpha": -1, "e^(beta D_s)": 1, "S_s": -1, "log Z": -1, "Z^alpha": 1})
    term = log_identity_certificate(
        name + "lift term P^_s^a P_s^(1-a) S_s = P^_s e^(beta D_s) Z^(a-1)",
        A.power(ph, a, {"log Phat_s": 1}, {"Phat_s^alpha": 1}) * P1a * A.exp_of((a - 1) * D, {"S_s": 1}),
        ph * ebd * A.power(Z, a - 1, {"log Z": 1}, {"Z^alpha": 1, "log Z": -1}), A,
        words="P_s = P^_s e^(beta D_s)/Z (the lift's masses), S_s = e^((alpha-1) D_s) (D_s's definition), Z > 0")
    ph3 = [Tree.var("Phat_s1"), Tree.var("Phat_s2")]
    ph3.append(1 - ph3[0] - ph3[1])
    B = Atoms()
    for k in (1, 2, 3):
        B.exp(f"e^(beta D{k})", b * Tree.var(f"D{k}"))
    B.log("log Z", _sum([ph3[k - 1] * Tree.var(f"e^(beta D{k})") for k in (1, 2, 3)]))
    B.exp("Z^alpha", a * Tree.var("log Z"))
    ebd3 = [B.exp_of(b * Tree.var(f"D{k}"), {f"e^(beta D{k})": 1}) for k in (1, 2, 3)]
    Za1 = B.power(_sum([p * x for p, x in zip(ph3, ebd3, strict=True)]), a - 1, {"log Z": 1},
                  {"Z^alpha": 1, "log Z": -1})
    lhs = B.log_of(_sum([p * x * Za1 for p, x in zip(ph3, ebd3, strict=True)]), {"Z^alpha": 1}) / (a - 1)
    y = _sum([p * (x - 1) / b for p, x in zip(ph3, ebd3, strict=True)])
    rhs = B.log_of(1 - b * y if variant == "sign" else 1 + b * y, {"log Z": 1}) / b
    total = log_identity_certificate(
        name + "lift log(sum_s P^_s e^(beta D_s) Z^(a-1))/(a-1) = phi^-1(sum_s P^_s phi(D_s))", lhs, rhs, B,
        words="Z = sum_s P^_s e^(beta D_s), |S| = 3 with P^_s3 = 1 - P^_s1 - P^_s2; phi^-1(y) = log(1 + beta y)/beta")
    return [term, total]


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
                lhs, _ = joint_projection_sides(ball, 0, 1, R1, R2)
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
    why_none = {**built(joint_projection_certificates), "certificate_covers": JOINT_COVERS}
    if ok:
        return Outcome.verified(f"sympy: mass step and phi-form hold; {n} random instances: the lift attains the "
                                f"closed form to {mpmath.nstr(worst_lift, 3)} and BFGS over all other variables never "
                                "goes below it", **ev, **why_none)
    if not sym or worst_lift >= mpmath.mpf(10) ** (-(ctx.dps - 10)):
        return Outcome.refuted("the closed form does not match", counterexample=ev, **ev, kind="false")
    return Outcome.inconclusive("direct optimisation found a lower divergence than the closed form", **ev)


@claim(
    id="rldp.audit.joint-projection-theorem1",
    paper=PAPER,
    source="Sec. 4.1, Theorem 1, eq. (23)",
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
        from rldp_verify.certificates.identity import identity_evidence

        return Outcome.verified("symbolic identity and numeric agreement with RenyiBall.conditional_radius",
                                max_abs_diff=mpmath.nstr(worst, 3), **identity_evidence(
                                    "rldp.audit.joint-projection-theorem1", {"phi^-1(phi(B)/P^_s) = (23)": (Bs, Bs_paper)},
                                    uncovered="the agreement with RenyiBall.conditional_radius on random balls (high precision)"))
    return Outcome.refuted("mismatch with Theorem 1", counterexample={"max_abs_diff": mpmath.nstr(worst, 3)}, kind="false")


def _ball_dual_certificates(cases) -> list[dict]:
    """Issue 23: per sampled ball, R in the ball (arb), and 0 <= dual(mu) - v.R <= 1e-15
    (:func:`rldp_verify.certificates.instances_rldp.ball_dual_certificates`)."""
    from rldp_verify.certificates import instances_rldp as inst

    return inst.ball_dual_certificates("rldp.audit.ball-support-dual", cases)


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
    """Decided at 40 digits without a float optimiser: upper = the dual at mu* (golden section in mpmath; any mu
    is an upper bound by the derivation's weak duality), lower = v.R for the stated maximiser
    R ~ R^ (mu* - v)^{-1/alpha} scaled into the ball (checked at 40 digits). SLSQP points, re-evaluated at 40
    digits and feasible there, may refute weak duality; otherwise they are only counted."""
    rng = ctx.rng("audit.ball")
    worst_gap, n = mpmath.mpf(0), 0
    cases = []   # (alpha, R^, v, d, mu, R) at 40 digits, for the certificates (issue 23)
    for alpha in ALPHAS:
        for k in range(4):
            m = 3 + k % 3
            w = np.array([rng.random() + 0.05 for _ in range(m)])
            w /= w.sum()
            v = np.array([rng.random() for _ in range(m)])
            d = 0.05 + rng.random()
            al = float(alpha)

            def D(R):
                R = np.clip(R, 1e-300, None)
                if al == 1:
                    return float(np.sum(w * np.log(w / R)))
                with np.errstate(all="ignore"):
                    return float(np.log(np.sum(w**al * R ** (1 - al))) / (al - 1))
            slsqp = []
            for _ in range(3):
                x0 = np.array([rng.random() + 0.1 for _ in range(m)])
                x0 = 0.5 * x0 / x0.sum() + 0.5 * w
                r = minimize(lambda R: -(v @ R), x0, method="SLSQP", bounds=[(0, 1)] * m,
                             constraints=[{"type": "eq", "fun": lambda R: R.sum() - 1},
                                          {"type": "ineq", "fun": lambda R: d - D(R)}],
                             options={"ftol": 1e-14, "maxiter": 500})
                slsqp.append(r.x)
            with mpmath.workdps(40):
                wm, vm, dm = [mpmath.mpf(float(t)) for t in w], [mpmath.mpf(float(t)) for t in v], mpmath.mpf(d)
                wm = [t / mpmath.fsum(wm) for t in wm]
                a = mpmath.mpf(alpha.numerator) / alpha.denominator
                be = 1 - 1 / a
                vmax = max(vm)

                def Dm(R):
                    if a == 1:
                        return mpmath.fsum(x * mpmath.log(x / y) for x, y in zip(wm, R, strict=True))
                    return mpmath.log(mpmath.fsum(x**a * y ** (1 - a) for x, y in zip(wm, R, strict=True))) / (a - 1)

                def dual_at(t):   # mu = max v + e^t
                    mu = vmax + mpmath.exp(t)
                    if be == 0:
                        M = mpmath.exp(mpmath.fsum(x * mpmath.log(mu - y) for x, y in zip(wm, vm, strict=True)))
                    else:
                        M = mpmath.fsum(x * (mu - y) ** be for x, y in zip(wm, vm, strict=True)) ** (1 / be)
                    return mu - mpmath.exp(-dm) * M
                lo, hi = mpmath.mpf(-60), mpmath.mpf(12)
                g = (mpmath.sqrt(5) - 1) / 2
                for _ in range(200):
                    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
                    if dual_at(x1) < dual_at(x2):
                        hi = x2
                    else:
                        lo = x1
                tstar = (lo + hi) / 2
                upper = dual_at(tstar)
                mu = vmax + mpmath.exp(tstar)
                R = [x * (mu - y) ** (-1 / a) for x, y in zip(wm, vm, strict=True)]
                R = [t / mpmath.fsum(R) for t in R]
                th = mpmath.mpf(10) ** -25      # nudged towards R^ (the ball is convex)
                R = [(1 - th) * r + th * x for r, x in zip(R, wm, strict=True)]
                lower = mpmath.fsum(x * y for x, y in zip(vm, R, strict=True)) if Dm(R) <= dm else -mpmath.inf
                gap = upper - lower
                cases.append((alpha, wm, vm, dm, mu, R))
                for x in slsqp:
                    Rs = [mpmath.mpf(float(t)) for t in np.clip(x, 1e-300, None)]
                    Rs = [t / mpmath.fsum(Rs) for t in Rs]
                    if Dm(Rs) <= dm and mpmath.fsum(p * q for p, q in zip(vm, Rs, strict=True)) > upper + mpmath.mpf(10) ** -25:
                        return Outcome.refuted("a point of the ball (SLSQP, re-checked at 40 digits) exceeds the dual "
                                               "bound", counterexample={"alpha": str(alpha), "R^": list(map(float, w)),
                                                                        "v": list(map(float, v)), "d": d,
                                                                        "R": [mpmath.nstr(t, 20) for t in Rs],
                                                                        "dual": mpmath.nstr(upper, 20)}, kind="false")
            worst_gap = max(worst_gap, abs(gap))
            n += 1
            if not gap < mpmath.mpf(10) ** -15:
                return Outcome.refuted("the stated maximiser R ~ R^ (mu* - v)^(-1/alpha) does not attain the dual "
                                       f"value (gap {mpmath.nstr(gap, 3)})",
                                       counterexample={"alpha": str(alpha), "R^": list(map(float, w)),
                                                       "v": list(map(float, v)), "d": d}, kind="false")
    ev = dict(instances=n, max_dual_minus_attained=mpmath.nstr(worst_gap, 3),
              certificate_covers=f"all {len(cases)} sampled balls (R^, v, d as the 40-digit binary rationals the check "
                                 "uses): the stated maximiser R lies in the ball (d - D_alpha(R^||R) >= 0) and the dual "
                                 "at the check's mu exceeds v.R by at least 0 and at most 1e-15, each re-derived by the "
                                 "checker in arb from the raw numbers; not the duality itself (weak duality is the "
                                 "claim's derivation, which the checker does not re-derive), nor the statement for "
                                 "every ball",
              **built(_ball_dual_certificates, cases))
    return Outcome.verified(f"{n} random balls over {len(ALPHAS)} orders: the dual at its minimiser (40 digits) is "
                            "attained by the stated maximiser R ~ R^ (mu - v)^(-1/alpha) within 1e-15; no SLSQP point "
                            "(re-checked at 40 digits) exceeds it", **ev)

