"""Audits whose certificates take issue 23's ``product`` form for composed protocols (any part form).

000_aca93ed29ea857ee.txt, Definition 2 (eps-LDP), for five composed structures of the adapters (README, the protocol
table), each built here from exact parts so that its worst ratio is known by hand:

- SPL (:class:`~rldp_verify.structured.composite.AttributeProduct`): attribute 1 through a unary encoding on 4 values
  (p = 1/2, q = 1/4: ratio (1/2)(3/4) / ((1/4)(1/2)) = 3), attribute 2 through GRR on 3 values (a = 1/2, b = 1/4:
  ratio 2): rho = 6, the ``product`` of a ``unary`` and a ``subsets`` part with ``coordinates`` (the lower end is the
  product of the parts' too, so the FAIL just below 6 is certified);
- SFP (:class:`~rldp_verify.structured.sketch.ReleasedProduct`): a released position l in {0, 1}, a GRR fragment
  report (4 values, a = 1/2, b = 1/6: ratio 3) on (x >> l) mod 4 and a unary-encoding word report on x (ratio 3):
  rho <= 9, attained (x = 0, x' = 7, l = 0);
- a sketch over GRR (:class:`~rldp_verify.structured.sketch.HashedInput`: a released row j of 4, GRR on 3 values of
  (x (2 j + 1) + j) mod 3): rho = 2;
- TreeHist over a unary-encoding fragment (:class:`~rldp_verify.structured.treehist.PrefixOracle`: a GRR word report
  on x (8 values, a = 1/3, b = 2/21: ratio 7/2) times a secret uniform mixture over the prefixes x >> 2, 2 + (x >> 1)
  of a unary encoding on 6 values (ratio 3)): rho <= 21/2, attained (disjoint prefix sets), the lower end the exact
  ratio at the witness's inner indices and fragment bits (data), so the FAIL is certified too;
- dBitFlipPM (:class:`~rldp_verify.structured.composite.SampledBits`: 8 inputs in 4 buckets, 2 released positions
  of a unary encoding of the bucket, ratio 3);
- SMP (:class:`~rldp_verify.structured.channels.AttributeMixture`: a released attribute j, then SPL's GRR (ratio 2)
  or unary encoding (ratio 3) on attribute j): rho = 3, a ``product`` with ``mixture`` and ``coordinates`` (the max of
  the parts' ends, the FAIL certified too);
- CMS (:class:`~rldp_verify.structured.composite.BloomProduct` with one position per input: a released row c of 3,
  then a unary encoding with p = 1/2, q = 1/4 of (x (2 c + 1) + c) mod 4 on 4 positions): rho = 3;
- Hadamard response (:class:`~rldp_verify.structured.composite.TwoLevel`: 8 outputs, hi = 3/16 on the 4 outputs y
  with <y, x + 1> even (rows 1..4 of the Hadamard matrix of order 8), lo = 1/16 elsewhere): rho = 3, one ``two-level``
  part;
- TreeHist over GRR word and fragment reports (pure-ldp's DEClient: the word report GRR on x as above, ratio 7/2,
  times a secret uniform mixture over the prefixes x >> 2, x >> 1 of GRR on 4 values with a = 1/2, b = 1/6, ratio 3;
  x = 0 has both prefixes 0, so the fragment's v(M, 0) is a/b): rho = 21/2, attained at x = 0, x' = 4, the lower end
  the exact ratio at the witness's inner indices (data), so the FAIL is certified too.

The sketch's and CMS's lower ends are the exact ratio at the released row's two positions, SFP's at the fragment
and word indices of (l, x, x'), dBitFlipPM's at the buckets of x = 0 and x' = 7 (both among the released positions),
TreeHist's at the word and prefix indices (data re-checked with the library's hash row, bucket map or index_mapper).
Hadamard response's PASS certificate certifies the upper end only; its FAIL is certified as ``two-level`` with the
witness output and both supports as Hadamard rows (the checker evaluates y's membership,
:mod:`rldp_verify_check.forms_threshold`). An engine
error that drops a factor of SPL's ratio or SFP's upper end, takes SMP's ratio from its first attribute only or
Hadamard response's against the mean level, or swaps TreeHist's witness, is rejected by the independent checker
(mutants ``certificate.spl-*``, ``certificate.sfp-*``, ``certificate.smp-*``, ``certificate.hr-*`` and
``certificate.treehist-prefix-*`` of mutation/catalogue.py).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper

PAPER = paper("rldp").seed
F = Fraction


def structures():
    """(name, structure, rho, lower end certified) for the nine composed structures of the module docstring."""
    from rldp_verify.structured.channels import AttributeMixture, BitChannel, Symmetric, UnaryProduct
    from rldp_verify.structured.composite import AttributeProduct, BloomProduct, SampledBits, TwoLevel
    from rldp_verify.structured.sketch import ReleasedProduct, hashed_mixture
    from rldp_verify.structured.treehist import PrefixOracle

    bit = BitChannel(F(1, 2), F(1, 4))
    return [
        ("SPL unary x GRR", AttributeProduct([UnaryProduct(4, bit), Symmetric(3, F(1, 2), F(1, 4))]), F(6), True),
        ("SFP fragment GRR x word unary", ReleasedProduct(8, [0, 1], Symmetric(4, F(1, 2), F(1, 6)),
                                                          UnaryProduct(8, bit), lambda pos, x: (x >> pos) % 4,
                                                          lambda x: x), F(9), True),
        ("sketch over GRR", hashed_mixture(8, list(range(4)), lambda j, x: (x * (2 * j + 1) + j) % 3,
                                           Symmetric(3, F(1, 2), F(1, 4))), F(2), True),
        ("TreeHist unary fragment x GRR word", PrefixOracle(8, Symmetric(8, F(1, 3), F(2, 21)), UnaryProduct(6, bit),
                                                            lambda x: x, lambda x: (x >> 2, 2 + (x >> 1))),
         F(21, 2), True),
        ("dBitFlipPM 4 buckets, 2 positions", SampledBits(8, 4, 2, bit, lambda x: x // 2), F(3), True),
        ("SMP GRR or unary", AttributeMixture([Symmetric(3, F(1, 2), F(1, 4)), UnaryProduct(4, bit)]), F(3), True),
        ("CMS 3 rows, 4 positions", BloomProduct(8, 4, 3, bit, lambda c, x: frozenset({(x * (2 * c + 1) + c) % 4}),
                                                 hmax=1), F(3), True),
        ("HR 8 outputs", TwoLevel(4, 8, F(3, 16), F(1, 16), lambda x: {y for y in range(8)
                                                                       if bin(y & (x + 1)).count("1") % 2 == 0}),
         F(3), True),
        ("TreeHist GRR fragment x GRR word", PrefixOracle(8, Symmetric(8, F(1, 3), F(2, 21)),
                                                          Symmetric(4, F(1, 2), F(1, 6)), lambda x: x,
                                                          lambda x: (x >> 2, x >> 1)), F(21, 2), True),
    ]


@claim(
    id="rldp.audit.composed-product-forms",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for composed protocols: SPL, SFP, a sketch over GRR, TreeHist over a unary-encoding "
           "or GRR fragment, dBitFlipPM, SMP, CMS, Hadamard response",
    statement="The nine composed structures of the module docstring have eps-LDP ratios 6, 9, 2, 21/2, 3, 3, 3, 3 and "
              "21/2: each is e^eps-LDP at e^eps = its ratio and not at e^eps = its ratio (1 - 10^-9).",
    hypotheses=("the parts are independent given x; released indices and secret mixture indices do not depend on x",),
    method=(Method.EXACT,),
    reading="the structured eps-LDP audits: PASS at the ratio and FAIL just below, each PASS with its product "
            "certificate, and the FAIL too for SPL and SMP (coordinates: the lower end derived from the parts'), "
            "Hadamard response (two-level with its witness output) and the others (the witness's inner indices); VERIFIED when every verdict agrees "
            "with the statement and every certificate the statement promises is written",
)
def check_composed_product_forms(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.core.errors import InputError
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, rho, lower in structures():
        model = Adapted(st, name, "exact")
        at, below = f"log({rho})", f"log({rho * (1 - F(1, 10**9))})"
        res, res_below = audit_structured(model, at), audit_structured(model, below)
        rows.append({"mechanism": name, "e^eps": str(rho), "verdict": str(res.verdict),
                     "verdict_below": str(res_below.verdict), "ratio": [str(res.ratio_lower), str(res.ratio_upper)]})
        if str(res.verdict) != "PASS" or str(res_below.verdict) != "FAIL":
            wrong.append(rows[-1])
        docs.append((res, model, at, f"composed {name}"))
        if lower:
            docs.append((res_below, model, below, f"composed {name} below"))
        else:
            try:
                structured_certificate(res_below, model, below)
                wrong.append({**rows[-1], "error": "a FAIL certified without a lower end the checker derives"})
            except InputError as exc:
                rows[-1]["fail_certificate"] = f"none: {exc}"
    ev = dict(audits=rows, **built(lambda: [structured_certificate(r, m, e, name=n) for r, m, e, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} composed structures differ from the statement",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified(f"{len(rows)} composed structures: PASS at the stated ratio and FAIL just below; "
                            f"{len(docs)} product certificates", **ev)
