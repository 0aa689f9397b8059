"""Audits whose certificates take the forms of issue 23 that no other claim exercises.

000_aca93ed29ea857ee.txt, Definition 1 ((eps, F)-RLDP), Definition 2 (eps-LDP), Theorem 1 (projections onto
the Rényi ball), Sec. 5 Example 3 (Q_PolyOpt) with Example 1's P-hat. Three certificate forms of
:mod:`rldp_verify_check.audit` are written only by these audits:

- ``"mode": "split"`` pair entries: the budget-split upper end of a Rényi ball of order alpha <= 1/2
  (:func:`rldp_verify.rldp.audit.grid.split_entry`);
- ``unary`` {d, p, q}: a unary encoding audited as its per-bit channel (any d, no 2^d outputs);
- ``seeded-grr`` {g, a, b}: local hashing audited as its bucket channel (a PASS, upper end only).

The verdicts are the audits'; the certificates are re-checked by the independent checker, so an engine error in
one of these routes that loosens a bound is rejected there (the mutants ``certificate.split-*``,
``certificate.unary-*``, ``certificate.seeded-grr-*`` of mutation/catalogue.py).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism

from ..papers import paper
from .ex3_audit import PHAT, Q_PRINTED

PAPER = paper("rldp").seed
ALPHA, RADIUS = "1/2", "1/100"


@claim(
    id="rldp.audit.split-certificate-alpha-half",
    paper=PAPER,
    source="Sec. 5, Example 3 (Q_PolyOpt, eps = log 2) with Example 1's P-hat; Definition 1; Theorem 1",
    statement="Q_PolyOpt of Example 3 (printed entries, columns rescaled to sum to 1) satisfies (log 2, F)-RLDP for "
              "F the Rényi ball of order alpha = 1/2 and radius 1/100 around Example 1's P-hat.",
    hypotheses=("columns of the printed matrix rescaled (they sum to 1 +- 1e-4)", "alpha = 1/2, radius 1/100"),
    method=(Method.HIGH_PRECISION, Method.EXACT),
    reading="the certified audit's verdict (PASS: VERIFIED, FAIL: REFUTED with its witness); for alpha <= 1/2 its "
            "upper end comes from the budget split of Theorem 1's projections, whose pair entry (mode 'split') the "
            "certificate carries",
)
def check_split(ctx):
    mech = Mechanism.from_matrix(Q_PRINTED, ["s1", "s2"], ["u1", "u2"], normalize=True)
    res = audit(mech, "log(2)", phat=PHAT, alpha=ALPHA, radius=RADIUS, dps=ctx.dps)
    js = res.to_json()
    from rldp_verify.certificates.audit import audit_certificate
    from rldp_verify.certificates.claims import built

    cert = built(lambda: audit_certificate(res, mech, "log(2)", name="example3-alpha-half", phat=PHAT, alpha=ALPHA,
                                           radius=RADIUS))
    modes = sorted({str(p.get("mode", "dual")) for d in cert.get("certificates", [])
                    for p in d["data"].get("pairs", [])})
    ev = dict(verdict=res.verdict, ratio=[js["ratio_lower"], js["ratio_upper"]], eps_F=js["eps_realised"],
              argmax=res.argmax, witness=js["witness"], notes=js["notes"], pair_entry_modes=modes, **cert)
    if res.verdict == "PASS":
        return Outcome.verified(f"PASS: worst ratio in [{js['ratio_lower']}, {js['ratio_upper']}] <= 2 "
                                f"(pair entries: {', '.join(modes)})", **ev)
    if res.verdict == "FAIL":
        return Outcome.refuted("a distribution in F violates the eps = log 2 bound", counterexample=ev, **ev,
                               kind="false")
    return Outcome.inconclusive("undecided at the precision limit", **ev)


def _forms():
    """(name, structure, e^eps) per encoding: OUE (p = 1/2, q = 1/(e^eps + 1)), SUE (p = e^(eps/2)/(e^(eps/2) + 1),
    q = 1 - p) on d = 2^20 values, and local hashing with g = e^eps + 1 buckets (a = e^eps / (e^eps + g - 1))."""
    from rldp_verify.structured.channels import BitChannel, PublicMixture, UnaryProduct

    g = 4
    return [("OUE", UnaryProduct(1 << 20, BitChannel(Fraction(1, 2), Fraction(1, 4))), Fraction(3)),
            ("SUE", UnaryProduct(1 << 20, BitChannel(Fraction(3, 4), Fraction(1, 4))), Fraction(9)),
            ("OLH", PublicMixture(1000, g, Fraction(1, 2), Fraction(1, 6), separating=lambda x, xp: 1,
                                  hash_fn=lambda x, s: (x + s * (x // g)) % g), Fraction(3))]


@claim(
    id="rldp.audit.unary-and-hashing-ldp",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for unary encodings (a product of per-bit channels) and local hashing "
           "(a public seed, then randomized response on g buckets)",
    statement="Optimised unary encoding (p = 1/2, q = 1/4) and symmetric unary encoding (p = 3/4, q = 1/4) on "
              "d = 2^20 values are eps-LDP at e^eps = 3 and 9 and not at e^eps = 3 (1 - 10^-9), 9 (1 - 10^-9); local "
              "hashing with g = 4 buckets and a = 1/2, b = 1/6 is log 3-LDP and not eps-LDP at e^eps = 3 (1 - 10^-9).",
    hypotheses=("local hashing: a seed that separates two inputs exists (the audit searches for one)",),
    method=(Method.EXACT,),
    reading="the structured eps-LDP audit (no 2^d outputs): PASS at e^eps with the exact worst ratio e^eps, and "
            "FAIL at e^eps (1 - 10^-9), for each; VERIFIED when all six verdicts agree with the statement",
)
def check_structured(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, r in _forms():
        model = Adapted(st, name, "exact")
        res = audit_structured(model, f"log({r})")
        below = audit_structured(model, f"log({r * (1 - Fraction(1, 10**9))})")
        rows.append({"encoding": name, "exp_eps": str(r), "verdict": str(res.verdict),
                     "ratio_upper": str(res.ratio_upper), "verdict_below": str(below.verdict)})
        if str(res.verdict) != "PASS" or str(below.verdict) != "FAIL" or res.ratio_upper != r:
            wrong.append(rows[-1])
        docs.append((res, model, f"log({r})", name))
    ev = dict(audits=rows, **built(lambda: [structured_certificate(res, m, e, name=f"structured-{n}")
                                            for res, m, e, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} encodings do not have the stated worst ratio",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified("OUE, SUE (d = 2^20) and local hashing (g = 4): PASS at e^eps = 3, 9, 3 and FAIL just "
                            "below each", **ev)
