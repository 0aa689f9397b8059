"""Theorem 13: the binary mechanism approximates the optimal mutual information."""

from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.extremal.staircase import solve_staircase_lp
from rldp_verify.topics.extremal.utilities import (
    binary_mechanism_for_set,
    binary_set_mi,
    mu_mi,
    utility,
)

from ._certified import staircase_bound_certificate, utility_expr
from ._common import PAPER, fs, generic_dist, rand_dist


@claim(
    id="kairouz.thm13.binary-mi-approximation",
    paper=PAPER,
    source="Sec. 4.2, Theorem 13; proof Sec. 9.2, eq. (117)",
    statement="For eps <= 1 and any P, OPT <= (1 + e^eps) BIN (binary mechanism (29) for mutual information).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_13(ctx):
    rng = ctx.rng("thm13")
    rows, bad, lps = [], [], []   # lps: each certified LP for its weak-duality certificate (issue 23)
    with arb_precision(ctx.dps):
        for k in (2, 3, 4, 5, 6, 7):
            P = generic_dist(rng, k) if k <= 5 else rand_dist(rng, k, 997)
            T = binary_set_mi(P)
            for tt in (Fraction(101, 100), Fraction(3, 2), Fraction(271828, 100000)):
                mu = mu_mi(P)
                sol = solve_staircase_lp(k, tt, mu)
                opt = sol.value
                b = utility(binary_mechanism_for_set(T, k, tt), mu)
                lps.append((P, T, tt, sol))
                r = opt / b
                rows.append({"k": k, "t": str(tt), "OPT/BIN": r.str(10), "1+t": str(float(1 + tt))})
                if not r <= arb_exact(1 + tt):
                    bad.append({**rows[-1], "P": fs(P)})
    if bad:
        return Outcome.refuted("approximation factor exceeded", counterexample=bad[0], kind="false")
    return Outcome.verified(f"{len(rows)} certified LPs (k = 2..7, e^eps in {{1.01, 1.5, 2.71828 < e}}): OPT/BIN <= 1 + e^eps",
                            instances=rows, **built(lambda: [_certificate(*x) for x in lps]))


def _certificate(P, T, t, sol) -> dict:
    """OPT <= (1 + t) BIN (Theorem 13), by weak duality for LP (11) with the mutual-information utility; BIN = I(X;Y)
    of the binary mechanism (29) for the set T, evaluated by the checker."""
    k = len(P)
    b = utility_expr("mi", binary_mechanism_for_set(T, k, t), P=P)
    return staircase_bound_certificate(f"Thm 13: OPT_mi <= (1+t) BIN, P={fs(P)} T={sorted(T)} t={t}", k, t, "mi",
                                       ["*", 1 + t, b], sol.alpha, eta=sol.gap + Fraction(1, 10 ** 30), P=P)
