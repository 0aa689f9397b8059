"""PRAM (post-randomisation) matrices with uniform off-diagonal rows under alpha-DP.

Source: Ayed, Battiston & Camerlenghi, "An Information Theoretic approach to Post Randomization
Methods under Differential Privacy" [ayed-2020], Sec. 3.1 eq. (8)-(11),
Appendix 5.2 eq. (12)-(17), Proposition 3.2.

The family (eq. (8)): for q = (q_1, ..., q_S) in [0, 1]^S,

    M[k][k] = q_k,    M[k][z] = (1 - q_k) / (S - 1)   (z != k).

Throughout, ``t`` stands for e^alpha (t >= 1). Exact routines take ``t`` as a Fraction
(alpha = log t); mpmath routines accept an mpf ``t`` as well. The alpha-DP constraints are
linear in q once written without quotients, M[k][z] <= t * M[k'][z] for all k != k', z
(:func:`dp_rows`); this is the ground truth the paper's constraint systems are compared with.

Vertex enumeration uses pycddlib's exact GMP backend; every vertex it returns is re-checked
(feasible, S linearly independent active constraints) before it is returned.

Numerics: exact functions return Fractions and do not err. Mutual informations are mpmath values
at the caller's working precision (:func:`rldp_verify.core.numbers.working_precision`); they may err by
a few units in the last digits, and :func:`best_points` reports the gap between the best and the
runner-up so that callers can refuse to decide ties closer than that.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction

import mpmath

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.information import mutual_information_value, transpose
from rldp_verify.core.lp import solve_rows
from rldp_verify.core.numbers import check_exp_eps, exact, to_mpf
from rldp_verify.core.polytope import generators_of_rows
from rldp_verify.core.validate import require_sum_one
from rldp_verify.topics.pram_vertices import certify_vertex_set as certify_vertex_set

# labels of the coordinate values named in Proposition 3.2
V_ALPHA, V_MALPHA, V_MIN, V_MAX = "v_alpha", "v_-alpha", "v_min", "v_max"
LABELS = (V_ALPHA, V_MALPHA, V_MIN, V_MAX)


# --------------------------------------------------------------------------- validation
def check_S(S) -> int:
    """|S| as an int >= 2 (InputError naming the value otherwise)."""
    if isinstance(S, bool) or not isinstance(S, int) or S < 2:
        raise InputError(f"S must be an integer >= 2, got {S!r}")
    return S


def check_t(t) -> Fraction:
    """e^alpha as an exact Fraction >= 1 (alpha >= 0)."""
    return check_exp_eps(t, "e^alpha (alpha >= 0)")


def check_q(q, S: int | None = None) -> list:
    """A PRAM retention vector q (entries in [0, 1], at least 2, and |S| of them when S is given) as a list."""
    q = list(q)
    if S is not None and len(q) != S:
        raise InputError(f"q must have {S} entries, got {len(q)}")
    if len(q) < 2:
        raise InputError(f"q must have at least 2 entries, got {len(q)}")
    for x in q:
        if not (0 <= x <= 1):
            raise InputError(f"q entries must lie in [0, 1], got {x}")
    return q


def check_p(p, S: int | None = None) -> list:
    """A distribution p (entries >= 0 summing to 1, |S| of them when S is given) as a list."""
    p = list(p)
    if S is not None and len(p) != S:
        raise InputError(f"p must have {S} entries, got {len(p)}")
    if any(x < 0 for x in p):
        raise InputError(f"p entries must be >= 0, got {[str(x) for x in p if x < 0][0]}")
    s = sum(p)
    if all(isinstance(x, (int, Fraction)) for x in p):
        if s != 1:
            require_sum_one(s, "p", must=True)
    elif abs(s - 1) > mpmath.mpf(10) ** (-(mpmath.mp.dps - 5)):
        require_sum_one(s, "p", must=True, holds=False)
    return p


# --------------------------------------------------------------------------- the family
def pram_matrix(q) -> list[list]:
    """Eq. (8): the S x S matrix with diagonal q_k and off-diagonal (1 - q_k)/(S - 1). Exact for
    exact q."""
    q = check_q(q)
    S = len(q)
    return [[q[k] if z == k else (1 - q[k]) / (S - 1) for z in range(S)] for k in range(S)]


def marginal(p, q) -> list:
    """Eq. (9): m_j = p_j q_j + sum_{k != j} p_k (1 - q_k)/(S - 1), computed in O(S) through
    c = sum_k p_k (1 - q_k)/(S - 1) as the paper remarks. Exact for exact inputs."""
    q = check_q(q)
    S = len(q)
    p = check_p(p, S)
    c = sum(p[k] * (1 - q[k]) for k in range(S)) / (S - 1)
    return [p[j] * q[j] + c - p[j] * (1 - q[j]) / (S - 1) for j in range(S)]


def _mp(x) -> mpmath.mpf:
    return to_mpf(x) if isinstance(x, (Fraction, int, str)) else mpmath.mpf(x)


def _xlogx(x):
    x = _mp(x)
    return mpmath.mpf(0) if x == 0 else x * mpmath.log(x)


def mutual_information(p, channel) -> mpmath.mpf:
    """I(X, Z) = sum_{x,z} p_x Q(z|x) log(Q(z|x)/m_z) (Sec. 2.2), natural log, for any row-stochastic
    ``channel`` (rows x); 0 log 0 = 0. The one implementation,
    :func:`rldp_verify.core.information.mutual_information_value`, on the transposed channel, at the
    caller's mpmath precision (errs by rounding only)."""
    p = check_p(p, len(channel))
    return mutual_information_value(transpose([[_mp(x) for x in row] for row in channel]), [_mp(x) for x in p],
                                    dps=mpmath.mp.dps)


def f_simplified(p, q) -> mpmath.mpf:
    """Sec. 3.1, the O(S) form of f(q) = I(X, Z) = H(Z) - H(Z|X):

        f(q) = sum_x p_x (q_x log q_x + (1 - q_x) log((1 - q_x)/(S - 1))) - sum_z m_z log m_z.

    mpmath at the current precision."""
    q = [_mp(x) for x in check_q(q)]
    S = len(q)
    p = [_mp(x) for x in check_p(p, S)]
    m = marginal(p, q)
    acc = mpmath.mpf(0)
    for x in range(S):
        off = (1 - q[x]) / (S - 1)
        acc += p[x] * (_xlogx(q[x]) + (S - 1) * _xlogx(off))
    return acc - mpmath.fsum(_xlogx(mz) for mz in m)


def mi_pram(p, q) -> mpmath.mpf:
    """f(q) = I(X, Z) for the PRAM matrix (8), through the generic definition."""
    return mutual_information(p, pram_matrix(q))


# --------------------------------------------------------------------------- privacy
def dp_ratio(q) -> Fraction | None:
    """The exact privacy loss ratio max_{z, k != k'} M[k][z] / M[k'][z] of the matrix (8); ``None``
    stands for +infinity (a positive entry over a zero one). e^alpha-DP holds iff ratio <= t."""
    M = pram_matrix([exact(x) for x in q])
    S = len(M)
    best = Fraction(1)
    for z in range(S):
        col = [M[k][z] for k in range(S)]
        hi, lo = max(col), min(col)
        if hi == 0:
            continue
        if lo == 0:
            return None
        best = max(best, hi / lo)
    return best


def is_private(q, t) -> bool:
    """Exact: the matrix (8) satisfies alpha-DP with e^alpha = t (Definition 2.1 for one record)."""
    t = check_t(t)
    r = dp_ratio(q)
    return r is not None and r <= t


def eq10_holds(q, t) -> bool:
    """Eq. (10) read literally, with its quotients (needs 0 < q_k < 1 so that no denominator
    vanishes): max((S-1) q_k/(1 - q_k'), (1 - q_k)/((S-1) q_k'), (1 - q_k)/(1 - q_k') [S >= 3])
    <= e^alpha for every k != k'."""
    t = check_t(t)
    q = [exact(x) for x in check_q(q)]
    S = len(q)
    if any(x in (0, 1) for x in q):
        raise InputError("eq. (10) is written with quotients: it needs 0 < q_k < 1")
    for k, kp in itertools.permutations(range(S), 2):
        terms = [(S - 1) * q[k] / (1 - q[kp]), (1 - q[k]) / ((S - 1) * q[kp])]
        if S >= 3:
            terms.append((1 - q[k]) / (1 - q[kp]))
        if max(terms) > t:
            return False
    return True


def _unit(S, i, c):
    v = [Fraction(0)] * S
    v[i] = Fraction(c)
    return v


def dp_rows(S, t, *, box: bool = True) -> list[list[Fraction]]:
    """Ground truth: the alpha-DP constraints of family (8) as rows [b, a_1, ..., a_S] meaning
    b + a . q >= 0 (pycddlib's H-format), one per (k, k', z) with k != k' (t*M[k'][z] - M[k][z] >= 0),
    duplicates removed; with ``box`` also 0 <= q_k <= 1 (so that (8) is a stochastic matrix)."""
    S, t = check_S(S), check_t(t)

    def entry(k, z):  # M[k][z] = const + coeff . q
        if k == z:
            return Fraction(0), _unit(S, k, 1)
        return Fraction(1, S - 1), _unit(S, k, Fraction(-1, S - 1))

    rows, seen = [], set()
    for k, kp in itertools.permutations(range(S), 2):
        for z in range(S):
            b0, b = entry(k, z)
            a0, a = entry(kp, z)
            row = [t * a0 - b0] + [t * a[i] - b[i] for i in range(S)]
            key = tuple(row)
            if key not in seen:
                seen.add(key)
                rows.append(row)
    if box:
        for i in range(S):
            rows.append([Fraction(0)] + _unit(S, i, 1))
            rows.append([Fraction(1)] + _unit(S, i, -1))
    return rows


def paper_rows(S, t, *, eq15: str = "printed",
               equations: Iterable[int] = (12, 13, 14, 15, 16, 17)) -> list[list[Fraction]]:
    """Appendix 5.2, eq. (12)-(17), imposed on (x, y) = (q_k, q_l) for every ordered pair k != l,
    as rows [b, a] meaning b + a . q >= 0.

    ``eq15="printed"`` uses (15) as printed, -(S-1) e^alpha x + y <= -1; ``eq15="mirror"`` uses the
    mirror image of (14), -(S-1) e^alpha x - y <= -1."""
    S, t = check_S(S), check_t(t)
    if eq15 not in ("printed", "mirror"):
        raise InputError(f"eq15 must be 'printed' or 'mirror', got {eq15!r}")
    eqs = set(equations)
    bad = eqs - {12, 13, 14, 15, 16, 17}
    if bad:
        raise InputError(f"equations must be among 12..17, got {sorted(bad)}")
    s1 = S - 1
    # each entry: (cx, cy, rhs) for cx*x + cy*y <= rhs
    table = {
        12: (s1, t, t),
        13: (t, s1, t),
        14: (-1, -s1 * t, -1),
        15: (-s1 * t, 1 if eq15 == "printed" else -1, -1),
        16: (-1, t, t - 1),
        17: (t, -1, t - 1),
    }
    rows, seen = [], set()
    for k, kp in itertools.permutations(range(S), 2):
        for e in sorted(eqs):
            cx, cy, rhs = table[e]
            a = [Fraction(0)] * S
            a[k] -= cx
            a[kp] -= cy
            row = [Fraction(rhs)] + a
            key = tuple(row)
            if key not in seen:
                seen.add(key)
                rows.append(row)
    return rows


def satisfies(rows, x) -> bool:
    """Exact: b + a . x >= 0 for every row."""
    x = [exact(v) for v in x]
    return all(r[0] + sum(a * v for a, v in zip(r[1:], x, strict=True)) >= 0 for r in rows)


# --------------------------------------------------------------------------- vertex enumeration
def vertices(rows: Sequence[Sequence[Fraction]], dim: int) -> list[tuple[Fraction, ...]]:
    """Exact vertices of the bounded polyhedron {x : b + a . x >= 0 for all rows} (pycddlib GMP).

    Redundant rows are removed first (cdd's exact canonicalisation). Re-checked before return, in
    exact arithmetic (python-flint): the polyhedron must be bounded (no rays, no lineality) and every
    vertex must satisfy *all* the given rows with ``dim`` linearly independent active rows; otherwise
    :class:`CertificationError`. An empty polyhedron gives []."""
    import flint

    rows = [[exact(v) for v in r] for r in rows]
    if any(len(r) != dim + 1 for r in rows):
        raise InputError(f"every row must have {dim + 1} entries")
    # canonicalise: implicit equalities (a lower-dimensional set) go to cdd's lin_set
    out, rays, has_lineality = generators_of_rows(rows, canonicalize=True)
    if rays:
        raise CertificationError("polyhedron is unbounded (cdd returned a ray)")
    if has_lineality:
        raise CertificationError("polyhedron has a lineality space")
    if not out:
        return []
    if len(set(out)) != len(out):
        raise CertificationError("cdd returned a vertex twice")
    A = flint.fmpq_mat(len(rows), dim + 1, [flint.fmpq(v.numerator, v.denominator) for r in rows for v in r])
    X = flint.fmpq_mat(dim + 1, len(out), [flint.fmpq(1)] * len(out)
                       + [flint.fmpq(v[i].numerator, v[i].denominator) for i in range(dim) for v in out])
    slack = (A * X).tolist()  # slack[i][j] = b_i + a_i . x_j
    for j, v in enumerate(out):
        col = [slack[i][j] for i in range(len(rows))]
        if any(s < 0 for s in col):
            raise CertificationError(f"cdd vertex {v} violates a constraint")
        active = [i for i, s in enumerate(col) if s == 0]
        act = flint.fmpq_mat(len(active), dim, [A[i, c + 1] for i in active for c in range(dim)]) if active else None
        if act is None or act.rank() != dim:
            raise CertificationError(f"cdd point {v} is not a vertex (active rank < {dim})")
    return sorted(out)


def lp_max(rows, objective, dim: int):
    """Exact max of c0 + c . x over {b + a . x >= 0} with pycddlib's GMP LP; returns
    (value, argmax) (:func:`rldp_verify.core.lp.solve_rows`). The status is checked and the argmax re-checked for
    feasibility and value."""
    rows = [[exact(v) for v in r] for r in rows]
    obj = [exact(v) for v in objective]
    if len(obj) != dim + 1:
        raise InputError(f"objective must have {dim + 1} entries")
    sol = solve_rows(rows + [obj])
    if not sol.optimal or sol.x is None:
        raise CertificationError(f"exact LP did not reach an optimum: {sol.status!r}")
    x = sol.x
    val = obj[0] + sum(c * v for c, v in zip(obj[1:], x, strict=True))
    if not satisfies(rows, x) or val != sol.value:
        raise CertificationError("exact LP solution failed its re-check")
    return val, x


# --------------------------------------------------------------------------- Proposition 3.2
def v_alpha(S, t):
    """v_alpha = e^alpha/(e^alpha + S - 1) (Prop. 3.2); exact for Fraction t, mpf for mpf t."""
    return t / (t + S - 1)


def v_malpha(S, t):
    """v_{-alpha} = e^-alpha/(e^-alpha + S - 1) = 1/(1 + (S - 1) e^alpha)."""
    return 1 / (1 + (S - 1) * t)


def v_min(S, t):
    """v_min = e^-alpha/(e^alpha + S - 1) (Prop. 3.2)."""
    return 1 / (t * (t + S - 1))


def v_max(S, t):
    """v_max = e^alpha/(e^-alpha + S - 1) = e^{2 alpha}/(1 + (S - 1) e^alpha) (Prop. 3.2)."""
    return t * t / (1 + (S - 1) * t)


def label_value(label: str, S, t):
    """The value of the vertex coordinate named ``label`` (``v_alpha``, ``v_-alpha``, ``v_min``, ``v_max``) at
    |S| = S, t = e^alpha (exact)."""
    return {V_ALPHA: v_alpha, V_MALPHA: v_malpha, V_MIN: v_min, V_MAX: v_max}[label](S, t)


def classify(vertex, S, t) -> tuple:
    """Each coordinate's label among ``v_alpha``, ``v_-alpha``, ``v_min``, ``v_max``, or its exact value
    when it is none of them (exact comparison)."""
    t = check_t(t)
    table = {label_value(L, S, t): L for L in LABELS}
    return tuple(table.get(Fraction(x), Fraction(x)) for x in vertex)


def prop32_threshold(S) -> mpmath.mpf:
    """The bound of Proposition 3.2 on e^alpha: (S - 2 + sqrt(S (S - 4)))/2 (S >= 4), mpmath."""
    S = check_S(S)
    if S < 4:
        raise InputError(f"Proposition 3.2 needs S >= 4, got S={S}")
    return (S - 2 + mpmath.sqrt(S * (S - 4))) / 2


def prop32_patterns(S) -> list[tuple]:
    """The label patterns of Proposition 3.2's five vertex types, every permutation listed
    (2 + sum_{j=2}^{S-2} C(S, j) + 2S = 2^S patterns)."""
    S = check_S(S)
    out = [(V_ALPHA,) * S, (V_MALPHA,) * S]
    for A in itertools.product((V_ALPHA, V_MALPHA), repeat=S):
        if 2 <= A.count(V_ALPHA) <= S - 2:
            out.append(A)
    for i in range(S):
        out.append(tuple(V_MIN if k == i else V_ALPHA for k in range(S)))
        out.append(tuple(V_MAX if k == i else V_MALPHA for k in range(S)))
    return out


def prop32_orbit_patterns(p) -> list[tuple]:
    """Proposition 3.2's patterns up to the permutations that fix p (coordinates with equal p_k
    are interchangeable for f): one representative per orbit, in the index order of p."""
    p = list(p)
    S = len(p)
    groups: dict = {}
    for i, x in enumerate(p):
        groups.setdefault(x, []).append(i)
    glist = list(groups.values())
    out = set()
    # types 1-3: a number of v_alpha per group
    for counts in itertools.product(*[range(len(g) + 1) for g in glist]):
        n_a = sum(counts)
        if n_a in (1, S - 1):
            continue
        lab = [V_MALPHA] * S
        for g, c in zip(glist, counts, strict=True):
            for i in g[:c]:
                lab[i] = V_ALPHA
        out.add(tuple(lab))
    for g in glist:  # types 4 and 5: the special coordinate's group
        i = g[0]
        out.add(tuple(V_MIN if k == i else V_ALPHA for k in range(S)))
        out.add(tuple(V_MAX if k == i else V_MALPHA for k in range(S)))
    return sorted(out)


def point(labels, S, t) -> list:
    """The q vector with the given labels at e^alpha = t (Fraction or mpf)."""
    return [label_value(L, S, t) for L in labels]


def label_counts(labels) -> dict:
    """How many coordinates carry each label of :data:`LABELS`."""
    return {L: sum(1 for x in labels if x == L) for L in LABELS}


def f_float_many(p, Q):
    """f(q) for every row q of Q in binary64 (numpy), Sec. 3.1's O(S) form. A *prefilter* only: its
    rounding error is about S * 1e-16 * max|log|, far below the 1e-9 band :func:`best_points` re-checks
    at high precision."""
    import numpy as np

    P = np.array([float(x) for x in p])
    Q = np.array([[float(x) for x in q] for q in Q], dtype=float)
    S = P.size
    with np.errstate(divide="ignore", invalid="ignore"):
        xlogx = lambda x: np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)  # noqa: E731
        off = (1 - Q) / (S - 1)
        cond = (P * (xlogx(Q) + (S - 1) * xlogx(off))).sum(axis=1)
        c = (P * (1 - Q)).sum(axis=1, keepdims=True) / (S - 1)
        m = c + P * (S * Q - 1) / (S - 1)
        return cond - xlogx(m).sum(axis=1)


def best_points(p, candidates: dict, *, band: float = 1e-9, f=None):
    """The maximiser of f over ``candidates`` (name -> q): ranked in binary64 by :func:`f_float_many`,
    then every candidate within ``band`` of the float best, plus the best one below the band, is
    re-evaluated with f (default :func:`f_simplified`, mpmath at the current precision).

    Returns (sorted [(value, name)] of the re-evaluated candidates, gap best - runner-up at high
    precision, float_band_gap: how far below the best the first un-re-checked candidate lies in
    binary64). Callers must treat a gap below their tolerance as undecided."""
    f = f or f_simplified
    names = list(candidates)
    if len(names) < 2:
        raise InputError("need at least two candidates")
    fl = f_float_many(p, [candidates[n] for n in names])
    order = sorted(range(len(names)), key=lambda i: -fl[i])
    top = fl[order[0]]
    k = 1
    while k < len(order) and top - fl[order[k]] <= band:
        k += 1
    recheck = order[: min(k + 1, len(order))]
    float_band_gap = float(top - fl[order[k + 1]]) if k + 1 < len(order) else float("inf")
    vals = sorted(((f(p, candidates[names[i]]), names[i]) for i in recheck), key=lambda vn: -vn[0])
    gap = vals[0][0] - vals[1][0]
    return vals, gap, float_band_gap


def grad_f(p, q) -> list:
    """The gradient of f (Sec. 3.1's O(S) form) at q in (0, 1)^S, mpmath:

        df/dq_x = p_x log((S-1) q_x/(1 - q_x)) + p_x/(S-1) sum_z log m_z - p_x S/(S-1) log m_x

    (the terms from d(m log m) = (log m + 1) dm lose their '+1' because sum_z dm_z/dq_x = 0)."""
    q = [_mp(x) for x in check_q(q)]
    S = len(q)
    p = [_mp(x) for x in check_p(p, S)]
    if any(x <= 0 or x >= 1 for x in q):
        raise InputError("grad_f needs 0 < q_k < 1")
    m = marginal(p, q)
    slog = mpmath.fsum(mpmath.log(z) for z in m)
    return [p[x] * (mpmath.log((S - 1) * q[x] / (1 - q[x])) + slog / (S - 1) - S * mpmath.log(m[x]) / (S - 1))
            for x in range(S)]


def edges(rows, verts, dim: int) -> list[tuple[int, int]]:
    """The edges of the polytope {b + a . x >= 0} among its vertices ``verts`` (exact): i ~ j iff the
    rows active at both have rank dim - 1 (the standard adjacency test for polytopes)."""
    import flint

    rows = [[exact(v) for v in r] for r in rows]
    act = []
    for v in verts:
        act.append({i for i, r in enumerate(rows) if r[0] + sum(a * x for a, x in zip(r[1:], v, strict=True)) == 0})
    out = []
    for i in range(len(verts)):
        for j in range(i + 1, len(verts)):
            common = sorted(act[i] & act[j])
            if len(common) < dim - 1:
                continue
            M = flint.fmpq_mat(len(common), dim, [flint.fmpq(rows[k][c + 1].numerator, rows[k][c + 1].denominator)
                                                  for k in common for c in range(dim)])
            if M.rank() == dim - 1:
                out.append((i, j))
    return out
