"""The staircase linear program: pattern matrix S^(k) and a certified LP solver.

Source: [kairouz-2016] (Kairouz, Oh & Viswanath, "Extremal Mechanisms for Local
Differential Privacy"), Sec. 2.2, Definition 3 and Theorem 4, eq. (10)-(11):

    maximize_theta  sum_j mu(S_j) theta_j   subject to  S^(k) theta = 1,  theta >= 0,

where column j (1-based) of the k x 2^k pattern matrix is ``S_j = (e^eps - 1) b_{j-1} + 1`` and
``b_m`` is the k-bit binary representation of m, most significant bit first (this reproduces the
printed S^(3)). We write ``t = e^eps`` and require ``t`` rational, so S^(k) is exact.

The objective vector ``mu`` may be exact (Fractions) or rigorous (python-flint ``arb`` balls,
e.g. KL or mutual information, whose values are irrational). :func:`solve_staircase_lp` solves in
floating point with HiGHS only to *find* an optimal basis, then re-checks it:

* the basic solution ``theta_B = B^-1 1`` is computed exactly in Fractions and must be >= 0;
* the dual ``alpha = B^-T mu_B`` is computed exactly (Fractions) or as arb balls, and every
  reduced cost ``S_j^T alpha - mu_j`` must be certainly >= 0.

Both checks passing proves optimality (weak duality, with equal objective values by construction).
If no float-suggested basis passes, :class:`~rldp_verify.core.errors.CertificationError` is raised: the
solver never returns an unchecked answer. With arb objectives a reduced cost that is exactly zero
cannot be certified ``>= 0`` (the ball straddles 0); such ties surface as CertificationError,
i.e. the routine errs towards "not certified".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import flint
import numpy as np
from scipy import sparse

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.lp import exact_rank, highs_solve, solve_square, solve_square_balls, times_exact
from rldp_verify.core.numbers import check_exp_eps, exact
from rldp_verify.core.rigorous import as_arb

Column = tuple  # tuple of Fractions


def check_t(t) -> Fraction:
    """``t = e^eps`` as an exact rational >= 1 (InputError otherwise;
    :func:`~rldp_verify.core.numbers.check_exp_eps`)."""
    return check_exp_eps(t)


def pattern_set(j: int, k: int) -> frozenset:
    """T_j = {i : S_ij = e^eps} for the 0-based column index j (bits of j, MSB = row 0)."""
    return frozenset(i for i in range(k) if (j >> (k - 1 - i)) & 1)


def pattern_index(T, k: int) -> int:
    """Inverse of :func:`pattern_set`: the 0-based column whose e^eps-rows are exactly ``T``."""
    return sum(1 << (k - 1 - i) for i in T)


def pattern_column(T, k: int, t) -> Column:
    """The staircase pattern column of the set T: t at the inputs in T, 1 elsewhere (Definition 3)."""
    t = exact(t)
    return tuple(t if i in T else Fraction(1) for i in range(k))


def pattern_matrix(k: int, t) -> list[Column]:
    """The 2^k columns of S^(k) (Definition 3), as tuples of Fractions; column j is 0-based."""
    if not isinstance(k, int) or k < 1:
        raise InputError(f"k must be a positive integer, got {k!r}")
    if k > 16:
        raise InputError(f"k = {k} gives 2^k = {2**k} patterns; refusing k > 16")
    t = check_t(t)
    return [pattern_column(pattern_set(j, k), k, t) for j in range(2**k)]


def mechanism_from_theta(columns: Sequence[Column], theta: Sequence[Fraction]) -> list[list[Fraction]]:
    """Q = S Theta restricted to the non-zero theta_j (eq. (10)); rows are inputs x, columns outputs y."""
    used = [j for j, th in enumerate(theta) if th != 0]
    k = len(columns[0])
    return [[columns[j][i] * theta[j] for j in used] for i in range(k)]


# ---------------------------------------------------------------- exact linear algebra helpers

def solve_exact_matrix(A: list[list[Fraction]], b: list) -> list:
    """Solve the square system A x = b with an exact matrix A; b may hold arb balls.

    Rational b: the one exact square solve, :func:`rldp_verify.core.lp.solve_square`. A b with arb balls:
    :func:`rldp_verify.core.lp.solve_square_balls` (Gauss-Jordan with exact Fraction pivots applied to the
    balls, a rigorous enclosure). Raises ValueError when A is singular.
    """
    if all(isinstance(v, (int, Fraction)) for v in b):
        x = solve_square(A, [Fraction(v) for v in b])
        if x is None:
            raise ValueError("singular matrix")
        return x
    return solve_square_balls(A, b)


_scale = times_exact


def _nonneg(x) -> bool:
    """Certainly >= 0 (Fractions exactly; arb balls only when the whole ball is >= 0)."""
    if isinstance(x, flint.arb):
        return bool(x >= 0)
    return x >= 0


# ---------------------------------------------------------------- the LP

@dataclass(frozen=True)
class StaircaseSolution:
    """A certified optimum of LP (11).

    ``theta`` is exact (Fractions), ``value`` is ``mu^T theta`` (Fraction or arb), ``alpha`` is the
    certifying dual of (69)/(81) (Fractions or arb), ``basis`` the 0-based basic column indices.
    When reduced costs tie exactly at 0 (alternative optima) an arb certificate of ">= 0" is
    impossible; then ``gap`` > 0 and ``value`` is an arb ball containing [mu^T theta, mu^T theta + gap]
    (OPT is certainly inside): the value is enclosed, but theta is only optimal up to ``gap``.
    """

    k: int
    t: Fraction
    theta: tuple
    value: object
    alpha: tuple
    basis: tuple
    exact: bool
    gap: Fraction = Fraction(0)  # 0: certified optimal basis; > 0: OPT lies in [mu^T theta, mu^T theta + gap]

    @property
    def support(self) -> tuple:
        """The indices j with theta_j != 0."""
        return tuple(j for j, th in enumerate(self.theta) if th != 0)

    def mechanism(self) -> list[list[Fraction]]:
        """The optimal mechanism Q = S Theta (rows x, columns the used outputs)."""
        return mechanism_from_theta(pattern_matrix(self.k, self.t), self.theta)


def _float(x) -> float:
    if isinstance(x, flint.arb):
        return float(x.mid())
    return float(x)


def _highs_basis(columns, mu_float):
    """HiGHS (:func:`rldp_verify.core.lp.highs_solve`) on  min -mu . theta  s.t.  S theta = 1, theta >= 0;
    returns (basic columns, x, reduced costs of the maximisation), floats (a proposal, re-checked exactly)."""
    k, n = len(columns[0]), len(columns)
    S = np.array([[float(columns[j][i]) for j in range(n)] for i in range(k)], dtype=float)
    sol = highs_solve(-np.asarray(mu_float, dtype=float), np.zeros(n), np.full(n, np.inf), np.ones(k), np.ones(k),
                      sparse.csr_matrix(S), maximize=False,
                      options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if not sol.optimal:
        raise CertificationError(f"HiGHS did not find an optimum: {sol.status}")
    basic = [j for j, st in enumerate(sol.col_basis) if st == "B"]
    x = list(sol.x)
    y = list(sol.row_dual)  # duals of the (minimisation) rows
    # reduced costs of the maximisation: r_j = S_j^T alpha - mu_j with alpha = -y
    red = [sum(-y[i] * float(columns[j][i]) for i in range(k)) - mu_float[j] for j in range(n)]
    return basic, x, red


def _highs_dual_tight(columns, mu_float):
    """Solve the dual LP min 1^T alpha s.t. S^T alpha >= mu (alpha free) with HiGHS simplex; return the
    constraint indices j ordered by slack (a dual *vertex*: its tight constraints span R^k)."""
    k, n = len(columns[0]), len(columns)
    ST = np.array([[float(columns[j][i]) for i in range(k)] for j in range(n)], dtype=float)
    sol = highs_solve(np.ones(k), np.full(k, -np.inf), np.full(k, np.inf), np.asarray(mu_float, dtype=float),
                      np.full(n, np.inf), sparse.csr_matrix(ST), maximize=False, options={"solver": "simplex"})
    if not sol.optimal:
        return []
    alpha = list(sol.x)
    slack = [sum(alpha[i] * float(columns[j][i]) for i in range(k)) - mu_float[j] for j in range(n)]
    return sorted(range(n), key=lambda j: slack[j])


def _candidate_bases(k, basic, x, red, columns, tries=6, extra=8, max_combos=400, dual_order=None):
    """Yield k-column bases: HiGHS' basis, the support of x padded by small reduced costs, then
    (for degenerate optima) every completion of the support from the columns of smallest |reduced cost|."""
    seen: set[tuple] = set()
    order = sorted(range(len(columns)), key=lambda j: abs(red[j]))
    support = [j for j in range(len(x)) if x[j] > 1e-12]
    yield from _padded_bases(k, [list(basic), support], order, columns, tries, seen)
    if dual_order is not None and rank([columns[c] for c in support]) == len(support):
        B = list(support)
        for j in dual_order:
            if len(B) == k:
                break
            if j not in B and rank([columns[c] for c in B + [j]]) == len(B) + 1:
                B.append(j)
        yield from _new_basis(B, k, seen)
    if len(support) <= k and rank([columns[c] for c in support]) == len(support):
        yield from _support_completions(k, support, order, columns, extra, max_combos, seen)


def _new_basis(B, k: int, seen: set):
    """Yield B (sorted) when it has k columns and was not yielded before."""
    key = tuple(sorted(B))
    if len(B) == k and key not in seen:
        seen.add(key)
        yield key


def _padded_bases(k, starts, order, columns, tries, seen):
    """Each start (its first k distinct columns) padded greedily by independent columns of ``order``, rotated by
    0 .. tries - 1 places."""
    for start in starts:
        for shift in range(tries):
            B = list(dict.fromkeys(start))[:k]
            pool = [j for j in order if j not in B]
            pool = pool[shift:] + pool[:shift]
            for j in pool:
                if len(B) == k:
                    break
                trial = B + [j]
                if rank([columns[c] for c in trial]) == len(trial):
                    B = trial
            yield from _new_basis(B, k, seen)


def _support_completions(k, support, order, columns, extra, max_combos, seen):
    """The support completed by every choice of columns among the first of ``order`` (at most ``max_combos``)."""
    from itertools import combinations

    pool = [j for j in order if j not in support][: (k - len(support)) + extra]
    for n_done, extra_cols in enumerate(combinations(pool, k - len(support))):
        if n_done >= max_combos:
            break
        B = support + list(extra_cols)
        key = tuple(sorted(B))
        if key not in seen and rank([columns[c] for c in B]) == k:
            seen.add(key)
            yield key


def rank(cols) -> int:
    """The exact rank of the vectors ``cols`` (Fractions): :func:`rldp_verify.core.lp.exact_rank`."""
    return exact_rank(cols)


def _primal_basis(columns: Sequence[Column], basis: Sequence[int]):
    """(B, theta_B): the k x k basis matrix (rows = constraints) and the exact theta_B >= 0 solving
    B theta_B = 1, or None when B is singular or theta_B has a negative entry."""
    k = len(columns[0])
    B = [[columns[j][i] for j in basis] for i in range(k)]
    try:
        theta_B = solve_exact_matrix(B, [Fraction(1)] * k)
    except ValueError:
        return None
    if any(th < 0 for th in theta_B):
        return None
    return B, theta_B


def arb_dot(alpha, col):
    """alpha . col in arb (alpha arb balls, col exact), summed left to right: S_j^T alpha of a reduced cost."""
    s = alpha[0] * as_arb(col[0])
    for i in range(1, len(col)):
        s = s + alpha[i] * as_arb(col[i])
    return s


def certify_basis(columns: Sequence[Column], mu: Sequence, basis: Sequence[int]):
    """Check that ``basis`` is an optimal basis of LP (11); return the solution or None.

    Exact when ``mu`` holds Fractions; rigorous (arb) otherwise. Never returns an unchecked basis.
    """
    k = len(columns[0])
    primal = _primal_basis(columns, basis)
    if primal is None:
        return None
    B, theta_B = primal
    is_exact = all(isinstance(m, (int, Fraction)) for m in mu)
    muB = [mu[j] if is_exact else as_arb(mu[j]) for j in basis]
    BT = [[B[i][r] for i in range(k)] for r in range(k)]
    alpha = solve_exact_matrix(BT, muB)
    for j, col in enumerate(columns):
        if j in basis:
            continue
        s = sum((_scale(alpha[i], col[i]) for i in range(1, k)), _scale(alpha[0], col[0]))
        r = s - (mu[j] if is_exact else as_arb(mu[j]))
        if not _nonneg(r):
            return None
    theta = [Fraction(0)] * len(columns)
    for j, th in zip(basis, theta_B, strict=True):
        theta[j] = th
    value = sum((_scale(muB[r], theta_B[r]) for r in range(1, k)), _scale(muB[0], theta_B[0]))
    return theta, value, alpha


def solve_staircase_lp(k: int, t, mu: Sequence | Callable) -> StaircaseSolution:
    """Solve LP (11) for the pattern matrix S^(k) at ``t = e^eps`` (rational) and certify it.

    ``mu`` is either the list of the 2^k objective coefficients mu(S_j) (Fractions or arb balls) or a
    callable ``mu(column) -> value`` evaluated on each column. Raises CertificationError when no
    basis can be certified (e.g. exactly-tied reduced costs with arb data).
    """
    t = check_t(t)
    columns = pattern_matrix(k, t)
    if callable(mu):
        mu = [mu(c) for c in columns]
    mu = list(mu)
    if len(mu) != len(columns):
        raise InputError(f"mu has {len(mu)} entries, expected 2^k = {len(columns)}")
    if t == 1:
        raise InputError("t = e^eps = 1 (eps = 0) makes S^(k) rank one; use t > 1")
    mu_f = [_float(m) for m in mu]
    scale = max((abs(v) for v in mu_f), default=0.0)
    if scale > 0:  # HiGHS works with absolute tolerances: give it O(1) data (the re-check is exact)
        mu_f = [v / scale for v in mu_f]
    basic, x, red = _highs_basis(columns, mu_f)
    dual_order = _highs_dual_tight(columns, mu_f)
    for B in _candidate_bases(k, basic, x, red, columns, dual_order=dual_order):
        res = certify_basis(columns, mu, B)
        if res is not None:
            theta, value, alpha = res
            return StaircaseSolution(k, t, tuple(theta), value, tuple(alpha), tuple(B),
                                     all(isinstance(m, (int, Fraction)) for m in mu))
    # Fallback for exact ties: inflate the dual by eta * (1/k) 1 (S_j^T 1/k >= 1 since S_j >= 1), which
    # turns reduced costs >= -eta into certified >= 0; weak duality then encloses OPT within eta.
    for B in _candidate_bases(k, basic, x, red, columns, dual_order=dual_order):
        res = _certify_within(columns, mu, B, dps_gap=Fraction(1, 10**25))
        if res is not None:
            theta, value, alpha, gap = res
            return StaircaseSolution(k, t, tuple(theta), value, tuple(alpha), tuple(B), False, gap)
    raise CertificationError(f"no certified optimal basis for k={k}, t={t} (ties or ill-conditioning)")


def _certify_within(columns, mu, basis, dps_gap: Fraction):
    """Like :func:`certify_basis` but allows reduced costs >= -dps_gap; returns (theta, ball, alpha, gap)."""
    k = len(columns[0])
    primal = _primal_basis(columns, basis)
    if primal is None:
        return None
    B, theta_B = primal
    muB = [as_arb(mu[j]) for j in basis]
    BT = [[B[i][r] for i in range(k)] for r in range(k)]
    alpha = solve_exact_matrix(BT, muB)
    eta = as_arb(dps_gap)
    for j, col in enumerate(columns):
        if j in basis:
            continue
        s = arb_dot(alpha, col)
        if not (s - as_arb(mu[j]) + eta >= 0):
            return None
    theta = [Fraction(0)] * len(columns)
    for j, th in zip(basis, theta_B, strict=True):
        theta[j] = th
    value = muB[0] * as_arb(theta_B[0])
    for r in range(1, k):
        value = value + muB[r] * as_arb(theta_B[r])
    gap = dps_gap  # alpha' = alpha + (eta/k) 1 is dual feasible and 1^T alpha' = 1^T alpha + eta
    lo = value.lower()
    hi = (value + as_arb(gap)).upper()
    ball = flint.arb(lo).union(flint.arb(hi))
    return theta, ball, alpha, gap


# --- a float screen: LP (11) for many objectives at once -------------------------------------------------------

def pattern_subset_sums(X) -> np.ndarray:
    """``sum_{i in T_j} X[..., i]`` for every pattern j (0-based, the order of :func:`pattern_set`), shape (..., 2^k).

    Computed by doubling (each bit adds one coordinate to the sums of the patterns without it), no matrix product:
    the result does not depend on the BLAS library or its thread count. ``X @ S^(k)`` is
    ``X.sum(-1) + (t - 1) * pattern_subset_sums(X)``. Float; no error bound beyond float64 summation of k terms.
    """
    X = np.asarray(X, dtype=float)
    k = X.shape[-1]
    out = np.zeros(X.shape[:-1] + (2**k,))
    for b in range(k):   # bit b of j is row k - 1 - b (MSB = row 0)
        out[..., 2**b:2**(b + 1)] = out[..., :2**b] + X[..., k - 1 - b, None]
    return out


def pattern_matrix_float(k: int, t: float) -> np.ndarray:
    """S^(k) in float64, k x 2^k, columns in the order of :func:`pattern_set` (t at the rows of T_j, 1 elsewhere)."""
    return 1.0 + (float(t) - 1.0) * pattern_subset_sums(np.eye(k))


@dataclass(frozen=True)
class StaircaseBatch:
    """:func:`solve_staircase_lp_batch`'s answer, one entry per objective (float64 arrays).

    ``upper`` is an upper bound on the optimum of LP (11) from the final dual vector alpha: for every alpha,
    OPT <= 1^T alpha + k max(0, max_j (mu_j - S_j^T alpha) / |S_j|_1), because a feasible theta has
    sum_j theta_j |S_j|_1 = sum of the k rows of S^(k) theta = k. It holds whatever the simplex did, up to the
    float rounding of that one expression. ``lower`` is mu . theta of the final basic solution
    (theta_B = B^-1 1, a float proposal; its ``basis`` can be certified exactly by :func:`certify_basis`).
    ``iterations`` counts the pivots; ``fallback`` marks the objectives the
    batched simplex did not finish within its pivot limit and HiGHS solved instead (the same bound from HiGHS's
    row duals)."""

    upper: np.ndarray
    lower: np.ndarray
    iterations: np.ndarray
    fallback: np.ndarray
    basis: np.ndarray      # n x k final basic columns (pattern indices); meaningless where ``fallback``

    @property
    def relative_gap(self) -> np.ndarray:
        """(upper - lower) / |upper|: how far the float proposal is from the bound (0 where both are 0)."""
        den = np.where(self.upper == 0, 1.0, np.abs(self.upper))
        return (self.upper - self.lower) / den


def solve_staircase_lp_batch(k: int, t: float, MU, *, max_iter: int | None = None) -> StaircaseBatch:
    """LP (11) (Sec. 2.2, eq. (11) of [kairouz-2016]) in float64 for every row of ``MU`` (n x 2^k, the
    objectives mu(S_j) in the order of :func:`pattern_set`), at ``t = e^eps > 1``: max mu . theta s.t.
    S^(k) theta = 1, theta >= 0.

    A primal simplex run on all n objectives at once (numpy, batched k x k solves): it starts from the basis of
    the k single-element patterns (randomized response's columns; B = (t - 1) I + 1 1^T, B^-1 1 = 1/(t - 1 + k) > 0),
    enters the column of largest reduced cost per unit of |S_j|_1 (computed with :func:`pattern_subset_sums`),
    leaves by the ratio test (ties to the largest pivot), and stops an objective when no such reduced cost exceeds
    1e-12 of max_j |mu_j| / |S_j|_1 (the objective's scale: mu is positively homogeneous, and at large t the
    mu_j of patterns with several t entries are ~t times the optimum) plus the rounding level of S^T alpha.
    Objectives not finished after ``max_iter`` pivots (default 50 k + 100) are
    solved by HiGHS (:func:`~rldp_verify.core.lp.highs_solve`). A float screen, not a certificate: the answer's
    ``upper`` is a bound (see :class:`StaircaseBatch`), ``lower`` a proposal; :func:`solve_staircase_lp` certifies
    one instance exactly. Errs: ``upper`` by float rounding only, never by the simplex's tolerances.
    """
    if not isinstance(k, int) or not 1 <= k <= 16:
        raise InputError(f"k must be an integer in 1..16, got {k!r}")
    t = float(t)
    if not t > 1.0 or not np.isfinite(t):
        raise InputError(f"t = e^eps must be a finite float > 1, got {t!r}")
    MU = np.atleast_2d(np.asarray(MU, dtype=float))
    if MU.shape[1] != 2**k or not np.isfinite(MU).all():
        raise InputError(f"MU must be n x 2^k = n x {2**k} with finite entries, got shape {MU.shape}")
    n = MU.shape[0]
    max_iter = 50 * k + 100 if max_iter is None else max_iter
    S = pattern_matrix_float(k, t)
    norm1 = S.sum(axis=0)                        # |S_j|_1 = k + (t - 1) |T_j|
    scale = (np.abs(MU) / norm1).max(axis=1)
    scale[scale == 0] = 1.0
    M = MU / scale[:, None]                      # |M_j| <= |S_j|_1
    B = np.tile(np.array([1 << (k - 1 - i) for i in range(k)], dtype=np.int64), (n, 1))  # singleton {i}: row i
    upper, lower = np.full(n, np.nan), np.full(n, np.nan)
    iterations, done = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)
    act = np.arange(n)
    ones = np.ones((1, k, 1))
    for it in range(max_iter + 1):
        if act.size == 0:
            break
        Bm = S[:, B[act]].transpose(1, 0, 2)                                    # (a, rows, basic columns)
        muB = np.take_along_axis(M[act], B[act], axis=1)
        alpha = np.linalg.solve(Bm.transpose(0, 2, 1), muB[..., None])[..., 0]  # B^T alpha = mu_B
        rho = (M[act] - (alpha.sum(1)[:, None] + (t - 1.0) * pattern_subset_sums(alpha))) / norm1
        enter = rho.argmax(axis=1)
        rmax = rho[np.arange(act.size), enter]
        theta = np.linalg.solve(Bm, np.broadcast_to(ones, (act.size, k, 1)))[..., 0]
        # rounding level of rho_j: 2^-52 (|M_j| + |1^T alpha| + (t - 1) sum_{T_j} |alpha|) / |S_j|_1, times a margin
        stop = rmax <= 1e-12 + 1e-14 * (1.0 + 2.0 * np.abs(alpha).sum(1))
        if stop.any():
            idx = act[stop]
            upper[idx] = (alpha[stop].sum(1) + k * np.maximum(rmax[stop], 0.0)) * scale[idx]
            lower[idx] = (theta[stop] * muB[stop]).sum(1) * scale[idx]
            iterations[idx], done[idx] = it, True
        go = ~stop
        if it == max_iter or not go.any():
            break
        act, Bm, enter, theta = act[go], Bm[go], enter[go], theta[go]
        d = np.linalg.solve(Bm, S[:, enter].T[..., None])[..., 0]             # B^-1 S_enter
        piv = d > 1e-12 * np.abs(d).max(axis=1, keepdims=True)
        ratio = np.where(piv, np.maximum(theta, 0.0) / np.where(piv, d, 1.0), np.inf)
        rmin = ratio.min(axis=1, keepdims=True)
        leave = np.where(ratio <= rmin * (1 + 1e-9) + 1e-15, d, -np.inf).argmax(axis=1)
        B[act, leave] = enter        # a pivot always exists: the feasible set is bounded (sum theta <= 1)
    fallback = ~done
    for i in np.flatnonzero(fallback):
        upper[i], lower[i] = _highs_bound(S, M[i])
        upper[i] *= scale[i]
        lower[i] *= scale[i]
        iterations[i] = max_iter
    return StaircaseBatch(upper, lower, iterations, fallback, B)


def _highs_bound(S: np.ndarray, mu: np.ndarray) -> tuple[float, float]:
    """(upper, lower) for one objective by HiGHS on the full LP: the dual bound of :class:`StaircaseBatch` from
    HiGHS's row duals, and HiGHS's objective value."""
    k, m = S.shape
    sol = highs_solve(-mu, np.zeros(m), np.full(m, np.inf), np.ones(k), np.ones(k), sparse.csr_matrix(S),
                      maximize=False,
                      options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if not sol.optimal:
        raise CertificationError(f"HiGHS did not solve LP (11): {sol.status}")
    alpha = -np.asarray(sol.row_dual)
    rho = (mu - alpha @ S) / S.sum(axis=0)
    return float(alpha.sum() + k * max(float(rho.max()), 0.0)), float(mu @ sol.x)
