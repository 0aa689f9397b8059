"""The certified auditor against an oracle search over F (the tool's own consistency check, issue 24).

000_aca93ed29ea857ee.txt, Definition 1 and Sec. 5 eq. (39): (eps, F)-RLDP holds iff
sup_{P in F} max_{y, s != s'} P(y|s)/P(y|s') <= e^eps. The auditor (rldp_verify.rldp.audit) brackets the supremum
by [lo, hi]: lo the exact ratio of a witness certified in F, hi an arb-evaluated dual. An auditor whose hi is
not an upper bound (e.g. the ratio at P-hat only) passes mechanisms that are not private; this claim finds such
an hi with points of F found by a search that shares no code with the auditor (proofs.rldp._oracle).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall

from ..papers import paper
from ._oracle import in_ball, oracle_sup, ratio_at

PAPER = paper("rldp").seed


def _instances(rng, count):
    sizes = ((2, 2), (2, 3), (3, 2))
    for k in range(count):
        a1, a2 = sizes[k % 3]
        counts = [[rng.randint(1, 9) for _ in range(a2)] for _ in range(a1)]
        ball = RenyiBall.from_radius(counts, rng.choice(["1", "2", "3"]), rng.choice(["1/20", "1/8", "1/4"]))
        Y = 3
        cols = [[Fraction(rng.randint(1, 12)) for _ in range(Y)] for _ in range(a1 * a2)]
        cols = [[x / sum(c) for x in c] for c in cols]
        yield ball, Mechanism.from_matrix([[cols[j][i] for j in range(a1 * a2)] for i in range(Y)], a1, a2)


@claim(
    id="rldp.audit.upper-end-vs-oracle",
    paper=PAPER,
    source="Definition 1; Sec. 5 eq. (39) (the supremum over F that the certified auditor brackets)",
    statement="The auditor's certified bracket [lo, hi] of sup_{P in F} max_{y, s != s'} P(y|s)/P(y|s') is ordered "
              "(lo <= hi), lo is the ratio of its witness, which lies in F, and no point of F has a ratio above hi.",
    hypotheses=("random 2x2, 2x3, 3x2 tables", "alpha in {1, 2, 3}", "radii 1/20, 1/8, 1/4", "3 outputs"),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
    reading="'no point of F above hi' is tested with an oracle search over F that shares no code with the "
            "auditor (rays from P-hat to the boundary of F, our own arb divergence, exact ratios); a point certified "
            "in F with a ratio above hi refutes the auditor",
)
def check(ctx):
    rng = ctx.rng("audit.oracle")
    rows, audited = [], []
    for k, (ball, mech) in enumerate(_instances(rng, 6)):
        res = audit(mech, "1", ball=ball, dps=ctx.dps)
        audited.append((k, res, mech, ball))   # issue 23: each audit's certificate
        lo, hi = Fraction(res.ratio_lower), Fraction(res.ratio_upper)
        flat = [v for row in ball.phat for v in row]
        inst = {"phat": [[str(v) for v in row] for row in ball.phat], "alpha": str(ball.alpha),
                "radius": str(ball.radius), "Q": [[str(v) for v in row] for row in mech.matrix]}
        if lo > hi:
            return Outcome.refuted(f"instance {k}: the auditor's bracket is not ordered: lo = {float(lo):.10g} > "
                                   f"hi = {float(hi):.10g}", counterexample={**inst, "lo": str(lo), "hi": str(hi)},
                                   kind="false")
        W = [v for row in res.witness for v in row]
        y, s, t = res.argmax["y"], res.argmax["s"], res.argmax["s_prime"]
        if not in_ball(flat, W, ball.alpha, ball.radius, ctx.dps) or ratio_at(mech.matrix, W, ball.sensitive_size, ball.public_size, y, s, t) != lo:
            return Outcome.refuted(f"instance {k}: the auditor's witness is not in F or its ratio is not lo",
                                   counterexample={**inst, "witness": [str(v) for v in W], "lo": str(lo)}, kind="false")
        best, P = oracle_sup(ball.phat, ball.alpha, ball.radius, mech.matrix, ctx.rng(f"audit.oracle.{k}"),
                             directions=40, starts=1, dps=ctx.dps,
                             min_step=Fraction(1, 2**10))
        if best > hi:
            return Outcome.refuted(f"instance {k}: a point certified in F has ratio {float(best):.10g} above the "
                                   f"auditor's upper end hi = {float(hi):.10g}",
                                   counterexample={**inst, "P": [str(v) for v in P], "ratio": str(best), "hi": str(hi)},
                                   kind="false")
        rows.append({"instance": k, "lo": f"{float(lo):.12g}", "hi": f"{float(hi):.12g}",
                     "oracle": f"{float(best):.12g}", "oracle_below_lo_relative": f"{float((lo - best) / lo):.2e}"})
    return Outcome.verified(f"{len(rows)} random mechanisms and balls: every bracket ordered, every witness certified "
                            "in F with ratio lo, and the oracle search over F never exceeds hi (its best is within "
                            f"{max(float(r['oracle_below_lo_relative']) for r in rows):.2e} of lo, relative)",
                            instances=rows, **_certificates(audited))


def _certificates(audited) -> dict:
    from rldp_verify.certificates.audit import audit_certificate
    from rldp_verify.certificates.claims import built

    return built(lambda: [audit_certificate(r, m, "1", name=f"instance {k}", ball=b) for k, r, m, b in audited])
