"""Lemma 2 (Sec. 6): SRR satisfies (eps, P_X)-RLDP; SRR's ratio set."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import check_column_stochastic, check_prop3, exact_level, srr_matrix

from ._mech_common import PAPER


@claim(
    id="rldp.lemma2.srr-private",
    paper=PAPER,
    source="Sec. 6, Definition 4 and Lemma 2",
    statement="SRR^eps is a mechanism (column-stochastic) satisfying (eps, P_X)-RLDP; its ratios lie in "
              "{e^-2eps, e^-eps, 1, e^eps, e^2eps}, the extremes only within one s; and it is not (eps', P_X)-RLDP "
              "for eps' < eps when |S| >= 2.",
    hypotheses=("eps >= 0", "e^eps rational (exact check)"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Definition 4's same-s entry read as e^-eps / C (Example 4).",
)
def check_srr(ctx):
    n = 0
    for a1 in range(1, 5):
        for a2 in range(1, 5):
            for r in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(10)):
                Q = srr_matrix(a1, a2, r)
                lvl = exact_level(r)
                n += 1
                if not check_column_stochastic(Q) or check_prop3(Q, lvl, a1, a2).holds is not True:
                    return Outcome.refuted("SRR is not a (eps, P_X)-RLDP mechanism",
                                           counterexample={"a1": a1, "a2": a2, "e^eps": str(r)}, kind="false")
                allowed = {Fraction(1), r, 1 / r, r * r, 1 / (r * r)}
                for row in Q:
                    for x in range(a1 * a2):
                        for z in range(a1 * a2):
                            q = row[x] / row[z]
                            if q not in allowed or (q in (r * r, 1 / (r * r)) and r != 1 and x // a2 != z // a2):
                                return Outcome.refuted("SRR ratio outside the stated set",
                                                       counterexample={"a1": a1, "a2": a2, "r": str(r), "x": x, "z": z}, kind="false")
                if a1 >= 2 and r > 1:
                    tighter = exact_level(r - Fraction(1, 10**6))
                    if check_prop3(Q, tighter, a1, a2).holds is not False:
                        return Outcome.refuted("SRR also private for a smaller eps",
                                               counterexample={"a1": a1, "a2": a2, "r": str(r)}, kind="false")
    return Outcome.verified(f"{n} (a1, a2, e^eps) combinations: column-stochastic, Proposition 3 holds exactly, "
                            "ratio set as stated, tight in eps")
