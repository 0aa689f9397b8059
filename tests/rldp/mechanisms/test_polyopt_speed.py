"""The fast LP (46) path of PolyOpt (float64 mu, HiGHS + exact basis, rigorous dual bracket) against the
slow reference (mu at 40 digits, rounded to 30, LP solved exactly by cdd GMP).

Sec. 5, Theorem 3, eqs. (45)-(46) of seeds/000_aca93ed29ea857ee.txt. Correctness only, no timings.
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction as F

import mpmath
import numpy as np
import pytest

import rldp_verify.rldp.mechanisms.polyopt  # noqa: F401  (the name is shadowed by the function in the package)
from rldp_verify.core.information import mu_bounds, mu_value
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.rldp.gamma import gamma_hat_vertices
from rldp_verify.rldp.mechanisms import (
    check_column_stochastic,
    check_gamma,
    exact_level,
    nonrobust,
    polyopt_from_bounds,
    solve_eq46,
)
from tests.rldp.mechanisms.instances import random_instance, reference_optimum

po = sys.modules["rldp_verify.rldp.mechanisms.polyopt"]


CASES = [(2, 2, 1, 600), (2, 3, 2, 600), (3, 2, 3, 600), (2, 2, 4, 400),
         pytest.param(2, 4, 5, 600, marks=pytest.mark.slow)]   # 549 vertices: the dense cdd reference takes ~30 s


@pytest.mark.parametrize("a1,a2,seed,scale", CASES)
def test_bracket_contains_exact_reference_optimum(a1, a2, seed, scale):
    P, L = random_instance(a1, a2, seed, scale)
    V = gamma_hat_vertices(L, F(2))
    sol = solve_eq46(V, P)
    ref = reference_optimum(V, P)
    slack = F(len(V), 10 ** 29)
    assert sol.lower - slack <= ref <= sol.upper + slack
    assert sol.gap < F(1, 10 ** 10)
    # exactly feasible theta, column-stochastic rows, |Y| <= |X|
    a = len(P)
    assert all(t >= 0 for t in sol.theta) and len(sol.rows) <= a
    assert all(sum(th * v[x] for th, v in zip(sol.theta, V, strict=True)) == 1 for x in range(a))


@pytest.mark.parametrize("a1,a2,seed,scale", CASES[:3])
def test_fallback_paths_agree(a1, a2, seed, scale, monkeypatch):
    P, L = random_instance(a1, a2, seed, scale)
    V = gamma_hat_vertices(L, F(2))
    fast = solve_eq46(V, P)
    monkeypatch.setattr(po, "_highs_lp46", lambda *args, **kw: None)
    slow = solve_eq46(V, P)
    assert slow.method == "float-mu+solve_certified" and fast.method == "float-mu+highs+exact-basis"
    # both brackets are certified, so they must overlap
    assert max(fast.lower, slow.lower) <= min(fast.upper, slow.upper)


def test_column_generation_matches_direct_solve():
    P, L = random_instance(2, 4, 5)
    V = gamma_hat_vertices(L, F(2))
    Vf = po._float_matrix(V)
    mu, _, _ = po.mu_float_bounds(Vf, np.array([float(x) for x in P]))
    direct = po._highs_lp46(Vf, mu)
    cg = po._highs_lp46(Vf, mu, chunk=20)      # forces several pricing rounds (|V| = 549)
    assert direct is not None and cg is not None
    obj = []
    for basic, slack_rows, _ in (direct, cg):
        th = po._exact_basis_theta(V, basic, slack_rows, len(P))
        assert th is not None
        obj.append(sum(float(t) * mu[j] for t, j in zip(th, basic, strict=True)))
    assert abs(obj[0] - obj[1]) < 1e-12


def test_float_mu_error_bound_holds_against_arb():
    """|mu_f - mu| <= (a + 16) u S1 (the bound used, 4x smaller than the one applied), vertices with
    tiny and large coordinates and a skewed P."""
    rng = random.Random(7)
    for a in (4, 9, 16):
        V = []
        for _ in range(40):
            w = [rng.choice([0, 1, rng.randint(1, 10 ** 6), rng.randint(1, 10 ** 12)]) for _ in range(a)]
            if sum(w) == 0:
                w[0] = 1
            V.append(tuple(F(x, sum(w)) for x in w))
        pw = [rng.randint(1, 10 ** rng.randint(1, 9)) for _ in range(a)]
        P = [F(x, sum(pw)) for x in pw]
        mu, S1, bad = po.mu_float_bounds(po._float_matrix(V), np.array([x.numerator / x.denominator for x in P]))
        for j, v in enumerate(V):
            if bad[j]:
                continue
            lo, hi = mu_bounds(v, P, dps=40)
            err = max(abs(F(float(mu[j])) - lo), abs(F(float(mu[j])) - hi))
            assert err <= F((a + 16) * 2.0 ** -53 * float(S1[j])) + F(1, 10 ** 35)


def test_rigorous_max_slack_with_poor_dual():
    """Any y gives a valid bound: compare with the max over all vertices in arb."""
    P, L = random_instance(2, 3, 2)
    V = gamma_hat_vertices(L, F(2))
    Vf = po._float_matrix(V)
    pf = np.array([float(x) for x in P])
    mu, S1, bad = po.mu_float_bounds(Vf, pf)
    rng = np.random.default_rng(3)
    for k in range(4):
        y = rng.normal(0.1, 0.2, len(P))
        # float duals and non-dyadic rationals (exercises the |yq - fl(yq)| term)
        yq = [F(float(t)) for t in y] if k % 2 == 0 else [F(round(float(t) * 3 ** 20), 3 ** 20) for t in y]
        M, _ = po._rigorous_max_slack(V, P, Vf, yq, mu, S1, bad, 30)
        with arb_precision(30):
            true_max_lo = max(mu_bounds(v, P, dps=30)[0] - sum(x * t for x, t in zip(v, yq, strict=True)) for v in V)
        assert true_max_lo <= M


def test_arb_basis_dual_gives_tight_bracket():
    P, L = random_instance(3, 2, 3)
    V = gamma_hat_vertices(L, F(2))
    sol = solve_eq46(V, P)
    assert sol.gap < F(1, 10 ** 30)


@pytest.mark.parametrize("same", [True, False])
def test_public_api_mechanism_in_cone(same):
    P, L = random_instance(2, 3, 11)
    table = [P[0:3], P[3:6]]
    mech, sol = polyopt_from_bounds(table, L, "log(2)", include_same_s=same)
    assert check_column_stochastic(mech) and len(mech.outputs) <= 6
    assert mech.parameters["exp_eps_used"] == "2"
    assert check_gamma(mech, L, exact_level(2), include_same_s=same).holds is True
    lo, hi = (F(x) for x in mech.parameters["optimum_bracket"])
    assert lo <= hi and hi - lo < F(1, 10 ** 10)
    ref = reference_optimum(list(sol.vertices), P)
    assert lo - F(1, 10 ** 25) <= ref <= hi + F(1, 10 ** 25)


def test_nonrobust_uses_fast_lp():
    P, _ = random_instance(2, 2, 13)
    table = [P[0:2], P[2:4]]
    mech = nonrobust(table, "log(2)")
    lo, hi = (F(x) for x in mech.parameters["optimum_bracket"])
    assert lo <= hi and hi - lo < F(1, 10 ** 10)
    assert check_column_stochastic(mech)


def test_mu_property_is_high_precision():
    P, L = random_instance(2, 2, 1)
    V = gamma_hat_vertices(L, F(2))
    sol = solve_eq46(V, P, dps=40)
    for j in (0, len(V) - 1):
        assert abs(sol.mu[j] - mu_value(V[j], P, dps=40)) < mpmath.mpf(10) ** -35
        assert abs(sol.mu_float[j] - float(sol.mu[j])) < 1e-14


def test_vertices_off_the_simplex_are_refused():
    from rldp_verify.core.errors import InputError

    with pytest.raises(InputError, match="vertex 0 is not in the simplex"):
        solve_eq46([(F(1, 2), F(1, 3))], [F(1, 2), F(1, 2)])
    with pytest.raises(InputError, match="vertex 1 has 1 coordinates"):
        solve_eq46([(F(1, 2), F(1, 2)), (F(1),)], [F(1, 2), F(1, 2)])
