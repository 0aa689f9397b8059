"""The four release-protocol problems NUNP, NURP, RUNP, RURP as convex programs (cvxpy + Clarabel).

Source: Goseling & Lopuhaä-Zwakenberg, "Robust Optimization for Local Differential Privacy" (ISIT),
[goseling-2021], Sec. II eqs. (7)-(10), Sec. IV eqs. (21), (22), (27), (29).

The variable is the protocol ``Q[s, u, y] = P_{Y|SU}(y | s, u)`` (``Y`` takes values in ``U``).

* Non-robust privacy (NP), eq. (6) at ``P_hat``:
  ``sum_u P_hat_{u|s1} Q[s1,u,y] <= e^eps sum_u P_hat_{u|s2} Q[s2,u,y]`` -- linear.
* Robust privacy (RP), eq. (30) with the arguments of Lemma 2 (eq. 27), i.e.
  ``delta*(Q[s1,.,y], -e^eps Q[s2,.,y] | F_{U|s1,s2}) <= 0`` with the support function of
  Theorem 4, eq. (29). Eq. (29) is jointly convex in ``(c, w)`` and is written with ``w_i = M_i 1``
  (optimal for given ``max w_i``) and the hypograph of ``c^{2/3} lambda_i^{2/3}``:
  ``z_i <= (sum_u P_hat_{s_i,u} r_{i,u})^{2/3} c^{1/3}`` (3-d power cone) and
  ``r_{i,u}^2 <= c (M_i - v_i(u))`` (second-order cone); then
  ``M_1 + M_2 + c C - K (z_1 + z_2) <= 0``, ``K = 2^{-2/3} + 2^{1/3}``.
* Non-robust utility (NU): minimise ``sum P_hat_{s,u} Q[s,u,y] d(u,y)`` (eq. 7).
* Robust utility (RU): minimise ``D`` subject to eq. (22) with Theorem 2's eq. (21):
  ``-2 sum P_hat_{s,u} r_{s,u} + M + c (B+1) <= D``, ``r_{s,u}^2 <= c (M - b_{s,u})``,
  ``b_{s,u} = sum_y Q[s,u,y] d(u,y)`` (second-order cones only).

Re-checks (STYLE.md item 6): the solver status must be optimal; the protocol is cleaned (entries
below ``clean_tol`` set to 0, rows renormalised) and then the constraints are re-evaluated on the
cleaned protocol: the non-robust privacy ratios directly, the robust ones by evaluating the eq. (29)
objective at the solver's dual point (raised to ``M_i = max v_i`` where needed), which upper-bounds
the support function by weak duality; robust utility likewise by eq. (21). A violation above
``check_tol`` raises :class:`CertificationError`. Results are floating point (double precision);
they are measurements, not certificates.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np

from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.validate import require_sum_one

PROBLEMS = ("NUNP", "NURP", "RUNP", "RURP")
K_LEMMA8 = 2.0 ** (-2.0 / 3.0) + 2.0 ** (1.0 / 3.0)

__all__ = ["PROBLEMS", "Solution", "ProtocolSolver", "realised_distortion", "realised_eps",
           "squared_distance"]


def squared_distance(U) -> np.ndarray:
    """``d(u, y) = (u - y)^2`` on the alphabet ``U`` (Sec. V), as a |U| x |U| matrix."""
    u = np.asarray(U, dtype=float)
    return (u[:, None] - u[None, :]) ** 2


def _table(name, P, shape=None) -> np.ndarray:
    P = np.asarray(P, dtype=float)
    if P.ndim != 2:
        raise InputError(f"{name} must be a |S| x |U| table, got shape {P.shape}")
    if shape is not None and P.shape != shape:
        raise InputError(f"{name} has shape {P.shape}, expected {shape}")
    if not np.all(np.isfinite(P)) or np.any(P < 0):
        raise InputError(f"{name} has a negative or non-finite entry")
    if abs(P.sum() - 1) > 1e-9:
        require_sum_one(P.sum(), name, repr(P.sum()), must=True, holds=False)
    return P


def realised_eps(Q, P, negligible: float = 0.0) -> float:
    """``eps* = log max_{y,s1,s2} P_{y|s1} / P_{y|s2}`` of eq. (32) under the distribution ``P``.

    ``P_{y|s} = sum_u P_{u|s} Q[s,u,y]``; ``0/0 = 1`` and ``x/0 = inf`` for ``x > 0``. Rows ``s`` with
    ``P_s = 0`` have no conditional and are skipped. Float arithmetic.

    ``negligible``: outputs ``y`` with ``max_s P_{y|s} < negligible`` are treated as never emitted
    (their ratio is a 0/0 of the exact optimum). Interior-point solvers return such exact zeros as
    values around 1e-9 whose ratios are numerical noise; ``negligible = 0`` keeps every output.
    This errs towards "private" only for outputs of probability below ``negligible``.
    """
    Q = np.asarray(Q, dtype=float)
    P = np.asarray(P, dtype=float)
    if not negligible >= 0:
        raise InputError(f"negligible must be >= 0, got {negligible!r}")
    Ps = P.sum(axis=1)
    rows = [s for s in range(P.shape[0]) if Ps[s] > 0]
    Py = {s: (P[s] / Ps[s]) @ Q[s] for s in rows}
    worst = 0.0
    for s1 in rows:
        for s2 in rows:
            if s1 == s2:
                continue
            for y in range(Q.shape[2]):
                if max(Py[s][y] for s in rows) < negligible:
                    continue
                a, b = Py[s1][y], Py[s2][y]
                if a == 0:
                    continue
                if b == 0:
                    return math.inf
                worst = max(worst, math.log(a / b))
    return worst


def realised_distortion(Q, P, d) -> float:
    """``D* = E_{(S,U) ~ P} d(U, Y) = sum P_{s,u} Q[s,u,y] d(u,y)`` of eq. (31)."""
    Q = np.asarray(Q, dtype=float)
    return float(np.einsum("su,suy,uy->", np.asarray(P, dtype=float), Q, np.asarray(d, dtype=float)))


@dataclass
class Solution:
    """A solved problem: the cleaned protocol ``Q``, the optimal value reported by the solver, and the
    re-checked quantities (``max_violation`` of the privacy constraints on the cleaned protocol and,
    for robust utility, the eq. (21) upper bound ``D_bound`` of the worst-case distortion)."""

    problem: str
    Q: np.ndarray
    value: float
    status: str
    max_violation: float
    D_bound: float | None = None
    info: dict = field(default_factory=dict)


class ProtocolSolver:
    """Builds the cvxpy model of one problem once (with parameters) and solves it for many inputs.

    ``ProtocolSolver(kind, n_s, d, eps)``: ``kind`` in :data:`PROBLEMS`, ``d`` the |U| x |U| distortion
    matrix (``Y = U``). :meth:`solve` takes the estimate ``P_hat`` (|S| x |U|) and the radius ``B``.
    """

    def __init__(self, kind: str, n_s: int, d, eps: float, *, clean_tol: float = 1e-8,
                 check_tol: float = 1e-6):
        import cvxpy as cp

        if kind not in PROBLEMS:
            raise InputError(f"unknown problem {kind!r}; expected one of {', '.join(PROBLEMS)}")
        d = np.asarray(d, dtype=float)
        if d.ndim != 2 or d.shape[0] != d.shape[1]:
            raise InputError(f"distortion matrix must be square |U| x |U|, got shape {d.shape}")
        if int(n_s) != n_s or n_s < 2:
            raise InputError(f"|S| must be an integer >= 2, got {n_s!r}")
        if not eps >= 0 or not math.isfinite(eps):
            raise InputError(f"privacy parameter must be finite and >= 0, got eps={eps!r}")
        self.kind, self.n_s, self.d, self.eps = kind, int(n_s), d, float(eps)
        self.clean_tol, self.check_tol = clean_tol, check_tol
        nS, nU = self.n_s, d.shape[0]
        self.n_u = nU
        ee = math.exp(self.eps)
        self.Q = [cp.Variable((nU, nU), nonneg=True, name=f"Q{s}") for s in range(nS)]
        self.P_hat = cp.Parameter((nS, nU), nonneg=True, name="P_hat")
        cons = [cp.sum(Qs, axis=1) == 1 for Qs in self.Q]
        robust_priv, robust_util = kind[2] == "R", kind[0] == "R"
        self.pairs = [(s1, s2) for s1 in range(nS) for s2 in range(nS) if s1 != s2]
        if robust_priv:
            self.C = cp.Parameter(len(self.pairs), nonneg=True, name="C")
            self.priv = []
            for k, (s1, s2) in enumerate(self.pairs):
                c = cp.Variable(nU, nonneg=True)  # one c per y
                M1, M2 = cp.Variable(nU), cp.Variable(nU)
                r1, r2 = cp.Variable((nU, nU), nonneg=True), cp.Variable((nU, nU), nonneg=True)
                z1, z2 = cp.Variable(nU), cp.Variable(nU)
                for y in range(nU):
                    v1 = self.Q[s1][:, y]
                    v2 = -ee * self.Q[s2][:, y]
                    for M, v, r, z, s in ((M1, v1, r1, z1, s1), (M2, v2, r2, z2, s2)):
                        t = M[y] - v  # >= 0 enforced by the cone
                        cons.append(cp.SOC(c[y] + t, cp.vstack([2 * r[:, y], c[y] - t]), axis=0))
                        cons.append(cp.PowCone3D(self.P_hat[s, :] @ r[:, y], c[y], z[y], 2.0 / 3.0))
                    cons.append(M1[y] + M2[y] + c[y] * self.C[k] - K_LEMMA8 * (z1[y] + z2[y]) <= 0)
                self.priv.append((c, M1, M2))
        else:
            self.cond = cp.Parameter((nS, nU), nonneg=True, name="P_hat_cond")
            for s1, s2 in self.pairs:
                cons.append(self.cond[s1, :] @ self.Q[s1] <= ee * (self.cond[s2, :] @ self.Q[s2]))
        b = cp.hstack([cp.sum(cp.multiply(self.Q[s], d), axis=1) for s in range(nS)])  # (s,u) order
        if robust_util:
            self.Bp1 = cp.Parameter(nonneg=True, name="B_plus_1")
            D, cu, Mu = cp.Variable(), cp.Variable(nonneg=True), cp.Variable()
            r = cp.Variable(nS * nU, nonneg=True)
            t = Mu - b
            cons.append(cp.SOC(cu + t, cp.vstack([2 * r, cu - t]), axis=0))
            cons.append(-2 * (cp.vec(self.P_hat, order="C") @ r) + Mu + cu * self.Bp1 <= D)
            self.util = (cu, Mu)
            objective = cp.Minimize(D)
        else:
            objective = cp.Minimize(cp.vec(self.P_hat, order="C") @ b)
        self.problem = cp.Problem(objective, cons)

    # ------------------------------------------------------------------------------------
    def solve(self, P_hat, B: float | None = None, *, solver: str = "CLARABEL") -> Solution:
        """Solve for the estimate ``P_hat`` (and radius ``B`` for the robust problems); re-check."""
        nS, nU = self.n_s, self.n_u
        P_hat = _table("P_hat", P_hat, (nS, nU))
        robust = self.kind != "NUNP"
        if robust and (B is None or not B > 0 or not math.isfinite(B)):
            raise InputError(f"radius B must be positive and finite for {self.kind}, got B={B!r}")
        Ps = P_hat.sum(axis=1)
        self.P_hat.value = P_hat
        if self.kind[2] == "R":
            assert B is not None     # robust: checked above
            self.C.value = np.array([math.sqrt(B + 1) - 1 + Ps[s1] + Ps[s2] for s1, s2 in self.pairs])
        else:
            if np.any(Ps <= 0):
                s = int(np.argmin(Ps))
                raise InputError(f"P_hat_s = 0 for s={s}: the conditional P_hat_(U|s) of eq. (6) is undefined")
            self.cond.value = P_hat / Ps[:, None]
        if self.kind[0] == "R":
            assert B is not None     # robust: checked above
            self.Bp1.value = B + 1
        with warnings.catch_warnings():  # 'optimal_inaccurate' is reported in the status and re-checked
            warnings.simplefilter("ignore", UserWarning)
            self.problem.solve(solver=solver)
        status = self.problem.status
        if status not in ("optimal", "optimal_inaccurate"):
            raise CertificationError(f"{self.kind}: solver status {status}")
        Q = np.stack([np.asarray(Qs.value, dtype=float) for Qs in self.Q])
        Q = self._clean(Q)
        viol, info = self._privacy_violation(Q, P_hat, B)
        D_bound = self._utility_bound(Q, P_hat, B) if self.kind[0] == "R" else None
        if viol > self.check_tol:
            raise CertificationError(f"{self.kind}: cleaned protocol violates privacy by {viol:.3g}")
        return Solution(self.kind, Q, float(self.problem.value), status, viol, D_bound, info)

    def _clean(self, Q: np.ndarray) -> np.ndarray:
        if np.any(Q < -1e-6) or np.any(np.abs(Q.sum(axis=2) - 1) > 1e-6):
            raise CertificationError(f"{self.kind}: solver returned an invalid protocol")
        Q = np.where(self.clean_tol > Q, 0.0, Q)
        return Q / Q.sum(axis=2, keepdims=True)

    def _privacy_violation(self, Q, P_hat, B):
        ee = math.exp(self.eps)
        Ps = P_hat.sum(axis=1)
        worst = -math.inf
        if self.kind[2] == "N":
            cond = P_hat / Ps[:, None]
            for s1, s2 in self.pairs:
                worst = max(worst, float(np.max(cond[s1] @ Q[s1] - ee * (cond[s2] @ Q[s2]))))
            return worst, {}
        for k, (s1, s2) in enumerate(self.pairs):
            c, M1, M2 = (np.asarray(x.value, dtype=float) for x in self.priv[k])
            C = math.sqrt(B + 1) - 1 + Ps[s1] + Ps[s2]
            for y in range(self.n_u):
                v1, v2 = Q[s1][:, y], -ee * Q[s2][:, y]
                cy = max(float(c[y]), 0.0)
                m1, m2 = max(float(M1[y]), v1.max()), max(float(M2[y]), v2.max())
                lam1 = float(P_hat[s1] @ np.sqrt(m1 - v1))
                lam2 = float(P_hat[s2] @ np.sqrt(m2 - v2))
                val = m1 + m2 + cy * C - K_LEMMA8 * cy ** (2 / 3) * (lam1 ** (2 / 3) + lam2 ** (2 / 3))
                worst = max(worst, val)
        return worst, {}

    def _utility_bound(self, Q, P_hat, B) -> float:
        cu, Mu = (float(np.asarray(x.value, dtype=float)) for x in self.util)
        b = np.einsum("suy,uy->su", Q, self.d).ravel()
        M = max(Mu, float(b.max()))
        cu = max(cu, 0.0)
        return float(-2 * math.sqrt(cu) * (P_hat.ravel() @ np.sqrt(M - b)) + M + cu * (B + 1))
