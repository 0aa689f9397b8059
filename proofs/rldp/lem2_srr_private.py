"""Lemma 2 (Sec. 6): SRR satisfies (eps, P_X)-RLDP; SRR's ratio set."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import abs_expr
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import check_column_stochastic, check_prop3, exact_level, srr_matrix

from ._mech_common import PAPER

CERT_MAX_X = 4   # certificates for |X| = a1 a2 <= 4 (their size grows as |X|^3)


def _srr_certificates(combos) -> list[dict]:
    """Per (a1, a2, r, Q) with a1 a2 <= CERT_MAX_X, exactly: Q >= 0 with columns summing to 1; Proposition 3's
    ratio condition at r; every ratio Q[y|x]/Q[y|z] a root of (q-1)(q-r)(q-1/r)(q-r^2)(q-1/r^2), and of
    (q-1)(q-r)(q-1/r) across s; for a1 >= 2, r > 1, Proposition 3's level exactly r (min of its expressions 0)."""
    name, stoch, ratios, levels = "rldp.lemma2.srr-private", [], [], []
    for a1, a2, r, Q in combos:
        if a1 * a2 > CERT_MAX_X:
            continue
        a = a1 * a2
        stoch.append(["min", *(v for row in Q for v in row),
                      *(["-", abs_expr(["-", ["+", *(row[x] for row in Q)], 1])] for x in range(a))])
        for row in Q:
            for x in range(a):
                for z in range(a):
                    q = ["/", row[x], row[z]]
                    roots = (1, r, 1 / r) if x // a2 != z // a2 else (1, r, 1 / r, r * r, 1 / (r * r))
                    ratios.append(["*", *(["-", q, c] for c in roots)])
        if a1 >= 2:
            levels.append(["min", *inst.prop3_expressions(Q, a2, r)])
    n = len(stoch)
    docs = [inst.all_nonneg_certificate(f"{name}: Q >= 0 and -|column sum - 1|", stoch, cap=n),
            inst.all_zero_certificate(f"{name}: each ratio in the stated set", ratios, cap=len(ratios))]
    if levels:
        docs.append(inst.all_zero_certificate(f"{name}: Proposition 3's level exactly e^eps (min over s != s' of "
                                              "r Q[y|s',u'] - Q[y|s,u])", levels, cap=n))
    return docs


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
    n, combos = 0, []
    for a1 in range(1, 5):
        for a2 in range(1, 5):
            for r in (Fraction(1), Fraction(3, 2), Fraction(2), Fraction(10)):
                Q = srr_matrix(a1, a2, r)
                lvl = exact_level(r)
                n += 1
                combos.append((a1, a2, r, Q))
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
                            "ratio set as stated, tight in eps",
                            certificate_covers=f"the {sum(a1 * a2 <= CERT_MAX_X for a1, a2, _, _ in combos)} of the "
                                               f"{n} combinations with |X| <= {CERT_MAX_X}: column-stochastic, every "
                                               "ratio in the stated set (the extremes within one s), and Proposition "
                                               "3's level exactly e^eps for |S| >= 2 (so Proposition 3 holds and is "
                                               "tight), each re-derived exactly from the matrix; not the larger |X|",
                            **built(_srr_certificates, combos))
