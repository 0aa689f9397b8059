"""Issue 24, the statements that were not indexed: each check, given a wrong variant of what it checks, says
REFUTED (so its VERIFIED can be trusted)."""


from proofs.falpha.sec1_post_processing import check_post_processing as falpha_post
from proofs.pram.sec2_3_post_processing import check_post_processing as pram_post
from rldp_verify.claims import Context, Verdict


def test_falpha_post_processing_and_a_halved_level():
    assert falpha_post(Context()).verdict is Verdict.VERIFIED
    halved = falpha_post(Context(), exceeds=lambda r, r1, r2: r * r > min(r1, r2))   # min(eps1, eps2)/2 claimed
    assert halved.verdict is Verdict.REFUTED


def test_pram_post_processing_and_an_input_dependent_second_channel():
    assert pram_post(Context()).verdict is Verdict.VERIFIED
    assert pram_post(Context(), order="input-dependent").verdict is Verdict.REFUTED




def test_isit_convexity_and_the_problem_without_theorem_1():
    from proofs.isit.sec1_convexity import check_convex

    assert check_convex(Context()).verdict is Verdict.VERIFIED
    assert check_convex(Context(), form="joint").verdict is Verdict.REFUTED


def test_sec43_lower_bound_is_a_misprint_for_upper():
    from proofs.rldp.sec4_3_sentences import check_lower_bound

    assert check_lower_bound(Context()).kind == "misprint"
    assert check_lower_bound(Context(), word="upper").verdict is Verdict.VERIFIED


def test_ir_randomized_response_needs_large_eps():
    from proofs.rldp.sec1_ir_randomized_response import check_rr_optimal

    assert check_rr_optimal(Context()).kind == "missing-hypothesis"
    assert check_rr_optimal(Context(), eps_small="5").verdict is Verdict.VERIFIED   # the low-privacy regime alone


def test_sec43_second_route_for_rad_agrees_and_catches_a_wrong_rad(monkeypatch):
    """rad_s by Lagrangian duality over the ball (the second route) against the engine's Lemma A6 route, and a wrong
    engine rad_s (without eq. (30)'s factor 2) makes the routes disagree: ERROR, not a verdict."""
    from fractions import Fraction

    import pytest

    from proofs._consistency import InconsistentCheck
    from proofs.rldp.sec4_3_sentences import check_lower_bound, rad_by_duality
    from rldp_verify.rldp.uncertainty import RenyiBall, SimplexBall

    ball = RenyiBall.from_radius("0.2,0.3;0.1,0.4", 2, Fraction(1, 20))
    for s in range(2):
        Bs = ball.conditional_radius(s, dps=30)
        assert abs(rad_by_duality(ball.conditional(s), Bs) - ball.rad_value(s, dps=30)) < 1e-25
    out = check_lower_bound(Context())
    assert float(out.evidence["max_abs_difference_engine_vs_second_route"]) < 1e-15
    orig = SimplexBall.l1_radius
    monkeypatch.setattr(SimplexBall, "l1_radius", lambda self, **kw: orig(self, **kw) / 2)
    with pytest.raises(InconsistentCheck, match="routes disagree"):
        check_lower_bound(Context())


def test_pram_figure5_second_route_catches_a_wrong_simulation(monkeypatch):
    """Fig. 5's simulated estimates against their exact distribution: the real simulation agrees; a simulation in which
    the X = 0 individuals also keep their value with probability q (a wrong PRAM matrix) is an ERROR."""
    import numpy as np
    import pytest

    import proofs.pram.sec4_2_figure5 as fig5
    from proofs._consistency import InconsistentCheck

    out = fig5.check_figure5(Context(), draw=False)
    assert out.verdict is Verdict.VERIFIED
    route = out.evidence["second_route (exact distribution of the estimates)"]
    assert len(route) == len(fig5.QS) and all(abs(r["z_of_mean"]) < 5 for r in route)

    def wrong(rng, q, estimator="mle", runs=fig5.RUNS):
        x1 = rng.binomial(fig5.N, fig5.P1, size=runs)
        z1 = rng.binomial(x1, q) + rng.binomial(fig5.N - x1, q)     # should be 1 - q
        return np.clip((z1 / fig5.N - (1 - q)) / (2 * q - 1), 0.0, 1.0)

    monkeypatch.setattr(fig5, "estimates", wrong)
    with pytest.raises(InconsistentCheck, match="routes disagree"):
        fig5.check_figure5(Context(), draw=False)


def test_kairouz_figure_second_routes_catch_an_unscaled_lp_optimum(monkeypatch):
    """Figures 3-4's float values against the exact route (certified LP (11), arb mu): they agree on a small sample,
    and an LP optimum returned in the batched solver's normalised units is an ERROR (the bounds' gap still closes)."""
    import dataclasses

    import numpy as np
    import pytest

    import proofs.kairouz.sec3_4_figures as kf
    from proofs._consistency import InconsistentCheck
    from rldp_verify.topics.extremal.staircase import pattern_matrix_float

    ctx = Context(seed=7)
    out = kf.regimes_claim(ctx, "kl", n=6, draw_figure=False)
    rows = out.evidence["second_route (exact instance, certified LP (11), arb mu)"]
    assert len(rows) == 2 and all(float(r["max_relative_difference"]) <= kf.ROUTE_TOL for r in rows)
    assert kf.limits_claim(ctx, "kl", n=6).evidence["second_route (exact instance, arb mu, mpmath normaliser)"][
        "cells"] == 30
    orig = kf.solve_staircase_lp_batch

    def unscaled(k, t, MU, **kw):
        res = orig(k, t, MU, **kw)
        scale = (np.abs(np.atleast_2d(MU)) / pattern_matrix_float(k, t).sum(axis=0)).max(axis=1)
        return dataclasses.replace(res, upper=res.upper / scale, lower=res.lower / scale)

    monkeypatch.setattr(kf, "solve_staircase_lp_batch", unscaled)
    kf._CACHE.clear()
    try:
        with pytest.raises(InconsistentCheck, match="routes disagree"):
            kf.regimes_claim(Context(seed=8), "kl", n=6, draw_figure=False)
        with pytest.raises(InconsistentCheck, match="routes disagree"):
            kf.geometric_claim(Context(seed=8), "kl", n=6)
        with pytest.raises(InconsistentCheck, match=r"\|X\| = 12: the smallest ratio"):   # the |X| = 12 floor alone
            kf.floors_claim(Context(seed=8), "kl", n=3, ks=(12,), replicates=0, replicates_k12=0, draw_figure=False)
    finally:
        kf._CACHE.clear()


def test_pram_figure_second_route_catches_a_wrong_vertex(monkeypatch):
    """Figures 1-4: q at a vertex attains the ratio e^alpha and the simulated inverse of (9) matches its exact moments;
    v_alpha without Proposition 3.2's - 1 is an ERROR."""
    import pytest

    import proofs.pram.sec4_1_figures as fig
    from proofs._consistency import InconsistentCheck
    from proofs.pram._common import SCENARIO_I
    from rldp_verify.topics import pram

    monkeypatch.setattr(fig, "RUNS", 30)
    monkeypatch.setattr(fig, "BOOT", 50)
    rows, _, _ = fig.run_scenario("Scenario I", SCENARIO_I, Context())
    assert all(abs(r["second_route"]["dp_ratio_over_e^alpha"] - 1) < 1e-12 for r in rows)
    monkeypatch.setattr(pram, "v_alpha", lambda S, t: t / (t + S))
    with pytest.raises(InconsistentCheck, match="routes disagree"):
        fig.run_scenario("Scenario I", SCENARIO_I, Context())
