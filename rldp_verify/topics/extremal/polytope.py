"""Exact vertex enumeration of the eps-LDP mechanism polytope D_{eps,l} and the LP polytope.

Source: [kairouz-2016] (Kairouz, Oh & Viswanath), Sec. 7.3 (proof of Lemma 23),
eq. (46)-(50): q = vec(Q) in R^{k l} with Q(y|x) <= e^eps Q(y|x') (Claim 2), Q >= 0, rows summing
to 1; and Theorem 4's feasible set {theta >= 0 : S^(k) theta = 1}.

Uses pycddlib's exact GMP backend (through :mod:`rldp_verify.core.polytope` and :mod:`rldp_verify.core.lp`),
which refuses floats; ``t = e^eps`` must be rational. Every returned vertex is re-checked exactly to satisfy
all constraints.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.lp import solve_rows
from rldp_verify.core.polytope import generators_of_rows
from rldp_verify.topics.extremal.staircase import check_t, pattern_matrix
from rldp_verify.topics.extremal.utilities import is_ldp, is_stochastic


def _vertices(rows, lin, nvar):
    verts, rays, _ = generators_of_rows(rows, lin)
    if rays:
        raise CertificationError("unbounded direction in a polytope that must be bounded")
    return verts


def ldp_polytope_vertices(k: int, l: int, t) -> list[list[list[Fraction]]]:  # noqa: E741 (the paper's l)
    """All vertices of D_{eps,l} (k inputs, l outputs) as k x l matrices of Fractions."""
    t = check_t(t)
    if k < 1 or l < 1 or k * l > 20:
        raise InputError(f"need 1 <= k, l and k*l <= 20 for exact enumeration, got k={k}, l={l}")
    n = k * l

    def idx(x, y):
        return y * k + x  # q ordered as in (46): column by column

    rows, lin = [], []
    for y in range(l):
        for x in range(k):
            for xp in range(k):
                if x != xp:  # t q(y|x') - q(y|x) >= 0
                    r = [Fraction(0)] * (n + 1)
                    r[1 + idx(xp, y)] += t
                    r[1 + idx(x, y)] -= 1
                    rows.append(r)
            r = [Fraction(0)] * (n + 1)
            r[1 + idx(x, y)] = Fraction(1)
            rows.append(r)  # q >= 0
    for x in range(k):  # sum_y q(y|x) = 1
        r = [Fraction(1)] + [Fraction(0)] * n
        for y in range(l):
            r[1 + idx(x, y)] = Fraction(-1)
        lin.append(len(rows))
        rows.append(r)
    verts = []
    for v in _vertices(rows, lin, n):
        Q = [[v[idx(x, y)] for y in range(l)] for x in range(k)]
        if not (is_stochastic(Q) and is_ldp(Q, t)):
            raise CertificationError("cdd returned a point outside D_{eps,l}")
        verts.append(Q)
    return verts


def lp_polytope_vertices(k: int, t) -> list[tuple]:
    """All vertices theta of {theta >= 0 : S^(k) theta = 1} (Theorem 4), re-checked exactly."""
    t = check_t(t)
    cols = pattern_matrix(k, t)
    n = len(cols)
    rows, lin = [], []
    for j in range(n):
        r = [Fraction(0)] * (n + 1)
        r[1 + j] = Fraction(1)
        rows.append(r)
    for i in range(k):
        lin.append(len(rows))
        rows.append([Fraction(1)] + [-cols[j][i] for j in range(n)])
    out = _vertices(rows, lin, n)
    for th in out:
        if any(v < 0 for v in th) or any(sum(cols[j][i] * th[j] for j in range(n)) != 1 for i in range(k)):
            raise CertificationError("cdd returned an infeasible theta")
    return out


def nonzero_columns(Q) -> int:
    """The number of outputs y with a non-zero column of Q (rows x)."""
    return sum(1 for y in range(len(Q[0])) if any(Q[x][y] != 0 for x in range(len(Q))))


def is_staircase(Q, t) -> bool:
    """Every non-zero column takes exactly values in {c, c t} for some c > 0 (eq. (9))."""
    t = Fraction(t)
    for y in range(len(Q[0])):
        col = [Q[x][y] for x in range(len(Q))]
        if all(v == 0 for v in col):
            continue
        c = min(col)
        if c == 0 or any(v not in (c, c * t) for v in col):
            return False
    return True


def exact_feasible_point(A_eq, b_eq, n: int):
    """An exact x >= 0 with A_eq x = b_eq, or None when none exists (cdd GMP LP, status checked).

    The returned point is re-checked exactly; "None" is only returned on a certified INCONSISTENT status.
    """
    rows = []
    for a, b in zip(A_eq, b_eq, strict=True):
        r = [Fraction(b)] + [-Fraction(v) for v in a]
        rows.append(r)
        rows.append([-v for v in r])
    for j in range(n):
        rows.append([Fraction(0)] + [Fraction(1) if c == j else Fraction(0) for c in range(n)])
    obj = [Fraction(0)] * (n + 1)
    sol = solve_rows(rows + [obj])
    if sol.inconsistent:
        return None
    if not sol.optimal or sol.x is None:
        raise CertificationError(f"cdd feasibility LP status {sol.status}")
    x = list(sol.x)
    if any(v < 0 for v in x) or any(sum(Fraction(ai) * xi for ai, xi in zip(a, x, strict=True)) != b
                                    for a, b in zip(A_eq, b_eq, strict=True)):
        raise CertificationError("cdd returned an infeasible point")
    return x


def approx_ldp_binary_vertices(m: int, t, delta) -> list:
    """Vertices of the (eps, delta)-LDP mechanisms with inputs {0, 1} and m outputs (eq. (33), all sets S)."""
    from itertools import combinations

    t = check_t(t)
    delta = Fraction(delta)
    n = 2 * m  # q = (Q(.|0), Q(.|1))
    rows, lin = [], []
    for r in range(1, m + 1):
        for S in combinations(range(m), r):
            for a, b in ((0, 1), (1, 0)):  # t Q(S|b) + delta - Q(S|a) >= 0
                row = [delta] + [Fraction(0)] * n
                for y in S:
                    row[1 + a * m + y] -= 1
                    row[1 + b * m + y] += t
                rows.append(row)
    for j in range(n):
        rows.append([Fraction(0)] + [Fraction(1) if c == j else Fraction(0) for c in range(n)])
    for x in range(2):
        lin.append(len(rows))
        rows.append([Fraction(1)] + [Fraction(-1) if x * m <= c < (x + 1) * m else Fraction(0) for c in range(n)])
    return [[list(v[:m]), list(v[m:])] for v in _vertices(rows, lin, n)]
