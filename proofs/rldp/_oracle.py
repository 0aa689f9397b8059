"""An oracle search over a Rényi ball F for sup_{P in F} max_{y, s != s'} P(y|s)/P(y|s') (Definition 1 of
000_aca93ed29ea857ee.txt, eq. (39)), sharing no code with the certified auditor (rldp_verify.rldp.audit): points
on rays from P^ towards random and vertex directions, the boundary of F found by bisection with our own arb
divergence (proofs.rldp._certified.arb_div), a coordinate search over the direction from the best few; every ratio
exact. Its best ratio is a certified lower bound of the supremum: an auditor's upper end below it is wrong."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.rigorous import arb_exact, arb_precision

from ._certified import arb_div


def ratio_at(Q, P, a1, a2, y, s, t) -> Fraction:
    """P(Y=y|S=s) / P(Y=y|S=s') from Definition 1 directly (exact; P flat, S-major)."""
    num = sum(Q[y][s * a2 + u] * P[s * a2 + u] for u in range(a2)) / sum(P[s * a2:(s + 1) * a2])
    den = sum(Q[y][t * a2 + u] * P[t * a2 + u] for u in range(a2)) / sum(P[t * a2:(t + 1) * a2])
    return num / den


def in_ball(phat_flat, P, alpha, B, dps: int = 50) -> bool:
    """Certified D_alpha(P^||P) <= B with our own arb divergence."""
    with arb_precision(dps):
        d = arb_div(phat_flat, P, alpha)
        return d is not None and bool(d <= arb_exact(B))


def oracle_sup(phat, alpha, B, Q, rng, directions: int = 240, starts: int = 6, dps: int = 50,
               min_step: Fraction = Fraction(1, 2**16)):
    """(best ratio, its P): rational points P^ + lam (R - P^) on the boundary of F towards ``directions`` random
    and the vertex directions R (lam by bisection), then a coordinate search over R from the ``starts`` best;
    ``phat`` a table, ``Q`` the exact matrix (rows y, columns x S-major), ``rng`` a random.Random."""
    flat = [v for row in phat for v in row]
    a1, a2 = len(phat), len(phat[0])
    n = len(flat)

    def in_F(P):
        return in_ball(flat, P, alpha, B, dps)

    def ratio(P):
        marg = [sum(P[s * a2:(s + 1) * a2]) for s in range(a1)]
        best = Fraction(0)
        for row in Q:
            cond = [sum(row[s * a2 + u] * P[s * a2 + u] for u in range(a2)) / marg[s] if marg[s] else None
                    for s in range(a1)]
            for s in range(a1):
                for t in range(a1):
                    if s != t and cond[s] is not None and cond[t]:
                        best = max(best, cond[s] / cond[t])
        return best

    def boundary(R, steps=24):
        lo, hi = Fraction(0), Fraction(1)
        if in_F([p + (r - p) for p, r in zip(flat, R, strict=True)]):
            lo = hi
        for _ in range(steps):
            if lo == hi:
                break
            mid = (lo + hi) / 2
            if in_F([p + mid * (r - p) for p, r in zip(flat, R, strict=True)]):
                lo = mid
            else:
                hi = mid
        return [p + lo * (r - p) for p, r in zip(flat, R, strict=True)]

    dirs = [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]
    for _ in range(directions):
        w = [Fraction(rng.randint(0, 20) ** 2) for _ in range(n)]       # squares: sparse and spread directions
        if sum(w) > 0:
            dirs.append([x / sum(w) for x in w])
    scored = sorted(((ratio(P), k, P, R) for k, (R, P) in enumerate((R, boundary(R)) for R in dirs)), reverse=True)
    best_r, best_P = ratio(flat), flat
    for r0, _, P0, R0 in scored[:starts]:   # coordinate search over the direction from the best few, on the boundary
        cur_r, cur_P, cur_R = r0, P0, R0
        step = Fraction(1, 8)
        while step >= min_step:
            improved = False
            for i in range(n):
                for j in range(n):
                    move = min(step, cur_R[j])
                    if i == j or move == 0:
                        continue
                    R = list(cur_R)
                    R[i] += move
                    R[j] -= move
                    P = boundary(R)
                    r = ratio(P)
                    if r > cur_r:
                        cur_r, cur_P, cur_R, improved = r, P, R, True
            if not improved:
                step /= 2
        if cur_r > best_r:
            best_r, best_P = cur_r, cur_P
    return best_r, best_P
