"""``vertex-enumeration``: the vertex list of P = {x : A x <= b, E x = f} is complete and correct.

Statement: ``A``, ``b``, ``E``, ``f`` and ``vertices`` (the claimed vertex set V, each a list of n numbers).
Data: ``tight`` (for each vertex, indices of rows of A it makes tight); ``equations`` (the affine hull of V:
each ``{"g", "g0", "upper", "lower"}``, g.x = g0, with Farkas certificates for g.x <= g0 and -g.x <= -g0
on P); ``facets`` (each ``{"h", "h0", "farkas"}``: the inequality h.x <= h0 and its Farkas certificate).
A Farkas certificate ``{"lam": [[i, v], ...], "mu": [...]}`` proves h.x <= h0 on P when lam >= 0,
lam^T A + mu^T E = h and lam.b + mu.f <= h0 (then h.x = lam.(A x) + mu.(E x) <= lam.b + mu.f).
An empty V needs ``infeasible``: a Farkas certificate of 0.x <= -1 (a contradiction: P is empty).

What is checked (exact rationals; ranks by flint's fmpq_mat and fmpz_mat; the affine dimension of points p_i is
rank(rows (1, p_i)) - 1, each row scaled to integers by its own denominators, which keeps the rank):

1. every v in V lies in P, its listed rows are tight, and they with E have rank n: v is a vertex of P;
2. d = dim aff(V); n - d independent equations valid on V, each proved valid on P (P lies in aff(V));
3. every facet is valid on V, tight on vertices spanning dimension d - 1 (a facet of conv(V)), valid on P;
4. Q = aff(V) ∩ (listed facets) lies in conv(V), by (a) or else (b).  (a) Each v is on exactly d listed
   facets h and for each such j some u_j in V is on the other d - 1, not on j: y -> (h.y)_h maps u_j - v to
   a negative multiple of e_j, so maps dir aff(V) (dim d) onto R^d, and Q ⊆ v + cone(u_j - v); an affine c
   with c(x) > max c(V) = c(v), x in Q, would be <= c(v) on v + cone(V - v), which holds x.  (b) The list is
   every facet: those of a k-polytope (k >= 2) are connected through ridges (Balinski for the polar), so it
   suffices that each facet of each listed R (the faces R ∩ R' of dimension k - 2, all of R's by the same
   check one dimension down; a simplex face has k + 1) lies in another listed facet.

Then P ⊆ Q ⊆ conv(V) ⊆ P: P is the polytope conv(V), whose vertices lie in V; by 1 each v in V is one.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import flint

from rldp_verify_check import CertificateError, combine, dot, outside, polyhedron, q, qrows, qvec

MAX_FACES = 200_000


def _rank(rows) -> int:
    return flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in r] for r in rows]).rank()


def _farkas(cert, A, b, E, f, h, h0, what: str) -> None:
    lam = qrows([cert.get("lam", [])], len(A))[0] if A else {}
    mu = qvec(cert.get("mu", [0] * len(E)))
    if len(mu) != len(E) or any(v < 0 for v in lam.values()):
        raise CertificateError(f"{what}: Farkas multipliers of the wrong length or sign")
    comb, rhs = combine([*lam.values(), *mu], [*(A[i] for i in lam), *E], [*(b[i] for i in lam), *f], len(h))
    if comb != list(h):
        raise CertificateError(f"{what}: lam^T A + mu^T E differs from the inequality's normal")
    if rhs > h0:
        raise CertificateError(f"{what}: Farkas right-hand side {rhs} exceeds {h0}")


def check(st: dict, data: dict) -> str:
    """Check a ``vertex-enumeration`` certificate; returns what was proved or raises CertificateError."""
    V = [qvec(v) for v in st["vertices"]]
    n = int(st["n"]) if "n" in st else len(V[0])
    A, b, E, f = polyhedron(st, n)
    if not V:
        _farkas(data["infeasible"], A, b, E, f, [Fraction(0)] * n, Fraction(-1), "emptiness")
        return "P is empty (no vertices)"
    if len({tuple(v) for v in V}) != len(V) or any(len(v) != n for v in V):
        raise CertificateError("vertices repeated or of the wrong length")
    if len(data["tight"]) != len(V):                   # 1: each vertex in P, on its tight rows, of rank n with E
        raise CertificateError("one list of tight rows per vertex is needed")
    for k, (v, T) in enumerate(zip(V, data["tight"], strict=True)):
        if outside(A, b, E, f, v):
            raise CertificateError(f"vertex {k} is not in P")
        if any(dot(A[i], v) != b[i] for i in T):
            raise CertificateError(f"vertex {k} is off a row it lists as tight")
        if _rank([[r.get(j, Fraction(0)) for j in range(n)] for r in [A[i] for i in T] + E]) != n:
            raise CertificateError(f"the tight rows of vertex {k} do not determine it (rank < {n})")
    d = _rank([[a - c for a, c in zip(v, V[0], strict=True)] for v in V[1:]])
    _check_equations(V, data.get("equations", []), A, b, E, f, n, d)
    Vz = [[(m := lcm(*(x.denominator for x in v)))] + [int(x * m) for x in v] for v in V]   # (1, v) in integers
    facets = _check_facets(V, Vz, data.get("facets", []), A, b, E, f, d)
    if not _simple(V, facets, d) and not _complete(Vz, d, (1 << len(V)) - 1, facets, {}, {}):
        raise CertificateError("the facet list of conv(V) is incomplete (a ridge lies in only one listed facet)")
    return f"{len(V)} vertices, complete (polytope of dimension {d} in R^{n}, {len(facets)} facets)"


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


def _check_facets(V, Vz, data_facets, A, b, E, f, d: int) -> list[int]:
    """Each listed facet is valid on V, a facet of conv(V) and valid on P (Farkas); returns their vertex sets."""
    facets = []
    for k, fc in enumerate(data_facets):
        h, h0 = qvec(fc["h"]), q(fc["h0"])
        vals = [sum(a * c for a, c in zip(h, v, strict=True)) for v in V]
        if any(x > h0 for x in vals):
            raise CertificateError(f"facet {k} cuts off vertex {next(i for i, x in enumerate(vals) if x > h0)}")
        inc = sum(1 << i for i, x in enumerate(vals) if x == h0)
        if _affdim(Vz, inc, {}) != d - 1:
            raise CertificateError(f"facet {k} is not a facet of conv(V) (its vertices span dimension != {d - 1})")
        _farkas(fc["farkas"], A, b, E, f, h, h0, f"facet {k}")
        facets.append(inc)
    if len(set(facets)) != len(facets):
        raise CertificateError("a facet is listed twice")
    return facets


def _affdim(Vz, S: int, memo) -> int:
    """The affine dimension of the vertices in S (bit i: vertex i; Vz: the rows (1, v) in integers)."""
    if S not in memo:
        memo[S] = flint.fmpz_mat([Vz[i] for i in range(S.bit_length()) if S >> i & 1]).rank() - 1 if S else -1
    return memo[S]


def _simple(V, facets, d: int) -> bool:
    """Step 4 (a) (``facets``: their vertex sets); ``on[i]``: the facets at vertex i."""
    on = [sum(1 << k for k, F in enumerate(facets) if F >> i & 1) for i in range(len(V))]
    return all(t.bit_count() == d and {t & ~(1 << j) for j in range(t.bit_length()) if t >> j & 1}
               <= {t & u for u in on} for t in on)


def _complete(Vz, k: int, face: int, facets, done: dict, memo: dict) -> bool:
    """Is ``facets`` (faces of dimension k - 1 of the k-dimensional face ``face``) the list of all its facets?
    ``done`` memoises (facet, its candidate ridges) -> bool; ``memo`` the affine dimensions."""
    if k <= 0:
        return not facets
    if face.bit_count() == k + 1 or len(facets) <= k:   # a simplex's facets are its k + 1 sets of k vertices
        return len(set(facets)) == k + 1
    for R in facets:
        ridges = frozenset(F for F in {R & R2 for R2 in facets if R2 != R} if _affdim(Vz, F, memo) == k - 2)
        key = (R, ridges)
        if key not in done:
            if len(done) > MAX_FACES:
                raise CertificateError(f"more than {MAX_FACES} faces: too large to check")
            done[key] = _complete(Vz, k - 1, R, list(ridges), done, memo)
        if not done[key]:
            return False
    return True
