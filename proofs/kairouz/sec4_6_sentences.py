"""Two sentences of seed 004 that had no claim (issue 12): I(X;Y) <= H(X) and convexity in Q (Sec. 4), and
the remark that Wang et al.'s mechanism is randomized response under the Hamming distance (Sec. 6).
A wrong variant of each formula makes the check REFUTED (tests/proofs/test_issue12_claims.py)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision

from ._common import PAPER


def _rand(rng, n, zeros=False):
    while True:
        w = [rng.randint(0 if zeros else 1, 30) for _ in range(n)]
        if sum(w):
            return [Fraction(x, sum(w)) for x in w]


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator


def _H(p):
    return -sum(x * mpmath.log(x) for x in p if x > 0)


def _mi(P, Q):
    """I(X;Y) for P over rows x and Q[x][y] (mpmath)."""
    ny = len(Q[0])
    m = [sum(P[x] * Q[x][y] for x in range(len(P))) for y in range(ny)]
    return _H(m) - sum(P[x] * _H(Q[x]) for x in range(len(P)))


def check_mi_facts(ctx, shape="convex") -> Outcome:
    """I(X;Y) <= H(X) and Q -> I(X;Y) convex. ``shape="concave"`` is a wrong variant."""
    rng = ctx.rng("kairouz.sec4.mi-facts")
    smallest_slack, worst_gap = None, None
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for _ in range(200):
            k, m = rng.randint(2, 5), rng.randint(2, 5)
            P = [_mp(x) for x in _rand(rng, k, zeros=True)]
            Q1 = [[_mp(x) for x in _rand(rng, m, zeros=True)] for _ in range(k)]
            Q2 = [[_mp(x) for x in _rand(rng, m, zeros=True)] for _ in range(k)]
            lam = mpmath.mpf(rng.randint(1, 9)) / 10
            Qm = [[lam * a + (1 - lam) * b for a, b in zip(r1, r2, strict=True)] for r1, r2 in zip(Q1, Q2, strict=True)]
            slack = _H(P) - _mi(P, Q1)
            gap = lam * _mi(P, Q1) + (1 - lam) * _mi(P, Q2) - _mi(P, Qm)  # >= 0 for convexity
            if shape == "concave":
                gap = -gap
            if slack < -tol:
                return Outcome.refuted("I(X;Y) > H(X)", counterexample={"P": [mpmath.nstr(x, 8) for x in P]}, kind="false")
            if gap < -tol:
                return Outcome.refuted(f"the {shape}ity inequality fails by {mpmath.nstr(-gap, 5)}",
                                       counterexample={"P": [mpmath.nstr(x, 8) for x in P], "lambda": mpmath.nstr(lam, 3),
                                                       "Q1": [[mpmath.nstr(x, 6) for x in r] for r in Q1],
                                                       "Q2": [[mpmath.nstr(x, 6) for x in r] for r in Q2]}, kind="false")
            smallest_slack = slack if smallest_slack is None else min(smallest_slack, slack)
            worst_gap = gap if worst_gap is None else min(worst_gap, gap)
    return Outcome.verified(f"I(X;Y) <= H(X) and Jensen for Q -> I(X;Y) on 200 random (P, Q1, Q2, lambda) at {ctx.dps} digits "
                            f"(smallest slack {mpmath.nstr(smallest_slack, 3)}, smallest convexity gap "
                            f"{mpmath.nstr(worst_gap, 3)})")


@claim(id="kairouz.sec4.mi-facts", paper=PAPER, source="Sec. 4, before (24) ('Notice that I(X;Y) <= H(X) and I(X;Y) is "
       "convex in Q')",
       statement="I(X;Y) <= H(X), and for a fixed P, Q -> I(X;Y) is convex.",
       method=(Method.HIGH_PRECISION, Method.PROPERTY), reading="random instances, supports with zeros included")
def _mi_facts(ctx):
    return check_mi_facts(ctx)


def check_wang(ctx, distance="hamming") -> Outcome:
    """Q(y|x) = e^{eps(1 - d(x,y))}/(k - 1 + e^eps) with d = Hamming is randomized response (21), symbolic.
    ``distance="scaled"`` (d = 2 * Hamming) is a wrong variant."""
    import sympy as sp

    e, k = sp.symbols("epsilon k", positive=True)
    rows = []
    for same in (True, False):
        d = 0 if same else (1 if distance == "hamming" else 2)
        wang = sp.exp(e * (1 - d)) / (k - 1 + sp.exp(e))
        rr = sp.exp(e) / (k - 1 + sp.exp(e)) if same else 1 / (k - 1 + sp.exp(e))
        diff = sp.simplify(wang - rr)
        rows.append({"y = x": same, "Wang": str(wang), "RR (21)": str(rr), "difference": str(diff)})
        if diff != 0:
            return Outcome.refuted("the mechanism differs from randomized response", counterexample=rows[-1], rows=rows, kind="false")
    # the rows of Wang's mechanism sum to 1 (so it is a mechanism), for every k
    total = sp.simplify(sp.exp(e) / (k - 1 + sp.exp(e)) + (k - 1) / (k - 1 + sp.exp(e)))
    from rldp_verify.certificates.identity import identity_evidence

    certs = identity_evidence("kairouz.sec6.wang-hamming-is-rr", {
        "row sum": (sp.exp(e) / (k - 1 + sp.exp(e)) + (k - 1) / (k - 1 + sp.exp(e)), 1)},
        uncovered="Wang's entries = RR's entries (e^{eps(1 - d)} at d = 0, 1, which sympy evaluates as it builds them)")
    return Outcome.verified("with d(x, y) = 1(x != y), e^{eps(1 - d)}/(k - 1 + e^eps) is e^eps/(k - 1 + e^eps) on the diagonal "
                            "and 1/(k - 1 + e^eps) off it: randomized response (21) exactly (symbolic); the near-optimality "
                            "for large eps is Wang et al.'s result and not checked", rows=rows, row_sum=str(total), **certs)


@claim(id="kairouz.sec6.wang-hamming-is-rr", paper=PAPER, source="Sec. 6, 'Non-exchangeable utility functions'",
       statement="With the Hamming distance d(x, y) = 1(x != y), the mechanism Q(y|x) proportional to "
                 "e^{eps(1 - d(x,y))}/(k - 1 + e^eps) is exactly randomized response.",
       method=(Method.SYMBOLIC,), reading="the displayed expression read as the normalised mechanism (it sums to 1)")
def _wang(ctx):
    return check_wang(ctx)
