"""Sec. 3.3 after Proposition 3.2: 'Contrary to the symmetric case, the optimal M will depend on p.'"""

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics import pram

from ._certs import f_expr, gap_cert, vertex_cert
from ._common import PAPER, dp_vertices


def _best_counts(p, S, t, dps):
    V = dp_vertices(S, t)
    with working_precision(dps):
        vals = sorted(((pram.f_simplified(p, v), pram.classify(v, S, t)) for v in V), key=lambda x: -x[0])
        best_f, best = vals[0]
        c = pram.label_counts(best)
        other = next(f for f, lab in vals if pram.label_counts(lab) != c)
        return c, best, best_f - other


def _optimum_certs(S, t, cases) -> list[dict]:
    """The vertex-enumeration certificate of the DP polytope's vertex list V, and per p (with its best vertex
    type c): f(p, v_best) > f(p, v) for every v in V of another type than c (arb). By convexity (Prop. 3.1) the
    maximum of f is at a vertex, so every maximiser for p has type c; the two p's have different c."""
    V = dp_vertices(S, t)
    out = [vertex_cert(f"DP polytope, S = {S}, e^alpha = {t}", pram.dp_rows(S, t), V)]
    for p, best in cases:
        c = pram.label_counts(best)
        vb = pram.point(best, S, t)
        others = [v for v in V if pram.label_counts(pram.classify(v, S, t)) != c]
        out.append(gap_cert(f"f(p, optimum of type {c}) > f(p, v) for the {len(others)} vertices of other types, "
                            f"p = {[str(x) for x in p]}", f_expr(p, vb), [f_expr(p, v) for v in others]))
    return out


@claim(
    id="pram.sec3-3.optimum-depends-on-p",
    paper=PAPER,
    source="Sec. 3.3, after Proposition 3.2",
    statement="For the general family (8) (unlike the symmetric one) the optimal q depends on p.",
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check(ctx):
    S, t = 5, Fraction(5, 2)  # within Proposition 3.2's condition (5/2 < 2.618)
    p1 = [Fraction(1, 5)] * 5
    p2 = [Fraction(1, 2), Fraction(1, 5), Fraction(1, 10), Fraction(1, 10), Fraction(1, 10)]
    c1, b1, g1 = _best_counts(p1, S, t, ctx.dps)
    c2, b2, g2 = _best_counts(p2, S, t, ctx.dps)
    tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
    if g1 <= tol or g2 <= tol:
        return Outcome.inconclusive("optimum not separated", gaps=[g1, g2])
    if c1 != c2:
        return Outcome.verified(
            f"exact vertices (S = 5, e^alpha = 5/2): uniform p -> optimum {b1}; p = (1/2, 1/5, 1/10, 1/10, 1/10) "
            f"-> optimum {b2} (gaps to the best differently-typed vertex {mpmath.nstr(g1, 5)}, "
            f"{mpmath.nstr(g2, 5)})", optimum_uniform=list(b1), optimum_skewed=list(b2),
            **built(_optimum_certs, S, t, [(p1, b1), (p2, b2)]))  # issue 23
    return Outcome.refuted("the same vertex type is optimal for both p", counterexample={"p1": p1, "p2": p2},
                           optimum=list(b1), kind="false")
