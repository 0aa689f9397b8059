"""PolyOpt: Definition 3, Theorems 2 and 3 (Sec. 5, App. A.4-A.5), and its relaxed variant.

Paper: [lopuhaa-2024].

Gamma_eps (Definition 3, eq. (3)) is the cone of v in R^X_{>=0} with, for all s1, s2 in S and
u1, u2 in U,

    v_{s1,u1} - e^eps v_{s2,u2} + sum_u L_{u|s1} (v_{s1,u} - v_{s1,u1})
                                - e^eps sum_u L_{u|s2} (v_{s2,u} - v_{s2,u2}) <= 0.

Gamma-hat = {v in Gamma_eps : sum_x v_x = 1}; V its vertices. Theorem 3: with mu of eq. (45), the
LP (46)  max sum_v theta_v mu(v)  s.t.  theta >= 0, sum_v theta_v v = 1_X  gives the optimal Q among
mechanisms whose rows lie in Gamma_eps, with Q_v = theta_v v and |Y| <= |X|.

Relaxed PolyOpt (``include_same_s=False``): only the pairs s1 != s2. Definition 1 is trivial for
s = s' (P(Y=y|S=s) <= e^eps P(Y=y|S=s)), and App. A.4 derives (3) for a pair (s1, s2) from (41) for
that same pair only; so Theorem 2 holds for the larger, relaxed cone (claim
``rldp.relaxed-polyopt.guarantee``), and its optimum is at least PolyOpt's.

Soundness: the mechanism is built from rationals L' <= L_{u|s}(F) (certified) and r <= e^eps
(see :mod:`rldp_verify.rldp.mechanisms.rounding`). Theorem 2 applied to D'_s = {R : R_u >= L'_u}, which
contains F_{U|s}, gives (log r, F)-RLDP, and log r <= eps; hence Q is (eps, F)-RLDP.

LP certification (:func:`solve_eq46`): mu(v) is irrational. mu is evaluated for all vertices at once
in float64 with a proven error bound; (46) is solved with these float coefficients by HiGHS (column
generation) and its final basis re-solved exactly, which gives an exactly feasible theta (feasibility
does not involve mu). The optimum of the TRUE (46) is then bracketed rigorously: lower = I_P(X;Y) of
the returned Q (arb), upper = 1^T y + |X| max_v (mu(v) - v^T y) for the basis dual y solved in arb
(exact rationals; every feasible theta has sum_v theta_v = |X| because sum_x v_x = 1 on Gamma-hat),
the max made rigorous by evaluating in arb every vertex whose float slack is within its error bound
of the top; by convexity of mu every mechanism with rows in the cone has utility <= upper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from rldp_verify.core import polytope, progress
from rldp_verify.core.divergence import validate_distribution
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.information import LOG_ULPS, mu_bounds, mu_float_bounds, mu_value, mutual_information_bounds
from rldp_verify.core.lp import highs_solve, solve_square
from rldp_verify.core.numbers import DEFAULT_DPS, fraction_str, working_precision
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.rldp import gamma
from rldp_verify.rldp.mechanisms._common import build, fstr_table, labels_for, phat_table
from rldp_verify.rldp.mechanisms.rounding import (
    DEFAULT_DIGITS,
    check_lower_table,
    lower_bounds,
    privacy_level,
)


class EmptyGammaHat(InputError):
    """Gamma-hat (Definition 3 with the sum-one row) has no vertices for the given lower bounds."""


def gamma_hat_vertices(lower, exp_eps, *, include_same_s: bool = True, active=None,
                       baseline: bool = False) -> list[tuple[Fraction, ...]]:
    """Exact vertices of Gamma-hat, sorted. Uses :func:`rldp_verify.rldp.gamma.gamma_hat_vertices` (the
    polytope developer's fast exact enumeration) when all s are active and e^eps > 1; otherwise, or
    with ``baseline=True``, the plain double description (:func:`rldp_verify.core.polytope.vertices`,
    pycddlib GMP) of the inequalities of :func:`rldp_verify.rldp.gamma.gamma_inequalities`."""
    L = [[Fraction(v) for v in row] for row in lower]
    a = len(L) * len(L[0])
    all_active = active is None or set(active) == set(range(len(L)))
    if not baseline and all_active and Fraction(exp_eps) > 1:
        # rldp_verify.rldp.gamma returns tuples of Fractions (exact); solve_eq46 re-validates its input
        return list(gamma.gamma_hat_vertices(L, Fraction(exp_eps), include_same_s=include_same_s))
    A, b = gamma.gamma_inequalities(L, exp_eps, include_same_s=include_same_s, active=active)
    progress.step(f"vertices of Gamma-hat (double description, |X| = {a}; no count)")
    verts, rays = polytope.vertices(A, b, [[Fraction(1)] * a], [Fraction(1)])
    if rays:
        raise CertificationError("Gamma-hat reported rays although it lies in the simplex")
    return sorted(set(verts))


@dataclass(frozen=True)
class Eq46Solution:
    """The certified solution of LP (46).

    ``mu_float``: float64 values of mu(v) (error bound: :func:`mu_float_bounds`); ``mu`` (property,
    computed on first use): mpmath values at ``dps`` digits, for comparisons with printed numbers."""

    vertices: tuple[tuple[Fraction, ...], ...]
    mu_float: tuple                # float64 mu(v), see mu_float_bounds for the error bound
    theta: tuple[Fraction, ...]    # exact, feasible
    rows: tuple[tuple[Fraction, ...], ...]   # Q_v = theta_v v for theta_v > 0
    support: tuple[int, ...]       # indices of the vertices used
    lower: Fraction                # certified: I(Q) >= lower
    upper: Fraction                # certified: every cone mechanism has I <= upper
    dual: tuple[Fraction, ...]     # the y of the dual bound (exact rationals)
    p: tuple[Fraction, ...] = ()
    dps: int = DEFAULT_DPS
    method: str = "float-mu+highs"
    arb_vertices: int = 0          # vertices whose mu was evaluated in arb for the dual bound

    @property
    def gap(self) -> Fraction:
        """upper - lower: the width of the certified optimum bracket."""
        return self.upper - self.lower

    @property
    def mu(self) -> tuple:
        """mu(v) of eq. (45) for every vertex, mpf at ``dps`` digits (computed once, on demand)."""
        cached = self.__dict__.get("_mu_mp")
        if cached is None:
            with working_precision(self.dps):
                cached = tuple(mu_value(v, self.p, dps=self.dps) for v in self.vertices)
            object.__setattr__(self, "_mu_mp", cached)
        return cached


# unit roundoff of IEEE binary64 (round to nearest)
_U = 2.0 ** -53


def _as_fraction(x) -> Fraction:
    return x if type(x) is Fraction else Fraction(x)


def _float_matrix(V) -> np.ndarray:
    """The exact vertices as a float64 array (each entry correctly rounded, |rel err| <= 2^-53)."""
    a = len(V[0])
    out = np.empty((len(V), a), dtype=float)
    progress.step("LP (46): vertices to float64", len(V), "vertices")
    for j, v in enumerate(V):
        if not j & 4095:
            progress.update(j)
        out[j] = [x.numerator / x.denominator for x in v]   # int/int: correctly rounded (CPython)
    return out


def _highs_run(Vf, mu, art_cost=None):
    """HiGHS (:func:`rldp_verify.core.lp.highs_solve`) on  max mu . theta  s.t.  sum_j theta_j v_j (+ artificial
    e_x) = 1_X, theta >= 0. Returns (basic columns, rows with basic slack, row duals, x) or None."""
    n, a = Vf.shape
    cost = np.ascontiguousarray(mu, dtype=float)
    M = Vf.T
    if art_cost is not None:               # artificial columns e_x with cost -art_cost (phase 1)
        M = np.hstack([M, np.eye(a)])
        cost = np.concatenate([cost, np.full(a, -float(art_cost))])
    N = M.shape[1]
    sol = highs_solve(cost, np.zeros(N), np.full(N, np.inf), np.ones(a), np.ones(a), M)
    if not sol.optimal:
        return None
    basic = [j for j, st in enumerate(sol.col_basis) if st == "B"]
    slack_rows = [i for i, st in enumerate(sol.row_basis) if st == "B"]
    return basic, slack_rows, sol.row_dual, sol.x


def _highs_lp46(Vf, mu, *, chunk: int = 2000, max_rounds: int = 200):
    """max mu . theta s.t. sum_j theta_j v_j = 1, theta >= 0 in float. Returns (basic column
    indices, rows whose slack is basic, row duals) or None.

    LP (46) has |X| rows and up to ~10^5-10^6 columns: solved by column generation (delayed column
    generation / pricing, float): a working set of columns (the ``chunk`` largest mu at start, plus
    artificial unit columns with a big penalty so that it is feasible) is solved by HiGHS; all
    columns are priced at once in numpy with the row duals y (reduced cost mu_j - v_j . y; the
    sign convention of the duals is fixed by the basic columns, whose reduced cost is 0) and the
    ``chunk`` most positive are added, until none exceeds 1e-12 (relative). A final solve without
    artificials on the working set gives the basis. Only speed depends on this: the caller
    re-solves the basis exactly and certifies the bracket rigorously for any y."""
    n, a = Vf.shape
    if n <= 4 * chunk:
        progress.step(f"LP (46): HiGHS on {n} columns")
        res = _highs_run(Vf, mu)
        return None if res is None else res[:3]
    big = 10.0 * (1.0 + float(np.max(np.abs(mu))))
    work = np.zeros(n, dtype=bool)
    work[np.argsort(-mu)[:chunk]] = True
    progress.step(f"LP (46): pricing rounds over {n} vertices (stops when none prices out)", max_rounds, "rounds")
    for rnd in range(max_rounds):
        progress.update(rnd, f"{int(work.sum())} columns")
        idx = np.nonzero(work)[0]
        res = _highs_run(Vf[idx], mu[idx], art_cost=big)
        if res is None:
            return None
        basic, _, y, _ = res
        real = [j for j in basic if j < len(idx)]
        # sign of HiGHS's row duals: basic columns have mu_j = v_j . y
        if real and (np.max(np.abs(mu[idx[real]] - Vf[idx[real]] @ y))
                     > np.max(np.abs(mu[idx[real]] + Vf[idx[real]] @ y))):
            y = -y
        d = mu - Vf @ y
        d[work] = -np.inf
        tol = 1e-12 * (1.0 + np.abs(mu))
        new = np.nonzero(d > tol)[0]
        if new.size == 0:
            break
        if new.size > chunk:
            new = new[np.argpartition(-d[new], chunk)[:chunk]]
        work[new] = True
    else:
        return None
    idx = np.nonzero(work)[0]
    progress.step(f"LP (46): final HiGHS solve on {len(idx)} columns")
    res = _highs_run(Vf[idx], mu[idx])
    if res is None:
        return None
    basic, slack_rows, y, _ = res
    return [int(idx[j]) for j in basic], slack_rows, y


def _exact_basis_theta(V, basic, slack_rows, a):
    """theta_B >= 0 with sum_{j in B} theta_j v_j = 1_X exactly (flint), or None.

    A simplex basis of  [V^T | -I] (theta, r) = 0, r = 1  has the k basic vertex columns and a - k
    basic row slacks; the k x k block on the rows with non-basic slack is then nonsingular. theta_B
    solves that block exactly; the other rows are checked to be exactly 1 as well."""

    rows = [x for x in range(a) if x not in set(slack_rows)]
    k = len(basic)
    if len(rows) != k or k == 0:
        return None
    th = solve_square([[V[j][x] for j in basic] for x in rows], [Fraction(1)] * k)
    if th is None:
        return None
    if any(t < 0 for t in th):
        return None
    for x in slack_rows:
        if sum(t * V[j][x] for t, j in zip(th, basic, strict=True)) != 1:
            return None
    return th


def _float_error(a, S):
    """4 x the first-order float error bound (a + 8 + 2 LOG_ULPS) u S of :func:`mu_float_bounds`."""
    return 4.0 * (a + 8 + 2 * LOG_ULPS) * _U * S


def _dyadic(x) -> Fraction:
    """The midpoint of an arb as an exact rational."""
    man, exp = x.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def _arb_basis_dual(V, p, basic, slack_rows, a, dps):
    """The dual of the basis for the TRUE mu: y_x = 0 on rows whose slack is basic, B_R^T y_R = mu_B
    on the others (mu_B in arb at ``dps`` + 20 digits; y = the midpoints, exact rationals). Any y
    gives a valid bound in :func:`solve_eq46`; this one makes the bracket as tight as the arb
    precision when the float basis is optimal for the true mu. None if arb cannot solve."""
    import flint

    from rldp_verify.core.information import mu_arb
    from rldp_verify.core.rigorous import arb_exact

    sr = set(slack_rows)
    rows = [x for x in range(a) if x not in sr]
    k = len(basic)
    if len(rows) != k or k == 0:
        return None
    with arb_precision(dps + 20):
        mus = [mu_arb(V[j], p) for j in basic]
        M = flint.arb_mat(k, k, [arb_exact(V[j][x]) for j in basic for x in rows])
        try:
            z = M.solve(flint.arb_mat(k, 1, mus))
        except (ZeroDivisionError, ValueError):
            return None
        y = [Fraction(0)] * a
        for x, e in zip(rows, z.entries(), strict=True):
            if not e.is_finite():
                return None
            y[x] = _dyadic(e)
    return y


def _rigorous_max_slack(V, p, Vf, yq, mu, S1, bad, dps):
    """A rational M >= max_v (mu(v) - v . y) over all vertices (rigorous), and the number of
    vertices evaluated in arb.  ``yq``: exact rationals; the screening uses y = fl(yq) and adds
    dy = max_x |yq_x - y_x| (rounded up) to every error bound: v >= 0 and sum_x v_x = 1 on Gamma-hat,
    so |v . yq - v . y| <= dy.

    Float slack g_v = mu_f(v) - fl(v . y) with |g_f - g| <= err_v = :func:`_float_error` (a,
    S1 + S2 + |g_f|), S2 = sum_x |v_x y_x| (see :func:`mu_float_bounds`; the dot product adds
    <= (a + 2) u S2 and the subtraction u |g|). Vertex j* = argmax g_f is evaluated in arb, giving t <= g(v_j*) <= max.
    Every vertex with g_f + 2 err_v >= t (a factor 2 more, for rounding in this comparison) is
    evaluated in arb; for every other vertex g_v < t <= max. Hence M = max of the arb upper ends."""
    a = Vf.shape[1]
    yq = [_as_fraction(t) for t in yq]
    y = np.array([float(t) for t in yq], dtype=float)
    dy = float(max(abs(t - Fraction(float(t))) for t in yq)) * (1.0 + 2.0 ** -50)
    g = mu - Vf @ y
    S2 = np.abs(Vf) @ np.abs(y)
    err = _float_error(a, S1 + S2 + np.abs(g)) + dy
    g_safe = np.where(np.isfinite(g) & np.isfinite(err), g, np.inf)

    def exact_slack(j):
        lo, hi = mu_bounds(V[j], p, dps=dps)
        if not bad[j]:     # re-check the float error model on every vertex evaluated in arb
            e = Fraction(float(_float_error(a, S1[j]))) * 2
            m = Fraction(float(mu[j]))
            if not (lo - e <= m <= hi + e):
                raise CertificationError(f"float64 mu of vertex {j} is outside its proven error bound "
                                         "(numpy's log less accurate than assumed?)")
        dot = sum(x * t for x, t in zip(V[j], yq, strict=True))
        return lo - dot, hi - dot

    jstar = int(np.argmax(g_safe))
    t_lo, best = exact_slack(jstar)
    t = float(t_lo)
    t = t - abs(t) * 2.0 ** -50 - 2.0 ** -1000           # round the threshold down
    cand = np.nonzero((g_safe + 2.0 * err >= t) | bad)[0]
    progress.step("LP (46) dual bound: vertices near the top evaluated in arb", len(cand), "vertices")
    for i, j in enumerate(cand):
        progress.update(i)
        if j == jstar:
            continue
        best = max(best, exact_slack(int(j))[1])
    return best, len(cand)


def solve_eq46(vertices: Sequence[Sequence[Fraction]], p, *, dps: int = DEFAULT_DPS) -> Eq46Solution:
    """Solve and certify LP (46) for the vertex list ``vertices`` and the distribution ``p`` (flat).

    Sec. 5, Theorem 3, eqs. (45)-(46) of [lopuhaa-2024].

    1. mu(v) for every vertex in float64, vectorised (:func:`mu_float_bounds`).
    2. LP (46) with these float objective coefficients, solved by HiGHS; its final basis B (|X|
       vertices) is re-solved exactly (flint): theta_B = B^-1 1_X >= 0 is then an exactly feasible
       point of (46) (the feasible set does not involve mu).  If that fails (singular or negative),
       :func:`rldp_verify.core.lp.solve_certified` on the float objective taken as exact rationals
       (exact simplex repair) supplies theta instead.
    3. Rigorous bracket of the TRUE optimum of (46):
       lower = certified arb lower end of I_P(X;Y) = sum_v mu(theta_v v) of the returned Q;
       upper = sum_x y_x + |X| * M for a rational y — the dual of the final basis for the true mu
       (:func:`_arb_basis_dual`; HiGHS's float duals if arb cannot solve it, the exact dual of
       solve_certified on the fallback route) — and M >= max_v (mu(v) - v . y) rigorous
       (:func:`_rigorous_max_slack`). Why: every feasible theta has sum_v theta_v =
       sum_v theta_v sum_x v_x = sum_x 1 = |X| (sum_x v_x = 1 on Gamma-hat), so
       sum_v theta_v mu(v) = 1 . y + sum_v theta_v (mu(v) - v . y) <= 1 . y + |X| M (valid for any y,
       also M < 0).  By convexity and positive homogeneity of mu, every mechanism with rows in the cone
       has utility at most the LP optimum (a row t w, w in Gamma-hat a convex combination of
       vertices), hence <= upper.  When the float basis is optimal for the true mu the width is at the
       arb precision (~10^-dps); otherwise it is of the order of the float errors in mu (~10^-15).

    Raises CertificationError if lower > upper or a re-check fails."""
    if not vertices:
        raise EmptyGammaHat("Gamma-hat has no vertices")
    V = _checked_vertices(vertices)
    a = len(V[0])
    # the bracket is of LP (46) for a distribution p: finite entries >= 0 summing to 1 (exactly for rationals)
    p = tuple(_as_fraction(x) for x in validate_distribution(list(p), "p"))
    if len(p) != a:
        raise InputError(f"a distribution over {len(p)} inputs does not match vertices of length {a}")
    Vf = _float_matrix(V)
    pf = np.array([x.numerator / x.denominator for x in p], dtype=float)
    mu, S1, bad = mu_float_bounds(Vf, pf)
    mu_lp = np.where(np.isfinite(mu), mu, 0.0)
    method = "float-mu+highs+exact-basis"
    theta_full, duals = _basis_route(V, p, Vf, mu_lp, a, dps)
    if theta_full is None:
        method = "float-mu+solve_certified"
        theta_full, duals = _certified_route(V, mu_lp, a)
    if any(t < 0 for t in theta_full):
        raise CertificationError("LP (46) returned a negative weight")
    support = tuple(j for j in range(len(V)) if theta_full[j] > 0)
    rows = tuple(tuple(theta_full[j] * x for x in V[j]) for j in support)
    for x in range(a):
        if sum(r[x] for r in rows) != 1:
            raise CertificationError("LP (46) solution is not column-stochastic")
    yq = _best_dual(duals, Vf, mu, a)
    M, n_arb = _rigorous_max_slack(V, p, Vf, yq, mu, S1, bad, dps)
    upper = sum(yq) + a * M
    progress.step(f"LP (46): certified utility of the {len(rows)} rows (arb)")
    lower = mutual_information_bounds(rows, p, dps=dps)[0]
    if lower > upper:
        raise CertificationError("certified lower bound exceeds the dual bound in LP (46)")
    return Eq46Solution(tuple(V), tuple(float(m) for m in mu), tuple(theta_full), rows, support, lower, upper,
                        tuple(yq), p, dps, method, n_arb)


def _checked_vertices(vertices) -> list[tuple[Fraction, ...]]:
    """The vertices as tuples of Fractions, each checked exactly to lie in the simplex (the dual bound of
    :func:`solve_eq46` needs sum_x v_x = 1, as on Gamma-hat); InputError naming the first bad vertex."""
    progress.step("LP (46): checking the vertices exactly", len(vertices), "vertices")
    V = [v if type(v) is tuple and all(type(x) is Fraction for x in v) else tuple(_as_fraction(x) for x in v)
         for v in vertices]
    a = len(V[0])
    for j, v in enumerate(V):
        if not j & 4095:
            progress.update(j)
        if len(v) != a:
            raise InputError(f"vertex {j} has {len(v)} coordinates, expected {a}")
        d = lcm(*[x.denominator for x in v])
        if sum(x.numerator * (d // x.denominator) for x in v) != d or any(x < 0 for x in v):
            raise InputError(f"vertex {j} is not in the simplex (sum_x v_x != 1 or a negative entry): "
                             "not a vertex of Gamma-hat")
    return V


def _basis_route(V, p, Vf, mu_lp, a, dps):
    """HiGHS on LP (46) with the float mu, its final basis re-solved exactly: (theta on every vertex, candidate
    duals: the basis dual in arb, else HiGHS's row duals with both signs); (None, []) when HiGHS fails or the
    basis is singular or infeasible."""
    try:
        res = _highs_lp46(Vf, mu_lp)
    except Exception:  # pragma: no cover - HiGHS failure: the exact route below
        res = None
    if res is None:
        return None, []
    basic, slack_rows, rd = res
    progress.step(f"LP (46): exact basis and its dual in arb ({len(basic)} columns)")
    th = _exact_basis_theta(V, basic, slack_rows, a)
    if th is None:
        return None, []
    theta_full = [Fraction(0)] * len(V)
    for j, t in zip(basic, th, strict=True):
        theta_full[j] = t
    yb = _arb_basis_dual(V, p, basic, slack_rows, a, dps)
    if yb is not None:
        return theta_full, [yb]
    return theta_full, [[Fraction(float(t)) for t in rd], [Fraction(float(-t)) for t in rd]]


def _certified_route(V, mu_lp, a):
    """The fallback: :func:`rldp_verify.core.lp.solve_certified` on the float mu taken as exact rationals (exact
    simplex repair): (theta, [its exact dual])."""
    progress.step("LP (46): exact simplex repair (solve_certified; no count)")
    from rldp_verify.core.lp import solve_certified

    n = len(V)
    c = [Fraction(float(m)) for m in mu_lp]
    E = [[V[j][x] for j in range(n)] for x in range(a)]
    r = solve_certified(c, [], [], E, [Fraction(1)] * a, lower=[Fraction(0)] * n)
    if r.status != "optimal":
        raise CertificationError(f"LP (46) ended with status {r.status}")
    return list(r.x), [list(r.dual[:a])]


def _best_dual(duals, Vf, mu, a):
    """The candidate dual with the smallest float bound sum_x y_x + |X| max_v (mu(v) - v . y) (bounded
    rigorously afterwards by :func:`_rigorous_max_slack`)."""
    if not duals:
        raise CertificationError("no dual vector for LP (46)")
    fl = []
    for d in duals:
        df = np.array([float(t) for t in d], dtype=float)
        fl.append(float(np.sum(df)) + a * float(np.max(np.where(np.isfinite(mu), mu - Vf @ df, np.inf))))
    return duals[int(np.argmin(fl))]


def polyopt_from_bounds(phat, lower, eps, *, include_same_s: bool = True, active=None, name: str = "PolyOpt",
                        guarantee: str | None = None, sensitive=None, public=None, extra: dict | None = None,
                        dps: int = DEFAULT_DPS, digits: int = DEFAULT_DIGITS, notes=()):
    """PolyOpt for a given table of (rational) lower bounds ``lower`` (|S| x |U|).

    The guarantee is Theorem 2's: (eps, F)-RLDP for every F with F_{U|s} subset
    {R : R_u >= lower[s][u]} for all s (the caller's responsibility: use certified lower bounds)."""
    table = phat_table(phat)
    S, U = labels_for(table, sensitive, public)
    level = privacy_level(eps, digits=digits, dps=dps)
    L = check_lower_table(lower, len(S), len(U))
    V = gamma_hat_vertices(L, level.exp_eps, include_same_s=include_same_s, active=active)
    sol = solve_eq46(V, [v for r in table for v in r], dps=dps)
    Y = [f"y{i + 1}" for i in range(len(sol.rows))]
    g = guarantee or ("(eps, F)-RLDP for every F with F_{U|s} in D_s = {R : R_u >= L_{u|s}} (Theorem 2"
                      + ("" if include_same_s else ", relaxed cone: pairs s1 != s2") + ")")
    params = {
        "include_same_s": include_same_s,
        "lower_bounds": fstr_table(L),
        "vertices": len(V),
        "used_vertices": [[fraction_str(x) for x in V[j]] for j in sol.support],
        "theta": [fraction_str(sol.theta[j]) for j in sol.support],
        "optimum_bracket": [fraction_str(sol.lower), fraction_str(sol.upper)],
        "optimum_gap": float(sol.gap),
        **(extra or {}),
    }
    if active is not None:
        params["active_sensitive"] = sorted(set(active))
    mech = build([list(r) for r in sol.rows], S, U, Y, name=name, level=level, guarantee=g, parameters=params,
                 phat=table, notes=notes, dps=dps)
    return mech, sol


def polyopt(ball, eps, *, relaxed: bool = False, sensitive=None, public=None, dps: int = DEFAULT_DPS,
            digits: int = DEFAULT_DIGITS):
    """PolyOpt for the Rényi ball ``ball`` (a :class:`~rldp_verify.rldp.uncertainty.RenyiBall`): lower bounds
    L'_{u|s} <= L_{u|s}(F) certified and floored to 10^-digits, e^eps rounded down. Returns the
    :class:`~rldp_verify.rldp.mechio.Mechanism` (the LP certificate is in ``parameters``)."""
    from rldp_verify.rldp.uncertainty import RenyiBall

    if not isinstance(ball, RenyiBall):
        raise InputError(f"PolyOpt needs a RenyiBall (the uncertainty set F), got {type(ball).__name__}")
    L = lower_bounds(ball, digits=digits, dps=dps)
    name = "PolyOpt-relaxed" if relaxed else "PolyOpt"
    extra = {"alpha": fraction_str(ball.alpha), "radius_upper": str(ball.radius), "radius_provenance": ball.provenance,
             "lower_rounding": f"L'_{{u|s}} <= L_{{u|s}}(F): certified lower bound floored to 10^-{digits}"}
    g = ("(eps, F)-RLDP, F the Rényi ball of order alpha and radius <= radius_upper around P-hat "
         "(Theorem 2" + (" for the relaxed cone, claim rldp.relaxed-polyopt" if relaxed else "") + ")")
    mech, _ = polyopt_from_bounds(ball.phat, L, eps, include_same_s=not relaxed, name=name, guarantee=g,
                                  sensitive=sensitive, public=public, extra=extra, dps=dps, digits=digits)
    return mech
