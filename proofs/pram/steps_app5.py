"""Proof steps of the PRAM paper's appendix (Sec. 5: proofs of Proposition 3.1, Fact 1 and Proposition 3.2) of
002_e8b3078a5cf2ef08.txt (issue 30): the cross-references of the proof of Lemma 5.1.

The proof uses two inequalities between two coordinates q_i, q_j of a DP parameter vector and cites a display for
each: "(S-1) q_i + e^alpha q_j <= e^alpha" ("using formula (19)") and "(S-1) e^alpha q_i + q_j >= 1" ("from formula
(21)"). The claim finds, symbolically, which of the appendix's constraints (12)-(19) state each inequality (with
either coordinate as x) and compares with the cited number. (15) is read as -(S-1)e^alpha x - y <= -1, the repair
of its misprint found by ``pram.sec5-2.eq12-17-as-printed``.
"""

from __future__ import annotations

import sympy as sp

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER

S, t, x, y, qi, qj = sp.symbols("S t x y q_i q_j", positive=True)

#: the appendix's constraints on a pair (x, y) = (q_k, q_l), each as g(x, y) <= 0 (t = e^alpha)
CONSTRAINTS = {
    "12": (S - 1) * x + t * y - t,
    "13": (S - 1) * y + t * x - t,
    "14": -(S - 1) * t * y - x + 1,
    "15": -(S - 1) * t * x - y + 1,
    "16": t * y - x - (t - 1),
    "17": t * x - y - (t - 1),
    "18": 1 - (y - t**2 * x),
    "19": 1 - (x - t**2 * y),
}

#: the inequalities the proof of Lemma 5.1 uses, as g(q_i, q_j) <= 0, and the display each cites
USED = {
    "(S-1) q_i + e^alpha q_j <= e^alpha": (S - 1) * qi + t * qj - t,
    "(S-1) e^alpha q_i + q_j >= 1": 1 - ((S - 1) * t * qi + qj),
}
PRINTED_CITES = {"(S-1) q_i + e^alpha q_j <= e^alpha": "19", "(S-1) e^alpha q_i + q_j >= 1": "21"}


def _coefficients(expr):
    """(coefficient of q_i, of q_j, constant) of a linear form in q_i, q_j."""
    expr = sp.expand(expr)
    return [expr.coeff(qi), expr.coeff(qj), expr.subs({qi: 0, qj: 0})]


def _states(g_label, used) -> bool:
    """True when constraint ``g_label`` (with (x, y) = (q_i, q_j) or (q_j, q_i)) is a positive multiple of ``used``:
    proportional coefficient vectors (every 2 x 2 minor expands to 0) with a positive factor (checked at S = 5, t = 2)."""
    u = _coefficients(used)
    for sub in ({x: qi, y: qj}, {x: qj, y: qi}):
        g = _coefficients(CONSTRAINTS[g_label].subs(sub, simultaneous=True))
        if any(sp.expand(g[a] * u[b] - g[b] * u[a]) != 0 for a in range(3) for b in range(a + 1, 3)):
            continue
        k = next(i for i in range(3) if u[i] != 0)
        if (g[k] / u[k]).subs({S: 5, t: 2}) > 0:
            return True
    return False


@claim(
    id="pram.steps.app5-3.lemma5-1-citations",
    paper=PAPER,
    source="App. 5.3, proof of Lemma 5.1: 'Then for any other q_j, using formula (19), ...' and 'For any other q_j, from "
           "formula (21), ...'",
    statement="The inequality (S-1) q_i + e^alpha q_j <= e^alpha is (19), and (S-1) e^alpha q_i + q_j >= 1 is (21).",
    hypotheses=("the appendix's displays (12)-(19), (15) as repaired",),
    method=Method.SYMBOLIC,
)
def check_citations(ctx):
    found = {}
    wrong = {}
    for name, used in USED.items():
        labels = [lbl for lbl in CONSTRAINTS if _states(lbl, used)]
        found[name] = labels
        cited = PRINTED_CITES[name]
        if cited not in labels:
            wrong[name] = {"cited": f"({cited})" + ("" if cited in CONSTRAINTS else ", a number no display of the paper has"),
                           "stated_by": [f"({lbl})" for lbl in labels]}
    evidence = {"stated_by": {k: [f"({lbl})" for lbl in v] for k, v in found.items()}}
    if not wrong:
        return Outcome.verified("each inequality of Lemma 5.1's proof is stated by the display it cites", **evidence)
    evidence.update(_citation_certificates(wrong))
    return Outcome.refuted(
        "the proof of Lemma 5.1 cites the wrong displays: " + "; ".join(
            f"'{k}' cites {v['cited']} but is {', '.join(v['stated_by']) or 'no display of (12)-(19)'}"
            for k, v in wrong.items()),
        counterexample=wrong, kind="misprint", statement_checked_by=["pram.lemma5-1.at-most-one"],
        repair="cite (12) (or (13)) for the first inequality and (14) (or the repaired (15)) for the second",
        **evidence)


def _citation_certificates(wrong: dict) -> dict:
    """Per wrongly cited display that exists: for both readings (x, y) = (q_i, q_j), (q_j, q_i), a 2 x 2 minor of the
    coefficient vectors (display, used inequality) that is non-zero at S = 5, e^alpha = 2 (a ``rigorous-value``
    certificate): the display is not a multiple of the inequality, so it does not state it. A cited number that no
    display has is read off the paper, not certified."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.identity import refutation_certificate

    def docs():
        out = []
        for name in wrong:
            label = PRINTED_CITES[name]
            if label not in CONSTRAINTS:
                continue
            u = _coefficients(USED[name])
            for sub in ({x: qi, y: qj}, {x: qj, y: qi}):
                g = _coefficients(CONSTRAINTS[label].subs(sub, simultaneous=True))
                a, b = next((a, b) for a in range(3) for b in range(a + 1, 3)
                            if sp.expand(g[a] * u[b] - g[b] * u[a]).subs({S: 5, t: 2}) != 0)
                out.append(refutation_certificate(
                    f"({label}) with (x, y) = ({sub[x]}, {sub[y]}) is not a multiple of '{name}': minor ({a}, {b}) of "
                    "the coefficient vectors is non-zero at S = 5, e^alpha = 2", g[a] * u[b], g[b] * u[a], {S: 5, t: 2}))
        return out
    ev = built(docs)
    if any(PRINTED_CITES[n] not in CONSTRAINTS for n in wrong):
        ev["certificate_covers"] = ("the wrong citations of existing displays; not the cited numbers that no display "
                                    "of the paper has (read off its text)")
    return ev


def printed_A1_offdiagonal(theta, qk, qk2, S_):
    """App. 5.1: Q_{theta q + (1-theta) q'}(Z=l|X=k) = (theta(1-q_k) + (1-theta)(1-q'_k))/(S-1)."""
    return (theta * (1 - qk) + (1 - theta) * (1 - qk2)) / (S_ - 1)


@claim(
    id="pram.steps.app5-1.q-affine",
    paper=PAPER,
    source="App. 5.1, proof of Proposition 3.1: the two displays and 'Therefore, Q_{theta q + (1-theta) q'} = theta Q_q + "
           "(1-theta) Q_q''",
    statement="The PRAM matrix (8) is affine in q: Q_{theta q + (1-theta) q'} = theta Q_q + (1-theta) Q_q', entry by entry "
              "(diagonal theta q_k + (1-theta) q'_k, off-diagonal (theta(1-q_k) + (1-theta)(1-q'_k))/(S-1)).",
    hypotheses=("S >= 2", "q, q' in [0, 1]^S", "theta in [0, 1]"),
    method=(Method.EXACT, Method.PROPERTY),
)
def check_q_affine(ctx):
    from fractions import Fraction

    from rldp_verify.topics.pram import pram_matrix

    from ..rldp._steps import Tally

    rng = ctx.rng("pram.steps.q-affine")
    T = Tally(50)
    points = []
    for _k in range(40):
        S_ = rng.choice((2, 3, 4, 6))
        q = [Fraction(rng.randint(0, 20), 20) for _ in range(S_)]
        q2 = [Fraction(rng.randint(0, 20), 20) for _ in range(S_)]
        theta = Fraction(rng.randint(0, 12), 12)
        mix = pram_matrix([theta * a + (1 - theta) * b for a, b in zip(q, q2, strict=True)])
        A, B = pram_matrix(q), pram_matrix(q2)
        pt = {"S": S_, "q": [str(v) for v in q], "q'": [str(v) for v in q2], "theta": str(theta)}
        T.truth("affine", all(mix[i][j] == theta * A[i][j] + (1 - theta) * B[i][j] for i in range(S_) for j in range(S_)),
                pt)
        i, j = 0, 1
        T.truth("off-diagonal display", printed_A1_offdiagonal(theta, q[i], q2[i], S_) == mix[i][j], pt,
                printed=str(printed_A1_offdiagonal(theta, q[i], q2[i], S_)), recomputed=str(mix[i][j]))
        T.points += 1
        points.append((q, q2, theta))
    return T.outcome("Q affine in q", statement_claims=("pram.prop3-1.f-convex",),
                     **_q_affine_evidence(points, T.failure is None))


def _q_affine_evidence(points, verified: bool) -> dict:
    """One exact certificate over every point (q, q', theta): every entry of Q_{theta q + (1-theta) q'} minus
    theta Q_q + (1-theta) Q_q' is 0 and the printed off-diagonal display equals entry (0, 1) of the left-hand side,
    each matrix written from its q by (8) (diagonal q_k, off-diagonal (1 - q_k)/(S - 1))."""
    if not verified:
        return {}
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import all_zero, covers

    def M(q, i, j):
        return q[i] if i == j else ["/", ["-", 1, q[i]], len(q) - 1]

    def terms():
        out = []
        for q, q2, th in points:
            mix = [["+", ["*", th, a], ["*", ["-", 1, th], b]] for a, b in zip(q, q2, strict=True)]
            S_ = len(q)
            out += [["-", M(mix, i, j), ["+", ["*", th, M(q, i, j)], ["*", ["-", 1, th], M(q2, i, j)]]]
                    for i in range(S_) for j in range(S_)]
            out.append(["-", ["/", ["+", ["*", th, ["-", 1, q[0]]], ["*", ["-", 1, th], ["-", 1, q2[0]]]], S_ - 1],
                        M(mix, 0, 1)])
        return all_zero(f"Q of (8) affine in q and the off-diagonal display, at {len(points)} sampled points", out)
    return {"certificate_covers": covers(len(points), len(points), "equalities (every entry, and the printed "
                                         "off-diagonal display)"), **built(terms)}


def printed_lemma51_bound(S_, t_, sign):
    """The bounds the proof of Lemma 5.1 derives: q_j < e^alpha/(S-1+e^alpha) (sign +1) and
    q_j > e^-alpha/(S-1+e^-alpha) (sign -1)."""
    return t_**sign / (S_ - 1 + t_**sign)


@claim(
    id="pram.steps.app5-3.lemma5-1-algebra",
    paper=PAPER,
    source="App. 5.3, proof of Lemma 5.1: the displays after 'using formula (19)' and 'from formula (21)' and the two "
           "'Therefore' steps",
    statement="If q_i > e^a/(S-1+e^a) and (S-1) q_i + e^a q_j <= e^a then (S-1)/(S-1+e^a) + q_j < 1, i.e. q_j < "
              "e^a/(S-1+e^a); if q_i < e^-a/(S-1+e^-a) and (S-1) e^a q_i + q_j >= 1 then (S-1)/(S-1+e^-a) + q_j > 1, "
              "i.e. q_j > e^-a/(S-1+e^-a).",
    hypotheses=("S >= 2", "e^a > 1"),
    method=(Method.SYMBOLIC, Method.EXACT, Method.PROPERTY),
)
def check_lemma51_algebra(ctx):
    from fractions import Fraction

    from ..rldp._steps import Tally

    T = Tally(50)
    # symbolic: the bounds solve the printed intermediate inequalities with equality
    up = sp.simplify(1 - (S - 1) / (S - 1 + t) - printed_lemma51_bound(S, t, 1))
    lo = sp.simplify(1 - (S - 1) / (S - 1 + 1 / t) - printed_lemma51_bound(S, t, -1))
    identities = {"1 - (S-1)/(S-1+e^a) = e^a/(S-1+e^a)": (1 - (S - 1) / (S - 1 + t), printed_lemma51_bound(S, t, 1)),
                  "1 - (S-1)/(S-1+e^-a) = e^-a/(S-1+e^-a)": (1 - (S - 1) / (S - 1 + 1 / t),
                                                             printed_lemma51_bound(S, t, -1))}
    T.truth("solved for q_j (upper)", up == 0, {}, difference=str(up))
    T.truth("solved for q_j (lower)", lo == 0, {}, difference=str(lo))
    # exact: random S, e^a, q_i beyond the threshold and q_j satisfying the constraint obey the derived bound
    rng = ctx.rng("pram.steps.lemma51")
    for k in range(60):
        S_ = rng.randint(2, 8)
        t_ = 1 + Fraction(rng.randint(1, 300), 100)
        sign = 1 if k % 2 else -1
        thr = printed_lemma51_bound(S_, t_, sign)
        if sign == 1:
            qi_ = thr + (1 - thr) * Fraction(rng.randint(1, 99), 100)
            qj_max = (t_ - (S_ - 1) * qi_) / t_               # the constraint (S-1) q_i + e^a q_j <= e^a, tight
            ok = qj_max < thr
        else:
            qi_ = thr * Fraction(rng.randint(1, 99), 100)
            qj_min = 1 - (S_ - 1) * t_ * qi_                  # the constraint (S-1) e^a q_i + q_j >= 1, tight
            ok = qj_min > thr
        T.truth("derived bound", ok, {"S": S_, "e^a": str(t_), "q_i": str(qi_), "side": sign})
        T.points += 1
    from rldp_verify.certificates.identity import identity_evidence

    return T.outcome("Lemma 5.1's algebra", statement_claims=("pram.lemma5-1.at-most-one",),
                     **identity_evidence("pram.steps.app5-3.lemma5-1-algebra", identities,
                                         uncovered="the implication itself, checked at 60 sampled exact points"))


def printed_theta(q1, v_a, v_max):
    """Settings 2 and 4: 'denoting theta = (q_1 - v_alpha)/(v_max - v_alpha)' (theta_1 in setting 4)."""
    return (q1 - v_a) / (v_max - v_a)


def printed_theta2(q2, v_ma, v_min):
    """Setting 4: theta_2 = (q_2 - v_-alpha)/(v_min - v_-alpha)."""
    return (q2 - v_ma) / (v_min - v_ma)


def _values(S_, t_):
    v_a, v_ma = t_ / (S_ - 1 + t_), (1 / t_) / (S_ - 1 + 1 / t_)
    v_max, v_min = t_ / (1 / t_ + S_ - 1), (1 / t_) / (t_ + S_ - 1)
    return v_a, v_ma, v_max, v_min


@claim(
    id="pram.steps.app5-3.settings-2-4",
    paper=PAPER,
    source="App. 5.3, proof of Proposition 3.2, settings 2 and 4: the intervals for q_k ('(12) gives that (q_k, q_1) is "
           "below the line ...', 'Therefore, q_k satisfies') and the convex combinations ('We conclude as we notice that', "
           "'We conclude by noticing that')",
    statement="For DP q in setting 2 (v_a < q_1 <= v_max, the rest in [v_-a, v_a]): v_-a <= q_k <= theta v_-a + "
              "(1-theta) v_a with theta = (q_1 - v_a)/(v_max - v_a), and theta (v_max, v_-a, ...) + (1-theta)(v_a, "
              "v_{i_2 a}, ...) = (q_1, x_2, ...) for x_k at the ends of that interval; in setting 4 (v_a < q_1 <= v_max, "
              "v_min <= q_2 < v_-a): theta_1, theta_2 >= 0, theta_1 + theta_2 <= 1, (q_1, q_2) = theta_1 (v_max, v_-a) + "
              "theta_2 (v_a, v_min) + (1-theta_1-theta_2)(v_a, v_-a), and theta_2 v_a + (1-theta_2) v_-a <= q_k <= theta_1 "
              "v_-a + (1-theta_1) v_a for k >= 3.",
    hypotheses=("S >= 5", "alpha <= log((S + sqrt(S(S-4)) - 2)/2) (Proposition 3.2's condition)", "q alpha-DP"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="theta_2 is read as (q_2 - v_-a)/(v_min - v_-a), the weight of the vertex (v_a, v_min).",
)
def check_settings(ctx):
    import math
    from fractions import Fraction

    from rldp_verify.topics.pram import is_private

    from ..rldp._steps import Tally

    rng = ctx.rng("pram.steps.settings")
    T = Tally(50)
    points = []
    counts = {"setting 2": 0, "setting 4": 0}
    tries = 0
    while (counts["setting 2"] < 12 or counts["setting 4"] < 12) and tries < 4000:
        tries += 1
        S_ = rng.choice((5, 6, 8))
        bound = (S_ + math.sqrt(S_ * (S_ - 4)) - 2) / 2
        t_ = 1 + Fraction(rng.randint(1, 99), 100) * Fraction(bound - 1).limit_denominator(1000) * Fraction(99, 100)
        v_a, v_ma, v_max, v_min = _values(S_, t_)
        u = lambda lo, hi: lo + (hi - lo) * Fraction(rng.randint(1, 999), 1000)   # noqa: E731
        four = counts["setting 2"] >= 12 or (counts["setting 4"] < 12 and rng.random() < 0.5)
        q = [u(v_a, v_max), u(v_min, v_ma) if four else u(v_ma, v_a)] + [u(v_ma, v_a) for _ in range(S_ - 2)]
        if not is_private(q, t_):
            continue
        pt = {"S": S_, "e^a": str(t_), "q": [str(x) for x in q]}
        th = printed_theta(q[0], v_a, v_max)
        if not four:
            counts["setting 2"] += 1
            for x in q[1:]:
                T.truth("setting 2: q_k interval", v_ma <= x <= th * v_ma + (1 - th) * v_a, pt, q_k=str(x))
            ends = [rng.choice((v_ma, th * v_ma + (1 - th) * v_a)) for _ in range(S_ - 1)]
            i_k = [(-1 if x == v_ma else 1) for x in ends]
            comb = [th * v_max + (1 - th) * v_a] + [th * v_ma + (1 - th) * (v_ma if i == -1 else v_a) for i in i_k]
            T.truth("setting 2: combination", comb == [q[0]] + ends, pt)
        else:
            counts["setting 4"] += 1
            th2 = printed_theta2(q[1], v_ma, v_min)
            T.truth("setting 4: weights", th >= 0 and th2 >= 0 and th + th2 <= 1, pt, theta1=str(th), theta2=str(th2))
            pair = (th * v_max + th2 * v_a + (1 - th - th2) * v_a, th * v_ma + th2 * v_min + (1 - th - th2) * v_ma)
            T.truth("setting 4: (q_1, q_2)", pair == (q[0], q[1]), pt)
            for x in q[2:]:
                T.truth("setting 4: q_k interval", th2 * v_a + (1 - th2) * v_ma <= x <= th * v_ma + (1 - th) * v_a, pt,
                        q_k=str(x))
        points.append((S_, t_, q, four, None if four else ends))
        T.points += 1
    if min(counts.values()) < 12:
        return Outcome.inconclusive(f"too few DP points drawn in {tries} tries: {counts}", counts=counts)
    return T.outcome("settings 2 and 4", statement_claims=("pram.prop3-2.vertex-set",), counts=counts, draws=tries,
                     **(_settings_evidence(points) if T.failure is None else {}))


def _settings_point(S_, t_, q, four, ends) -> tuple[list, list]:
    """(terms >= 0, terms = 0) of one point: M(q) of (8) is e^alpha-DP (the hypothesis) and the steps of setting 2
    (q_k intervals, the combination equals (q_1, ends)) or setting 4 (weights, (q_1, q_2), q_k intervals), with
    v_a, v_-a, v_max, v_min, theta, theta_2 written from S, e^alpha and q."""
    from rldp_verify.certificates.instances_other import ldp_terms

    t, va, vma, vmax, vmin, th, th2 = "$t", "$va", "$vma", "$vmax", "$vmin", "$th", "$th2"
    M = [[q[k] if z == k else ["/", ["-", 1, q[k]], S_ - 1] for z in range(S_)] for k in range(S_)]
    nonneg, zero = ldp_terms(M, t), []
    hi = ["+", ["*", th, vma], ["*", ["-", 1, th], va]]
    if not four:
        nonneg += [t_ for x in q[1:] for t_ in (["-", x, vma], ["-", hi, x])]
        zero.append(["-", ["+", ["*", th, vmax], ["*", ["-", 1, th], va]], q[0]])
        zero += [["-", ["+", ["*", th, vma], ["*", ["-", 1, th], vma if e == _values(S_, t_)[1] else va]], e]
                 for e in ends]
    else:
        nonneg += [th, th2, ["-", ["-", 1, th], th2]]
        zero += [["-", ["+", ["*", th, vmax], ["*", th2, va], ["*", ["-", ["-", 1, th], th2], va]], q[0]],
                 ["-", ["+", ["*", th, vma], ["*", th2, vmin], ["*", ["-", ["-", 1, th], th2], vma]], q[1]]]
        lo = ["+", ["*", th2, va], ["*", ["-", 1, th2], vma]]
        nonneg += [t_ for x in q[2:] for t_ in (["-", x, lo], ["-", hi, x])]
    binds = [["t", t_], ["va", ["/", t, ["+", S_ - 1, t]]], ["vma", ["/", ["/", 1, t], ["+", S_ - 1, ["/", 1, t]]]],
             ["vmax", ["/", t, ["+", ["/", 1, t], S_ - 1]]], ["vmin", ["/", ["/", 1, t], ["+", t, S_ - 1]]],
             ["th", ["/", ["-", q[0], va], ["-", vmax, va]]], ["th2", ["/", ["-", q[1], vma], ["-", vmin, vma]]]]
    return [["let", binds, ["min", *nonneg]]], [["let", binds, ["max", *[["max", z, ["-", z]] for z in zero]]]]


def _settings_evidence(points) -> dict:
    """Two exact certificates over every sampled point: the inequalities (and the DP hypothesis) and the equalities
    of settings 2 and 4 (:func:`_settings_point`)."""
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import all_nonneg, covers

    def docs():
        nonneg, zero = [], []
        for p in points:
            a, b = _settings_point(*p)
            nonneg += a
            zero += b
        from rldp_verify.certificates.value import value_certificate

        return [all_nonneg(f"settings 2 and 4: M(q) e^alpha-DP and every inequality, {len(points)} sampled q", nonneg),
                value_certificate(f"settings 2 and 4: every equality, {len(points)} sampled q", ["max", *zero],
                                  lower=0, upper=0, exact=True)]
    return {"certificate_covers": covers(len(points), len(points), "steps (the DP hypothesis, the q_k intervals and "
                                         "the weights as inequalities, the convex combinations as equalities)"),
            **built(docs)}


def printed_cube_ends(S_, t_):
    """Setting 1: 'all the points (v_{i_k alpha})_k for any sequence (i_k) in {-1, 1}^S are within the convex hull of V':
    the ends (v_-alpha, v_alpha) of the cube's edges."""
    from rldp_verify.topics.pram import v_alpha, v_malpha

    return v_malpha(S_, t_), v_alpha(S_, t_)


def _hull_weights(V, x):
    """Exact LP: weights lambda >= 0 with sum lambda = 1 and sum lambda_v v = x, re-checked; None when the exact LP
    finds no such weights (x is not in conv(V))."""
    from fractions import Fraction

    from rldp_verify.core.lp import solve_rows

    n, zero = len(V), Fraction(0)
    rows = [[zero] + [Fraction(int(i == j)) for j in range(n)] for i in range(n)]           # lambda_i >= 0
    for sign in (1, -1):
        rows.append([Fraction(-sign)] + [Fraction(sign)] * n)                                 # sum lambda = 1
        for k in range(len(x)):
            rows.append([-sign * x[k]] + [sign * v[k] for v in V])                           # (V lambda)_k = x_k
    sol = solve_rows(rows + [[zero] * (n + 1)])
    if not sol.optimal or sol.x is None:
        return None
    lam = list(sol.x)
    ok = (min(lam) >= 0 and sum(lam) == 1
          and all(sum(lam_v * v[k] for lam_v, v in zip(lam, V, strict=True)) == x[k] for k in range(len(x))))
    if not ok:
        raise ArithmeticError("the exact LP's weights failed their re-check")
    return lam


@claim(
    id="pram.steps.app5-3.setting-1-cube",
    paper=PAPER,
    source="App. 5.3, proof of Proposition 3.2, setting 1: 'The first setting is the most straightforward, indeed since "
           "v_min < v_-alpha and v_max > v_alpha, we find that all the points (v_{i_k alpha}) ... are within the convex "
           "hull of V and so does the whole hypercube generated by those 2^S points'",
    statement="Every corner of the cube [v_-alpha, v_alpha]^S is a convex combination of the points of V (Proposition "
              "3.2's five types), hence so is the whole cube; and v_min < v_-alpha, v_max > v_alpha.",
    hypotheses=("S in {5, 6}", "1 < e^alpha <= (S - 2 + sqrt(S(S-4)))/2 (Proposition 3.2's condition)"),
    method=(Method.EXACT,),
    reading="The corners with one or S - 1 coordinates at v_alpha are not points of V (types 1-3 exclude them): those "
            "are the ones the sentence's 'since v_min < v_-alpha and v_max > v_alpha' is about. V is closed under "
            "permutations of the coordinates (checked), so one corner per number of v_alpha ends stands for all; its "
            "weights are found by an exact LP over all of V and re-checked in Fractions.",
)
def check_setting_1(ctx):
    import itertools
    import math
    from fractions import Fraction

    from rldp_verify.topics.pram import point, prop32_patterns

    from ..rldp._steps import Tally

    T = Tally(50)
    hulls = []   # (S, e^alpha, V, corner, weights, number of v_alpha ends): convex-combination certificates (issue 23)
    for S_ in (5, 6):
        bound = Fraction((S_ - 2 + math.sqrt(S_ * (S_ - 4))) / 2).limit_denominator(1000) * Fraction(999, 1000)
        for t_ in ((Fraction(11, 10), (1 + bound) / 2, bound) if S_ == 5 else (bound,)):   # S = 6: 1.6 s per e^alpha
            lo, hi = printed_cube_ends(S_, t_)
            v_a, v_ma, v_max, v_min = _values(S_, t_)
            pt = {"S": S_, "e^a": str(t_)}
            T.truth("v_min < v_-alpha and v_max > v_alpha", v_min < v_ma and v_max > v_a, pt)
            V = [tuple(point(p, S_, t_)) for p in prop32_patterns(S_)]
            Vset = set(V)
            T.truth("V closed under permutations", all(tuple(v[i] for i in perm) in Vset for v in V
                                                        for perm in itertools.permutations(range(S_))), pt)
            for k in range(S_ + 1):   # one corner per number of v_alpha ends: the others are its permutations
                corner = (hi,) * k + (lo,) * (S_ - k)
                lam = _hull_weights(V, list(corner))
                T.truth("corner in conv(V)", lam is not None, {**pt, "corner": [str(c) for c in corner]})
                if lam is not None:
                    hulls.append((S_, t_, V, corner, lam, k))
            T.points += 1
    from rldp_verify.certificates.claims import built

    return T.outcome("setting 1's cube", statement_claims=("pram.prop3-2.vertex-set",),
                     **built(lambda: [_hull_certificate(*h) for h in hulls]))


def _hull_certificate(S_, t_, V, corner, lam, k) -> dict:
    """The corner = sum_v lam_v v with lam >= 0, sum lam = 1 (an ``lp-optimum`` of max 0 at the point lam: the
    checker verifies the weights); V is Proposition 3.2's 2^S points at e^alpha = t_. The corners with the same number
    of v_alpha ends are its permutations (V is closed under permutations: checked by the claim, not certified)."""
    from rldp_verify.certificates.lp import feasible_point_certificate

    E = [[v[i] for v in V] for i in range(S_)] + [[1] * len(V)]
    return feasible_point_certificate(f"setting 1: the corner with {k} of {S_} coordinates at v_alpha (e^alpha = {t_}) "
                                      "is a convex combination of Proposition 3.2's points", lam, E=E,
                                      f=list(corner) + [1])
