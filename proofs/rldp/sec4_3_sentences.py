"""Sec. 4.3, the sentence before Proposition 2 (issue 24: a statement not yet indexed): 'For smaller B_s, we do not
find an exact expression, but we can still derive a lower bound', where Proposition 2 part 3 states an upper bound."""

from __future__ import annotations

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision

from ._sec34 import PAPER, nstr
from .prop2_alpha2 import _random_balls


@claim(
    id="rldp.sec43.smaller-Bs-lower-bound",
    paper=PAPER,
    source="Sec. 4.3, the paragraph before Proposition 2 ('For smaller B_s, we do not find an exact expression, but we "
           "can still derive a lower bound'); Proposition 2 part 3",
    statement="For alpha = 2 and B_s < log(1 + (1 - P^_{u_min|s})^2), the bound of Proposition 2 part 3, "
              "sqrt(e^{B_s} - 1), is a lower bound on rad_s(F).",
    hypotheses=("alpha = 2",),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="the bound read as Proposition 2 part 3 with the square root rldp.prop2.part3 establishes; 'lower bound' "
            "checked against rad_s(F) from the engine (the l1 radius of the conditional ball) on random balls",
)
def check_lower_bound(ctx, word: str = "lower"):
    """``word="upper"`` checks the evident reading (an upper bound) alone; tests run it and expect VERIFIED."""
    rng = ctx.rng("sec43.lower-bound")
    below, above, n = [], [], 0
    with working_precision(30):
        for ball in _random_balls(rng, 24):
            for s in range(ball.sensitive_size):
                Bs = ball.conditional_radius(s, dps=20)
                pmin = to_mpf(min(ball.conditional(s)))
                if not Bs < mpmath.log(1 + (1 - pmin) ** 2):
                    continue
                n += 1
                rad, bound = ball.rad_value(s, dps=20), mpmath.sqrt(mpmath.exp(Bs) - 1)
                row = {"P^_U|s": [str(x) for x in ball.conditional(s)], "B_s": nstr(Bs, 12), "rad_s": nstr(rad, 12),
                       "sqrt(e^B_s - 1)": nstr(bound, 12)}
                if rad < bound - mpmath.mpf(10) ** -15:
                    below.append(row)
                if rad > bound + mpmath.mpf(10) ** -15:
                    above.append(row)
    if n < 12:
        return Outcome.inconclusive(f"only {n} instances met the hypothesis",
                                    would_decide="more random balls with B_s below the threshold")
    if word == "upper":
        if above:
            return Outcome.refuted("rad_s exceeds the bound", counterexample=above[0], kind="false")
        return Outcome.verified(f"an upper bound on all {n} instances")
    if not below:
        return Outcome.verified(f"rad_s >= sqrt(e^B_s - 1) on all {n} instances")
    if above:
        return Outcome.refuted("the bound is neither a lower nor an upper bound of rad_s", counterexample=below[0],
                               kind="false", above=above[:3])
    return Outcome.refuted(
        f"misprint: Proposition 2 part 3's bound is an upper bound on rad_s, not a lower one: rad_s < sqrt(e^B_s - 1) on "
        f"{len(below)} of {n} instances below the threshold, and rad_s <= sqrt(e^B_s - 1) on all {n} (the reading "
        "'upper bound', which is what a privacy guarantee needs and what rldp.prop2.part3 verifies)",
        counterexample=below[0], kind="misprint", instances=n, strictly_below=len(below))
