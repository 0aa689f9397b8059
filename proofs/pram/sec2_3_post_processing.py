"""Sec. 2.3: the post-processing property of differential privacy (issue 24: a statement not yet indexed)."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import CAP, all_nonneg, bind, covers, ldp_terms, matmul
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics import pram

from .._consistency import expect
from ._common import PAPER, rational_distribution


def _level(M) -> Fraction | None:
    """max_z max_{k, k'} M[k][z]/M[k'][z] of a row-stochastic matrix (None: a positive entry over a zero). Exact."""
    best = Fraction(1)
    for z in range(len(M[0])):
        col = [row[z] for row in M]
        if max(col) == 0:
            continue
        if min(col) == 0:
            return None
        best = max(best, max(col) / min(col))
    return best


@claim(
    id="pram.sec2-3.post-processing",
    paper=PAPER,
    source="Sec. 2.3, before Definition 2.1 ('post processing ... if the output Z_1:n of any alpha-Differential "
           "Private mechanism is further processed ... the result is still alpha-Differentially Private')",
    statement="If the PRAM matrix M of (8) is alpha-DP and K is any channel applied to its output, M K is alpha-DP.",
    method=(Method.EXACT, Method.PROPERTY),
    reading="per record (Definition 2.1 for one record; the product over records follows); 200 random q in "
            "(0, 1)^S, each alpha-DP at e^alpha = the engine's dp_ratio(q), and random channels K (zeros allowed), "
            "|S| in 2..6, K with 2..6 outputs; the level of M K computed exactly",
)
def check_post_processing(ctx, order="post"):
    """``order="input-dependent"`` is a wrong variant (a second channel K_k that depends on the record k, not only on
    Z: not post-processing): tests/proofs/test_issue24_statements.py expects REFUTED."""
    rng = ctx.rng("pram.sec2-3.post-processing")
    n, certified = 0, []
    for _ in range(200):
        S, m = rng.randint(2, 6), rng.randint(2, 6)
        q = [Fraction(rng.randint(1, 99), 100) for _ in range(S)]
        t = pram.dp_ratio(q)            # e^alpha of the tightest alpha for which M is alpha-DP
        expect(t is not None and pram.is_private(q, t), f"the engine's dp_ratio {t} and is_private disagree at {q}")
        M = pram.pram_matrix(q)
        K = [rational_distribution(rng, m, full_support=rng.random() < 0.5) for _ in range(S)]
        if order == "input-dependent":
            Ks = [[rational_distribution(rng, m, full_support=False) for _ in range(S)] for _ in range(S)]
            MK = [[sum(M[k][z] * Ks[k][z][w] for z in range(S)) for w in range(m)] for k in range(S)]
        else:
            MK = [[sum(M[k][z] * K[z][w] for z in range(S)) for w in range(m)] for k in range(S)]
        level, r = _level(MK), t
        n += 1
        if len(certified) < CAP and order == "post":
            certified.append((q, K, t))
        if level is None or r is None or level > r:
            return Outcome.refuted(
                "post-processing made the mechanism less private",
                counterexample={"q": [str(x) for x in q], "e^alpha": str(t), "K": [[str(x) for x in k] for k in K],
                                "ratio of M": str(r), "ratio of M K": str(level)}, kind="false")
    return Outcome.verified(f"exact: on {n} random alpha-DP PRAM matrices M and channels K, the ratio of M K is at most "
                            "that of M (so M K is alpha-DP whenever M is)", instances=n,
                            certificate_covers=covers(len(certified), n, "inequalities (M of (8), written from q, is "
                                                      "e^alpha-LDP and M K, multiplied out by the checker, is too)"),
                            **built(_certificates, certified))


def _certificates(instances) -> list[dict]:
    """Per instance (q, K, e^alpha): one exact certificate that M = (8) of q (entries q_k and (1 - q_k)/(S - 1)
    written from q) and M K satisfy every ratio inequality at e^alpha."""
    docs = []
    for i, (q, K, t) in enumerate(instances):
        S = len(q)
        M = [[q[k] if z == k else ["/", ["-", 1, q[k]], S - 1] for z in range(S)] for k in range(S)]
        bm, Mn = bind("m", M)
        bk, MK = bind("mk", matmul(Mn, K))
        docs.append(all_nonneg(f"instance {i}: M(q) of (8) and M K are {t}-LDP (e^alpha), q = {[str(x) for x in q]}",
                               ldp_terms(Mn, t) + ldp_terms(MK, t), binds=bm + bk))
    return docs
