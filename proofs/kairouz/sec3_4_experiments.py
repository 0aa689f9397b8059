"""Numerical experiments of Sec. 3.4 and 4.4 (Figures 3-8) and the geometric mechanism used there."""

from fractions import Fraction

import numpy as np
from scipy.optimize import linprog

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.extremal.utilities import is_ldp, is_stochastic

from .._consistency import expect
from ._common import PAPER

#: how far the float LP's ratio may sit from the certified (arb) one
ROUTE_TOL = 1e-6


def certified_ratio(kind: str, dists, e: float, which: str, T=None) -> float:
    """Second route (issue 24) for one ratio of Figures 3-8: the named mechanism's utility over the optimum of LP (11)
    by the engine's certified staircase LP with arb mu (rldp_verify.topics.extremal), not the float HiGHS LP and numpy
    mu of the claim. The instance is taken exactly (the binary64 values as rationals); e^eps likewise."""
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.topics.extremal.staircase import solve_staircase_lp
    from rldp_verify.topics.extremal.utilities import (
        binary_mechanism_for_set,
        mu_kl,
        mu_mi,
        randomized_response,
        utility,
    )

    k = len(dists[0])
    exact_d = [[Fraction(float(x)) for x in d] for d in dists]
    exact_d = [[x / sum(d) for x in d] for d in exact_d]
    t = Fraction(float(np.exp(e)))
    with arb_precision(30):
        mu = mu_kl(*exact_d) if kind == "kl" else mu_mi(exact_d[0])
        mech = randomized_response(k, t) if which == "rr" else binary_mechanism_for_set(T, k, t)
        return float((utility(mech, mu) / solve_staircase_lp(k, t, mu).value).mid())


def geometric_truncated(k, alpha):
    """Q(y|x) proportional to alpha^|y-x| on Z, with the mass beyond 1 and k moved to the end points."""
    alpha = Fraction(alpha)
    c = (1 - alpha) / (1 + alpha)
    Q = []
    for x in range(k):
        row = [c * alpha ** abs(y - x) for y in range(k)]
        row[0] += c * alpha ** (x + 1) / (1 - alpha)      # sum_{y < 0} c alpha^(x - y)
        row[-1] += c * alpha ** (k - x) / (1 - alpha)     # sum_{y > k-1} c alpha^(y - x)
        Q.append(row)
    return Q


@claim(
    id="kairouz.sec3_4.geometric-mechanism",
    paper=PAPER,
    source="Sec. 3.4, first paragraph (geometric noise mechanism)",
    statement="Q(y|x) = ((1 - eps^{1/(k-1)})/(1 + eps^{1/(k-1)})) eps^{|y-x|/(k-1)} for y in Z, truncated at 1 and k, "
              "is an eps-LDP mechanism on {1, ..., k}.",
    method=Method.EXACT,
    reading="the printed base eps is read as e^-eps (alpha = e^{-eps/(k-1)}); truncation moves the tail mass to the end points",
)
def check_geo(ctx):
    k = 6
    printed_prefactor = (1 - 2 ** (1 / (k - 1))) / (1 + 2 ** (1 / (k - 1)))  # eps = 2 as printed
    ok, mechs = [], []
    for k_, alpha in ((6, Fraction(1, 2)), (3, Fraction(2, 3)), (4, Fraction(1, 3))):
        t = (1 / alpha) ** (k_ - 1)  # e^eps with alpha = e^{-eps/(k-1)}
        Q = geometric_truncated(k_, alpha)
        mechs.append((k_, alpha, t, Q))
        ok.append({"k": k_, "alpha": str(alpha), "e^eps": str(t), "stochastic": is_stochastic(Q), "eps_ldp": is_ldp(Q, t),
                   "tight": any(Q[i][y] == t * Q[j][y] for y in range(k_) for i in range(k_) for j in range(k_))})
    if printed_prefactor < 0 and all(r["stochastic"] and r["eps_ldp"] for r in ok):
        return Outcome.refuted(
            "as printed the formula is not a distribution for eps > 1: with eps = 2, k = 6 the prefactor "
            f"(1 - 2^(1/5))/(1 + 2^(1/5)) = {printed_prefactor:.6f} < 0; with base e^-eps (alpha = e^{{-eps/(k-1)}}) the "
            "truncated geometric mechanism is exactly eps-LDP (checked exactly, and the bound e^eps is attained)",
            counterexample={"eps": 2, "k": 6, "prefactor": printed_prefactor}, corrected_reading=ok, kind="misprint",
            **_certificates(mechs), certificate_covers="the printed prefactor's sign, and the corrected reading on "
                                                       "the 3 instances: each truncated geometric Q stochastic and "
                                                       "exactly e^eps-LDP with e^eps attained (eps-LDP audits "
                                                       "re-derived from Q's rational entries), its entries equal to "
                                                       "c alpha^|y-x| plus the tails' geometric sums at the end "
                                                       "points, c = (1 - alpha)/(1 + alpha), written from (k, alpha) "
                                                       "(exact)")
    return Outcome.inconclusive("unexpected", rows=ok,
                                would_decide="a prefactor reading that matches every row (none of ours does)")


def _certificates(mechs) -> dict:
    """The printed prefactor (1 - 2^(1/5))/(1 + 2^(1/5)) (eps = 2, k = 6) is negative (``rigorous-value``), and per
    corrected instance (k, alpha, e^eps = t, Q[x][y]): Q's entries equal the truncated formula written from (k, alpha)
    (exact), and an eps-LDP ``audit`` of Q at e^eps = t with the level t stated (the checker recomputes the column
    sums and the ratios from Q's entries: stochastic, level exactly t)."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.exact_gaps import entries_equal_certificate, ldp_audit_certificate, transpose
    from rldp_verify.certificates.value import value_certificate

    root = ["exp", ["/", ["log", 2], 5]]   # 2^(1/5)

    def formula(k, y, x):   # c alpha^|y-x|, plus the tails sum_{y' < 0} / sum_{y' > k-1} at the end points
        c = ["/", ["-", 1, "$a"], ["+", 1, "$a"]]
        e = ["*", c, ["pow", "$a", abs(y - x)]]
        tails = ([["/", ["*", c, ["pow", "$a", x + 1]], ["-", 1, "$a"]]] if y == 0 else []) + (
            [["/", ["*", c, ["pow", "$a", k - x]], ["-", 1, "$a"]]] if y == k - 1 else [])
        return ["+", e, *tails]
    return built(lambda: [value_certificate("the printed prefactor (1 - 2^(1/5))/(1 + 2^(1/5)) at eps = 2, k = 6",
                                            ["/", ["-", 1, root], ["+", 1, root]], upper=0, strict=True)] + [
        entries_equal_certificate(f"truncated geometric mechanism, k = {k}, alpha = {a}: Q(y|x) from the formula",
                                  [(Q[x][y], ["let", [["a", a]], formula(k, y, x)]) for x in range(k)
                                   for y in range(k)]) for k, a, _, Q in mechs] + [
        ldp_audit_certificate(f"truncated geometric mechanism, k = {k}, alpha = {a}: exactly e^eps-LDP, e^eps = {t}",
                              transpose(Q), t, level=t) for k, a, t, Q in mechs])


def _S(k, t):
    j = np.arange(2**k)
    bits = (j[None, :] >> (k - 1 - np.arange(k))[:, None]) & 1
    return np.where(bits == 1, t, 1.0)


def _opt(mu, S):
    r = linprog(-mu, A_eq=S, b_eq=np.ones(S.shape[0]), bounds=(0, None), method="highs")
    return -r.fun


def _kl_mu(P0, P1, S):
    a, b = P0 @ S, P1 @ S
    return a * np.log(a / b)


def _mi_mu(P, S):
    m = P @ S
    return (P[:, None] * S * np.log(S / m)).sum(0)


def _bin_set_ht(P0, P1):
    return P0 >= P1


def _value(mu_fn, Q):
    return float(sum(mu_fn(Q[:, [y]])[0] for y in range(Q.shape[1])))


@claim(
    id="kairouz.fig3-8.experiments",
    paper=PAPER,
    source="Sec. 3.4 (Figures 3-4) and Sec. 4.4 (Figures 6-7): percentages of the optimum",
    statement="Over 100 random instances with |X| = 6: max(binary, RR) achieves at least 70% of the optimal KL "
              "divergence and at least 75% of the optimal mutual information; RR can fall to 10% (KL) / 35% (MI) and "
              "binary to 25% (KL) / 40% (MI) of the optimum.",
    method=Method.HIGH_PRECISION,
    slow=True,
    reading="the instance distribution is not specified; we draw P0, P1, P uniformly on the simplex (seeded) and use "
            "a float HiGHS LP (figures are empirical, so no certification)",
)
def check_fig(ctx):
    rng = ctx.np_rng("fig")
    k = 6
    eps_grid = [0.1, 0.3, 1.0, 2.0, 3.0, 5.0, 8.0]
    worst = {"kl_mixed": 1.0, "kl_rr": 1.0, "kl_bin": 1.0, "mi_mixed": 1.0, "mi_rr": 1.0, "mi_bin": 1.0}
    where: dict = {}   # key -> the instance of the worst ratio (for the second route)

    def note(key, r, inst):
        if r < worst[key]:
            worst[key] = r
            where[key] = (r, inst)
    for _ in range(100):
        P0, P1, P = rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k)), rng.dirichlet(np.ones(k))
        for e in eps_grid:
            t = float(np.exp(e))
            S = _S(k, t)
            rr = (np.ones((k, k)) + (t - 1) * np.eye(k)) / (t + k - 1)
            Tb = _bin_set_ht(P0, P1)
            qb = np.where(Tb[:, None], np.array([[t, 1.0]]), np.array([[1.0, t]])) / (1 + t)
            def kl(Q):
                return _value(lambda c: _kl_mu(P0, P1, c), Q)
            o = _opt(_kl_mu(P0, P1, S), S)
            r_rr, r_b = kl(rr) / o, kl(qb) / o
            note("kl_rr", r_rr, ("kl", (P0, P1), e, "rr", None))
            note("kl_bin", r_b, ("kl", (P0, P1), e, "bin", frozenset(np.flatnonzero(Tb).tolist())))
            worst["kl_mixed"] = min(worst["kl_mixed"], max(r_rr, r_b))
            # MI: binary on T = argmin |P(A) - 1/2|
            best = min(range(2**k), key=lambda j: abs(sum(P[i] for i in range(k) if (j >> i) & 1) - 0.5))
            Tm = np.array([(best >> i) & 1 for i in range(k)], dtype=bool)
            qm = np.where(Tm[:, None], np.array([[t, 1.0]]), np.array([[1.0, t]])) / (1 + t)
            def mi(Q):
                return _value(lambda c: _mi_mu(P, c), Q)
            o = _opt(_mi_mu(P, S), S)
            r_rr, r_b = mi(rr) / o, mi(qm) / o
            note("mi_rr", r_rr, ("mi", (P,), e, "rr", None))
            note("mi_bin", r_b, ("mi", (P,), e, "bin", frozenset(np.flatnonzero(Tm).tolist())))
            worst["mi_mixed"] = min(worst["mi_mixed"], max(r_rr, r_b))
    routes = {}
    for key, (r, (kind, dists, e, which, T)) in where.items():   # the worst RR and binary ratios, certified
        c = certified_ratio(kind, dists, e, which, T)
        routes[key] = {"float LP": round(r, 8), "certified LP (arb)": round(c, 8), "eps": e}
        expect(abs(c - r) <= ROUTE_TOL, f"{key}: the float LP's worst ratio {r!r} and the certified LP's {c!r} differ "
                                        "(routes disagree)")
    printed = {"kl_mixed": 0.70, "mi_mixed": 0.75, "kl_rr": 0.10, "mi_rr": 0.35, "kl_bin": 0.25, "mi_bin": 0.40}
    return Outcome.inconclusive(
        "empirical figures on unspecified random instances cannot be reproduced exactly; our seeded re-run (k = 6, "
        f"100 instances, eps in {eps_grid}) gives worst ratios " + ", ".join(f"{k_} {v:.3f} (printed {printed[k_]:.2f})"
                                                                          for k_, v in worst.items()),
        ours={k_: round(v, 4) for k_, v in worst.items()}, printed=printed, second_route=routes,
        no_certificate="empirical ratios on random instances read from float LPs (an INCONCLUSIVE verdict); the "
                       "worst ones are re-derived by the certified LP (11) in the second route",
        not_done="|X| = 3, 4, 12 panels of Figures 4 and 7 not re-run",
        would_decide="the paper's instances (or the distribution and seed it drew them from): then every ratio of "
                     "Figures 3-8 is a deterministic LP value that can be recomputed and compared")
