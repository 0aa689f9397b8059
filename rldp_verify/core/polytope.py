"""Exact vertex enumeration with pycddlib's GMP backend.

A polyhedron is given by inequalities A x <= b and equalities E x = f with rational entries
(Fractions; floats are refused). :func:`vertices` returns its vertices (and rays) as tuples of
Fractions, computed by cddlib's double description in exact rational arithmetic.

Other exact backends with the same contract: :func:`vertices_lrs` (lrslib's reverse search, the
``lrs`` binary of Debian's ``lrslib``) and :func:`vertices_normaliz` (Normaliz via the optional
PyNormaliz).  :func:`irredundant_rows` lists the facet-defining rows (cddlib canonicalisation).
The structure-exploiting enumeration of the PolyOpt polytope is in :mod:`rldp_verify.rldp.gamma`; all
are checked against :func:`vertices` in tests/core/test_polytope.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import cdd
import cdd.gmp

from rldp_verify.core.numbers import exact

#: a vertex or ray: exact coordinates
Vec = tuple[Fraction, ...]


def generators_of_rows(rows: Sequence[Sequence[Any]], lin: Sequence[int] = (), *,
                       canonicalize: bool = False) -> tuple[list[Vec], list[Vec], bool]:
    """Generators of {x : b + a.x >= 0 for each row [b, a], with equality for the rows in ``lin``}.

    ``rows`` are in cddlib's own H-format (exact Fractions). With ``canonicalize``, redundant rows
    are removed and implicit equalities detected first (cdd's exact canonicalisation). Returns
    ``(vertices, rays, has_lineality)`` with vertices and rays as tuples of Fractions.
    """
    rows = [[exact(v) for v in r] for r in rows]
    m = cdd.gmp.matrix_from_array(rows, rep_type=cdd.RepType.INEQUALITY, lin_set=set(lin))
    if canonicalize:
        cdd.gmp.matrix_canonicalize(m)
    gen = cdd.gmp.copy_generators(cdd.gmp.polyhedron_from_matrix(m))
    verts: list[Vec] = []
    rays: list[Vec] = []
    for row in gen.array:
        vec = tuple(Fraction(v) for v in row[1:])
        (verts if row[0] == 1 else rays).append(vec)
    if not verts and rays and not gen.lin_set and all(r[0] == 0 for r in rows):
        # a homogeneous system is a cone: cdd lists only its rays and leaves the apex implicit, but a pointed
        # nonempty polyhedron has a vertex, and the apex of a pointed cone is the origin
        verts.append(tuple(Fraction(0) for _ in rows[0][1:]))
    return verts, rays, bool(gen.lin_set)


def _h_rows(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
            f: Sequence[Any] = ()) -> tuple[list[list[Fraction]], list[int]]:
    """A x <= b, E x = f as cdd H-format rows [b, -A] and the indices of the equality rows."""
    rows = [[exact(bi)] + [-exact(a) for a in ai] for ai, bi in zip(A, b, strict=True)]
    lin = []
    for ei, fi in zip(E, f, strict=True):
        lin.append(len(rows))
        rows.append([exact(fi)] + [-exact(a) for a in ei])
    return rows, lin


def vertices(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
             f: Sequence[Any] = ()) -> tuple[list[Vec], list[Vec]]:
    """Vertices and rays of {x : A x <= b, E x = f}: returns (vertices, rays), exact Fractions."""
    verts, rays, _ = generators_of_rows(*_h_rows(A, b, E, f))
    return verts, rays


def _lrs_number(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def vertices_lrs(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
                 f: Sequence[Any] = (), *, timeout: float | None = None) -> tuple[list[Vec], list[Vec]]:
    """Same as :func:`vertices` but computed by lrslib's reverse search (the ``lrs`` binary of the
    Debian package ``lrslib``; exact: lrs switches to GMP on overflow).  Returns (vertices, rays)
    as tuples of Fractions.  Raises :class:`FileNotFoundError` if ``lrs`` is not installed.
    """
    import os
    import shutil
    import subprocess
    import tempfile

    exe = shutil.which("lrs")
    if exe is None:
        raise FileNotFoundError("lrs (Debian package lrslib) is not installed")
    rows = [[exact(bi)] + [-exact(a) for a in ai] for ai, bi in zip(A, b, strict=True)]
    lin = []
    for ei, fi in zip(E, f, strict=True):
        lin.append(len(rows) + 1)
        rows.append([exact(fi)] + [-exact(a) for a in ei])
    n = len(rows[0])
    lines = ["rldp", "H-representation"]
    if lin:
        lines.append("linearity " + str(len(lin)) + " " + " ".join(map(str, lin)))
    lines += ["begin", f"{len(rows)} {n} rational"]
    lines += [" ".join(_lrs_number(x) for x in r) for r in rows]
    lines.append("end")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "p.ine")
        with open(path, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        out = subprocess.run([exe, path], capture_output=True, text=True, timeout=timeout,
                             check=True).stdout
    # lrs restarts with wider arithmetic on overflow and then prints the output again: parse the
    # last complete begin ... end block only.
    lines_out = [ln.strip() for ln in out.splitlines()]
    try:
        end = max(i for i, t in enumerate(lines_out) if t == "end")
        begin = max(i for i, t in enumerate(lines_out[:end]) if t == "begin")
    except ValueError:
        raise RuntimeError("lrs produced no V-representation") from None
    if any(t.startswith("linearity") for t in lines_out[:begin]):
        raise RuntimeError("lrs reported a lineality space; not a pointed polyhedron")
    verts, rays = [], []
    for t in lines_out[begin + 1:end]:
        if not t or t.startswith("*"):
            continue
        parts = t.split()
        vec = tuple(Fraction(p) for p in parts[1:])
        if parts[0] == "1":
            verts.append(vec)
        elif parts[0] == "0":
            rays.append(vec)
        else:
            raise RuntimeError(f"unexpected lrs output line: {t!r}")
    return verts, rays


def _integer_row(row: Sequence[Fraction]) -> list[int]:
    from math import lcm
    den = 1
    for x in row:
        den = lcm(den, x.denominator)
    return [int(x * den) for x in row]


def vertices_normaliz(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
                      f: Sequence[Any] = ()) -> tuple[list[Vec], list[Vec]]:
    """Same as :func:`vertices`, computed by Normaliz through PyNormaliz (optional dependency;
    exact integer arithmetic).  Returns (vertices, rays) as tuples of Fractions; raises
    :class:`ImportError` if PyNormaliz is not installed."""
    from PyNormaliz import Cone

    ineq = [_integer_row([-exact(a) for a in ai] + [exact(bi)]) for ai, bi in zip(A, b, strict=True)]
    eqs = [_integer_row([exact(a) for a in ei] + [-exact(fi)]) for ei, fi in zip(E, f, strict=True)]
    kw = {"inhom_inequalities": ineq}
    if eqs:
        kw["inhom_equations"] = eqs
    C = Cone(**kw)
    verts = [tuple(Fraction(int(x), int(v[-1])) for x in v[:-1]) for v in C.VerticesOfPolyhedron()]
    rays = [tuple(Fraction(int(x)) for x in r[:-1]) for r in C.ExtremeRays()]
    return verts, rays


def irredundant_rows(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
                     f: Sequence[Any] = ()) -> list[int]:
    """Indices of the rows of A x <= b that are not implied by the others together with E x = f
    (cddlib GMP ``matrix_canonicalize``, exact).  Duplicated rows keep one representative."""
    impl_lin, redset = canonical_row_sets(A, b, E, f)
    return [i for i in range(len(A)) if i not in redset and i not in impl_lin]


def canonical_row_sets(A: Sequence[Sequence[Any]], b: Sequence[Any], E: Sequence[Sequence[Any]] = (),
                       f: Sequence[Any] = ()) -> tuple[set[int], set[int]]:
    """(implicit equalities, redundant rows) among the rows of A x <= b together with E x = f (cddlib GMP
    ``matrix_canonicalize``, exact; indices into A); of rows that are duplicates one is kept."""
    rows, lin = _h_rows(A, b, E, f)
    m = cdd.gmp.matrix_from_array(rows, rep_type=cdd.RepType.INEQUALITY, lin_set=set(lin))
    impl_lin, redset, _ = cdd.gmp.matrix_canonicalize(m)
    return {i for i in impl_lin if i < len(A)}, {i for i in redset if i < len(A)}


def hull_description(V: Sequence[Sequence[Any]]) -> tuple[list[tuple[list[Fraction], Fraction]],
                                                          list[tuple[list[Fraction], Fraction]]]:
    """(equations, facets) of conv(V): equations g.x = g0 of its affine hull and facets h.x <= h0, irredundant
    (cddlib GMP's exact V -> H conversion, canonicalised)."""
    m = cdd.gmp.matrix_from_array([[Fraction(1)] + [exact(x) for x in v] for v in V],
                                  rep_type=cdd.RepType.GENERATOR)
    H = cdd.gmp.copy_inequalities(cdd.gmp.polyhedron_from_matrix(m))
    cdd.gmp.matrix_canonicalize(H)
    eqs, facets = [], []
    for i, row in enumerate(H.array):
        b0, a = Fraction(row[0]), [Fraction(v) for v in row[1:]]     # b0 + a.x >= 0
        if i in H.lin_set:
            eqs.append((a, -b0))
        elif any(a):
            facets.append(([-v for v in a], b0))
    return eqs, facets
