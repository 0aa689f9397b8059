"""Abstract and Sec. 3: '(7) reduces to a convex ... programming [problem] and can therefore be solved
with known optimization algorithms', 'like the Simplex method'."""

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.topics import pram

from ._certs import directional_derivative_expr, f_expr, gap_cert, vertex_cert
from ._common import PAPER


def strict_local_maxima(p, S, t, dps):
    """Vertices v with grad f(v) . (w - v) < 0 for every adjacent vertex w (exact edges): f strictly
    decreases along every feasible direction (the edge directions generate the tangent cone), so v is
    a strict local maximum over the polytope. Returns [(f(v), labels, max directional derivative, v, the vertices
    adjacent to v)], max f (and the vertex list V with a maximiser of f over it)."""
    rows = pram.dp_rows(S, t)
    V = pram.vertices(rows, S)
    nb = {i: [] for i in range(len(V))}
    for i, j in pram.edges(rows, V, S):
        nb[i].append(j)
        nb[j].append(i)
    out = []
    with working_precision(dps):
        tol = mpmath.mpf(10) ** (-(dps - 10))
        fv = [pram.f_simplified(p, v) for v in V]
        for i, v in enumerate(V):
            if any(x in (0, 1) for x in v):
                continue
            g = pram.grad_f(p, v)
            dd = max(mpmath.fsum(gk * (to_mpf(b) - to_mpf(a)) for gk, a, b in zip(g, v, V[j], strict=True)) for j in nb[i])
            if dd < -tol:
                out.append((fv[i], pram.classify(v, S, t), dd, v, [V[j] for j in nb[i]]))
        best = max(range(len(V)), key=lambda i: fv[i])
        return out, fv[best], V, V[best]


@claim(
    id="pram.sec3.local-solvers-suffice",
    paper=PAPER,
    source="Abstract ('reduces to a convex linear programming and can be therefore solved with known "
           "optimization algorithms'); Sec. 1 and Sec. 3 ('can be solved efficiently by well known "
           "optimization tools, like the Simplex method'); Sec. 4.1 (Matlab's optimisation function)",
    statement="Program (7) is a convex program, so standard (local) optimisation routines return its optimum.",
    reading="maximising the convex f over a polytope is not a convex program; the statement is checked as "
            "'every local maximum of (7) is a global maximum'",
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check(ctx):
    for S in (2, 3, 4):
        for t in (Fraction(3, 2), Fraction(2)):
            for p in ([Fraction(1, S)] * S, [Fraction(1, 2)] + [Fraction(1, 2 * (S - 1))] * (S - 1)):
                loc, best, V, v_best = strict_local_maxima(p, S, t, ctx.dps)
                with working_precision(ctx.dps):
                    tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
                    bad = [x for x in loc if best - x[0] > tol]
                if bad:
                    f, lab, dd, v, nbrs = bad[0]
                    return Outcome.refuted(
                        f"S = {S}, e^alpha = {t}, p = {[str(x) for x in p]}: the vertex {list(lab)} is a strict "
                        f"local maximum (every edge direction has directional derivative <= {mpmath.nstr(dd, 5)}) "
                        f"with I = {mpmath.nstr(f, 10)} < global maximum {mpmath.nstr(best, 10)}; a local "
                        "optimiser started near it stops there (this is one way to get Tables 1-4's "
                        "suboptimal rows)",
                        counterexample={"S": S, "e^alpha": t, "p": p, "local_max_vertex": list(lab),
                                        "f_local": f, "f_global": best, "max_directional_derivative": dd},
                        local_maxima=[[list(x[1]), mpmath.nstr(x[0], 10)] for x in loc], kind="false",
                        **built(_local_max_certs, p, S, t, V, v, nbrs, v_best))  # issue 23
    return Outcome.verified("every strict local maximum found is global")


def _local_max_certs(p, S, t, V, v, nbrs, v_best) -> list[dict]:
    """The counterexample re-checked: V is the complete vertex list of the DP polytope; f strictly decreases from
    the vertex v along the direction to each of its adjacent vertices (arb, the derivative written out, see
    :func:`~proofs.pram._certs.directional_derivative_expr`); f(v_best) > f(v) (arb). The adjacency (the
    edges generate the tangent cone at v) is the engine's exact rank test, not re-checked here."""
    ps = [str(x) for x in p]
    out = [vertex_cert(f"DP polytope, S = {S}, e^alpha = {t}", pram.dp_rows(S, t), V),
           gap_cert(f"f(global vertex) > f(local vertex {[str(x) for x in v]}), p = {ps}", f_expr(p, v_best),
                    [f_expr(p, v)])]
    out += [value_certificate(f"df at {[str(x) for x in v]} towards adjacent {[str(x) for x in w]} < 0, p = {ps}",
                              directional_derivative_expr(p, v, w), upper=0, strict=True) for w in nbrs]
    return out
