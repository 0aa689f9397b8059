"""(eps, F)-RLDP over a Rényi ball for local hashing (a mixture over a released seed h of GRR with (a, b) on g
buckets), without enumerating outputs: a certified interval (issue 26 item 1).

Paper: [lopuhaa-2024] (RLDP), Definition 1, Theorem 1 and the joint projection of Sec. 4.1
(:mod:`rldp_verify.rldp.projection`): (R1, R2) in F_{U|s1,s2} iff P^_{s1} phi(d1) + P^_{s2} phi(d2) <= phi(B),
phi(d) = (e^{beta d} - 1)/beta, beta = 1 - 1/alpha, d_i = D_alpha(P^_{U|s_i} || R_i).

The reduction. For the output (h, v), P(y | s) = w_h f(P(G_s | s)) with f(c) = b + (a - b) c and G_s = {u : the
library's hash sends (s, u) to v at seed h}; w_h cancels, so the ratio of (s, s') is f(x)/f(x') with x = P(G_s|s),
x' = P(G_s'|s') (increasing in x, decreasing in x' when a >= b; the other way round when a < b). Both
conditionals move it, so the pair lives on the joint projection: a budget split d1, d2 with
P^_{s1} phi(d1) + P^_{s2} phi(d2) <= phi(B), and, as for GRR (:mod:`rldp_verify.structured.ball`), x up to
t+(P^(G_s|s)) of the binary ball of radius d1 and x' down to t-(P^(G_s'|s')) of radius d2 (an empty G: mass 0,
all of U: mass 1, whatever P).

- Upper end: max(a/b, b/a) (the ratio of a seed that separates s's cells from the cells of s' completely) unless
  the seeds are the whole public range (``complete``); then the maximum over every seed, bucket and pair of
  f(t+ at the whole B_s)/f(t- at the whole B_s') (each conditional alone in Theorem 1's F_{U|s}: the joint
  projection lies inside the product of the two, so this bounds the coupled value from above), each end
  certified in arb, at most MAX_CERTIFIED of them (else max(a/b, b/a), with a note).
- Lower end: the exact ratio (:func:`rldp_verify.structured.rldp.p_interval`, the searched seeds) of a witness P
  certified in F: for the best (seed, bucket, pair) of a float screen, the budget split maximising the coupled
  float value on a grid, the two rows replaced by the proportional fill and lifted (Lemma A2) with rational
  masses, moved back towards P^ until ``RenyiBall.contains`` certifies it; a secret with P^_s = 0 (the whole
  simplex) as a point mass of weight delta <= (1 - e^-B)/2. P^ itself when nothing else is certified.

Which way it errs: the upper end is never below the supremum (certified ends, exact f); the lower end is attained
by a P in F; the interval is wide when the coupling matters (the decoupled upper end), and a claimed eps between
its ends is INCONCLUSIVE, never a guess.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.rldp.xi_interval import t_interval_certified
from rldp_verify.structured.ball import (
    BallResult,
    _fill,
    _float_ends,
    _float_radius,
    _rho,
    _zero_row_witness,
    as_float,
)
from rldp_verify.structured.channels import INF, ratio

__all__ = ["hashing_ball_interval"]

MAX_CERTIFIED = 400     # distinct (secret, mass) ends certified in arb for a complete seed range
GRID = 129              # budget splits of the float screen


def _key(v):
    return float("inf") if v == INF else v


def _top(st):
    vals = [v for v in (ratio(st.a, st.b), ratio(st.b, st.a)) if v is not None]
    return max(vals, key=_key) if vals else Fraction(1)


def _cells(st, phat, a2):
    """{seed: {bucket: {s: (conditional mass, number of cells of s in the bucket)}}} over the searched seeds
    (exact: integer numerators over the common denominator of P^)."""
    from rldp_verify.structured.rldp import MAX_HASHES

    seeds = list(st.seeds)
    if len(seeds) * len(phat) * a2 > MAX_HASHES:
        raise InputError(f"local hashing (eps, F)-RLDP: {len(seeds)} seeds x {len(phat) * a2} inputs is more than "
                         f"{MAX_HASHES} hash evaluations")
    L = math.lcm(*(Fraction(v).denominator for r in phat for v in r))
    ints = [[int(Fraction(v) * L) for v in r] for r in phat]
    tots = [sum(r) for r in ints]
    out = {}
    for h in seeds:
        acc: dict = {}
        for s, row in enumerate(ints):
            for u, n in enumerate(row):
                m = acc.setdefault(st.hash_fn(s * a2 + u, h), {}).setdefault(s, [0, 0])
                m[0] += n
                m[1] += 1
        out[h] = {v: {s: (Fraction(m, tots[s]) if tots[s] else Fraction(0), c) for s, (m, c) in vm.items()}
                  for v, vm in acc.items()}
    return out


def hashing_ball_interval(st, ball, *, dps: int = 40) -> BallResult:
    """The certified interval of sup_{P in F} of the local-hashing ratio (see the module docstring)."""
    from rldp_verify.structured.rldp import p_interval

    a1, a2 = ball.sensitive_size, ball.public_size
    if st.d != a1 * a2:
        raise InputError(f"PublicMixture on {st.d} values is not a channel on the {a1} x {a2} = {a1 * a2} inputs of "
                         "P^ (|S| x |U|)")
    phat = [list(r) for r in ball.phat]
    if ball.radius == 0 or a1 < 2:
        lo, hi, pair = p_interval(st, phat, (a1, a2))
        return BallResult(lo, hi, phat, pair, None, None, ["radius 0: F = {P^}" if ball.radius == 0 else
                                                           "|S| = 1: no pair s != s'; the ratio is 1"])
    if ball.radius == INF:
        raise InputError("local hashing over a Rényi ball of infinite radius: use --full-simplex's reading "
                         "(the closure of F is P_X), which local hashing over a seed range does not have exactly")
    cells = _cells(st, phat, a2)
    notes: list = []
    hi = _upper(st, ball, cells, notes, dps) if st.complete else _top(st)
    if not st.complete:
        notes.append(f"upper end max(a/b, b/a): the {len(cells)} searched seeds are not the whole public range")
    best_lo, best = Fraction(1), (phat, None)
    for W, out in _witnesses(st, ball, phat, cells, dps):
        lo, pair = _output_ratio(st, W, out, a2) if out is not None else p_interval(st, W, (a1, a2))[::2]
        if _key(lo) > _key(best_lo) or best[1] is None:
            best_lo, best = lo, (W, pair)
    hi = min(hi, _top(st), key=_key)
    if _key(best_lo) > _key(hi):
        raise CertificationError(f"(eps, F)-RLDP of local hashing: the witness's exact ratio {best_lo} is above the "
                                 f"certified upper end {hi}")
    return BallResult(best_lo, hi, best[0], best[1], None, None, notes)


# ------------------------------------------------------------------------------ the upper end (complete range)

def _end_sets(cells):
    """Per secret, the distinct (mass, cells in the bucket) over every seed and bucket."""
    out: dict = {}
    for per in cells.values():
        for v_map in per.values():
            for s, mn in v_map.items():
                out.setdefault(s, set()).add(mn)
    return out


def _certified_ends(ball, s, x, dps):
    """(t-, t+) certified for secret s's set of conditional mass x (the whole simplex when P^_s = 0)."""
    if ball.marginal(s) == 0:
        return Fraction(0), Fraction(1)
    with arb_precision(dps), mpmath.workdps(dps + 10):
        return t_interval_certified(x, ball.alpha, ball.conditional_radius_arb(s, dps=dps), dps=dps)


def _upper(st, ball, cells, notes, dps):
    a2, a1 = ball.public_size, ball.sensitive_size
    sets = _end_sets(cells)
    if sum(len(v) for v in sets.values()) + a1 > MAX_CERTIFIED:
        notes.append(f"upper end max(a/b, b/a): more than {MAX_CERTIFIED} distinct bucket masses to certify")
        return _top(st)
    ends = {}
    for s, mns in sets.items():
        for x, n in mns:                      # no cell of s in the bucket: mass 0; every cell: mass 1, any P
            ends[(s, x, n)] = ((Fraction(0),) * 2 if n == 0 else (Fraction(1),) * 2 if n == a2 else
                               _certified_ends(ball, s, x, dps))
    zero_end = {s: (Fraction(0), Fraction(0)) for s in range(a1)}     # a secret with no cell in the bucket
    up = st.a >= st.b
    best = Fraction(1)
    for per in cells.values():
        for v_map in per.values():
            e = {s: ends[(s, *v_map[s])] if s in v_map else zero_end[s] for s in range(a1)}
            for s1 in range(a1):
                for s2 in range(a1):
                    if s1 != s2:
                        x, z = (e[s1][1], e[s2][0]) if up else (e[s1][0], e[s2][1])
                        best = max(best, _rho(st.a, st.b, x, z), key=_key)
    notes.append("upper end: each conditional alone in Theorem 1's projection (the decoupled bound, certified)")
    return best


# ------------------------------------------------------------------------------ the lower end (witnesses)

def _phi_inv(y, beta):
    if beta == 0:
        return y
    arg = 1 + beta * y
    return math.inf if arg <= 0 else math.log(arg) / beta


def _candidates(st, ball, cells, count=6):
    """The best (seed, bucket, s1, s2) of the decoupled float screen (two positive secrets)."""
    alpha, B = float(ball.alpha), as_float(ball.radius)
    pos = [s for s in range(ball.sensitive_size) if ball.marginal(s) > 0]
    radii = {s: _float_radius(alpha, B, float(ball.marginal(s))) for s in pos}
    up = st.a >= st.b
    fa, fb = float(st.a), float(st.b)
    scored = []
    for h, per in cells.items():
        for v, v_map in per.items():
            xs = [float(v_map.get(s, (0, 0))[0]) for s in pos]
            r = [radii[s] for s in pos]
            tp, tm = _float_ends(xs, r, alpha, True), _float_ends(xs, r, alpha, False)
            f_hi, f_lo = fb + (fa - fb) * (tp if up else tm), fb + (fa - fb) * (tm if up else tp)
            i, j = int(np.argmax(f_hi)), int(np.argmin(f_lo))
            if i == j and len(pos) > 1:
                j = int(np.argsort(f_lo)[1])
            if i != j:
                scored.append((f_hi[i] / f_lo[j] if f_lo[j] > 0 else math.inf, h, v, pos[i], pos[j]))
    scored.sort(key=lambda t: -t[0])
    return scored[:count]


def _split(st, ball, x1, x2, s1, s2):
    """The float budget split (d1, d2) maximising f(t+(x1; d1)) / f(t-(x2; d2)) (a >= b) on a grid."""
    alpha, B = float(ball.alpha), as_float(ball.radius)
    beta = 1 - 1 / alpha
    try:
        Phi = B if beta == 0 else math.expm1(beta * B) / beta
    except OverflowError:
        Phi = math.inf
    lam = np.linspace(0.0, 1.0, GRID)
    p1, p2 = float(ball.marginal(s1)), float(ball.marginal(s2))
    d1 = np.array([_phi_inv(t * Phi / p1, beta) for t in lam])
    d2 = np.array([_phi_inv((1 - t) * Phi / p2, beta) for t in lam])
    up = st.a >= st.b
    t1 = _float_ends(np.full(GRID, float(x1)), d1, alpha, up)
    t2 = _float_ends(np.full(GRID, float(x2)), d2, alpha, not up)
    fa, fb = float(st.a), float(st.b)
    with np.errstate(divide="ignore", invalid="ignore"):
        val = (fb + (fa - fb) * t1) / (fb + (fa - fb) * t2)
    k = int(np.nanargmax(val))
    return float(t1[k]), float(t2[k])


def _output_ratio(st, W, out, a2):
    """The exact ratio P(y|s1)/P(y|s2) of W at the output y = (bucket v, seed h) (a lower end: W is in F), and
    its description."""
    h, v, s1, s2 = out
    x = []
    for s in (s1, s2):
        row = W[s]
        x.append(sum(p for u, p in enumerate(row) if st.hash_fn(s * a2 + u, h) == v) / sum(row))
    f1, f2 = st.b + (st.a - st.b) * x[0], st.b + (st.a - st.b) * x[1]
    r = ratio(f1, f2) if st.a >= st.b else ratio(f2, f1)
    s, t = (s1, s2) if st.a >= st.b else (s2, s1)
    return (Fraction(1) if r is None else r), {"s": s, "s_prime": t, "y": f"(bucket {v}, seed {h})"}


def _witnesses(st, ball, phat, cells, dps, keep=2):
    """Candidate witnesses (P in F, each certified by ``contains``; the output to read, or None for the best of
    the searched seeds): a point mass on a zero-mass secret, and the ``keep`` best screen candidates by their
    coupled float value."""
    a1, a2 = ball.sensitive_size, ball.public_size
    out = []
    zero = [s for s in range(a1) if ball.marginal(s) == 0]
    if zero:
        W = _zero_row_witness(ball, phat, zero[0])
        if W is not None:
            out.append((W, None))
    plans = []
    for _, h, v, s1, s2 in _candidates(st, ball, cells):
        (x1, n1), (x2, n2) = cells[h][v].get(s1, (Fraction(0), 0)), cells[h][v].get(s2, (Fraction(0), 0))
        t1, t2 = (float(x1), float(x2)) if 0 in (n1, n2) or a2 in (n1, n2) else _split(st, ball, x1, x2, s1, s2)
        f1, f2 = float(st.b) + float(st.a - st.b) * t1, float(st.b) + float(st.a - st.b) * t2
        plans.append((max(f1 / f2, f2 / f1) if min(f1, f2) > 0 else math.inf, h, v, s1, s2, t1, t2))
    for _, h, v, s1, s2, t1, t2 in sorted(plans, key=lambda p: -p[0])[:keep]:
        sides = []
        for s, t in ((s1, t1), (s2, t2)):
            G = {u for u in range(a2) if st.hash_fn(s * a2 + u, h) == v}
            sides.append((s, G, cells[h][v].get(s, (Fraction(0), 0))[0], Fraction(t)))
        W = _pair_witness(ball, phat, sides[0], sides[1], dps)
        if W is not None:
            out.append((W, (h, v, s1, s2)))
    return out or [(phat, None)]


def _pair_witness(ball, phat, side1, side2, dps):
    """P^ with rows s1, s2 moved to masses t1, t2 on G1, G2 (proportional fill), lifted with rational masses;
    the moves shrunk towards P^ (by 1e-12, 1e-9, ..., then halved) until membership in F is certified."""
    (s1, G1, x1, t1), (s2, G2, x2, t2) = side1, side2
    if not G1 or len(G1) == len(phat[s1]):
        t1 = x1
    if not G2 or len(G2) == len(phat[s2]):
        t2 = x2
    for c in [1 - Fraction(1, 10**k) for k in (12, 9, 6, 3, 1)] + [Fraction(1, 2**k) for k in range(1, 8)]:
        u1, u2 = x1 + (t1 - x1) * c, x2 + (t2 - x2) * c
        W = _lift_two(ball, phat, [(s1, G1, x1, u1), (s2, G2, x2, u2)], dps)
        if W is not None and ball.contains(W) is True:
            return W
    return None


def _lift_two(ball, phat, sides, dps):
    from rldp_verify.rldp.xi_interval import binary_renyi

    beta = 1 - 1 / Fraction(ball.alpha)
    masses, rows = {}, {}
    for s, G, x, t in sides:
        with mpmath.workdps(dps + 20):
            d = binary_renyi(x, t, ball.alpha) if t != x else mpmath.mpf(0)
            if d == mpmath.inf:
                return None
            w = mpmath.mpf(ball.marginal(s).numerator) / ball.marginal(s).denominator * mpmath.exp(
                mpmath.mpf(beta.numerator) / beta.denominator * d)
            masses[s] = Fraction(int(mpmath.nint(w * 10 ** (dps + 10))), 10 ** (dps + 10))
        rows[s] = _fill(phat[s], G, x, t)
    T = sum(masses.values()) + 1 - sum(ball.marginal(s) for s in masses)
    W = [[v / T for v in r] for r in phat]
    for s, R in rows.items():
        W[s] = [masses[s] * r / T for r in R]
    return W
