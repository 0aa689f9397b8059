"""Lemma 6: the support function of a product set is the sum (003, App. C)."""

from __future__ import annotations

import itertools
from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import all_zero, covers, dot
from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER


@claim(
    id="isit.lemma6.product-support",
    paper=PAPER,
    source="App. C, Lemma 6",
    statement="delta*(v1, v2 | A x B) = delta*(v1 | A) + delta*(v2 | B)",
    hypotheses=("A, B nonempty",),
    method=(Method.EXACT, Method.PROPERTY),
)
def check(ctx):
    rng = ctx.rng("isit.lemma6")
    checked, terms = 0, []
    for _ in range(60):
        dA, dB = rng.randint(1, 3), rng.randint(1, 3)
        A = [[Fraction(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(dA)] for _ in range(rng.randint(1, 6))]
        B = [[Fraction(rng.randint(-20, 20), rng.randint(1, 9)) for _ in range(dB)] for _ in range(rng.randint(1, 6))]
        v1 = [Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(dA)]
        v2 = [Fraction(rng.randint(-9, 9), rng.randint(1, 5)) for _ in range(dB)]
        # support of conv(points) = max over the points; A x B = conv of all pairs
        lhs = max(sum(x * y for x, y in zip(v1 + v2, a + b, strict=True)) for a, b in itertools.product(A, B))
        rhs = max(sum(x * y for x, y in zip(v1, a, strict=True)) for a in A) + max(sum(x * y for x, y in zip(v2, b, strict=True)) for b in B)
        checked += 1
        terms.append(["-", ["max", *[dot(v1 + v2, a + b) for a, b in itertools.product(A, B)]],
                      ["+", ["max", *[dot(v1, a) for a in A]], ["max", *[dot(v2, b) for b in B]]]])
        if lhs != rhs:
            return Outcome.refuted("support of a product differs from the sum",
                                   counterexample={"A": str(A), "B": str(B), "v1": str(v1), "v2": str(v2),
                                                   "lhs": str(lhs), "rhs": str(rhs)}, kind="false")
    return Outcome.verified(f"exact (Fractions) on {checked} random pairs of polytopes A, B given by vertices "
                            "(the support of A x B is the max over vertex pairs)",
                            certificate_covers=covers(checked, checked, "equalities max over vertex pairs (a, b) of "
                                                      "(v1, v2).(a, b) = max_a v1.a + max_b v2.b"),
                            **built(lambda: all_zero(f"Lemma 6 on {len(terms)} sampled (A, B, v1, v2)", terms)))
