"""Exact vertex enumeration with pycddlib's GMP backend.

A polyhedron is given by inequalities A x <= b and equalities E x = f with rational entries
(Fractions; floats are refused). :func:`vertices` returns its vertices (and rays) as tuples of
Fractions, computed by cddlib's double description in exact rational arithmetic.

This module is the baseline implementation; faster, structure-exploiting enumerations for the
PolyOpt polytope live next to it and are checked against this one.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import cdd
import cdd.gmp

from rldp_verify.numbers import exact


def _h_matrix(A, b, E=(), f=()):
    rows = [[exact(bi)] + [-exact(a) for a in ai] for ai, bi in zip(A, b)]
    lin = set()
    for ei, fi in zip(E, f):
        lin.add(len(rows))
        rows.append([exact(fi)] + [-exact(a) for a in ei])
    m = cdd.gmp.matrix_from_array(rows, rep_type=cdd.RepType.INEQUALITY, lin_set=lin)
    return m


def vertices(A: Sequence[Sequence], b: Sequence, E: Sequence[Sequence] = (), f: Sequence = ()):
    """Vertices and rays of {x : A x <= b, E x = f}: returns (vertices, rays), exact Fractions."""
    m = _h_matrix(A, b, E, f)
    poly = cdd.gmp.polyhedron_from_matrix(m)
    gen = cdd.gmp.copy_generators(poly)
    verts, rays = [], []
    for row in gen.array:
        vec = tuple(Fraction(v) for v in row[1:])
        if row[0] == 1:
            verts.append(vec)
        else:
            rays.append(vec)
    return verts, rays
