"""Sec. 3.5, Figure 5 and Sec. 4.5, Figure 8 (issue 12): at eps = 0.1 the binary mechanism and at eps = 10
randomized response achieve the optimum over 100 random instances (|X| = 6), with the scalings (22)-(23)
and (31)-(32).

What the paper shows: for 100 random (P0, P1) (Figure 5, KL divergence) or P (Figure 8, mutual information)
on |X| = 6, the utility of the optimal mechanism (the binary one at eps = 0.1, randomized response at eps =
10) against ||P0 - P1||_TV and D_kl(P0||P1), resp. P(T)P(T^c) and H(X), with the geometric mechanism below.
We recompute the optimality part exactly: for each instance, Kairouz et al.'s staircase LP (11) certifies
(arb reduced costs) whether the binary mechanism (eps = 0.1) and randomized response (eps = 10) are
optimal. The paper does not say how the instances were drawn: we draw them uniformly on the simplex
(Dirichlet(1, ..., 1)), rounded to rationals with denominator 1000 (positive entries), and report how the
conclusion depends on that by also drawing from Dirichlet(0.3) (more skewed instances). The scalings (22)-(23) and (31)-(32) that the figures plot are not judged
here: the expansions are claims of their own (kairouz.cor9.*, kairouz.cor10.*, kairouz.cor15.*,
kairouz.eq32.*).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.extremal.thresholds import OPTIMAL, SUBOPTIMAL, binary_status, rr_status, t_from_eps
from rldp_verify.topics.extremal.utilities import binary_set_hypothesis, binary_set_mi, mu_kl, mu_mi

from .._consistency import expect
from ._common import PAPER

K = 6
INSTANCES = 100


def draw(np_rng, conc: float, denom: int = 1000):
    while True:
        w = np_rng.dirichlet([conc] * K)
        v = [max(1, int(round(x * denom))) for x in w]
        s = sum(v)
        if len(set(v)) > 1:
            return [Fraction(x, s) for x in v]


#: how far the second route (float interior-point LP) may sit from the certified answer, relative to the optimum
ROUTE_TOL = 1e-6


def second_route_ratio(utility: str, dists, name: str, T, swap: bool = False) -> float:
    """Second route (issue 24) for the named mechanism's utility over the optimum of LP (11): mu evaluated in binary64
    by its own formula (KL: a log(a/b) with a = P0.c, b = P1.c; MI: sum_i P_i c_i log(c_i / P.c)) on the 2^k pattern
    columns, and the LP solved by scipy's interior-point method (HiGHS IPM), not the engine's certified simplex basis.
    Errs by the IPM's tolerance (about 1e-8 of the optimum)."""
    import numpy as np
    from scipy.optimize import linprog

    t = float(t_from_eps("0.1" if name.endswith("0.1") else "10"))
    cols = np.array([[t if (j >> (K - 1 - i)) & 1 else 1.0 for i in range(K)] for j in range(2 ** K)])
    if utility == "kl":
        P0, P1 = (np.array([float(x) for x in d]) for d in dists)
        a, b = cols @ P0, cols @ P1
        mu = a * np.log(a / b)
    else:
        P = np.array([float(x) for x in dists[0]])
        py = cols @ P
        mu = np.array([float(np.sum(P * c * np.log(c / m))) for c, m in zip(cols, py, strict=True)])
    res = linprog(-mu, A_eq=cols.T, b_eq=np.ones(K), bounds=(0, None), method="highs-ipm")
    expect(res.status == 0, f"the second route's LP (11) did not solve: {res.message}")
    rr = name.startswith("RR") != swap
    if rr:
        named = sum(mu[1 << (K - 1 - i)] for i in range(K)) / (t + K - 1)
    else:
        jT = sum(1 << (K - 1 - i) for i in T)
        named = (mu[jT] + mu[(2 ** K - 1) ^ jT]) / (1 + t)
    return float(named / -res.fun)


def _status(fn, *args):
    st = fn(*args)
    return st.status, st


def run(ctx, utility: str, conc: float, *, low=True, high=True, n=INSTANCES, swap=False):
    """Optimality of binary at eps = 0.1 and RR at eps = 10 on ``n`` instances. ``swap`` (a wrong variant,
    for the tests) asks for RR at 0.1 and binary at 10."""
    rng = ctx.np_rng(f"kairouz.fig.{utility}.{conc}")
    t_lo, t_hi = t_from_eps("0.1"), t_from_eps("10")
    counts = {"binary optimal at 0.1": 0, "RR optimal at 10": 0, "undecided": 0}
    bad = []
    for i in range(n):
        if utility == "kl":
            P0, P1 = draw(rng, conc), draw(rng, conc)
            if P0 == P1:
                continue
            mu, T, dists = mu_kl(P0, P1), binary_set_hypothesis(P0, P1), (P0, P1)
            inst = {"P0": [str(x) for x in P0], "P1": [str(x) for x in P1]}
        else:
            P = draw(rng, conc)
            mu, T, dists = mu_mi(P), binary_set_mi(P), (P,)
            inst = {"P": [str(x) for x in P]}
        checks = []
        if low:
            checks.append(("binary optimal at 0.1", (lambda: rr_status(mu, K, t_lo, dps=ctx.dps)) if swap
                           else (lambda: binary_status(mu, K, t_lo, T, dps=ctx.dps))))
        if high:
            checks.append(("RR optimal at 10", (lambda: binary_status(mu, K, t_hi, T, dps=ctx.dps)) if swap
                           else (lambda: rr_status(mu, K, t_hi, dps=ctx.dps))))
        for name, fn in checks:
            st = fn()
            second = second_route_ratio(utility, dists, name, T, swap)
            if st.status == OPTIMAL:
                counts[name] += 1
                expect(second >= 1 - ROUTE_TOL, f"instance {i}, {name}: certified optimal, but the second route's "
                                                f"named/OPT = {second!r} (routes disagree)")
            elif st.status == SUBOPTIMAL:
                ratio = _ratio_to_optimum(mu, T, name, swap, ctx.dps)
                expect(abs(ratio - second) <= ROUTE_TOL, f"instance {i}, {name}: named/OPT = {ratio!r} certified, "
                                                         f"{second!r} by the second route (routes disagree)")
                bad.append({"instance": i, "which": name, **inst,
                            **{k: v for k, v in st.detail.items() if k in ("BIN", "OPT", "improving_pattern", "reduced_cost")},
                            "named/OPT": ratio})
            else:
                counts["undecided"] += 1
    return counts, bad


def _ratio_to_optimum(mu, T, name: str, swap: bool, dps: int) -> float:
    """The named mechanism's utility over the LP (11) optimum (the midpoint of arb enclosures; a size, not a verdict)."""
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp
    from rldp_verify.topics.extremal.utilities import binary_mechanism_for_set, randomized_response, utility

    t = t_from_eps("0.1" if name.endswith("0.1") else "10")
    rr = name.startswith("RR") != swap
    with arb_precision(dps):
        mech = randomized_response(K, t) if rr else binary_mechanism_for_set(T, K, t)
        return float((utility(mech, mu) / solve_staircase_lp(K, t, mu).value).mid())


def not_optimal_certificates(utility: str, case: dict, swap: bool = False, dps: int = 30) -> list[dict]:
    """The counterexample ``case`` (an entry of :func:`run`'s list: the exact instance and which named mechanism) as
    certificates: a feasible theta of LP (11) (the engine's certified optimum) whose utility mu^T theta exceeds the
    named mechanism's (randomized response, or the binary mechanism on the instance's set, as theta of LP (11)) at the
    claim's exact e^eps, both utilities evaluated by the checker in arb."""
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp

    from ._certified import binary_theta, rr_theta, staircase_better_certificates

    name = case["which"]
    t = t_from_eps("0.1" if name.endswith("0.1") else "10")
    if utility == "kl":
        P0, P1 = [Fraction(x) for x in case["P0"]], [Fraction(x) for x in case["P1"]]
        mu, T, kw = mu_kl(P0, P1), binary_set_hypothesis(P0, P1), {"P0": P0, "P1": P1}
    else:
        P = [Fraction(x) for x in case["P"]]
        mu, T, kw = mu_mi(P), binary_set_mi(P), {"P": P}
    rr = name.startswith("RR") != swap
    with arb_precision(dps):
        sol = solve_staircase_lp(K, t, mu)
    theta = rr_theta(K, t) if rr else binary_theta(K, t, T)
    return staircase_better_certificates(f"instance {case['instance']}, e^eps = {t}: {'RR' if rr else 'binary'} not "
                                         "optimal", K, t, utility, sol.theta, theta, **kw)


def _not_optimal_evidence(utility: str, case: dict, swap: bool, dps: int) -> dict:
    from rldp_verify.certificates.claims import built

    return built(not_optimal_certificates, utility, case, swap, dps)


#: a mechanism within this fraction of the optimum on every instance is optimal to the figures' resolution
FIGURE_RESOLUTION = 1e-3


def figure_claim(ctx, utility: str, swap=False, n=INSTANCES) -> Outcome:
    main, bad = run(ctx, utility, 1.0, swap=swap, n=n)
    skew, bad_skew = run(ctx, utility, 0.3, swap=swap, n=n)
    ev = {"instances": n, "|X|": K, "Dirichlet(1)": main, "Dirichlet(0.3)": skew,
          "e^eps": {"0.1": str(t_from_eps("0.1")), "10": str(t_from_eps("10"))},
          "suboptimal_cases_Dirichlet(0.3)": bad_skew[:3]}
    dep = (f"with Dirichlet(0.3) instances: {skew['binary optimal at 0.1']} / {skew['RR optimal at 10']} optimal, "
           f"{len(bad_skew)} suboptimal")
    if bad:
        # the paper does not state its instance distribution: a failure on uniform instances that no instance of the
        # skewed distribution repeats depends on that unstated choice (issue 24: the charitable kind)
        if not bad_skew:
            ev["readings"] = {
                "literal": f"every instance uniform on the simplex (Dirichlet(1)): {len(bad)} of {n} suboptimal",
                "charitable": "the figure's instances, whose distribution the paper does not state: with Dirichlet(0.3) "
                              f"instances the named mechanism is optimal in every decided case ({dep})"}
            return Outcome.refuted(f"missing hypothesis (the instance distribution): on {len(bad)} of {n} Dirichlet(1) "
                                   f"instances the mechanism the figure names is not optimal, on none of the Dirichlet(0.3) "
                                   f"instances ({dep})", counterexample=bad[:3], **ev, kind="missing-hypothesis",
                               **_not_optimal_evidence(utility, bad[0], swap, ctx.dps))
        worst = min(b["named/OPT"] for b in bad)
        ev["worst named/OPT"] = {"Dirichlet(1)": worst, "Dirichlet(0.3)": min(b["named/OPT"] for b in bad_skew)}
        if worst >= 1 - FIGURE_RESOLUTION:
            # issue 24: 'achieves the optimal' read literally (exactly optimal) against 'optimal to the figure's
            # resolution' (the figure plots the utility against D_kl(P0||P1) or H(X): a gap of 0.1 % is invisible)
            ev["readings"] = {
                "literal": f"exactly optimal at the named eps: not on {len(bad)} of {n} Dirichlet(1) instances",
                "charitable": f"optimal to the figure's resolution: the named mechanism is within {100 * (1 - worst):.3f} % "
                              f"of the optimum on every Dirichlet(1) instance (Dirichlet(0.3): within "
                              f"{100 * (1 - ev['worst named/OPT']['Dirichlet(0.3)']):.3f} %)"}
            return Outcome.refuted(
                f"reading-dependent: on {len(bad)} of {n} Dirichlet(1) instances the mechanism the figure names is not "
                f"exactly optimal, but within {100 * (1 - worst):.3f} % of the optimum on all ({dep})",
                counterexample=bad[:3], **ev, kind="reading-dependent",
                               **_not_optimal_evidence(utility, bad[0], swap, ctx.dps))
        return Outcome.refuted(f"on {len(bad)} of {n} Dirichlet(1) instances the mechanism the figure names is not optimal "
                               f"({dep})", counterexample=bad[:3], **ev, kind="false",
                               **_not_optimal_evidence(utility, bad[0], swap, ctx.dps))
    if main["undecided"]:
        return Outcome.inconclusive(f"{main['undecided']} cases undecided at 30 digits ({dep})", **ev)
    return Outcome.verified(f"binary optimal at eps = 0.1 and randomized response optimal at eps = 10 on all {n} "
                            f"Dirichlet(1) instances, certified by the staircase LP ({dep})", **ev)


_READING = ("instances uniform on the simplex (Dirichlet(1)), rationals with denominator 1000; optimality certified "
            "by LP (11) with arb reduced costs; e^eps rounded down to a multiple of 2^-40; Dirichlet(0.3) reported "
            "for the dependence on the unstated distribution of instances; the scaling lines are not judged here")


@claim(id="kairouz.fig5.optimal-mechanisms-kl", paper=PAPER, source="Sec. 3.5, Figure 5 and the sentence before it",
       statement="For 100 random (P0, P1) on |X| = 6, the binary mechanism achieves the maximal D_kl(M0||M1) at eps = 0.1 "
                 "and randomized response at eps = 10.",
       hypotheses=("|X| = 6, 100 instances (as for Figure 3)",), method=(Method.EXACT, Method.PROPERTY),
       reading=_READING + f"; a mechanism within {FIGURE_RESOLUTION:g} of the optimum on every instance is optimal to the "
               "figure's resolution (the charitable reading)", slow=True)
def _fig5(ctx):
    return figure_claim(ctx, "kl")


@claim(id="kairouz.fig8.optimal-mechanisms-mi", paper=PAPER, source="Sec. 4.5, Figure 8 and the paragraph before it",
       statement="For 100 random P on |X| = 6, the binary mechanism achieves the maximal I(X;Y) at eps = 0.1 and "
                 "randomized response at eps = 10.",
       hypotheses=("|X| = 6, 100 instances",), method=(Method.EXACT, Method.PROPERTY), reading=_READING, slow=True)
def _fig8(ctx):
    return figure_claim(ctx, "mi")
