"""Sec. I: the post-processing property the paper starts from (issue 24: a statement not yet indexed)."""

from __future__ import annotations

import math

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import CAP, all_nonneg, bind, covers, ldp_terms, matmul
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
    rows, certified = 0, []
    for _ in range(300):
        nw, nx, ny = rng.randint(2, 5), rng.randint(2, 5), rng.randint(2, 5)
        first = rand_channel(rng, nw, nx, zeros=rng.random() < 0.3)
        second = rand_channel(rng, nx, ny, zeros=rng.random() < 0.3)
        composed = [push(second, row) for row in first]
        r1, r2, r = ldp_ratio(first), ldp_ratio(second), ldp_ratio(composed)
        rows += 1
        if len(certified) < CAP and min(r1, r2) != math.inf:
            certified.append((first, second, r1, r2))
        if exceeds(r, r1, r2):
            return Outcome.refuted(
                "the composition is less private than the more private of the two channels",
                counterexample={"P_X|W": [[str(v) for v in w] for w in first],
                                "P_Y|X": [[str(v) for v in w] for w in second],
                                "e^eps1": str(r1), "e^eps2": str(r2), "e^eps of the composition": str(r)},
                kind="false")
    return Outcome.verified(f"exact: the composition's LDP level is at most min(eps1, eps2) on all {rows} random "
                            "channel pairs", instances=rows,
                            certificate_covers=covers(len(certified), rows, "inequalities (P_X|W is e^eps1-LDP, P_Y|X "
                                                      "is e^eps2-LDP and their composition, whose entries the checker "
                                                      "multiplies out, is min(e^eps1, e^eps2)-LDP; pairs with both "
                                                      "levels infinite state nothing and are skipped)"),
                            **built(_certificates, certified))


def _certificates(pairs) -> list[dict]:
    """Per pair (P_X|W, P_Y|X, e^eps1, e^eps2): one exact certificate that every ratio inequality of both channels
    at their levels and of the composition at the smaller level holds (infinite levels: no inequality)."""
    docs = []
    for i, (first, second, r1, r2) in enumerate(pairs):
        binds, C = bind("c", matmul(first, second))
        terms = [t for W, r in ((first, r1), (second, r2)) if r != math.inf for t in ldp_terms(W, r)]
        terms += ldp_terms(C, min(r1, r2))
        docs.append(all_nonneg(f"pair {i}: P_X|W is {r1}-LDP, P_Y|X is {r2}-LDP, so P_Y|X o P_X|W is "
                               f"{min(r1, r2)}-LDP (ratios as e^eps)", terms, binds=binds))
    return docs
