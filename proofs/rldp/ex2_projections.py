"""Example 2 (Sec. 4.3) of 000_aca93ed29ea857ee.txt: the projections of Example 1's ball.

The set F' of Example 2 is used again in :mod:`proofs.rldp.sec4_1_projection` (rldp.sec41.*).

Our values use Theorem 1 (B_s = 2 log((e^{B/2} - (1 - P^_s))/P^_s) at alpha = 2). The printed values are all
reproduced by the reading B_s = log((e^B - (1 - P^_s))/P^_s) (the radius of the lift that keeps P_s = P^_s, i.e.
1/(alpha-1) log((e^{(alpha-1)B} - (1-P^_s))/P^_s) at alpha = 2): a smaller radius than Theorem 1's, so the printed
F_{U|s} are strict subsets of the true projections. Each refutation lists both.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built, no_certificate
from rldp_verify.claims import Method, Outcome, claim, compare_printed, outcome_from_comparisons, search_readings
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.uncertainty import RenyiBall, SimplexBall
from rldp_verify.rldp.xi_interval import t_interval

from .._consistency import expect
from ._sec34 import EX1_CONF, EX1_N, EX1_PHAT, PAPER, flat, fprime_vertices, nstr

#: issue 23: why rldp.example2.theorem-reference carries no certificate
TEXT_REASON = ("a reading of the paper's text (which theorem's statement defines B_s, found by pattern matching in "
               "the seed text), not a computation: there is nothing for the checker to re-derive")
PRINTED_BS = ("0.3782", "0.0900")
PRINTED_L = (("0.1620", "0.2829"), ("0.1923", "0.5337"))
PRINTED_HI = ("0.7171", "0.4663")
PRINTED_RAD = ("0.6107", "0.3061")
TEXT_NOTES = ["'Theorem 2' should be Theorem 1: claim rldp.example2.theorem-reference",
              "the second radius is labelled rad_s1(F); it is rad_s2(F): claim rldp.example2.rad-label"]


def _radius_readings(ball, dps):
    """B_s per s under each reading of the radius tried for Example 2's printed numbers (issue 9 item 6)."""
    B = to_mpf(ball.radius_value)
    Bp = mpmath.mpf("0.0752")          # the B printed in Example 1 (rounded input)

    def chi2(Bv):
        return lambda ps: mpmath.log((mpmath.exp(Bv) - (1 - ps)) / ps)

    def thm1(Bv):
        return lambda ps: 2 * mpmath.log((mpmath.exp(Bv / 2) - (1 - ps)) / ps)
    return {
        "Theorem 1 (eq. (23))": None,
        "chi-square radius e^(B_s) - 1 = (e^B - 1)/P^_s, i.e. B_s = log((e^B - (1 - P^_s))/P^_s)": chi2(B),
        "the alpha = 1 formula B_s = B/P^_s": lambda ps: B / ps,
        "no projection: B_s = B": lambda ps: B,
        "Theorem 1 with the printed B = 0.0752": thm1(Bp),
        "chi-square radius with the printed B = 0.0752": chi2(Bp),
    }


def _values(ball, dps, radius=None):
    """B_s, L, upper ends and rad per s for a radius reading (None: the engine's Theorem 1)."""
    out = []
    for s in range(2):
        ps = to_mpf(ball.marginal(s))
        Bs = ball.conditional_radius(s, dps=dps) if radius is None else radius(ps)
        c = ball.conditional(s)
        ints = [t_interval(p, 2, Bs, dps=dps) for p in c]
        L = [iv[0] for iv in ints]
        rad = SimplexBall(c, ball.alpha, Bs).l1_radius(dps=dps)
        out.append({"B_s": Bs, "L": L, "hi": 1 - L[1], "rad": rad})
    return out


def _ball(dps):
    return RenyiBall.from_confidence(EX1_PHAT, 2, EX1_CONF, EX1_N, dps=dps)


_CERTIFIED: dict = {}


def _certified_values(ball, dps):
    """The same quantities as :func:`_values`, by a second route that uses no formula of the engine
    (proofs.rldp._certified): each is enclosed in a bracket [lo, hi] of width <= 1e-15 by bisection between a
    rational P certified in F (arb) and an exclusion by data processing and the Hölder bound (H1)-(H3).
    Per s: {"B_s", "L" (two brackets), "hi" (max P_{u1|s}), "rad"}, each (lo, hi, witness)."""
    from ._certified import RowProblem, bracket

    key = (ball.radius, dps)
    if key in _CERTIFIED:
        return _CERTIFIED[key]
    out = []
    for s in range(2):
        prob = RowProblem(ball.phat, s, ball.alpha, ball.radius, dps=dps)

        def enclose(feasible, infeasible, a, b, sense, what):
            lo, hi, w, complete = bracket(feasible, infeasible, a, b, sense=sense)
            expect(complete, f"s{s + 1}, {what}: the certified bisection did not reach width 1e-15 "
                             f"(stopped at [{lo}, {hi}])")
            return lo, hi, w

        L = [enclose(lambda t, u=u: prob.coordinate_feasible(u, t, "min"),
                     lambda t, u=u: prob.coordinate_infeasible(u, t, "min"), Fraction(0), prob.c[u], "inf",
                     f"L_u{u + 1}") for u in range(2)]
        hi = enclose(lambda t: prob.coordinate_feasible(0, t, "max"), lambda t: prob.coordinate_infeasible(0, t, "max"),
                     prob.c[0], Fraction(1), "sup", "max P_u1")
        Bs = enclose(prob.radius_feasible, prob.radius_infeasible, Fraction(0), Fraction(8), "sup", "B_s")
        rad = enclose(prob.l1_feasible, prob.l1_infeasible, Fraction(0), Fraction(2), "sup", "rad_s")
        out.append({"B_s": Bs, "L": L, "hi": hi, "rad": rad})
    _CERTIFIED[key] = out
    return out


def _compare(ctx, pick, what):
    """The printed values against the certified brackets (which set the verdict), the engine's Theorem-1 values
    checked against the same brackets (ERROR when they fall outside: two routes disagree), and the reading
    search over the radius readings. ``pick(values)`` lists (label, printed, value) triples."""
    with working_precision(ctx.dps):
        ball = _ball(ctx.dps)
        readings = _radius_readings(ball, ctx.dps)
        per_reading = {name: pick(_values(ball, ctx.dps if fn is None else 20, fn)) for name, fn in readings.items()}
        cert = _certified_values(ball, ctx.dps)
    engine = per_reading["Theorem 1 (eq. (23))"]
    lows = pick([{k: ([x[0] for x in v] if k == "L" else v[0]) for k, v in row.items()} for row in cert])
    highs = pick([{k: ([x[1] for x in v] if k == "L" else v[1]) for k, v in row.items()} for row in cert])
    wits = pick([{k: ([x[2] for x in v] if k == "L" else v[2]) for k, v in row.items()} for row in cert])
    comps, brackets, undecided = [], [], []
    for (label, printed, ours), (_, _, lo), (_, _, hi) in zip(engine, lows, highs, strict=True):
        expect(to_mpf(lo) - mpmath.mpf(10) ** -20 <= ours <= to_mpf(hi) + mpmath.mpf(10) ** -20,
               f"{label}: the engine's Theorem-1 value {nstr(ours, 20)} lies outside the certified bracket "
               f"[{nstr(to_mpf(lo), 20)}, {nstr(to_mpf(hi), 20)}] (routes disagree)")
        c_lo, c_hi = compare_printed(label, printed, lo), compare_printed(label, printed, hi)
        if c_lo.agrees != c_hi.agrees:
            undecided.append(label)
        comps.append(compare_printed(label, printed, (lo + hi) / 2))
        brackets.append({"label": label, "certified": [nstr(to_mpf(lo), 20), nstr(to_mpf(hi), 20)],
                         "engine_theorem1": nstr(ours, 20)})
    out = outcome_from_comparisons(comps, what=what)
    ev = dict(out.evidence)
    ev["certified_brackets"] = brackets
    ev["second_route"] = ("bisection between rational P certified in F (arb) and Hölder / data-processing exclusions "
                          "(proofs.rldp._certified); the engine's Theorem-1 values lie in every bracket")
    # one reading search per printed value, over the radius readings
    searches = []
    for i, (label, printed, _) in enumerate(engine):
        cands = {name: mpmath.mpf(per_reading[name][i][2]) for name in readings if name != "Theorem 1 (eq. (23))"}
        searches.append(search_readings(printed, cands, label=label).to_json())
    ev["reading_search"] = searches
    all_ok = [name for name, cs in per_reading.items() if name != "Theorem 1 (eq. (23))"
              and all(compare_printed(lab, pr, v).agrees for lab, pr, v in cs)]
    ev["readings_reproducing_every_printed_value"] = all_ok or "no reading found"
    ev["text_notes"] = TEXT_NOTES
    if undecided:
        return Outcome.inconclusive(f"the certified brackets of {', '.join(undecided)} straddle a rounding boundary "
                                    "of the printed value", **ev)
    if out.verdict.value == "REFUTED":
        tried = [n for n in readings if n != "Theorem 1 (eq. (23))"]
        tail = (f"; every printed value is reproduced by the reading {all_ok[0]}" if all_ok else
                f"; no single reading reproduces every printed value (tried: {'; '.join(tried)})")
        ev["witnesses"] = {label: w for (label, _, w), c in zip(wits, comps, strict=True) if not c.agrees}
        ev.update(built(_disagreement_certificates, ball, ctx.dps, pick, cert))
        return dataclasses.replace(out, summary=out.summary + tail, evidence=ev)
    return dataclasses.replace(out, evidence=ev)


def _feasible(prob, q, u, level):
    """A witness P in ``prob``'s ball whose quantity ``q`` reaches strictly past ``level`` (proofs.rldp._certified;
    coordinates and l1 distances are attained exactly, so they are asked 1e-30 further), or None."""
    past = Fraction(1, 10 ** 30)
    if q == "radius":
        return prob.radius_feasible(level)
    if q == "l1":
        return prob.l1_feasible(level + past)
    return prob.coordinate_feasible(u, level - past if q == "min" else level + past, q)


#: per s, which extremum each of _values' quantities is (proofs.rldp._certified: quantity, u)
_QUANTITIES = [{"B_s": ("radius", None), "L": [("min", 0), ("min", 1)], "hi": ("max", 0), "rad": ("l1", None)}] * 2


def _disagreement_certificates(ball, dps, pick, cert) -> list[dict]:
    """Issue 23: for every printed value the certified bracket [lo, hi] excludes, the ``rigorous-value`` certificates
    that the true extremum lies beyond printed +- h (h half a unit of its last digit), over F with the engine's
    rational radius B (an upper bound of eq. (12)'s B; the chi-square quantile itself is outside the checker's
    language): beyond on the witness's side, a rational P reaching past it in the smaller ball of Example 1's printed
    radius 0.0752 (<= eq. (12)'s B = 0.07524..., so the witness lies in F whichever way B is rounded; the bracket's
    witness in the ball of the engine's radius when none is found there); on the other side, the exclusion
    (H1)-(H3) at printed -+ h (proofs.rldp._certified.witness_certificates / exclusion_certificate)."""
    from rldp_verify.core.numbers import decimals, exact

    from ._certified import RowProblem, exclusion_certificate, witness_certificates

    probs = {s: RowProblem(ball.phat, s, ball.alpha, ball.radius, dps=dps) for s in range(2)}
    small = {s: RowProblem(ball.phat, s, ball.alpha, Fraction("0.0752"), dps=dps) for s in range(2)}
    kinds = pick([{k: v for k, v in q.items()} for q in _QUANTITIES])
    rows = [{**{k: v for k, v in r.items()}, "s": s} for s, r in enumerate(cert)]
    docs = []
    for (label, printed, (q, u)), (_, _, (lo, hi, w)) in zip(kinds, pick(rows), strict=True):
        s = int(label[-1]) - 1
        p, h = exact(printed), Fraction(1, 2 * 10 ** decimals(printed))
        above = lo > p + h
        if not above and not hi < p - h:
            continue
        sup = q != "min"
        level = p + h if above else p - h
        if sup == above:   # the witness reaches beyond the printed value
            w_small = _feasible(small[s], q, u, level)
            prob = probs[s] if w_small is None else small[s]
            got = witness_certificates(prob, q, w if w_small is None else w_small, {"lower" if sup else "upper": level},
                                       u=u, strict=True)
        else:
            got = [exclusion_certificate(probs[s], q, level, u=u)]
        docs += [{**d, "name": f"{label} != {printed} (Example 2): {d['name']}"} for d in got
                 if d is not None]
    return docs


@claim(
    id="rldp.example2.conditional-radii",
    paper=PAPER,
    source="Sec. 4.3, Example 2 (Theorem 1 applied to Example 1)",
    statement="B_s1 = 0.3782 and B_s2 = 0.0900 (Theorem 1 with B = 0.0752, alpha = 2).",
    hypotheses=("Example 1: alpha = 2, B = log(1 + F^{-1}_{chi2,3}(0.95)/100)",),
    method=(Method.HIGH_PRECISION, Method.EXACT),
    reading="B_s = max_{P in F} D_2(P^_{U|s}||P_{U|s}), enclosed by certified witnesses and exclusions (no formula); "
            "the engine's eq. (23) must lie in the enclosure",
)
def check_radii(ctx):
    return _compare(ctx, lambda v: [(f"B_s{s + 1}", PRINTED_BS[s], v[s]["B_s"]) for s in range(2)],
                    "conditional radii")


@claim(
    id="rldp.example2.lower-bounds", root="rldp.example2.conditional-radii",
    paper=PAPER,
    source="Sec. 4.3, Example 2 (Proposition 2 part 1)",
    statement="L_{u1|s1} = 0.1620, L_{u2|s1} = 0.2829, L_{u1|s2} = 0.1923, L_{u2|s2} = 0.5337.",
    hypotheses=("Example 1",),
    method=(Method.HIGH_PRECISION, Method.EXACT),
    reading="L_{u|s} = min_{P in F} P_{u|s}, enclosed by rational P certified in F (arb) and exclusions (no "
            "formula); the engine's Proposition-2 values must lie in the enclosure",
)
def check_lower(ctx):
    out = _compare(ctx, lambda v: [(f"L_u{u + 1}|s{s + 1}", PRINTED_L[s][u], v[s]["L"][u])
                                   for s in range(2) for u in range(2)], "lower bounds")
    if out.verdict.value != "REFUTED":
        return out
    below = []
    for (s, u), c in zip([(s, u) for s in range(2) for u in range(2)], out.evidence["comparisons"], strict=True):
        w = out.evidence["witnesses"].get(c["label"])
        if w is None:
            continue
        P = [Fraction(x) for x in w["P"]]
        cond = P[2 * s + u] / (P[2 * s] + P[2 * s + 1])
        if cond < Fraction(PRINTED_L[s][u]):
            below.append(f"{c['label']}: a rational P certified in F has P_(u{u + 1}|s{s + 1}) = {nstr(to_mpf(cond), 6)} "
                         f"< {PRINTED_L[s][u]}")
    summary = out.summary
    if below:
        summary += "; the printed lower bounds are not valid for F (" + "; ".join(below) + ")"
    return dataclasses.replace(out, summary=summary)


@claim(
    id="rldp.example2.intervals-and-rad", root="rldp.example2.conditional-radii",
    paper=PAPER,
    source="Sec. 4.3, Example 2 (intervals F_{U|s} and rad_s)",
    statement="F_{U|s1} = [0.1620, 0.7171], F_{U|s2} = [0.1923, 0.4663] (in P_{u1|s}); rad_s1 = 0.6107, rad_s2 = 0.3061.",
    hypotheses=("Example 1", "|U| = 2: rad_s = 2 max distance to the interval ends"),
    method=Method.HIGH_PRECISION,
)
def check_intervals(ctx):
    def pick(v):
        out = []
        for s in range(2):
            out.append((f"upper end s{s + 1}", PRINTED_HI[s], v[s]["hi"]))
            out.append((f"rad_s{s + 1}", PRINTED_RAD[s], v[s]["rad"]))
        return out

    return _compare(ctx, pick, "interval ends and radii")


@claim(
    id="rldp.example2.fprime-simplex",
    paper=PAPER,
    source="Sec. 4.3, Example 2 (the set F' and its vertices)",
    statement="F' = {P : 0.1620 <= P_{u1|s1} <= 0.7171, 0.1923 <= P_{u1|s2} <= 0.4663} is a simplex with vertices "
              "(0.7171, 0.2829, 0, 0), (0.1620, 0.8380, 0, 0), (0, 0, 0.4663, 0.5337), (0, 0, 0.1923, 0.8077), "
              "and D_2(P^||P) = inf at every vertex.",
    hypotheses=("the printed interval ends",),
    method=Method.EXACT,
)
def check_fprime(ctx):
    bounds = [(Fraction("0.1620"), Fraction("0.7171")), (Fraction("0.1923"), Fraction("0.4663"))]
    verts, rays = fprime_vertices(bounds)
    printed = [("0.7171", "0.2829", "0", "0"), ("0.1620", "0.8380", "0", "0"), ("0", "0", "0.4663", "0.5337"),
               ("0", "0", "0.1923", "0.8077")]
    pv = sorted(tuple(Fraction(x) for x in v) for v in printed)
    ok_set = sorted(verts) == pv and not rays
    infinite = all(renyi_divergence(flat(EX1_PHAT), list(v), 2) == mpmath.inf for v in verts)
    ev = {"vertices": [[str(x) for x in v] for v in sorted(verts)], "rays": len(rays)}
    from rldp_verify.certificates.vertices import vertex_certificate

    def _rows():   # F' as fprime_vertices writes it: l (P_i + P_j) - P_i <= 0, P_i - h (P_i + P_j) <= 0, P >= 0
        A = []
        for s_, (lo, hi) in enumerate(bounds):
            i, j = 2 * s_, 2 * s_ + 1
            A += [[lo - 1 if k == i else lo if k == j else 0 for k in range(4)],
                  [1 - hi if k == i else -hi if k == j else 0 for k in range(4)]]
        A += [[-1 if k == m else 0 for k in range(4)] for m in range(4)]
        return A, [0] * len(A)
    ev.update(built(lambda: vertex_certificate("F' of Example 2 (printed interval ends)", *_rows(), [[1] * 4], [1],
                                               verts)))   # issue 23
    if ok_set and infinite and len(verts) == 4:
        return Outcome.verified("as a conditional statement, on Example 2's printed interval ends (which "
                                "rldp.example2.lower-bounds and rldp.example2.intervals-and-rad refute: the true "
                                "F_{U|s} are wider): pycddlib (GMP) finds exactly the 4 printed vertices (a 3-simplex in "
                                "the plane sum = 1); each has zero cells where P^ > 0, so D_2(P^||P) = inf",
                                conditional_on="Example 2's printed L_{u|s} and upper ends (refuted elsewhere)", **ev)
    return Outcome.refuted("vertex set differs from the printed one", counterexample=ev, printed=printed, kind="false")


@claim(
    id="rldp.example2.fprime-linear-form",
    paper=PAPER,
    source="Sec. 4.3, Example 2 (text after the definition of F')",
    statement="0.1620 <= P_{u1|s1} can be written as 0.1620 P_{s1,u2} <= 0.83830 P_{s1,u1}.",
    hypotheses=(),
    method=Method.EXACT,
)
def check_linear(ctx):
    l = Fraction("0.1620")
    coeff = 1 - l   # l (P11 + P12) <= P11  <=>  l P12 <= (1 - l) P11
    printed = Fraction("0.83830")
    if coeff != printed:
        from rldp_verify.certificates.value import value_certificate

        # issue 23: 1 - l differs from the printed coefficient (here it lies below it)
        side = {"upper": printed} if coeff < printed else {"lower": printed}
        return Outcome.refuted(f"the coefficient is 1 - 0.1620 = {float(coeff)} (0.8380), not 0.83830 (typo)",
                               counterexample={"printed": "0.83830", "correct": str(coeff)}, kind="misprint",
                               **built(value_certificate, "1 - 0.1620 != 0.83830 (the coefficient of P_{s1,u1})",
                                       ["-", 1, l], strict=True, **side))
    return Outcome.verified("coefficient matches")


@claim(
    id="rldp.example2.conditionals",
    paper=PAPER,
    source="Sec. 4.3, Example 2, first display",
    statement="P^_{s1} = 0.17, P^_{u1|s1} = 0.4118, P^_{u2|s1} = 0.5882, P^_{s2} = 0.83, P^_{u1|s2} = 0.3133, "
              "P^_{u2|s2} = 0.6867.",
    hypotheses=("P^ of Example 1",),
    method=Method.EXACT,
)
def check_derived(ctx):
    ball = RenyiBall.from_radius(EX1_PHAT, 2, 0)
    c1, c2 = ball.conditional(0), ball.conditional(1)
    comps = [compare_printed("P^_s1", "0.17", ball.marginal(0)), compare_printed("P^_u1|s1", "0.4118", c1[0]),
             compare_printed("P^_u2|s1", "0.5882", c1[1]), compare_printed("P^_s2", "0.83", ball.marginal(1)),
             compare_printed("P^_u1|s2", "0.3133", c2[0]), compare_printed("P^_u2|s2", "0.6867", c2[1])]
    return outcome_from_comparisons(comps, **built(_conditional_certificates, comps))


def _marginal_expr(s: int) -> list:
    return ["+", *EX1_PHAT[s]]


def _conditional_expr(s: int, u: int) -> list:
    """P^_{u|s} = P^_{s,u} / (P^_{s,u1} + P^_{s,u2}) of Example 1's table, written out."""
    return ["/", EX1_PHAT[s][u], _marginal_expr(s)]


def _conditional_certificates(comps) -> list[dict]:
    """Issue 23: each printed value of the first display against the quantity written out from P^ (printed_certificate:
    inside [printed - h, printed + h] when it agrees, strictly outside when not)."""
    from rldp_verify.certificates.value import printed_certificate

    exprs = [_marginal_expr(0), _conditional_expr(0, 0), _conditional_expr(0, 1), _marginal_expr(1),
             _conditional_expr(1, 0), _conditional_expr(1, 1)]
    return [printed_certificate(c.label, e, c.printed, c.agrees) for c, e in zip(comps, exprs, strict=True)]


@claim(
    id="rldp.example2.theorem-reference",
    paper=PAPER,
    source="Sec. 4.3, Example 2, first sentence",
    statement="'Inserting our values of B and P^_s into Theorem 2, we find B_s1 = 0.3782, B_s2 = 0.0900': the "
              "formula for B_s is in Theorem 2.",
    hypotheses=("the seed text of the paper (../shared/seeds)",),
    method=Method.EXACT,
    reading="Evident reading: the theorem whose statement defines B_s (Theorem 1, eq. (23)). Read from the paper's "
            "text: the sentence of Example 2, and for each line that defines B_s ('B s = ...') the last 'Theorem N.' "
            "heading at most 8 lines above it.",
)
def check_theorem_reference(ctx):
    import re

    from ..papers import seed_text

    text = seed_text(PAPER)
    if text is None:
        return Outcome.inconclusive("the paper's seed text is not available (../shared/seeds): nothing to read")
    lines = text.splitlines()
    defining = set()
    for i, line in enumerate(lines):
        if re.search(r"(^|\s)B s = ", line):
            for j in range(i, max(-1, i - 9), -1):
                m = re.match(r"\s*Theorem\s+(\d+)\.\s*$", lines[j])
                if m:
                    defining.add(int(m.group(1)))
                    break
    cited = re.search(r"P \^ s into Theorem (\d+), we find B s 1", text)
    ev = {"theorems_defining_B_s": sorted(defining), "cited": cited.group(1) if cited else None,
          "sentence": cited.group(0) if cited else None}
    if cited is None or not defining:
        return Outcome.inconclusive("the sentence or the B_s formula was not found in the paper's text", **ev)
    if int(cited.group(1)) in defining:
        return Outcome.verified(f"Theorem {cited.group(1)} defines B_s", **ev, **no_certificate(TEXT_REASON))
    return Outcome.refuted(f"Example 2 cites Theorem {cited.group(1)}, but only Theorem(s) {sorted(defining)} define "
                           f"B_s (eq. (23)); the evident reading is Theorem {min(defining)}",
                           counterexample=ev, kind="misprint", **no_certificate(TEXT_REASON))


@claim(
    id="rldp.example2.rad-label",
    paper=PAPER,
    source="Sec. 4.3, Example 2, the line 'rad_s1(F) = 2 max{0.4118 - 0.1620, ...} = 0.6107, rad_s1(F) = "
           "2 max{0.3133 - 0.1923, 0.4663 - 0.3133} = 0.3061'",
    statement="The second radius, 2 max{0.3133 - 0.1923, 0.4663 - 0.3133} = 0.3061, is rad_s1(F).",
    hypotheses=("Example 1's P^", "|U| = 2: rad_s = 2 max distance of P^_{u1|s} to the interval ends"),
    method=Method.EXACT,
    reading="Evident reading: rad_s2(F) (its centre 0.3133 is P^_{u1|s2}).",
)
def check_rad_label(ctx):
    centres = {f"s{s + 1}": EX1_PHAT[s][0] / sum(EX1_PHAT[s]) for s in range(2)}
    used = [name for name, c in centres.items() if compare_printed(name, "0.3133", c).agrees]
    value = 2 * max(Fraction("0.3133") - Fraction("0.1923"), Fraction("0.4663") - Fraction("0.3133"))
    ev = {"P^_(u1|s)": {k: str(v) for k, v in centres.items()}, "centre_matches": used,
          "printed_expression_value": str(value)}
    if used == ["s1"]:
        return Outcome.verified("the expression's centre 0.3133 is P^_(u1|s1)", **ev)
    if used == ["s2"]:
        from rldp_verify.certificates.value import printed_certificate

        certs = built(lambda: [printed_certificate(f"P^_(u1|{name}) against the printed centre 0.3133",
                                                   _conditional_expr(s, 0), "0.3133", name == "s2")
                               for s, name in enumerate(("s1", "s2"))])
        return Outcome.refuted(f"the expression's centre 0.3133 is P^_(u1|s2) = {centres['s2']} (P^_(u1|s1) = "
                               f"{centres['s1']}), so the radius is rad_s2(F), not rad_s1(F) as labelled",
                               counterexample=ev, kind="misprint", **certs)
    return Outcome.inconclusive("0.3133 matches neither conditional", **ev)
