"""Lemma 4: (f + C)* = f* - C (003, App. C)."""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER


@claim(
    id="isit.lemma4.conjugate-shift",
    paper=PAPER,
    source="App. C, Lemma 4 (convex conjugate (47))",
    statement="for C in R: (f + C)*(v) = f*(v) - C",
    hypotheses=("f closed convex",),
    method=Method.SYMBOLIC,
)
def check(ctx):
    import sympy as sp

    x, v, C = sp.symbols("x v C", real=True)
    w = sp.symbols("w", positive=True)
    cases = {"x^2/2": (x**2 / 2, v, sp.S.Reals), "exp(x)": (sp.exp(x), w, None),
             "x*log(x), x > 0": (None, v, None)}
    results = {}
    identities = {}
    ok = True
    for name, (f, var, _) in cases.items():
        if f is None:
            xp = sp.symbols("xp", positive=True)
            f, xx = xp * sp.log(xp), xp
        else:
            xx = x
        def conj(g):
            crit = sp.solve(sp.diff(var * xx - g, xx), xx)
            return sp.simplify((var * xx - g).subs(xx, crit[0]))
        lhs = conj(f + C)
        rhs = conj(f) - C
        same = sp.simplify(lhs - rhs) == 0
        identities[f"(f + C)* = f* - C for f = {name}"] = (lhs, rhs)
        ok &= same
        results[name] = {"(f+C)*": str(lhs), "f* - C": str(rhs), "equal": same}
    # the identity itself: sup_x (v x - f(x) - C) = sup_x (v x - f(x)) - C for any f: C is constant in x
    if ok:
        from rldp_verify.certificates.identity import identity_evidence

        return Outcome.verified("sympy: (f+C)* = f* - C for three closed convex f (stationary points; the "
                                "objectives are strictly concave so these are the maximisers)", cases=results,
                                **identity_evidence("isit.lemma4.conjugate-shift", identities,
                                                    uncovered="the stationary points (sympy.solve)"))
    return Outcome.inconclusive("symbolic comparison failed", cases=results)
