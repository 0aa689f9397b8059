"""Structured (eps, P)- and (eps, F)-RLDP audits and their certificates (issues 23 and 26).

000_aca93ed29ea857ee.txt, Definition 1 ((eps, F)-RLDP), Definition 3 (the ratio P(Y=y|S=s)/P(Y=y|S=s')), eq. (62)
(the realised eps of one distribution), Example 1's P-hat on S x U = 2 x 2. The structured audits of
:mod:`rldp_verify.structured.rldp` and :func:`rldp_verify.structured.audit._audit_ball` never enumerate the
channel's outputs; this claim compares them with the dense audit (:func:`rldp_verify.rldp.audit.audit` on the
channel's matrix) on a domain small enough for both, and carries the structured certificate forms of
:mod:`rldp_verify_check.audit` that only these routes write:

- ``subsets`` {m, p} under {P} (GRR as m = 1, and subset selection m = 2), with the witness output Y;
- ``unary`` {d, p, q} under {P} and for a Rényi ball (the witness P-hat re-checked in the ball);
- ``seeded-grr`` {g, a, b} under {P} and for a Rényi ball (a PASS, upper end only: this hash is not xxh32), and
  under {P} over its seeds declared the whole range (``complete``) with the ``seed_table`` of every input's bucket.

An engine error in one of these routes that loosens a printed upper end is rejected by the independent checker
(the mutants ``certificate.subsets-*``, ``certificate.unary-p-*``, ``certificate.seeded-grr-p-*`` of
mutation/catalogue.py), whatever the comparison with the dense audit says.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper
from .ex3_audit import PHAT

PAPER = paper("rldp").seed
EPS = "log(3)"
ALPHA, RADIUS = "2", "1/10"


def _channels():
    """(name, structure) on k = 4 inputs: GRR (a = 1/2), subset selection (m = 2, Pr[x in Y] = 3/4), OUE
    (p = 1/2, q = 1/4) and local hashing (g = 4, a = 1/2, b = 1/6, seeds 0..2 of the hash (x + s x) mod 4)."""
    from rldp_verify.structured.channels import BitChannel, PublicMixture, SubsetSelection, Symmetric, UnaryProduct

    return [("GRR", Symmetric(4, Fraction(1, 2), Fraction(1, 6))),
            ("subsets", SubsetSelection(4, 2, Fraction(3, 4))),
            ("OUE", UnaryProduct(4, BitChannel(Fraction(1, 2), Fraction(1, 4)))),
            ("OLH", PublicMixture(4, 4, Fraction(1, 2), Fraction(1, 6), separating=lambda x, xp: 1,
                                  hash_fn=lambda x, s: (x + s * x) % 4, seeds=range(3)))]


def _dense(st):
    from rldp_verify.rldp.mechio import Mechanism

    rows, _ = st.dense()
    return Mechanism.from_matrix(rows, ["s1", "s2"], ["u1", "u2"])


@claim(
    id="rldp.audit.structured-p-and-ball",
    paper=PAPER,
    source="Definition 1, Definition 3, eq. (62); Example 1's P-hat as P (and as the centre of a Rényi ball) on "
           "S x U = 2 x 2",
    statement="For P = Example 1's P-hat, the structured (eps, P)-RLDP audits of GRR (k = 4, a = 1/2), subset "
              "selection (k = 4, m = 2, Pr[x in Y] = 3/4) and the optimised unary encoding (p = 1/2, q = 1/4) give "
              "the worst ratio of the dense audit of the same channel, local hashing (g = 4, a = 1/2, b = 1/6, three "
              "seeds) an interval whose lower end is the dense ratio over its seeds and whose upper end is "
              "max(a/b, b/a) = 3 (the same three seeds declared the whole range: the dense ratio exactly); the "
              "Rényi-ball audit (alpha = 2, radius 1/10 around P-hat) of the unary encoding gives the dense ball "
              "audit's ratio 3, those of GRR and local hashing intervals meeting the dense ones; all PASS at "
              "eps = log 3.",
    hypotheses=("the dense audits are the reference (rldp_verify.rldp.audit.audit on the channels' matrices)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="VERIFIED when every structured verdict is PASS and every structured ratio equals the dense one (local "
            "hashing: its lower end, and upper end 3; GRR's and local hashing's balls: the two intervals meet); the "
            "structured certificates (forms subsets, unary, seeded-grr, with a seed table, subsets and seeded-grr on "
            "a ball) are "
            "re-checked by the independent checker",
)
def check_structured_p_and_ball(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.uncertainty import RenyiBall
    from rldp_verify.structured.audit import Adapted, audit_structured

    P = [[Fraction(v) for v in r] for r in PHAT]
    rows, wrong, docs = [], [], []
    runs = [(n, st, dict(distribution=P), dict(distribution=PHAT)) for n, st in _channels()]
    runs.append(("OUE ball", _channels()[2][1], dict(ball=RenyiBall.from_radius(P, ALPHA, RADIUS)),
                 dict(phat=PHAT, alpha=ALPHA, radius=RADIUS)))
    runs += [(n, _channels()[i][1], dict(ball=RenyiBall.from_radius(P, ALPHA, RADIUS)),
              dict(phat=PHAT, alpha=ALPHA, radius=RADIUS)) for n, i in (("GRR ball", 0), ("OLH ball", 3))]
    runs.append(("OLH complete", replace(_channels()[3][1], complete=True),   # its three seeds the whole range
                 dict(distribution=P), dict(distribution=PHAT)))
    for name, st, kw, dense_kw in runs:
        model = Adapted(st, name, "exact")
        res = audit_structured(model, EPS, **kw)
        ref = audit(_dense(st), EPS, dps=ctx.dps, **dense_kw)
        row = {"channel": name, "verdict": str(res.verdict), "ratio": [str(res.ratio_lower), str(res.ratio_upper)],
               "dense_ratio": [str(ref.ratio_lower), str(ref.ratio_upper)]}
        want_hi = max(st.a / st.b, st.b / st.a) if name == "OLH" else ref.ratio_upper
        meet = res.ratio_lower <= ref.ratio_upper and ref.ratio_lower <= res.ratio_upper   # both hold the sup
        ball = name in ("GRR ball", "OLH ball")
        if str(res.verdict) != "PASS" or (not meet if ball else res.ratio_lower != ref.ratio_lower
                                          or res.ratio_upper != want_hi):
            wrong.append(row)
        rows.append(row)
        docs.append((res, model, name))
    ev = dict(audits=rows, **built(lambda: [structured_certificate(res, m, EPS, name=f"structured-{n}")
                                            for res, m, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} structured audits differ from the dense audit",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified("GRR, subset selection, OUE under P-hat and OUE on the Rényi ball: the dense audit's "
                            "ratio; local hashing: [dense ratio over its seeds, 3] (its seeds the whole range: the "
                            "dense ratio); GRR and local hashing on the ball: "
                            "intervals meeting the dense ones; all PASS at log 3", **ev)
