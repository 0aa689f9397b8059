"""Sec. 1, contributions (issue 24: a statement not yet indexed): 'while IR can incorporate any LDP mechanism, we show
that it is optimal to use randomized response' -- unqualified there; Sec. 7 argues it only 'when eps is large
enough'."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.thresholds import OPTIMAL, SUBOPTIMAL, rr_status, t_from_eps
from rldp_verify.topics.extremal.utilities import (
    binary_mechanism_for_set,
    binary_set_mi,
    mu_mi,
    randomized_response,
    utility,
)

from .._routes import agree, mi_by_entropies
from ._sec34 import PAPER

#: P_S of the check (|S| = 3; with |S| = 2 randomized response is the binary mechanism)
P_S = (Fraction(1, 2), Fraction(1, 3), Fraction(1, 6))


def _binary_beats_rr(k: int, t: Fraction, t_low: Fraction) -> list[dict]:
    """Issue 23: the ``rigorous-value`` certificate of the counterexample, I(S; binary(S)) - I(S; RR(S)) > 0 at the
    rational e^eps = t, both mutual informations written out from the channels' exact entries (rows y); and RR's
    optimality at e^eps = t_low (its reduced costs in LP (11), rldp_verify.certificates.staircase)."""
    from rldp_verify.certificates.staircase import rr_status_certificate
    from rldp_verify.certificates.value import mutual_information_expr, value_certificate

    def by_output(Q):   # Q[x][y] -> Q[y][x]
        return [list(col) for col in zip(*Q, strict=True)]

    gap = ["-", mutual_information_expr(by_output(binary_mechanism_for_set(binary_set_mi(P_S), k, t)), P_S),
           mutual_information_expr(by_output(randomized_response(k, t)), P_S)]
    return [value_certificate(f"I(S; binary(S)) > I(S; RR(S)) for P_S = (1/2, 1/3, 1/6), e^eps = {t}", gap,
                              lower=0, strict=True),
            *rr_status_certificate(f"RR, P_S = (1/2, 1/3, 1/6), e^eps = {t_low}", P_S, t_low, True)]


@claim(
    id="rldp.sec1.ir-randomized-response-optimal",
    paper=PAPER,
    source="Sec. 1, contributions ('while IR can incorporate any LDP mechanism, we show that it is optimal to use "
           "randomized response [19]'); Sec. 7 ('the R_1 that maximizes this is GRR when eps is large enough')",
    statement="For IR, randomized response (GRR) maximises I_P(R_1(S); S) over the eps-LDP mechanisms R_1, at every eps.",
    method=(Method.HIGH_PRECISION, Method.EXACT),
    reading="the term I_P(R_1(S); S) of Theorem 6's utility, maximised over eps-LDP R_1 by Kairouz et al.'s staircase "
            "LP (11) with arb reduced costs; P_S = (1/2, 1/3, 1/6); eps = 0.1 (high privacy) and 5 (low privacy)",
)
def check_rr_optimal(ctx, eps_small: str = "0.1"):
    """``eps_small="5"`` is a wrong variant (only the low-privacy regime tested): tests expect VERIFIED then."""
    k, mu = len(P_S), mu_mi(P_S)
    rows = {}
    with arb_precision(ctx.dps):
        for e in (eps_small, "5"):
            t = t_from_eps(e)
            st = rr_status(mu, k, t, dps=ctx.dps)
            Q_rr, Q_b = randomized_response(k, t), binary_mechanism_for_set(binary_set_mi(P_S), k, t)
            rr, b = utility(Q_rr, mu), utility(Q_b, mu)
            for name, Q, v in (("randomized response", Q_rr, rr), ("binary", Q_b, b)):   # second route: H(Y) - H(Y|X)
                agree(f"I(S; {name}(S)) at eps = {e}", float(v.mid()),
                      mi_by_entropies([list(col) for col in zip(*Q, strict=True)], P_S), 1e-12)
            rows[e] = {"status of randomized response": st.status, "I(RR)": rr.str(12), "I(binary)": b.str(12),
                       "binary beats RR (certified)": bool(b > rr)}
    low = rows["5"]["status of randomized response"]
    high = rows[eps_small]
    if high["status of randomized response"] == SUBOPTIMAL and low == OPTIMAL:
        from rldp_verify.certificates.claims import built

        return Outcome.refuted(
            f"missing hypothesis (eps large enough, as Sec. 7 says): at eps = {eps_small} randomized response is not the "
            f"best eps-LDP R_1 for P_S = (1/2, 1/3, 1/6) (the binary mechanism gives I = {high['I(binary)']} > "
            f"{high['I(RR)']}); at eps = 5 it is optimal (certified)",
            counterexample={"P_S": [str(p) for p in P_S], "eps": eps_small, **high}, kind="missing-hypothesis",
            rows=rows, **built(_binary_beats_rr, k, t_from_eps(eps_small), t_from_eps("5")))
    if all(r["status of randomized response"] == OPTIMAL for r in rows.values()):
        return Outcome.verified("randomized response certified optimal at every tested eps", rows=rows)
    return Outcome.inconclusive("randomized response's optimality not decided at a tested eps", rows=rows,
                                would_decide="a certified LP (11) optimum at the undecided eps")
