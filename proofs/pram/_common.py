"""Shared data for the claims of seed 002 (Ayed, Battiston & Camerlenghi, PRAM under DP)."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.core.numbers import exact

from ..papers import paper

PAPER = paper("pram").seed

# Sec. 4.1, the printed probability vectors (exact decimals as printed).
SCENARIO_I = [exact(x) for x in ["0.3", "0.1", "0.2", "0.08", "0.02", "0.04", "0.06", "0.1", "0.01", "0.09"]]
SCENARIO_II = [exact(x) for x in
               ["0.0336", "0.1059", "0.1697", "0.0962", "0.0180", "0.0062", "0.1097", "0.0005", "0.1233", "0.3369"]]
SCENARIO_IV = [Fraction(5, 100)] + [Fraction(95, 100) / 29] * 29
ALPHAS = ("0.5", "1", "1.5", "2")  # Sec. 4.1


def e_alpha(alpha: str) -> mpmath.mpf:
    """e^alpha at the current mpmath precision for a printed decimal alpha."""
    return mpmath.exp(mpmath.mpf(exact(alpha).numerator) / exact(alpha).denominator)


def rational_brackets(alpha: str, digits: int = 30) -> tuple[Fraction, Fraction]:
    """Rationals lo < e^alpha < hi with hi - lo = 10^-digits (from an arb enclosure; rounded
    outward, so the true e^alpha is strictly inside)."""
    import flint

    from rldp_verify.core.rigorous import arb_exact, arb_precision, lower, upper

    with arb_precision(digits + 20):
        e = flint.arb.exp(arb_exact(exact(alpha)))
        lo_f, hi_f = lower(e), upper(e)
    scale = 10 ** digits
    lo = Fraction((lo_f * scale).__floor__(), scale)
    hi = Fraction(-((-hi_f * scale).__floor__()), scale)
    assert lo < hi
    return lo, hi


def rational_points(n: int, rng, S: int, lo=Fraction(0), hi=Fraction(1), denom: int = 997):
    """n random rational vectors in [lo, hi]^S with denominator ``denom``."""
    out = []
    for _ in range(n):
        out.append([lo + (hi - lo) * Fraction(rng.randint(0, denom), denom) for _ in range(S)])
    return out


def rational_distribution(rng, S: int, full_support: bool = True, denom: int = 50):
    lo = 1 if full_support else 0
    while True:
        w = [rng.randint(lo, denom) for _ in range(S)]
        if sum(w) > 0:
            return [Fraction(x, sum(w)) for x in w]


_VERTEX_CACHE: dict = {}
VERTEX_METHOD: dict = {}   # (S, t) -> how dp_vertices obtained the vertices


def dp_vertices(S: int, t: Fraction):
    """Exact vertices of the DP polytope of family (8) (cached: the slow claims share them).

    First Proposition 3.2's 2^S points are tried as the vertex set with the adjacency certificate
    :func:`rldp_verify.topics.pram.certify_vertex_set` (exact; one tangent cone per orbit instead of enumerating);
    where it does not apply (outside the proposition's range, or S < 4), cdd enumerates the vertices.
    ``VERTEX_METHOD[(S, t)]`` says which."""
    from rldp_verify.topics import pram

    key = (S, t)
    if key not in _VERTEX_CACHE:
        rows = pram.dp_rows(S, t)
        cert = {"ok": False, "reason": "S < 4"}
        if S >= 4:
            cert = pram.certify_vertex_set(rows, S, [pram.point(p, S, t) for p in pram.prop32_patterns(S)])
        if cert["ok"]:
            _VERTEX_CACHE[key] = sorted({tuple(pram.point(p, S, t)) for p in pram.prop32_patterns(S)})
            VERTEX_METHOD[key] = (f"Proposition 3.2's points certified as the vertex set by adjacency "
                                  f"({cert['orbits']} orbits, {cert['edges']} edges at their representatives)")
        else:
            _VERTEX_CACHE[key] = pram.vertices(rows, S)
            VERTEX_METHOD[key] = f"cdd enumeration (adjacency certificate not applicable: {cert['reason']})"
    return _VERTEX_CACHE[key]
