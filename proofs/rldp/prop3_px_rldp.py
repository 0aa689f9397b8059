"""Proposition 3 (Sec. 6, eqs. (51)-(55)) and the remarks around it (eq. (57), GRR's ratios)."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
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


def _iff_certificates(if_cases, only_cases) -> list[dict]:
    """(<=): per (Q, P, r) the ratio condition and Definition 1 at P, exactly (min >= 0); (=>): per (Q, r, worst
    cell pair, the proof's P) the violated ratio and Definition 1 violated at the proof's P at the same y (> 0)."""
    name = "rldp.prop3.iff"
    docs = []
    if if_cases:
        facts = [inst.prop3_expressions(Q, a2, r) + inst.definition1_expressions(Q, P, a2, r)
                 for Q, P, r, a2 in if_cases]          # empty when |S| = 1 (nothing to state)
        docs.append(inst.all_nonneg_certificate(f"{name} (<=): ratio condition and Definition 1 at P",
                                                [["min", *f] for f in facts if f]))
    if only_cases:
        docs.append(inst.all_positive_certificate(f"{name} (=>): the violated ratio, and Definition 1 violated at "
                                                  "the proof's P", [
            ["min", ["-", Q[w["y"]][w["s"] * a2 + w["u"]], ["*", r, Q[w["y"]][w["s'"] * a2 + w["u'"]]]],
             ["-", inst.conditional_expr(Q[w["y"]], P, w["s"], a2),
              ["*", r, inst.conditional_expr(Q[w["y"]], P, w["s'"], a2)]]]
            for Q, P, r, a2, w in only_cases]))
    return docs


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
    n_if, n_only, if_cases, only_cases = 0, 0, [], []
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
                if_cases.append((Q, P, r, a2))
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
            only_cases.append((Q, P, r, a2, w))
    cap = inst.CAP
    return Outcome.verified(f"(<=) {n_if} (Q, P) pairs; (=>) {n_only} violating matrices refuted by the proof's P",
                            if_cases=n_if, only_if_cases=n_only,
                            certificate_covers=inst.cover_note(n_if + n_only, min(n_if, cap) + min(n_only, cap),
                                                               "facts ((<=): ratio condition and Definition 1 at P; "
                                                               "(=>): the violated ratio and Definition 1 violated "
                                                               "at the proof's P), exactly (|S| = 1 cases, with no "
                                                               "pair s != s', skipped)"),
                            **built(_iff_certificates, if_cases, only_cases))


GRR_CERT_MAX = 4   # the ratio sets certified for a <= 4 (a^3 ratios each)


def _eq57_certificates(grr_cases, matrices) -> list[dict]:
    name = "rldp.prop3.eq57-and-grr"
    ratio_set = [["*", ["-", q, 1], ["-", q, r], ["-", q, ["/", 1, r]]]
                 for G, r in grr_cases if len(G) <= GRR_CERT_MAX for row in G for x in row for z in row
                 for q in [["/", x, z]]]
    docs = [inst.all_zero_certificate(f"{name}: GRR ratio in {{1, r, 1/r}}", ratio_set, cap=len(ratio_set))]
    docs += [inst.ldp_level_certificate(f"{name}: GRR_{len(G)}(r={r})", G, r) for G, r in grr_cases if len(G) > 1]
    within = [["min", *inst.prop3_expressions(Q, a2, r),
               *(["-", ["*", r, r, row[s * a2 + u2]], row[s * a2 + u]] for row in Q for s in range(len(row) // a2)
                 for u in range(a2) for u2 in range(a2))] for Q, r, a2 in matrices]
    return docs + [inst.all_nonneg_certificate(f"{name}: ratio condition and e^(2eps) Q[y|s,u''] - Q[y|s,u]",
                                               within)]


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
    grr_cases, matrices = [], []
    for a in range(1, 7):
        for r in (Fraction(1), Fraction(2), Fraction(7, 3)):
            G = grr_matrix(a, r)
            ratios = {G[y][x] / G[y][z] for y in range(a) for x in range(a) for z in range(a)}
            if not ratios <= {Fraction(1), r, 1 / r} or check_ldp(G, exact_level(r)).holds is not True:
                return Outcome.refuted("GRR ratio set wrong", counterexample={"a": a, "r": str(r)}, kind="false")
            grr_cases.append((G, r))
    n = 0
    for k in range(80):
        a1, a2 = [(2, 2), (2, 3), (3, 2)][k % 3]
        r = Fraction(rng.randint(11, 30), 10)
        Q = _rand_matrix(rng, 3, a1 * a2, r, private=True)
        if not check_prop3(Q, exact_level(r), a1, a2).holds:
            continue
        n += 1
        matrices.append((Q, r, a2))
        for row in Q:
            for s in range(a1):
                blk = row[s * a2:(s + 1) * a2]
                if max(blk) > r * r * min(blk):
                    return Outcome.refuted("within-s ratio exceeds e^{2 eps}",
                                           counterexample={"row": [str(v) for v in row], "r": str(r)}, kind="false")
    return Outcome.verified(f"GRR ratio sets for a <= 6; eq. (57) on {n} random (eps, P_X)-RLDP matrices",
                            certificate_covers=f"every GRR ratio in {{1, e^eps, e^-eps}} ((ratio - 1)(ratio - r)"
                                               f"(ratio - 1/r) = 0 for a <= {GRR_CERT_MAX}) and its level e^eps (all "
                                               f"{len(grr_cases)} (a, r) with a >= 2); "
                            + inst.cover_note(n, min(n, inst.CAP), "Proposition 3 ratio condition and eq. (57)'s "
                                              "within-s bound Q[y|s,u] <= e^(2 eps) Q[y|s,u'']"),
                            **built(_eq57_certificates, grr_cases, matrices))
