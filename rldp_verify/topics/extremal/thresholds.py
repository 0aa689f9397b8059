"""Optimality thresholds eps* of the binary and randomized-response (RR) mechanisms.

Source: [kairouz-2016] (Kairouz, Oh & Viswanath), Lemma 24 with eq. (56)-(67)
(binary mechanism dominates every eps-LDP mechanism for eps <= eps*), Theorems 5, 8, 12, 14 and
their proofs (dual certificates (82), (98), (129)).

Three kinds of threshold, all with t = e^eps:

* :func:`universal_binary_threshold` -- closed form. The ratio bounds (56) hold for every mechanism
  iff they hold for every staircase pattern T_j (the ratio is linear-fractional in the column, so
  its extremes over the cube [1, t]^k are attained at patterns). With a = t - 1, Delta(A) = P0(A) -
  P1(A) and T = {x : P0(x) >= P1(x)}, pattern T_j imposes (eq. (60), (65))

      upper:  (Delta(T) - Delta(T_j)) + a (P0(T) P1(T_j) - P1(T) P0(T_j))     >= 0,
      lower:  (Delta(T) + Delta(T_j)) + a (P0(T_j) P1(T^c) - P1(T_j) P0(T^c)) >= 0,

  each of the form D + a C >= 0 with D >= 0, so the admissible a form an interval [0, a*] with
  a* = min over C < 0 of D / (-C): exact and rational. eps* = log(1 + a*) (eq. (61) for the upper
  side). a* = 0 happens exactly when some pattern ties with T (e.g. P0(x) = P1(x) for some x).
* :func:`rr_status` -- RR is a non-degenerate basic solution of LP (11) (basis = the k singleton
  patterns, theta_i = 1/(t+k-1) > 0). It is optimal iff every reduced cost
  g_j = S_j^T alpha* - mu_j is >= 0, alpha* being the unique dual (82)/(129). Certified with arb.
* :func:`binary_status` -- binary is optimal iff some basis containing the patterns T and T^c has a
  feasible dual; certified by :func:`rldp_verify.topics.extremal.staircase.certify_basis`. "Not optimal" is
  certified by a certified LP optimum whose value is certainly larger.

:func:`bracket_threshold` scans a grid of rational t and bisects the last change of status.
Certified: the status at every evaluated point. Not certified: the status *between* evaluated
points (the returned ``method`` says so). Undecidable points (ties at working precision) are
reported, never guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import DEFAULT_DPS
from rldp_verify.core.rigorous import arb_precision, as_arb
from rldp_verify.topics.extremal.staircase import (
    arb_dot,
    certify_basis,
    check_t,
    pattern_index,
    pattern_matrix,
    pattern_set,
    solve_exact_matrix,
    solve_staircase_lp,
)

OPTIMAL, SUBOPTIMAL, UNDECIDED = "optimal", "suboptimal", "undecided"


# ------------------------------------------------------------------ closed form (Lemma 24)

@dataclass(frozen=True)
class UniversalThreshold:
    """a* = t* - 1 (None = no constraint, i.e. eps* = infinity) and the binding pattern."""

    a_star: Fraction | None
    binding: tuple[Any, ...]  # (side, sorted tuple of T_j) or ()
    T: frozenset

    @property
    def t_star(self):
        """e^eps* = 1 + a*, or None when no pattern constraint binds."""
        return None if self.a_star is None else 1 + self.a_star


def universal_binary_threshold(P0, P1) -> UniversalThreshold:
    """Exact a* such that Lemma 24's bounds (56) hold for all mechanisms iff e^eps - 1 <= a*."""
    k = len(P0)
    T = frozenset(i for i in range(k) if P0[i] >= P1[i])
    Tc = frozenset(range(k)) - T

    def P(v, A):
        return sum((Fraction(v[i]) for i in A), Fraction(0))

    dT = P(P0, T) - P(P1, T)
    best: Fraction | None = None
    binding: tuple[Any, ...] = ()
    for j in range(2**k):
        Tj = pattern_set(j, k)
        dTj = P(P0, Tj) - P(P1, Tj)
        for side, D, C in (
            ("upper", dT - dTj, P(P0, T) * P(P1, Tj) - P(P1, T) * P(P0, Tj)),
            ("lower", dT + dTj, P(P0, Tj) * P(P1, Tc) - P(P1, Tj) * P(P0, Tc)),
        ):
            assert D >= 0, "Delta(T) is the maximum of Delta"
            if C < 0:
                a = D / (-C)
                if best is None or a < best:
                    best, binding = a, (side, tuple(sorted(Tj)))
    return UniversalThreshold(best, binding, T)


# ------------------------------------------------------------------ status at one t

@dataclass
class Status:
    """The certified status of a mechanism at t = e^eps, with the certificate's details."""
    status: str
    t: Fraction
    detail: dict = field(default_factory=dict)


def _sub(a, b):
    return a - b


def rr_status(mu: Callable, k: int, t, *, dps: int = DEFAULT_DPS) -> Status:
    """Is randomized response optimal for LP (11) at t? Certified via the reduced costs g_j."""
    t = check_t(t)
    with arb_precision(dps):
        cols = pattern_matrix(k, t)
        mus = [mu(c) for c in cols]
        basis = [pattern_index({i}, k) for i in range(k)]
        B = [[cols[j][i] for j in basis] for i in range(k)]
        BT = [[B[i][r] for i in range(k)] for r in range(k)]
        alpha = solve_exact_matrix(BT, [as_arb(mus[j]) for j in basis])
        worst, worst_j, undecided = None, -1, []
        for j, col in enumerate(cols):
            if j in basis:
                continue
            s = arb_dot(alpha, col)
            g = s - as_arb(mus[j])
            if g < 0:
                if worst is None or float(g.mid()) < float(worst.mid()):
                    worst, worst_j = g, j
            elif not g >= 0:
                undecided.append(j)
        detail = {"alpha": [a.str(12) for a in alpha]}
        if worst is not None:
            detail.update(improving_pattern=sorted(pattern_set(worst_j, k)), reduced_cost=worst.str(12))
            return Status(SUBOPTIMAL, t, detail)
        if undecided:
            detail.update(undecided_patterns=[sorted(pattern_set(j, k)) for j in undecided])
            return Status(UNDECIDED, t, detail)
        return Status(OPTIMAL, t, detail)


def binary_status(mu: Callable, k: int, t, T, *, dps: int = DEFAULT_DPS) -> Status:
    """Is the two-output mechanism on the set T (columns S_T/(1+t), S_Tc/(1+t)) optimal at t?"""
    t = check_t(t)
    T = frozenset(T)
    Tc = frozenset(range(k)) - T
    if not T or not Tc:
        raise InputError("binary mechanism needs a proper non-empty set T")
    with arb_precision(dps):
        cols = pattern_matrix(k, t)
        mus = [mu(c) for c in cols]
        jT, jTc = pattern_index(T, k), pattern_index(Tc, k)
        bin_val = as_arb(mus[jT]) * as_arb(1 / (1 + t)) + as_arb(mus[jTc]) * as_arb(1 / (1 + t))
        # cheap certificate of sub-optimality: a better two-output mechanism (binary on another set)
        better = _better_binary(mus, k, t, bin_val)
        if better is not None:
            return better
        try:
            sol = solve_staircase_lp(k, t, mus)
        except CertificationError as exc:
            return Status(UNDECIDED, t, {"reason": str(exc)})
        opt = as_arb(sol.value)
        detail: dict[str, Any] = {"BIN": bin_val.str(15), "OPT": opt.str(15),
                                  "opt_support": [sorted(pattern_set(j, k)) for j in sol.support]}
        if opt > bin_val:
            detail["witness_theta"] = {str(sorted(pattern_set(j, k))): str(sol.theta[j]) for j in sol.support}
            return Status(SUBOPTIMAL, t, detail)
        if sol.gap == 0 and set(sol.support) <= {jT, jTc}:
            return Status(OPTIMAL, t, detail)
        Bs = _binary_optimal_basis(cols, mus, sol.alpha, jT, jTc, k)
        if Bs is not None:
            detail["certified_basis"] = [sorted(pattern_set(j, k)) for j in Bs]
            return Status(OPTIMAL, t, detail)
        return Status(UNDECIDED, t, detail)


def _better_binary(mus, k: int, t: Fraction, bin_val) -> Status | None:
    """SUBOPTIMAL when the binary mechanism on another set A certainly has a larger value than ``bin_val``."""
    for j in range(1, 2**k - 1):
        A = pattern_set(j, k)
        jA, jAc = j, pattern_index(frozenset(range(k)) - A, k)
        val = (as_arb(mus[jA]) + as_arb(mus[jAc])) * as_arb(1 / (1 + t))
        if val > bin_val:
            return Status(SUBOPTIMAL, t, {"BIN": bin_val.str(15), "better_binary_set": sorted(A),
                                          "better_value": val.str(15)})
    return None


def _binary_optimal_basis(cols, mus, sol_alpha, jT: int, jTc: int, k: int) -> list[int] | None:
    """A basis {T, Tc} + extra columns (those with the smallest reduced costs under the LP dual ``sol_alpha``,
    tried in 8 rotations) that :func:`certify_basis` certifies with support in {T, Tc}; None if none does."""
    alpha = [as_arb(a) for a in sol_alpha]
    red = []
    for j, col in enumerate(cols):
        s = arb_dot(alpha, col)
        red.append((abs(float((s - as_arb(mus[j])).mid())), j))
    order = [j for _, j in sorted(red) if j not in (jT, jTc)]
    from rldp_verify.topics.extremal.staircase import rank
    for shift in range(min(8, len(order))):
        Bs = [jT, jTc]
        for j in order[shift:] + order[:shift]:
            if len(Bs) == k:
                break
            if rank([cols[c] for c in Bs + [j]]) == len(Bs) + 1:
                Bs.append(j)
        if len(Bs) < k:
            continue
        res = certify_basis(cols, mus, Bs)
        if res is not None and set(j for j, th in enumerate(res[0]) if th != 0) <= {jT, jTc}:
            return Bs
    return None


# ------------------------------------------------------------------ scanning and bisection

def t_from_eps(eps) -> Fraction:
    """A rational t close to e^eps (rounded down to a multiple of 2^-40); callers report log(t)."""
    with mpmath.workdps(60):
        v = mpmath.exp(mpmath.mpf(str(eps)))
        return Fraction(int(mpmath.floor(v * 2**40)), 2**40)


def log_bounds(t: Fraction, digits: int = 12) -> tuple[float, float]:
    """(lower, upper) decimal bounds of log(t), rounded outward to ``digits`` significant digits."""
    with arb_precision(60):
        x = as_arb(t).log()
        lo, hi = float(x.lower()), float(x.upper())
    import math
    def rd(v, up):
        if v == 0:
            return 0.0
        e = math.floor(math.log10(abs(v))) - digits + 1
        q = 10.0**e
        return (math.ceil(v / q) if up else math.floor(v / q)) * q
    return rd(lo, False), rd(hi, True)


def default_grid(eps_min=0.001, eps_max=30.0, ratio=1.25) -> list[float]:
    """A geometric grid of eps from ``eps_min`` to ``eps_max`` with ratio ``ratio``."""
    g, e = [], eps_min
    while e < eps_max:
        g.append(round(e, 12))
        e *= ratio
    g.append(eps_max)
    return g


@dataclass
class Bracket:
    """A bracket [t_lo, t_hi] of the optimality threshold in t = e^eps, with its evaluations."""
    regime: str              # "rr" (optimal above) or "binary" (optimal below)
    t_lo: Fraction | None    # lower end of the bracket in t (None: 1, i.e. eps = 0)
    t_hi: Fraction | None    # upper end (None: infinity)
    kind: str                # "bisected", "below-grid", "above-grid", "undecided"
    evaluations: list        # (t as str, status) of every evaluated point
    note: str = ""
    tail_certified: bool = False  # rr only: optimal for EVERY eps >= log(t_hi), proved on the continuum

    def eps_bracket(self) -> tuple:
        """The bracket in eps, rounded outward (floats)."""
        lo = 0.0 if self.t_lo is None else log_bounds(self.t_lo)[0]
        hi = float("inf") if self.t_hi is None else log_bounds(self.t_hi)[1]
        return lo, hi


def bracket_threshold(status_fn: Callable[[Fraction], Status], regime: str, grid=None,
                      tol: float = 1e-6, max_iter: int = 60,
                      tail_fn: Callable[[Fraction], bool] | None = None) -> Bracket:
    """Bracket eps* for ``regime`` = "rr" (optimal for eps >= eps*) or "binary" (eps <= eps*).

    ``status_fn(t)`` returns a certified :class:`Status`. The bracket's ends are certified points
    of opposite status; grid points beyond the bracket all have the "good" status. For "rr",
    ``tail_fn(t_hi)`` (e.g. :func:`rldp_verify.topics.extremal.tail.certify_rr_tail`) may prove optimality
    on the whole half-line eps >= log(t_hi); then ``tail_certified`` is True and the bracket is
    rigorous for eps* := inf{eps : RR optimal on [eps, infinity)}.
    """
    br = _bracket(status_fn, regime, grid, tol, max_iter)
    if regime == "rr" and tail_fn is not None and br.t_hi is not None and br.kind in ("bisected", "below-grid"):
        try:
            br.tail_certified = bool(tail_fn(br.t_hi))
        except Exception:  # a failed proof attempt is "not certified", never an answer
            br.tail_certified = False
        if br.tail_certified:
            br.note = (br.note + "; " if br.note else "") + \
                "RR proved optimal for every eps >= the bracket's upper end (interval arithmetic in s = e^-eps)"
    return br


def _bracket(status_fn, regime, grid, tol, max_iter) -> Bracket:
    if regime not in ("rr", "binary"):
        raise InputError(f"regime must be 'rr' or 'binary', got {regime!r}")
    grid = default_grid() if grid is None else list(grid)
    ts = [t_from_eps(e) for e in grid]
    evals = []

    def ev(t):
        s = status_fn(t)
        evals.append((str(t), s.status))
        return s.status

    if regime == "rr":
        stats = [ev(t) for t in ts]
        bad = [i for i, s in enumerate(stats) if s == SUBOPTIMAL]
        if not bad:
            if all(s == OPTIMAL for s in stats):
                return Bracket(regime, None, ts[0], "below-grid", evals,
                               "RR certified optimal at every grid point; eps* <= smallest grid eps")
            return Bracket(regime, None, None, "undecided", evals, "undecided grid points")
        i = bad[-1]
        if i == len(ts) - 1:
            return Bracket(regime, ts[-1], None, "above-grid", evals, "RR not optimal at the largest grid eps")
        if any(s != OPTIMAL for s in stats[i + 1:]):
            return Bracket(regime, ts[i], None, "undecided", evals, "undecided grid point above the last failure")
        lo, hi = ts[i], ts[i + 1]          # lo: suboptimal, hi: optimal
        good_above = True
    else:
        stats = []
        i = None
        for idx, t in enumerate(ts):
            s = ev(t)
            stats.append(s)
            if s == SUBOPTIMAL:
                i = idx
                break
            if s == UNDECIDED:
                return Bracket(regime, ts[idx - 1] if idx else None, None, "undecided", evals,
                               f"undecided at eps ~ {grid[idx]}")
        if i is None:
            return Bracket(regime, ts[-1], None, "above-grid", evals, "binary certified optimal at every grid point")
        if i == 0:
            return Bracket(regime, None, ts[0], "below-grid", evals,
                           "binary not optimal at the smallest grid eps; eps* <= that eps")
        lo, hi = ts[i - 1], ts[i]          # lo: optimal, hi: suboptimal
        good_above = False
    import math
    for _ in range(max_iter):
        if math.log(float(hi)) - math.log(float(lo)) < tol:
            break
        mid = (lo + hi) / 2
        mid = Fraction(mid).limit_denominator(2**60) if mid.denominator > 2**80 else mid
        s = ev(mid)
        if s == UNDECIDED:
            return Bracket(regime, lo, hi, "bisected", evals, "bisection stopped at an undecidable point")
        optimal_side_is_hi = good_above
        if (s == OPTIMAL) == optimal_side_is_hi:
            hi = mid
        else:
            lo = mid
    return Bracket(regime, lo, hi, "bisected", evals)
