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
