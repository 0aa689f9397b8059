"""Eq. (30): the robust privacy constraint as printed, against Lemma 2 (003, Sec. IV-B)."""

from __future__ import annotations

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics.chisquare.ball import support_joint_projection

from ._common import PAPER, fmt


def _certificates() -> list[dict]:
    """The counterexample re-evaluated (|S| = |U| = 2, P-hat uniform, protocol P_{y|s,u} = 1/2): every element of
    F_{U|s1,s2} is a pair of distributions on U, so the support of the constant vectors (1/2, 1/2), (c, c) is
    1/2 + c, attained at P-hat. As printed (c = +1/2) the value at P-hat, sum_u P-hat(u|s1)/2 + P-hat(u|s2)/2, is
    > 0 (a lower bound of the support: (30) fails); with Lemma 2's argument (c = -e^eps/2, eps = 1/2) the support
    1/2 - e^(1/2)/2 is < 0 (the constant protocol passes)."""
    from fractions import Fraction as F

    from rldp_verify.certificates.value import value_certificate

    at_p_hat = ["+", *[["*", F(1, 2), F(1, 2)] for _ in range(4)]]   # P-hat(u|s) = 1/2 for u, s in {1, 2}
    return [value_certificate("(30) as printed, constant protocol 1/2: the value at P-hat (<= delta*) is > 0",
                              at_p_hat, lower=0, strict=True),
            value_certificate("(30) with Lemma 2's -e^eps P_{y|s2}: delta* = 1/2 - e^(1/2)/2 < 0",
                              ["-", F(1, 2), ["*", F(1, 2), ["exp", F(1, 2)]]], upper=0, strict=True)]


@claim(
    id="isit.eq30.as-printed",
    paper=PAPER,
    source="Sec. IV-B, eq. (30) (with Lemma 2, eq. 27, and eq. 26)",
    statement=("the robust privacy constraint (23) is equivalent to "
               "delta*((P_{y|s1,u})_u, (P_{y|s2,u})_u | F_{U|s1,s2}) <= 0"),
    hypotheses=("B > 0", "eps >= 0"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="as printed: the second argument is +P_{y|s2,.}; Lemma 2 gives -e^eps P_{y|s2,.}",
)
def check(ctx):
    # For every protocol, (P_hat_{U|s1}, P_hat_{U|s2}) is in F_{U|s1,s2}, so the printed support is
    # >= P_hat(y|s1) + P_hat(y|s2) and summing over y gives 2 > 0: some y always violates (30).
    # Minimal instance: |S| = |U| = |Y| = 2, uniform P_hat, B = 1/10, eps = 1/2, the constant protocol
    # P_{y|s,u} = 1/2 (perfectly private: P(y|s1) = P(y|s2) for every P_SU).
    half = mpmath.mpf(1) / 2
    with working_precision(ctx.dps):
        a = [mpmath.mpf(1) / 4] * 2
        printed = support_joint_projection([half, half], [half, half], a, a, "1/10")
        e = mpmath.e ** half
        correct = support_joint_projection([half, half], [-e * half, -e * half], a, a, "1/10")
    if printed.value > 0 and correct.value <= 0:
        return Outcome.refuted(
            "as printed, (30) is violated by every protocol (even the constant one, which is 0-RLDP), so NURP and "
            "RURP would be infeasible; with the argument -e^eps P_{y|s2,.} of Lemma 2 the constant protocol passes",
            counterexample={"S": 2, "U": 2, "P_hat": "uniform 1/4", "B": "1/10", "eps": "1/2",
                            "protocol": "P_{y|s,u} = 1/2", "printed_(30)_lhs": fmt(printed.value, 20),
                            "exact_value": "1 (delta* of constant vectors 1/2, 1/2 is 1/2 + 1/2)",
                            "with_-e^eps_(Lemma_2)": fmt(correct.value, 20),
                            "exact_value_corrected": "(1 - e^(1/2))/2"},
            general_argument=("P_hat is in F, so delta*(P_{y|s1,.}, P_{y|s2,.}) >= P_hat(y|s1) + P_hat(y|s2); "
                              "the sum over y is 2 > 0"), kind="misprint", **built(_certificates))
    return Outcome.verified("printed (30) admits the constant protocol", printed=fmt(printed.value))
