"""PolyOpt's building blocks against independent oracles (issue 9, generic mutation layer).

Paper: seeds/000_aca93ed29ea857ee.txt, Sec. 5 (Definition 3, Theorems 2-3, eqs. (44)-(46)) and Sec. 8 (NR).
Oracles: hand computations in exact rationals (block vertices, T/N/A of a block, the closed forms of the
error bounds), brute force over all products of block vertices, and the exact enumeration of Gamma-hat
(polyopt) against column generation (polyopt_cg) on |X| <= 6.  Every test is fast (well under 1 s).
"""

from __future__ import annotations

import itertools
import math
import sys
from fractions import Fraction as F
from itertools import pairwise

import mpmath
import numpy as np
import pytest

import rldp_verify.rldp.mechanisms.polyopt  # noqa: F401  (the name is shadowed by the function in the package)
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.rldp.mechanisms import cone_blocks as cb
from rldp_verify.rldp.mechanisms.cg_cone import _screen, nr_cone, polyopt_cone
from rldp_verify.rldp.mechanisms.pricing import Node, Pricer, _upper_hull
from tests.fakes import ProgressRecorder
from tests.rldp.mechanisms.instances import mp, mu_reference, random_instance, reference_optimum

po = sys.modules["rldp_verify.rldp.mechanisms.polyopt"]

# a hand-checked instance: |S| = |U| = 2, e^eps = 2
L22 = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)]]
P22 = [F(1, 10), F(2, 10), F(3, 10), F(4, 10)]


def _h_ok(L, e, v):
    """Definition 3 (pairs s1 = s2 included) in the h form: max h <= e min h, v >= 0 (exact)."""
    a2 = len(L[0])
    h = []
    for s, row in enumerate(L):
        vs = v[s * a2:(s + 1) * a2]
        lv = sum(a * b for a, b in zip(row, vs, strict=True))
        h.extend((1 - sum(row)) * x + lv for x in vs)
    return min(v) >= 0 and max(h) <= e * min(h)


# ---------------------------------------------------------------------------------------- cone_blocks
def test_block_vertices_by_hand():
    """Row L = (1/4, 1/8), e = 2: c = 5/8; type (i) B = {}, {0}, {1}, U give w = (1, 1), (1 + 8/5 - 2/5, 3/5),
    (4/5, 4/5 + 8/5), (2, 2); type (ii) needs m = e L(U\\A) / (1 - L(A)) > 1: A = {0} gives 1/3, A = {1} 4/7,
    so none."""
    b = cb.polyopt_blocks([L22[0]], 2)[0]
    got = {b.exact_point(j) for j in range(len(b))}
    assert got == {(1, 1), (F(11, 5), F(3, 5)), (F(4, 5), F(12, 5)), (2, 2)} and len(b) == 4
    assert b.s == 0 and b.coords == (0, 1)
    # second row L = (1/10, 3/10), c = 3/5, gamma = 5/3: B = {0}: beta = 1 - (1/10)/(3/5) = 5/6
    b2 = cb.polyopt_blocks(L22, 2)[1]
    assert b2.coords == (2, 3)
    assert {b2.exact_point(j) for j in range(len(b2))} == {(1, 1), (F(5, 2), F(5, 6)), (F(1, 2), F(13, 6)), (2, 2)}


def test_block_type_ii_and_iii_by_hand():
    """L = (1/2, 0), e = 3 (c = 1/2).  Type (ii) A = {1}: m = 3 * 1/2 / 1 = 3/2 > 1, w = e/(1 - 0) = 3 on u = 0,
    0 on u = 1.  Type (i): B = {1} (L(B) = 0): beta = 1, w = (1, 5); B = {0}: (e-1) L(B) = 1 > c, infeasible.
    Type (iii) (h_0 in (1, e) with L . h = 1, O = {1}, E = {}): L_0 h_0 = 1 - 0 = 1 -> h_0 = 2, w_0 = (h_0 - 1) / c
    = 2 ... but needs k with O nonempty: k = 0, O = {1}: h = (2, 1), v = (h - L.h)/c = (2, 0)."""
    b = cb.polyopt_blocks([[F(1, 2), F(0)]], 3)[0]
    got = {b.exact_point(j) for j in range(len(b))}
    ref = {(1, 1), (1, 5), (3, 3), (3, 0), (2, 0)}
    assert got == ref and len(b) == len(ref)
    for v in got:       # every vertex is in the cone, and on its boundary (max h = e min h or min v = 0)
        assert _h_ok([[F(1, 2), F(0)]], 3, list(v))
    # the float fields are the correctly rounded exact values
    for j in range(len(b)):
        assert (b.a1[j], b.a2[j], b.a3[j]) == tuple(float(x) for x in b._exact(j))
    assert sorted(b.kidx.tolist()).count(-1) == len(b) - 1


def test_block_dense_is_every_exact_point_rounded():
    """Block.dense (the float vertex rule used by the pricing and the Lagrangian master) is exact_point rounded,
    for all vertices and for a selection, on blocks with all three levels (a type (iii) vertex has a3)."""
    blocks = cb.polyopt_blocks([[F(1, 2), F(0)], [F(1, 4), F(1, 8)]], 3) + cb.polyopt_blocks(
        [[F(1, 10), F(1, 5), F(1, 20)]], 2)
    assert any((b.kidx >= 0).any() for b in blocks)
    for b in blocks:
        ref = np.array([[float(x) for x in b.exact_point(j)] for j in range(len(b))])
        assert np.array_equal(b.dense(), ref)
        sel = [len(b) - 1, 0]
        assert np.array_equal(b.dense(sel), ref[sel])


def test_block_input_errors():
    with pytest.raises(InputError, match=r"lower bounds of row 1 have a negative entry"):
        cb.polyopt_blocks([[F(1, 4), F(1, 4)], [F(-1, 4), F(1, 4)]], 2)
    with pytest.raises(InputError, match=r"\|U\| = 21 is too large for the block enumeration \(at most 20\)"):
        cb.polyopt_blocks([[F(0)] * 21], 2)
    with pytest.raises(InputError, match=r"e\^eps = 1/2 < 1: eps is negative, Gamma-hat is empty"):
        cb.nr_blocks([[1, 2]], F(1, 2))
    with pytest.raises(InputError, match=r"^P-hat row 1 has a negative entry$"):
        cb.nr_blocks([[1, 2], [3, -1]], 2)
    with pytest.raises(InputError, match=r"^P-hat has no positive entry: NR is undefined$"):
        cb.nr_blocks([[0, 0]], 2)
    # eps = 0 (e^eps = 1) is valid input: both levels r in {1, e} coincide
    blocks, free = cb.nr_blocks([[1, 3]], 1)
    assert free == () and [blocks[0].exact_point(j) for j in range(4)] == [(4, 0), (4, 0), (0, F(4, 3)), (0, F(4, 3))]
    with pytest.raises(InputError, match=r"infeasible cone: sum_u L_\(u\|s\) = 1.25 >= 1 for s = 0 \(D_s is a "
                                         r"single point or empty; the PolyOpt cone needs sum_u L_\(u\|s\) < 1\)"):
        cb.polyopt_blocks([[F(1), F(1, 4)]], 2)
    with pytest.raises(InputError, match=r"^e\^eps = 1/2 < 1: eps is negative, Gamma-hat is empty$"):
        cb.polyopt_blocks([[F(1, 4)]], F(1, 2))


def test_block_at_eps_zero_is_the_single_ray():
    """e = 1: Gamma_eps is the ray of h constant; with L = 0 it is {t 1}, so every vertex is proportional to 1."""
    for row in ([F(0), F(0), F(0)], [F(1, 5), F(1, 10), F(0)]):
        b = cb.polyopt_blocks([row], 1)[0]
        for j in range(len(b)):
            w = b.exact_point(j)
            assert len(set(w)) == 1 and w[0] > 0


def test_small_helpers_exact():
    assert cb._ints([F(1, 2), F(1, 3), 2]) == ([3, 2, 12], 6)
    assert cb._ints([]) == ([], 1)
    assert cb._subset_sums([1, 10, 100], 3) == [0, 1, 10, 11, 100, 101, 110, 111]
    assert cb._subset_sums([5, 7], 1) == [0, 5]
    r = cb._ratios([1, 2, 10 ** 30 + 1], [3, 4, 10 ** 30])
    assert r.tolist() == [1 / 3, 0.5, 1.0] and r.dtype == float
    # the screen: clear positives kept, clear negatives and tiny ones decided exactly
    out = cb._exact_sign_filter(np.array([1.0, -1.0, 0.0, 1e-12, -1e-12, 2e-9]), lambda i: i in (2, 4))
    assert out.tolist() == [0, 2, 4, 5]
    assert cb._exact_sign_filter(np.array([1e-9, 1.1e-9]), lambda i: False).tolist() == [1]


def test_nr_blocks_by_hand():
    """NR: W_s vertices r e_u / P-hat_{u|s}, r in {1, e}; zero cells are free, empty rows skipped."""
    blocks, free = cb.nr_blocks([[1, 3, 0], [0, 0, 0], [2, 2, 4]], F(3, 2))
    assert free == (2, 3, 4, 5)
    assert [b.s for b in blocks] == [0, 2]
    assert blocks[0].coords == (0, 1) and blocks[1].coords == (6, 7, 8)
    pts0 = [blocks[0].exact_point(j) for j in range(len(blocks[0]))]
    assert pts0 == [(4, 0), (6, 0), (0, F(4, 3)), (0, 2)]
    pts1 = [blocks[1].exact_point(j) for j in range(len(blocks[1]))]
    assert pts1 == [(4, 0, 0), (6, 0, 0), (0, 4, 0), (0, 6, 0), (0, 0, 2), (0, 0, 3)]
    assert blocks[1].masks.tolist() == [1, 1, 2, 2, 4, 4] and blocks[1].kidx.tolist() == [-1] * 6
    assert blocks[1].a1.tolist() == [4.0, 6.0, 4.0, 6.0, 2.0, 3.0]
    assert len(blocks[0]) == 4


def test_block_data_by_hand():
    """T = P . w, N = sum w, A = sum P w log w on the hand-checked blocks of L22 (exact / mpmath)."""
    for b in cb.polyopt_blocks(L22, 2):
        bd = cb.block_data(b, P22)
        assert bd.nbits == 2 and bd.block is b
        p = [P22[x] for x in b.coords]
        for j in range(len(b)):
            w = b.exact_point(j)
            T = sum(x * q for x, q in zip(w, p, strict=True))
            N = sum(w)
            with mpmath.workdps(40):
                A = sum(mp(x * q) * mpmath.log(mp(x)) for x, q in zip(w, p, strict=True) if x * q > 0)
            assert abs(F(bd.T[j]) - T) <= 4 * 2.0 ** -53 * T and abs(F(bd.T[j]) - T) <= F(bd.T_err[j])
            assert F(bd.N[j]) == pytest.approx(N, rel=1e-15, abs=0)
            assert abs(bd.A[j] - A) <= bd.A_err[j] and bd.A_err[j] < 1e-11
            assert bd.T_err[j] <= 9 * 2.0 ** -53 * float(T) + 1e-290
        assert np.all(np.diff(bd.T[bd.order]) >= 0)
    # the type (iii) vertex (third level) of the block with L = (1/2, 0), e = 3 and a skewed P
    b = cb.polyopt_blocks([[F(1, 2), F(0)]], 3)[0]
    bd = cb.block_data(b, [F(1, 3), F(2, 3)])
    for j in range(len(b)):
        w = b.exact_point(j)
        T = w[0] / 3 + 2 * w[1] / 3
        assert abs(F(bd.T[j]) - T) <= F(bd.T_err[j]) and bd.N[j] == float(sum(w))
        with mpmath.workdps(40):
            A = sum(mp(x * q) * mpmath.log(mp(x)) for x, q in zip(w, (F(1, 3), F(2, 3)), strict=True) if x > 0)
        assert abs(bd.A[j] - A) <= bd.A_err[j]
        # the error bound is the stated closed form: 2 (2 LOG_ULPS + 8) u sum_i alpha_i P(S_i) (1 + |log alpha_i|)
        bound = 2 * (2 * 1024 + 8) * 2.0 ** -53 * sum(float(x * q) * (1 + abs(math.log(x)))
                                                      for x, q in zip(w, (F(1, 3), F(2, 3)), strict=True) if x > 0)
        assert bd.A_err[j] == pytest.approx(bound + 1e-300, rel=1e-9)


# ---------------------------------------------------------------------------------------- cg_cone
def test_screen_decides_clear_cases_without_exact():
    def never(v):
        raise AssertionError("the exact test must not be needed")

    e = F(2)
    assert _screen(np.array([1.0, 1.9]), e, never, None) is True
    assert _screen(np.array([1.0, 2.1]), e, never, None) is False
    # on the boundary (2 = 2 * 1) and within the 1e-11 margin: the exact test decides
    calls = []
    for h in ([1.0, 2.0], [1.0, 2.0 * (1 + 5e-12)], [1.0, 2.0 * (1 - 5e-12)], [0.0, 1.0], [1e-300, 1.0],
              [1.0, np.inf]):
        assert _screen(np.array(h), e, lambda v: calls.append(v) or "exact", len(calls)) == "exact"
    assert calls == [0, 1, 2, 3, 4, 5]


def test_polyopt_cone_membership_and_coordinates():
    cone = polyopt_cone(L22, 2)
    assert cone.kind == "polyopt" and cone.shape == (2, 2) and cone.a == 4 and cone.e == 2
    assert cone.lp_coords == [0, 1, 2, 3] and cone.free == ()
    # h_{s,u} = c_s v_{s,u} + L_s . v_s; v = 1: h = (1 - 0 + ...) constant per s -> member (ratio 1)
    assert cone.member([F(1)] * 4)
    # v = (1, 0, 0, 0): h_0 = (5/8 + 1/4, 1/4), h_1 = (0, 0): min h = 0 < max -> not member
    assert not cone.member([F(1), F(0), F(0), F(0)])
    assert not cone.member([F(1), F(-1, 10 ** 40), F(1), F(1)])
    # exactly on the boundary: a product of block vertices (max h = 2 min h) is a member, nudged out is not
    v = [F(11, 5), F(3, 5), F(1, 2), F(13, 6)]
    assert _h_ok(L22, 2, v) and cone.member(v)
    for x in range(4):
        for d in (F(1, 10 ** 30), -F(1, 10 ** 30)):
            w = list(v)
            w[x] += d
            assert cone.member(w) == _h_ok(L22, 2, w)


def test_nr_cone_membership_by_hand():
    table = [[1, 3, 0], [0, 0, 0], [2, 2, 4]]
    cone = nr_cone(table, F(3, 2))
    assert cone.kind == "nr" and cone.free == (2, 3, 4, 5) and cone.a == 9 and cone.lp_coords == [0, 1, 6, 7, 8]
    # r_0 = (v0 + 3 v1) / 4, r_2 = (2 v6 + 2 v7 + 4 v8) / 8; free coordinates do not matter
    base = [F(1), F(1), F(7), F(7), F(7), F(7), F(1), F(1), F(1)]
    assert cone.member(base)                                   # r = (1, 1)
    v = list(base)
    v[0] = F(3)                                                # r_0 = 3/2 = e r_2: on the boundary
    assert cone.member(v)
    v[0] = F(3) + F(1, 10 ** 30)
    assert not cone.member(v)
    v[0] = F(-1)
    assert not cone.member(v)
    v = list(base)
    v[6] = v[7] = v[8] = F(2, 3)                               # r_2 = 2/3, r_0 = 1 = e r_2
    assert cone.member(v)
    v[8] -= F(1, 10 ** 30)
    assert not cone.member(v)


# ---------------------------------------------------------------------------------------- pricing
def test_upper_hull_by_hand():
    T = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    assert _upper_hull(T, np.array([0.0, 3.0, 2.0, 2.5, 0.0])).tolist() == [0, 1, 3, 4]
    assert _upper_hull(T, np.array([0.0, 1.0, 2.0, 3.0, 4.0])).tolist() == [0, 4]     # collinear: the ends
    assert _upper_hull(np.array([5.0]), np.array([1.0])).tolist() == [0]
    # equal T: the point with the largest F represents the end
    assert _upper_hull(np.array([1.0, 1.0, 2.0, 2.0]), np.array([0.0, 1.0, 3.0, 0.5])).tolist() == [1, 2]
    assert _upper_hull(np.array([1.0, 1.0]), np.array([0.0, 1.0])).tolist() == [1]
    # the tolerance is 1e-14 (1 + max |F|) above the chord: a point 1e-14 below it (max |F| = 3) is left out,
    # one 1e-12 above it is kept, one 1e-15 above it (within the tolerance 4e-14) is left out
    T3 = np.array([0.0, 1.0, 2.0])
    assert _upper_hull(T3, np.array([3.0, 1.5 - 1e-14, 0.0])).tolist() == [0, 2]
    assert _upper_hull(T3, np.array([3.0, 1.5 + 1e-12, 0.0])).tolist() == [0, 1, 2]
    assert _upper_hull(T3, np.array([3.0, 1.5 + 1e-15, 0.0])).tolist() == [0, 2]


def test_node_ranges():
    n = Node()
    assert n.range(3, 7) == (0, 7)
    c = n.with_range(3, 2, 5)
    assert c.range(3, 7) == (2, 5) and c.range(1, 4) == (0, 4) and n.range(3, 7) == (0, 7)
    d = c.with_range(1, 0, 1)
    assert d.ranges == {3: (2, 5), 1: (0, 1)} and c.ranges == {3: (2, 5)}
    assert not (n < c) and not (c < n)


def _pricer(L, P, e, enum_max=0):
    """The pricer of the instance; by default (enum_max = 0) every node is bounded and split, never enumerated:
    the tests below exercise the branch and bound, whose nodes are otherwise enumerated at these sizes."""
    blocks = cb.polyopt_blocks(L, e)
    return Pricer([cb.block_data(b, P) for b in blocks], len(P), enum_max=enum_max), blocks


def _brute(blocks, P, y):
    """max over all products of block vertices of mu(w) - y . w (mpmath), and its argmax."""
    best, arg = None, None
    for combo in itertools.product(*[range(len(b)) for b in blocks]):
        w = [x for b, j in zip(blocks, combo, strict=True) for x in b.exact_point(j)]
        with mpmath.workdps(40):
            g = mu_reference(w, P) - sum(mpmath.mpf(float(t)) * mp(x) for t, x in zip(y, w, strict=True))
        if best is None or g > best:
            best, arg = g, combo
    return best, arg


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pricing_solve_and_rigorous_bound_against_brute_force(seed):
    P = [F(1, 10), F(2, 10), F(3, 10), F(4, 10), F(0), F(0)] if seed == 2 else P22
    L = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)]] + ([[F(1, 5), F(0)]] if seed == 2 else [])
    if seed == 2:
        P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(4, 12), F(1, 12)]
    pr, blocks = _pricer(L, P, 2)
    rng = np.random.default_rng(seed)
    pf = np.array([float(x) for x in P])
    for _ in range(3):
        y = pf * np.log(rng.random(len(P)) + 0.05) + rng.normal(size=len(P)) * 0.05
        pr.set_dual(y)
        with pytest.raises(RuntimeError, match="rigorous_bound needs set_dual"):
            pr.rigorous_bound(Node(), 0.0)
        ref, arg = _brute(blocks, P, y)
        best, pt, ub, leaves = pr.solve(max_nodes=200)
        assert abs(best - ref) < 1e-12 and ub >= float(ref) - 1e-12
        assert tuple(j for _, j in pt) == arg and [s for s, _ in pt] == list(range(len(blocks)))
        # value() of the returned point is its g
        pos = [int(np.nonzero(bd.order == j)[0][0]) for (_, j), bd in zip(pt, pr.data, strict=True)]
        assert abs(pr.value(pos)[0] - ref) < 1e-12
        assert pr.point(pos) == pt
        # shift by M: G(y + M 1) = G(y) - M N at the same point; a shift above G / N_min makes G < 0
        pr.shift(0.0)
        assert abs(pr.solve()[0] - ref) < 1e-12
        # rigorous: at y' = y + (G + 1e-9) / N_min the certificate holds on every leaf; at y itself
        # (G > 0 here) the worst leaf bound is >= G (a bound, never below the true max)
        pr.set_dual(y, errors=True)
        best, _, _, leaves = pr.solve(gap_tol=1e-14, max_nodes=200, prune_at=0.0)
        bounds = [pr.rigorous_bound(node, rel.kappa) for node, rel in leaves]
        assert max(bounds) >= F(float(ref)) - F(1, 10 ** 12)
        nmin = sum(float(np.min(bd.N)) for bd in pr.data)
        yp = y + max(float(ref), 0.0) / nmin * 1.01 + 1e-9
        pr.set_dual(yp, errors=True)
        ref2, _ = _brute(blocks, P, yp)
        assert ref2 < 0
        best, _, _, leaves = pr.solve(gap_tol=1e-14, max_nodes=200, prune_at=0.0)
        assert all(pr.rigorous_bound(node, rel.kappa) <= 0 for node, rel in leaves)


@pytest.mark.parametrize("enum_max", [32, 10 ** 6])
def test_enumerated_nodes_against_brute_force(enum_max):
    """Nodes of at most enum_max combinations are searched exhaustively: with 10^6 the root itself (one exact
    leaf), with 32 (of 64) after a split (exact and relaxed leaves mixed).  The maximum and its point agree with
    brute force in mpmath and with the search that never enumerates; the certificate holds where G < 0."""
    L = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)], [F(1, 5), F(0)]]
    P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(4, 12), F(1, 12)]
    pr, blocks = _pricer(L, P, 2, enum_max=enum_max)
    search, _ = _pricer(L, P, 2)
    assert math.prod(len(b) for b in blocks) == 64
    rng = np.random.default_rng(5)
    exact_leaves = 0
    pf = np.array([float(x) for x in P])
    for _ in range(3):
        y = pf * np.log(rng.random(len(P)) + 0.05) + rng.normal(size=len(P)) * 0.05
        ref, arg = _brute(blocks, P, y)
        pr.set_dual(y)
        search.set_dual(y)
        best, pt, ub, leaves = pr.solve(gap_tol=1e-14, max_nodes=200)
        assert abs(best - ref) < 1e-12 and tuple(j for _, j in pt) == arg
        assert abs(search.solve(gap_tol=1e-14, max_nodes=200)[0] - best) < 1e-12
        exact = [rel for _, rel in leaves if rel.exact]
        assert all(rel.mix is None for rel in exact)
        exact_leaves += len(exact)
        if enum_max > 100:
            assert len(leaves) == 1 and ub == best
        for node, rel in leaves:      # an exact leaf's value is attained at its point
            if rel.exact:
                assert pr.size(node, enum_max) <= enum_max
                assert rel.value == pytest.approx(pr.value(rel.pos)[0], abs=1e-15)
        nmin = sum(float(np.min(bd.N)) for bd in pr.data)
        yp = y + max(float(ref), 0.0) / nmin * 1.01 + 1e-9
        pr.set_dual(yp, errors=True)
        best, _, _, leaves = pr.solve(gap_tol=1e-14, max_nodes=200, prune_at=0.0)
        bounds = [pr.rigorous_bound(node, rel.kappa) for node, rel in leaves]
        assert all(b <= 0 for b in bounds)
        exact_leaves += sum(1 for _, rel in leaves if rel.exact)
        pr.set_dual(y, errors=True)
        assert pr.rigorous_enumeration(Node()) >= F(float(ref)) - F(1, 10 ** 15)
    assert exact_leaves > 0


@pytest.mark.parametrize("scale", [1, F(1, 10), F(1, 5)])
def test_rigorous_enumeration_is_the_interval_bound(scale):
    """rigorous_enumeration with error bars made large (F_err up to 1e-3, T_err up to 0.3 T) is
    max over combinations of sum_s (F + F_err) + max of phi on [sum (T - T_err), sum (T + T_err)], to 1e-12:
    each error bar and the side of 1/e the interval lies on change it (mpmath reference).  P scaled by 1, 1/10
    and 1/5 puts t = P . w right of 1/e, left of it, and on both sides."""
    from dataclasses import replace

    pr, blocks = _pricer([[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)]], [x * scale for x in P22], 2, enum_max=10 ** 6)
    rng = np.random.default_rng(11)
    pr.data = [replace(bd, T_err=bd.T * rng.uniform(0.0, 0.3, len(bd.T))) for bd in pr.data]
    for y in (np.array([0.05, -0.02, 0.1, 0.03]), np.array([-2.0, -1.0, -3.0, -2.5])):
        pr.set_dual(y, errors=True)
        pr.F_err = [e + rng.uniform(0.0, 1e-3, len(e)) for e in pr.F_err]
        vals = pr.rigorous_values(Node())
        # the values are in the C order of the blocks' T-order positions
        combos = list(itertools.product(*[bd.order.tolist() for bd in pr.data]))
        assert len(vals) == len(combos)
        with mpmath.workdps(30):
            refs = []
            for combo, v in zip(combos, vals.tolist(), strict=True):
                f = sum(mpmath.mpf(pr.F[s][j]) + mpmath.mpf(pr.F_err[s][j]) for s, j in enumerate(combo))
                lo = sum(max(mpmath.mpf(bd.T[j]) - mpmath.mpf(bd.T_err[j]), 0) for bd, j in zip(pr.data, combo, strict=True))
                hi = sum(mpmath.mpf(bd.T[j]) + mpmath.mpf(bd.T_err[j]) for bd, j in zip(pr.data, combo, strict=True))
                t = min(max(mpmath.exp(-1), lo), hi)
                refs.append(f - t * mpmath.log(t))
                assert refs[-1] <= v < refs[-1] + 1e-12
            b = pr.rigorous_enumeration(Node())
            assert mpmath.mpf(b.numerator) / b.denominator == max(vals) >= max(refs)


def test_rigorous_bound_covers_every_combination_at_any_kappa():
    """For any kappa, the leaf bound at the root is >= g of every combination (Lagrangian bound with errors)."""
    pr, blocks = _pricer(L22, P22, 2)
    y = np.array([0.05, -0.02, 0.1, 0.03])
    pr.set_dual(y, errors=True)
    ref, _ = _brute(blocks, P22, y)
    for kappa in (-3.0, -1.0, 0.0, 0.7, 2.0):
        b = pr.rigorous_bound(Node(), kappa)
        assert b >= F(float(ref))
        # and it is the Lagrangian bound phi*(kappa) + sum_s max_j (F_sj + kappa T_sj) up to the tiny error terms
        lag = 0.0
        for s, bd in enumerate(pr.data):
            lag += float(np.max(pr.F[s] + kappa * bd.T))
        tlo = sum(float(np.min(bd.T)) for bd in pr.data)
        thi = sum(float(np.max(bd.T)) for bd in pr.data)
        t0 = min(max(math.exp(-1 - kappa), tlo), thi)
        lag += -t0 * math.log(t0) - kappa * t0
        assert abs(float(b) - lag) < 1e-10


# ---------------------------------------------------------------------------------------- polyopt (enumeration)
def _normalised_products(L, e):
    """Every product of block vertices, normalised to sum 1: a superset of Gamma-hat's vertices (the
    extreme rays of cone(prod_s W_s) are products of block vertices)."""
    blocks = cb.polyopt_blocks(L, e)
    out = set()
    for combo in itertools.product(*[range(len(b)) for b in blocks]):
        w = [x for b, j in zip(blocks, combo, strict=True) for x in b.exact_point(j)]
        out.add(tuple(x / sum(w) for x in w))
    return out


def test_gamma_hat_vertices_routes_agree_and_lie_in_the_cone():
    V = po.gamma_hat_vertices(L22, 2)
    assert sorted(V) == V and len(V) == len(set(V))
    assert po.gamma_hat_vertices(L22, 2, baseline=True) == V           # cdd on the inequalities
    assert po.gamma_hat_vertices(L22, 2, active=[0, 1]) == V           # all active: the fast route
    prods = _normalised_products(L22, 2)
    # every vertex is a normalised product; the products not used are exactly the uniform direction (interior)
    assert set(V) <= prods and prods - set(V) == {(F(1, 4),) * 4} and len(V) == 14
    for v in V:
        assert sum(v) == 1 and _h_ok(L22, 2, list(v)) and all(type(x) is F for x in v)
    # relaxed cone (pairs s1 != s2 only): larger, so its vertices differ; both routes agree
    R = po.gamma_hat_vertices(L22, 2, include_same_s=False)
    assert po.gamma_hat_vertices(L22, 2, include_same_s=False, baseline=True) == R and R != V
    # e^eps = 1: Gamma-hat is the single point where h is constant: here h_{s,u} = c_s v_{s,u} + L_s . v_s
    one = po.gamma_hat_vertices(L22, 1)
    assert len(one) == 1 and _h_ok(L22, 1, list(one[0])) and sum(one[0]) == 1
    # only s = 0 active (the double-description route on the reduced inequalities): both calls agree
    act = po.gamma_hat_vertices(L22, 2, active=[0])
    assert act == po.gamma_hat_vertices(L22, F(2), active=[0], baseline=True) and len(act) >= 1
    assert all(sum(v) == 1 for v in act)


def test_mu_float_bounds_against_mpmath_and_flags():
    V = [(F(1, 2), F(1, 2), F(0), F(0)), (F(1, 10), F(2, 10), F(3, 10), F(4, 10)), (F(1), F(0), F(0), F(0)),
         (F(1, 4),) * 4]
    P = [F(1, 10), F(2, 10), F(3, 10), F(4, 10)]
    Vf = po._float_matrix(V)
    assert Vf.shape == (4, 4) and Vf[1].tolist() == [0.1, 0.2, 0.3, 0.4] and Vf.dtype == float
    pf = np.array([float(x) for x in P])
    mu, S1, bad = po.mu_float_bounds(Vf, pf)
    assert not bad.any()
    for j, v in enumerate(V):
        ref = mu_reference(v, P)
        assert abs(mu[j] - ref) <= po._float_error(4, S1[j])
        q = sum(x * p for x, p in zip(v, P, strict=True))
        s1 = sum(float(x * p) * (1 + abs(math.log(x / q))) for x, p in zip(v, P, strict=True) if x > 0)
        assert S1[j] == pytest.approx(s1, rel=1e-13)
    # zero coordinates (log 0, 0 * inf) are handled without floating-point warnings
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            mu2, S2, bad2 = po.mu_float_bounds(Vf, pf)
    assert np.array_equal(mu2, mu) and np.array_equal(S2, S1) and not bad2.any()
    assert abs(mu[3]) < 1e-16 and mu[2] == pytest.approx(0.1 * math.log(10), rel=1e-15)   # uniform: 0; point: P0 log 1/P0
    # underflow: a nonzero v_x P_x below 2^-900 -> bad; a point mass on a P_x = 0 coordinate (q = 0) -> bad
    tiny = np.array([[1 - 2.0 ** -950, 2.0 ** -950, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
    _, _, bad = po.mu_float_bounds(tiny, np.array([0.5, 0.25, 0.25, 0.0]))
    assert bad.tolist() == [True, False, True]
    _, _, bad = po.mu_float_bounds(np.array([[0.5, 0.5]]), np.array([2.0 ** -901, 1 - 2.0 ** -901]))
    assert bad.tolist() == [True]
    _, _, bad = po.mu_float_bounds(np.array([[0.5, 0.5]]), np.array([2.0 ** -899, 1 - 2.0 ** -899]))
    assert bad.tolist() == [False]


def test_error_closed_forms_and_dyadic():
    u = 2.0 ** -53
    from rldp_verify.core import information

    assert u == po._U and po.LOG_ULPS == 1024 and information._TINY == 2.0 ** -900
    assert po._float_error(4, 1.0) == 4.0 * (4 + 8 + 2048) * u
    assert po._float_error(10, 3.0) == 4.0 * (10 + 8 + 2048) * u * 3.0
    import flint

    assert po._dyadic(flint.arb(0.375)) == F(3, 8)
    assert po._dyadic(flint.arb(5 * 2 ** 10)) == 5120
    assert po._dyadic(flint.arb(-2.5)) == F(-5, 2)
    assert po._as_fraction(0.5) == F(1, 2) and po._as_fraction(F(1, 3)) == F(1, 3)


def test_exact_basis_theta_and_arb_dual():
    V = po.gamma_hat_vertices(L22, 2)
    pf = np.array([float(x) for x in P22])
    Vf = po._float_matrix(V)
    mu, _, _ = po.mu_float_bounds(Vf, pf)
    basic, slack_rows, y, x = po._highs_run(Vf, mu)
    th = po._exact_basis_theta(V, basic, slack_rows, 4)
    assert th is not None and all(t >= 0 for t in th)
    for r in range(4):
        assert sum(t * V[j][r] for t, j in zip(th, basic, strict=True)) == 1
    # the float solution is close to the exact basis solution
    for t, j in zip(th, basic, strict=True):
        assert abs(float(t) - x[j]) < 1e-9
    # mismatched sizes, an empty basis, a singular block, a negative solution, a wrong slack row: None
    assert po._exact_basis_theta(V, basic[:-1], slack_rows, 4) is None
    assert po._exact_basis_theta(V, [], list(range(4)), 4) is None
    assert (F(1, 4),) * 4 not in V        # the uniform direction is interior, not a vertex
    sing = [V[0], V[0], V[1], V[2]]
    assert po._exact_basis_theta(sing, [0, 1, 2, 3], [], 4) is None
    e = [(F(1), F(0)), (F(1, 2), F(1, 2))]
    assert po._exact_basis_theta([(F(1), F(0)), (F(0), F(1))], [0, 1], [], 2) == [1, 1]
    assert po._exact_basis_theta([(F(1), F(2)), (F(0), F(1))], [0, 1], [], 2) is None     # theta = (1, -1)
    assert po._exact_basis_theta(e, [0], [1], 2) is None     # row 0: theta = 1, row 1 then 0 != 1
    assert po._exact_basis_theta([(F(1, 2), F(1, 2))], [0], [1], 2) == [2]
    # the arb dual: y = 0 on slack rows, B_R^T y_R = mu_B (mu at 50 digits) on the others
    yb = po._arb_basis_dual(V, P22, basic, slack_rows, 4, 30)
    assert yb is not None and all(yb[r] == 0 for r in slack_rows)
    with mpmath.workdps(40):
        for j in basic:
            assert abs(mp(sum(a * b for a, b in zip(V[j], yb, strict=True))) - mu_reference(V[j], P22)) < mpmath.mpf(10) ** -35
    assert po._arb_basis_dual(V, P22, basic[:-1], slack_rows, 4, 30) is None
    assert po._arb_basis_dual(V, P22, [], list(range(4)), 4, 30) is None
    assert po._arb_basis_dual(sing, P22, [0, 1, 2, 3], [], 4, 30) is None


def test_highs_lp46_pricing_rounds_match_direct():
    P, L = random_instance(2, 3, 2)
    V = po.gamma_hat_vertices(L, 2)
    Vf = po._float_matrix(V)
    mu, _, _ = po.mu_float_bounds(Vf, np.array([float(x) for x in P]))
    direct = po._highs_lp46(Vf, mu)
    cg = po._highs_lp46(Vf, mu, chunk=2)           # |V| > 8: pricing rounds, 2 columns at a time
    assert len(V) > 8 and direct is not None and cg is not None
    obj = []
    for basic, slack_rows, y in (direct, cg):
        th = po._exact_basis_theta(V, basic, slack_rows, len(P))
        assert th is not None
        obj.append(sum(float(t) * mu[j] for t, j in zip(th, basic, strict=True)))
        # the duals price out every vertex (optimality): mu_j <= v_j . y up to float noise, either sign convention
        assert min(np.max(mu - Vf @ y), np.max(mu + Vf @ y)) < 1e-9
    assert abs(obj[0] - obj[1]) < 1e-12
    assert po._highs_lp46(Vf, mu, chunk=2, max_rounds=0) is None     # no round allowed: no answer
    assert po._highs_lp46(Vf, mu, chunk=2, max_rounds=1) is None     # one round does not converge here


@pytest.mark.parametrize("a1,a2,seed", [(2, 2, 1), (2, 3, 2), (3, 2, 3)])
def test_solve_eq46_bracket_against_exact_reference(a1, a2, seed):
    P, L = random_instance(a1, a2, seed)
    V = po.gamma_hat_vertices(L, F(2))
    sol = po.solve_eq46(V, P, dps=30)
    if len(V) < 20:      # the exact cdd reference (slow beyond)
        ref = reference_optimum(V, P)
        slack = F(len(V), 10 ** 29)
        assert sol.lower - slack <= ref <= sol.upper + slack
    # column generation (no enumeration, a second method): the certified brackets overlap
    from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg

    cg = solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-9)
    assert max(cg.lower, sol.lower) <= min(cg.upper, sol.upper)
    assert 0 < sol.gap < F(1, 10 ** 20)
    assert sol.gap == sol.upper - sol.lower and sol.method == "float-mu+highs+exact-basis"
    assert sum(sol.dual) <= sol.upper and len(sol.dual) == a1 * a2 and 1 <= sol.arb_vertices <= len(V)
    assert sol.support == tuple(j for j, t in enumerate(sol.theta) if t > 0) and len(sol.rows) <= a1 * a2
    assert all(sum(r[x] for r in sol.rows) == 1 for x in range(a1 * a2))
    assert sol.rows == tuple(tuple(sol.theta[j] * x for x in V[j]) for j in sol.support)
    assert sol.p == tuple(P) and sol.dps == 30 and sol.vertices == tuple(V)
    for j, v in enumerate(V):
        assert abs(sol.mu_float[j] - mu_reference(v, P)) < 1e-15
        assert abs(sol.mu[j] - mu_reference(v, P)) < mpmath.mpf(10) ** -28
    assert sol.mu is sol.mu      # computed once
    # the dual bound: mu(v) <= v . y + (upper - sum y) / |X| on every vertex (exact check at 40 digits)
    M = (sol.upper - sum(sol.dual)) / (a1 * a2)
    with mpmath.workdps(40):
        for v in V:
            assert mu_reference(v, P) <= mp(sum(x * t for x, t in zip(v, sol.dual, strict=True)) + M) + mpmath.mpf(10) ** -35
        # only the vertices of the optimal face (slack within 1e-13 of the top; none lies between 1e-13 and
        # 1e-6 below it here) are evaluated in arb: the float screen leaves out every clearly lower vertex
        g = [mu_reference(v, P) - mp(sum(x * t for x, t in zip(v, sol.dual, strict=True))) for v in V]
        near = [sum(1 for x in g if x >= max(g) - mpmath.mpf(eps)) for eps in ("1e-13", "1e-6")]
    assert near[0] == near[1] == sol.arb_vertices < len(V)


def test_solve_eq46_bad_input_messages():
    with pytest.raises(po.EmptyGammaHat, match="^Gamma-hat has no vertices$"):
        po.solve_eq46([], P22)
    with pytest.raises(InputError, match=r"^vertex 1 has 3 coordinates, expected 4$"):
        po.solve_eq46([(F(1, 4),) * 4, (F(1, 3),) * 3], P22)
    with pytest.raises(InputError, match=r"^vertex 1 is not in the simplex \(sum_x v_x != 1 or a negative entry\): "
                                         "not a vertex of Gamma-hat$"):
        po.solve_eq46([(F(1, 4),) * 4, (F(1, 2), F(1, 2), F(1, 2), F(-1, 2))], P22)
    with pytest.raises(InputError, match="not in the simplex"):
        po.solve_eq46([(F(1, 4),) * 4, (F(1, 4), F(1, 4), F(1, 4), F(1, 5))], P22)
    with pytest.raises(InputError, match=r"^a distribution over 3 inputs does not match vertices of length 4$"):
        po.solve_eq46([(F(1, 4),) * 4], [F(1, 3)] * 3)
    # floats and ints are read exactly; a single vertex (the uniform row) gives mu = 0 exactly
    sol = po.solve_eq46([(0.25, 0.25, 0.25, 0.25)], [0.5, 0.25, 0.125, 0.125])
    assert sol.p == (F(1, 2), F(1, 4), F(1, 8), F(1, 8)) and sol.vertices == ((F(1, 4),) * 4,) and sol.rows == ((F(1),) * 4,) and sol.theta == (4,)
    assert -F(1, 10 ** 25) < sol.lower <= 0 <= sol.upper < F(1, 10 ** 25)


def test_solve_eq46_fallback_route(monkeypatch):
    V = po.gamma_hat_vertices(L22, 2)
    fast = po.solve_eq46(V, P22)
    monkeypatch.setattr(po, "_highs_lp46", lambda *a, **k: None)
    slow = po.solve_eq46(V, P22)
    assert slow.method == "float-mu+solve_certified" and fast.method == "float-mu+highs+exact-basis"
    assert max(fast.lower, slow.lower) <= min(fast.upper, slow.upper) and slow.gap < F(1, 10 ** 12)
    assert all(sum(r[x] for r in slow.rows) == 1 for x in range(4))
    # HiGHS basis not exactly feasible: the exact repair takes over as well
    monkeypatch.undo()
    monkeypatch.setattr(po, "_exact_basis_theta", lambda *a, **k: None)
    rep = po.solve_eq46(V, P22)
    assert rep.method == "float-mu+solve_certified" and max(fast.lower, rep.lower) <= min(fast.upper, rep.upper)
    monkeypatch.undo()
    # arb cannot solve the dual: HiGHS's float duals (either sign) give a valid but looser bracket
    monkeypatch.setattr(po, "_arb_basis_dual", lambda *a, **k: None)
    fl = po.solve_eq46(V, P22)
    assert fl.method == "float-mu+highs+exact-basis" and fl.lower <= fast.upper and fast.lower <= fl.upper
    assert fl.gap < F(1, 10 ** 9)


# ---------------------------------------------------------------------------------------- column generation
def _exact_bracket(L, P, e=2):
    V = po.gamma_hat_vertices(L, e)
    return po.solve_eq46(V, P)


@pytest.mark.parametrize("options", [{}, {"stabilisation": "boxstep"}, {"inout": True, "stabilisation": "wentges"},
                                     {"prior_dual": False}, {"prior_dual": False, "stabilisation": "wentges"},
                                     {"neighbours": 0, "alternatives": 0}, {"alpha0": 0.0, "stabilisation": "wentges"},
                                     {"stabilisation": "wentges"}, {"rmp_alpha": 0.0}, {"stabilisation": "bundle"},
                                     {"stabilisation": "bundle", "prior_dual": False}])
def test_column_generation_agrees_with_enumeration(options):
    """|X| = 4 (L22) and |X| = 6: the certified CG bracket and the enumeration's overlap and are tight."""
    from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg

    for L, P in ((L22, P22), random_instance(2, 3, 2)[::-1]):
        ref = _exact_bracket(L, P)
        res = solve_lp46_cg(polyopt_cone(L, 2), P, rel_gap=1e-9, **options)
        assert max(ref.lower, res.lower) <= min(ref.upper, res.upper)
        assert res.gap < F(1, 10 ** 8) and res.gap == res.upper - res.lower
        assert res.relative_width == pytest.approx(float(res.gap / res.upper), rel=1e-12)
        # the rows: exactly in the cone, column sums exactly 1, utility = lower (certified)
        assert all(_h_ok(L, 2, r) for r in res.rows)
        assert all(sum(r[x] for r in res.rows) == 1 for x in range(len(P)))
        assert res.lower <= res.upper and sum(F(t) for t in res.dual) == res.upper
        assert res.iterations >= 1 and res.columns == len(res.columns_exact) >= len(res.rows)
        assert res.certified_history[-1][1:] == (res.lower, res.upper) and res.certificate_leaves >= 1
        assert all(lo <= hi + 1e-12 for _, lo, hi in res.history) and len(res.history) == res.iterations
        # times in seconds, rounded to ms, increasing; the certified run's total at the end
        ts = [t for t, _, _ in res.history] + [res.certified_history[-1][0]]
        assert all(type(t) is float and t == round(t, 3) and t >= 0 for t in ts) and ts == sorted(ts)
        assert res.certified_history[-1][0] == round(res.seconds, 3) and res.seconds < 60


def test_column_generation_checkpoints_log_and_bad_input():
    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg

    ref = _exact_bracket(L22, P22)
    lines = []
    with progress.notes(lines.append):
        res = solve_lp46_cg(polyopt_cone(L22, 2), P22, rel_gap=1e-9, checkpoints=(0.0,))
    assert len(res.certified_history) == 2
    for _, lo, hi in res.certified_history:        # the checkpoint's bracket is certified too
        assert lo <= ref.upper and ref.lower <= hi
    assert lines[0].startswith("prior-direction dual: sum y = ") and any(x.startswith("it 1: t=") for x in lines)
    for stab in ("boxstep", "bundle"):     # (the Lagrangian master may end before its first bundle step)
        lines = []
        with progress.notes(lines.append):
            solve_lp46_cg(polyopt_cone(L22, 2), P22, rel_gap=1e-9, stabilisation=stab)
        its = [x for x in lines if x.startswith("it ")]
        assert its and all((" serious " in x) != (" null " in x) for x in its)      # every step is one of the two
    with pytest.raises(InputError, match=r"^a distribution over 3 inputs does not match \|X\| = 4$"):
        solve_lp46_cg(polyopt_cone(L22, 2), P22[:3])
    with pytest.raises(InputError, match=r"^unknown stabilisation 'x' \(lagrangian, bundle, wentges, boxstep\)$"):
        solve_lp46_cg(polyopt_cone(L22, 2), P22, stabilisation="x")
    # starting columns outside the cone are ignored; inside, they are kept (the uniform row is a start anyway)
    res2 = solve_lp46_cg(polyopt_cone(L22, 2), P22, rel_gap=1e-9,
                         init_columns=[[F(1), F(0), F(0), F(0)], [F(11, 5), F(3, 5), F(1, 2), F(13, 6)]])
    assert max(ref.lower, res2.lower) <= min(ref.upper, res2.upper)
    assert (F(11, 5), F(3, 5), F(1, 2), F(13, 6)) in [tuple(c) for c in res2.columns_exact]
    assert (F(1), F(0), F(0), F(0)) not in [tuple(c) for c in res2.columns_exact]


def test_cg_result_width_and_mu_float():
    from rldp_verify.rldp.mechanisms.cg_master import mu_float as _mu_float
    from rldp_verify.rldp.mechanisms.polyopt_cg import CGResult

    r = CGResult([], F(1, 4), F(1, 2), ())
    assert r.gap == F(1, 4) and r.relative_width == 0.5
    r = CGResult([], F(-3, 4), F(-1, 2), ())
    assert r.relative_width == 0.25          # upper <= 0: the absolute width
    r = CGResult([], F(-1, 4), F(0), ())
    assert r.relative_width == 0.25
    v = np.array([0.5, 0.5, 0.0, 1.0])
    p = np.array([0.1, 0.2, 0.3, 0.4])
    t = 0.05 + 0.1 + 0.4
    ref = 0.05 * math.log(0.5 / t) + 0.1 * math.log(0.5 / t) + 0.4 * math.log(1 / t)
    assert _mu_float(v, p) == pytest.approx(ref, rel=1e-14)
    assert _mu_float(np.array([0.0, 1.0]), np.array([1.0, 0.0])) == 0.0      # t = 0
    assert _mu_float(np.array([2.0, 1.0]), np.array([0.0, 1.0])) == 0.0      # only one x with P > 0: log 1


def test_nr_column_generation_against_enumeration_small():
    """NR (F = {P-hat}) at |X| = 4 with a zero cell: CG against the enumeration route (nonrobust)."""
    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms.nonrobust import nonrobust
    from rldp_verify.rldp.mechanisms.polyopt_large import nonrobust_cg

    table = [[F(1, 10), F(0)], [F(3, 10), F(6, 10)]]
    rec = ProgressRecorder()
    with progress.reporting(rec), progress.notes((lines := []).append):
        mech, res = nonrobust_cg(table, "log(2)", rel_gap=1e-9, time_limit=50)
    assert lines and lines[0].startswith("prior-direction dual: sum y = ")
    assert ("column generation (stops at relative width 1e-09 or the time limit)", 50, "s") in rec.steps
    ref = nonrobust(table, "log(2)")
    lo, hi = (F(x) for x in ref.parameters["optimum_bracket"])
    assert res.lower <= hi and lo <= res.upper and res.gap < F(1, 10 ** 9)
    assert mech.parameters["free_inputs"] == [1] and mech.parameters["include_same_s"] is False
    # the free input takes the uniform distribution over the outputs
    k = len(mech.matrix)
    assert all(r[1] == F(1, k) for r in mech.matrix)
    cone = nr_cone(table, 2)
    assert all(cone.member(r) for r in mech.matrix)
    assert mech.parameters["mechanism"] == "NR" and mech.parameters["optimum_bracket"] == [
        po.fraction_str(res.lower), po.fraction_str(res.upper)]


# ---------------------------------------------------------------------------------------- cg_certify
def test_certify_upper_and_exact_primal_routes():
    from rldp_verify.rldp.mechanisms.cg_certify import CERT_ATTEMPTS, certify_upper, exact_primal
    from rldp_verify.rldp.mechanisms.cg_master import RestrictedLP as _Master

    assert CERT_ATTEMPTS == 7
    ref = _exact_bracket(L22, P22)
    cone = polyopt_cone(L22, 2)
    data = [cb.block_data(b, P22) for b in cone.blocks]
    pr = Pricer(data, 4, enum_max=0)
    nmin = sum(float(np.min(bd.N)) for bd in data)
    # a dual y with mu(v) <= y . v on the cone: the basis dual of the exact route; its certified bound is
    # >= the optimum and close to it
    y = np.array([float(t) for t in ref.dual])
    M = float((ref.upper - sum(ref.dual)) / 4)
    up, yp, leaves = certify_upper(pr, y, M, [0, 1, 2, 3], nmin)
    assert ref.lower <= up < ref.upper + F(1, 10 ** 9) and leaves >= 1
    assert up == sum(F(float(t)) for t in yp)
    # a dual far below: M = -1 is not feasible; the attempts raise the shift until it is
    up2, _, _ = certify_upper(pr, y, -1.0, [0, 1, 2, 3], nmin)
    assert up2 >= ref.lower
    # the schedule of the docstring: attempts 0 and 1 add only a rounding-sized margin, so from M = -1 (far
    # infeasible) attempt 2 fails too and then raises M' by 1.5 x (worst leaf bound) / n_min, which makes
    # G(y + M' 1) <= worst - 1.5 worst < 0: the 4th attempt succeeds, 3 attempts are not enough
    with pytest.raises(CertificationError, match="^could not certify an upper bound for LP \\(46\\)$"):
        certify_upper(pr, y, -1.0, [0, 1, 2, 3], nmin, attempts=3)
    up4, _, _ = certify_upper(pr, y, -1.0, [0, 1, 2, 3], nmin, attempts=4)
    assert up4 == up2        # the default (7 attempts) run also stopped at the 4th
    # exact_primal: a master over all normalised vertices; both the exact-basis route and the dyadic route
    V = po.gamma_hat_vertices(L22, 2)
    master = _Master(4)
    Vf = np.array([[float(x) for x in v] for v in V])
    from rldp_verify.rldp.mechanisms.cg_master import mu_float as _mu_float

    master.add(Vf, np.array([_mu_float(v, np.array([float(p) for p in P22])) for v in Vf]))
    obj, x, _ = master.solve()
    assert abs(obj - float(ref.lower)) < 1e-9 and master.n == len(V)
    for kw in ({}, {"exact_basis_max": 0}):
        rows, low = exact_primal(master, list(V), cone, P22, [0, 1, 2, 3], x, 30, **kw)
        assert all(cone.member(r) and _h_ok(L22, 2, r) for r in rows)
        assert all(sum(r[i] for r in rows) == 1 for i in range(4))
        assert low <= ref.upper and low > ref.lower - F(1, 10 ** 6)
        if not kw:
            assert low >= ref.lower - F(1, 10 ** 25)       # the exact basis is the optimal one
        else:
            assert all(r[i].denominator & (r[i].denominator - 1) == 0 for r in rows[:-1] for i in range(4))
            # each row on its own grid: 2^-64 of its largest entry (2^(e - 1) <= top < 2^e, grid 2^(e - 64))
            for r in rows[:-1]:
                e = math.frexp(float(max(r)))[1]
                assert all((r[i] * 2 ** (64 - e)).denominator == 1 for i in range(4))
                assert max(r) * 2 ** (64 - e) >= 2 ** 62


# ---------------------------------------------------------------------------------------- public constructors
def test_polyopt_from_bounds_parameters():
    from rldp_verify.rldp.mechanisms import polyopt_from_bounds

    table = [P22[:2], P22[2:]]
    mech, sol = polyopt_from_bounds(table, L22, "log(2)")
    p = mech.parameters
    assert p["include_same_s"] is True and p["vertices"] == 14 and p["mechanism"] == "PolyOpt"
    assert p["lower_bounds"] == [["1/4", "1/8"], ["1/10", "3/10"]]
    assert p["used_vertices"] == [[po.fraction_str(x) for x in sol.vertices[j]] for j in sol.support]
    assert [F(t) for t in p["theta"]] == [sol.theta[j] for j in sol.support]
    assert p["optimum_bracket"] == [po.fraction_str(sol.lower), po.fraction_str(sol.upper)]
    assert p["optimum_gap"] == float(sol.gap) and "active_sensitive" not in p
    assert mech.guarantee == ("(eps, F)-RLDP for every F with F_{U|s} in D_s = {R : R_u >= L_{u|s}} (Theorem 2)")
    assert len(mech.matrix) == len(sol.rows) and mech.outputs == tuple(f"y{i + 1}" for i in range(len(sol.rows)))
    m2, _ = polyopt_from_bounds(table, L22, "log(2)", include_same_s=False, active=[1, 0], extra={"k": 1},
                                name="X", guarantee="g")
    assert m2.parameters["active_sensitive"] == [0, 1] and m2.parameters["include_same_s"] is False
    assert m2.parameters["k"] == 1 and m2.guarantee == "g" and m2.parameters["mechanism"] == "X"
    m3, _ = polyopt_from_bounds(table, L22, "log(2)", include_same_s=False)
    assert m3.guarantee.endswith("(Theorem 2, relaxed cone: pairs s1 != s2)")
    with pytest.raises(InputError, match=r"PolyOpt needs a RenyiBall \(the uncertainty set F\), got list"):
        po.polyopt(table, "log(2)")


def test_polyopt_cg_constructors():
    from rldp_verify.rldp.mechanisms import polyopt_large as pl

    assert pl.DEFAULT_TIME_LIMIT == 600.0 and pl.DEFAULT_REL_GAP == 1e-4
    with pytest.raises(InputError, match=r"^PolyOpt needs a RenyiBall \(the uncertainty set F\), got dict$"):
        pl.polyopt_cg({}, "log(2)")
    from rldp_verify.core import progress

    table = [P22[:2], P22[2:]]
    rec = ProgressRecorder()
    lines = []
    with progress.reporting(rec), progress.notes(lines.append):
        mech, res = pl.polyopt_cg_from_bounds(table, L22, "log(2)", rel_gap=1e-9, extra={"k": 2}, time_limit=40,
                                              sensitive=["x", "z"], public=["a", "b"])
    assert lines and lines[0].startswith("prior-direction dual: sum y = ")
    assert ("column generation (stops at relative width 1e-09 or the time limit)", 40, "s") in rec.steps
    assert mech.sensitive == ("x", "z") and mech.public == ("a", "b")
    ref = _exact_bracket(L22, P22)
    assert max(ref.lower, res.lower) <= min(ref.upper, res.upper)
    p = mech.parameters
    assert p["route"] == "column generation (no enumeration of Gamma-hat)" and p["k"] == 2
    assert p["method"] == res.method and p["include_same_s"] is True
    assert p["lower_bounds"] == [["1/4", "1/8"], ["1/10", "3/10"]]
    assert [F(x) for x in p["optimum_bracket"]] == [res.lower, res.upper] and p["optimum_gap"] == float(res.gap)
    assert p["optimum_relative_width"] == res.relative_width
    assert [float(x) for x in p["dual_bound_vector"]] == list(res.dual)
    assert p["iterations"] == res.iterations and p["columns"] == res.columns
    assert p["certificate_leaves"] == res.certificate_leaves and p["seconds"] == round(res.seconds, 3)
    assert p["bracket_history"] == [[t, lo, hi] for t, lo, hi in res.history]
    assert mech.guarantee == "(eps, F)-RLDP for every F with F_{U|s} in D_s = {R : R_u >= L_{u|s}} (Theorem 2)"
    assert mech.outputs == tuple(f"y{i + 1}" for i in range(len(res.rows))) and p["mechanism"] == "PolyOpt"

def _ball():
    from rldp_verify.rldp.uncertainty import RenyiBall

    return RenyiBall.from_radius([[1, 2], [3, 4]], 2, F(1, 100))


def test_polyopt_cg_from_a_ball_matches_enumeration():
    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms import polyopt_large as pl

    ball = _ball()
    rec = ProgressRecorder()
    with progress.reporting(rec):      # 6 digits: lower bounds floored to 10^-6, the rel_gap reaches the solver
        m = pl.polyopt_cg(ball, "log(2)", rel_gap=1e-9, time_limit=30, digits=6, public=["a", "b"])
    assert ("column generation (stops at relative width 1e-09 or the time limit)", 30, "s") in rec.steps
    e = po.polyopt(ball, "log(2)", digits=6, public=["a", "b"])
    assert m.public == e.public == ("a", "b")
    assert all(10 ** 6 % F(x).denominator == 0 for r in m.parameters["lower_bounds"] for x in r)
    lo1, hi1 = (F(x) for x in m.parameters["optimum_bracket"])
    lo2, hi2 = (F(x) for x in e.parameters["optimum_bracket"])
    assert max(lo1, lo2) <= min(hi1, hi2) and m.parameters["lower_bounds"] == e.parameters["lower_bounds"]
    for k in ("alpha", "radius_upper", "radius_provenance", "lower_rounding"):
        assert m.parameters[k] == e.parameters[k]
    assert m.parameters["alpha"] == "2" and m.parameters["lower_rounding"].endswith("floored to 10^-6")
    assert m.guarantee == ("(eps, F)-RLDP, F the Rényi ball of order alpha and radius <= radius_upper around P-hat "
                           "(Theorem 2)") == e.guarantee
    assert e.parameters["mechanism"] == "PolyOpt" == m.parameters["mechanism"]


def test_relaxed_polyopt_from_a_ball():
    r = po.polyopt(_ball(), "log(2)", relaxed=True)
    assert r.parameters["mechanism"] == "PolyOpt-relaxed" and r.parameters["include_same_s"] is False
    assert r.guarantee.endswith("(Theorem 2 for the relaxed cone, claim rldp.relaxed-polyopt)")

# ---------------------------------------------------------------------------------------- progress reports
def test_progress_names_each_phase_with_its_count():
    """The progress reporter (core.progress) sees every phase of the exact route with the counts known
    independently: 2 blocks, 16 products of block vertices, 14 vertices (test above), the rows of the LP."""
    from rldp_verify.core import progress

    rec = ProgressRecorder()
    with progress.reporting(rec):
        V = po.gamma_hat_vertices(L22, 2)
        po.gamma_hat_vertices(L22, 2, baseline=True)
        sol = po.solve_eq46(V, P22)
    assert ("vertices of Gamma-hat (double description, |X| = 4; no count)", None, "") in rec.steps
    assert ("LP (46): checking the vertices exactly", 14, "vertices") in rec.steps
    assert ("LP (46): vertices to float64", 14, "vertices") in rec.steps
    assert ("LP (46): HiGHS on 14 columns", None, "") in rec.steps
    assert ("LP (46) dual bound: vertices near the top evaluated in arb", sol.arb_vertices, "vertices") in rec.steps
    assert (f"LP (46): certified utility of the {len(sol.rows)} rows (arb)", None, "") in rec.steps
    basis = [s for s, _, _ in rec.steps if s.startswith("LP (46): exact basis and its dual in arb (")]
    assert len(basis) == 1 and basis[0].endswith(" columns)")
    assert (0, None) in rec.updates and (sol.arb_vertices - 1, None) in rec.updates
    rec = ProgressRecorder()
    with progress.reporting(rec):
        V = po.gamma_hat_vertices(L22, 2)
        po.solve_eq46(V, P22)
    # the exact repair (no HiGHS basis) announces itself
    import unittest.mock as um

    rec = ProgressRecorder()
    with progress.reporting(rec), um.patch.object(po, "_highs_lp46", lambda *a, **k: None):
        po.solve_eq46(V, P22)
    assert ("LP (46): exact simplex repair (solve_certified; no count)", None, "") in rec.steps
    rec = ProgressRecorder()
    P, L = random_instance(2, 3, 2)
    Vb = po.gamma_hat_vertices(L, 2)
    Vf = po._float_matrix(Vb)
    mu, _, _ = po.mu_float_bounds(Vf, np.array([float(x) for x in P]))
    with progress.reporting(rec):
        po._highs_lp46(Vf, mu, chunk=2)
    assert (f"LP (46): pricing rounds over {len(Vb)} vertices (stops when none prices out)", 200, "rounds") in rec.steps
    assert any(s.startswith("LP (46): final HiGHS solve on ") and s.endswith(" columns") for s, _, _ in rec.steps)
    assert rec.updates[0] == (0, "2 columns")


def test_progress_of_column_generation():
    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms.polyopt_cg import solve_lp46_cg

    cone = polyopt_cone(L22, 2)  # the cone's own set-up step (its blocks, issue 29) is not column generation's
    rec = ProgressRecorder()
    with progress.reporting(rec):
        res = solve_lp46_cg(cone, P22, rel_gap=1e-9, time_limit=30, checkpoints=(0.0,))
    # the set-up is two steps, the blocks counted (issue 29: set-up phases show progress and honour the time limit)
    assert rec.steps[:2] == [("column generation: block data (costs of the block vertices)", 2, "blocks"),
                             ("column generation: the starting columns", None, "")]
    assert ("column generation (stops at relative width 1e-09 or the time limit)", 30, "s") in rec.steps
    assert ("column generation: certifying the upper bound (branch and bound, attempts)", 7, "attempts") in rec.steps
    assert rec.steps[-1] == ("column generation: exact rows in Gamma_eps and their certified utility", None, "")
    its = [info for _, info in rec.updates if info and info.startswith("iteration ")]
    assert len(its) == res.iterations and its[0].startswith("iteration 1, ")
    assert all(" columns, bracket [" in x and "(float, certified at the end)" in x for x in its)
    # after the checkpoint, the certified bracket is shown too
    assert any("; certified [" in x and " width " in x for x in its[1:]) or res.iterations == 1


def test_pricing_alternatives_stop_above_and_budget():
    """Alternatives are the best one-block replacements of the best point (brute force over each block);
    stop_above returns at once; a tiny node budget still gives a valid upper bound."""
    P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(4, 12), F(1, 12)]
    L = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)], [F(1, 5), F(0)]]
    pr, blocks = _pricer(L, P, 2)
    y = np.array([0.05, -0.02, 0.1, 0.03, -0.04, 0.02])
    pr.set_dual(y)
    ref, arg = _brute(blocks, P, y)
    best, pt, ub, _ = pr.solve(alternatives=2)
    assert abs(best - ref) < 1e-12 and tuple(j for _, j in pt) == arg
    alts = pr.alternatives
    assert alts and all(a != pt for a in alts)

    def g(combo):
        w = [x for b, j in zip(blocks, combo, strict=True) for x in b.exact_point(j)]
        with mpmath.workdps(40):
            return mu_reference(w, P) - sum(mpmath.mpf(float(t)) * mp(x) for t, x in zip(y, w, strict=True))

    for s in range(3):
        mine = {a[s][1] for a in alts if a[s] != pt[s]}
        assert all(sum(a[r] != pt[r] for r in range(3)) == 1 for a in alts)
        # the 3 best vertices of block s given the rest, without the best point's own vertex
        vals = sorted(((g(tuple(j if r == s else arg[r] for r in range(3))), j) for j in range(len(blocks[s]))),
                      reverse=True)
        top = {j for _, j in vals[:3]} - {arg[s]}
        assert mine == top
    best2, pt2, ub2, leaves2 = pr.solve(stop_above=-math.inf)
    assert ub2 == math.inf and leaves2 == [] and best2 <= ref + 1e-12
    best3, _, ub3, leaves3 = pr.solve(max_nodes=0)
    assert ub3 >= float(ref) - 1e-12 and best3 <= float(ref) + 1e-12 and leaves3
    # the Lagrangian bound at the root is a valid upper bound
    hulls = {s: pr.hull(s, 0, len(bd.T)) for s, bd in enumerate(pr.data)}
    rel = pr.bound(Node(), hulls)
    assert rel.value >= float(ref) - 1e-12 and len(rel.pos) == 3


def test_pricing_improve_is_a_coordinate_ascent():
    """improve() never decreases g, returns g of the point it returns, and with enough sweeps ends at a point
    that no single-block change improves (checked against every vertex of every block)."""
    P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(4, 12), F(1, 12)]
    L = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)], [F(1, 5), F(0)]]
    pr, blocks = _pricer(L, P, 2)
    rng = np.random.default_rng(5)
    pf = np.array([float(x) for x in P])
    for _ in range(4):
        pr.set_dual(pf * np.log(rng.random(6) + 0.05) + rng.normal(size=6) * 0.05)
        start = [int(rng.integers(len(bd.T))) for bd in pr.data]
        pos, cur = pr.improve(start, Node(), sweeps=20)
        assert cur == pytest.approx(pr.value(pos)[0], abs=1e-14) and cur >= pr.value(start)[0] - 1e-15
        for s in range(3):
            for j in range(len(pr.data[s].T)):
                q = list(pos)
                q[s] = j
                assert pr.value(q)[0] <= cur + 1e-12
        # restricted to a node, the ascent stays inside the node's ranges
        node = Node().with_range(0, 1, 3)
        pos2, cur2 = pr.improve([1] + start[1:], node, sweeps=20)
        assert 1 <= pos2[0] < 3 and cur2 == pytest.approx(pr.value(pos2)[0], abs=1e-14)
        pos3, cur3, alts = pr.improve(pos, Node(), sweeps=0, alternatives=1)
        assert pos3 == pos and cur3 == pytest.approx(cur, abs=1e-15) and alts
        assert all(sum(a[r] != pos[r] for r in range(3)) == 1 for a in alts)


# ---------------------------------------------------------------------------------------- survivors of the sample
def test_block_vertices_on_the_exact_borders_match_cdd():
    """Rows where a vertex condition holds with equality (decided by the exact re-check, not the float screen):
    type (i) c = (e - 1) L(B) (L = (1/4, 1/8), e = 7/2, B = {0}); type (ii) e L(U\\A) = 1 - L(A) (L = (1/4, 1/4),
    e = 3, A = {0}); type (iii) 1 - L(O) - e L(E) = L_k (L = (1/4, 1/4, 1/4), e = 2, k = 0, O = {1}, E = {2});
    reference: cddlib on P_s (rldp.gamma.block_vertices) mapped by v = (h - L . h) / c."""
    from rldp_verify.rldp.gamma import block_vertices

    for row, e in (([F(1, 4), F(1, 8)], F(7, 2)), ([F(1, 4), F(1, 4)], F(3)), ([F(1, 4)] * 3, F(2)),
                   ([F(1, 5), F(1, 10), F(3, 10)], F(2)), ([F(0), F(0)], F(2))):
        c = 1 - sum(row)
        ref = set()
        for h in block_vertices(row, e):
            lh = sum(a * b for a, b in zip(row, h, strict=True))
            ref.add(tuple((x - lh) / c for x in h))
        b = cb.polyopt_blocks([row], e)[0]
        got = [b.exact_point(j) for j in range(len(b))]
        assert len(got) == len(set(got)) and set(got) == ref, (row, e)
        assert b.kidx.dtype == np.int64 and b.masks.dtype == np.int64


def test_pricing_with_a_zero_lower_bound_row_and_every_value():
    """A row with L = 0 (no third-level vertices in its block) and g / t of EVERY combination (value())
    against brute force, including combinations with t = P . w < 1."""
    P = [F(1, 20), F(1, 20), F(1, 20), F(17, 20)]
    L = [[F(0), F(0)], [F(1, 2), F(0)]]       # block 1 has the vertices (3, 0) and (2, 0): t = 0.2 with (1, 1)
    pr, blocks = _pricer(L, P, 3)
    y = np.array([0.02, -0.01, 0.05, 0.01])
    pr.set_dual(y)
    ref, arg = _brute(blocks, P, y)
    best, pt, ub, _ = pr.solve()
    assert abs(best - ref) < 1e-12 and ub >= float(ref) - 1e-12
    small_t = 0
    for pos in itertools.product(*[range(len(bd.T)) for bd in pr.data]):
        combo = [int(bd.order[p]) for p, bd in zip(pos, pr.data, strict=True)]
        w = [x for b, j in zip(blocks, combo, strict=True) for x in b.exact_point(j)]
        t = sum(a * b for a, b in zip(w, P, strict=True))
        with mpmath.workdps(40):
            g = mu_reference(w, P) - sum(mpmath.mpf(float(u)) * mp(x) for u, x in zip(y, w, strict=True))
        val, tt = pr.value(list(pos))
        assert abs(val - g) < 1e-12 and tt == pytest.approx(float(t), rel=1e-14)
        small_t += t < 1
    assert small_t > 0


def _envelope_bound(pr):
    """max_t phi(t) + H(t), H the upper concave envelope of (t, F) over ALL combinations (brute force)."""
    pts = {}
    for pos in itertools.product(*[range(len(bd.T)) for bd in pr.data]):
        t = sum(pr.Ts[s][p] for s, p in enumerate(pos))
        f = sum(pr.Fs[s][p] for s, p in enumerate(pos))
        pts[t] = max(pts.get(t, -np.inf), f)
    T = np.array(sorted(pts))
    Fv = np.array([pts[t] for t in T])
    hull = [0]
    for i in range(1, len(T)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (Fv[b] - Fv[a]) * (T[i] - T[a]) <= (Fv[i] - Fv[a]) * (T[b] - T[a]):
                hull.pop()
            else:
                break
        hull.append(i)
    best = max(float(-t * math.log(t) + f) for t, f in zip(T[hull], Fv[hull], strict=True))
    for a, b in pairwise(hull):
        sl = (Fv[b] - Fv[a]) / (T[b] - T[a])
        t = math.exp(sl - 1.0)            # phi'(t) + sl = 0
        if T[a] < t < T[b]:
            best = max(best, -t * math.log(t) + Fv[a] + (t - T[a]) * sl)
    return best


def test_lagrangian_bound_equals_the_concave_envelope_bound():
    """Pricer.bound at the root = max_t phi(t) + H(t) with H the concave envelope of all combinations
    (the sup-convolution of the block hulls is that envelope)."""
    P = [F(1, 12), F(2, 12), F(3, 12), F(1, 12), F(4, 12), F(1, 12)]
    L = [[F(1, 4), F(1, 8)], [F(1, 10), F(3, 10)], [F(1, 5), F(0)]]
    pr, _ = _pricer(L, P, 2)
    rng = np.random.default_rng(9)
    pf = np.array([float(x) for x in P])
    for _ in range(4):
        pr.set_dual(pf * np.log(rng.random(6) + 0.05) + rng.normal(size=6) * 0.05)
        hulls = {s: pr.hull(s, 0, len(bd.T)) for s, bd in enumerate(pr.data)}
        rel = pr.bound(Node(), hulls)
        assert rel.value == pytest.approx(_envelope_bound(pr), abs=1e-12)
        # kappa = phi'(t*) at the maximiser t* = sum of the chosen positions' T (plus the mixed segment)
        assert math.isfinite(rel.kappa)


def test_rigorous_max_slack_counts_only_the_top_vertices_for_a_poor_dual():
    """y = 0: the slack is mu(v) >= 0 and its maximum is far from 0; only the vertices whose mu is within the
    float error of the top are evaluated in arb (counted at 40 digits), and M is >= the true maximum."""
    V = po.gamma_hat_vertices(L22, 2)
    Vf = po._float_matrix(V)
    mu, S1, bad = po.mu_float_bounds(Vf, np.array([float(x) for x in P22]))
    M, n_arb = po._rigorous_max_slack(V, P22, Vf, [F(0)] * 4, mu, S1, bad, 30)
    with mpmath.workdps(40):
        mus = [mu_reference(v, P22) for v in V]
        top = max(mus)
        near = [sum(1 for x in mus if x >= top - mpmath.mpf(eps)) for eps in ("1e-13", "1e-6")]
        assert mp(M) >= top and mp(M) - top < mpmath.mpf(10) ** -25
    assert near[0] == near[1] == n_arb >= 1 and top > mpmath.mpf("0.01")


def test_certify_upper_margin_schedule_value():
    """At the exact route's optimal dual (G = 0 up to rounding) the certificate needs a margin above the float
    errors: the docstring's schedule gives margins 1, 1 + 1, 1 + 1 + 4 (x 1e-13 (1 + max |y|)) for attempts
    0, 1, 2; the certified bound is sum_x (y_x + M + margin) for one of them, in exact binary fractions."""
    from rldp_verify.rldp.mechanisms.cg_certify import certify_upper

    ref = _exact_bracket(L22, P22)
    cone = polyopt_cone(L22, 2)
    data = [cb.block_data(b, P22) for b in cone.blocks]
    pr = Pricer(data, 4, enum_max=0)
    nmin = sum(float(np.min(bd.N)) for bd in data)
    y = np.array([float(t) for t in ref.dual])
    M = float((ref.upper - sum(ref.dual)) / 4)
    scale = 1.0 + float(np.max(np.abs(y)))
    up, yp, _ = certify_upper(pr, y, M, [0, 1, 2, 3], nmin)
    cands = [sum(F(float(t)) for t in y + (M + k * 1e-13 * scale)) for k in (1, 2, 6)]
    assert up in cands and up >= ref.lower


def test_solve_eq46_accepts_huge_denominators_exactly():
    """sum_x v_x = 1 is checked in integers: a vertex with a 3^40 denominator is accepted."""
    a = F(1, 3 ** 40)
    sol = po.solve_eq46([(a, 1 - a), (F(1, 2), F(1, 2))], [F(1, 2), F(1, 2)])
    assert all(sum(r[x] for r in sol.rows) == 1 for x in range(2)) and sol.lower <= sol.upper


def test_time_limit_keeps_a_reserve_for_the_closing_steps():
    """Under the CLI's deadline the loop stops `reserve` seconds early (at most half of what is left): issue 29,
    a 20 x 18 run passed --time-limit 30 by 38 s in its closing steps."""
    import time
    from types import SimpleNamespace

    from rldp_verify.core import progress
    from rldp_verify.rldp.mechanisms.polyopt_cg import ColumnGeneration

    for reserve, kept in ((3.0, 3.0), (40.0, 40.0), (80.0, 50.0), (0.0, 0.0)):
        cg = SimpleNamespace(t_start=time.perf_counter(), paused=0.0, time_limit=600.0, cap=math.inf)
        with progress.deadline(100.0, "--time-limit 100 s"):
            ColumnGeneration.announce(cg, 1e-4, reserve=reserve)
        assert 100.0 - kept - 0.5 <= cg.time_limit <= 100.0 - kept + 0.5, (reserve, cg.time_limit)
    cg = SimpleNamespace(t_start=time.perf_counter(), paused=0.0, time_limit=600.0, cap=math.inf)
    ColumnGeneration.announce(cg, 1e-4, reserve=5.0)        # no deadline: the API's time_limit is untouched
    assert cg.time_limit == 600.0
