"""The fast floating-point pass over all (y, s, s') of a Rényi-ball audit.

Paper: [lopuhaa-2024], Definition 1 and Sec. 4; the joint projection and the dual bound are
in :mod:`rldp_verify.rldp.audit.dual`.

1. For every (y, s) and both directions (max and min of <Q_{y|s}, R>) the maximiser curve of
   :mod:`rldp_verify.rldp.audit.blocks` is tabulated and interpolated onto a common grid of budgets
   b in [0, phi(B)] (block s at budget b has level d = phi^{-1}(b / P^_s)).
2. For every pair, est = max_g U_{y,s1}(b_g) / L_{y,s2}(phi(B) - b_g): a point estimate of the worst
   ratio (an approximate lower value; the table ignores mass on cells with P^_{s,u} = 0).
3. ``certify_float`` evaluates the dual bound Dual(lambda, mu1, mu2) of G = sup <q1,R1> - r<q2,R2>
   at parameters read off the tables (lambda re-optimised) and accepts a pair when
   Dual <= -1e-9 * (sum of the magnitudes of its terms).

Trust level (explicit): the acceptance in step 3 is exact mathematics (any parameters give an upper
bound) evaluated in IEEE double precision; it is sound as long as numpy's exp/log/pow err by less than
about 10^6 ulp (documented errors are a few ulp). Pairs that are not accepted go to the arb
certification of :mod:`rldp_verify.rldp.audit.pair`; ``screen=False`` in :func:`rldp_verify.rldp.audit.audit`
sends every pair there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rldp_verify.rldp.audit.blocks import curve_np
from rldp_verify.rldp.audit.dual import phi_inv_np, power_mean_np, psi_level_np, psi_np

T_GRID = np.logspace(-12, 8, 120)
MARGIN = 1e-9


@dataclass
class Tables:
    """Float tables of the vectorised screen over (y, s, budget grid g); a proposal, never a certificate."""
    U: np.ndarray        # (Y, S, G) max <q_{y,s}, R> at budget b_g
    L: np.ndarray        # (Y, S, G) min <q_{y,s}, R> at budget Phi - b_g
    tU: np.ndarray       # curve parameters t of the maximisers (Y, S, G)
    tL: np.ndarray
    budgets: np.ndarray  # (G,)


def _interp_rows(dq, d, val, logt):
    """Interpolate val and log t at levels dq (G,) for every row of d (n, K) (d decreasing in K)."""
    n = d.shape[0]
    out_v = np.empty((n, dq.shape[-1]))
    out_t = np.empty((n, dq.shape[-1]))
    dr = d[:, ::-1]
    vr = val[:, ::-1]
    tr = logt[::-1]
    dr = np.maximum.accumulate(dr, axis=1)
    for i in range(n):
        q = dq[i] if dq.ndim == 2 else dq
        out_v[i] = np.interp(q, dr[i], vr[i])
        out_t[i] = np.interp(q, dr[i], tr)
    return out_v, out_t


def build_tables(Q, phat, alpha: float, Phi: float, *, grid: int = 64) -> Tables:
    """Q: (Y, S*U) floats; phat: (S, U) floats; Phi = phi(B) (finite)."""
    beta = 1 - 1 / alpha
    Y = Q.shape[0]
    S, Uc = phat.shape
    q = Q.reshape(Y, S, Uc)
    mass = phat.sum(axis=1)
    cond = np.where(mass[:, None] > 0, phat / np.where(mass[:, None] > 0, mass[:, None], 1.0), 0.0)
    x = (1 - np.cos(np.linspace(0, np.pi, grid))) / 2
    with np.errstate(invalid="ignore", over="ignore"):
        budgets = Phi * x
    logt = np.log(T_GRID)
    U = np.empty((Y, S, grid))
    L = np.empty((Y, S, grid))
    tU = np.empty((Y, S, grid))
    tL = np.empty((Y, S, grid))
    for s in range(S):
        if mass[s] == 0:
            U[:, s, :] = q[:, s, :].max(axis=1)[:, None]
            L[:, s, :] = q[:, s, :].min(axis=1)[:, None]
            tU[:, s, :] = -30.0
            tL[:, s, :] = -30.0
            continue
        # Phi = inf (phi(B) overflows float64 for large B) gives inf - inf = nan here; phi_inv_np maps nan to
        # inf and the next lines to 1e300: the largest divergence budget, which errs towards "not private".
        with np.errstate(invalid="ignore", over="ignore"):
            dU = phi_inv_np(budgets / mass[s], beta)
            dL = phi_inv_np((Phi - budgets) / mass[s], beta)
        dU = np.where(np.isfinite(dU), dU, 1e300)
        dL = np.where(np.isfinite(dL), dL, 1e300)
        # identical rows (common in structured mechanisms) share one curve
        uniq, inv = np.unique(q[:, s, :], axis=0, return_inverse=True)
        inv = inv.reshape(-1)
        w = np.broadcast_to(cond[s], uniq.shape)
        d1, v1 = curve_np(uniq, w, alpha, T_GRID)
        u_, t_ = _interp_rows(dU, d1, v1, logt)
        U[:, s, :], tU[:, s, :] = u_[inv], t_[inv]
        d2, v2 = curve_np(-uniq, w, alpha, T_GRID)
        negL, t_ = _interp_rows(dL, d2, v2, logt)
        L[:, s, :], tL[:, s, :] = -negL[inv], t_[inv]
    return Tables(U, L, tU, tL, budgets)


def estimates(tab: Tables):
    """est[y, s1, s2] = max_g U/L (inf when L = 0 < U; s1 = s2 gets -inf) and the argmax g."""
    Y, S, G = tab.U.shape
    est = np.empty((Y, S, S))
    g = np.empty((Y, S, S), dtype=np.intp)
    for y in range(Y):  # one output at a time: (S, S, G) floats, not (Y, S, S, G) (240 x 1 with 24 outputs: 1.6 GB)
        U = tab.U[y, :, None, :]
        L = tab.L[y, None, :, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(L > 0, U / np.where(L > 0, L, 1.0), np.where(U > 0, np.inf, 1.0))
        g[y] = np.argmax(ratio, axis=-1)
        est[y] = np.take_along_axis(ratio, g[y][..., None], axis=-1)[..., 0]
    est[:, np.arange(S), np.arange(S)] = -np.inf
    return est, g


def certify_float(tab: Tables, Q, phat, alpha: float, Phi: float, r: float, pairs):
    """Boolean array: pairs (k, 3) of (y, s1, s2) whose dual bound at r is certainly <= 0 (see module doc)."""
    beta = 1 - 1 / alpha
    S, Uc = phat.shape
    q = Q.reshape(Q.shape[0], S, Uc)
    mass = phat.sum(axis=1)
    cond = np.where(mass[:, None] > 0, phat / np.where(mass[:, None] > 0, mass[:, None], 1.0), 0.0)
    y, s1, s2 = pairs[:, 0], pairs[:, 1], pairs[:, 2]
    q1, q2 = q[y, s1, :], q[y, s2, :]
    w1, w2 = cond[s1], cond[s2]
    m1, m2 = mass[s1], mass[s2]
    # split maximising U - r L on the grid
    obj = tab.U[y, s1, :] - r * tab.L[y, s2, :]
    g = np.argmax(obj, axis=-1)
    t1 = np.exp(tab.tU[y, s1, g])
    t2 = np.exp(tab.tL[y, s2, g])
    mu1 = _mu(q1, w1, t1)
    nu2 = _mu(-q2, w2, t2)
    mu2 = r * nu2
    v2 = -r * q2
    mu1 = np.maximum(mu1, q1.max(axis=1))
    mu2 = np.maximum(mu2, v2.max(axis=1))
    M1 = power_mean_np(mu1[:, None] - q1, w1, beta)
    M2 = power_mean_np(mu2[:, None] - v2, w2, beta)
    lam = _best_lambda(M1, M2, m1, m2, beta, Phi)
    P1 = np.where(m1 > 0, psi_np(lam * m1, M1, beta), 0.0)
    P2 = np.where(m2 > 0, psi_np(lam * m2, M2, beta), 0.0)
    # blocks with zero mass are unconstrained: contribution max v
    mu1 = np.where(m1 > 0, mu1, q1.max(axis=1))
    mu2 = np.where(m2 > 0, mu2, v2.max(axis=1))
    dual = lam * Phi + mu1 + mu2 + P1 + P2
    scale = np.abs(lam * Phi) + np.abs(mu1) + np.abs(mu2) + np.abs(P1) + np.abs(P2)
    ok = np.isfinite(dual) & (dual <= -MARGIN * scale - 1e-300)
    return ok


def _mu(v, w, t):
    pos = w > 0
    vmax = np.max(np.where(pos, v, -np.inf), axis=1)
    vmin = np.min(np.where(pos, v, np.inf), axis=1)
    spread = np.where(vmax > vmin, vmax - vmin, 1.0)
    return vmax + spread * t


def _best_lambda(M1, M2, m1, m2, beta, Phi):
    """lambda minimising lambda*Phi + Psi(lambda m1, M1) + Psi(lambda m2, M2) (vectorised)."""
    n = M1.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        c1 = np.where(m1 > 0, M1 / np.where(m1 > 0, m1, 1.0), 0.0)
        c2 = np.where(m2 > 0, M2 / np.where(m2 > 0, m2, 1.0), 0.0)
    hi = np.maximum(np.maximum(c1, c2), 1e-300) * (1 + 1e-9)
    if 1 + beta <= 0:
        # piecewise linear: candidates 0 and the kinks lambda = -M_i beta / m_i
        cands = [np.zeros(n), -beta * c1, -beta * c2]
        best = None
        bestv = None
        for c in cands:
            val = (c * Phi + np.where(m1 > 0, psi_np(c * m1, M1, beta), 0)
                   + np.where(m2 > 0, psi_np(c * m2, M2, beta), 0))
            if best is None:
                best, bestv = c.copy(), val
            else:
                better = val < bestv
                best = np.where(better, c, best)
                bestv = np.where(better, val, bestv)
        return best
    lo_log = np.log(hi) - 80.0
    hi_log = np.log(hi)
    for _ in range(60):  # 80 / 2^60 in log lambda: below float64's resolution of log lambda (any lambda is sound)
        mid = (lo_log + hi_log) / 2
        lam = np.exp(mid)
        der = Phi - np.where(m1 > 0, m1 * psi_level_np(lam * m1, M1, beta), 0.0) \
            - np.where(m2 > 0, m2 * psi_level_np(lam * m2, M2, beta), 0.0)
        pos = der > 0
        hi_log = np.where(pos, mid, hi_log)
        lo_log = np.where(pos, lo_log, mid)
    return np.exp(hi_log)
