"""Independent reporting: Definition 5, Theorems 5 and 6, the budget split of eq. (82) (Sec. 7).

Paper: [lopuhaa-2024].

IR_{R1,R2}(s, u) = (R1(s), R2(u)) (Definition 5); here R1 = GRR^{eps1} on S and R2 = GRR^{delta2} on U,
so Q = R1 (x) R2 (Kronecker product; columns x = (s, u) in S-major order).

Theorem 5: with d_s >= rad_s(F),

    d = min{2, max_s (2 d_s) + max_{s,s'} ||P-hat_{U|s} - P-hat_{U|s'}||_1},
    delta2 = log(1 + 2 (e^{eps2} - 1) / d),

R1 eps1-LDP and R2 delta2-LDP make IR (eps1 + eps2, F)-RLDP.

Exact construction. With r <= e^eps rational (rounded down) and the split t = e^{eps2} in [1, r]
rational, we take e^{eps1} = r / t and e^{delta2} = 1 + 2 (t - 1) / d with a rational d >= the true d
(certified rad bounds): a larger d only lowers delta2, so the guarantee holds and every entry is
rational. d = 0 (possible only when B = 0 and all conditionals coincide) gives delta2 = +inf: R2 is
the identity (Theorem 5's bound 1 + (e^delta2 - 1) d / 2 = 1 <= e^{eps2} for every delta2).

Eq. (82): maximise I_{P-hat}(X;Y) over eps2 in [0, eps]. The maximiser is found on a grid in eps2
refined by golden section (mpmath); the optimum over the whole interval is then bracketed rigorously
by branch and bound with arb interval evaluation of the utility on sub-intervals of t:
``lower`` <= max_t I(t) <= ``upper`` (``lower`` is the certified utility of the returned mechanism).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import flint
import mpmath
import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mutual_information_arb, mutual_information_bounds, mutual_information_value
from rldp_verify.core.numbers import DEFAULT_DPS, SEARCH_DPS, fraction_str, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.mechanisms._common import build, labels_for
from rldp_verify.rldp.mechanisms.grr import (
    grr_matrix,
    grr_matrix_arb,
    grr_matrix_arb_ratio,
    grr_matrix_float,
    grr_matrix_mp,
)
from rldp_verify.rldp.mechanisms.rounding import DEFAULT_DIGITS, privacy_level, rad_bounds, round_down

INF = math.inf


def conditional_l1_spread(table) -> Fraction:
    """max_{s,s'} ||P-hat_{U|s} - P-hat_{U|s'}||_1 (exact); 2 if some P-hat_s = 0 (``table`` has >= 1 row)."""
    conds = []
    for r in table:
        m = sum(r)
        if m == 0:
            return Fraction(2)
        conds.append([Fraction(v) / m for v in r])
    return max(sum(abs(x - y) for x, y in zip(c1, c2, strict=True)) for c1 in conds for c2 in conds)


def distance_from(rad_upper, table) -> Fraction:
    """d of Theorem 5 from upper bounds d_s >= rad_s(F) (exact)."""
    ds = [Fraction(v) for v in rad_upper]
    if any(v < 0 for v in ds):
        raise InputError(f"rad bounds must be >= 0, got {[str(v) for v in ds]}")
    return min(Fraction(2), 2 * max(ds) + conditional_l1_spread(table))


def ir_distance(ball, *, digits: int = DEFAULT_DIGITS, dps: int = DEFAULT_DPS) -> Fraction:
    """A rational >= d of Theorem 5 for the ball F (certified rad bounds ceiled to 10^-digits)."""
    return distance_from(rad_bounds(ball, digits=digits, dps=dps), ball.phat)


def _exp_delta2(t, d):
    """Theorem 5's e^{delta2} = 1 + 2 (t - 1) / d (t = e^{eps2}, d > 0) in the arithmetic of t and d: the one
    statement of the formula, which every precision route below evaluates."""
    return 1 + 2 * (t - 1) / d


def exp_delta2(t, d):
    """e^{delta2} = 1 + 2 (t - 1) / d with t = e^{eps2} (exact; +inf when d = 0)."""
    t, d = Fraction(t), Fraction(d)
    if t < 1:
        raise InputError(f"e^eps2 must be >= 1, got {t}")
    if d < 0:
        raise InputError(f"d must be >= 0, got {d}")
    if d == 0:
        return INF
    return _exp_delta2(t, d)


def exp_delta2_float(t: float, d: float) -> float:
    """e^{delta2} of Theorem 5 in double precision (math.inf when d = 0); round to nearest, either way."""
    return INF if d == 0 else _exp_delta2(t, d)


def exp_delta2_mp(t, d):
    """e^{delta2} of Theorem 5 in mpmath at the working precision (``t`` an mpf, ``d`` exact; mpmath.inf when
    d = 0)."""
    return mpmath.inf if d == 0 else _exp_delta2(t, to_mpf(d))


def exp_delta2_arb(T, d):
    """e^{delta2} of Theorem 5 for every t in the arb ball ``T`` (``d`` exact; math.inf when d = 0). Rigorous."""
    return INF if d == 0 else _exp_delta2(T, arb_exact(d))


def _kron(R1, R2):
    """R1 (x) R2: rows (y1, y2), columns (s, u), both S-major (Definition 5's IR(R1, R2))."""
    a1, a2 = len(R1), len(R2)
    return [[R1[y1][s] * R2[y2][u] for s in range(a1) for u in range(a2)] for y1 in range(a1) for y2 in range(a2)]


def ir_matrix(a1: int, a2: int, exp_eps1, exp_d2) -> list[list[Fraction]]:
    """GRR^{eps1} (x) GRR^{delta2} (rows (y1, y2), columns (s, u), both S-major). Exact."""
    return _kron(grr_matrix(a1, exp_eps1), grr_matrix(a2, exp_d2))


def ir_matrix_arb(a1: int, a2: int, exp_eps1, exp_d2) -> list[list[flint.arb]]:
    """GRR^{eps1} (x) GRR^{delta2} with arb balls ``exp_eps1``, ``exp_d2`` (math.inf: the identity). Rigorous."""
    return _kron(grr_matrix_arb(a1, exp_eps1), grr_matrix_arb(a2, exp_d2))


def ir_matrix_float(a1: int, a2: int, exp_eps: float, t: float, d: float) -> np.ndarray:
    """IR(GRR^{eps1}, GRR^{delta2}) with e^{eps1} = e^eps / t and e^{delta2} = 1 + 2 (t - 1) / d
    (Theorem 5; d = 0 gives the identity on U), rows (y1, y2) and columns (s, u), both S-major; double
    precision (round to nearest, either way)."""
    return np.kron(grr_matrix_float(a1, exp_eps / t), grr_matrix_float(a2, exp_delta2_float(t, d)))


def ir_split_matrix(a1, a2, r, t, d):
    """The IR matrix for the split t = e^{eps2} (e^{eps1} = r / t)."""
    t = Fraction(t)
    if not 1 <= t <= r:
        raise InputError(f"e^eps2 = {t} must lie in [1, e^eps] = [1, {r}]")
    return ir_matrix(a1, a2, Fraction(r) / t, exp_delta2(t, d))


# ---------------------------------------------------------------------------------------------
# eq. (82)
# ---------------------------------------------------------------------------------------------


def _utility_mp(a1, a2, p, r, t, d):
    """I_P(X;Y) of the IR mechanism at split t (mpf)."""
    r, t = to_mpf(r), to_mpf(t)
    Q = _kron(grr_matrix_mp(a1, r / t), grr_matrix_mp(a2, exp_delta2_mp(t, d)))
    return mutual_information_value(Q, p)


def _utility_arb(a1, a2, p, r, T, d):
    """An arb enclosure of I_P(X;Y) for t in the ball T (interval evaluation; p exact)."""
    R1 = grr_matrix_arb_ratio(a1, arb_exact(r), T)        # GRR at e^{eps1} = r / T
    return mutual_information_arb(_kron(R1, grr_matrix_arb(a2, exp_delta2_arb(T, d))), p)


@dataclass(frozen=True)
class SplitOptimum:
    """The certified optimum of IR's budget split, eq. (82): the t = e^{eps2} used and an arb-certified
    bracket [lower, upper] of max_t I(t)."""
    t: Fraction            # e^{eps2} used (rational, in [1, r])
    lower: Fraction        # certified utility of the mechanism at t
    upper: Fraction        # certified upper bound of max_{t in [1, r]} I(t)
    evaluations: int
    complete: bool         # branch and bound reached its tolerance


def optimise_eps2(table, r, d, *, grid: int = 48, dps: int = SEARCH_DPS, tol=Fraction(1, 10**8), max_boxes: int = 4000,
                  digits: int = DEFAULT_DIGITS) -> SplitOptimum:
    """Eq. (82): the split t = e^{eps2} in [1, r] maximising I_{P-hat}(X;Y), with a certified bracket."""
    a1, a2 = len(table), len(table[0])
    p = [Fraction(v) for row in table for v in row]
    r, d = Fraction(r), Fraction(d)
    if r == 1:
        cands = [Fraction(1)]
    else:
        with working_precision(dps):
            le = mpmath.log(to_mpf(r))
            ts = [mpmath.exp(le * k / grid) for k in range(grid + 1)]
            vals = [_utility_mp(a1, a2, p, r, t, d) for t in ts]
            k = max(range(len(vals)), key=lambda i: vals[i])
            lo, hi = ts[max(0, k - 1)], ts[min(grid, k + 1)]
            g = (mpmath.sqrt(5) - 1) / 2
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            f1, f2 = _utility_mp(a1, a2, p, r, x1, d), _utility_mp(a1, a2, p, r, x2, d)
            for _ in range(60):
                if f1 < f2:
                    lo, x1, f1 = x1, x2, f2
                    x2 = lo + g * (hi - lo)
                    f2 = _utility_mp(a1, a2, p, r, x2, d)
                else:
                    hi, x2, f2 = x2, x1, f1
                    x1 = hi - g * (hi - lo)
                    f1 = _utility_mp(a1, a2, p, r, x1, d)
            tstar = (lo + hi) / 2
            cand = min(r, max(Fraction(1), round_down(Fraction(mpmath.nstr(tstar, dps)), digits)))
        cands = [Fraction(1), r, cand]
    best_t, best_lo = cands[0], mutual_information_bounds(ir_split_matrix(a1, a2, r, cands[0], d), p, dps=dps)[0]
    for t in cands[1:]:
        lo_t = mutual_information_bounds(ir_split_matrix(a1, a2, r, t, d), p, dps=dps)[0]
        if lo_t > best_lo:
            best_t, best_lo = t, lo_t
    upper, n, complete = _branch_and_bound(a1, a2, p, r, d, best_lo, tol, max_boxes, dps)
    return SplitOptimum(best_t, best_lo, max(upper, best_lo), n, complete)


def _upper_or_none(x):
    return arb_upper(x) if x.is_finite() else None


def _branch_and_bound(a1, a2, p, r, d, best_lo, tol, max_boxes, dps):
    """max over t in [1, r] of I(t) <= returned upper (rigorous): boxes whose enclosure lies below
    best_lo + tol are discarded; the rest are bisected until ``max_boxes`` evaluations."""
    if r == 1:
        return best_lo, 0, True
    boxes = [(Fraction(1), r)]
    n = 0
    done_upper = best_lo
    with arb_precision(dps):
        while boxes:
            a, b = boxes.pop()
            mid = (a + b) / 2
            T = flint.arb(arb_exact(mid), arb_exact((b - a) / 2))
            n += 1
            up = _upper_or_none(_utility_arb(a1, a2, p, r, T, d))
            if up is not None and up <= best_lo + tol:
                done_upper = max(done_upper, up)
                continue
            if n >= max_boxes:
                boxes.append((a, b))
                for a2_, b2_ in boxes:
                    T2 = flint.arb(arb_exact((a2_ + b2_) / 2), arb_exact((b2_ - a2_) / 2))
                    u2 = _upper_or_none(_utility_arb(a1, a2, p, r, T2, d))
                    if u2 is None:  # no finite enclosure: the trivial bound I <= H(X) <= log|X|
                        u2 = arb_upper(arb_exact(len(p)).log())
                    done_upper = max(done_upper, u2)
                return done_upper, n, False
            boxes.append((a, mid))
            boxes.append((mid, b))
    return done_upper, n, True


def independent_reporting(ball, eps, *, eps2=None, sensitive=None, public=None, dps: int = DEFAULT_DPS,
                          digits: int = DEFAULT_DIGITS, d=None):
    """IR(GRR^{eps1}, GRR^{delta2}) for the ball F and eps; ``eps2`` fixes the split (a number or
    ``log(q)``), otherwise eq. (82) is solved and its optimum bracketed. ``d``: override d (a rational
    that must be >= Theorem 5's d; by default computed from certified rad bounds)."""
    from rldp_verify.rldp.uncertainty import RenyiBall

    if not isinstance(ball, RenyiBall):
        raise InputError(f"IR needs a RenyiBall (the uncertainty set F), got {type(ball).__name__}")
    table = ball.phat
    S, U = labels_for(table, sensitive, public)
    level = privacy_level(eps, digits=digits, dps=dps)
    r = level.exp_eps
    dd = ir_distance(ball, digits=digits, dps=dps) if d is None else Fraction(d)
    params: dict[str, object] = {"d": fraction_str(dd),
                                 "d_rounding": f"rad_s(F) certified upper bounds ceiled to 10^-{int(digits)}"}
    if eps2 is None:
        opt = optimise_eps2(table, r, dd, digits=digits)
        t = opt.t
        params["eq82_optimum_bracket"] = [fraction_str(opt.lower), fraction_str(opt.upper)]
        params["eq82_bracket_complete"] = opt.complete
    else:
        lv2 = privacy_level(eps2, digits=digits, dps=dps)
        t = lv2.exp_eps
        if t > r:
            raise InputError(f"eps2 = {eps2!r} exceeds eps = {level.text} (e^eps2 = {t} > {r})")
    e1 = r / t
    e2 = exp_delta2(t, dd)
    Q = ir_split_matrix(len(S), len(U), r, t, dd)
    Y = [f"({s},{u})" for s in S for u in U]
    params.update({"exp_eps2": fraction_str(t), "exp_eps1": fraction_str(e1),
                   "exp_delta2": "inf" if e2 == INF else fraction_str(e2)})
    return build(Q, S, U, Y, name="IR", level=level,
                 guarantee="(eps, F)-RLDP by Theorem 5 (R1 = GRR eps1-LDP, R2 = GRR delta2-LDP, "
                           "eps1 + eps2 = log e^eps_used <= eps)",
                 parameters=params, phat=table, dps=dps)
