"""Corollary 11 (cross-channel SDPI bound) and the RLDP amplification bound of Sec. VI, eqs. (49)-(57)."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import flint
import mpmath
import numpy as np
from scipy.optimize import minimize

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import exact, to_mpf, working_precision
from rldp_verify.topics.fdiv import (
    R_alpha,
    amplification_bound,
    channel_outputs,
    eta_tv,
    f_alpha_divergence,
    g_alpha_inverse,
    gamma_extremes,
    push,
    rldp_level,
)

from ._common import INT_ALPHAS, PAPER, fstr, rand_channel, rand_dist, to_fraction_list

ALPHAS = tuple(str(a) for a in INT_ALPHAS[:4]) + ("1.1", "1.5", "3.7", "10.3")


def cor11_sides(W, P_set, P, Q, a, dps):
    """(lhs, rhs) of eqs. (44)-(46) as mpf: D_f(W o P || W o Q) and eta_TV(W, P_set) R_alpha(Gamma(Y)) g^-1(D_f(P||Q))."""
    gmin, gmax = gamma_extremes(channel_outputs(W, P_set))
    lhs = to_mpf(f_alpha_divergence(push(W, P), push(W, Q), a, dps=dps))
    R = R_alpha(gmax, gmin, a, dps=dps)
    if mpmath.inf == R:
        return lhs, mpmath.inf
    eta = to_mpf(eta_tv(W, P_set))
    rhs = eta * to_mpf(R) * g_alpha_inverse(f_alpha_divergence(P, Q, a, dps=dps), a, dps=dps)
    return lhs, rhs


def _search(W, a, rng_np, starts=4):
    """Maximise lhs/rhs of Corollary 11 over P_set = {P, Q} (full-support P, Q) with Nelder-Mead (floats),
    then re-evaluate the maximiser at high precision."""
    nx = len(W)
    Wf = np.array([[float(v) for v in r] for r in W])

    def parts(z):
        e1, e2 = np.exp(z[:nx] - z[:nx].max()), np.exp(z[nx:] - z[nx:].max())
        return e1 / e1.sum(), e2 / e2.sum()

    def obj(z):
        p, q = parts(z)
        with np.errstate(all="ignore"), working_precision(15):
            py, qy = p @ Wf, q @ Wf
            lhs = float(np.sum(py**a * qy ** (1 - a)) - 1)
            r = np.concatenate([py / qy, qy / py])
            M, m = max(r.max(), 1.0), min(r.min(), 1.0)
            R = ((M**a - 1) / (M - 1) if M > 1 + 1e-12 else a) - ((1 - m**a) / (1 - m) if m < 1 - 1e-12 else a)
            tv_in, tv_out = 0.5 * np.abs(p - q).sum(), 0.5 * np.abs(py - qy).sum()
            eta = tv_out / tv_in if tv_in > 0 else 0
            s = float(np.sum(p**a * q ** (1 - a)) - 1)
            ginv = float(g_alpha_inverse(mpmath.mpf(max(s, 0)), mpmath.mpf(a)))
            rhs = eta * R * ginv
        return -(lhs / rhs) if rhs > 1e-300 else 0.0

    best = None
    for _ in range(starts):
        res = minimize(obj, rng_np.normal(size=2 * nx), method="Nelder-Mead", options={"maxiter": 800})
        if best is None or res.fun < best.fun:
            best = res
    p, q = parts(best.x)
    return -best.fun, to_fraction_list(p), to_fraction_list(q)


def _cor11(ctx, n_channels, n_search, starts):
    rng = ctx.rng("cor11")
    n = ties = 0
    best_ratio = mpmath.mpf(0)
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 15))
        for k in range(n_channels):
            W = rand_channel(rng, rng.randint(2, 5), rng.randint(2, 5))
            P_set = [rand_dist(rng, len(W)) for _ in range(rng.randint(2, 4))]
            for s in ALPHAS[k % 2::2]:
                a = exact(s)
                for P, Q in permutations(P_set, 2):
                    lhs, rhs = cor11_sides(W, P_set, P, Q, a, ctx.dps)
                    if rhs == mpmath.inf:
                        continue
                    if lhs > rhs * (1 + tol):
                        return Outcome.refuted("Corollary 11 fails", counterexample={"alpha": s, "W": W, "set": P_set,
                                               "P_X": P, "Q_X": Q}, lhs=fstr(lhs), rhs=fstr(rhs), kind="false")
                    ties += lhs > rhs * (1 - tol)
                    if rhs > 0:
                        best_ratio = max(best_ratio, lhs / rhs)
                    n += 1
        # adversarial: maximise lhs/rhs over P_set = {P, Q}
        rng_np = ctx.np_rng("cor11.search")
        searched = []
        for k in range(n_search):
            W = rand_channel(rng, 3, 3)
            a = (5, 2, 3, 1.5)[k % 4]
            r, P, Q = _search(W, a, rng_np, starts=starts)
            lhs, rhs = cor11_sides(W, [P, Q], P, Q, exact(str(a)), ctx.dps)
            if rhs != mpmath.inf and lhs > rhs * (1 + tol):
                return Outcome.refuted("Corollary 11 fails at a searched point",
                                       counterexample={"alpha": a, "W": W, "P_X": P, "Q_X": Q}, lhs=fstr(lhs), rhs=fstr(rhs), kind="false")
            searched.append(a)
    # the float maximiser only searches for a violation (re-checked above at high precision); its values depend
    # on the machine's floating point and are not reported (issue 9 item 4)
    return Outcome.verified(f"{n} (channel, set, pair, alpha) cases hold; largest lhs/rhs = {fstr(best_ratio, 6)}; "
                            f"{len(searched)} Nelder-Mead maximisations of lhs/rhs found no violation (each maximiser "
                            "re-checked at high precision; the chain of three valid inequalities can be tight at the "
                            "boundary of the simplex)",
                            cases=n, near_ties=ties, max_ratio=fstr(best_ratio, 6), searches=len(searched))


@claim(
    id="falpha.cor11.cross-channel",
    paper=PAPER,
    source="Sec. V, Corollary 11, eqs. (42)-(46)",
    statement="For P_X, Q_X in P and alpha > 1: D_f_alpha(P_Y||Q_Y) <= eta_TV(P_{Y|X}, P) R_alpha(Gamma_max(Y), Gamma_min(Y)) "
              "g_alpha^{-1}(D_f_alpha(P_X||Q_X)), with Gamma(Y) of eqs. (42)-(43) and g_alpha^{-1} of eq. (41).",
    hypotheses=("alpha > 1", "finite alphabets", "P a finite set of full-support input distributions",
                "eta_TV(P_{Y|X}, P) = max over pairs of P of TV(out)/TV(in)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_cor11(ctx):
    return _cor11(ctx, 12, 1, 2)


@claim(
    id="falpha.cor11.cross-channel-exhaustive",
    paper=PAPER,
    source="Sec. V, Corollary 11, eqs. (42)-(46) (exhaustive)",
    statement="Corollary 11 on 150 random channels and sets, with 8 adversarial searches.",
    hypotheses=("alpha > 1", "finite alphabets", "P a finite set of full-support input distributions"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    slow=True,
)
def check_cor11_slow(ctx):
    return _cor11(ctx, 150, 8, 4)


def _random_mechanism(rng, nw, nx):
    return [rand_dist(rng, nx, scale=30) for _ in range(nw)]  # strictly positive (finite RLDP)


@claim(
    id="falpha.sec6.phi-bound",
    paper=PAPER,
    source="Sec. VI, eqs. (49)-(57)",
    statement="If P_{X|W} satisfies (eps, alpha)-RLDP, then eps* = RLDP^(alpha)(P_{Y|W}) <= phi(eps_f, alpha) = "
              "1/(alpha-1) log(eta_TV R_alpha(Gamma_max(Y), Gamma_min(Y)) g_alpha^{-1}(eps_f) + 1), with Gamma(Y) of eqs. (56)-(57).",
    hypotheses=("alpha > 1", "P_{X|W} strictly positive", "eta_TV = eta_TV(P_{Y|X}, whole simplex) (Dobrushin coefficient)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_phi(ctx):
    rng = ctx.rng("sec6")
    n = 0
    worst = None
    for k in range(40):
        M = _random_mechanism(rng, rng.randint(2, 4), rng.randint(2, 4))
        W = rand_channel(rng, len(M[0]), rng.randint(2, 4))
        for s in ALPHAS[k % 3::3]:
            a = exact(s)
            eps_star = rldp_level([push(W, row) for row in M], a, dps=ctx.dps)
            res = amplification_bound(M, W, a, dps=ctx.dps)
            phi = res["phi"]
            with working_precision(ctx.dps):
                e = flint.arb(mpmath.nstr(eps_star, ctx.dps)) + flint.arb(0, flint.arb(10) ** (-(ctx.dps - 10)))
            if phi < e:
                return Outcome.refuted("eps* exceeds phi", counterexample={"alpha": s, "mechanism": M, "channel": W},
                                       eps_star=fstr(eps_star), phi=str(phi), kind="false")
            if not phi > e:
                return Outcome.inconclusive("eps* and phi not separated", alpha=s, eps_star=fstr(eps_star), phi=str(phi))
            gap = float((phi - e).mid())
            if worst is None or gap < worst[0]:
                worst = (gap, s)
            n += 1
    return Outcome.verified(f"eps* < phi certified (arb) on {n} random (mechanism, channel, alpha) cases",
                            cases=n, smallest_gap={"phi_minus_eps_star": worst[0], "alpha": worst[1]})


@claim(
    id="falpha.sec6.footnote1-finite-rldp",
    paper=PAPER,
    source="Sec. VI, footnote 1",
    statement="The class of discrete mechanisms with a finite RLDP guarantee for any alpha equals the class with a finite LDP "
              "guarantee; it only contains mechanisms whose matrix is strictly positive.",
    hypotheses=("finite alphabets",),
    method=Method.EXACT,
    reading="'for any alpha' read as: for any fixed order alpha > 0 (the paper defines D_alpha for all alpha > 0). For "
            "alpha > 1 the equivalence holds (finite D_alpha <=> mutual absolute continuity of all rows <=> finite LDP), "
            "up to output symbols that no input produces.",
)
def check_footnote(ctx):

    M = [[Fraction(1), Fraction(0)], [Fraction(1, 2), Fraction(1, 2)]]
    with working_precision(ctx.dps):
        d_half = rldp_level(M, Fraction(1, 2), dps=ctx.dps)   # finite
        d_two = rldp_level(M, 2, dps=ctx.dps)                 # infinite
        ldp_inf = any(a == 0 < b or b == 0 < a for a, b in zip(M[0], M[1], strict=True))
        # alpha > 1: a zero column used by no input keeps every guarantee finite
        M2 = [[Fraction(1, 2), Fraction(1, 2), Fraction(0)], [Fraction(1, 3), Fraction(2, 3), Fraction(0)]]
        d2 = rldp_level(M2, 2, dps=ctx.dps)
    if d_half < mpmath.inf and ldp_inf:
        return Outcome.refuted(
            "missing hypotheses alpha > 1 (the range of Sec. VI's results) and no unused output symbol: "
            "for alpha < 1 the Renyi divergence is finite whenever supports intersect: the mechanism [[1, 0], [1/2, 1/2]] has "
            f"RLDP^(1/2) = {fstr(d_half, 8)} but no finite LDP guarantee (and RLDP^(2) = inf); for alpha > 1 the equivalence holds, "
            "but 'strictly positive' must allow all-zero columns (e.g. [[1/2, 1/2, 0], [1/3, 2/3, 0]] has finite RLDP and LDP)",
            counterexample={"mechanism": [["1", "0"], ["1/2", "1/2"]], "alpha": "1/2"},
            rldp_alpha_half=fstr(d_half), rldp_alpha_2=str(d_two), ldp="inf", zero_column_example_rldp2=fstr(d2),
            readings={"literal": "any order alpha > 0 (D_alpha is defined for all alpha > 0): false for alpha < 1 "
                                 "([[1, 0], [1/2, 1/2]] has RLDP^(1/2) finite, no finite LDP guarantee)",
                      "charitable": "alpha > 1, the range of Sec. VI's results (Theorem 8, Corollary 11), with output "
                                    "symbols that no input produces left out: the equivalence holds (finite D_alpha <=> "
                                    f"mutually absolutely continuous rows <=> finite LDP; RLDP^(2) = {d_two} here)"},
            kind="missing-hypothesis", **built(_footnote_certs, M, M2))  # issue 23
    return Outcome.verified("no counterexample", rldp_alpha_half=fstr(d_half))


def _footnote_certs(M, M2) -> list[dict]:
    """The counterexample re-evaluated in arb from the definition of D_alpha: both divergences between the rows
    of M at alpha = 1/2 are finite (below 1; the zero cell of a row contributes nothing for alpha < 1), while the
    zero in M[0] against 1/2 in M[1] makes its LDP level infinite (visible in the rows); M2's RLDP^(2) is finite
    (below 1; its all-zero column contributes nothing)."""
    from rldp_verify.certificates.value import value_certificate

    from ._certs import renyi_expr

    half = Fraction(1, 2)
    tag = f"M = {[[str(x) for x in r] for r in M]}"
    out = [value_certificate(f"D_1/2(M_{i}||M_{j}) < 1, {tag}", renyi_expr(M[i], M[j], half), lower=0, upper=1)
           for i, j in ((0, 1), (1, 0))]
    tag2 = f"M2 = {[[str(x) for x in r] for r in M2]}"
    out += [value_certificate(f"D_2(M2_{i}||M2_{j}) < 1, {tag2}", renyi_expr(M2[i], M2[j], 2), lower=0, upper=1)
            for i, j in ((0, 1), (1, 0))]
    return out
