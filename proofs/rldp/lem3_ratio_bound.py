"""Lemma 3 (Sec. 7, eqs. (64)-(68))."""

from __future__ import annotations

from fractions import Fraction

from proofs.rldp._mech_common import PAPER
from rldp_verify.claims import Method, Outcome, claim


@claim(
    id="rldp.lemma3.ratio-bound",
    paper=PAPER,
    source="Sec. 7, Lemma 3 and eqs. (64)-(68)",
    statement="If Q is eps-LDP then P(Q(X)=y) <= P'(Q(X)=y) (1 + (e^eps - 1)/2 ||P - P'||_1) for all P, P'.",
    hypotheses=("Q eps-LDP",),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Exact rational e^eps; random eps-LDP rows (entries in [m, e^eps m]) and random P, P' with zeros; "
            "tightness: equality for a two-point example.",
)
def check_lemma3(ctx):
    rng = ctx.rng("lemma3")
    n = 0
    for k in range(300):
        a = rng.randint(2, 6)
        r = Fraction(rng.randint(10, 50), 10)
        m = Fraction(rng.randint(1, 9), 10)
        row = [m * (1 + (r - 1) * Fraction(rng.randint(0, 10), 10)) for _ in range(a)]
        if rng.random() < 0.3:  # extreme rows: only m and r m
            row = [m * (r if rng.random() < 0.5 else 1) for _ in range(a)]
        if max(row) > r * min(row):
            return Outcome.inconclusive("generator produced a non-LDP row")
        P = _dist(rng, a)
        P2 = _dist(rng, a)
        lhs = sum(q * p for q, p in zip(row, P))
        rhs = sum(q * p for q, p in zip(row, P2)) * (1 + (r - 1) / 2 * sum(abs(x - y) for x, y in zip(P, P2)))
        n += 1
        if lhs > rhs:
            return Outcome.refuted("Lemma 3 fails", counterexample={"row": [str(v) for v in row], "e^eps": str(r),
                                                                   "P": [str(v) for v in P], "P'": [str(v) for v in P2]})
    # tightness: Q_y = (r, 1) (times any m), P = (1, 0), P' = (0, 1): ratio r = 1 + (r-1)/2 * 2
    r = Fraction(3)
    tight = Fraction(3) == 1 * (1 + (r - 1) / 2 * 2)
    return Outcome.verified(f"{n} random (Q_y, P, P') triples satisfy the bound exactly; equality attained at "
                            "point masses (tight)" if tight else "bound holds", cases=n)


def _dist(rng, a):
    while True:
        w = [Fraction(rng.randint(0, 5)) for _ in range(a)]
        if sum(w):
            return [x / sum(w) for x in w]
