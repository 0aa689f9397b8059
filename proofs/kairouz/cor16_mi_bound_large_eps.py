"""Corollary 16: the mutual-information bound for large eps."""


import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.thresholds import (
    rr_status,
    t_from_eps,
)
from rldp_verify.topics.extremal.utilities import (
    mu_mi,
)

from ._certified import ETA, precise_dual, staircase_bound_certificate
from ._common import PAPER, entropy, fs, generic_dist, mi_rr


@claim(
    id="kairouz.cor16.mi-bound-large-eps",
    paper=PAPER,
    source="Sec. 4.5, Corollary 16",
    statement="For any delta > 0 there is eps* with: eps >= eps* implies I(X;Y) <= H(X) - (1-delta)(k-1) eps e^-eps for "
              "every eps-LDP Q.",
    method=Method.HIGH_PRECISION,
)
def check_c16(ctx):
    rng = ctx.rng("c16")
    rows, bad, cases = [], [], []
    with arb_precision(ctx.dps), working_precision(ctx.dps):
        for k in (2, 3, 4):
            P = generic_dist(rng, k)
            p = [to_mpf(x) for x in P]
            for eps in (12, 20, 30):
                tt = t_from_eps(eps)
                st = rr_status(mu_mi(P), k, tt, dps=ctx.dps)
                e_true = mpmath.log(to_mpf(tt))
                opt = mi_rr(p, e_true)
                bound = entropy(p) - (1 - mpmath.mpf(1) / 10) * (k - 1) * e_true * mpmath.e ** (-e_true)
                rows.append({"k": k, "eps": eps, "rr_optimal": st.status, "OPT-bound": mpmath.nstr(opt - bound, 5)})
                cases.append((P, tt))
                if st.status != "optimal" or opt > bound:
                    bad.append(rows[-1])
    if bad:
        return Outcome.inconclusive("RR not certified optimal or bound exceeded", rows=rows)
    return Outcome.verified("with delta = 1/10: RR certified optimal (Theorem 14) and OPT = I_RR <= H - (1-delta)(k-1) eps "
                            "e^-eps at eps = 12, 20, 30 for k = 2, 3, 4", rows=rows,
                            **built(lambda: [_certificate(P, t, ctx.dps) for P, t in cases]))


def _certificate(P, t, dps) -> dict:
    """OPT <= H(P) - (1 - delta)(k - 1) eps e^-eps with delta = 1/10, eps = log t, by weak duality for LP (11) with the
    mutual-information utility (the dual of the engine's certified optimum, re-solved at 320 bits): Corollary 16's
    inequality for every eps-LDP mechanism, the checker evaluating H, log t and every mu(S_j) itself."""
    from fractions import Fraction

    from rldp_verify.topics.extremal.staircase import solve_staircase_lp

    k = len(P)
    with arb_precision(dps):
        sol = solve_staircase_lp(k, t, mu_mi(P))
    H = ["+", 0, *[["*", -x, ["log", x]] for x in P]]
    bound = ["-", H, ["*", Fraction(9, 10) * (k - 1), ["log", t], 1 / t]]
    return staircase_bound_certificate(f"Cor. 16: OPT_mi <= H - (9/10)(k-1) eps e^-eps, P={fs(P)}, e^eps={t}", k, t,
                                       "mi", bound, precise_dual(k, t, "mi", sol.basis, P=P), eta=sol.gap + ETA, P=P)
