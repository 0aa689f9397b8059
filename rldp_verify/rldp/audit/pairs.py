"""The (y, s, s') pairs of one Rényi-ball audit (:mod:`rldp_verify.rldp.audit.core`): their order by float
estimates of Proposition 3's bound, the loop that certifies them (the leading pairs in arb, the float screen
of :mod:`rldp_verify.rldp.audit.screen` for the rest, the pairs it does not settle in arb), Proposition 3's
exact bound for pairs left uncertified, and witnesses of the D_inf ball.

Paper: [lopuhaa-2024], Proposition 3 (F = P_X): sup_{P in P_X} P(y|s) / P(y|s') =
max_u Q[y|s,u] / min_u Q[y|s',u], a bound over every F (0/0 = 1, x/0 = inf).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.audit import exact as exact_audits
from rldp_verify.rldp.audit.dual import to_float
from rldp_verify.rldp.audit.pair import PairResult
from rldp_verify.rldp.audit.screen import certify_float

INF = math.inf

# the float screen runs only where float64 represents the problem faithfully (otherwise every pair is certified
# in arb, and the time limit bounds the rest by Proposition 3)
SCREEN_ALPHA = (1e-4, 1e6)
CHUNK = 50_000  # pairs per call of the float screen (memory: CHUNK x grid floats per table)
SCREEN_TINY = 1e-290


def screen_unsafe(Q, phat, alpha: Fraction, radius) -> str | None:
    """Why float64 cannot carry this audit's screen (None when it can)."""
    if not SCREEN_ALPHA[0] <= alpha <= SCREEN_ALPHA[1]:
        return f"alpha outside [{SCREEN_ALPHA[0]:g}, {SCREEN_ALPHA[1]:g}]"
    if radius > Fraction(10**6):
        return "radius above 1e6"
    tiny = Fraction(SCREEN_TINY)
    if any(0 < v < tiny for row in Q for v in row) or any(0 < v < tiny for row in phat for v in row):
        return f"entries below {SCREEN_TINY:g}"
    return None


def px_estimates(Qf, a1, a2):
    """est[y, s1, s2] = max_u Q[y|s1,u] / min_u Q[y|s2,u] in floats (the order of the pairs without a screen)."""
    q = Qf.reshape(Qf.shape[0], a1, a2)
    mx, mn = q.max(axis=2), q.min(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(mn[:, None, :] > 0, mx[:, :, None] / np.where(mn[:, None, :] > 0, mn[:, None, :], 1.0),
                       np.where(mx[:, :, None] > 0, np.inf, 1.0))
    est[:, np.arange(a1), np.arange(a1)] = -np.inf
    return est


def px_bound(pairs, Qf, rows, a1, a2):
    """The exact max over ``pairs`` (k, 3) of max_u Q[y|s1,u] / min_u Q[y|s2,u] (Proposition 3: valid over
    all of P_X; 0/0 = 1, x/0 = inf). Floats pick the candidates within 1e-9 of the float maximum; the
    maximum over the candidates is exact."""
    if not len(pairs):
        return Fraction(0)
    est = px_estimates(Qf, a1, a2)[pairs[:, 0], pairs[:, 1], pairs[:, 2]]
    top = est.max()
    cand = pairs[est >= top * (1 - 1e-9)] if np.isfinite(top) else pairs[~np.isfinite(est)]
    best = Fraction(0)
    for y, s1, s2 in cand[:4096]:
        q1, q2 = rows[int(y)][int(s1)], rows[int(y)][int(s2)]
        if min(q2) == 0:
            if max(q1) > 0:
                return INF
            best = max(best, Fraction(1))
            continue
        best = max(best, max(q1) / min(q2))
    if len(cand) > 4096:  # pragma: no cover - many ties: the bound over every pair of the matrix
        return max(best, px_bound(np.array([(y, s, t) for y in range(len(rows)) for s in range(a1)
                                             for t in range(a1) if s != t]), Qf, rows, a1, a2)
                   if len(pairs) < len(rows) * a1 * (a1 - 1) else INF)
    return best


def px_ok(pairs, Qf, rows, a1, a2, r_cut: Fraction):
    """Boolean array: max_u Q[y|s1,u] <= r_cut * min_u Q[y|s2,u], decided exactly (Fractions)."""
    out = np.zeros(len(pairs), dtype=bool)
    if not len(pairs):
        return out
    q = Qf.reshape(Qf.shape[0], a1, a2)
    y, s1, s2 = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    cand = q[y, s1].max(axis=1) <= to_float(r_cut) * q[y, s2].min(axis=1) * (1 + 1e-9)
    for k in np.flatnonzero(cand):
        yy, a, b = (int(v) for v in pairs[k])
        out[k] = max(rows[yy][a]) <= r_cut * min(rows[yy][b])
    return out
def pair_codes(pairs, a1: int):
    """One integer per (y, s1, s2) row of ``pairs`` (for vectorised membership tests)."""
    return (pairs[:, 0].astype(np.int64) * a1 + pairs[:, 1]) * a1 + pairs[:, 2]


def in_results(pairs, results, a1: int):
    """Boolean array: the rows of ``pairs`` that ``results`` holds (its (y, s1, s2) keys)."""
    keys = np.array([k for k in results if len(k) == 3], dtype=np.int64).reshape(-1, 3)
    return np.isin(pair_codes(pairs, a1), pair_codes(keys, a1))


def certify_pairs(all_pairs, est, top_est, results, solve, screen, pre, notes, rows, Qf, phat_f, Phi, tab, alpha,
                  a1, a2, screened: list):
    """Certify the pairs (leading ones in arb, the float screen, the rest in arb) into ``results``; the pairs
    the screen settled are appended to ``screened`` as one array (bounded by ``results[("screen",)]``)."""
    n_all = len(all_pairs)
    if not screen:
        progress.step(f"{pre}(y, s, s') pairs certified in arb (no screen)", n_all, "pairs")
        for i, p in enumerate(all_pairs):
            progress.update(i)
            solve(p)
    else:
        # the leading pairs by estimate
        lead = [p for p in all_pairs[:16] if est[tuple(p)] >= top_est * (1 - 1e-3) or est[tuple(p)] == np.inf]
        lead = lead or list(all_pairs[:1])
        progress.step(f"{pre}leading (y, s, s') pairs certified in arb (of {n_all} pairs)", len(lead), "pairs")
        for i, p in enumerate(lead):
            progress.update(i)
            solve(p)
        r_cut = max(r.hi for r in results.values())
        rest = all_pairs[~in_results(all_pairs, results, a1)]
        if len(rest):
            progress.step(f"{pre}float screen of the other {len(rest)} (y, s, s') pairs")
            if r_cut == INF or not math.isfinite(to_float(r_cut)):
                bad = rest
            else:
                r_f = float(np.nextafter(to_float(r_cut), 0.0))
                if Fraction(r_f) > r_cut:  # pragma: no cover - defensive
                    r_f = float(np.nextafter(r_f, 0.0))
                with np.errstate(all="ignore"):
                    # in chunks: each pair carries (G,) rows of the tables (1.4 M pairs x 64 floats = 0.7 GB at once)
                    ok = np.concatenate([certify_float(tab, Qf, phat_f, to_float(alpha), Phi, r_f, rest[i:i + CHUNK])
                                         for i in range(0, len(rest), CHUNK)])
                    # Proposition-3 bound max_u q1 / min_u q2 (valid over all of P_X), confirmed exactly
                    px = px_ok(rest[~ok], Qf, rows, a1, a2, r_cut)
                idx = np.flatnonzero(~ok)
                ok[idx[px]] = True
                screened.append(rest[ok])
                results[("screen",)] = PairResult(-1, -1, -1, None, r_cut)
                bad = rest[~ok]
            cap = 400
            if len(bad) > cap:
                notes.append(f"{len(bad)} pairs were not settled by the float screen; only {cap} were certified "
                             "individually, the rest are bounded by Proposition 3 (max/min of the entries)")
            progress.step(f"{pre}(y, s, s') pairs the screen did not settle, certified in arb",
                          min(len(bad), cap), "pairs")
            for i, p in enumerate(bad[:cap]):
                progress.update(i)
                solve(p)
            if len(bad) > cap:
                results[("cap",)] = PairResult(-1, -1, -1, None, px_bound(bad[cap:], Qf, rows, a1, a2))


def dinf_witness(Q, phat, B: Fraction, a1: int, a2: int, dps: int, pairs: int = 16):
    """The best of a few exact members of the D_inf ball {P : P_x >= e^-B P-hat_x for all x}, which lies inside
    every Rényi ball of radius B (D_alpha <= D_inf, van Erven & Harremoës, Theorem 3): P = e P-hat plus the
    free mass 1 - e (e a certified upper bound of e^-B, so P_x >= e^-B P-hat_x) on the cell (s, u) maximising
    Q[y|s, .] and/or the cell (s', u') minimising Q[y|s', .], split 1:0, 3:1, 1:1, 1:3, 0:1, for the
    ``pairs`` (y, s, s') with the largest Proposition-3 bounds. Returns (ratio, argmax, P) of
    :func:`exact.audit_single` at the best P (exact)."""
    with arb_precision(dps + 10):
        e = min(Fraction(arb_upper(arb_exact(-Fraction(B)).exp())), Fraction(1))
    free = 1 - e
    Qf = np.array([[to_float(v) for v in row] for row in Q])
    est = px_estimates(Qf, a1, a2)
    order = np.argsort(-est, axis=None)[:pairs]
    best: tuple = (None, None, None)   # (ratio, argmax, P)
    for y, s1, s2 in np.array(np.unravel_index(order, est.shape)).T:
        y, s1, s2 = int(y), int(s1), int(s2)
        if s1 == s2:
            continue
        b1, b2 = Q[y][s1 * a2:(s1 + 1) * a2], Q[y][s2 * a2:(s2 + 1) * a2]
        u1, u2 = b1.index(max(b1)), b2.index(min(b2))
        for share in (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), Fraction(0)):
            P = [[e * p for p in row] for row in phat]
            P[s1][u1] += share * free
            P[s2][u2] += (1 - share) * free
            W = tuple(tuple(r) for r in P)
            rho, arg = exact_audits.audit_single(Q, W, a1, a2)
            if arg is not None and (best[0] is None or rho > best[0]):
                best = (rho, arg, W)
    return best




def product_upper(Q, ball, a1: int, a2: int, dps: int, deadline, cap: int = 64):
    """A certified upper end over every (y, s, s') pair of ``ball``: the pairs in the order of their
    Proposition-3 bound, each bounded by the smaller of that bound and the product of its Theorem-1 projections
    (:func:`~rldp_verify.rldp.audit.pair.product_bound`), until the next pair's Proposition-3 bound is below the
    maximum so far (or ``cap`` pairs, or the deadline); the pairs left are bounded by Proposition 3. Sound
    for every radius; finite where Proposition 3 is infinite (a zero entry) but F keeps the cell away from 0."""
    from rldp_verify.rldp.audit.pair import PairProblem, product_bound

    Qf = np.array([[to_float(v) for v in row] for row in Q])
    est = px_estimates(Qf, a1, a2)
    flat = np.argsort(-est, axis=None)
    pairs = np.array(np.unravel_index(flat, est.shape)).T
    pairs = pairs[pairs[:, 1] != pairs[:, 2]]
    rows = [[tuple(Q[y][s * a2:(s + 1) * a2]) for s in range(a1)] for y in range(len(Q))]
    best = Fraction(0)
    k = 0
    while k < min(cap, len(pairs)) and not deadline.expired():
        y, s1, s2 = (int(v) for v in pairs[k])
        if est[y, s1, s2] < to_float(best) * (1 - 1e-9):
            break
        b = min(px_bound(pairs[k:k + 1], Qf, rows, a1, a2), product_bound(PairProblem(ball, rows[y], y, s1, s2), dps))
        best = max(best, b)
        k += 1
    rest = pairs[k:]
    return max(best, px_bound(rest, Qf, rows, a1, a2)) if len(rest) else best
