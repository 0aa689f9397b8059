"""Sec. 3.1, eq. (10): the alpha-DP condition for the family (8) reduces to three ratios."""

from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import agreement, bind, covers, ldp_terms
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics import pram

from ._common import PAPER, rational_points


@claim(
    id="pram.eq10.dp-iff-three-ratios",
    paper=PAPER,
    source="Sec. 3.1, eq. (10) and the text before it",
    statement="Q_q satisfies alpha-DP (6) iff max((S-1) q_k/(1 - q_k'), (1 - q_k)/((S-1) q_k'), "
              "(1 - q_k)/(1 - q_k') 1(S >= 3)) <= e^alpha for every k != k'.",
    hypotheses=("0 < q_k < 1 (eq. (10) is written with quotients)", "alpha >= 0"),
    method=(Method.EXACT, Method.PROPERTY),
)
def check(ctx):
    rng = ctx.rng("pram.eq10")
    n = agree_true = 0
    certified = []
    for S in range(2, 8):
        for t in (Fraction(1), Fraction(11, 10), Fraction(2), Fraction(7, 2), Fraction(9)):
            pts = rational_points(30, rng, S, lo=Fraction(1, 997), hi=Fraction(996, 997))
            # points on the boundary of the DP set: the vertices named in Prop. 3.2 and the
            # symmetric interval ends, where a wrong constant would show first
            pts += [[pram.v_alpha(S, t)] * S, [pram.v_malpha(S, t)] * S,
                    [pram.v_min(S, t)] + [pram.v_alpha(S, t)] * (S - 1),
                    [pram.v_max(S, t)] + [pram.v_malpha(S, t)] * (S - 1)]
            for i, q in enumerate(pts):
                if any(x <= 0 or x >= 1 for x in q):
                    continue
                a, b = pram.eq10_holds(q, t), pram.is_private(q, t)
                if a != b:
                    return Outcome.refuted("eq. (10) and the DP definition disagree",
                                           counterexample={"S": S, "e^alpha": t, "q": q},
                                           eq10=a, dp=b, ratio=pram.dp_ratio(q), kind="false")
                n += 1
                agree_true += a
                if i >= len(pts) - 4:   # certified: the four boundary points
                    certified.append((q, t, a))
    return Outcome.verified(f"eq. (10) agrees with the exact DP ratio of matrix (8) on {n} points "
                            f"({agree_true} private), S = 2..7, e^alpha in {{1, 11/10, 2, 7/2, 9}}",
                            points=n, private_points=agree_true,
                            certificate_covers=covers(len(certified), n, "agreements of eq. (10) with the ratio "
                                                      "inequalities of M(q) of (8) (both hold, or each has a failing "
                                                      "inequality; M and the three ratios written from q) -- per "
                                                      "(S, e^alpha) the four boundary points", chosen=True),
                            **built(_certificates, certified))


def _certificates(points) -> list[dict]:
    """Per S: :func:`agreement` of eq. (10) (t - each ratio >= 0) and Definition 2.1 for M(q) (ratio inequalities
    t M[k'][z] - M[k][z] >= 0) at the points (q, t, holds)."""
    docs = []
    for S in sorted({len(q) for q, _, _ in points}):
        pts = []
        for q0, t0, holds in (p for p in points if len(p[0]) == S):
            # q_k and t bound once per point (a shorter certificate, quicker to build)
            qb, q = [[f"q{k}", q0[k]] for k in range(S)] + [["t", t0]], [f"$q{k}" for k in range(S)]
            t = "$t"
            binds, M = bind("m", [[q[k] if z == k else ["/", ["-", 1, q[k]], S - 1] for z in range(S)]
                                  for k in range(S)])
            eq10 = []
            for k in range(S):
                for kp in range(S):
                    if k != kp:
                        eq10 += [["-", t, ["/", ["*", S - 1, q[k]], ["-", 1, q[kp]]]],
                                 ["-", t, ["/", ["-", 1, q[k]], ["*", S - 1, q[kp]]]]]
                        if S >= 3:
                            eq10.append(["-", t, ["/", ["-", 1, q[k]], ["-", 1, q[kp]]]])
            pts.append((holds, eq10, ldp_terms(M, t), qb + binds))
        docs += agreement(f"S = {S}: eq. (10) and the DP ratio of (8)", pts)
    return docs
