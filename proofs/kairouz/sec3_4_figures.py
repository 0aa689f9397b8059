"""Sec. 3.4 (Figures 3-4) and Sec. 4.4 (Figures 6-7) of Kairouz, Oh & Viswanath, recomputed and redrawn (issue 12).

What the paper shows:

- Figure 3 (KL divergence, |X| = 6, 100 random pairs (P0, P1)). Left: the average over the instances of
  D_kl(M0||M1)/D_kl(P0||P1) against eps for the optimal staircase mechanism (LP (11)), the binary mechanism
  (T = {x : P0(x) >= P1(x)}), randomized response (21) and the geometric mechanism. Right: for every
  instance, the binary and randomized-response values divided by the optimum. The text: randomized response
  is optimal for large eps ("converges exponentially in eps to 1"), the binary mechanism for small eps
  ("converges quadratically in eps to 0"); "in all regimes, both the binary and randomized response
  mechanisms provide significant gains over the geometric mechanism"; "in all instances, the binary
  mechanism is optimal for small eps and the randomized response mechanism is optimal for large eps";
  randomized response can fall to 10 % and the binary mechanism to 25 % of the optimum.
- Figure 4: for |X| in {3, 4, 6, 12}, the better of the two divided by the optimum for every instance and
  eps: "at least 70 % for |X| = 6 (and 55 % for |X| = 12) ... for all instances"; "not too sensitive to the
  size of the alphabet".
- Figures 6-7: the same for the mutual information I(X;Y) of 100 random P (normalised by H(X) on the left
  of Figure 6), the binary mechanism on T in argmin_A |P(A) - 1/2| (eq. (30)); randomized response "converges
  to one"; the floors are 75 % (|X| = 6) and 65 % (|X| = 12); RR can fall to 35 %, binary to 40 %.

Our recomputation. The paper does not say how the instances were drawn, nor which eps it plots. We draw
every distribution uniformly on the simplex (Dirichlet(1, ..., 1)), seeded, and report how each conclusion
changes with skewed instances (Dirichlet(0.3)); the eps grid is EPS (0.05 to 10). The optimum of the
staircase LP (11) over the 2^k patterns is computed in float64 for the 100 instances of a sample at once
(rldp_verify.topics.extremal.staircase.solve_staircase_lp_batch, a batched primal simplex) and taken as its dual
bound, which is >= OPT whatever the simplex did (the ratios to OPT err low); the final basic solution must agree
with it within GAP_TOL. A plotted figure, not a certificate: the exact optimality at eps = 0.1 and 10 is
certified by kairouz.fig5.* and kairouz.fig8.*. (Until 2026-11-26 the optimum was scipy's HiGHS solution of each
LP, one at a time: 20-40x slower, and off by up to 2.5e-4 (relative) at eps = 0.05 through HiGHS's absolute
tolerances on objectives of order 1e-4; no verdict changed.) "optimal" here means within OPT_TOL of the LP
optimum. The spread of an average is its standard error over the instances
(paired where two mechanisms are compared on the same instances); a difference counts when it exceeds two
standard errors.

Second routes (issue 24): every claim re-derives the float values its verdict is read from by
:func:`exact_values` (the instance as rationals, arb mu, the certified staircase LP (11), exact mechanisms, the
normaliser in mpmath) and ends in ERROR when they differ by more than ROUTE_TOL: the regimes claims at the worst
binary cell of the smallest eps and the worst RR cell of the largest, the limits claims at every value the slopes
are read from, the geometric claims at the worst instance per eps and mechanism, the floors claims at the smallest
ratio of each |X| (12 included). The batched simplex's two bounds must agree within GAP_TOL (also an ERROR).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from itertools import product

import mpmath
import numpy as np

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.extremal.staircase import pattern_subset_sums, solve_staircase_lp_batch

from .._consistency import expect
from ._common import PAPER

EPS = (0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
KS = (3, 4, 6, 12)
INSTANCES = 100
CONC = 1.0            # Dirichlet concentration of the main run (uniform on the simplex)
CONC_SKEW = 0.3       # the sensitivity run
OPT_TOL = 1e-7        # relative: a mechanism within this of the LP optimum counts as optimal
GAP_TOL = 1e-9        # relative: the LP's dual bound and basic solution must agree this closely (else the run raises)
MECHS = ("optimal", "binary", "RR", "geometric")
EXTRA_EPS = (12.0, 15.0, 20.0, 30.0)   # beyond the grid: how the regimes verdict depends on what 'large eps' is
ROUTE_TOL = 1e-8      # relative: how far a float value of :func:`run` may sit from the second route's (issue 24)

_CACHE: dict = {}


# --- mechanisms (rows x, columns y) ---------------------------------------------------------------------

def randomized_response(k: int, t: float) -> np.ndarray:
    """Eq. (21)."""
    return (np.ones((k, k)) + (t - 1) * np.eye(k)) / (t + k - 1)


def binary(T: np.ndarray, t: float) -> np.ndarray:
    """The binary mechanism on the set T (boolean mask): Q(0|x) = t/(1+t) on T, 1/(1+t) off T."""
    col = np.where(T, t, 1.0) / (1 + t)
    return np.stack([col, 1 - col], axis=1)


def geometric(k: int, eps: float) -> np.ndarray:
    """Sec. 3.4's truncated geometric mechanism with base e^{-eps/(k-1)} (kairouz.sec3_4.geometric-mechanism
    reads the printed base eps so; the tails beyond 1 and k go to the end points)."""
    a = math.exp(-eps / (k - 1))
    c = (1 - a) / (1 + a)
    x = np.arange(k)
    Q = c * a ** np.abs(x[:, None] - x[None, :])
    Q[:, 0] += c * a ** (x + 1) / (1 - a)
    Q[:, -1] += c * a ** (k - x) / (1 - a)
    return Q


# --- utilities: mu of a column, summed over the columns of a mechanism ----------------------------------

def mu_kl(P0, P1, C: np.ndarray) -> np.ndarray:
    """mu(c) = (P0 . c) log((P0 . c)/(P1 . c)) for every column c of C (eq. (12))."""
    a, b = P0 @ C, P1 @ C
    return a * np.log(a / b)


def mu_mi(P, C: np.ndarray) -> np.ndarray:
    """mu(c) = sum_x P(x) c_x log(c_x / (P . c)) for every column c of C (eq. (26))."""
    m = P @ C
    return (P[:, None] * C * np.log(C / m[None, :])).sum(axis=0)


def binary_set_kl(P0, P1) -> np.ndarray:
    return P0 >= P1


def binary_set_mi(P) -> np.ndarray:
    """T in argmin_A |P(A) - 1/2| (eq. (30)), by enumerating the 2^k subsets."""
    masks = _subsets(P.size)
    return masks[int(np.argmin(np.abs(masks @ P - 0.5)))]


@cache
def _subsets(k: int) -> np.ndarray:
    """The 2^k subsets of range(k) as boolean masks, in the order of itertools.product."""
    return np.array(list(product((False, True), repeat=k)))


def mu_kl_patterns(P0: np.ndarray, P1: np.ndarray, t: float) -> np.ndarray:
    """:func:`mu_kl` of every staircase pattern S_j (t on T_j, 1 elsewhere; the engine's column order) for the
    instances in the rows of P0, P1 (n x k): a = P0 . S_j = (sum P0 - P0(T_j)) + t P0(T_j), b likewise,
    mu = a log(a/b). Shape n x 2^k."""
    a0, a1 = pattern_subset_sums(P0), pattern_subset_sums(P1)
    a = (P0.sum(1)[:, None] - a0) + t * a0
    b = (P1.sum(1)[:, None] - a1) + t * a1
    return a * np.log(a / b)


def mu_mi_patterns(P: np.ndarray, t: float) -> np.ndarray:
    """:func:`mu_mi` of every staircase pattern for the instances in the rows of P (n x k): with p = P(T_j),
    q = sum P - p and m = P . S_j = q + t p, sum_x P(x) S_jx log(S_jx / m) = t p log(t / m) - q log m (the two
    terms as :func:`mu_mi` sums them: no cancellation of t log t against m log m at large t). Shape n x 2^k."""
    p = pattern_subset_sums(P)
    q = P.sum(1)[:, None] - p
    m = q + t * p
    return t * p * np.log(t / m) - q * np.log(m)


def draw(rng, k: int, conc: float) -> np.ndarray:
    """A Dirichlet(conc) draw with every entry >= 1e-9 (renormalised), so every log is finite."""
    p = np.maximum(rng.dirichlet([conc] * k), 1e-9)
    return p / p.sum()


def run(ctx, utility: str, k: int, conc: float = CONC, *, n: int = INSTANCES, eps=EPS, swap: bool = False,
        rep: int = 0) -> dict:
    """Values of the four mechanisms on ``n`` seeded instances at every eps: arrays ``n x len(eps)`` under
    "optimal", "binary", "RR", "geometric", and "norm" (D_kl(P0||P1) or H(X), length n).

    ``rep`` > 0 draws an independent replicate sample (its own seeded generator). ``swap`` (a wrong variant,
    for the tests) exchanges the binary and randomized-response mechanisms."""
    key = (ctx.seed, utility, k, conc, n, tuple(eps), swap, rep)
    if key in _CACHE:
        return _CACHE[key]
    rng = ctx.np_rng(f"kairouz.fig34.{utility}.{k}.{conc}" + (f".rep{rep}" if rep else ""))
    out = {m: np.zeros((n, len(eps))) for m in MECHS}
    # the instances, drawn in the generator's order (for KL: P0, then P1, instance by instance)
    if utility == "kl":
        pairs = [(draw(rng, k, conc), draw(rng, k, conc)) for _ in range(n)]
        P0s, P1s = np.array([p for p, _ in pairs]), np.array([q for _, q in pairs])
        mus = [lambda C, P0=P0, P1=P1: mu_kl(P0, P1, C) for P0, P1 in pairs]
        sets = [binary_set_kl(P0, P1) for P0, P1 in pairs]
        out["norm"] = np.array([float(mu_kl(P0, P1, np.eye(k)).sum()) for P0, P1 in pairs])
        out["instances"] = pairs
    else:
        Ps = np.array([draw(rng, k, conc) for _ in range(n)])
        mus = [lambda C, P=P: mu_mi(P, C) for P in Ps]
        sets = [binary_set_mi(P) for P in Ps]
        out["norm"] = np.array([float(-(P * np.log(P)).sum()) for P in Ps])
        out["instances"] = [(P,) for P in Ps]
    out["sets"] = sets
    stats = {"LPs": 0, "fallback": 0, "max_relative_gap": 0.0, "max_pivots": 0}
    for j, e in enumerate(eps):
        t = math.exp(e)
        # OPT of LP (11) for the n instances at once: the batched simplex's dual bound (above OPT, so every ratio
        # value/OPT errs low), its gap to the final basic solution checked below
        MU = mu_kl_patterns(P0s, P1s, t) if utility == "kl" else mu_mi_patterns(Ps, t)
        sol = solve_staircase_lp_batch(k, t, MU)
        out["optimal"][:, j] = sol.upper
        stats["LPs"] += n
        stats["fallback"] += int(sol.fallback.sum())
        stats["max_relative_gap"] = max(stats["max_relative_gap"], float(np.abs(sol.relative_gap).max()))
        stats["max_pivots"] = max(stats["max_pivots"], int(sol.iterations.max()))
        RR, G = randomized_response(k, t), geometric(k, e)
        for i, (mu, T) in enumerate(zip(mus, sets, strict=True)):
            b, r = float(mu(binary(T, t)).sum()), float(mu(RR).sum())
            out["binary"][i, j], out["RR"][i, j] = (r, b) if swap else (b, r)
            out["geometric"][i, j] = float(mu(G).sum())
    # the two bounds of LP (11) the batched simplex returns (its dual bound and its basic solution) must agree: an
    # expectation of the computation, so an ERROR of the claim (proofs._consistency), never a verdict
    expect(stats["max_relative_gap"] <= GAP_TOL,
           f"LP (11): a basic solution of the batched simplex is {stats['max_relative_gap']:.3g} (relative) below its dual "
           f"bound, more than {GAP_TOL:g}: OPT is not pinned down (routes disagree)")
    out["eps"] = np.array(eps)
    out["lp"] = stats
    _CACHE[key] = out
    return out


def exact_values(utility: str, inst, e: float, T, which=("optimal", "binary", "RR", "geometric")) -> dict:
    """Second route (issue 24) for the values :func:`run` computes at one instance and eps: the instance taken exactly
    (its binary64 values as rationals, renormalised), e^eps likewise; mu by the engine's arb functionals
    (rldp_verify.topics.extremal.utilities), the optimum of LP (11) by the engine's certified staircase LP (an exact
    basis certified in arb, not the batched float simplex), the mechanisms as exact matrices (randomized response and
    binary from the engine, the truncated geometric from proofs.kairouz.sec3_4_experiments); the normaliser
    (D_kl(P0||P1) or H(X)) by mpmath at 30 digits (not numpy). Floats of the arb midpoints."""
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.topics.extremal import utilities as U
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp

    from .sec3_4_experiments import geometric_truncated

    k = len(inst[0])
    dists = [[Fraction(float(x)) for x in d] for d in inst]
    dists = [[x / sum(d) for x in d] for d in dists]
    t = Fraction(math.exp(e))
    mechs = {"binary": lambda: U.binary_mechanism_for_set(T, k, t), "RR": lambda: U.randomized_response(k, t),
             "geometric": lambda: geometric_truncated(k, Fraction(math.exp(-e / (k - 1))))}
    out = {}
    with arb_precision(30):
        mu = U.mu_kl(*dists) if utility == "kl" else U.mu_mi(dists[0])
        for m in which:
            v = solve_staircase_lp(k, t, mu).value if m == "optimal" else U.utility(mechs[m](), mu)
            out[m] = float(v.mid()) if hasattr(v, "mid") else float(v)
    with mpmath.workdps(30):
        P = [[mpmath.mpf(x.numerator) / x.denominator for x in d] for d in dists]
        out["norm"] = float(mpmath.fsum(a * mpmath.log(a / b) for a, b in zip(P[0], P[1], strict=True))
                            if utility == "kl" else -mpmath.fsum(a * mpmath.log(a) for a in P[0]))
    return out


def second_route(utility: str, d: dict, cells, *, which=("optimal", "binary", "RR", "geometric"), swap: bool = False,
                 label: str = "") -> list:
    """Compare the float values of :func:`run` (``d``) at the (instance, eps index) ``cells`` with
    :func:`exact_values`: every mechanism's value over the optimum (or over the normaliser when the optimum is not
    asked for) and the normaliser, relative ROUTE_TOL; ERROR (proofs._consistency) when they differ. ``swap`` is the
    wrong variant of :func:`run` (binary and RR exchanged): the second route exchanges them too."""
    rows = []
    for i, j in dict.fromkeys((int(i), int(j) % len(d["eps"])) for i, j in cells):
        e = float(d["eps"][j])
        ex = exact_values(utility, d["instances"][i], e, frozenset(np.flatnonzero(d["sets"][i]).tolist()), which)
        if swap:
            ex["binary"], ex["RR"] = ex.get("RR"), ex.get("binary")
        den, fden = ("optimal", float(d["optimal"][i, j])) if "optimal" in which else ("norm", float(d["norm"][i]))
        row: dict = {"instance": i, "eps": e}
        pairs = [(f"{m}/{den}", float(d[m][i, j]) / fden, ex[m] / ex[den]) for m in which if m != "optimal"]
        pairs.append(("norm", float(d["norm"][i]), ex["norm"]))
        worst = 0.0
        for name, first, second in pairs:
            expect(abs(first - second) <= ROUTE_TOL * abs(second), f"{label}instance {i}, eps = {e:g}: {name} is "
                                                                   f"{first!r} by the float route, {second!r} by the "
                                                                   "exact route (routes disagree)")
            row[name] = round(second, 10)
            worst = max(worst, abs(first - second) / abs(second) if second else 0.0)
        row["max_relative_difference"] = f"{worst:.1e}"
        rows.append(row)
    return rows


def route_summary(rows: list) -> dict:
    """A many-cell :func:`second_route` in a few numbers (for the evidence)."""
    return {"cells": len(rows), "instances": len({r["instance"] for r in rows}), "eps": sorted({r["eps"] for r in rows}),
            "max_relative_difference": f"{max(float(r['max_relative_difference']) for r in rows):.1e}",
            "tolerance": ROUTE_TOL}


def lp_evidence(used) -> dict:
    """What the optimum of LP (11) cost, per |X|, over the samples ``used`` ((|X|, run) pairs): LPs solved, by the
    batched simplex or by the HiGHS fallback, the largest number of pivots, and the largest relative gap between
    the dual bound taken as OPT and the final basic solution."""
    out: dict = {}
    for k, d in used:
        s = out.setdefault(k, {"LPs": 0, "batched_simplex": 0, "HiGHS_fallback": 0, "max_pivots": 0,
                               "max_relative_gap": 0.0})
        st = d["lp"]
        s["LPs"] += st["LPs"]
        s["batched_simplex"] += st["LPs"] - st["fallback"]
        s["HiGHS_fallback"] += st["fallback"]
        s["max_pivots"] = max(s["max_pivots"], st["max_pivots"])
        s["max_relative_gap"] = max(s["max_relative_gap"], st["max_relative_gap"])
    for s in out.values():
        s["max_relative_gap"] = float(f"{s['max_relative_gap']:.2e}")
    return {"per_|X|": out, "LPs": sum(s["LPs"] for s in out.values()),
            "method": ("OPT = the dual bound 1^T alpha + k max(0, max_j (mu_j - S_j^T alpha) / |S_j|_1) of a primal "
                       "simplex run on all instances of a sample at once (numpy); it is >= OPT for any alpha "
                       "(sum_j theta_j |S_j|_1 = k on the feasible set), so every ratio to OPT errs low; the final "
                       f"basic solution must be within {GAP_TOL:g} (relative) of it")}


def ratios(data: dict) -> dict:
    """Each mechanism's value divided by the optimum (n x len(eps)), and the better of binary and RR."""
    r = {m: data[m] / data["optimal"] for m in ("binary", "RR", "geometric")}
    r["better"] = np.maximum(r["binary"], r["RR"])
    return r


def mean_se(x: np.ndarray) -> tuple[float, float]:
    """Mean and standard error over the instances (axis 0)."""
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size))


PAPER_SHOWS = {
    "kl": ("Figure 3: left, the average over 100 random (P0, P1) on |X| = 6 of D_kl(M0||M1)/D_kl(P0||P1) against eps "
           "for the optimal staircase mechanism, binary, randomized response and geometric; right, binary and RR "
           "divided by the optimum for every instance. Figure 4: the better of binary and RR divided by the "
           "optimum, every instance, |X| = 3, 4, 6, 12."),
    "mi": ("Figure 6: left, the average over 100 random P on |X| = 6 of I(X;Y)/H(X) against eps for the optimal, "
           "binary, randomized response and geometric mechanisms; right, binary and RR divided by the optimum for "
           "every instance. Figure 7: the better of binary and RR divided by the optimum, every instance, "
           "|X| = 3, 4, 6, 12."),
}
FIG = {"kl": (3, 4), "mi": (6, 7)}
UNIT = {"kl": "D_kl(M0||M1)", "mi": "I(X;Y)"}
NORM = {"kl": "D_kl(P0||P1)", "mi": "H(X)"}


def _common_evidence(utility: str, data: dict) -> dict:
    return {"what_the_paper_shows": PAPER_SHOWS[utility], "instances": int(data["norm"].size), "|X|": 6,
            "eps_grid": list(EPS), "instance_distribution": f"Dirichlet({CONC}) (main), Dirichlet({CONC_SKEW}) (sensitivity)"}


# --- drawing ----------------------------------------------------------------------------------------------

def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def draw_left_right(utility: str, data: dict, path) -> None:
    """The paper's left/right panels: averages of value/normaliser (with +-2 SE), per-instance value/OPT."""
    plt = _plt()
    eps = data["eps"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    colours = {"optimal": "k", "binary": "tab:blue", "RR": "tab:red", "geometric": "tab:green"}
    for m in MECHS:
        r = data[m] / data["norm"][:, None]
        mu, se = r.mean(0), r.std(0, ddof=1) / math.sqrt(r.shape[0])
        a1.plot(eps, mu, "-o" if m == "optimal" else "-", color=colours[m], ms=3, label=m)
        a1.fill_between(eps, mu - 2 * se, mu + 2 * se, color=colours[m], alpha=0.15)
    a1.set_xscale("log")
    a1.set_xlabel("eps")
    a1.set_ylabel(f"{UNIT[utility]} / {NORM[utility]} (mean, +-2 SE)")
    a1.legend(fontsize=8)
    rr = ratios(data)
    for m in ("binary", "RR"):
        for row in rr[m]:
            a2.plot(eps, row, "-", color=colours[m], lw=0.6, alpha=0.25)
        a2.plot(eps, rr[m].min(0), "--", color=colours[m], lw=1.5, label=f"{m}: minimum over instances")
    a2.set_xscale("log")
    a2.set_ylim(0, 1.02)
    a2.set_xlabel("eps")
    a2.set_ylabel(f"{UNIT[utility]} / OPT (every instance)")
    a2.legend(fontsize=8)
    f = FIG[utility][0]
    fig.suptitle(f"Kairouz et al. Figure {f} recomputed: {INSTANCES if data['norm'].size == INSTANCES else data['norm'].size} "
                 f"Dirichlet({CONC}) instances, |X| = 6")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def draw_better(utility: str, per_k: dict, floors: dict, printed: dict, path) -> None:
    """The paper's four panels (better of binary and RR / OPT, every instance, per |X|) and a fifth: the
    smallest ratio per |X| for both instance distributions, with the replicate range."""
    plt = _plt()
    fig, axes = plt.subplots(1, 5, figsize=(17, 3.8))
    for ax, k in zip(axes[:len(KS)], KS, strict=True):   # the fifth panel is drawn below
        d = per_k[k]
        b = ratios(d)["better"]
        for row in b:
            ax.plot(d["eps"], row, "-", color="tab:purple", lw=0.6, alpha=0.25)
        ax.plot(d["eps"], b.min(0), "k--", lw=1.2, label="minimum")
        if k in printed:
            ax.axhline(printed[k], color="tab:orange", lw=1.2, label=f"printed floor {printed[k]:.2f} (text)")
        ax.axhline(CAPTION_FLOOR[utility], color="tab:orange", lw=1.0, ls=":",
                   label=f"caption floor {CAPTION_FLOOR[utility]:.2f}")
        ax.set_xscale("log")
        ax.set_ylim(0.4, 1.02)
        ax.set_title(f"|X| = {k}")
        ax.set_xlabel("eps")
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("max(binary, RR) / OPT")
    ax = axes[4]
    for conc, style in ((CONC, "o-"), (CONC_SKEW, "s--")):
        ks = list(KS)
        ax.plot(ks, [floors[conc][k]["main"] for k in ks], style, label=f"Dirichlet({conc})")
        lo = [min(floors[conc][k]["replicates"]) for k in ks]
        hi = [max(floors[conc][k]["replicates"]) for k in ks]
        ax.fill_between(ks, lo, hi, alpha=0.15)
    ax.plot(list(printed), list(printed.values()), "x", color="tab:orange", ms=9, mew=2, label="printed")
    ax.set_xscale("log", base=2)
    ax.set_xticks(list(KS), [str(k) for k in KS])
    ax.set_title("smallest ratio (band: replicates)")
    ax.set_xlabel("|X|")
    ax.legend(fontsize=7)
    fig.suptitle(f"Kairouz et al. Figure {FIG[utility][1]} recomputed: the better of binary and RR, "
                 f"{INSTANCES} instances per |X|")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# --- the claims -------------------------------------------------------------------------------------------

def regimes_claim(ctx, utility: str, *, n: int = INSTANCES, swap: bool = False, draw_figure: bool = True) -> Outcome:
    """'In all instances, the binary mechanism is optimal for small eps and RR for large eps' (right panel):
    judged at the two ends of the grid, with the fraction of instances where each is optimal at every eps."""
    main = run(ctx, utility, 6, CONC, n=n, swap=swap)
    skew = run(ctx, utility, 6, CONC_SKEW, n=n, swap=swap)

    def summary(d):
        r = ratios(d)
        b_opt = (r["binary"] >= 1 - OPT_TOL).mean(0)
        rr_opt = (r["RR"] >= 1 - OPT_TOL).mean(0)
        return {"binary_optimal_fraction": [round(float(x), 3) for x in b_opt],
                "RR_optimal_fraction": [round(float(x), 3) for x in rr_opt],
                "binary_optimal_all_at_smallest_eps": bool(b_opt[0] == 1),
                "RR_optimal_all_at_largest_eps": bool(rr_opt[-1] == 1),
                "RR_worst_ratio_at_largest_eps": float(r["RR"][:, -1].min()),
                "binary_worst_ratio_at_smallest_eps": float(r["binary"][:, 0].min()),
                "RR_worst_ratio_smallest_eps (paper: 10 % KL, 35 % MI)": float(r["RR"][:, 0].min()),
                "binary_worst_ratio_largest_eps (paper: 25 % KL, 40 % MI)": float(r["binary"][:, -1].min())}

    s_main, s_skew = summary(main), summary(skew)
    for _label, conc, s in (("Dirichlet(1)", CONC, s_main), ("Dirichlet(0.3)", CONC_SKEW, s_skew)):
        ext = ratios(run(ctx, utility, 6, conc, n=n, eps=EXTRA_EPS, swap=swap))  # the same instances, larger eps
        s["RR_optimal_fraction_at_larger_eps"] = {e: round(float(x), 3)
                                                  for e, x in zip(EXTRA_EPS, (ext["RR"] >= 1 - OPT_TOL).mean(0), strict=True)}
    ev = {**_common_evidence(utility, main), "Dirichlet(1)": s_main, "Dirichlet(0.3)": s_skew, "optimal_tolerance": OPT_TOL}
    # second route (issue 24): the two cells the verdict turns on (the worst binary ratio at the smallest eps, the worst
    # RR ratio at the largest), by the certified LP (11) and arb mu
    r_main = ratios(main)
    cells = [(int(r_main["binary"][:, 0].argmin()), 0), (int(r_main["RR"][:, -1].argmin()), -1)]
    ev["second_route (exact instance, certified LP (11), arb mu)"] = second_route(utility, main, cells, swap=swap,
                                                                                  label="Dirichlet(1): ")
    if draw_figure:
        path, rel = ctx.artefact(f"figures/kairouz_fig{FIG[utility][0]}.png")
        draw_left_right(utility, main, path)
        ev["figure"] = rel
    larger = ", ".join(f"{e:g}: {x:.0%}" for e, x in s_main["RR_optimal_fraction_at_larger_eps"].items())
    dep = (f"RR optimal at larger eps on {larger} of the instances; "
           f"with Dirichlet(0.3) instances: binary optimal on all at eps = {EPS[0]}: "
           f"{s_skew['binary_optimal_all_at_smallest_eps']}, RR optimal on {s_skew['RR_optimal_fraction'][-1]:.0%} at "
           f"eps = {EPS[-1]}")
    fails = []
    if not s_main["binary_optimal_all_at_smallest_eps"]:
        fails.append(f"binary optimal on only {s_main['binary_optimal_fraction'][0]:.0%} of instances at eps = {EPS[0]}")
    if not s_main["RR_optimal_all_at_largest_eps"]:
        fails.append(f"RR optimal on only {s_main['RR_optimal_fraction'][-1]:.0%} of instances at eps = {EPS[-1]} "
                     f"(worst RR/OPT {s_main['RR_worst_ratio_at_largest_eps']:.6f})")
    later = [e for e, x in s_main["RR_optimal_fraction_at_larger_eps"].items() if x == 1]
    if fails and s_main["binary_optimal_all_at_smallest_eps"] and later:
        # issue 24: 'large eps' is the paper's word, eps = 10 our grid's end; the finding rests on that choice
        ev["readings"] = {
            "literal": f"'large eps' = {EPS[-1]:g}, the end of our grid (the paper states no grid), 'optimal' = within "
                       f"{OPT_TOL:g} of the LP: " + "; ".join(fails),
            "charitable": f"'large eps' = large enough for each instance (RR is optimal for large eps by Theorem 8): RR "
                          f"optimal on all {n} instances from eps = {later[0]:g}, and within "
                          f"{100 * (1 - s_main['RR_worst_ratio_at_largest_eps']):.3f} % of the optimum on all at eps = "
                          f"{EPS[-1]:g}"}
        return Outcome.refuted(
            f"reading-dependent: literally (large eps = {EPS[-1]:g}, our grid's end) " + "; ".join(fails) + "; under the "
            f"reading 'large enough' RR is optimal on all {n} instances from eps = {later[0]:g} ({dep})",
            counterexample=fails, kind="reading-dependent", **ev, **_regime_evidence(utility, main, s_main))
    if fails:
        return Outcome.refuted("on our Dirichlet(1) instances " + "; ".join(fails) + f" ({dep})",
                               counterexample=fails, kind="false", **ev, **_regime_evidence(utility, main, s_main))
    return Outcome.verified(f"binary optimal on all {n} instances at eps = {EPS[0]} and RR optimal on all at eps = "
                            f"{EPS[-1]} (within {OPT_TOL:g} of the LP optimum); {dep}", **ev)


def regime_certificates(utility: str, d: dict, cells) -> list[dict]:
    """The counterexamples of the regimes claim: at each (instance, eps index, mechanism) of ``cells`` (the instance
    taken exactly as in :func:`exact_values`: its binary64 values as rationals, renormalised; e^eps the rational
    binary64 of e^eps), a feasible theta of LP (11) (the engine's certified optimum) whose utility mu^T theta exceeds
    the mechanism's (randomized response or the binary mechanism on the instance's set, as theta of LP (11)), the
    utilities evaluated by the checker in arb: the mechanism is not optimal there."""
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.topics.extremal import utilities as U
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp

    from ._certified import binary_theta, rr_theta, staircase_better_certificates

    docs = []
    for i, j, m in cells:
        inst = d["instances"][i]
        k = len(inst[0])
        dists = [[Fraction(float(x)) for x in row] for row in inst]
        dists = [[x / sum(row) for x in row] for row in dists]
        e = float(d["eps"][j])
        t = Fraction(math.exp(e))
        T = frozenset(np.flatnonzero(d["sets"][i]).tolist())
        with arb_precision(30):
            mu = U.mu_kl(*dists) if utility == "kl" else U.mu_mi(dists[0])
            sol = solve_staircase_lp(k, t, mu)
        theta = rr_theta(k, t) if m == "RR" else binary_theta(k, t, T)
        kw = {"P0": dists[0], "P1": dists[1]} if utility == "kl" else {"P": dists[0]}
        docs += staircase_better_certificates(f"instance {i}, e^eps = binary64 of e^{e:g} (eps = log of it), {m} not "
                                              f"optimal", k, t, utility, sol.theta, theta, **kw)
    return docs


def _regime_evidence(utility: str, d: dict, summary: dict) -> dict:
    """Certificates of the regimes claim's counterexamples (the worst instance of each failing end), or the reason."""
    from rldp_verify.certificates.claims import built

    r = ratios(d)
    cells = []
    if not summary["binary_optimal_all_at_smallest_eps"]:
        cells.append((int(r["binary"][:, 0].argmin()), 0, "binary"))
    if not summary["RR_optimal_all_at_largest_eps"]:
        cells.append((int(r["RR"][:, -1].argmin()), len(d["eps"]) - 1, "RR"))
    return built(regime_certificates, utility, d, cells)


LIMITS_REASON = no_certificate(  # issue 23
    "a statistical reading of a figure's trend (README's statistical standard): mean log-log and log-gap slopes "
    "over 100 random instances fitted on a float grid of eps and judged against two standard errors; a fitted slope "
    "is not a fact about one instance that a certificate could re-derive")
GEOMETRIC_REASON = no_certificate(  # issue 23
    "a statistical reading (README's statistical standard): the mean paired gain (mechanism - geometric)/OPT over "
    "100 random instances against two standard errors; a sample mean is no fact about an instance that a "
    "certificate could re-evaluate")


def limits_claim(ctx, utility: str, *, n: int = INSTANCES, swap: bool = False) -> Outcome:
    """Left panel: the optimum (= binary) tends to 0 quadratically as eps -> 0 (KL), and RR tends to the
    normaliser (1 after normalising) as eps grows, exponentially for KL."""
    d = run(ctx, utility, 6, CONC, n=n, swap=swap)
    eps = d["eps"]
    rb = d["binary"] / d["norm"][:, None]
    rr = d["RR"] / d["norm"][:, None]
    # per-instance log-log slope of binary/norm between the two smallest eps (2 for a quadratic)
    s0 = np.log(rb[:, 1] / rb[:, 0]) / math.log(eps[1] / eps[0])
    slope0, slope0_se = mean_se(s0)
    # per-instance slope of log(1 - RR/norm) against eps over the last three grid points (exponential decay)
    gap = 1 - rr[:, -3:]
    ok_gap = (gap > 0).all(axis=1)
    s1 = np.polyfit(eps[-3:], np.log(gap[ok_gap].T), 1)[0] if ok_gap.any() else np.array([np.nan])
    slope1, slope1_se = mean_se(s1)
    gap_end, gap_end_se = mean_se(1 - rr[:, -1])
    increasing = bool((np.diff(rr.mean(0)) > 0).all())
    ev = {"what_the_paper_shows": PAPER_SHOWS[utility], "instances": n,
          "binary_loglog_slope_at_small_eps": {"mean": slope0, "se": slope0_se, "eps": [eps[0], eps[1]]},
          "mean_RR_over_norm": [round(float(x), 6) for x in rr.mean(0)],
          "one_minus_RR_over_norm_at_largest_eps": {"mean": gap_end, "se": gap_end_se},
          "slope_of_log(1 - RR/norm)_in_eps": {"mean": float(slope1), "se": float(slope1_se),
                                                "eps": [float(x) for x in eps[-3:]]},
          "RR_mean_increasing_in_eps": increasing,
          "judged": ("KL: binary slope within 0.1 of 2 beyond 2 SE, RR gap slope in [-1.5, -0.5] (exponential), "
                     "mean RR/norm increasing, 1 - mean < 0.01 at eps = 10; MI: the last three only"
                     if utility == "kl" else "MI: mean RR/norm increasing and 1 - mean < 0.01 at eps = 10")}
    checks = {"RR/norm increasing in eps": increasing, "RR/norm within 0.01 of 1 at eps = 10": gap_end + 2 * gap_end_se < 0.01}
    if utility == "kl":
        checks["binary quadratic at small eps (slope 2 +- 0.1)"] = abs(slope0 - 2) + 2 * slope0_se < 0.1
        checks["1 - RR/norm exponential (slope in [-1.5, -0.5])"] = slope1 - 2 * slope1_se > -1.5 and slope1 + 2 * slope1_se < -0.5
    ev["checks"] = checks
    # second route (issue 24): every value the slopes and gaps are read from (binary at the two smallest eps, RR at the
    # three largest, the normaliser), for every instance, by exact mechanisms, arb mu and mpmath
    ev["second_route (exact instance, arb mu, mpmath normaliser)"] = route_summary(
        second_route(utility, d, [(i, j) for i in range(n) for j in (0, 1, -3, -2, -1)], which=("binary", "RR"),
                     swap=swap))
    ev.update(LIMITS_REASON)
    bad = [k for k, v in checks.items() if not v]
    msg = (f"binary/norm slope {slope0:.3f} +- {2 * slope0_se:.3f} (log-log, eps {eps[0]}-{eps[1]}); 1 - RR/norm = "
           f"{gap_end:.2e} at eps = {eps[-1]}, slope of its log {float(slope1):.3f} per unit eps")
    if bad:
        return Outcome.refuted(f"fails: {', '.join(bad)}; {msg}", counterexample=bad, kind="false", **ev)
    return Outcome.verified(msg, **ev)


def geometric_claim(ctx, utility: str, *, n: int = INSTANCES, geo=None) -> Outcome:
    """'In all regimes, both the binary and randomized response mechanisms provide significant gains over the
    geometric mechanism' (left panel: averages). Paired per instance, at every eps of the grid, in units of the
    optimum (the scale of the right panel: at small eps every value/norm is near 0); a mechanism beats
    geometric at eps when the mean paired difference (value - geometric)/OPT exceeds two standard errors.
    ``geo`` (for the tests) replaces the geometric mechanism's values."""
    out = {}
    for conc in (CONC, CONC_SKEW):
        d = run(ctx, utility, 6, conc, n=n)
        g = d["geometric"] if geo is None else geo(d)
        rows = []
        for j, e in enumerate(EPS):
            row = {"eps": e}
            for m in ("binary", "RR"):
                diff = (d[m][:, j] - g[:, j]) / d["optimal"][:, j]
                mu, se = mean_se(diff)
                row[m] = "gain" if mu > 2 * se else ("loss" if mu < -2 * se else "within 2 SE")
                row[f"{m}_minus_geometric"] = round(mu, 6)
            rows.append(row)
        out[conc] = rows
    ev = {"what_the_paper_shows": PAPER_SHOWS[utility], "instances": n,
          "Dirichlet(1)": out[CONC], "Dirichlet(0.3)": out[CONC_SKEW]}
    # second route (issue 24): at every eps, the instance of the smallest (mechanism - geometric)/OPT for each mechanism
    # (Dirichlet(1)), by the certified LP (11), exact mechanisms (the truncated geometric as rationals) and arb mu
    d = run(ctx, utility, 6, CONC, n=n)
    g = d["geometric"] if geo is None else geo(d)
    cells = [(int(((d[m][:, j] - g[:, j]) / d["optimal"][:, j]).argmin()), j) for j in range(len(EPS))
             for m in ("binary", "RR")]
    ev["second_route (exact instance, certified LP (11), arb mu)"] = route_summary(second_route(utility, d, cells))
    main = out[CONC]
    losses = [(r["eps"], m) for r in main for m in ("binary", "RR") if r[m] == "loss"]
    undecided = [(r["eps"], m) for r in main for m in ("binary", "RR") if r[m] == "within 2 SE"]
    better_ok = all(r["binary"] == "gain" or r["RR"] == "gain" for r in main)
    skew_losses = [(r["eps"], m) for r in out[CONC_SKEW] for m in ("binary", "RR") if r[m] == "loss"]
    skew_und = [(r["eps"], m) for r in out[CONC_SKEW] for m in ("binary", "RR") if r[m] == "within 2 SE"]
    tail = (f"the better of the two gains at every eps: {better_ok}; with Dirichlet(0.3) instances "
            f"losses at {skew_losses[:4]}, no significant gain at {skew_und[:4]}")
    ev.update(GEOMETRIC_REASON)
    if losses:
        return Outcome.refuted(f"a mechanism falls below the geometric mechanism on average (beyond 2 SE) at "
                               f"(eps, mechanism) {losses}; {tail}", counterexample=losses, kind="false", **ev)
    if undecided:
        gains = {f"{e} {m}": next(r[f"{m}_minus_geometric"] for r in main if r["eps"] == e) for e, m in undecided}
        return Outcome.inconclusive(f"no significant gain at (eps, mechanism) {undecided} (mean (mechanism - "
                                    f"geometric)/OPT {gains}); {tail}",
                                    would_decide="the paper's instance distribution, or enough instances that the "
                                                 "mean gain at these eps leaves two standard errors (it is within them "
                                                 "at 100)", **ev)
    return Outcome.verified(f"binary and RR both above geometric beyond 2 SE at every eps in {EPS[0]}-{EPS[-1]}; {tail}",
                            **ev)


PRINTED_FLOORS = {"kl": {6: 0.70, 12: 0.55}, "mi": {6: 0.75, 12: 0.65}}
CAPTION_FLOOR = {"kl": 0.55, "mi": 0.65}   # Figures 4 / 7 captions: for every |X| in {3, 4, 6, 12}
REPLICATES = 4          # extra independent samples of 100 instances per |X| <= 6 (whole grid)
REPLICATES_K12 = 1      # for |X| = 12 (each LP has 4096 columns), on EPS_K12
EPS_K12 = (0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 10.0)


def _second_route_floor(utility: str, d: dict, b: np.ndarray) -> dict:
    """Second route (issue 24) for the smallest better-of-two ratio of a sample: at its instance and eps, both
    mechanisms' utilities over the optimum of LP (11) by the engine's certified staircase LP with arb mu
    (:func:`proofs.kairouz.sec3_4_experiments.certified_ratio`), not the batched float simplex and numpy mu; they must
    agree to 1e-6, else ERROR."""
    from .sec3_4_experiments import certified_ratio

    i, j = np.unravel_index(int(b.argmin()), b.shape)
    e = float(d["eps"][j])
    T = frozenset(np.flatnonzero(d["sets"][i]).tolist())
    c = max(certified_ratio(utility, d["instances"][i], e, "rr"), certified_ratio(utility, d["instances"][i], e, "bin", T))
    expect(abs(c - float(b[i, j])) <= 1e-6, f"|X| = {len(d['instances'][i][0])}: the smallest ratio "
                                            f"{float(b[i, j])!r} by the batched LP, {c!r} by the certified LP (routes "
                                            "disagree)")
    return {"float (batched simplex)": round(float(b[i, j]), 8), "certified": round(c, 8), "instance": int(i), "eps": e}


def floors_claim(ctx, utility: str, *, n: int = INSTANCES, ks=KS, combine=np.maximum, replicates=REPLICATES,
                 replicates_k12=REPLICATES_K12, draw_figure: bool = True) -> Outcome:
    """Figures 4 / 7: the better of binary and RR achieves at least the printed fraction of the optimum on every
    instance (text: 70 % / 55 % KL, 75 % / 65 % MI at |X| = 6 / 12; captions: 55 % / 65 % for every |X| in
    {3, 4, 6, 12}, which is how we read 'not (too) sensitive to the size of the alphabet').

    A sample of 100 instances has a random minimum: we draw independent replicate samples (seeded) and compare
    each printed floor with the range of the replicate minima: holds on every sample = VERIFIED, on none =
    REFUTED, else INCONCLUSIVE. ``combine`` (for the tests) replaces max."""
    printed = PRINTED_FLOORS[utility]
    caption = CAPTION_FLOOR[utility]
    floors: dict = {}
    per_k = {}
    used: list = []    # (|X|, run) of every sample read: the LP evidence
    second: dict = {}  # |X| -> the smallest ratio of the main sample by the certified LP (issue 24 second route)
    for conc in (CONC, CONC_SKEW):
        floors[conc] = {}
        for k in ks:
            eps = EPS_K12 if k >= 12 else EPS
            d = run(ctx, utility, k, conc, n=n, eps=eps)
            used.append((k, d))
            if conc == CONC:
                per_k[k] = d
            b = combine(d["binary"], d["RR"]) / d["optimal"]
            reps = [float(b.min())]
            if conc == CONC:
                for r in range(replicates_k12 if k >= 12 else replicates):
                    dr = run(ctx, utility, k, conc, n=n, eps=eps, rep=r + 1)
                    used.append((k, dr))
                    reps.append(float((combine(dr["binary"], dr["RR"]) / dr["optimal"]).min()))
            if conc == CONC and combine is np.maximum:   # every |X|, 12 included (about 5 s there)
                second[k] = _second_route_floor(utility, d, b)
            floors[conc][k] = {"main": float(b.min()), "replicates": reps, "argmin_eps": float(eps[int(b.min(0).argmin())]),
                               "mean_over_instances_of_min_over_eps": float(b.min(axis=1).mean())}

    def status(reps, p):
        return "holds on every sample" if min(reps) >= p else "fails on every sample" if max(reps) < p else \
            "holds on some samples only"

    verdicts = {f"|X| = {k} >= {p:.0%} (text)": status(floors[CONC][k]["replicates"], p)
                for k, p in printed.items() if k in floors[CONC]}
    per_sample_min = [min(floors[CONC][k]["replicates"][i] if i < len(floors[CONC][k]["replicates"]) else 1.0
                          for k in ks) for i in range(1 + max(replicates, replicates_k12))]
    verdicts[f"every |X| in {list(ks)} >= {caption:.0%} (caption)"] = status(per_sample_min, caption)
    means = [floors[CONC][k]["mean_over_instances_of_min_over_eps"] for k in ks]
    ev = {"what_the_paper_shows": PAPER_SHOWS[utility], "instances_per_sample": n, "|X|": list(ks),
          "printed_floors_text": printed, "caption_floor": caption, "per_floor": verdicts,
          "smallest_ratio": {f"Dirichlet({c})": {k: {"main": round(v["main"], 4), "at_eps": v["argmin_eps"],
                                                     "replicate_minima": [round(x, 4) for x in v["replicates"]],
                                                     "mean_min_over_eps": round(v["mean_over_instances_of_min_over_eps"], 4)}
                                                 for k, v in floors[c].items()} for c in floors},
          "mean_worst_ratio_by_|X|": [round(x, 4) for x in means],
          "replicates": {"|X| <= 6": f"{replicates} extra samples, eps grid {EPS[0]}-{EPS[-1]} ({len(EPS)} points)",
                         "|X| = 12": f"{replicates_k12} extra samples, eps {EPS_K12}"},
          "optimum_LP_(11)": lp_evidence(used),
          "second_route (smallest ratio, certified LP (11) in arb)": second}
    if draw_figure and set(ks) == set(KS):
        path, rel = ctx.artefact(f"figures/kairouz_fig{FIG[utility][1]}.png")
        draw_better(utility, per_k, floors, printed, path)
        ev["figure"] = rel
    desc = "; ".join(f"{name}: {v}" for name, v in verdicts.items())
    desc += ("; sample minima by |X| " + ", ".join(f"{k}: {min(floors[CONC][k]['replicates']):.3f}-"
                                                   f"{max(floors[CONC][k]['replicates']):.3f}" for k in ks)
             + "; Dirichlet(0.3) minima " + ", ".join(f"{k}: {floors[CONC_SKEW][k]['main']:.3f}" for k in ks))
    if any(v == "fails on every sample" for v in verdicts.values()):
        bad = {name: v for name, v in verdicts.items() if v == "fails on every sample"}
        return Outcome.refuted(desc, counterexample=bad, kind="false", **ev)
    if any(v == "holds on some samples only" for v in verdicts.values()):
        return Outcome.inconclusive(desc, would_decide="the paper's instance distribution and sample: the printed "
                                    "floor is a minimum over 100 random instances, which holds on some of our samples "
                                    "and not on others", **ev)
    return Outcome.verified(desc, **ev)


_READING = ("Instances: Dirichlet(1) (uniform on the simplex; the paper does not say), Dirichlet(0.3) reported for the "
            "dependence; eps grid 0.05-10 (not stated); optimum = float dual bound of LP (11) (batched simplex, "
            f"within {GAP_TOL:g} of its basic solution), 'optimal' = within "
            f"{OPT_TOL:g} of it; geometric base e^(-eps/(k-1)); binary on T = {{P0 >= P1}} (KL) or argmin |P(A) - 1/2| (MI)")
_FLOORS_READING = (_READING + f"; each printed floor is judged against the minima of {REPLICATES + 1} independent "
                   f"samples of 100 instances ({REPLICATES_K12 + 1} at |X| = 12, on eps {EPS_K12}): holds on every sample = "
                   "VERIFIED, on none = REFUTED, else INCONCLUSIVE; the minimum over eps is over the grid (a finer "
                   "grid can only lower it); 'not (too) sensitive to |X|' is read as the caption's floor holding for "
                   "every |X| in {3, 4, 6, 12}")
_COMMON = dict(paper=PAPER, method=(Method.HIGH_PRECISION, Method.PROPERTY), slow=True)


@claim(id="kairouz.fig3.regimes", source="Sec. 3.4, Figure 3 (right) and the paragraph after it",
       statement="In all 100 instances (|X| = 6), the binary mechanism is optimal for small eps and randomized response "
                 "is optimal for large eps (KL divergence).",
       hypotheses=("'small' = the smallest eps of our grid (0.05), 'large' = the largest (10, the paper's low-privacy "
                   "point of Figure 5)",), reading=_READING, **_COMMON)
def check_fig3_regimes(ctx):
    return regimes_claim(ctx, "kl")


@claim(id="kairouz.fig3.limits", source="Sec. 3.4, Figure 3 (left) and the paragraph before it",
       statement="The optimal normalised divergence D_kl(M0||M1)/D_kl(P0||P1) tends to 0 quadratically in eps "
                 "(achieved by the binary mechanism) and to 1 exponentially in eps (achieved by randomized response).",
       reading=_READING + "; quadratic = per-instance log-log slope of binary/D_kl(P0||P1) at eps 0.05-0.1 within 0.1 "
               "of 2; exponential = slope of log(1 - RR/D_kl(P0||P1)) over eps 6-10 in [-1.5, -0.5]", **_COMMON)
def check_fig3_limits(ctx):
    return limits_claim(ctx, "kl")


@claim(id="kairouz.fig3.beats-geometric", source="Sec. 3.4, Figure 3 (left) and the paragraph before it",
       statement="In all regimes, both the binary and the randomized response mechanisms provide significant gains over "
                 "the geometric mechanism (average normalised KL divergence, |X| = 6).",
       reading=_READING + "; 'in all regimes' = at every eps of the grid; 'gain' = the mean over instances of "
               "(mechanism - geometric)/OPT exceeds two standard errors", **_COMMON)
def check_fig3_geometric(ctx):
    return geometric_claim(ctx, "kl")


@claim(id="kairouz.fig4.better-of-two", source="Sec. 3.4, Figure 4 and the paragraph before it",
       statement="The better of the binary and randomized response mechanisms achieves at least 70 % (|X| = 6) and 55 % "
                 "(|X| = 12) of the optimal KL divergence on all 100 instances; for every |X| in {3, 4, 6, 12} at least "
                 "55 % (caption), so the strategy is not too sensitive to the size of the alphabet.",
       reading=_FLOORS_READING, **_COMMON)
def check_fig4(ctx):
    return floors_claim(ctx, "kl")


@claim(id="kairouz.fig6.regimes", source="Sec. 4.4, Figure 6 (right) and the paragraph before it",
       statement="In all 100 instances (|X| = 6), the binary mechanism is optimal for small eps and randomized response "
                 "is optimal for large eps (mutual information).",
       hypotheses=("'small' = the smallest eps of our grid (0.05), 'large' = the largest (10, the paper's low-privacy "
                   "point of Figure 8)",), reading=_READING, **_COMMON)
def check_fig6_regimes(ctx):
    return regimes_claim(ctx, "mi")


@claim(id="kairouz.fig6.limits", source="Sec. 4.4, Figure 6 (left) and the paragraph before it",
       statement="In the low-privacy regime randomized response achieves the optimal normalised mutual information "
                 "I(X;Y)/H(X), which converges to one.",
       reading=_READING + "; judged: mean RR/H(X) increasing along the grid and within 0.01 of 1 at eps = 10 "
               "(beyond 2 SE)", **_COMMON)
def check_fig6_limits(ctx):
    return limits_claim(ctx, "mi")


@claim(id="kairouz.fig6.beats-geometric", source="Sec. 4.4, Figure 6 (left) and the paragraph before it",
       statement="In all regimes, both the binary and the randomized response mechanisms significantly improve over the "
                 "geometric mechanism (average normalised mutual information, |X| = 6).",
       reading=_READING + "; 'in all regimes' = at every eps of the grid; 'gain' = the mean over instances of "
               "(mechanism - geometric)/OPT exceeds two standard errors", **_COMMON)
def check_fig6_geometric(ctx):
    return geometric_claim(ctx, "mi")


@claim(id="kairouz.fig7.better-of-two", source="Sec. 4.4, Figure 7 and the paragraph before it",
       statement="The better of the binary and randomized response mechanisms achieves at least 75 % (|X| = 6) and 65 % "
                 "(|X| = 12) of the maximal mutual information on all 100 instances; for every |X| in {3, 4, 6, 12} at "
                 "least 65 % (caption), so it is not sensitive to the size of the alphabet.",
       reading=_FLOORS_READING, **_COMMON)
def check_fig7(ctx):
    return floors_claim(ctx, "mi")
