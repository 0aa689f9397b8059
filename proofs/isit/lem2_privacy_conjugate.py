"""Lemma 2 (eq. 27): the concave conjugate of the privacy constraint L~ (003, Sec. IV-B)."""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER, affine_conjugate_facts


@claim(
    id="isit.lemma2.privacy-conjugate",
    paper=PAPER,
    source="Sec. IV-B, Lemma 2, eq. (27) (with eq. 25)",
    statement=("L~_{y,s1,s2*}(v1, v2, P_{Y|SU}) = 0 if v_{1,u} = P_{y|s1,u} and v_{2,u} = -e^eps P_{y|s2,u} "
               "for all u, and -inf otherwise"),
    hypotheses=("the conjugate is the infimum over all (P_{U|s1}, P_{U|s2}) in R^{2|U|} (eq. 12)",),
    method=Method.SYMBOLIC,
)
def check(ctx):
    import sympy as sp

    U = 3
    eps = sp.symbols("epsilon", nonnegative=True)
    R1 = sp.symbols(f"R1_1:{U + 1}", real=True)
    R2 = sp.symbols(f"R2_1:{U + 1}", real=True)
    q1 = sp.symbols(f"q1_1:{U + 1}", nonnegative=True)  # P_{y|s1,u}
    q2 = sp.symbols(f"q2_1:{U + 1}", nonnegative=True)  # P_{y|s2,u}
    L = sum(R1[u] * q1[u] - sp.exp(eps) * R2[u] * q2[u] for u in range(U))
    v = sp.symbols(f"v1:{2 * U + 1}", real=True)
    facts = affine_conjugate_facts(L, list(R1) + list(R2), v)
    expected = list(q1) + [-sp.exp(eps) * x for x in q2]
    b_ok = all(sp.simplify(x - y) == 0 for x, y in zip(facts["b"], expected, strict=True))
    ok = facts["affine_in_a"] and b_ok and facts["value_at_v_eq_b"] == 0 and facts["unbounded_when_v_ne_b"]
    ev = {k: str(x) for k, x in facts.items()}
    if ok:
        from rldp_verify.certificates.identity import identity_evidence

        from ._common import affine_conjugate_identities

        ev_cert = identity_evidence("isit.lemma2.privacy-conjugate", affine_conjugate_identities(L, list(R1) + list(R2), v),
                                    uncovered="the affinity test (second derivatives 0) and the limit -inf (from the "
                                              "certified line: -t |v - b|^2 - c with |v - b| > 0)")
        return Outcome.verified("sympy (|U| = 3): L~ is linear in (P_{U|s1}, P_{U|s2}) with gradient "
                                "(P_{y|s1,.}, -e^eps P_{y|s2,.}); the conjugate is 0 there and -inf elsewhere. "
                                "Note eq. (30) then needs the argument -e^eps P_{y|s2,.} (see isit.eq30.as-printed)",
                                **ev, **ev_cert)
    return Outcome.inconclusive("symbolic facts not confirmed", **ev)
