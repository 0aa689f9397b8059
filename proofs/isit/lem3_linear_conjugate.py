"""Lemma 3 (eq. 45): the partial concave conjugate of a function affine in the uncertain parameter
(003, App. B)."""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER, affine_conjugate_facts


@claim(
    id="isit.lemma3.affine-conjugate",
    paper=PAPER,
    source="App. B, Lemma 3, eqs. (45)-(46)",
    statement="if f(a, x) = b_x^T a + c_x then f_*(v, x) = inf_a v^T a - f(a, x) = -c_x if v = b_x, -inf otherwise",
    hypotheses=("f affine in the uncertain parameter a over all of R^m",),
    method=Method.SYMBOLIC,
    reading=("printed: 'Let f be a convex function, and let x be such that f(a, x) is linear in v; write "
             "f(v, x) = b_x^T a + c_x' -- read as: f(a, x) = b_x^T a + c_x is affine in a"),
)
def check(ctx):
    import sympy as sp

    m = 3
    a = sp.symbols(f"a1:{m + 1}", real=True)
    v = sp.symbols(f"v1:{m + 1}", real=True)
    b = sp.symbols(f"b1:{m + 1}", real=True)
    c = sp.symbols("c", real=True)
    f = sum(bi * ai for bi, ai in zip(b, a, strict=True)) + c
    facts = affine_conjugate_facts(f, a, v)
    residual = sp.simplify(facts["value_at_v_eq_b"] + c)    # (45): f_*(b_x, x) = -c_x
    ok = facts["affine_in_a"] and residual == 0 and facts["unbounded_when_v_ne_b"]
    if ok:
        from rldp_verify.certificates.identity import identity_evidence

        from ._common import affine_conjugate_identities

        ev_cert = identity_evidence("isit.lemma3.affine-conjugate", affine_conjugate_identities(f, a, v),
                                    uncovered="the affinity test (second derivatives 0) and the limit -inf (from the "
                                              "certified line: -t |v - b|^2 - c with |v - b| > 0)")
        return Outcome.verified("sympy: at v = b the infimand is the constant -c for every a; for v != b it "
                                "equals -t|v-b|^2 - c along a = -t(v-b), so the infimum is -inf", **{
                                    k: str(x) for k, x in facts.items()}, **ev_cert)
    # issue 30: a wrong value at v = b is refuted with a point, not left 'not confirmed'
    point = {s_: sp.Rational(k + 2, 7) for k, s_ in enumerate(sorted(residual.free_symbols, key=str))}
    if residual != 0 and sp.N(residual.subs(point), 30) != 0:
        return Outcome.refuted("(45): at v = b_x the conjugate is not -c_x",
                               counterexample={"residual": str(residual), "at": {str(k): str(x) for k, x in point.items()},
                                               "value": str(sp.N(residual.subs(point), 15))}, kind="false",
                               **{k: str(x) for k, x in facts.items()})
    return Outcome.inconclusive("symbolic facts not confirmed", **{k: str(x) for k, x in facts.items()})
