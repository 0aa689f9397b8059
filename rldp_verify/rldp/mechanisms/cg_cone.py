"""Gamma_eps as a cone for column generation: PolyOpt's (Definition 3) and NR's (Definition 1, F = {P-hat}).

Paper: [lopuhaa-2024], Sec. 5 (Definition 3, eqs. (44)-(46)) and Sec. 8 (NR).  A
:class:`Cone` carries the per-block vertex data of :mod:`cone_blocks` (columns of LP (46) are points of
prod_s W_s) and an exact membership test, screened in floats only where the margin is clear (never a
wrong "member": an unclear case is decided in rationals).  Used by :mod:`polyopt_cg`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from rldp_verify.rldp.mechanisms.cone_blocks import Block, nr_blocks, polyopt_blocks


class Cone:
    """Gamma_eps as cone(prod_s W_s): blocks, membership test in exact rationals, LP coordinates."""

    def __init__(self, kind: str, blocks: list[Block], shape: tuple[int, int], exp_eps: Fraction, exact_member,
                 free=()):
        self.kind = kind
        self.shape = shape
        self.e = exp_eps
        self.blocks = blocks
        self.a = shape[0] * shape[1]
        self.member = exact_member
        self.free = tuple(free)
        self.lp_coords = sorted(x for b in blocks for x in b.coords)


_SCREEN_REL = 1e-11


def _screen(h: np.ndarray, e: Fraction, exact, v) -> bool:
    """max h <= e min h decided from floats when the margin is clear, else by ``exact(v)``.  Every h is
    a sum of at most |U| + 1 nonnegative products of correctly rounded factors, so its float value is
    within (|U| + 4) u < 1e-13 relative of the exact one (|U| <= 20); e's within u; the screen
    leaves a margin of 1e-11 relative on each side."""
    hi, lo = float(np.max(h)), float(np.min(h))
    ef = e.numerator / e.denominator
    if not (np.isfinite(hi) and lo > 1e-280):
        return exact(v)
    if hi * (1 + _SCREEN_REL) < ef * lo * (1 - _SCREEN_REL):
        return True
    if hi * (1 - _SCREEN_REL) > ef * lo * (1 + _SCREEN_REL):
        return False
    return exact(v)


def polyopt_cone(lower, exp_eps) -> Cone:
    """PolyOpt's cone (Definition 3 with the pairs s1 = s2) for the exact lower-bound table."""
    L = [[Fraction(x) for x in r] for r in lower]
    e = Fraction(exp_eps)
    blocks = polyopt_blocks(L, e)
    a1, a2 = len(L), len(L[0])
    cs = [1 - sum(r) for r in L]

    Lf = np.array([[float(x) for x in r] for r in L])
    csf = np.array([float(c) for c in cs])

    def exact(v) -> bool:
        h: list[Fraction] = []
        for s in range(a1):
            vs = v[s * a2:(s + 1) * a2]
            lv = sum(lu * x for lu, x in zip(L[s], vs, strict=True))
            h.extend(cs[s] * x + lv for x in vs)
        return max(h) <= e * min(h)

    def member(v) -> bool:
        if any(x < 0 for x in v):
            return False
        V = np.array([float(x) for x in v]).reshape(a1, a2)
        h = csf[:, None] * V + (Lf * V).sum(axis=1)[:, None]
        return _screen(h, e, exact, v)

    return Cone("polyopt", blocks, (a1, a2), e, member)


def nr_cone(table, exp_eps) -> Cone:
    """NR's cone (Definition 1 for F = {P-hat}) for the exact P-hat table (counts or probabilities)."""
    T = [[Fraction(x) for x in r] for r in table]
    e = Fraction(exp_eps)
    blocks, free = nr_blocks(T, e)
    a1, a2 = len(T), len(T[0])
    act = [s for s in range(a1) if sum(T[s]) > 0]

    Tf = np.array([[float(x / sum(T[s])) for x in T[s]] for s in act])

    def exact(v) -> bool:
        r = [sum(T[s][u] * v[s * a2 + u] for u in range(a2)) / sum(T[s]) for s in act]
        return max(r) <= e * min(r)

    def member(v) -> bool:
        if any(x < 0 for x in v):
            return False
        V = np.array([float(x) for x in v]).reshape(a1, a2)[act]
        return _screen((Tf * V).sum(axis=1), e, exact, v)

    return Cone("nr", blocks, (a1, a2), e, member, free)
