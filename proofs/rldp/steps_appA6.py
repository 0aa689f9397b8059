"""Proof steps of Appendix A.6 (Lemma A8 and the proof of Theorem 4, eqs. (A90)-(A116)) of
000_aca93ed29ea857ee.txt, in exact rational arithmetic with t = e^eps a rational > 1.

Vectors are indexed by (s, u) in S x U. The cone C = {c >= 0 : c_{s,u} <= t c_{s',u'} for s != s'} (A90).
Wrong variants of the printed steps are the mutants ``steps.a6.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
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


def _in_v_s_and_c(w, s, t) -> list:
    """Facts (each >= 0) that w lies in V_s and in C: (x - t)(x - 1/t) = 0 on block s and x - 1 = 0 elsewhere (both
    ways), w >= 0 and t w_{s',u'} - w_{s,u} >= 0 across blocks (A90)."""
    flat = [x for r in w for x in r]
    U = len(w[0])
    eqs = [["*", ["-", x, t], ["-", x, ["/", 1, t]]] if i == s else ["-", x, 1] for i, r in enumerate(w) for x in r]
    return [*eqs, *(["-", e] for e in eqs), *flat, *inst.prop3_expressions([flat], U, t)]


def _combination_facts(v, vp, vm, s, t) -> list:
    comb = [["-", ["+", ["/", a, ["+", t, 1]], ["/", ["*", t, b], ["+", t, 1]]], x]
            for ra, rb, rv in zip(vp, vm, v, strict=True) for a, b, x in zip(ra, rb, rv, strict=True)]
    return [*_in_v_s_and_c(vp, s, t), *_in_v_s_and_c(vm, s, t), *comb, *(["-", c] for c in comb)]


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
    T, points = Tally(50), []
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
        points.append((v, vp, vm, s, t))
    if T.failure is not None:
        return T.outcome("(A103)-(A105), (A108)-(A109)", statement_claims=LEMMA_A8)
    return T.outcome("(A103)-(A105), (A108)-(A109)", statement_claims=LEMMA_A8,
                     certificate_covers=inst.cover_note(T.points, min(T.points, inst.CAP), "v+ and v- (data) in V_s and "
                                                        "in C, and v = v+/(e^eps + 1) + e^eps v-/(e^eps + 1)"),
                     **built(lambda: inst.all_nonneg_certificate("rldp.steps.a6.a105-a109-combination: v+, v- in V_s "
                                                                 "and C, and the combination",
                                                                 [["min", *_combination_facts(*pt_)] for pt_ in points])))


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
    T, certified = Tally(50), []
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
            certified.append(["min", *_scaling_facts(V2, V3, U, t)])
    if T.failure is not None:
        return T.outcome("(A106) and V2', V3'", statement_claims=LEMMA_A8)
    return T.outcome("(A106) and V2', V3'", statement_claims=LEMMA_A8,
                     certificate_covers=inst.cover_note(
                         T.points, min(T.points, inst.CAP), "V2' and V3' (data) in C (each entry >= 0 and (A90)'s "
                         "e^eps v_{s',u'} - v_{s,u} >= 0), and the printed image e^-eps v of every v in V2' (data) equal to "
                         "e^-eps v, in {e^-eps, 1}^X",
                         "; V3' = e^-eps V2' as sets then follows by counting (v -> e^-eps v is injective and both sets "
                         "have 2^|X| elements, enumerated as data), and 'e^eps 1_X in V2' is a count of blocks (|S| >= 2), "
                         "not a computation"),
                     **built(lambda: inst.all_nonneg_certificate(
                         "rldp.steps.a6.a106-scaling: V2', V3' in C and e^-eps V2' in {e^-eps, 1}^X", certified)))


def _scaling_facts(V2, V3, U: int, t) -> list:
    """Facts (each >= 0) that every v in V2' and V3' lies in C (A90), and that the printed image w = e^-eps v of each
    v in V2' (data) is e^-eps v (t w - v = 0) with entries in {e^-eps, 1} ((w - 1/t)(w - 1) = 0), both ways."""
    facts: list = []
    for V in (V2, V3):
        for v in sorted(V):
            flat = [x for r in v for x in r]
            facts += [*flat, *inst.prop3_expressions([flat], U, t)]
    for v in sorted(V2):
        for x, y in zip((x for r in v for x in r), (y for r in printed_V3_from_V2(v, t) for y in r), strict=True):
            for e in (["-", ["*", y, t], x], ["*", ["-", y, ["/", 1, t]], ["-", y, 1]]):
                facts += [e, ["-", e]]
    return facts


def printed_column_set(a1, a2, t):
    """'one proves that the optimal Q is found by ... taking d_y in V for all y': the set V of Lemma A8 ((A91)-(A93),
    V1 and V2) that the optimal mechanism's columns are taken from."""
    from rldp_verify.rldp.srr_threshold import lemma_a8_generators

    return lemma_a8_generators(a1, a2, t)


def _random_rldp_mechanism(rng, a, b, a1, a2, t):
    """A random eps-RLDP mechanism with b outputs, drawn without V: (1 - s) uniform + s random with s as large as
    keeps every column in C (bisection; the uniform mechanism's columns are in C)."""
    from rldp_verify.rldp.srr_threshold import in_cone_c

    rows = [[Fraction(rng.randint(0, 9)) for _ in range(a)] for _ in range(b)]
    for x in range(a):
        if sum(r[x] for r in rows) == 0:
            rows[rng.randrange(b)][x] = Fraction(1)
    R = [[r[x] / sum(rr[x] for rr in rows) for x in range(a)] for r in rows]
    def mix(s):
        return [[(1 - s) / b + s * R[y][x] for x in range(a)] for y in range(b)]

    lo, hi = Fraction(0), Fraction(1)      # the largest s (to 1/64) with every column in C: columns near C's boundary
    if all(in_cone_c(col, a1, a2, t) for col in mix(hi)):
        return mix(hi)
    for _ in range(6):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if all(in_cone_c(col, a1, a2, t) for col in mix(mid)) else (lo, mid)
    return mix(lo)


def _conic_weights(V, c):
    """Exact LP: lambda >= 0 with sum_v lambda_v v = c, re-checked; None when there is none (c not in cone(V))."""
    from rldp_verify.core.lp import solve_rows

    n, zero = len(V), Fraction(0)
    rows = [[zero] + [Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for sign in (1, -1):
        for k in range(len(c)):
            rows.append([-sign * c[k]] + [sign * v[k] for v in V])
    sol = solve_rows(rows + [[zero] + [Fraction(-1)] * n])   # any feasible point; the least total weight
    if not sol.optimal or sol.x is None:
        return None
    lam = list(sol.x)
    if min(lam) < 0 or any(sum(w * v[k] for w, v in zip(lam, V, strict=True)) != c[k] for k in range(len(c))):
        raise ArithmeticError("the exact LP's weights failed their re-check")
    return lam


@claim(
    id="rldp.steps.a6.columns-in-v",
    paper=PAPER,
    source="App. A.6, proof of Theorem 4: 'Analogously to the proof of Theorems 2 and 4 in Section 7 of [5] ... one "
           "proves that the optimal Q is found by taking b = a, and taking d_y in V for all d'",
    statement="Every (eps, P_X)-RLDP mechanism Q (columns in C) is matched or beaten in I_P(X;Y) by a mechanism whose "
              "columns are theta_v v, v in V (one output per element of V): split each column Q_y = sum_v lambda_{y,v} "
              "v and merge by v; I_P(X;Y) = sum_y mu(Q_y) does not decrease (mu sublinear).",
    hypotheses=("|S| x |U| in {2x1, 3x1, 2x2}", "e^eps in {3/2, 3}", "P of full support"),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
    reading="'b = a' is the notation of [5] (outputs as many as inputs), which this paper does not define; the step is "
            "read as the reduction the LP (A115) needs: an optimal Q exists with columns proportional to vectors of V. "
            "Every extreme ray of C (exact double description, without V) and the columns of random RLDP "
            "mechanisms (drawn without V, near C's boundary) are decomposed over V by an exact LP; the merged mechanism "
            "must be a mechanism (columns sum to 1_X, exactly), have its columns in C, and have I_P(X;Y) >= that of Q "
            "(rigorous arb balls).",
)
def check_columns_in_v(ctx):
    from rldp_verify.core.information import mu_arb
    from rldp_verify.core.rigorous import arb_precision
    from rldp_verify.core.rigorous import lower as arb_lower
    from rldp_verify.rldp.srr_threshold import cone_c_extreme_rays, in_cone_c

    rng = ctx.rng("rldp.steps.a6.columns-in-v")
    T, merged = Tally(40), []
    with arb_precision(40):
        for (a1, a2), t in itertools.product(((2, 1), (3, 1), (2, 2)), (Fraction(3, 2), Fraction(3))):
            a = a1 * a2
            V = [list(v) for v in printed_column_set(a1, a2, t)]
            for ray in cone_c_extreme_rays(a1, a2, t):   # C's extreme rays (cdd, without V): the columns of the
                T.truth("extreme ray of C in cone(V)", _conic_weights(V, list(ray)) is not None,   # extreme mechanisms
                        {"a1": a1, "a2": a2, "e^eps": str(t)}, ray=[str(x) for x in ray])
            for _ in range(4):
                w = [rng.randint(1, 9) for _ in range(a)]
                P = [Fraction(x, sum(w)) for x in w]
                Q = _random_rldp_mechanism(rng, a, rng.randint(2, a + 2), a1, a2, t)
                pt = {"a1": a1, "a2": a2, "e^eps": str(t), "P": [str(x) for x in P],
                      "Q": [[str(x) for x in col] for col in Q]}
                theta = [Fraction(0)] * len(V)
                split_ok, splits = True, []
                for col in Q:
                    lam = _conic_weights(V, col)
                    splits.append((col, lam))
                    split_ok = T.truth("Q_y in cone(V)", lam is not None, pt, column=[str(x) for x in col]) and split_ok
                    if lam is None:
                        break
                    theta = [x + y for x, y in zip(theta, lam, strict=True)]
                if not split_ok:
                    continue
                cols = [[th * x for x in v] for th, v in zip(theta, V, strict=True) if th]
                T.truth("the merged Q' is a mechanism", all(sum(c[x] for c in cols) == 1 for x in range(a)), pt)
                T.truth("the merged Q' is RLDP", all(in_cone_c(c, a1, a2, t) for c in cols), pt)
                gain = sum((mu_arb(c, P) for c in cols), mu_arb([Fraction(0)] * a, P)) - sum(
                    (mu_arb(c, P) for c in Q), mu_arb([Fraction(0)] * a, P))
                T.truth("I(Q') >= I(Q)", arb_lower(gain) >= 0 or abs(gain) < Fraction(1, 10**30), pt,
                        I_gain=str(gain))
                T.points += 1
                merged.append((a2, t, V, splits, cols))
    claims_ = ("rldp.thm4.dual-certificate", "rldp.thm4.mu-sublinear")
    if T.failure is not None:
        return T.outcome("the reduction to columns in V", statement_claims=claims_)
    return T.outcome("the reduction to columns in V", statement_claims=claims_,
                     certificate_covers=f"the {len(merged)} random mechanisms' exact facts: each column Q_y = "
                                        "sum_v lambda_{y,v} v with lambda >= 0, and the merged Q' (columns theta_v v) "
                                        "a mechanism with columns in C; not the extreme rays' decompositions nor "
                                        "I(Q') >= I(Q) (a gain that may be exactly 0, which arb cannot decide)",
                     **built(_columns_certificates, merged))


def _columns_certificates(merged) -> list[dict]:
    facts = []
    for a2, t, V, splits, cols in merged:
        a = len(V[0])
        f = []
        for col, lam in splits:
            diff = [["-", col[x], ["+", 0, *(["*", l_, v[x]] for l_, v in zip(lam, V, strict=True) if l_)]]
                    for x in range(a)]
            f += [*lam, *diff, *(["-", d] for d in diff)]
        sums = [["-", ["+", *(c[x] for c in cols)], 1] for x in range(a)]
        f += [*sums, *(["-", d] for d in sums), *(x for c in cols for x in c),
              *(e for c in cols for e in inst.prop3_expressions([c], a2, t))]
        facts.append(["min", *f])
    return [inst.all_nonneg_certificate("rldp.steps.a6.columns-in-v: Q_y = sum lambda v (lambda >= 0), Q' a mechanism "
                                        "with columns in C", facts)]
