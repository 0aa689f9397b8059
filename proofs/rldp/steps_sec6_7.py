"""Proof steps in the body of 000_aca93ed29ea857ee.txt (issue 30): the proofs of Lemma 3 (Sec. 7, eqs. (64)-(68))
and Theorem 5 (eqs. (69)-(71)).

Lemma 3: for an eps-LDP mechanism Q and distributions P, P' on X,
    P'(Q(X) = y) - P(Q(X) = y) = sum_x Q_{y|x}(P'_x - P_x)                                           (64)
      = sum_{P'_x >= P_x} Q_{y|x}(P'_x - P_x) - sum_{P'_x < P_x} Q_{y|x}(P_x - P'_x)                  (65)
      <= Q_y^max ||P - P'||_1 / 2 - Q_y^min ||P - P'||_1 / 2                                          (66)
      <= (e^eps - 1) Q_y^min ||P - P'||_1 / 2                                                         (67)
      <= (e^eps - 1) P(Q(X) = y) ||P - P'||_1 / 2.                                                    (68)
(The conversion lost the primes and relation signs; this is our reading.) Theorem 5: ||P_{U|s} - P_{U|s'}||_1 <= d by
the triangle inequality (69)-(71). Wrong variants are the mutants ``steps.body.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import abs_expr
from rldp_verify.claims import Method, claim

from ._sec34 import rand_dist
from ._steps import PAPER, Tally


def printed_66(qmax, qmin, l1):
    """(66): Q_y^max ||P - P'||_1/2 - Q_y^min ||P - P'||_1/2."""
    return qmax * l1 / 2 - qmin * l1 / 2


def printed_67(t, qmin, l1):
    """(67): (e^eps - 1) Q_y^min ||P - P'||_1/2."""
    return (t - 1) * qmin * l1 / 2


def printed_68(t, py, l1):
    """(68): (e^eps - 1) P(Q(X) = y) ||P - P'||_1/2."""
    return (t - 1) * py * l1 / 2


def _l1_expr(x, y) -> list:
    return ["+", *(abs_expr(["-", a, b]) for a, b in zip(x, y, strict=True))]


def _lemma3_step_facts(t, q, P, P2) -> list:
    """The facts of (64)-(68) at one point, from e^eps, Q_y, P, P' (each >= 0 when the step holds): the hypothesis
    e^eps Q_y^min - Q_y^max, then (64) and (65) as +-(difference), then (66) - (65), (67) - (66), (68) - (67)
    and Lemma 3's bound."""
    py, py2 = ["+", *(["*", a, b] for a, b in zip(q, P, strict=True))], ["+", *(["*", a, b] for a, b in zip(q, P2, strict=True))]
    l1, qmax, qmin = _l1_expr(P, P2), ["max", *q], ["min", *q]
    a64 = ["+", *(["*", qq, ["-", b, a]] for qq, a, b in zip(q, P, P2, strict=True))]
    a65 = ["-", ["+", 0, *(["*", qq, ["-", b, a]] for qq, a, b in zip(q, P, P2, strict=True) if b >= a)],
           ["+", 0, *(["*", qq, ["-", a, b]] for qq, a, b in zip(q, P, P2, strict=True) if b < a)]]
    a66 = ["-", ["/", ["*", qmax, l1], 2], ["/", ["*", qmin, l1], 2]]
    a67 = ["/", ["*", ["-", t, 1], qmin, l1], 2]
    a68 = ["/", ["*", ["-", t, 1], py, l1], 2]
    eq64, eq65 = ["-", ["-", py2, py], a64], ["-", a64, a65]
    return [["-", ["*", t, qmin], qmax], eq64, ["-", eq64], eq65, ["-", eq65], ["-", a66, a65], ["-", a67, a66],
            ["-", a68, a67], ["-", ["*", ["+", 1, ["/", ["*", ["-", t, 1], l1], 2]], py], py2]]


@claim(
    id="rldp.steps.body.lemma3-64-68",
    paper=PAPER,
    source="Sec. 7, proof of Lemma 3, eqs. (64)-(68)",
    statement="For eps-LDP Q (Q_y^max <= e^eps Q_y^min) and distributions P, P': (64) = (65) <= (66) <= (67) <= (68), "
              "so P'(Q(X) = y) <= (1 + (e^eps - 1)||P - P'||_1/2) P(Q(X) = y).",
    hypotheses=("Q eps-LDP", "P, P' distributions on X"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Primes and relation signs restored (see the module docstring).",
)
def check_lemma3(ctx):
    rng = ctx.rng("steps.body.lemma3")
    T, points = Tally(50), []
    for k in range(80):
        n = rng.choice((2, 3, 4, 6))
        t = 1 + Fraction(rng.randint(1, 400), 100)
        qmin = Fraction(rng.randint(1, 50), 100)
        q = [qmin] + [qmin * (1 + (t - 1) * Fraction(rng.randint(0, 20), 20)) for _ in range(n - 1)]   # one column y
        rng.shuffle(q)
        P, P2 = rand_dist(rng, n, zeros=(k % 5 == 0)), rand_dist(rng, n, zeros=(k % 7 == 0))
        l1 = sum(abs(a - b) for a, b in zip(P, P2, strict=True))
        py, py2 = sum(a * b for a, b in zip(q, P, strict=True)), sum(a * b for a, b in zip(q, P2, strict=True))
        a64 = sum(qq * (b - a) for qq, a, b in zip(q, P, P2, strict=True))
        a65 = (sum(qq * (b - a) for qq, a, b in zip(q, P, P2, strict=True) if b >= a)
               - sum(qq * (a - b) for qq, a, b in zip(q, P, P2, strict=True) if b < a))
        a66, a67, a68 = printed_66(max(q), min(q), l1), printed_67(t, min(q), l1), printed_68(t, py, l1)
        pt = {"e^eps": str(t), "Q_y": [str(x) for x in q], "P": [str(x) for x in P], "P'": [str(x) for x in P2]}
        T.truth("(64)", py2 - py == a64, pt)
        T.truth("(65)", a64 == a65, pt)
        T.truth("(66)", a65 <= a66, pt, lhs=str(a65), rhs=str(a66))
        T.truth("(67)", a66 <= a67, pt, lhs=str(a66), rhs=str(a67))
        T.truth("(68)", a67 <= a68, pt, lhs=str(a67), rhs=str(a68))
        T.truth("Lemma 3", py2 <= (1 + (t - 1) * l1 / 2) * py, pt)
        T.points += 1
        points.append((t, q, P, P2))
    out = T.outcome("(64)-(68)", statement_claims=("rldp.lemma3.ratio-bound",))
    if T.failure is None:
        out.evidence.update(certificate_covers=inst.cover_note(T.points, min(T.points, inst.CAP), "steps (64)-(68) "
                                                               "(equalities (64), (65) both ways, the inequalities "
                                                               "(66)-(68), the hypothesis and Lemma 3's bound, written "
                                                               "from e^eps, Q_y, P, P'), exactly"),
                            **built(lambda: inst.all_nonneg_certificate(
                                "rldp.steps.body.lemma3-64-68: the facts of (64)-(68)",
                                [["min", *_lemma3_step_facts(*pt_)] for pt_ in points])))
    return out


def printed_70(ds, ds2, l1_hat):
    """(70): d_s + d_s' + ||P^_{U|s} - P^_{U|s'}||_1 (d_s bounds ||P_{U|s} - P^_{U|s}||_1 on F)."""
    return ds + ds2 + l1_hat


@claim(
    id="rldp.steps.body.thm5-69-71",
    paper=PAPER,
    source="Sec. 7, proof of Theorem 5, eqs. (69)-(71)",
    statement="||P_{U|s} - P_{U|s'}||_1 <= ||P_{U|s} - P^_{U|s}||_1 + ||P^_{U|s} - P^_{U|s'}||_1 + ||P^_{U|s'} - "
              "P_{U|s'}||_1 (69) <= d_s + d_s' + ||P^_{U|s} - P^_{U|s'}||_1 (70) <= d (71), for d_s >= the distance of P_{U|s} "
              "from P^_{U|s} and d = max_s 2 d_s + max_{s,s'} ||P^_{U|s} - P^_{U|s'}||_1.",
    hypotheses=("d_s bounds ||P_{U|s} - P^_{U|s}||_1 (rad_s of Proposition 1)",),
    method=(Method.EXACT, Method.PROPERTY),
)
def check_thm5(ctx):
    rng = ctx.rng("steps.body.thm5")
    T, points = Tally(50), []
    for k in range(80):
        n, m = rng.choice((2, 3, 4)), rng.choice((2, 3))
        hat = [rand_dist(rng, n) for _ in range(m)]
        cond = [rand_dist(rng, n) for _ in range(m)]
        dist = [sum(abs(a - b) for a, b in zip(c, h, strict=True)) for c, h in zip(cond, hat, strict=True)]
        ds = [x + Fraction(rng.randint(0, 5), 10) for x in dist]           # any upper bounds d_s
        d = 2 * max(ds) + max(sum(abs(a - b) for a, b in zip(hat[i], hat[j], strict=True)) for i in range(m) for j in range(m))
        s, s2 = rng.sample(range(m), 2)
        l1 = sum(abs(a - b) for a, b in zip(cond[s], cond[s2], strict=True))
        l1_hat = sum(abs(a - b) for a, b in zip(hat[s], hat[s2], strict=True))
        a69 = dist[s] + l1_hat + dist[s2]
        pt = {"s": s, "s'": s2, "k": k}
        T.truth("(69)", l1 <= a69, pt)
        T.truth("(70)", a69 <= printed_70(ds[s], ds[s2], l1_hat), pt)
        T.truth("(71)", printed_70(ds[s], ds[s2], l1_hat) <= d, pt)
        T.points += 1
        points.append((hat, cond, ds, s, s2))
    out = T.outcome("(69)-(71)", statement_claims=("rldp.thm5.ir-private",))
    if T.failure is None:
        out.evidence.update(certificate_covers=inst.cover_note(T.points, min(T.points, inst.CAP), "steps (69)-(71) "
                                                               "(with the hypothesis d_s >= ||P_U|s - P^_U|s||_1 and d "
                                                               "as defined, written from P^, P and d_s), exactly"),
                            **built(lambda: inst.all_nonneg_certificate(
                                "rldp.steps.body.thm5-69-71: the facts of (69)-(71)",
                                [["min", *_thm5_step_facts(*pt_)] for pt_ in points])))
    return out


def _thm5_step_facts(hat, cond, ds, s, s2) -> list:
    """d_s - ||P_U|s - P^_U|s||_1 for every s (the hypothesis), then (69) - lhs, (70) - (69), d - (70), with
    d = 2 max_s d_s + max_{s, s'} ||P^_U|s - P^_U|s'||_1."""
    m = len(hat)
    dist = [_l1_expr(cond[i], hat[i]) for i in range(m)]
    l1_hat = _l1_expr(hat[s], hat[s2])
    a69 = ["+", dist[s], l1_hat, dist[s2]]
    a70 = ["+", ds[s], ds[s2], l1_hat]
    d = ["+", ["*", 2, ["max", *ds]], ["max", *(_l1_expr(hat[i], hat[j]) for i in range(m) for j in range(m))]]
    return [*(["-", ds[i], dist[i]] for i in range(m)), ["-", a69, _l1_expr(cond[s], cond[s2])], ["-", a70, a69],
            ["-", d, a70]]
