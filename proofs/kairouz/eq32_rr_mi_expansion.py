"""Eq. (32): the expansion of randomized response's mutual information."""

from fractions import Fraction

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision

from ._common import PAPER, entropy, fs, mi_rr
from ._step_certs import eq32_certificates, with_covers


@claim(
    id="kairouz.eq32.rr-mi-expansion",
    paper=PAPER,
    source="Sec. 4.5, eq. (32)",
    statement="Randomized response achieves I(X;Y) = H(X) - (k-1) eps e^-eps + O(e^-2eps).",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_32(ctx):
    P = (Fraction(1, 2), Fraction(1, 2))
    eps_list, c_tol = (10, 20, 40), Fraction(1, 1000)
    rows = []
    with working_precision(ctx.dps):
        p = [to_mpf(x) for x in P]
        k = len(p)
        c = -(k - 1) - sum(mpmath.log(x) for x in p) - k * entropy(p)
        for eps in eps_list:
            rem = (mi_rr(p, eps) - entropy(p) + (k - 1) * eps * mpmath.e ** (-eps)) * mpmath.e ** eps
            rows.append({"eps": eps, "(I - H + (k-1) eps e^-eps) e^eps": mpmath.nstr(rem, 15)})
    if abs(c) > 0 and all(abs(mpmath.mpf(r["(I - H + (k-1) eps e^-eps) e^eps"]) - c) < mpmath.mpf(c_tol.numerator) / c_tol.denominator for r in rows):
        return Outcome.refuted(
            "the remainder is Theta(e^-eps), not O(e^-2eps): I = H - (k-1) eps e^-eps + c e^-eps + O(eps e^-2eps) with "
            f"c = -(k-1) - sum_x log P(x) - k H(X); for P = (1/2, 1/2), c = {mpmath.nstr(c, 12)} (= -1) and the scaled "
            "remainder converges to it",
            counterexample={"P": fs(P), "c": mpmath.nstr(c, 15), "high_precision": rows},
            note="Corollary 16's bound only needs the (k-1) eps e^-eps term and is unaffected", kind="false",
            **with_covers(eq32_certificates, "kairouz.eq32.rr-mi-expansion", P, c_tol, eps_list))
    return Outcome.verified("remainder is O(e^-2eps)", rows=rows)
