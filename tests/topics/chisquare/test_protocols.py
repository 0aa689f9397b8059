"""Tests of rldp_verify.topics.chisquare.protocols (NUNP, NURP, RUNP, RURP of 003, eqs. 7-10)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.topics.chisquare.ball import support_ball, support_joint_projection
from rldp_verify.topics.chisquare.protocols import (
    PROBLEMS,
    ProtocolSolver,
    realised_distortion,
    realised_eps,
    squared_distance,
)

D = squared_distance(range(3))
P_HAT = np.array([[0.2, 0.15, 0.05], [0.1, 0.2, 0.3]])
B, EPS = 0.2, 0.5


@pytest.fixture(scope="module")
def solutions():
    return {k: ProtocolSolver(k, 2, D, EPS).solve(P_HAT, B) for k in PROBLEMS}


def test_protocols_are_valid(solutions):
    for sol in solutions.values():
        assert sol.status in ("optimal", "optimal_inaccurate")
        assert np.all(sol.Q >= 0) and np.allclose(sol.Q.sum(axis=2), 1)


def test_nunp_meets_ldp_under_the_estimate(solutions):
    assert realised_eps(solutions["NUNP"].Q, P_HAT) <= EPS + 1e-6


def test_robust_privacy_holds_by_the_closed_form_of_theorem_4(solutions):
    """Independent re-check of the robust constraint (30) (with Lemma 2's -e^eps) at 30 digits."""
    for k in ("NURP", "RURP"):
        Q = solutions[k].Q
        with mpmath.workdps(30):
            for s1, s2 in ((0, 1), (1, 0)):
                for y in range(3):
                    v1 = Q[s1][:, y].tolist()
                    v2 = (-math.exp(EPS) * Q[s2][:, y]).tolist()
                    val = support_joint_projection(v1, v2, P_HAT[s1].tolist(), P_HAT[s2].tolist(), B).value
                    assert val <= 1e-6, (k, s1, s2, y, val)


def test_robust_utility_value_is_the_support_of_theorem_2(solutions):
    for k in ("RUNP", "RURP"):
        sol = solutions[k]
        b = np.einsum("suy,uy->su", sol.Q, D).ravel()
        with mpmath.workdps(30):
            worst = support_ball(b.tolist(), (P_HAT.ravel() / P_HAT.sum()).tolist(), B).value
        assert float(worst) == pytest.approx(sol.value, abs=1e-5)
        assert sol.D_bound >= float(worst) - 1e-7


def test_orderings_of_the_four_problems(solutions):
    nominal = {k: realised_distortion(s.Q, P_HAT, D) for k, s in solutions.items()}
    assert nominal["NUNP"] <= nominal["NURP"] + 1e-6       # robust privacy adds constraints
    assert solutions["RUNP"].value <= solutions["RURP"].value + 1e-6
    assert solutions["RUNP"].value >= nominal["RUNP"] - 1e-6  # worst case >= nominal (P_hat in F)
    assert solutions["NUNP"].value == pytest.approx(nominal["NUNP"], abs=1e-6)


def test_realised_eps_conventions():
    P = np.array([[0.25, 0.25], [0.25, 0.25]])
    const = np.full((2, 2, 2), 0.5)
    assert realised_eps(const, P) == 0.0
    ident = np.stack([np.eye(2), np.eye(2)])
    assert realised_eps(ident, P) == 0.0             # same conditionals of U given s
    P2 = np.array([[0.5, 0.0], [0.0, 0.5]])
    assert realised_eps(ident, P2) == math.inf       # P(y=0|s1) = 1 > 0 = P(y=0|s2)
    Q = np.array([[[1.0, 0.0], [1.0, 0.0]], [[0.5, 0.5], [0.5, 0.5]]])
    assert realised_eps(Q, P) == math.inf            # P(y=1|s2) = 1/2 > 0 = P(y=1|s1)
    Q = np.array([[[0.8, 0.2], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]])
    assert realised_eps(Q, P) == pytest.approx(math.log(2.5))  # max(0.8/0.5, 0.5/0.2)
    Q = np.array([[[1.0, 0.0], [1.0, 0.0]], [[1.0, 0.0], [0.5, 0.5]]])
    P3 = np.array([[0.5, 0.0], [0.5, 0.0]])             # u = 1 never occurs: y = 1 has 0/0 = 1
    assert realised_eps(Q, P3) == 0.0
    # solver-precision zeros: y = 1 has probability ~1e-9 under both s, with a meaningless ratio
    Q = np.array([[[1 - 1e-9, 1e-9]] * 2, [[1 - 3e-9, 3e-9]] * 2])
    assert realised_eps(Q, P) == pytest.approx(math.log(3))
    assert realised_eps(Q, P, negligible=1e-6) == pytest.approx(math.log((1 - 1e-9) / (1 - 3e-9)))
    with pytest.raises(InputError, match="negligible"):
        realised_eps(Q, P, negligible=-1)


def test_bad_inputs():
    with pytest.raises(InputError, match="unknown problem"):
        ProtocolSolver("XYZ", 2, D, EPS)
    with pytest.raises(InputError, match="P_hat_s = 0"):
        ProtocolSolver("NUNP", 2, D, EPS).solve(np.array([[0.5, 0.3, 0.2], [0, 0, 0]]), B)
    with pytest.raises(InputError, match="radius"):
        ProtocolSolver("RURP", 2, D, EPS).solve(P_HAT, None)
    with pytest.raises(InputError, match="sum to 1"):
        ProtocolSolver("NURP", 2, D, EPS).solve(P_HAT * 2, B)
