"""Lemma 1 (eq. 20): the concave conjugate of the distortion constraint E_D (003, Sec. IV-A)."""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER, affine_conjugate_facts


@claim(
    id="isit.lemma1.utility-conjugate",
    paper=PAPER,
    source="Sec. IV-A, Lemma 1, eq. (20) (with eqs. 17-18)",
    statement=("E_D*(v, P_{Y|SU}) = D if v_{s,u} = sum_y P_{y|s,u} d(y, u) for all s, u, and -inf otherwise, "
               "for E_D = sum_{y,s,u} P_{s,u} P_{y|s,u} d(u, y) - D"),
    hypotheses=("the conjugate is the infimum over all P_SU in R^{|S x U|} (eq. 12)",),
    method=Method.SYMBOLIC,
)
def check(ctx):
    import sympy as sp

    S, U = 2, 2
    Y = U
    D = sp.symbols("D", real=True)
    P = {(s, u): sp.Symbol(f"P_{s}{u}", real=True) for s in range(S) for u in range(U)}
    Q = {(s, u, y): sp.Symbol(f"Q_{s}{u}{y}", nonnegative=True) for s in range(S) for u in range(U) for y in range(Y)}
    d = {(u, y): sp.Symbol(f"d_{u}{y}", real=True) for u in range(U) for y in range(Y)}
    E = sum(P[s, u] * Q[s, u, y] * d[u, y] for s in range(S) for u in range(U) for y in range(Y)) - D
    keys = sorted(P)
    v = [sp.Symbol(f"v_{s}{u}", real=True) for s, u in keys]
    facts = affine_conjugate_facts(E, [P[k] for k in keys], v)
    expected_b = [sum(Q[s, u, y] * d[u, y] for y in range(Y)) for s, u in keys]
    b_ok = all(sp.simplify(x - y) == 0 for x, y in zip(facts["b"], expected_b, strict=True))
    ok = facts["affine_in_a"] and b_ok and sp.simplify(facts["value_at_v_eq_b"] - D) == 0 \
        and facts["unbounded_when_v_ne_b"]
    ev = {k: str(x) for k, x in facts.items()}
    if ok:
        from rldp_verify.certificates.identity import identity_evidence

        from ._common import affine_conjugate_identities

        ev_cert = identity_evidence("isit.lemma1.utility-conjugate", affine_conjugate_identities(E, [P[k] for k in keys], v),
                                    uncovered="the affinity test (second derivatives 0) and the limit -inf (from the "
                                              "certified line: -t |v - b|^2 - c with |v - b| > 0)")
        return Outcome.verified("sympy (|S| = |U| = |Y| = 2, symbolic P_{Y|SU}, d, D): the gradient of E_D in "
                                "P_SU is sum_y P_{y|s,u} d(u,y), the conjugate is D there and -inf elsewhere",
                                **ev, **ev_cert)
    if not facts["affine_in_a"]:   # exact: a second derivative of E_D in P_SU is not identically 0
        return Outcome.refuted("E_D is not affine in the uncertain P_SU (a second derivative is not 0), so the "
                               "conjugate of Lemma 3 does not apply", counterexample={"E_D": str(E)}, kind="false", **ev)
    return Outcome.inconclusive("symbolic facts not confirmed", **ev)
