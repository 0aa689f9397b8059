"""Shared inputs of the mechanism claims (Secs. 5-7 of 000_aca93ed29ea857ee.txt): Example 1's data,
random instances, and helpers. Uses only the public engine API."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.claims import Outcome
from rldp_verify.rldp.mechanisms.polyopt import EmptyGammaHat
from rldp_verify.rldp.uncertainty import RenyiBall

from ..papers import paper

PAPER = paper("rldp").seed

# Example 1
PHAT = (("0.07", "0.10"), ("0.26", "0.57"))
PSTAR = (("0.1", "0.1"), ("0.2", "0.6"))
PSTAR_FLAT = [Fraction(1, 10), Fraction(1, 10), Fraction(2, 10), Fraction(6, 10)]
# Example 2's printed lower bounds (L_{u1|s1}, L_{u2|s1}; L_{u1|s2}, L_{u2|s2}) and rad
PRINTED_L = (("0.1620", "0.2829"), ("0.1923", "0.5337"))
PRINTED_RAD = ("0.6107", "0.3061")


def gamma_hat_nonempty(check):
    """For a claim whose instances all have sum_u L_{u|s} < 1, where Gamma_eps contains GRR's rows and the
    constant row: an EmptyGammaHat from the engine is an engine failure, not a counterexample to the paper, and
    the claim says INCONCLUSIVE (with the exception) instead of ERROR. Put it below ``@claim``."""
    import functools

    @functools.wraps(check)
    def wrapped(ctx):
        try:
            return check(ctx)
        except EmptyGammaHat as exc:
            return Outcome.inconclusive(f"the engine found Gamma-hat empty ({exc}) on an instance where Gamma_eps "
                                        "contains GRR's rows: an engine failure, nothing to check the claim on",
                                        engine_error=f"EmptyGammaHat: {exc}")
    return wrapped


def example_ball() -> RenyiBall:
    """Example 1's F: alpha = 2, 95 % confidence, n = 100 (radius rounded up, certified)."""
    return RenyiBall.from_confidence([list(r) for r in PHAT], 2, "0.95", 100)


def rand_table(rng, a1, a2, *, den=40, zeros=False):
    """A random exact |S| x |U| table with positive row sums (entries k/den... normalised)."""
    while True:
        w = [[rng.randint(0 if zeros else 1, 9) for _ in range(a2)] for _ in range(a1)]
        if all(sum(r) > 0 for r in w):
            tot = sum(map(sum, w))
            return tuple(tuple(Fraction(x, tot) for x in r) for r in w)


def rand_ball(rng, a1, a2, *, alpha=None, radius=None) -> RenyiBall:
    alpha = alpha if alpha is not None else rng.choice(["2", "1", "1/2", "3"])
    radius = radius if radius is not None else rng.choice(["1/100", "1/20", "1/8", "3/10"])
    return RenyiBall.from_radius(rand_table(rng, a1, a2), alpha, radius)


def rand_eps(rng):
    return rng.choice(["log(2)", "log(3/2)", "log(5/4)", "log(3)", "1/2", "1"])


def points_in_ball(ball: RenyiBall, rng, count: int):
    """Exact distributions P with D_alpha(P^||P) <= B certified (``ball.contains``): P^ itself, and
    mixtures P^ + lam (R - P^) towards random R, halving lam until membership is certified."""
    pts = [list(ball.flat())]
    a = len(pts[0])
    tries = 0
    while len(pts) < count and tries < 40 * count:
        tries += 1
        R = [Fraction(rng.randint(0, 6)) for _ in range(a)]
        if rng.random() < 0.3:  # a vertex-like direction
            R = [Fraction(0)] * a
            R[rng.randrange(a)] = Fraction(1)
        tot = sum(R)
        if tot == 0:
            continue
        R = [x / tot for x in R]
        lam = Fraction(1)
        for _ in range(20):
            P = [p + lam * (r - p) for p, r in zip(ball.flat(), R, strict=True)]
            if ball.contains(P) is True:
                pts.append(P)
                break
            lam /= 2
    return pts


def s(x, digits=6):
    """A short decimal string of an mpf/Fraction."""
    if isinstance(x, Fraction):
        x = mpmath.mpf(x.numerator) / x.denominator
    return mpmath.nstr(x, digits)


SIZES = ((2, 2), (2, 3), (3, 2))


def robust_extreme_lp(a, L, largest: bool) -> Fraction:
    """max (or min) of R^T a over D = {R : R_u >= L_u, sum R = 1}, by an exact LP (rldp_verify.core.lp),
    independent of the closed form used by the engine."""
    from rldp_verify.core.lp import solve_exact

    n = len(a)
    c = [Fraction(x) if largest else -Fraction(x) for x in a]
    A = [[Fraction(-1) if j == i else Fraction(0) for j in range(n)] for i in range(n)]
    b = [-Fraction(x) for x in L]
    res = solve_exact(c, A, b, [[Fraction(1)] * n], [Fraction(1)])
    assert res.status == "optimal"
    return res.value if largest else -res.value


def definition3_max(v, L, r, s1, s2, a2):
    """max over u1, u2 of the left-hand side of Definition 3 (eq. (3)) for the pair (s1, s2)."""
    best = None
    for u1 in range(a2):
        for u2 in range(a2):
            lhs = (v[s1 * a2 + u1] - r * v[s2 * a2 + u2]
                   + sum(L[s1][u] * (v[s1 * a2 + u] - v[s1 * a2 + u1]) for u in range(a2))
                   - r * sum(L[s2][u] * (v[s2 * a2 + u] - v[s2 * a2 + u2]) for u in range(a2)))
            best = lhs if best is None else max(best, lhs)
    return best


def rand_instance(rng, k):
    """(ball, eps) for the k-th random instance."""
    a1, a2 = SIZES[k % len(SIZES)]
    return rand_ball(rng, a1, a2), rand_eps(rng)
