"""An independent optimiser over a Rényi ball F (sampling + SLSQP over the full P), used to cross-check
the audit. It knows nothing of the joint projection: it maximises P(Y=y|S=s)/P(Y=y|S=s') over P directly.
Float only; its points are filtered by D_alpha(P^||P) <= B in double precision (with a small safety
margin), so it can only under-estimate the sup."""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize


def divergence(ph, p, alpha):
    m = ph > 0
    if np.any(p[m] <= 0):
        return np.inf if alpha >= 1 else _lt1(ph, p, alpha)
    if alpha == 1:
        return float(np.sum(ph[m] * np.log(ph[m] / p[m])))
    return float(np.log(np.sum(ph[m] ** alpha * p[m] ** (1 - alpha))) / (alpha - 1))


def _lt1(ph, p, alpha):
    m = (ph > 0) & (p > 0)
    s = np.sum(ph[m] ** alpha * p[m] ** (1 - alpha))
    return np.inf if s <= 0 else float(np.log(s) / (alpha - 1))


def ratio(Q, p, a1, a2, y, s, t):
    P = p.reshape(a1, a2)
    q = Q[y].reshape(a1, a2)
    return (q[s] @ P[s] / P[s].sum()) / (q[t] @ P[t] / P[t].sum())


def best_ratio(Q, ph, alpha, B, a1, a2, rng, starts=6, samples=400):
    """max over (y, s, s') and over points found in F (float) of the ratio; returns (value, (y, s, t))."""
    ph = np.asarray(ph, float).reshape(-1)
    best, arg = 0.0, None
    n = a1 * a2
    # sampling: random directions from P^, pulled back into F by bisection on the step
    pts = []
    for _ in range(samples):
        z = rng.normal(size=n)
        direction = np.exp(z * rng.uniform(0.1, 3)) * ph + rng.uniform(0, 0.05) * rng.dirichlet(np.ones(n))
        direction /= direction.sum()
        lo, hi = 0.0, 1.0
        for _ in range(40):
            mid = (lo + hi) / 2
            if divergence(ph, (1 - mid) * ph + mid * direction, alpha) <= B * (1 - 1e-9):
                lo = mid
            else:
                hi = mid
        pts.append((1 - lo) * ph + lo * direction)
    for y in range(Q.shape[0]):
        for s in range(a1):
            for t in range(a1):
                if s == t:
                    continue
                vals = [ratio(Q, p, a1, a2, y, s, t) for p in pts]
                k = int(np.argmax(vals))
                if vals[k] > best:
                    best, arg = vals[k], (y, s, t)
    # local search on the best few pairs
    y, s, t = arg
    order = np.argsort([-ratio(Q, p, a1, a2, y, s, t) for p in pts])[:starts]
    for k in order:
        x0 = pts[k]
        cons = [{"type": "ineq", "fun": lambda p: B * (1 - 1e-9) - divergence(ph, np.maximum(p, 1e-300), alpha)},
                {"type": "eq", "fun": lambda p: p.sum() - 1}]
        r = minimize(lambda p: -ratio(Q, np.maximum(p, 1e-300), a1, a2, y, s, t), x0, method="SLSQP",
                     constraints=cons, bounds=[(1e-12, 1)] * n, options={"ftol": 1e-13, "maxiter": 300})
        p = np.maximum(r.x, 1e-300)
        p = p / p.sum()
        if divergence(ph, p, alpha) <= B * (1 - 1e-9):
            best = max(best, ratio(Q, p, a1, a2, y, s, t))
    return best, arg
