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
    sampled: list = []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for _ in range(200):
            k, m = rng.randint(2, 5), rng.randint(2, 5)
            Pf = _rand(rng, k, zeros=True)
            Q1f = [_rand(rng, m, zeros=True) for _ in range(k)]
            Q2f = [_rand(rng, m, zeros=True) for _ in range(k)]
            P, Q1, Q2 = [_mp(x) for x in Pf], [[_mp(x) for x in r] for r in Q1f], [[_mp(x) for x in r] for r in Q2f]
            lam_f = Fraction(rng.randint(1, 9), 10)
            lam = _mp(lam_f)
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
            if len(sampled) < N_CERT and shape == "convex":
                sampled.append((Pf, Q1f, Q2f, lam_f, slack > SEPARATED, gap > SEPARATED))
            smallest_slack = slack if smallest_slack is None else min(smallest_slack, slack)
            worst_gap = gap if worst_gap is None else min(worst_gap, gap)
    return Outcome.verified(f"I(X;Y) <= H(X) and Jensen for Q -> I(X;Y) on 200 random (P, Q1, Q2, lambda) at {ctx.dps} digits "
                            f"(smallest slack {mpmath.nstr(smallest_slack, 3)}, smallest convexity gap "
                            f"{mpmath.nstr(worst_gap, 3)})", **_mi_facts_evidence(sampled, 200))


N_CERT = 10   # instances certified (the build costs about as much as the check)
SEPARATED = mpmath.mpf(10) ** -30   # a slack or gap below it (0 at a tie) is left out of the certificates


def _mi_expr(P, Q, Q_expr=None) -> list:
    """I(X;Y) (nats) of the channel Q[x][y] (exact, giving the zero pattern; ``Q_expr``: its entries as expressions)
    under P, from the definition (:func:`rldp_verify.certificates.divergence.mi_expr` over the columns)."""
    from rldp_verify.certificates.divergence import mi_expr

    cols = lambda M: [[M[x][y] for x in range(len(P))] for y in range(len(Q[0]))]  # noqa: E731
    return mi_expr(cols(Q), P, None if Q_expr is None else cols(Q_expr))


def mi_facts_certificates(sampled) -> list[dict]:
    """At each sampled (P, Q1, Q2, lambda) whose slack (gap) the check found above 1e-30: H(X) - I(X;Y) > 0 at Q1 and
    lambda I(Q1) + (1 - lambda) I(Q2) - I(lambda Q1 + (1 - lambda) Q2) > 0, the mixture's entries written as
    expressions of Q1's and Q2's, I and H evaluated by the checker from the definitions."""
    from rldp_verify.certificates.instances_other import all_nonneg, entropy_expr

    terms = []
    for P, Q1, Q2, lam, slack_ok, gap_ok in sampled:
        if slack_ok:
            terms.append(["-", entropy_expr(P), _mi_expr(P, Q1)])
        if gap_ok:
            Qm = [[lam * a + (1 - lam) * b for a, b in zip(r1, r2, strict=True)] for r1, r2 in zip(Q1, Q2, strict=True)]
            Qe = [[["+", ["*", lam, a], ["*", 1 - lam, b]] for a, b in zip(r1, r2, strict=True)]
                  for r1, r2 in zip(Q1, Q2, strict=True)]
            terms.append(["-", ["+", ["*", lam, _mi_expr(P, Q1)], ["*", 1 - lam, _mi_expr(P, Q2)]],
                          _mi_expr(P, Qm, Qe)])
    return [all_nonneg(f"I(X;Y) < H(X) and Jensen's gap of Q -> I(X;Y) > 0 at {len(sampled)} sampled (P, Q1, Q2, "
                       "lambda) (ties left out)", terms, strict=True, exact=False)]


def _mi_facts_evidence(sampled, total: int) -> dict:
    from rldp_verify.certificates.claims import built
    from rldp_verify.certificates.instances_other import covers

    ties = sum(2 - a - b for *_, a, b in sampled)
    return {"certificate_covers": covers(len(sampled), total, "H(X) - I(X;Y) > 0 and lambda I(Q1) + (1 - lambda) "
                                         f"I(Q2) - I(lambda Q1 + (1 - lambda) Q2) > 0 ({ties} of the "
                                         f"{2 * len(sampled)} facts are ties within 1e-30, e.g. X a function of Y or "
                                         "Q1 = Q2 on P's support, and are not certified: arb cannot decide a zero)"),
            **built(mi_facts_certificates, sampled)}


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
