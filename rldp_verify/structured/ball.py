"""(eps, F)-RLDP over a Rényi ball F = {P : D_alpha(P^ || P) <= B} for k-ary randomized response (GRR, DE,
L-GRR) and subset selection (as a set), without enumerating outputs (issue 26 item 1).

Paper: [lopuhaa-2024] (RLDP), Definition 1, Sec. 4 Theorem 1 (the conditional projection F_{U|s} is the
Rényi ball of order alpha around P^_{U|s} with radius B_s, the whole simplex when P^_s = 0 or B_s = inf),
Lemma A5 (the coordinate interval (t-, t+) of a binary Rényi ball, :mod:`rldp_verify.rldp.xi_interval`).

The reduction. Both channels have Q(y | x) = f(1) when x is in the output's set Y and f(0) otherwise, with
f(c) = b + (a - b) c (GRR: Y = {y}, (a, b) the channel's; subset selection: |Y| = m, (a, b) = (A, B) the two
probabilities of one subset). For P in F and a secret s with P_s > 0,
P(y | s) = sum_u P(u|s) Q(y | (s, u)) = f(P(G_s(Y) | s)) with G_s(Y) = {u : (s, u) in Y}; the ratio of the pair
(s, s') is f(x) / f(x') with x = P(G_s|s), x' = P(G_s'|s'), increasing in x and decreasing in x' when a >= b
(the other way round when a < b).

1. Which Y. |G_s| + |G_s'| + (the cells of the other |S| - 2 secrets in Y) = m. The largest x is reached with
   G_s the ``take`` = min(m, |U|) likeliest cells, and x' is 0 exactly when G_s' is empty; that is possible iff
   ``rest`` = m - take - (|S| - 2)|U| <= 0 (GRR: m = 1, always). Otherwise take = |U| (x = 1 exactly) and G_s' holds
   at least ``rest`` cells, the lightest ones giving the smallest x'.
2. Which P. Only one conditional moves the ratio (the other side is the constant f(0) or f(1)), so the joint
   projection F_{U|s,s'} reduces to Theorem 1's F_{U|s} for that secret (the other secret keeps P^'s
   conditional; the lift of Lemma A2 costs D_alpha(P^||P) = phi^{-1}(P^_s phi(d_s)) <= B iff d_s <= B_s). Over
   F_{U|s}, the largest mass of a set G is t+(P^(G|s)) and the smallest t-(P^(G|s)), the ends of the binary
   Rényi ball of radius B_s around P^(G|s): grouping G and its complement can only lower D_alpha (data
   processing), and the conditional R proportional to P^_{U|s} inside G and outside attains the binary value
   (equality in the grouping). t+ and t- are nondecreasing in P^(G|s) (D_alpha is jointly quasi-convex, so
   rho -> D_alpha(Bern rho || Bern t) is non-increasing on [0, t] and non-decreasing on [t, 1]), so the heaviest
   ``take`` cells (the lightest ``rest`` cells) are also the best sets under F.
3. So with c = max_s t+_s(X_s) (X_s the mass of the ``take`` likeliest cells of P^_{U|s}) when rest <= 0,
   rho = max(f(c)/f(0), f(0)/f(c)), and with z = min_s t-_s(Z_s) (Z_s the mass of the ``rest`` lightest cells)
   otherwise, rho = max(f(1)/f(z), f(z)/f(1)) (rho is monotone in c and in z). A secret with P^_s = 0 has the
   whole simplex (c = 1, z = 0) when B > 0, as in the dense audit. The pair needs a second secret of positive
   mass: when fewer than two secrets can have mass (|S| = 1, or B = 0 and P^ has one), rho = 1.

Certification, which way it errs: the upper end is c's certified upper end (z's lower end), with
:func:`~rldp_verify.rldp.xi_interval.t_interval_certified` at the rows whose float estimate is within 1e-6 of
the best, and one arb evaluation per other row proving that its t+ is below the cut (its binary ball excludes
the cut); f and rho are then exact rationals, so the upper end errs towards "not private". The lower end is the
exact ratio (:func:`rldp_verify.structured.rldp.p_audit`) of a witness P whose membership in F is certified in
arb (``RenyiBall.contains``): the best row's conditional replaced by the proportional fill with a rational mass
t <= t+ (certified inside the lower end of B_s), lifted with a rational row mass; a zero-mass secret gets a
point mass of weight delta <= (1 - e^-B)/2 (D_alpha <= D_inf = -log(1 - delta) <= B). Radius 0 is F = {P^}
(exact); radius inf is the closure of F, the whole simplex (as the dense audit reads it), exact.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import to_mpf
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.xi_interval import binary_renyi_arb, t_interval, t_interval_certified, t_plus_inner
from rldp_verify.structured.channels import INF, SubsetSelection, Symmetric, ratio

__all__ = ["BallResult", "ball_interval", "SUPPORTED_BALL", "set_shape"]

SUPPORTED_BALL = (Symmetric, SubsetSelection)
NEAR = 1e-6          # rows whose float t+ is within NEAR of the best are certified in full


class BallResult:
    """(eps, F)-RLDP of one structure over a Rényi ball: ``lower`` (the exact ratio of ``witness``, a P in F),
    ``upper`` (certified), ``witness`` (the table P, or None), ``pair`` (p_audit's witness dict: s, s_prime, y),
    ``side`` ("t+" or "t-": which end of which row decides), ``row`` (that secret) and ``notes``."""

    def __init__(self, lower, upper, witness, pair, side, row, notes):
        self.lower, self.upper, self.witness, self.pair = lower, upper, witness, pair
        self.side, self.row, self.notes = side, row, notes


def _f_pair(st):
    """(f(1), f(0)): the probability of an output whose set holds x, and of one that does not."""
    if isinstance(st, Symmetric):
        return st.a, st.b
    return st._prob({0}, 0), st._prob(set(), 0)


def set_shape(st, a1: int, a2: int):
    """(take, rest): the number of cells of s in the best set, and the number of cells of s' it must hold
    (rest <= 0: none)."""
    m = 1 if isinstance(st, Symmetric) else st.m
    take = min(m, a2)
    return take, m - take - (a1 - 2) * a2


def _rho(fa, fb, x, z):
    """max(f(x)/f(z), f(z)/f(x)) with f(c) = fb + (fa - fb) c (0/0 = 1)."""
    num, den = fb + (fa - fb) * x, fb + (fa - fb) * z
    vals = [v for v in (ratio(num, den), ratio(den, num)) if v is not None]
    return max(vals, key=lambda v: float("inf") if v == INF else v) if vals else Fraction(1)


def ball_interval(st, ball, *, dps: int = 40) -> BallResult:
    """The certified interval of sup_{P in F} max_{y, s != s'} P(y|s)/P(y|s') for GRR or subset selection on
    X = S x U (|S| x |U| = the table of ``ball``; see the module docstring)."""
    from rldp_verify.structured.rldp import p_audit

    a1, a2 = ball.sensitive_size, ball.public_size
    _check(st, a1, a2)
    fa, fb = _f_pair(st)
    take, rest = set_shape(st, a1, a2)
    phat = [list(r) for r in ball.phat]
    positive = [s for s in range(a1) if sum(phat[s]) > 0]
    zero = [s for s in range(a1) if s not in positive]
    notes: list = []
    if ball.radius == 0 or a1 < 2:
        rho, pair = p_audit(st, phat, (a1, a2))
        notes.append("radius 0: F = {P^}" if ball.radius == 0 else "|S| = 1: no pair s != s'; the ratio is 1")
        return BallResult(rho, rho, phat, pair, None, None, notes)
    if ball.radius == INF:
        w = _closure_witness(a1, a2)
        rho, pair = p_audit(st, w, (a1, a2))
        notes.append("radius inf: the closure of F is the whole simplex P_X (Proposition 3), as in the dense audit")
        return BallResult(rho, rho, w, pair, None, None, notes)
    up = rest <= 0
    if zero:                                   # the whole simplex (B > 0): t+ = 1, t- = 0
        ends, best = (Fraction(1) if up else Fraction(0)), None
    else:
        masses = [_set_mass(phat[s], take if up else rest, up) for s in positive]
        ends, best = _certified_end(ball, positive, masses, up, dps)
    hi = _rho(fa, fb, ends, Fraction(0)) if up else _rho(fa, fb, Fraction(1), ends)
    W = _witness(ball, phat, positive, zero, best, take if up else rest, up, dps)
    lo, pair = p_audit(st, W, (a1, a2))
    if _key(lo) > _key(hi):
        raise CertificationError(f"(eps, F)-RLDP of {st.kind}: the witness's exact ratio {lo} is above the certified "
                                 f"upper end {hi}")
    row = zero[0] if best is None else best
    cells = f"likeliest {take}" if up else f"lightest {rest}"
    notes.append(f"decided by {'t+' if up else 't-'} of secret {row}'s {cells} cells "
                 f"({'the whole simplex: P^_s = 0' if best is None else 'Theorem 1 radius B_s'})")
    return BallResult(lo, hi, W, pair, "t+" if up else "t-", row, notes)


def _key(v):
    return float("inf") if v == INF else v


def _check(st, a1, a2):
    n = st.k
    if n != a1 * a2:
        raise InputError(f"{type(st).__name__} on {n} values is not a channel on the {a1} x {a2} = {a1 * a2} inputs "
                         "of P^ (|S| x |U|)")
    if isinstance(st, SubsetSelection) and st.ordered and st.m >= 2:
        raise InputError("(eps, F)-RLDP of ordered subset selection (m >= 2) is not implemented without "
                         "enumerating outputs")


def _closure_witness(a1, a2):
    """P with mass 1/2 at (0, 0) and at (1, 0): every conditional a point mass (the closure's extreme)."""
    P = [[Fraction(0)] * a2 for _ in range(a1)]
    P[0][0] = P[1][0] = Fraction(1, 2)
    return P


def _order(row, up):
    """The cells of ``row`` heaviest first (up) or lightest first."""
    return sorted(range(len(row)), key=lambda u: row[u], reverse=up)


def _set_mass(row, n, up):
    """The conditional mass of the n heaviest (up) or lightest cells of ``row`` (exact)."""
    tot = sum(row)
    return sum(row[u] for u in _order(row, up)[:n]) / tot


# ---------------------------------------------------------------------------- the ends t+ / t-, certified

def _float_radius(alpha: float, B: float, ps: float) -> float:
    """B_s of Theorem 1 in floats (a screen only: the certified ends never rest on it); inf for the whole simplex
    or beyond float range."""
    if alpha == 1:
        return B / ps
    try:
        arg = (math.exp((alpha - 1) * B / alpha) - (1 - ps)) / ps
    except OverflowError:
        return math.inf
    return alpha / (alpha - 1) * math.log(arg) if arg > 0 else math.inf


def as_float(x) -> float:
    """float(x), inf beyond float range (a screen value)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf


def _binary_np(p, t, alpha: float):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if alpha == 1:
            a = np.where(p > 0, p * np.log(p / t), 0.0)
            b = np.where(p < 1, (1 - p) * np.log((1 - p) / (1 - t)), 0.0)
            return np.nan_to_num(a + b, nan=np.inf)
        s = np.where(p > 0, p ** alpha * t ** (1 - alpha), 0.0) + np.where(p < 1, (1 - p) ** alpha
                                                                            * (1 - t) ** (1 - alpha), 0.0)
        return np.nan_to_num(np.log(s) / (alpha - 1), nan=np.inf)


def _float_ends(p, radii, alpha: float, up: bool):
    """t+ (up) or t- of the binary Rényi balls around p with radii (vectors; float bisection, a screen)."""
    p = np.asarray(p, dtype=float)
    r = np.asarray(radii, dtype=float)
    lo, hi = (p.copy(), np.ones_like(p)) if up else (np.zeros_like(p), p.copy())
    far = hi if up else lo
    inside_far = _binary_np(p, far, alpha) <= r
    for _ in range(80):
        mid = (lo + hi) / 2
        inside = _binary_np(p, mid, alpha) <= r
        if up:
            lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
        else:
            lo, hi = np.where(inside, lo, mid), np.where(inside, mid, hi)
    return np.where(inside_far, far, hi if up else lo)


def _front(ball, rows, masses, up: bool):
    """The indices of ``rows`` not dominated: t+ (t-) is nondecreasing in the set's mass and B_s decreasing in
    P^_s, so a row with a smaller P^_s and a larger mass (up) or a smaller one (down) has the larger t+ (smaller
    t-), and only the Pareto front of (P^_s ascending, mass best) needs evaluating."""
    order = sorted(range(len(rows)), key=lambda i: (ball.marginal(rows[i]), -masses[i] if up else masses[i]))
    front, best = [], None
    for i in order:
        if best is None or (masses[i] > best if up else masses[i] < best):
            front.append(i)
            best = masses[i]
    return front


def _certified_end(ball, rows, masses, up: bool, dps: int):
    """(the certified max_s t+_s (up) or min_s t-_s over ``rows``, the row attaining the float best)."""
    alpha = ball.alpha
    extreme = Fraction(1) if up else Fraction(0)
    for i, x in enumerate(masses):
        if x == extreme:                          # the set's mass is already the extreme: t = x
            return extreme, rows[i]
    front = _front(ball, rows, masses, up)
    B = as_float(ball.radius)
    radii = [_float_radius(float(alpha), B, float(ball.marginal(rows[i]))) for i in front]
    est = _float_ends([float(masses[i]) for i in front], radii, float(alpha), up)
    j = int(np.argmax(est) if up else np.argmin(est))
    best_f = float(est[j])
    cut = Fraction(best_f - NEAR) if up else Fraction(best_f + NEAR)
    end = None
    for k, i in enumerate(front):
        s, x = rows[i], masses[i]
        near = (est[k] >= best_f - NEAR) if up else (est[k] <= best_f + NEAR)
        if not near and _excludes(ball, s, x, cut, up, dps):
            v = cut
        else:
            with arb_precision(dps), mpmath.workdps(dps + 10):   # radius ends and margins at dps digits
                tm, tp = t_interval_certified(x, alpha, ball.conditional_radius_arb(s, dps=dps), dps=dps)
            v = tp if up else tm
        end = v if end is None else (max(end, v) if up else min(end, v))
    return end, rows[front[j]]


def _excludes(ball, s, x, cut, up, dps):
    """Certified: the binary ball of row s around x lies below ``cut`` (up) or above it."""
    if (up and not x < cut) or (not up and not x > cut) or not 0 <= cut <= 1:
        return False
    rad = ball.conditional_radius_arb(s, dps=dps)
    if rad is None:
        return False
    with arb_precision(dps):
        v = binary_renyi_arb(x, cut, ball.alpha)
        return v is None or bool(v > arb_exact(arb_upper(rad)))


# ---------------------------------------------------------------------------- the witness P in F

def _witness(ball, phat, positive, zero, best, n, up, dps):
    """A P in F (certified) attaining the end: the best row's n cells moved to a certified-inside t, or a point
    mass on a zero-mass secret (see the module docstring); P^ when neither is certified."""
    if best is None or len(positive) < 2:
        W = _zero_row_witness(ball, phat, zero[0]) if zero else None
    else:
        W = _row_witness(ball, phat, best, n, up, dps)
    return W if W is not None else phat


def _zero_row_witness(ball, phat, s):
    B = Fraction(ball.radius)
    delta = min(Fraction(1, 2), B / 2)
    for _ in range(8):
        W = [[(1 - delta) * v for v in r] for r in phat]
        W[s][0] += delta
        if ball.contains(W) is True:
            return W
        delta /= 4
    return None


def _inner_end(x, alpha, rad, dps, up):
    """A rational t inside the binary ball of radius (the lower end of ``rad``) around x: t+ (up) or t-, minus
    (plus) a margin of about 10^-(dps - 6); x when none is certified."""
    if up:
        return t_plus_inner(x, alpha, rad, dps)
    from rldp_verify.core.rigorous import lower as arb_lower

    if rad is None:
        return Fraction(0)
    B_lo = arb_lower(rad)
    if B_lo <= 0:
        return x
    tm = t_interval(x, alpha, B_lo, dps=dps)[0]
    with arb_precision(dps):
        B_a = arb_exact(B_lo)
    for k in range(dps - 6, 0, -4):
        with mpmath.workdps(dps + 10):
            cand = Fraction(int(mpmath.ceil((tm + mpmath.mpf(10) ** (-k)) * 10 ** (dps + 2))), 10 ** (dps + 2))
        if cand >= x:
            break
        with arb_precision(dps):
            v = binary_renyi_arb(x, cand, alpha)
            if v is not None and bool(v <= B_a):
                return cand
    return x


def _row_witness(ball, phat, s, n, up, dps):
    """P^ with row s's conditional moved to mass t on its n best cells (proportional fill), lifted (Lemma A2)
    with a rational row mass; None when membership is not certified."""
    row = phat[s]
    tot = sum(row)
    G = set(_order(row, up)[:n])
    x = sum(row[u] for u in G) / tot
    with arb_precision(dps), mpmath.workdps(dps + 10):   # radius ends and margins at dps digits, not 53 bits
        t = _inner_end(x, ball.alpha, ball.conditional_radius_arb(s, dps=dps), dps, up)
    for _ in range(6):
        W = _lifted(ball, phat, s, G, x, t, dps)
        if W is not None and ball.contains(W) is True:
            return W
        t = (t + x) / 2                           # back towards P^ (inside the convex binary ball)
    return None


def _fill(row, G, x, t):
    """The conditional with mass t on G, proportional to ``row`` inside G and outside (uniform where row is 0)."""
    tot, k = sum(row), len(row)
    out = []
    for u, v in enumerate(row):
        if u in G:
            out.append(t * v / (x * tot) if x > 0 else t / len(G))
        else:
            out.append((1 - t) * v / ((1 - x) * tot) if x < 1 else (1 - t) / (k - len(G)))
    return out


def _lifted(ball, phat, s, G, x, t, dps):
    if t == x:
        return [list(r) for r in phat]
    R = _fill(phat[s], G, x, t)
    ps = sum(phat[s])
    beta = 1 - 1 / Fraction(ball.alpha)
    with mpmath.workdps(dps + 20):
        d = _binary_mp(x, t, ball.alpha)
        if d == mpmath.inf:
            return None
        w = to_mpf(ps) * mpmath.exp(to_mpf(beta) * d)
        w = Fraction(int(mpmath.nint(w * 10 ** (dps + 10))), 10 ** (dps + 10))
    T = w + 1 - ps
    W = [[v / T for v in r] for r in phat]
    W[s] = [w * r / T for r in R]
    return W


def _binary_mp(x, t, alpha):
    from rldp_verify.rldp.xi_interval import binary_renyi

    return binary_renyi(x, t, alpha)
