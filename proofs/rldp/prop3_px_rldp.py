"""Proposition 3 (Sec. 6, eqs. (51)-(55)) and the remarks around it (eq. (57), GRR's ratios)."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import check_ldp, check_prop3, check_single_distribution, exact_level, grr_matrix

from ._mech_common import PAPER


def _rand_matrix(rng, b, a, r, *, private: bool):
    """A random exact b x a column-stochastic matrix; with ``private`` its entries within a row lie in
    [m, r m] for random m (hence the Proposition 3 ratio condition holds), else arbitrary."""
    while True:
        raw = []
        for _ in range(b):
            if private:
                m = Fraction(rng.randint(1, 9))
                raw.append([m + (r - 1) * m * Fraction(rng.randint(0, 10), 10) for _ in range(a)])
            else:
                raw.append([Fraction(rng.randint(0, 9)) for _ in range(a)])
        cols = [sum(raw[y][x] for y in range(b)) for x in range(a)]
        if all(c > 0 for c in cols):
            # column normalisation breaks row ratios; re-check the condition afterwards
            return [[raw[y][x] / cols[x] for x in range(a)] for y in range(b)]


def _rand_dist(rng, a, zeros=True):
    while True:
        w = [Fraction(rng.randint(0 if zeros else 1, 6)) for _ in range(a)]
        if sum(w):
            return [x / sum(w) for x in w]


@claim(
    id="rldp.prop3.iff",
    paper=PAPER,
    source="Sec. 6, Proposition 3 and its proof, eqs. (51)-(55)",
    statement="Q satisfies (eps, P_X)-RLDP iff Q[y|s,u] <= e^eps Q[y|s',u'] for all y and all (s,u), (s',u') "
              "with s != s'.",
    hypotheses=("finite S, U", "eps >= 0"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="(<=) checked exactly at random P (with zeros); (=>) for every violated ratio the proof's P "
            "(mass 1/2 on (s,u) and (s',u')) is checked to violate Definition 1 exactly.",
)
def check_iff(ctx):
    rng = ctx.rng("prop3")
    n_if, n_only = 0, 0
    for k in range(120):
        a1, a2 = [(2, 2), (2, 3), (3, 2), (3, 1), (1, 3)][k % 5]
        a = a1 * a2
        r = Fraction(rng.randint(11, 40), 10)
        lvl = exact_level(r)
        Q = _rand_matrix(rng, rng.randint(2, 4), a, r, private=k % 2 == 0)
        res = check_prop3(Q, lvl, a1, a2)
        if res.holds:
            for _ in range(5):
                P = _rand_dist(rng, a)
                sd = check_single_distribution(Q, P, lvl, a1, a2)
                n_if += 1
                if sd.holds is not True:
                    return Outcome.refuted("ratio condition holds but Definition 1 fails",
                                           counterexample={"Q": [[str(v) for v in row] for row in Q], "r": str(r),
                                                           "P": [str(v) for v in P], **sd.to_json()}, kind="false")
        else:
            w = res.worst
            P = [Fraction(0)] * a
            P[w["s"] * a2 + w["u"]] += Fraction(1, 2)
            P[w["s'"] * a2 + w["u'"]] += Fraction(1, 2)
            sd = check_single_distribution(Q, P, lvl, a1, a2)
            n_only += 1
            if sd.holds is not False:
                return Outcome.refuted("ratio condition fails but the proof's P does not violate Definition 1",
                                       counterexample={"Q": [[str(v) for v in row] for row in Q], "r": str(r),
                                                       "P": [str(v) for v in P]}, kind="false")
    return Outcome.verified(f"(<=) {n_if} (Q, P) pairs; (=>) {n_only} violating matrices refuted by the proof's P",
                            if_cases=n_if, only_if_cases=n_only)


@claim(
    id="rldp.prop3.eq57-and-grr",
    paper=PAPER,
    source="Sec. 6, eqs. (56)-(57)",
    statement="GRR^eps has ratios GRR[y|x]/GRR[y|x'] in {e^-eps, 1, e^eps} (it is eps-LDP), and for |S| >= 2 every "
              "(eps, P_X)-RLDP Q satisfies Q[y|s,u] <= e^eps Q[y|s',u'] <= e^{2 eps} Q[y|s,u''] (eq. (57)).",
    hypotheses=("|S| >= 2 for eq. (57)",),
    method=(Method.EXACT, Method.PROPERTY),
)
def check_eq57(ctx):
    rng = ctx.rng("eq57")
    for a in range(1, 7):
        for r in (Fraction(1), Fraction(2), Fraction(7, 3)):
            G = grr_matrix(a, r)
            ratios = {G[y][x] / G[y][z] for y in range(a) for x in range(a) for z in range(a)}
            if not ratios <= {Fraction(1), r, 1 / r} or check_ldp(G, exact_level(r)).holds is not True:
                return Outcome.refuted("GRR ratio set wrong", counterexample={"a": a, "r": str(r)}, kind="false")
    n = 0
    for k in range(80):
        a1, a2 = [(2, 2), (2, 3), (3, 2)][k % 3]
        r = Fraction(rng.randint(11, 30), 10)
        Q = _rand_matrix(rng, 3, a1 * a2, r, private=True)
        if not check_prop3(Q, exact_level(r), a1, a2).holds:
            continue
        n += 1
        for row in Q:
            for s in range(a1):
                blk = row[s * a2:(s + 1) * a2]
                if max(blk) > r * r * min(blk):
                    return Outcome.refuted("within-s ratio exceeds e^{2 eps}",
                                           counterexample={"row": [str(v) for v in row], "r": str(r)}, kind="false")
    return Outcome.verified(f"GRR ratio sets for a <= 6; eq. (57) on {n} random (eps, P_X)-RLDP matrices")
