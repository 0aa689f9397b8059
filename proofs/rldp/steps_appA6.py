"""Proof steps of Appendix A.6 (Lemma A8 and the proof of Theorem 4, eqs. (A90)-(A116)) of
000_aca93ed29ea857ee.txt, in exact rational arithmetic with t = e^eps a rational > 1.

Vectors are indexed by (s, u) in S x U. The cone C = {c >= 0 : c_{s,u} <= t c_{s',u'} for s != s'} (A90).
Wrong variants of the printed steps are the mutants ``steps.a6.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from rldp_verify.claims import Method, claim

from ._steps import PAPER, Tally

LEMMA_A8 = ("rldp.lemmaA8.cone-spanned", "rldp.lemmaA8.reduction-steps")


def in_cone(v, t):
    """v in C of (A90) (a definition)."""
    S = len(v)
    return all(x >= 0 for r in v for x in r) and all(
        v[s][u] <= t * v[s2][u2] for s in range(S) for s2 in range(S) if s != s2
        for u in range(len(v[s])) for u2 in range(len(v[s2])))


def printed_v_plus(v, s, t):
    """(A103): v+ raises the 1 entries of block s to e^eps (entries e^-eps stay, e^eps stay), other blocks 1."""
    return [[(x if x != 1 else t) if i == s else Fraction(1) for x in r] for i, r in enumerate(v)]


def printed_v_minus(v, s, t):
    """(A104): v- lowers the 1 entries of block s to e^-eps, other blocks 1."""
    return [[(x if x != 1 else 1 / t) if i == s else Fraction(1) for x in r] for i, r in enumerate(v)]


def printed_A105(vp, vm, t):
    """(A105)/(A109): v = v+/(e^eps + 1) + e^eps v-/(e^eps + 1)."""
    return [[a / (t + 1) + t * b / (t + 1) for a, b in zip(ra, rb, strict=True)] for ra, rb in zip(vp, vm, strict=True)]


def printed_V3_from_V2(v2, t):
    """'First note that V3' = e^-eps V2'': the image of v in V2' = {1, e^eps}^X."""
    return [[x / t for x in r] for r in v2]


@claim(
    id="rldp.steps.a6.a105-a109-combination",
    paper=PAPER,
    source="App. A.6, proof of Lemma A8, eqs. (A103)-(A105) and (A108)-(A109)",
    statement="For v in V^s (block s in {e^-eps, 1, e^eps}, other blocks 1) and for the v of (A108) (one entry "
              "e^eps, the rest 1), v+ and v- of (A103)-(A104) lie in V_s and v = v+/(e^eps + 1) + e^eps v-/(e^eps + 1).",
    hypotheses=("eps > 0",),
    method=(Method.EXACT, Method.PROPERTY),
)
def check_combination(ctx):
    rng = ctx.rng("steps.a6.combination")
    T = Tally(50)
    for k in range(80):
        S, U = rng.choice((2, 3)), rng.choice((1, 2, 3))
        t = 1 + Fraction(rng.randint(1, 300), rng.choice((7, 100, 1000)))
        s = rng.randrange(S)
        if k % 4 == 0:   # (A108): a single e^eps entry
            u = rng.randrange(U)
            v = [[t if (i, j) == (s, u) else Fraction(1) for j in range(U)] for i in range(S)]
        else:
            v = [[rng.choice((1 / t, Fraction(1), t)) if i == s else Fraction(1) for _ in range(U)] for i in range(S)]
        vp, vm = printed_v_plus(v, s, t), printed_v_minus(v, s, t)
        pt = {"e^eps": str(t), "s": s, "v": [[str(x) for x in r] for r in v]}
        for name, w in (("v+", vp), ("v-", vm)):
            T.truth(f"{name} in V_s", all(x in (t, 1 / t) for x in w[s]) and
                    all(x == 1 for i, r in enumerate(w) if i != s for x in r), pt, vector=[[str(x) for x in r] for r in w])
            T.truth(f"{name} in C", in_cone(w, t), pt, vector=[[str(x) for x in r] for r in w])
        comb = printed_A105(vp, vm, t)
        T.truth("(A105)/(A109)", comb == v, pt, combination=[[str(x) for x in r] for r in comb])
        T.points += 1
    return T.outcome("(A103)-(A105), (A108)-(A109)", statement_claims=LEMMA_A8)


def _vectors(values, S, U):
    """Every S x U vector (tuple of blocks) with entries in ``values``."""
    return {tuple(tuple(bits[s * U:(s + 1) * U]) for s in range(S)) for bits in itertools.product(values, repeat=S * U)}


@claim(
    id="rldp.steps.a6.a106-scaling",
    paper=PAPER,
    source="App. A.6, proof of Lemma A8: 'Furthermore, it is easy to see that V2' u V3' is in V'', 'First note that "
           "V3' = e^-eps V2', so (A106)', 'This implies that e^eps v in V2'",
    statement="V2' = {1, e^eps}^X and V3' = {e^-eps, 1}^X lie in C; V3' = e^-eps V2' (so Span(V2') = Span(V3'), (A106)); "
              "and e^eps 1_X is in V2 of (A92) (e^eps in at least two blocks).",
    hypotheses=("eps > 0", "|S| >= 2 (Lemma A8's missing hypothesis, rldp.lemmaA8.single-secret)"),
    method=(Method.EXACT,),
)
def check_scaling(ctx):
    T = Tally(50)
    for S, U in ((2, 1), (2, 2), (3, 1), (2, 3), (3, 2)):
        for t in (Fraction(3, 2), Fraction(2), Fraction(71, 10)):
            pt = {"|S|": S, "|U|": U, "e^eps": str(t)}
            V2, V3 = _vectors((Fraction(1), t), S, U), _vectors((1 / t, Fraction(1)), S, U)
            image = {tuple(tuple(r) for r in printed_V3_from_V2(v, t)) for v in V2}
            T.truth("V3' = e^-eps V2'", image == V3, pt, missing=len(V3 - image), extra=len(image - V3))
            T.truth("V2' in C", all(in_cone(v, t) for v in V2), pt)
            T.truth("V3' in C", all(in_cone(v, t) for v in V3), pt)
            ones = [[t] * U for _ in range(S)]
            blocks = sum(1 for r in ones if t in r)
            T.truth("e^eps 1_X in V2", blocks >= 2, pt, blocks_with_e_eps=blocks)
            T.points += 1
    return T.outcome("(A106) and V2', V3'", statement_claims=LEMMA_A8)
