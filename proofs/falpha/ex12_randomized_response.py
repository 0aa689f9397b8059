"""Example 12: randomized response post-processed by the sparse channels P^(N) (eq. (59)) and Q^(N) (eq. (60));
eqs. (53)-(62) and the statements around Figure 2."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import flint
import mpmath
import sympy as sp

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.taylor import large_n_certificates
from rldp_verify.certificates.value import expr, value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import exact, to_mpf, working_precision
from rldp_verify.topics.fdiv import R_alpha, f_alpha_divergence, g_alpha_inverse, gamma_extremes, rldp_level

from ._common import PAPER, fstr

READING_P = ("Eq. (59) 'i = j+1 mod N' is read as the congruence i = j+1 (mod N) on labels 1..N, so row x_i puts 1/2 on y_i "
             "and on y_{i-1} (y_N for i = 1); read literally with the residue 0..N-1, row x_N would sum to 1/2.")
# the four panels of Figure 2: (N, e^eps, channel)
SETTINGS = ((5, 2, "P"), (5, 6, "P"), (20, 10, "P"), (100, 10, "Q"))
ALPHA_GRID = ("1.1", "1.5", "2", "3", "5", "10", "20", "50", "100")


def rr(N: int, E) -> list[list]:
    """Randomized response, eq. (58), with E = e^eps (exact when E is rational)."""
    D = N + E - 1
    return [[E / D if x == w else 1 / D for x in range(N)] for w in range(N)]


def channel_P(N: int) -> list[list[Fraction]]:
    h = Fraction(1, 2)
    return [[h if (j == i or (j + 1) % N == i) else Fraction(0) for j in range(N)] for i in range(N)]


def channel_Q(N: int) -> list[list[Fraction]]:
    if N % 2:
        raise ValueError("Q^(N) needs even N")
    h = N // 2
    return [[Fraction(2, N) if (i < h) == (j < h) else Fraction(0) for j in range(N)] for i in range(N)]


def _ratio_identities(rows, N: int) -> dict:
    """{label: (a/b, sympy's simplified a/b)} for the output-likelihood ratios of ``rows``, for certificates: each ratio
    equals the value in the symbolic ratio set that sympy reduced it to."""
    out = {}
    for i, r1 in enumerate(rows):
        for j, r2 in enumerate(rows):
            for y, (a, b) in enumerate(zip(r1, r2, strict=True)):
                if i < j:
                    out[f"N = {N}: row {i} / row {j} at y = {y}"] = (a / b, sp.simplify(a / b))
    return out


def cascade_rows(W, N: int, E) -> list[list]:
    """Rows of W o RR: RR_w = (1 + (E-1) e_w)/D, so (W o RR)_w = (column sums of W + (E-1) W_w)/D (exact)."""
    D = N + E - 1
    col = [sum(W[x][y] for x in range(N)) for y in range(len(W[0]))]
    return [[(col[y] + (E - 1) * W[w][y]) / D for y in range(len(W[0]))] for w in range(N)]


_GAMMA_CACHE: dict = {}


def gammas_Y(W, N, E):
    """((Gamma_min, Gamma_max), distinct output rows) of eqs. (56)-(57) for W o RR^(N) (memoised per (W, N, E))."""
    key = (tuple(map(tuple, W)), N, E)
    if key not in _GAMMA_CACHE:
        _GAMMA_CACHE[key] = _gammas_Y(W, N, E)
    return _GAMMA_CACHE[key]


def _gammas_Y(W, N, E):
    rows = []
    for r in cascade_rows(W, N, E):
        if r not in rows:
            rows.append(r)
    return gamma_extremes(rows), rows


def phi_eta1(N, E, W, a, dps):
    """eq. (53)-(55) with eta_TV = 1 (as in the paper); eps_f = D_f(RR_0 || RR_1) (all pairs w != w' of RR are equal by
    its permutation symmetry). Returns (phi as arb ball, eps_f, Gamma_min, Gamma_max)."""
    M = rr(N, Fraction(E))
    eps_f = f_alpha_divergence(M[0], M[1], a, dps=dps + 20)
    (gmin, gmax), _ = gammas_Y(W, N, Fraction(E))
    R = R_alpha(gmax, gmin, a, dps=dps + 20)
    with working_precision(dps + 20):
        ginv = g_alpha_inverse(eps_f, a, dps=dps + 20)
        inner = to_mpf(R) * ginv + 1
        val = mpmath.log(inner) / (to_mpf(a) - 1)
    ball = flint.arb(mpmath.nstr(val, dps + 15)) + flint.arb(0, flint.arb(10) ** (-(dps + 5)))
    return ball, val, eps_f, gmin, gmax


@claim(
    id="falpha.ex12.gamma-P",
    paper=PAPER,
    source="Sec. VI, Example 12, eq. (61)",
    statement="For randomized response (58) followed by P^(N) (59): Gamma_max(Y) = Gamma_min(Y)^-1 = (e^eps + 1)/2, independent of N.",
    hypotheses=("N >= 3 (unstated: for N = 2 the output is uniform and Gamma_max = 1)", "eps > 0"),
    method=(Method.SYMBOLIC, Method.EXACT),
    reading=READING_P,
)
def check_gamma_P(ctx):
    n = 0
    for N in range(3, 13):
        for E in (Fraction(101, 100), Fraction(2), Fraction(6), Fraction(10), Fraction(10**6)):
            (gmin, gmax), _ = gammas_Y(channel_P(N), N, E)
            if not (gmax == (E + 1) / 2 and gmin == 1 / gmax):
                return Outcome.refuted("eq. (61) fails", counterexample={"N": N, "e^eps": E},
                                       gamma_max=gmax, gamma_min=gmin, formula=(E + 1) / 2, kind="false")
            n += 1
    # symbolic in E = e^eps: the set of output ratios is {1, (E+1)/2, 2/(E+1)}
    E = sp.symbols("E", positive=True)
    sym_ok = True
    identities = {}
    for N in (3, 4):
        rows = cascade_rows([[sp.Rational(v) for v in r] for r in channel_P(N)], N, E)
        ratios = {sp.simplify(a / b) for r1 in rows for r2 in rows for a, b in zip(r1, r2, strict=True)}
        sym_ok &= ratios == {sp.Integer(1), (E + 1) / 2, 2 / (E + 1)}
        identities.update(_ratio_identities(rows, N))
    (g2min, g2max), _ = gammas_Y(channel_P(2), 2, Fraction(10))
    if not sym_ok:
        return Outcome.refuted("symbolic ratio set differs", counterexample={"N": "3 or 4"}, kind="false")
    from rldp_verify.certificates.identity import identity_evidence

    return Outcome.verified(f"exact at {n} (N, e^eps) points, N = 3..12; symbolic ratio set {{1, (E+1)/2, 2/(E+1)}} for N = 3, 4",
                            cases=n, N2_exception={"N": 2, "e^eps": 10, "gamma_max": g2max, "gamma_min": g2min},
                            **identity_evidence("falpha.ex12.gamma-P", identities,
                                                uncovered=f"the exact checks at {n} (N, e^eps) points (exact rationals)"))


@claim(
    id="falpha.ex12.gamma-Q",
    paper=PAPER,
    source="Sec. VI, Example 12, eq. (62)",
    statement="For randomized response (58) followed by Q^(N) (60), N even: Gamma_max(Y) = Gamma_min(Y)^-1 = (N + 2e^eps - 2)/N.",
    hypotheses=("N even", "eps > 0"),
    method=(Method.SYMBOLIC, Method.EXACT),
)
def check_gamma_Q(ctx):
    n = 0
    for N in range(2, 25, 2):
        for E in (Fraction(101, 100), Fraction(2), Fraction(10), Fraction(10**6)):
            (gmin, gmax), _ = gammas_Y(channel_Q(N), N, E)
            f = (N + 2 * E - 2) / N
            if not (gmax == f and gmin == 1 / f):
                return Outcome.refuted("eq. (62) fails", counterexample={"N": N, "e^eps": E},
                                       gamma_max=gmax, gamma_min=gmin, formula=f, kind="false")
            n += 1
    E = sp.symbols("E", positive=True)
    sym_ok = True
    identities = {}
    for N in (2, 4):
        rows = cascade_rows([[sp.Rational(v) for v in r] for r in channel_Q(N)], N, E)
        ratios = {sp.simplify(a / b) for r1 in rows for r2 in rows for a, b in zip(r1, r2, strict=True)}
        identities.update(_ratio_identities(rows, N))
        f = (N + 2 * E - 2) / N
        sym_ok &= {sp.simplify(r - x) == 0 for r in ratios for x in (1, f, 1 / f)} >= {True} and len(ratios) == 3
    if not sym_ok:
        return Outcome.refuted("symbolic ratio set differs", counterexample={"N": "2 or 4"}, kind="false")
    from rldp_verify.certificates.identity import identity_evidence

    return Outcome.verified(f"exact at {n} (N, e^eps) points, N = 2..24 even; symbolic ratio set {{1, f, 1/f}} for N = 2, 4",
                            cases=n, **identity_evidence("falpha.ex12.gamma-Q", identities,
                                                         uncovered=f"the exact checks at {n} (N, e^eps) points"))


def _setting_table(ctx, alphas, settings=SETTINGS):
    """For each Figure-2 setting and alpha: RLDP of RR, the true eps* of the cascade, and phi (eta = 1)."""
    rows = []
    for N, E, ch in settings:
        W = channel_P(N) if ch == "P" else channel_Q(N)
        M = rr(N, Fraction(E))
        _, distinct = gammas_Y(W, N, Fraction(E))
        for s in alphas:
            a = exact(s)
            eps_star = rldp_level(distinct, a, dps=ctx.dps)
            rr_level = renyi_divergence(M[0], M[1], a, dps=ctx.dps)
            ball, phi, eps_f, gmin, gmax = phi_eta1(N, E, W, a, ctx.dps)
            rows.append({"N": N, "e^eps": E, "channel": ch, "alpha": s, "eps_star": eps_star, "phi": phi, "ball": ball,
                         "rldp_rr": rr_level})
    return rows


@claim(
    id="falpha.ex12.bound-holds",
    paper=PAPER,
    source="Sec. VI, Example 12, eq. (53) with eta_TV = 1; Figure 2 (a)-(d)",
    statement="In the four settings of Figure 2 the bound phi of eq. (53) (with eta_TV = 1) upper-bounds the true RLDP "
              "eps* of the cascade, which is below the RLDP of randomized response alone.",
    hypotheses=("alpha > 1", "eta_TV(P_{Y|X}) = 1 (the paper's assumption; it is the exact Dobrushin coefficient here)"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading=READING_P + " Figure 2's curves are not in the text; the fast check covers panels (a)-(c) at alpha = 1.5, 2, 3, 10; "
            "falpha.ex12.bound-holds-full-grid (slow) covers all panels on " + ", ".join(ALPHA_GRID) + ".",
)
def check_bound(ctx):
    return _bound(ctx, ("1.5", "2", "3", "10"), SETTINGS[:3])


@claim(
    id="falpha.ex12.bound-holds-full-grid",
    paper=PAPER,
    source="Sec. VI, Example 12, eq. (53); Figure 2 (a)-(d), full alpha grid",
    statement="As falpha.ex12.bound-holds, on all four panels (incl. N = 100 with Q^(N)) and alpha in " + ", ".join(ALPHA_GRID) + ".",
    hypotheses=("alpha > 1", "eta_TV = 1"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading=READING_P,
    slow=True,
)
def check_bound_full(ctx):
    return _bound(ctx, ALPHA_GRID, SETTINGS)


def _bound(ctx, alphas, settings):
    table = _setting_table(ctx, alphas, settings)
    worse_than_dpi = []
    for r in table:
        e = flint.arb(mpmath.nstr(r["eps_star"], ctx.dps)) + flint.arb(0, flint.arb(10) ** (-(ctx.dps - 10)))
        if r["ball"] < e:
            return Outcome.refuted("eps* exceeds phi", counterexample={k: r[k] for k in ("N", "e^eps", "channel", "alpha")},
                                   eps_star=fstr(r["eps_star"]), phi=fstr(r["phi"]), kind="false")
        if not r["ball"] > e:
            return Outcome.inconclusive("phi and eps* not separated", alpha=r["alpha"], N=r["N"])
        if r["eps_star"] > r["rldp_rr"]:
            return Outcome.refuted("post-processing increased RLDP (DPI violated)", counterexample=r["alpha"], kind="false")
        if r["phi"] >= r["rldp_rr"]:
            worse_than_dpi.append({"N": r["N"], "e^eps": r["e^eps"], "alpha": r["alpha"], "phi": fstr(r["phi"], 6),
                                   "rldp_rr": fstr(r["rldp_rr"], 6)})
    out = [{"N": r["N"], "e^eps": r["e^eps"], "ch": r["channel"], "alpha": r["alpha"], "eps_star": fstr(r["eps_star"], 6),
            "phi": fstr(r["phi"], 6), "rldp_rr": fstr(r["rldp_rr"], 6)} for r in table]
    return Outcome.verified(
        f"eps* < phi certified at all {len(table)} (setting, alpha) points and eps* < RLDP(RR); note: at {len(worse_than_dpi)} points "
        "phi is no better than the trivial post-processing bound RLDP(RR)",
        table=out, phi_not_better_than_rr=worse_than_dpi,
        **built(lambda: [c for r in table for c in _point_certs(r["N"], r["e^eps"], r["channel"], exact(r["alpha"]))]))


def _setting(N: int, E, ch: str):
    """(RR^(N) rows, the distinct rows of W o RR^(N)) for a Figure-2 setting (exact)."""
    W = channel_P(N) if ch == "P" else channel_Q(N)
    return rr(N, Fraction(E)), gammas_Y(W, N, Fraction(E))[1]


def _phi_with_branch(N: int, E, ch: str, a: Fraction) -> tuple[list, dict]:
    """(phi of eq. (53) as an expression, the certificate of the branch of eq. (41) it uses)."""
    from rldp_verify_check.value import evaluate

    from ._certs import branch_cert, f_alpha_expr, phi_expr, switch_h_expr

    M, distinct = _setting(N, E, ch)
    eps_f = f_alpha_expr(M[0], M[1], a)
    with flint.ctx.workprec(256):
        d = evaluate(expr(["-", eps_f, switch_h_expr(a)]))
    if not (d < 0 or d >= 0):
        raise ValueError(f"eps_f and the switch point of eq. (41) are not separated at alpha = {a}")
    branch = "low" if d < 0 else "high"
    tag = f"N = {N}, e^eps = {E}, {ch}^(N), alpha = {a}"
    return phi_expr(M, distinct, a, branch), branch_cert(f"eq. (41)'s branch '{branch}' for eps_f, {tag}", eps_f, a,
                                                         branch)


def _point_certs(N: int, E, ch: str, a: Fraction) -> list[dict]:
    """Issue 23, one (setting, alpha) point of falpha.ex12.bound-holds: min(phi - eps*, D_alpha(RR_0||RR_1) - eps*) >= 0
    (arb; eps* the max over ordered pairs of distinct output rows, from the definition of D_alpha, bound once), and
    the branch of eq. (41) that phi uses."""
    from ._certs import level_expr, renyi_expr

    M, distinct = _setting(N, E, ch)
    phi, branch = _phi_with_branch(N, E, ch, a)
    e = ["let", [["eps", level_expr(distinct, a)]],
         ["min", ["-", phi, "$eps"], ["-", renyi_expr(M[0], M[1], a), "$eps"]]]
    return [branch, value_certificate(f"eps* <= phi and eps* <= RLDP(RR), N = {N}, e^eps = {E}, {ch}^(N), alpha = {a}",
                                      e, lower=0)]


@claim(
    id="falpha.ex12.tightens-with-alpha",
    paper=PAPER,
    source="Sec. VI, Example 12, text after eq. (60): 'the bound tightens as alpha grows'",
    statement="In the settings of Figure 2 the bound tightens as alpha grows.",
    hypotheses=("alpha > 1",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="'Tightens' read as: the gap phi - eps* is non-increasing in alpha. The asymptotic reading (gap -> 0) is "
            "checked separately in falpha.ex12.asymptotically-tight.",
)
def check_tightens(ctx):
    table = _setting_table(ctx, ("2", "3"), SETTINGS[:1])
    for k in range(0, len(table), 2):
        r2, r3 = table[k], table[k + 1]
        g2, g3 = r2["phi"] - r2["eps_star"], r3["phi"] - r3["eps_star"]
        if g3 > g2:
            ev = dict(gap_alpha2=fstr(g2, 8), gap_alpha3=fstr(g3, 8), phi=[fstr(r2["phi"], 8), fstr(r3["phi"], 8)],
                      eps_star=[fstr(r2["eps_star"], 8), fstr(r3["eps_star"], 8)])
            cex = {"N": r2["N"], "e^eps": r2["e^eps"], "channel": r2["channel"], "alpha": [2, 3]}
            wide = ("3", "10", "100", "1000")
            setting = ((r2["N"], r2["e^eps"], r2["channel"]),)
            gaps = [g3] + [r["phi"] - r["eps_star"] for r in _setting_table(ctx, wide[1:], setting)]
            ev["gap along alpha"] = {a: fstr(g, 8) for a, g in zip(wide, gaps, strict=True)}
            if all(b < a for a, b in pairwise(gaps)) and gaps[-1] < g2:
                # issue 24: 'tightens as alpha grows' read as a trend (it does: from alpha = 3 on, and below the gap
                # at alpha = 2 for large alpha) or as monotone at every alpha (not between 2 and 3)
                ev["readings"] = {
                    "literal": f"monotone at every alpha: the gap grows from {fstr(g2, 6)} (alpha = 2) to {fstr(g3, 6)} "
                               "(alpha = 3)",
                    "charitable": "tighter for large alpha, the reason the paper gives ('since both of the presented "
                                  "Pinsker-type bounds are asymptotically tight'): the gap decreases along alpha = "
                                  + ", ".join(wide) + f" to {fstr(gaps[-1], 6)}, below its value at alpha = 2, and tends "
                                  "to 0 (falpha.ex12.asymptotically-tight)"}
                return Outcome.refuted(
                    "reading-dependent: the gap phi - eps* grows from alpha = 2 to alpha = 3, then decreases (alpha = "
                    + ", ".join(wide) + ") below its alpha = 2 value: the bound tightens as alpha grows as a trend, "
                    "not at every alpha", counterexample=cex, kind="reading-dependent", **ev,
                    **built(_tightens_certs, r2["N"], r2["e^eps"], r2["channel"]))
            return Outcome.refuted(
                "the gap phi - eps* grows from alpha = 2 to alpha = 3 (it shrinks only for large alpha)",
                counterexample=cex, kind="false", **ev,
                **built(_tightens_certs, r2["N"], r2["e^eps"], r2["channel"]))
    return Outcome.verified("gap non-increasing from alpha = 2 to 3 in every setting")


def _tightens_certs(N: int, E, ch: str) -> list[dict]:
    """Issue 23: the gap phi - eps* at alpha = 3 exceeds the gap at alpha = 2 (arb), with the branches of eq. (41)."""
    from ._certs import level_expr

    _, distinct = _setting(N, E, ch)
    (phi2, b2), (phi3, b3) = (_phi_with_branch(N, E, ch, Fraction(a)) for a in (2, 3))
    gap = ["-", ["-", phi3, level_expr(distinct, 3)], ["-", phi2, level_expr(distinct, 2)]]
    return [b2, b3, value_certificate(f"(phi - eps*)(alpha = 3) - (phi - eps*)(alpha = 2) > 0, N = {N}, e^eps = {E}, "
                                      f"{ch}^(N)", gap, lower=0, strict=True)]


@claim(
    id="falpha.ex12.asymptotically-tight",
    paper=PAPER,
    source="Sec. VI, Example 12 ('both Pinsker-type bounds are asymptotically tight'); Remarks 7 and 9",
    statement="As alpha -> inf, phi(eps_f, alpha) - eps*(alpha) -> 0 in the settings of Figure 2 (both tend to log Gamma_max(Y)).",
    hypotheses=("eta_TV = 1",),
    method=Method.HIGH_PRECISION,
)
def check_asym(ctx):
    out = {}
    for N, E, ch in SETTINGS[:3] + ((10, 10, "Q"),):
        W = channel_P(N) if ch == "P" else channel_Q(N)
        (gmin, gmax), distinct = gammas_Y(W, N, Fraction(E))
        gaps = []
        for s in ("10.5", "1000.5", "10000.5"):
            a = exact(s)
            eps_star = rldp_level(distinct, a, dps=ctx.dps)
            _, phi, *_ = phi_eta1(N, E, W, a, ctx.dps)
            gaps.append(phi - eps_star)
        with working_precision(ctx.dps):
            dinf = mpmath.log(to_mpf(gmax))
        out[f"N={N},e^eps={E},{ch}"] = {"gaps": [fstr(g, 4) for g in gaps], "phi_minus_log_gamma_max_at_1e4": fstr(phi - dinf, 4)}
        if not (gaps[-1] < gaps[0] and gaps[-1] < mpmath.mpf("1e-3") and all(g > 0 for g in gaps)):
            return Outcome.inconclusive("no convergence seen", **out)
    return Outcome.verified("gap phi - eps* decreases below 1e-3 by alpha = 1e4 in every setting (order 1/alpha)", gaps=out,
        certificate_covers="the finite facts the verdict reads (issue 23), per setting: 0 < gap < 1e-3 at alpha = "
                           "10000.5 and gap(10.5) > gap(10000.5) (arb; phi of eq. (53) with its branch of eq. (41) "
                           "certified, eps* the max over ordered pairs of distinct output rows); not certified: the "
                           "limit alpha -> inf itself, which finite gaps do not prove and the series kind cannot take: "
                           "in x = 1/alpha the levels hold Gamma^(1/x) = exp(log(Gamma)/x) and, with Gamma_max^(1/x) "
                           "factored out, terms (r/Gamma_max)^(1/x) = exp(-c/x) (c > 0) that are flat at x = 0 "
                           "(every derivative 0), hence not analytic there",
        **built(lambda: [c for N, E, ch in SETTINGS[:3] + ((10, 10, "Q"),) for c in _asym_certs(N, E, ch)]))


def _asym_certs(N: int, E, ch: str, alphas=("10.5", "10000.5")) -> list[dict]:
    """Issue 23: gap(alpha) = phi - eps* at the last order in (0, 1e-3) and below its value at the first (arb),
    with the branches of eq. (41) that phi uses."""
    from ._certs import level_expr

    _, distinct = _setting(N, E, ch)
    (phi0, b0), (phi1, b1) = (_phi_with_branch(N, E, ch, Fraction(a)) for a in alphas)
    g0 = ["-", phi0, level_expr(distinct, Fraction(alphas[0]))]
    g1 = ["-", phi1, level_expr(distinct, Fraction(alphas[1]))]
    tag = f"N = {N}, e^eps = {E}, {ch}^(N)"
    return [b0, b1, value_certificate(f"0 < (phi - eps*)(alpha = {alphas[1]}) < 1/1000, {tag}", g1, lower=0,
                                      upper=Fraction(1, 1000), strict=True),
            value_certificate(f"(phi - eps*)(alpha = {alphas[0]}) > (phi - eps*)(alpha = {alphas[1]}), {tag}",
                              ["-", g0, g1], lower=0, strict=True)]


@claim(
    id="falpha.ex12.large-N",
    paper=PAPER,
    source="Sec. VI, Example 12, last paragraph and the paragraph after it",
    statement="Gamma(Y) for P^(N) does not depend on N, whereas for Q^(N), Gamma_max, Gamma_min -> 1 as N -> inf, so the bound phi "
              "tends to 0 (perfect privacy) for every finite eps.",
    hypotheses=("eta_TV = 1", "eps fixed", "alpha > 1 fixed"),
    method=(Method.SYMBOLIC, Method.EXACT, Method.HIGH_PRECISION),
)
def check_large_N(ctx):
    Nn, Ee = sp.symbols("N E", positive=True)
    lim = sp.limit((Nn + 2 * Ee - 2) / Nn, Nn, sp.oo) == 1
    # R_alpha(u, 1/u) -> R_alpha(1, 1) = alpha - alpha = 0 as u -> 1 (alpha = 3: polynomial)
    u = sp.symbols("u", positive=True)
    r3 = sp.limit((u**3 - 1) / (u - 1) - (1 - u**-3) / (1 - 1 / u), u, 1) == 0
    seq, rr_seq = [], []
    for N in (10, 40, 160):
        _, phi, eps_f, gmin, gmax = phi_eta1(N, 10, channel_Q(N), 3, ctx.dps)
        seq.append(phi)
        M = rr(N, Fraction(10))
        rr_seq.append(renyi_divergence(M[0], M[1], 3, dps=ctx.dps))
    # g^-1 <= 1, so phi <= log(1 + R_alpha(Gamma_max, Gamma_min))/(alpha - 1) -> 0 by the two limits above
    decreasing = all(x > y for x, y in pairwise(seq))
    if lim and r3 and decreasing:
        return Outcome.verified(
            "Gamma_max(Q^(N)) = (N + 2E - 2)/N -> 1 and R_alpha(u, 1/u) -> 0 as u -> 1 (sympy), and g^-1 <= 1, so "
            f"phi <= log(1 + R_alpha)/(alpha - 1) -> 0; phi(alpha = 3, e^eps = 10) = {fstr(seq[-1], 4)} at N = 160. Note: randomized response alone also tends to perfect Renyi privacy as N grows "
            "(RLDP(RR) shown in evidence), so the limit is not specific to the post-processing.",
            phi_N_10_40_160=[fstr(x, 6) for x in seq], rldp_rr_N_10_40_160=[fstr(x, 6) for x in rr_seq],
            **built(large_n_certificates, 10, 3),
            certificate_covers="the limit at e^eps = 10, alpha = 3: R_3(u, 1/u) of eq. (23) equals its polynomial form "
                               "in u, 1/u (symbolic-identity), and log(1 + R_3(Gamma_max, 1/Gamma_max))/2 with Gamma_max = "
                               "(N + 18)/N, in x = 1/N, is analytic at x = 0 with c_0 = 0 exactly (series kind), so the "
                               "bound tends to 0; not g^-1 <= 1 (so phi <= that bound), Gamma_min = 1/Gamma_max nor "
                               "Gamma_max's closed form (the check's reading), nor the phi values at N = 10, 40, 160")
    return Outcome.inconclusive("limit not confirmed", limit=lim, r3=r3, phi=[fstr(x, 6) for x in seq])
