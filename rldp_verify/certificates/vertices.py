"""Vertex-enumeration certificates: the vertex list of {x : A x <= b, E x = f} with the rows each vertex
makes tight, the affine hull and the facets of the hull of the list (cddlib's exact V -> H conversion), and
for each facet and equation the Farkas multipliers of its validity on the polyhedron (the dual of the exact
LP max h.x over it, :func:`rldp_verify.core.lp.solve_certified`).  The checker
(:mod:`rldp_verify_check.vertices`) then proves the list complete.

A list that misses a vertex gets a facet of its hull that the polyhedron violates: the LP's optimum exceeds
the facet's right-hand side, and the certificate (still written, with those multipliers) is rejected.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rldp_verify.certificates import envelope, qs
from rldp_verify.certificates.lp import _rows
from rldp_verify.core.errors import InputError
from rldp_verify.core.lp import LPStatus, exact_rank, solve_certified
from rldp_verify.core.numbers import exact
from rldp_verify.core.polytope import canonical_row_sets, hull_description

__all__ = ["hull_description", "vertex_certificate", "vertices_with_certificate", "gamma_hat_certificate"]

Rows = list[list[Fraction]]


def _farkas(h, A, b, E, f) -> tuple[dict, Fraction]:
    """Multipliers of max h.x over the polyhedron (lam for A, mu for E) and the optimum."""
    res = solve_certified(h, A, b, E, f)
    if res.status is not LPStatus.OPTIMAL or res.dual is None or res.value is None:
        raise InputError(f"max h.x over the polyhedron is {res.status}: not a polytope")
    y = res.dual
    lam = [[i, qs(v)] for i, v in enumerate(y[: len(A)]) if v != 0]
    return {"lam": lam, "mu": [qs(v) for v in y[len(A):]]}, res.value


def vertex_certificate(name: str, A, b, E=(), f=(), vertices=(), *, facets_from: str = "rows") -> dict:
    """The ``vertex-enumeration`` certificate that ``vertices`` are exactly the vertices of
    {x : A x <= b, E x = f} (e.g. the output of :func:`rldp_verify.core.polytope.vertices`, which must have
    no rays).

    ``facets_from="rows"`` (default): the facets are the irredundant rows of A (cddlib's exact
    canonicalisation of the H-description; each its own Farkas certificate) and the equations E's rows and the
    implicit equalities (one exact LP each for the second direction) -- right when the list is complete, and
    rejected by the checker when it is not.  ``facets_from="hull"``: the facets of conv(vertices) by cddlib's
    exact V -> H conversion with an exact LP per facet (slower; independent of A's form)."""
    A = [[exact(a) for a in r] for r in A]
    b = [exact(v) for v in b]
    E = [[exact(a) for a in r] for r in E]
    f = [exact(v) for v in f]
    V = [[exact(x) for x in v] for v in vertices]
    if not V:
        raise InputError("a vertex certificate needs at least one vertex")
    n = len(V[0])
    tight = [[i for i, (r, bi) in enumerate(zip(A, b, strict=True))
              if sum(a * x for a, x in zip(r, v, strict=True)) == bi] for v in V]
    if facets_from == "rows":
        data_eqs, data_facets = _from_rows(A, b, E, f, V, n)
    else:
        data_eqs, data_facets = _from_hull(A, b, E, f, V)
    st = {"n": n, "A": _rows(A), "b": [qs(v) for v in b], "E": _rows(E), "f": [qs(v) for v in f],
          "vertices": [[qs(x) for x in v] for v in V]}
    return envelope("vertex-enumeration", name, st, {"tight": tight, "equations": data_eqs, "facets": data_facets})


def _from_rows(A: Rows, b: list[Fraction], E: Rows, f: list[Fraction], V: Rows, n: int
               ) -> tuple[list[dict], list[dict]]:
    """(equations, facets) data from the rows: E's rows and A's implicit equalities (as many independent ones as
    the codimension of the vertices' affine hull), then A's irredundant rows as facets."""
    impl, red = canonical_row_sets(A, b, E, f)
    d = exact_rank([[a - c for a, c in zip(v, V[0], strict=True)] for v in V[1:]])
    chosen: list[list[Fraction]] = []
    cands: list[tuple[list[Fraction], Fraction, dict[str, Any], dict[str, Any] | None]] = [
        (r, fi, {"lam": [], "mu": _unit(len(E), k, 1)}, {"lam": [], "mu": _unit(len(E), k, -1)})
        for k, (r, fi) in enumerate(zip(E, f, strict=True))]
    cands += [(A[i], b[i], {"lam": [[i, 1]], "mu": [0] * len(E)}, None) for i in sorted(impl)]
    data_eqs, data_facets = [], []
    for g, g0, up, lo in cands:
        if len(chosen) == n - d:
            break
        if exact_rank(chosen + [g]) == len(chosen) + 1:
            lo = lo if lo is not None else _farkas([-v for v in g], A, b, E, f)[0]
            chosen.append(g)
            data_eqs.append({"g": [qs(v) for v in g], "g0": qs(g0), "upper": up, "lower": lo})
    for i, (r, bi) in enumerate(zip(A, b, strict=True)):
        if i not in impl and i not in red and any(r):
            data_facets.append({"h": [qs(v) for v in r], "h0": qs(bi), "farkas": {"lam": [[i, 1]],
                                                                                 "mu": [0] * len(E)}})
    return data_eqs, data_facets


def _from_hull(A: Rows, b: list[Fraction], E: Rows, f: list[Fraction], V: Rows) -> tuple[list[dict], list[dict]]:
    """(equations, facets) data from the hull of the vertices, each side proved by an exact LP."""
    data_eqs, data_facets = [], []
    eqs, facets = hull_description(V)
    for g, g0 in eqs:
        up, _ = _farkas(g, A, b, E, f)
        lo, _ = _farkas([-v for v in g], A, b, E, f)
        data_eqs.append({"g": [qs(v) for v in g], "g0": qs(g0), "upper": up, "lower": lo})
    for h, h0 in facets:
        fk, _ = _farkas(h, A, b, E, f)
        data_facets.append({"h": [qs(v) for v in h], "h0": qs(h0), "farkas": fk})
    return data_eqs, data_facets


def _unit(k: int, i: int, sign: int) -> list[int]:
    return [sign if j == i else 0 for j in range(k)]


def vertices_with_certificate(name: str, A, b, E=(), f=()):
    """:func:`rldp_verify.core.polytope.vertices` of {x : A x <= b, E x = f} and its ``vertex-enumeration``
    certificate: returns ``(vertices, certificate)``; a polyhedron with rays is refused (InputError)."""
    from rldp_verify.core.polytope import vertices

    V, rays = vertices(A, b, E, f)
    if rays:
        raise InputError(f"the polyhedron has {len(rays)} rays: a vertex certificate needs a polytope")
    return V, vertex_certificate(name, A, b, E, f, V)


def gamma_hat_certificate(name: str, lower_table, exp_eps):
    """PolyOpt's Gamma-hat = Gamma_eps ∩ {sum_x v_x = 1} (RLDP paper, Sec. 5, Theorem 3): its vertices from
    :func:`rldp_verify.rldp.gamma.gamma_hat_vertices` and their certificate against the inequalities of
    :func:`rldp_verify.rldp.gamma.gamma_inequalities`; returns ``(vertices, certificate)``."""
    from rldp_verify.rldp.gamma import gamma_hat_vertices, gamma_inequalities

    V = gamma_hat_vertices(lower_table, exp_eps)
    A, b = gamma_inequalities(lower_table, exp_eps)
    n = len(A[0])
    return V, vertex_certificate(name, A, b, [[1] * n], [1], V)
