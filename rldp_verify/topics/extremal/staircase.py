"""The staircase linear program: pattern matrix S^(k) and a certified LP solver.

Source: 004_3b35ffa09c03afc4.txt (Kairouz, Oh & Viswanath, "Extremal Mechanisms for Local
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

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

import flint
import numpy as np
from scipy import sparse

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.lp import highs_solve, solve_square
from rldp_verify.core.numbers import check_exp_eps, exact
from rldp_verify.core.rigorous import as_arb

Column = tuple  # tuple of Fractions


def check_t(t) -> Fraction:
    """``t = e^eps`` as an exact rational >= 1 (InputError otherwise; :func:`~rldp_verify.core.numbers.check_exp_eps`)."""
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
    Gauss-Jordan with exact Fraction pivots applied to the balls (a rigorous enclosure).
    Raises ValueError when A is singular.
    """
    if all(isinstance(v, (int, Fraction)) for v in b):
        x = solve_square(A, [Fraction(v) for v in b])
        if x is None:
            raise ValueError("singular matrix")
        return x
    n = len(A)
    M = [list(map(Fraction, row)) for row in A]
    rhs = list(b)
    for c in range(n):
        p = next((r for r in range(c, n) if M[r][c] != 0), None)
        if p is None:
            raise ValueError("singular matrix")
        M[c], M[p] = M[p], M[c]
        rhs[c], rhs[p] = rhs[p], rhs[c]
        piv = M[c][c]
        inv = 1 / piv
        M[c] = [v * inv for v in M[c]]
        rhs[c] = _scale(rhs[c], inv)
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c]
                M[r] = [a - f * bb for a, bb in zip(M[r], M[c])]
                rhs[r] = rhs[r] - _scale(rhs[c], f)
    return rhs


def _scale(x, q: Fraction):
    if isinstance(x, flint.arb):
        return x * flint.fmpq(q.numerator, q.denominator)
    return x * q


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
    from itertools import combinations

    seen = set()
    order = sorted(range(len(columns)), key=lambda j: abs(red[j]))
    support = [j for j in range(len(x)) if x[j] > 1e-12]
    starts = [list(basic), support]
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
            key = tuple(sorted(B))
            if len(B) == k and key not in seen:
                seen.add(key)
                yield key
    if dual_order is not None and rank([columns[c] for c in support]) == len(support):
        B = list(support)
        for j in dual_order:
            if len(B) == k:
                break
            if j not in B and rank([columns[c] for c in B + [j]]) == len(B) + 1:
                B.append(j)
        key = tuple(sorted(B))
        if len(B) == k and key not in seen:
            seen.add(key)
            yield key
    if len(support) <= k and rank([columns[c] for c in support]) == len(support):
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
    """The exact rank of the vectors ``cols`` (Fractions), by Gaussian elimination."""
    M = [list(c) for c in cols]
    r = 0
    ncols = len(M[0]) if M else 0
    for c in range(ncols):
        p = next((i for i in range(r, len(M)) if M[i][c] != 0), None)
        if p is None:
            continue
        M[r], M[p] = M[p], M[r]
        for i in range(len(M)):
            if i != r and M[i][c] != 0:
                f = M[i][c] / M[r][c]
                M[i] = [a - f * b for a, b in zip(M[i], M[r])]
        r += 1
    return r


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
    for j, th in zip(basis, theta_B):
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
    for j, th in zip(basis, theta_B):
        theta[j] = th
    value = muB[0] * as_arb(theta_B[0])
    for r in range(1, k):
        value = value + muB[r] * as_arb(theta_B[r])
    gap = dps_gap  # alpha' = alpha + (eta/k) 1 is dual feasible and 1^T alpha' = 1^T alpha + eta
    lo = value.lower()
    hi = (value + as_arb(gap)).upper()
    ball = flint.arb(lo).union(flint.arb(hi))
    return theta, ball, alpha, gap
