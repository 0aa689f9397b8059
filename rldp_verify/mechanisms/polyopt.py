"""PolyOpt: Definition 3, Theorems 2 and 3 (Sec. 5, App. A.4-A.5), and its relaxed variant.

Paper: 000_aca93ed29ea857ee.txt.

Gamma_eps (Definition 3, eq. (3)) is the cone of v in R^X_{>=0} with, for all s1, s2 in S and
u1, u2 in U,

    v_{s1,u1} - e^eps v_{s2,u2} + sum_u L_{u|s1} (v_{s1,u} - v_{s1,u1})
                                - e^eps sum_u L_{u|s2} (v_{s2,u} - v_{s2,u2}) <= 0.

Gamma-hat = {v in Gamma_eps : sum_x v_x = 1}; V its vertices. Theorem 3: with mu of eq. (45), the
LP (46)  max sum_v theta_v mu(v)  s.t.  theta >= 0, sum_v theta_v v = 1_X  gives the optimal Q among
mechanisms whose rows lie in Gamma_eps, with Q_v = theta_v v and |Y| <= |X|.

Relaxed PolyOpt (``include_same_s=False``): only the pairs s1 != s2. Definition 1 is trivial for
s = s' (P(Y=y|S=s) <= e^eps P(Y=y|S=s)), and App. A.4 derives (3) for a pair (s1, s2) from (41) for
that same pair only; so Theorem 2 holds for the larger, relaxed cone (claim
``rldp.relaxed-polyopt.guarantee``), and its optimum is at least PolyOpt's.

Soundness: the mechanism is built from rationals L' <= L_{u|s}(F) (certified) and r <= e^eps
(see :mod:`rldp_verify.mechanisms.rounding`). Theorem 2 applied to D'_s = {R : R_u >= L'_u}, which
contains F_{U|s}, gives (log r, F)-RLDP, and log r <= eps; hence Q is (eps, F)-RLDP.

LP certification: mu(v) is irrational. We solve (46) exactly (cdd GMP, re-checked) with mu rounded to
``mu_digits`` digits, which gives an exactly feasible theta (feasibility does not involve mu). The
optimum is then bracketed rigorously: lower = I_P(X;Y) of the returned Q (arb), upper = 1^T w with the
dual w = y + c 1, c = max_v (mu_hi(v) - v^T y); since every v in V has sum v = 1, w is dual feasible
for the true mu, and by convexity of mu every mechanism with rows in the cone has utility <= 1^T w.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import mpmath

from rldp_verify.errors import CertificationError, InputError
from rldp_verify.lp import solve_exact
from rldp_verify.mechanisms._common import build, fstr_table, labels_for, phat_table
from rldp_verify.mechanisms.rounding import (DEFAULT_DIGITS, check_lower_table, lower_bounds, privacy_level,
                                             round_down)
from rldp_verify.mechanisms.utility import mu_bounds, mu_value, mutual_information_bounds
from rldp_verify.numbers import DEFAULT_DPS, fraction_str, working_precision
from rldp_verify import polytope


def gamma_inequalities(lower, exp_eps, *, include_same_s: bool = True, active=None) -> list[tuple[Fraction, ...]]:
    """Rows c with c^T v <= 0, one per (s1, u1, s2, u2) of Definition 3 (``active``: the s used)."""
    r = Fraction(exp_eps)
    L = [[Fraction(v) for v in row] for row in lower]
    a1, a2 = len(L), len(L[0])
    act = list(range(a1)) if active is None else sorted(set(active))
    rows = []
    for s1 in act:
        for s2 in act:
            if s1 == s2 and not include_same_s:
                continue
            sL1, sL2 = sum(L[s1]), sum(L[s2])
            for u1 in range(a2):
                for u2 in range(a2):
                    c = [Fraction(0)] * (a1 * a2)
                    for u in range(a2):
                        c[s1 * a2 + u] += L[s1][u]
                        c[s2 * a2 + u] -= r * L[s2][u]
                    c[s1 * a2 + u1] += 1 - sL1
                    c[s2 * a2 + u2] -= r * (1 - sL2)
                    rows.append(tuple(c))
    return rows


def gamma_hat_vertices(lower, exp_eps, *, include_same_s: bool = True, active=None,
                       baseline: bool = False) -> list[tuple[Fraction, ...]]:
    """Exact vertices of Gamma-hat, sorted. Uses :func:`rldp_verify.gamma.gamma_hat_vertices` (the
    polytope developer's fast exact enumeration) when all s are active and e^eps > 1; otherwise, or
    with ``baseline=True``, the plain double description (:func:`rldp_verify.polytope.vertices`,
    pycddlib GMP) of the inequalities of :func:`gamma_inequalities`."""
    L = [[Fraction(v) for v in row] for row in lower]
    a = len(L) * len(L[0])
    all_active = active is None or set(active) == set(range(len(L)))
    if not baseline and all_active and Fraction(exp_eps) > 1:
        from rldp_verify import gamma as _gamma

        return [tuple(Fraction(x) for x in v)
                for v in _gamma.gamma_hat_vertices(L, Fraction(exp_eps), include_same_s=include_same_s)]
    A = gamma_inequalities(L, exp_eps, include_same_s=include_same_s, active=active)
    A = A + [tuple(Fraction(-1) if j == i else Fraction(0) for j in range(a)) for i in range(a)]
    b = [Fraction(0)] * len(A)
    verts, rays = polytope.vertices(A, b, [[Fraction(1)] * a], [Fraction(1)])
    if rays:
        raise CertificationError("Gamma-hat reported rays although it lies in the simplex")
    return sorted(set(verts))


@dataclass(frozen=True)
class Eq46Solution:
    """The certified solution of LP (46)."""

    vertices: tuple[tuple[Fraction, ...], ...]
    mu: tuple                      # mpf values of mu(v)
    theta: tuple[Fraction, ...]    # exact, feasible
    rows: tuple[tuple[Fraction, ...], ...]   # Q_v = theta_v v for theta_v > 0
    support: tuple[int, ...]       # indices of the vertices used
    lower: Fraction                # certified: I(Q) >= lower
    upper: Fraction                # certified: every cone mechanism has I <= upper
    dual: tuple[Fraction, ...]

    @property
    def gap(self) -> Fraction:
        return self.upper - self.lower


def solve_eq46(vertices: Sequence[Sequence[Fraction]], p, *, dps: int = DEFAULT_DPS, mu_digits: int = 30) -> Eq46Solution:
    """Solve and certify LP (46) for the vertex list ``vertices`` and the distribution ``p`` (flat)."""
    V = [tuple(Fraction(x) for x in v) for v in vertices]
    if not V:
        raise InputError("Gamma-hat has no vertices")
    a = len(V[0])
    p = [Fraction(x) for x in p]
    with working_precision(dps):
        mus = [mu_value(v, p, dps=dps) for v in V]
        scale = mpmath.mpf(10) ** mu_digits
        c = [Fraction(int(mpmath.nint(m * scale)), 10**mu_digits) for m in mus]
    n = len(V)
    E = [[V[j][x] for j in range(n)] for x in range(a)]
    f = [Fraction(1)] * a
    from rldp_verify import lp as _lp

    fast = getattr(_lp, "solve_certified", None)
    if fast is not None:
        res = fast(c, [], [], E, f, lower=[Fraction(0)] * n)
        yE = res.dual[:a] if res.status == "optimal" else None
    else:  # pragma: no cover - baseline
        A = [[Fraction(-1) if j == i else Fraction(0) for j in range(n)] for i in range(n)]
        res = solve_exact(c, A, [Fraction(0)] * n, E, f)
        yE = res.dual[n:] if res.status == "optimal" else None
    if res.status != "optimal":
        raise CertificationError(f"LP (46) ended with status {res.status}")
    theta = res.x
    if any(t < 0 for t in theta):
        raise CertificationError("LP (46) returned a negative weight")
    support = tuple(j for j in range(n) if theta[j] > 0)
    rows = tuple(tuple(theta[j] * x for x in V[j]) for j in support)
    for x in range(a):
        if sum(r[x] for r in rows) != 1:
            raise CertificationError("LP (46) solution is not column-stochastic")
    shift = max(mu_bounds(V[j], p, dps=dps)[1] - sum(V[j][x] * yE[x] for x in range(a)) for j in range(n))
    # w = yE + shift * 1_X: v^T w = v^T yE + shift (sum v = 1), so 1^T w = sum yE + a * shift
    upper = sum(yE) + a * shift
    lower = mutual_information_bounds(rows, p, dps=dps)[0]
    if lower > upper:
        raise CertificationError("certified lower bound exceeds the dual bound in LP (46)")
    return Eq46Solution(tuple(V), tuple(mus), tuple(theta), rows, support, lower, upper, tuple(yE))


def polyopt_from_bounds(phat, lower, eps, *, include_same_s: bool = True, active=None, name: str = "PolyOpt",
                        guarantee: str | None = None, sensitive=None, public=None, extra: dict | None = None,
                        dps: int = DEFAULT_DPS, digits: int = DEFAULT_DIGITS, notes=()):
    """PolyOpt for a given table of (rational) lower bounds ``lower`` (|S| x |U|).

    The guarantee is Theorem 2's: (eps, F)-RLDP for every F with F_{U|s} subset
    {R : R_u >= lower[s][u]} for all s (the caller's responsibility: use certified lower bounds)."""
    table = phat_table(phat)
    S, U = labels_for(table, sensitive, public)
    level = privacy_level(eps, digits=digits, dps=dps)
    L = check_lower_table(lower, len(S), len(U))
    V = gamma_hat_vertices(L, level.exp_eps, include_same_s=include_same_s, active=active)
    sol = solve_eq46(V, [v for r in table for v in r], dps=dps)
    Y = [f"y{i + 1}" for i in range(len(sol.rows))]
    g = guarantee or ("(eps, F)-RLDP for every F with F_{U|s} in D_s = {R : R_u >= L_{u|s}} (Theorem 2"
                      + ("" if include_same_s else ", relaxed cone: pairs s1 != s2") + ")")
    params = {
        "include_same_s": include_same_s,
        "lower_bounds": fstr_table(L),
        "vertices": len(V),
        "used_vertices": [[fraction_str(x) for x in V[j]] for j in sol.support],
        "theta": [fraction_str(sol.theta[j]) for j in sol.support],
        "optimum_bracket": [fraction_str(sol.lower), fraction_str(sol.upper)],
        "optimum_gap": float(sol.gap),
        **(extra or {}),
    }
    if active is not None:
        params["active_sensitive"] = sorted(set(active))
    mech = build([list(r) for r in sol.rows], S, U, Y, name=name, level=level, guarantee=g, parameters=params,
                 phat=table, notes=notes, dps=dps)
    return mech, sol


def polyopt(ball, eps, *, relaxed: bool = False, sensitive=None, public=None, dps: int = DEFAULT_DPS,
            digits: int = DEFAULT_DIGITS):
    """PolyOpt for the Rényi ball ``ball`` (a :class:`~rldp_verify.uncertainty.RenyiBall`): lower bounds
    L'_{u|s} <= L_{u|s}(F) certified and floored to 10^-digits, e^eps rounded down. Returns the
    :class:`~rldp_verify.mechio.Mechanism` (the LP certificate is in ``parameters``)."""
    from rldp_verify.uncertainty import RenyiBall

    if not isinstance(ball, RenyiBall):
        raise InputError(f"PolyOpt needs a RenyiBall (the uncertainty set F), got {type(ball).__name__}")
    L = lower_bounds(ball, digits=digits, dps=dps)
    name = "PolyOpt-relaxed" if relaxed else "PolyOpt"
    extra = {"alpha": fraction_str(ball.alpha), "radius_upper": str(ball.radius), "radius_provenance": ball.provenance,
             "lower_rounding": f"L'_{{u|s}} <= L_{{u|s}}(F): certified lower bound floored to 10^-{digits}"}
    g = ("(eps, F)-RLDP, F the Rényi ball of order alpha and radius <= radius_upper around P-hat "
         "(Theorem 2" + (" for the relaxed cone, claim rldp.relaxed-polyopt" if relaxed else "") + ")")
    mech, _ = polyopt_from_bounds(ball.phat, L, eps, include_same_s=not relaxed, name=name, guarantee=g,
                                  sensitive=sensitive, public=public, extra=extra, dps=dps, digits=digits)
    return mech
