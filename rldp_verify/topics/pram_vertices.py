"""A certificate that a permutation-invariant point set is exactly the vertex set of a permutation-invariant
polytope, without enumerating it (PRAM, Proposition 3.2's vertices; :func:`certify_vertex_set`).

Exact (Fractions, python-flint ranks, pycddlib GMP through :func:`rldp_verify.core.polytope.generators_of_rows`);
importable from :mod:`rldp_verify.topics.pram` as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import exact
from rldp_verify.core.polytope import generators_of_rows

__all__ = ["certify_vertex_set"]


def _ray_key(v) -> tuple:
    """v divided by |its first non-zero entry|: equal for positive multiples of one vector."""
    s = next(abs(x) for x in v if x != 0)
    return tuple(x / s for x in v)


def certify_vertex_set(rows: Sequence[Sequence[Fraction]], dim: int, points) -> dict:
    """Prove, without enumerating, that ``points`` are exactly the vertices of the polytope
    {x : b + a . x >= 0 for all rows} (rows [b, a] as for :func:`vertices`), when both the rows and the points
    are invariant under every permutation of the ``dim`` coordinates (as :func:`dp_rows` and Proposition 3.2's
    point set are). Exact (Fractions, python-flint ranks, pycddlib GMP); returns ``{"ok": bool, "reason": str,
    "orbits": n, "edges": m}`` — ``ok`` False means only that this certificate does not apply (the caller
    enumerates), never that the set is wrong.

    The argument. (1) The rows and the points are mapped to themselves by the transposition (0 1) and the cycle
    (0 1 ... dim-1), which generate all permutations; the rows include 0 <= x_i <= 1, so the set is a polytope.
    (2) One point per orbit (its coordinates sorted) is checked to be a vertex: feasible, with ``dim`` linearly
    independent active rows; by (1) every point is then a vertex. (3) At each such representative v the extreme
    rays of the tangent cone {d : a_i . d >= 0 for the active rows i} are the directions of the edges at v
    (pycddlib lists a generating set of rays, which contains every extreme ray); each ray must point at another
    of the points, which is then the far end of that edge (a vertex on the edge's line inside the polytope is one
    of its ends). By (1) the same holds at every point. So the points are closed under adjacency in the vertex
    graph, which is connected (Balinski): they are all the vertices.
    """
    import flint
    import numpy as np

    rows = [[exact(v) for v in r] for r in rows]
    P = {tuple(exact(x) for x in p) for p in points}
    if not P or any(len(p) != dim for p in P) or any(len(r) != dim + 1 for r in rows):
        raise InputError(f"certify_vertex_set: points and rows must have {dim} coordinates")

    def fail(reason):
        return {"ok": False, "reason": reason, "orbits": 0, "edges": 0}

    reason = _symmetry_failure(rows, P, dim)
    if reason is not None:
        return fail(reason)
    reps = sorted({tuple(sorted(p)) for p in P})
    plist = sorted(P)
    Pf = np.array([[float(x) for x in p] for p in plist])
    Am = flint.fmpq_mat(len(rows), dim + 1, [flint.fmpq(x.numerator, x.denominator) for r in rows for x in r])
    edges = 0
    for v in reps:
        reason, act = _vertex_failure(v, Am, dim)
        if reason is not None:
            return fail(reason)
        reason, n = _edge_failure(v, act, rows, plist, Pf)
        if reason is not None:
            return fail(reason)
        edges += n
    return {"ok": True, "reason": "", "orbits": len(reps), "edges": edges}


def _symmetry_failure(rows: Sequence[Sequence[Fraction]], P: set, dim: int) -> str | None:
    """Why step (1) of :func:`certify_vertex_set` fails (no box row 0 <= x_i <= 1, or rows or points not invariant
    under the two generating permutations), or None."""
    R = {tuple(r) for r in rows}
    for i in range(dim):
        for sign in (1, -1):
            box = [Fraction(0) if sign == 1 else Fraction(1)] + [Fraction(sign if c == i else 0) for c in range(dim)]
            if tuple(box) not in R:
                return f"no row {'x' if sign == 1 else '1 - x'}_{i} >= 0: boundedness not evident"
    for sig in ([1, 0] + list(range(2, dim)), list(range(1, dim)) + [0]):
        if {(r[0],) + tuple(r[1 + sig[c]] for c in range(dim)) for r in R} != R:
            return "the rows are not invariant under permutations of the coordinates"
        if {tuple(p[sig[c]] for c in range(dim)) for p in P} != P:
            return "the points are not invariant under permutations of the coordinates"
    return None


def _vertex_failure(v: tuple, Am, dim: int) -> tuple[str | None, list[int]]:
    """Step (2) at the point v: (why it is not a vertex, or None; the active rows), exact (flint ``Am`` = rows)."""
    import flint

    X = flint.fmpq_mat(dim + 1, 1, [flint.fmpq(1)] + [flint.fmpq(x.numerator, x.denominator) for x in v])
    slack = (Am * X).entries()                       # b_i + a_i . v, exact
    if any(s < 0 for s in slack):
        return f"the point {list(map(str, v))} violates a row", []
    act = [i for i, s in enumerate(slack) if s == 0]
    A = flint.fmpq_mat(len(act), dim, [Am[i, c + 1] for i in act for c in range(dim)])
    if not act or A.rank() != dim:
        return f"the point {list(map(str, v))} is not a vertex (active rank < {dim})", act
    return None, act


def _edge_failure(v: tuple, act: list[int], rows: Sequence[Sequence[Fraction]], plist: list,
                  Pf) -> tuple[str | None, int]:
    """Step (3) at the vertex v: (why an edge leads outside the points, or None; the number of edges checked)."""
    import numpy as np

    cone = [[Fraction(0)] + list(a) for a in sorted({_ray_key(rows[i][1:]) for i in act})]
    _, rays, lineality = generators_of_rows(cone)
    if lineality:
        raise CertificationError("tangent cone with a lineality space at a vertex")
    # which point lies on the ray v + lambda d, lambda > 0: a float screen (unit directions), confirmed exactly
    Df = Pf - np.array([float(x) for x in v])
    nrm = np.linalg.norm(Df, axis=1)
    U = Df / np.where(nrm == 0, 1.0, nrm)[:, None]
    edges = 0
    for d in rays:
        df = np.array([float(x) for x in d])
        j = int(np.argmax(U @ (df / np.linalg.norm(df))))
        diff = [x - y for x, y in zip(plist[j], v, strict=True)]
        i0 = next(i for i, x in enumerate(d) if x != 0)
        lam = diff[i0] / d[i0]
        if not (lam > 0 and all(x == lam * y for x, y in zip(diff, d, strict=True))):
            return f"an edge at {list(map(str, v))} (direction {list(map(str, d))}) leads outside the points", edges
        edges += 1
    return None, edges
