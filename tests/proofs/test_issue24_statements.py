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
