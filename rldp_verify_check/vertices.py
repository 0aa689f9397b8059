"""``vertex-enumeration``: the vertex list of P = {x : A x <= b, E x = f} is complete and correct.

Statement: ``A``, ``b``, ``E``, ``f`` and ``vertices`` (the claimed vertex set V, each a list of n numbers).
Data: ``tight`` (for each vertex, indices of rows of A it makes tight); ``equations`` (the affine hull of V:
each ``{"g", "g0", "upper", "lower"}``, g.x = g0, with Farkas certificates for g.x <= g0 and -g.x <= -g0
on P); ``facets`` (each ``{"h", "h0", "farkas"}``: the inequality h.x <= h0 and its Farkas certificate).
A Farkas certificate ``{"lam": [[i, v], ...], "mu": [...]}`` proves h.x <= h0 on P when lam >= 0,
lam^T A + mu^T E = h and lam.b + mu.f <= h0 (then h.x = lam.(A x) + mu.(E x) <= lam.b + mu.f).
An empty V needs ``infeasible``: a Farkas certificate of 0.x <= -1 (a contradiction: P is empty).

What is checked (exact rationals, flint's fmpq_mat for ranks):

1. every v in V lies in P, its listed rows are tight, and they with E have rank n: v is a vertex of P;
2. d = dim aff(V); n - d independent equations valid on V, each proved valid on P (P lies in aff(V));
3. every facet is valid on V and tight on a set of vertices of affine dimension d - 1 (a facet of
   conv(V)), and is proved valid on P;
4. the facet list is complete: for a polytope of dimension k >= 2 the facets are connected through ridges
   (Balinski's theorem for the polar), so a list of facets in which each ridge of each listed facet lies
   in another listed facet is every facet.  The ridges of a facet R are the faces R ∩ R' of dimension
   k - 2; that they are all of R's facets is the same check one dimension down (a segment has two ends).

Then P ⊆ aff(V) ∩ (listed facets) = conv(V) ⊆ P: P is the polytope conv(V), whose vertices lie in V,
and by 1 every element of V is a vertex.
"""

from __future__ import annotations

from fractions import Fraction

import flint

from rldp_verify_check import CertificateError, dot, q, qrows, qvec

MAX_FACES = 200_000


def _rank(vectors) -> int:
    vectors = [v for v in vectors]
    if not vectors or not vectors[0]:
        return 0
    m = flint.fmpq_mat(len(vectors), len(vectors[0]), [flint.fmpq(x.numerator, x.denominator)
                                                       for v in vectors for x in v])
    return m.rank()


def _farkas(cert, A, b, E, f, h, h0, what: str) -> None:
    n = len(h)
    lam = qrows([cert.get("lam", [])], len(A))[0] if A else {}
    mu = qvec(cert.get("mu", [0] * len(E)))
    if len(mu) != len(E) or any(v < 0 for v in lam.values()):
        raise CertificateError(f"{what}: Farkas multipliers of the wrong length or sign")
    comb = [Fraction(0)] * n
    for i, li in lam.items():
        for j, a in A[i].items():
            comb[j] += li * a
    for r, mi in zip(E, mu, strict=True):
        for j, a in r.items():
            comb[j] += mi * a
    if comb != list(h):
        raise CertificateError(f"{what}: lam^T A + mu^T E differs from the inequality's normal")
    rhs = (sum((li * b[i] for i, li in lam.items()), Fraction(0))
           + sum((m * fi for m, fi in zip(mu, f, strict=True)), Fraction(0)))
    if rhs > h0:
        raise CertificateError(f"{what}: Farkas right-hand side {rhs} exceeds {h0}")


def check(st: dict, data: dict) -> str:
    """Check a ``vertex-enumeration`` certificate; returns what was proved or raises CertificateError."""
    V = [qvec(v) for v in st["vertices"]]
    n = int(st["n"]) if "n" in st else len(V[0])
    A, b = qrows(st.get("A", []), n), qvec(st.get("b", []))
    E, f = qrows(st.get("E", []), n), qvec(st.get("f", []))
    if len(A) != len(b) or len(E) != len(f):
        raise CertificateError("A and b (or E and f) have different numbers of rows")
    if not V:
        _farkas(data["infeasible"], A, b, E, f, [Fraction(0)] * n, Fraction(-1), "emptiness")
        return "P is empty (no vertices)"
    if len({tuple(v) for v in V}) != len(V) or any(len(v) != n for v in V):
        raise CertificateError("vertices repeated or of the wrong length")
    _check_vertices(V, data["tight"], A, b, E, f, n)
    d = _rank([[a - c for a, c in zip(v, V[0], strict=True)] for v in V[1:]])
    _check_equations(V, data.get("equations", []), A, b, E, f, n, d)
    facets = _check_facets(V, data.get("facets", []), A, b, E, f, d)
    cache: dict = {}
    if not _complete(V, d, facets, cache, {}):
        raise CertificateError("the facet list of conv(V) is incomplete (a ridge lies in only one listed facet)")
    return f"{len(V)} vertices, complete (polytope of dimension {d} in R^{n}, {len(facets)} facets)"


def _check_vertices(V, tight, A, b, E, f, n: int) -> None:
    """Each vertex lies in P, on the rows it lists as tight, and those rows with E have rank n."""
    if len(tight) != len(V):
        raise CertificateError("one list of tight rows per vertex is needed")
    for k, (v, T) in enumerate(zip(V, tight, strict=True)):
        if (any(dot(r, v) > bi for r, bi in zip(A, b, strict=True))
                or any(dot(r, v) != fi for r, fi in zip(E, f, strict=True))):
            raise CertificateError(f"vertex {k} is not in P")
        if any(dot(A[i], v) != b[i] for i in T):
            raise CertificateError(f"vertex {k} is off a row it lists as tight")
        if _rank([[r.get(j, Fraction(0)) for j in range(n)] for r in [A[i] for i in T] + E]) != n:
            raise CertificateError(f"the tight rows of vertex {k} do not determine it (rank < {n})")


def _check_equations(V, eqs, A, b, E, f, n: int, d: int) -> None:
    """n - d independent equations of aff(V), each holding on V and valid on P both ways (Farkas)."""
    G = [qvec(e["g"]) for e in eqs]
    if len(eqs) != n - d or _rank(G) != n - d:
        raise CertificateError(f"aff(V) has dimension {d}: {n - d} independent equations are needed, got {len(eqs)}")
    for k, (e, g) in enumerate(zip(eqs, G, strict=True)):
        g0 = q(e["g0"])
        if any(sum(a * c for a, c in zip(g, v, strict=True)) != g0 for v in V):
            raise CertificateError(f"equation {k} does not hold on V")
        _farkas(e["upper"], A, b, E, f, g, g0, f"equation {k} (<=)")
        _farkas(e["lower"], A, b, E, f, [-a for a in g], -g0, f"equation {k} (>=)")


def _check_facets(V, data_facets, A, b, E, f, d: int) -> list[frozenset]:
    """Each listed facet is valid on V, a facet of conv(V) and valid on P (Farkas); returns their vertex sets."""
    facets = []
    for k, fc in enumerate(data_facets):
        h, h0 = qvec(fc["h"]), q(fc["h0"])
        vals = [sum(a * c for a, c in zip(h, v, strict=True)) for v in V]
        if any(x > h0 for x in vals):
            raise CertificateError(f"facet {k} cuts off vertex {next(i for i, x in enumerate(vals) if x > h0)}")
        inc = frozenset(i for i, x in enumerate(vals) if x == h0)
        if _affdim(V, inc, {}) != d - 1:
            raise CertificateError(f"facet {k} is not a facet of conv(V) (its vertices span dimension != {d - 1})")
        _farkas(fc["farkas"], A, b, E, f, h, h0, f"facet {k}")
        facets.append(inc)
    if len(set(facets)) != len(facets):
        raise CertificateError("a facet is listed twice")
    return facets


def _affdim(V, S, memo) -> int:
    if S not in memo:
        pts = sorted(S)
        memo[S] = -1 if not pts else _rank([[a - c for a, c in zip(V[i], V[pts[0]], strict=True)] for i in pts[1:]])
    return memo[S]


def _complete(V, k: int, facets, done: dict, memo: dict) -> bool:
    """Is ``facets`` (faces of dimension k - 1 of a k-dimensional face) the list of all its facets?
    ``done`` memoises (facet, its candidate ridges) -> bool; ``memo`` the affine dimensions."""
    if k <= 0:
        return not facets
    if k == 1:
        return len(set(facets)) == 2
    if len(facets) < k + 1:
        return False
    for R in facets:
        ridges = frozenset(F for F in {R & R2 for R2 in facets if R2 != R} if _affdim(V, F, memo) == k - 2)
        key = (R, ridges)
        if key not in done:
            if len(done) > MAX_FACES:
                raise CertificateError(f"more than {MAX_FACES} faces: too large to check")
            done[key] = _complete(V, k - 1, list(ridges), done, memo)
        if not done[key]:
            return False
    return True
