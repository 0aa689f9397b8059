"""Sec. 5, complexity paragraph: Gamma-hat is defined by a^2 + a inequalities and has
O((a^2 + a)^((a-1)/2)) = O(a^a) vertices.

Vertex counts come from rldp_verify.rldp.gamma (exact; the block-product enumeration is checked against
cddlib in tests/core/test_polytope.py), facet counts from cddlib's exact canonicalisation.
"""

from __future__ import annotations

import random
from fractions import Fraction
from math import comb

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.polytope import irredundant_rows
from rldp_verify.rldp.gamma import gamma_hat_vertices, gamma_inequalities

PAPER = "000_aca93ed29ea857ee.txt"


def _instance(rng, a1, a2):
    return [[Fraction(rng.randint(0, 20), 100) for _ in range(a2)] for _ in range(a1)]


def upper_bound_theorem(m: int, d: int) -> int:
    """McMullen's bound on the vertices of a d-polytope with m facets (the dual cyclic polytope)."""
    if d <= 0:
        return 1
    return comb(m - (d + 1) // 2, m - d) + comb(m - d // 2 - 1, m - d)


@claim(
    id="rldp.sec5.vertex-bound",
    paper=PAPER,
    source="Sec. 5, paragraph after Theorem 3 ('O((a^2+a)^((a-1)/2)) = O(a^a) vertices [58]')",
    statement="Gamma-hat is (a-1)-dimensional, is defined by a^2 + a inequalities and has O((a^2+a)^((a-1)/2)) = "
              "O(a^a) vertices.",
    hypotheses=("e^eps > 1 rational", "L_{u|s} >= 0 with sum_u L_{u|s} < 1", "|X| <= 9 for the exact counts"),
    method=(Method.EXACT, Method.SYMBOLIC),
    reading="The O-bound is the upper bound theorem for m = a^2 + a inequalities in dimension a - 1; we check the "
            "exact UBT bound on computed instances and the asymptotic identity symbolically.",
)
def check_vertex_bound(ctx):
    import sympy as sp

    rng = ctx.rng("sec5-vertex-bound")
    rows, counted = [], []   # counted: (a1, a2, e^eps, L, V) for the vertex-enumeration certificates (issue 23)
    cases = [(a1, a2, e) for a1, a2 in ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2)) for e in (Fraction(3, 2), Fraction(4))]
    for a1, a2, e in cases + [(3, 3, Fraction(3, 2))]:
        L = _instance(rng, a1, a2)
        a = a1 * a2
        A, _ = gamma_inequalities(L, e)
        V = gamma_hat_vertices(L, e)
        ubt = upper_bound_theorem(a * a + a, a - 1)
        # dimension: affine rank of the vertex set
        import flint
        flat = [flint.fmpq((x - y).numerator, (x - y).denominator) for v in V[1:] for x, y in zip(v, V[0], strict=True)]
        dim = flint.fmpq_mat(len(V) - 1, a, flat).rank() if V else -1   # an empty set has dimension -1
        rows.append({"a1": a1, "a2": a2, "e^eps": str(e), "inequalities": len(A), "vertices": len(V),
                     "UBT bound": ubt, "dimension": dim})
        counted.append((a1, a2, e, L, V))   # the 3 x 3 instance (510 vertices, dimension 8): ~3 s to re-check
        if len(A) != a * a + a or len(V) > ubt or dim != a - 1:
            return Outcome.refuted("vertex count, inequality count or dimension differs from Sec. 5",
                                   counterexample=rows[-1], rows=rows, kind="false")
    a = sp.symbols("a", positive=True)
    lim = sp.limit((a ** 2 + a) ** ((a - 1) / 2) / a ** a, a, sp.oo)
    if lim != 0:
        return Outcome.refuted("(a^2+a)^((a-1)/2) is not O(a^a)", counterexample={"limit": str(lim)}, kind="false")
    from rldp_verify.certificates.claims import built

    return Outcome.verified(f"{len(rows)} instances: a^2 + a inequalities, dimension a - 1, vertex count <= the upper "
                            "bound theorem's bound; (a^2+a)^((a-1)/2) / a^a -> 0 (symbolic), so O(a^a) holds. The "
                            "counts are far below the bound (about 2^a here)", rows=rows,
                            certificate_covers=f"{len(counted)} of the {len(rows)} vertex enumerations (each count "
                            "and dimension is that of a complete vertex list); not the limit (sympy.limit of "
                            "(a^2+a)^((a-1)/2) / a^a: no certificate kind for limits) nor the inequality count",
                            **built(_counted_certificates, counted))


def _counted_certificates(counted) -> list[dict]:
    """Issue 23: the ``vertex-enumeration`` certificate of each counted Gamma-hat; its vertex list must be the one
    counted (else building fails and the claim says why it has no certificate)."""
    from rldp_verify.certificates.vertices import gamma_hat_certificate

    docs = []
    for a1, a2, e, L, V in counted:
        W, doc = gamma_hat_certificate(f"Gamma-hat ({a1} x {a2}, e^eps = {e})", L, e)
        if W != V:
            raise ValueError(f"the certified vertex list of Gamma-hat ({a1} x {a2}, e^eps = {e}) is not the counted one")
        docs.append(doc)
    return docs


@claim(
    id="rldp.sec5.redundant-inequalities",
    paper=PAPER,
    source="Sec. 5, paragraph after Theorem 3 ('defined by a^2 + a inequalities'); Definition 3",
    statement="Of the a^2 + a inequalities defining Gamma-hat, how many are facets (finding, not a paper claim of "
              "irredundancy): the a rows with (s1,u1) = (s2,u2) read (1 - e^eps) h_x <= 0 and are always implied.",
    hypotheses=("e^eps > 1 rational", "random L with row sums <= 0.8"),
    method=Method.EXACT,
)
def check_redundant(ctx):
    rng = random.Random(7)
    rows, instances = [], []
    for a1, a2 in ((2, 2), (2, 3), (3, 2)):
        for e in (Fraction(3, 2), Fraction(4)):
            L = _instance(rng, a1, a2)
            a = a1 * a2
            A, b = gamma_inequalities(L, e)
            keep = irredundant_rows(A, b, [[Fraction(1)] * a], [Fraction(1)])
            diag = [a + x * a + x for x in range(a)]         # rows (s1,u1) = (s2,u2)
            instances.append((a1, a2, e, A, b, diag))
            rows.append({"a1": a1, "a2": a2, "e^eps": str(e), "rows": len(A), "facets": len(keep),
                         "nonnegativity facets": sum(1 for i in keep if i < a),
                         "diagonal rows kept": sum(1 for i in keep if i in diag)})
            if any(i in diag for i in keep):
                return Outcome.refuted("a diagonal row is a facet", counterexample=rows[-1], rows=rows, kind="false")
    from rldp_verify.certificates.claims import built

    return Outcome.verified("the a diagonal rows are never facets; Gamma-hat has at most a^2 - a + a facets "
                            "(the counts per instance are in the evidence; for these L every v_x >= 0 is implied "
                            "too)", rows=rows, **built(_implied_certificates, instances))


def _implied_certificates(instances) -> list[dict]:
    """Issue 23: per instance and diagonal row i, the ``lp-optimum`` certificate of max A_i.x over Gamma-hat's other
    rows and sum x = 1: its optimum is <= b_i = 0, so row i is implied (never a facet)."""
    from rldp_verify.certificates.lp import solve_with_certificate

    docs = []
    for a1, a2, e, A, b, diag in instances:
        a = a1 * a2
        for i in diag:
            rest = [k for k in range(len(A)) if k != i]
            res, doc = solve_with_certificate(
                f"Gamma-hat ({a1} x {a2}, e^eps = {e}): max of diagonal row {i} over the other rows and sum = 1 "
                f"is <= b_{i} = {b[i]}", A[i], [A[k] for k in rest], [b[k] for k in rest], [[1] * a], [1])
            if res.value > b[i]:
                raise ValueError(f"row {i} is not implied: max {res.value} > {b[i]}")
            docs.append(doc)
    return docs
