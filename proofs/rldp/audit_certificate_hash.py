"""Audits whose certificates take issue 23's forms for pure-ldp's RAPPOR, private count sketch, heavy hitters over
histogram encoding and the Hadamard mechanism's compound seed.

000_aca93ed29ea857ee.txt, Definition 2 (eps-LDP), for four structured channels of the adapters (README, the protocol
table), built here from their structures so that the claim needs no library:

- a Bloom filter (RAPPOR: a released cohort, then every position through the bit channel p = 3/4, q = 1/4 on the
  filter bit; 4 inputs with disjoint sets of h = 2 positions): rho = (r1 r2)^h = (3 x 3)^2 = 81; the certificate
  ``bloom`` {m, h, p, q} with the witness cohort's sets as data;
- a signed sketch (the private count sketch: a released row, the entry at h_j(x) of sign s_j(x) kept with
  probability 9/10, the other entries +1 with probability 2/5): rho = r(+, 0) r(0, +) = (9/4)(6) = 27/2 at two
  inputs with different positions; the certificate ``signed-sketch`` {w, hot, cold} with the witness keys as data;
- two histogram-encoding reports (TreeHist / SFP over HEClient, b_F = 4, b_W = 8): eps = 2/4 + 2/8 = 3/4; the
  certificate ``laplace-reports`` {b} (upper end only: the PASS is certified, the FAIL below is not);
- the Hadamard mechanism (t = 3 released rows, GRR with keep 1/2 on the 8 sign tuples of 8 inputs): rho =
  (1/2) / (1/14) = 7; the certificate ``seeded-grr`` with the separating rows and the two sign-tuple buckets as data.

The verdicts are the audits'; an engine error that forgets the positions set under x' only in the Bloom filter's
ratio, the other entry of a signed sketch's pair, or the word report of the Laplace reports, is rejected by the
independent checker (mutants ``certificate.bloom-*``, ``certificate.signed-sketch-*``, ``certificate.laplace-
reports-*`` of mutation/catalogue.py).
"""

from __future__ import annotations

import contextlib
import itertools
from fractions import Fraction

from rldp_verify.claims import Method, claim

from ..papers import paper
from ._pass_fail import outcome, pass_and_fail_below

PAPER = paper("rldp").seed


def _cases():
    """(name, structure, e^eps or eps at which it is private: a string for audit_structured)."""
    from rldp_verify.structured.channels import BitChannel, PublicMixture
    from rldp_verify.structured.composite import BloomProduct
    from rldp_verify.structured.sketch import LaplaceReports, SignedSketch

    bloom = BloomProduct(4, 8, 2, BitChannel(Fraction(3, 4), Fraction(1, 4)),
                         lambda c, x: frozenset({(2 * x + c) % 8, (2 * x + 1 + c) % 8}), hmax=2)
    sketch = SignedSketch(4, 8, 2, Fraction(9, 10), Fraction(2, 5),
                          lambda j, x: ((x // 2 + j) % 8, 1 if x % 2 == 0 else -1))
    reports = LaplaceReports(4, 1.0, frag_scale=4.0, word_scale=8.0, pieces=lambda x: [[x]], word_index=lambda x: x)
    signs = list(itertools.product((-1, 1), repeat=3))

    def bucket(x, rows):
        return signs.index(tuple((-1) ** bin(x & j).count("1") for j in rows))

    def separating(x, xp):
        return ((x ^ xp) & -(x ^ xp), 0, 0) if x != xp else None
    hm = PublicMixture(8, 8, Fraction(1, 2), Fraction(1, 14), separating, hash_fn=bucket)
    return [("bloom filter h = 2", bloom, "log(81)"), ("signed sketch", sketch, "log(27/2)"),
            ("Laplace reports b = 4, 8", reports, "3/4"), ("Hadamard mechanism t = 3", hm, "log(7)")]


@claim(
    id="rldp.audit.hash-bloom-sketch-reports",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for pure-ldp's RAPPOR (a Bloom filter), private count sketch (a signed sketch), "
           "TreeHist / SFP over histogram encoding (two Laplace reports) and the Hadamard mechanism (t released rows)",
    statement="The Bloom filter (h = 2, p = 3/4, q = 1/4) is log 81-LDP, the signed sketch (hot 9/10, cold 2/5) "
              "log(27/2)-LDP, the two Laplace reports (b = 4, 8) 3/4-LDP and the Hadamard mechanism (t = 3, keep "
              "1/2 on 8 sign tuples) log 7-LDP, and none is eps-LDP at (1 - 10^-9) times that eps.",
    hypotheses=("the cohort, row and rows are released and uniform, independent of the input",
                "Laplace reports: the ideal continuous mechanism (the float sampler is not modelled)"),
    method=(Method.EXACT,),
    reading="the structured eps-LDP audits: PASS at the stated eps, FAIL just below, with their certificates "
            "(bloom, signed-sketch, laplace-reports: the PASS only, seeded-grr with the compound seed's buckets); "
            "VERIFIED when every verdict agrees with the statement",
)
def check_hash_forms(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.core.errors import InputError

    rows, docs, wrong = pass_and_fail_below(_cases())

    def certs():
        out = []
        for r, m, e, n in docs:
            with contextlib.suppress(InputError):        # the Laplace reports' FAIL: an upper-end-only form
                out.append(structured_certificate(r, m, e, name=f"hash {n}"))
        return out
    return outcome(rows, wrong, dict(audits=rows, **built(certs)))
