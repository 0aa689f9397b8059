"""Sec. I: the post-processing property the paper starts from (issue 24: a statement not yet indexed)."""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.fdiv import gamma_extremes, push

from ._common import PAPER, rand_channel


def ldp_ratio(W) -> object:
    """e^eps of the smallest eps for which the channel W (rows x) is eps-LDP: max_y max_{x, x'} W[x][y]/W[x'][y]
    (Gamma_max of its rows, eq. (21); math.inf when some column has a zero beside a positive entry). Exact."""
    return gamma_extremes(W)[1]


@claim(
    id="falpha.sec1.post-processing-min",
    paper=PAPER,
    source="Sec. I, second paragraph ('Basic results state that if a post-processing operation satisfying "
           "eps2-LDP is applied to a system satisfying eps1-LDP, the composition of both systems will satisfy at least "
           "min{eps1, eps2}-LDP')",
    statement="If P_{X|W} is eps1-LDP and P_{Y|X} is eps2-LDP, then P_{Y|X} o P_{X|W} is min{eps1, eps2}-LDP.",
    method=(Method.EXACT, Method.PROPERTY),
    reading="eps1, eps2 the tightest levels of the two channels (any larger levels follow); 300 random rational "
            "channels (zeros allowed, so infinite levels too), |W|, |X|, |Y| in 2..5, composed exactly with the "
            "engine's push (P_Y = P_{Y|X} o P_X row by row)",
)
def check_post_processing(ctx, exceeds=None):
    """``exceeds(r, r1, r2)``: whether the composition's ratio r breaks the statement (default r > min(r1, r2));
    tests/proofs/test_issue24_statements.py runs a wrong variant (the level halved: r^2 > min(r1, r2))."""
    exceeds = exceeds or (lambda r, r1, r2: r > min(r1, r2))
    rng = ctx.rng("falpha.sec1.post-processing")
    rows = 0
    for _ in range(300):
        nw, nx, ny = rng.randint(2, 5), rng.randint(2, 5), rng.randint(2, 5)
        first = rand_channel(rng, nw, nx, zeros=rng.random() < 0.3)
        second = rand_channel(rng, nx, ny, zeros=rng.random() < 0.3)
        composed = [push(second, row) for row in first]
        r1, r2, r = ldp_ratio(first), ldp_ratio(second), ldp_ratio(composed)
        rows += 1
        if exceeds(r, r1, r2):
            return Outcome.refuted(
                "the composition is less private than the more private of the two channels",
                counterexample={"P_X|W": [[str(v) for v in w] for w in first],
                                "P_Y|X": [[str(v) for v in w] for w in second],
                                "e^eps1": str(r1), "e^eps2": str(r2), "e^eps of the composition": str(r)},
                kind="false")
    return Outcome.verified(f"exact: the composition's LDP level is at most min(eps1, eps2) on all {rows} random "
                            "channel pairs", instances=rows)
