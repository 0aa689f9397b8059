"""Proof steps of Appendix A.4 (proof of Theorem 2, eqs. (A59)-(A82)) of 000_aca93ed29ea857ee.txt.

For fixed y, s1 != s2 the proof bounds the LP  max_{t in D} c^T t,  c = (B^{s1,s2})^T Q_y  (A60)/(A67), by its
dual (A68) and solves the dual in closed form (A80)-(A82). Everything here is exact (Fractions): the primal
optimum is recomputed independently as the best vertex of D = prod_s D_s (the vertices of
D_s = {R in P_U : R_u >= L_{u|s}} are L_{.|s} + (1 - sum_u L_{u|s}) e_u).

Reading: the conversion lost the signs of (A63)-(A66) and (A74); we read z_{s,u} = w_s - c_{s,u} (which is what
(A77)-(A79) say) and the dual objective (unnumbered display before (A76)) as
sum_s (1 - sum_u L_{u|s}) w_s + sum_u Q_{y|s1,u} L_{u|s1} - e^eps sum_u Q_{y|s2,u} L_{u|s2}.
Wrong variants of the printed steps are the mutants ``steps.a4.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
from rldp_verify.certificates.series import Formula, numbers, sign_certificate
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, claim

from ._steps import PAPER, Tally

THEOREM_2 = ("rldp.thm2.dual-form", "rldp.thm2.cone-implies-rldp")


def printed_A71(Q_y, s1, s2, t, S, U):
    """(A71): c = (B^{s1,s2})^T Q_y: Q_{y|s1,u} on block s1, -e^eps Q_{y|s2,u} on block s2, 0 elsewhere."""
    return [[Q_y[s][u] if s == s1 else (-t * Q_y[s][u] if s == s2 else Fraction(0)) for u in range(U)]
            for s in range(S)]


def printed_A74(w, c):
    """(A74): z_{s,u} = w_s - c_{s,u} (reading)."""
    return [[w[s] - c[s][u] for u in range(len(c[s]))] for s in range(len(c))]


def printed_A75_lower(Q_y, s1, s2, t, S):
    """(A75)/(A77)-(A79): the lower bounds on w: max_u Q_{y|s1,u}, -e^eps min_u Q_{y|s2,u}, 0 for other s."""
    return [max(Q_y[s1]) if s == s1 else (-t * min(Q_y[s2]) if s == s2 else Fraction(0)) for s in range(S)]


def printed_A76_lhs(w, L, Q_y, s1, s2, t):
    """LHS of (A76): sum_s (1 - sum_u L_{u|s}) w_s + sum_u Q_{y|s1,u} L_{u|s1} - e^eps sum_u Q_{y|s2,u} L_{u|s2}."""
    return (sum((1 - sum(L[s])) * w[s] for s in range(len(w)))
            + sum(q * l for q, l in zip(Q_y[s1], L[s1], strict=True)) - t * sum(q * l for q, l in zip(Q_y[s2], L[s2], strict=True)))


def printed_A80(L, Q_y, s1, s2, t):
    """(A80)."""
    return ((1 - sum(L[s1])) * max(Q_y[s1]) - t * (1 - sum(L[s2])) * min(Q_y[s2])
            + sum(q * l for q, l in zip(Q_y[s1], L[s1], strict=True)) - t * sum(q * l for q, l in zip(Q_y[s2], L[s2], strict=True)))


def printed_A81(L, Q_y, s1, s2, t):
    """(A81): the max over (u1, u2) pulled out of (A80)."""
    U = len(L[0])
    rest = sum(q * l for q, l in zip(Q_y[s1], L[s1], strict=True)) - t * sum(q * l for q, l in zip(Q_y[s2], L[s2], strict=True))
    return max((1 - sum(L[s1])) * Q_y[s1][u1] - t * (1 - sum(L[s2])) * Q_y[s2][u2]
               for u1 in range(U) for u2 in range(U)) + rest


def printed_A82(L, Q_y, s1, s2, t):
    """(A82): max_{u1,u2} Q_{y|u1,s1} - e^eps Q_{y|u2,s2} + sum_u L_{u|s1}(Q_{y|s1,u} - Q_{y|s1,u1})
    - e^eps sum_u L_{u|s2}(Q_{y|s2,u} - Q_{y|s2,u2}) (Definition 3's expression)."""
    U = len(L[0])
    return max(Q_y[s1][u1] - t * Q_y[s2][u2]
               + sum(L[s1][u] * (Q_y[s1][u] - Q_y[s1][u1]) for u in range(U))
               - t * sum(L[s2][u] * (Q_y[s2][u] - Q_y[s2][u2]) for u in range(U))
               for u1 in range(U) for u2 in range(U))


#: the sentence before (A80): "the left-hand side of (A76) is minimal if each w_s attains its maximal value"
PRINTED_EXTREME = "maximal"


def _instance(rng, k):
    S, U = rng.choice((2, 3)), rng.choice((2, 3, 4))
    L = []
    for _s in range(S):
        w = [rng.randint(0, 20) for _ in range(U)]
        tot = sum(w) + (0 if k % 7 == 0 else rng.randint(1, 30))     # every 7th: sum_u L_{u|s} = 1 (boundary)
        L.append([Fraction(x, max(tot, 1)) for x in w])
    Q_y = [[Fraction(rng.randint(0, 50), 50) for _ in range(U)] for _ in range(S)]
    t = Fraction(1) if k % 9 == 0 else 1 + Fraction(rng.randint(1, 400), 100)
    s1, s2 = rng.sample(range(S), 2)
    return S, U, L, Q_y, t, s1, s2


def _primal_max(L, c):
    """max_{t in D} c^T t exactly: the best vertex L_{.|s} + (1 - sum L_{.|s}) e_u of each factor D_s."""
    return sum(sum(l * x for l, x in zip(L[s], c[s], strict=True)) + (1 - sum(L[s])) * max(c[s]) for s in range(len(L)))


# --- issue 23: each sampled point's exact facts as expressions of (L, Q_y, e^eps, s1, s2), re-derived by the checker

DUAL_CAP = 40   # points certified for (A67)-(A82) (Definition 3's expression has U^2 terms: ~12 KB a point)


def _c_expr(Q_y, s1, s2, t, S, U) -> list:
    """(A71)'s c as expressions: Q_{y|s1,u} on block s1, -e^eps Q_{y|s2,u} on block s2, 0 elsewhere."""
    return [[Q_y[s][u] if s == s1 else (["-", ["*", t, Q_y[s][u]]] if s == s2 else 0) for u in range(U)]
            for s in range(S)]


def _primal_expr(L, c) -> list:
    """max over D of c^T t: the best vertex of each D_s, sum_s (sum_u L_{u|s} c_{s,u} + (1 - sum_u L_{u|s}) max_u c_{s,u})."""
    return ["+", *(["+", *(["*", l, x] for l, x in zip(L[s], c[s], strict=True)),
                    ["*", ["-", 1, ["+", *L[s]]], ["max", *c[s]]]] for s in range(len(L)))]


def _rest_expr(L, Q_y, s1, s2, t) -> list:
    return ["-", ["+", *(["*", q, l] for q, l in zip(Q_y[s1], L[s1], strict=True))],
            ["*", t, ["+", *(["*", q, l] for q, l in zip(Q_y[s2], L[s2], strict=True))]]]


def _dual_facts(S, U, L, Q_y, t, s1, s2) -> list:
    """primal - (A80), (A80) - (A81), (A81) - (A82): each 0 when the steps hold."""
    m1, m2 = ["-", 1, ["+", *L[s1]]], ["-", 1, ["+", *L[s2]]]
    a80 = ["+", ["-", ["*", m1, ["max", *Q_y[s1]]], ["*", t, m2, ["min", *Q_y[s2]]]], _rest_expr(L, Q_y, s1, s2, t)]
    a81 = ["+", ["max", *(["-", ["*", m1, Q_y[s1][u1]], ["*", t, m2, Q_y[s2][u2]]] for u1 in range(U)
                          for u2 in range(U))], _rest_expr(L, Q_y, s1, s2, t)]
    a82 = inst.definition3_max_expr([q for row in Q_y for q in row], L, t, s1, s2, U)
    return [["-", _primal_expr(L, _c_expr(Q_y, s1, s2, t, S, U)), a80], ["-", a80, a81], ["-", a81, a82]]


def _dual_value_expr(w, L, Q_y, s1, s2, t) -> list:
    """The LHS of (A76) (the dual objective, our reading) as an expression."""
    return ["+", *(["*", ["-", 1, ["+", *L[s]]], w[s]] for s in range(len(w))), _rest_expr(L, Q_y, s1, s2, t)]


def _lower_expr(Q_y, s1, s2, t, S) -> list:
    """(A77)-(A79)'s bounds on w as expressions: max_u Q_{y|s1,u}, -e^eps min_u Q_{y|s2,u}, 0."""
    return [["max", *Q_y[s1]] if s == s1 else (["-", ["*", t, ["min", *Q_y[s2]]]] if s == s2 else 0) for s in range(S)]


def _feasibility_facts(S, U, L, Q_y, t, s1, s2, ws) -> tuple[list, list]:
    """(facts >= 0, facts > 0) of one point: per feasible trial w, z = w - c >= 0, w >= the bounds and the dual value
    >= the primal; per infeasible one, some z < 0 and some w below its bound (-max(min z, min(w - bound)) > 0); at the
    bounds the dual value equals the primal (both ways)."""
    c, low = _c_expr(Q_y, s1, s2, t, S, U), _lower_expr(Q_y, s1, s2, t, S)
    primal = _primal_expr(L, c)
    nonneg, positive = [], []
    for w, feasible in ws:
        zmin = ["min", *(["-", w[s], x] for s in range(S) for x in c[s])]
        wmin = ["min", *(["-", w[s], low[s]] for s in range(S))]
        if feasible:
            nonneg += [zmin, wmin, ["-", _dual_value_expr(w, L, Q_y, s1, s2, t), primal]]
        else:
            positive.append(["-", ["max", zmin, wmin]])
    at_bounds = ["-", _dual_value_expr(low, L, Q_y, s1, s2, t), primal]
    return nonneg + [at_bounds, ["-", at_bounds]], positive


@claim(
    id="rldp.steps.a4.a67-a82-dual",
    paper=PAPER,
    source="App. A.4, proof of Theorem 2, eqs. (A60), (A67)-(A68), (A71), (A80)-(A82)",
    statement="For every y, s1 != s2 the LP max_{t in D} ((B^{s1,s2})^T Q_y)^T t of (A60)/(A67) equals (by the duality "
              "(A68)) the minimum (A80) of the dual, and (A80) = (A81) = (A82).",
    hypotheses=("L_{u|s} >= 0, sum_u L_{u|s} <= 1", "Q_y >= 0", "e^eps >= 1"),
    method=(Method.EXACT, Method.PROPERTY),
)
def check_dual(ctx):
    rng = ctx.rng("steps.a4.dual")
    t_, points = Tally(50), []
    for k in range(120):
        S, U, L, Q_y, t, s1, s2 = _instance(rng, k)
        c = printed_A71(Q_y, s1, s2, t, S, U)
        primal = _primal_max(L, c)
        pt = {"L": [[str(x) for x in r] for r in L], "Q_y": [[str(x) for x in r] for r in Q_y], "e^eps": str(t),
              "s1": s1, "s2": s2}
        v80, v81, v82 = printed_A80(L, Q_y, s1, s2, t), printed_A81(L, Q_y, s1, s2, t), printed_A82(L, Q_y, s1, s2, t)
        t_.truth("(A68): primal max = (A80)", primal == v80, pt, primal=primal, A80=v80)
        t_.truth("(A80) = (A81)", v80 == v81, pt, A80=v80, A81=v81)
        t_.truth("(A81) = (A82)", v81 == v82, pt, A81=v81, A82=v82)
        t_.points += 1
        points.append((S, U, L, Q_y, t, s1, s2))
    if t_.failure is not None:
        return t_.outcome("(A67)-(A82)", statement_claims=THEOREM_2)
    return t_.outcome("(A67)-(A82)", statement_claims=THEOREM_2,
                      certificate_covers=inst.cover_note(t_.points, min(t_.points, DUAL_CAP), "primal maximum (best "
                                                         "vertex of D) = (A80) = (A81) = (A82), written from L, Q_y, "
                                                         "e^eps"),
                      **built(lambda: inst.all_zero_certificate("rldp.steps.a4.a67-a82-dual: primal - (A80), (A80) - "
                                                                "(A81), (A81) - (A82)",
                                                                [f for pt_ in points[:DUAL_CAP]
                                                                 for f in _dual_facts(*pt_)], cap=3 * DUAL_CAP)))


@claim(
    id="rldp.steps.a4.a74-a79-feasibility",
    paper=PAPER,
    source="App. A.4, proof of Theorem 2, eqs. (A74)-(A79) and the dual objective before (A76)",
    statement="With z_{s,u} = w_s - c_{s,u} (A74), z >= 0 iff w satisfies (A77)-(A79) ((A75)); every such w gives a dual "
              "value (LHS of (A76)) not below the primal maximum (weak duality), and w at the bounds of (A77)-(A79) "
              "attains it.",
    hypotheses=("L_{u|s} >= 0, sum_u L_{u|s} <= 1", "Q_y >= 0", "e^eps >= 1"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Signs of (A63)-(A66), (A74) restored (see the module docstring).",
)
def check_feasibility(ctx):
    rng = ctx.rng("steps.a4.feasibility")
    t_, points = Tally(50), []
    for k in range(120):
        S, U, L, Q_y, t, s1, s2 = _instance(rng, k)
        c = printed_A71(Q_y, s1, s2, t, S, U)
        primal = _primal_max(L, c)
        low = printed_A75_lower(Q_y, s1, s2, t, S)
        pt = {"L": [[str(x) for x in r] for r in L], "Q_y": [[str(x) for x in r] for r in Q_y], "e^eps": str(t),
              "s1": s1, "s2": s2}
        ws = []
        for trial in range(4):
            w = [b + Fraction(rng.randint(-3, 3), 4) * (trial > 0) for b in low]
            z = printed_A74(w, c)
            feasible = all(x >= 0 for r in z for x in r)
            ws.append((w, feasible))
            t_.truth("(A75): z >= 0 iff (A77)-(A79)", feasible == all(a >= b for a, b in zip(w, low, strict=True)), {**pt, "w": [str(x) for x in w]})
            if feasible:
                t_.truth("weak duality", printed_A76_lhs(w, L, Q_y, s1, s2, t) >= primal, {**pt, "w": [str(x) for x in w]},
                         dual=printed_A76_lhs(w, L, Q_y, s1, s2, t), primal=primal)
        t_.truth("bounds attain the primal", printed_A76_lhs(low, L, Q_y, s1, s2, t) == primal, pt,
                 dual=printed_A76_lhs(low, L, Q_y, s1, s2, t), primal=primal)
        t_.points += 1
        points.append((S, U, L, Q_y, t, s1, s2, ws))
    if t_.failure is not None:
        return t_.outcome("(A74)-(A79)", statement_claims=THEOREM_2)
    return t_.outcome("(A74)-(A79)", statement_claims=THEOREM_2,
                      certificate_covers=inst.cover_note(t_.points, min(t_.points, inst.CAP), "trials (z = w - c >= 0 "
                                                         "exactly when w meets the bounds (A77)-(A79), weak duality "
                                                         "for the feasible w, the bounds attaining the primal), "
                                                         "written from L, Q_y, e^eps and w"),
                      **built(_feasibility_certificates, points))


def _feasibility_certificates(points) -> list[dict]:
    name = "rldp.steps.a4.a74-a79-feasibility"
    nonneg, positive = [], []
    for pt_ in points[:inst.CAP]:
        a, b = _feasibility_facts(*pt_)
        nonneg.append(["min", *a])
        positive += b
    docs = [inst.all_nonneg_certificate(f"{name}: feasible trials and the bounds' dual value", nonneg)]
    if positive:
        docs.append(inst.all_positive_certificate(f"{name}: infeasible trials (some z < 0 and some w below its "
                                                  "bound)", positive, cap=len(positive)))
    return docs


def w_extreme_certificates(low, up, L, Q_y, t, s1, s2) -> list[dict]:
    """Exact certificates of the counterexample: the hypotheses (L >= 0, sum_u L_{u|s} <= 1, Q_y >= 0, e^eps >= 1),
    w_low equal to the bounds (A77)-(A79) (max_u Q_{y|s1,u}, -e^eps min_u Q_{y|s2,u}, 0), w_raised >= w_low (so both
    feasible), and the LHS of (A76), re-evaluated from the printed formula, larger at w_raised: the LHS is not
    minimal where w_s is larger."""
    S = len(L)
    Lf = [numbers(*row) for row in L]
    Qf = [numbers(*row) for row in Q_y]
    T = Formula.number(t)
    hyp = ["min", *(x for row in L for x in row), *(1 - sum(row) for row in L), *(x for row in Q_y for x in row), t - 1]
    lower = [["max", *(q.node for q in Qf[s1])] if s == s1 else
             (["*", -1, T.node, ["min", *(q.node for q in Qf[s2])]] if s == s2 else 0) for s in range(S)]
    diff = ["max", *(["max", ["-", Formula.of(w), b], ["-", b, Formula.of(w)]] for w, b in zip(low, lower, strict=True))]
    lhs_up = printed_A76_lhs(numbers(*up), Lf, Qf, s1, s2, T)
    lhs_low = printed_A76_lhs(numbers(*low), Lf, Qf, s1, s2, T)
    return [value_certificate("hypotheses: L >= 0, sum_u L_{u|s} <= 1, Q_y >= 0, e^eps >= 1",
                              hyp, lower=0, exact=True),
            value_certificate("w_low equals the bounds of (A77)-(A79)", diff, lower=0, upper=0, exact=True),
            value_certificate("w_raised - w_low >= 0 (both feasible: (A77)-(A79) bound w from below only)",
                              ["min", *(["-", Formula.of(a), Formula.of(b)] for a, b in zip(up, low, strict=True))],
                              lower=0, exact=True),
            sign_certificate("(A76)'s LHS at w_raised - at w_low > 0: larger w_s raises the LHS, so it is not minimal "
                             "where w_s is maximal", lhs_up - lhs_low, exact=True)]


@claim(
    id="rldp.steps.a4.w-extreme-value",
    paper=PAPER,
    source="App. A.4, proof of Theorem 2, the sentence before (A80): 'Since sum_u L_{u|s} <= 1 for all s, it follows that "
           "the left-hand side of (A76) is minimal if each w_s attains its maximal value, subject to the constraints "
           "(A77)-(A79)'",
    statement="Under (A77)-(A79) the LHS of (A76) is minimal where each w_s takes its maximal value.",
    hypotheses=("L_{u|s} >= 0, sum_u L_{u|s} <= 1", "Q_y >= 0", "e^eps >= 1"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="(A77)-(A79) bound each w_s from below (z >= 0 with (A74), rldp.steps.a4.a74-a79-feasibility), and the "
            "coefficient of w_s in (A76) is 1 - sum_u L_{u|s} >= 0. We test the printed 'maximal' against what the "
            "LHS does when w moves inside the feasible set.",
)
def check_w_extreme(ctx):
    rng = ctx.rng("steps.a4.w-extreme")
    t_ = Tally(50)
    cex = None
    for k in range(60):
        S, U, L, Q_y, t, s1, s2 = _instance(rng, k)
        low = printed_A75_lower(Q_y, s1, s2, t, S)
        s = rng.randrange(S)
        up = list(low)
        up[s] += Fraction(rng.randint(1, 100), 10)     # still feasible: (A77)-(A79) only bound w from below
        f_low, f_up = printed_A76_lhs(low, L, Q_y, s1, s2, t), printed_A76_lhs(up, L, Q_y, s1, s2, t)
        # where is the LHS minimal along this feasible direction?  larger w_s never lowers it when the LHS increases
        direction = "maximal" if f_up < f_low else ("minimal" if f_up > f_low else "either")
        pt = {"L": [[str(x) for x in r] for r in L], "Q_y": [[str(x) for x in r] for r in Q_y], "e^eps": str(t),
              "s1": s1, "s2": s2, "w_low": [str(x) for x in low], "w_raised": [str(x) for x in up], "raised": s}
        ok = t_.truth("minimal at the maximal w", direction in (PRINTED_EXTREME, "either"), pt,
                      lhs_at_lower_bounds=f_low, lhs_after_raising=f_up, coefficient=1 - sum(L[s]),
                      minimised_where=f"w_s at its {direction} value (w_s has no maximal value: the feasible set is "
                                      f"unbounded above)")
        if not ok and cex is None:
            cex = (low, up, L, Q_y, t, s1, s2)
        t_.points += 1
    return t_.outcome("the extreme value of w in (A76)", statement_claims=THEOREM_2 + ("rldp.steps.a4.a67-a82-dual",),
                      **(built(w_extreme_certificates, *cex) if cex else {}),
                      repair="'minimal if each w_s attains its minimal value' (the bounds of (A77)-(A79)); substituting "
                             "them gives (A80), which rldp.steps.a4.a67-a82-dual checks")
