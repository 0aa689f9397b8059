"""The PolyOpt cone Gamma_eps (Definition 3) and the vertices of Gamma-hat, exactly.

Paper: [lopuhaa-2024], Sec. 5, Definition 3, eq. (3); Theorem 3 / eq. (46).
Coordinates x = (s, u) are in S-major order (x = s * |U| + u). ``lower_table[s][u]`` = L_{u|s},
``exp_eps`` = e^eps (an exact rational > 1). Everything is exact (Fractions); floats are refused.

Definition 3: v >= 0 and, for all s1, s2 in S and u1, u2 in U,

    v_{s1,u1} - e^eps v_{s2,u2} + sum_u L_{u|s1} (v_{s1,u} - v_{s1,u1})
                                - e^eps sum_u L_{u|s2} (v_{s2,u} - v_{s2,u2})  <= 0.

Structure used by the fast method.  Write Lambda_s = sum_u L_{u|s}, c_s = 1 - Lambda_s and

    h_{s,u}(v) = c_s v_{s,u} + sum_w L_{w|s} v_{s,w}            (linear in the s-block only).

The inequality for (s1, u1, s2, u2) is exactly h_{s1,u1}(v) <= e^eps h_{s2,u2}(v), so the a^2
inequalities say  max_x h_x <= e^eps min_x h_x  (``include_same_s=True``; with
``include_same_s=False`` only pairs with s1 != s2 are imposed).  When every c_s > 0 the block map
v_s -> h_s is invertible with v_{s,u} = (h_{s,u} - L_s . h_s) / c_s, so in h-coordinates

    Gamma_eps = { h : max h <= e^eps min h,  h_{s,u} >= L_s . h_s  for all s, u }.

For |S| >= 2 and ``include_same_s=True`` the vertices of Gamma-hat are (see :func:`_product_vertices`)
exactly the normalised images of the points h = (h_s)_s with every h_s a vertex of the block
polytope P_s = { h_s in [1, e^eps]^U : h_{s,u} >= L_s . h_s } and min_x h_x = 1, max_x h_x = e^eps.
This characterisation is checked against the plain double description in tests/rldp/test_gamma.py.

Methods of :func:`gamma_hat_vertices`: ``"cdd"`` (plain cddlib GMP double description of the a^2 + a
inequalities), ``"cdd-reduced"`` (same after dropping duplicate and trivially implied rows),
``"lrs"`` (lrslib's reverse search on the reduced system, exact rationals), ``"normaliz"``
(Normaliz via the optional PyNormaliz, exact integers, reduced system), ``"product"``
(the block characterisation above), ``"auto"`` (``"product"`` when it applies, else ``"normaliz"`` for |X| >= 8
when PyNormaliz is installed, else ``"cdd-reduced"``).
All methods are exact; none rounds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from math import gcd
from numbers import Integral

from rldp_verify.core import progress
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import check_table, exact
from rldp_verify.core.polytope import vertices as _cdd_vertices

METHODS = ("auto", "cdd", "cdd-reduced", "lrs", "normaliz", "product")


def _have_normaliz() -> bool:
    try:
        import PyNormaliz  # noqa: F401
    except ImportError:
        return False
    return True


def _validate(lower_table, exp_eps, *, allow_one: bool = False):
    try:
        L = [[exact(x) for x in row] for row in lower_table]
    except TypeError as exc:
        raise InputError(f"lower_table must hold exact numbers: {exc}") from None
    L = check_table(L, "lower_table")
    for s, row in enumerate(L):
        if sum(row) > 1:
            raise InputError(f"lower_table row {s} sums to {sum(row)} > 1 (D_s would be empty)")
    e = exact(exp_eps)
    if e < 1 or (e == 1 and not allow_one):
        raise InputError(f"exp_eps = {e} must be {'>=' if allow_one else '>'} 1")
    return L, e


def gamma_inequalities(lower_table: Sequence[Sequence], exp_eps, *, include_same_s: bool = True, active=None):
    """Rows (A, b) with Gamma_eps = {v : A v <= b} (Definition 3, eq. (3); b = 0): the one construction.

    The first a rows are -v_x <= 0; then one row per (s1, u1, s2, u2) in lexicographic order
    (pairs with s1 == s2 omitted when ``include_same_s`` is False; only s in ``active`` when given).
    e^eps = 1 is allowed. Exact Fractions.
    """
    L, e = _validate(lower_table, exp_eps, allow_one=True)
    a1, a2 = len(L), len(L[0])
    a = a1 * a2
    A = []
    for x in range(a):
        r = [Fraction(0)] * a
        r[x] = Fraction(-1)
        A.append(r)
    act = list(range(a1)) if active is None else sorted(set(active))
    if any(not (isinstance(s, Integral) and 0 <= int(s) < a1) for s in act):
        # a negative index would silently wrap around to another block's coordinates
        raise InputError(f"active = {active!r} must hold indices of lower_table rows (0 to {a1 - 1})")
    for s1 in act:
        for u1 in range(a2):
            for s2 in act:
                if s1 == s2 and not include_same_s:
                    continue
                for u2 in range(a2):
                    r = [Fraction(0)] * a
                    # v_{s1,u1} + sum_u L_{u|s1}(v_{s1,u} - v_{s1,u1})
                    r[s1 * a2 + u1] += 1
                    for u in range(a2):
                        r[s1 * a2 + u] += L[s1][u]
                        r[s1 * a2 + u1] -= L[s1][u]
                    # - e^eps v_{s2,u2} - e^eps sum_u L_{u|s2}(v_{s2,u} - v_{s2,u2})
                    r[s2 * a2 + u2] -= e
                    for u in range(a2):
                        r[s2 * a2 + u] -= e * L[s2][u]
                        r[s2 * a2 + u2] += e * L[s2][u]
                    A.append(r)
    return A, [Fraction(0)] * len(A)


def _reduced_rows(A, b):
    """Drop zero rows with b >= 0, rows that are positive multiples of earlier rows, and
    duplicates.  (Exact; the polyhedron is unchanged.)"""
    seen = set()
    A2, b2 = [], []
    for r, bi in zip(A, b, strict=True):
        nz = [x for x in r if x != 0]
        if not nz:
            if bi < 0:
                A2.append(r)
                b2.append(bi)
            continue
        scale = abs(nz[0])
        key = (tuple(x / scale for x in r), bi / scale)
        if key in seen:
            continue
        seen.add(key)
        A2.append(r)
        b2.append(bi)
    return A2, b2


def _check_vertices_only(verts, rays):
    if rays:
        raise InputError("Gamma-hat is unbounded for this input (cdd returned rays)")
    return verts


def gamma_hat_vertices(lower_table: Sequence[Sequence], exp_eps, *, include_same_s: bool = True,
                       method: str = "auto"):
    """Vertices of Gamma-hat = Gamma_eps ∩ {sum_x v_x = 1}, exact, sorted, S-major order.

    Sec. 5 / Theorem 3 of [lopuhaa-2024].  ``method`` is one of :data:`METHODS`.
    Exact: no rounding in any method.
    """
    L, e = _validate(lower_table, exp_eps)
    if method not in METHODS:
        raise InputError(f"method {method!r} is not one of {METHODS}")
    a1, a2 = len(L), len(L[0])
    a = a1 * a2
    product_ok = include_same_s and a1 >= 2 and all(sum(r) < 1 for r in L)
    if method == "auto":
        method = "product" if product_ok else ("normaliz" if a >= 8 and _have_normaliz() else "cdd-reduced")
    if method != "product":
        progress.step(f"vertices of Gamma-hat ({method}, |X| = {a}; no count)")
    if method == "product":
        if not product_ok:
            raise InputError("method 'product' needs include_same_s=True, |S| >= 2 and "
                             "sum_u L_{u|s} < 1 for every s")
        return _product_vertices(L, e)
    A, b = gamma_inequalities(L, e, include_same_s=include_same_s)
    E, f = [[Fraction(1)] * a], [Fraction(1)]
    if method != "cdd":
        A, b = _reduced_rows(A, b)
    if method == "lrs":
        from rldp_verify.core.polytope import vertices_lrs
        verts, rays = vertices_lrs(A, b, E, f)
    elif method == "normaliz":
        from rldp_verify.core.polytope import vertices_normaliz
        verts, rays = vertices_normaliz(A, b, E, f)
    else:
        verts, rays = _cdd_vertices(A, b, E, f)
    return sorted(set(_check_vertices_only(verts, rays)))


def block_vertices(L_s: Sequence, exp_eps):
    """Vertices of P_s = {h in [1, e^eps]^U : h_u >= L_s . h for all u} (h-coordinates), exact.

    Computed with cddlib GMP in dimension |U| (3|U| inequalities)."""
    L_s = [exact(x) for x in L_s]
    e = exact(exp_eps)
    a2 = len(L_s)
    A, b = [], []
    for u in range(a2):
        r = [Fraction(0)] * a2
        r[u] = Fraction(1)
        A.append(r)
        b.append(e)                       # h_u <= e
        r = [Fraction(0)] * a2
        r[u] = Fraction(-1)
        A.append(r)
        b.append(Fraction(-1))            # h_u >= 1
        r = [x for x in L_s]
        r[u] -= 1
        A.append(r)
        b.append(Fraction(0))             # L_s . h - h_u <= 0
    verts, rays = _cdd_vertices(A, b)
    assert not rays
    return sorted(set(verts))


def _product_vertices(L, e):
    """Vertices of Gamma-hat via the block-product characterisation (|S| >= 2, include_same_s).

    Why it is complete and exact: Gamma_eps is the projection to h of the pointed cone
    K' = {(h, m) : m <= h_x <= e m, h_{s,u} >= L_s . h_s}, whose slice m = 1 is the product
    prod_s P_s; extreme rays of the projection are images of extreme rays of K'. An extreme ray h of
    Gamma_eps has rank a-1 among its tight constraints; if max h < e min h only the constraints
    v_x = 0 can be tight, which forces v = a unit vector, infeasible for |S| >= 2 (the other blocks
    give h = 0).  So max h = e min h; scaling min h = 1 puts h in prod_s P_s with the lifting m = 1
    unique, hence h is a vertex of prod_s P_s, i.e. each h_s is a vertex of P_s.  Conversely such an
    h with min 1, max e has a one-point fibre, so any decomposition in Gamma lifts to one in K'.
    """
    a1 = len(L)
    blocks = []
    progress.step("vertices of the blocks P_s", a1, "blocks")
    for s in range(a1):
        c = 1 - sum(L[s])
        vb = []
        for h in block_vertices(L[s], e):
            lh = sum(ls * x for ls, x in zip(L[s], h, strict=True))
            v = tuple((x - lh) / c for x in h)
            vb.append((v, min(h) == 1, max(h) == e))
        blocks.append(vb)
        progress.update(s + 1)
    # Each block vertex as small integers over its own denominator: v_s = n_s / d_s. A combination
    # (v_1, ..., v_k) normalised is (n_s D/d_s)_s / sum_s S_s D/d_s with D = prod_s d_s, S_s = sum n_s:
    # small integers keep the Fraction normalisation (gcd) cheap.
    iblocks = []
    for vb in blocks:
        ib = []
        for v, has1, hase in vb:
            d = 1
            for x in v:
                d = d * x.denominator // gcd(d, x.denominator)
            n = tuple(x.numerator * (d // x.denominator) for x in v)
            ib.append((n, has1, hase, d, sum(n)))
        iblocks.append(ib)
    out = []
    n_combos = 1
    for ib in iblocks:
        n_combos *= len(ib)
    progress.step("vertices of Gamma-hat: products of block vertices", n_combos, "combinations")
    for i, combo in enumerate(itertools.product(*iblocks)):
        if not i & 4095:
            progress.update(i, f"{len(out)} vertices")
        if not any(c[1] for c in combo) or not any(c[2] for c in combo):
            continue
        D = 1
        for c in combo:
            D *= c[3]
        nums, tot = [], 0
        for c in combo:
            sc = D // c[3]
            nums.extend(x * sc for x in c[0])
            tot += c[4] * sc
        out.append((nums, tot))
    # Sort key: floor(x * 2^k / tot) per coordinate with 2^k > tot_max^2. Two distinct values
    # x/t != x'/t' (t, t' <= tot_max) differ by >= 1/(t t') > 2^-k, so their floors differ and keep
    # the order; equal values give equal floors. Hence the integer keys sort exactly like the
    # Fractions, with cheap int comparisons.
    progress.step(f"vertices of Gamma-hat: sorting {len(out)} vertices")
    k = 2 * max((t for _, t in out), default=1).bit_length() + 2
    out = [(tuple((x << k) // tot for x in nums), nums, tot) for nums, tot in out]
    out.sort(key=lambda kv: kv[0])
    progress.step("vertices of Gamma-hat: exact fractions", len(out), "vertices")
    verts = []
    for i, (_, nums, tot) in enumerate(out):
        if not i & 4095:
            progress.update(i)
        verts.append(tuple(Fraction(x, tot) for x in nums))
    return verts
