"""Audits whose certificates take issue 23's forms for OpenDP's lattice noise and local hashing's witness seed.

000_aca93ed29ea857ee.txt, Definition 2 (eps-LDP), for two structured channels of the adapters (README, the
protocol table): OpenDP's ``make_laplace`` / ``make_geometric`` (an input rounded to the index of the nearest
multiple of 2^k, ties up, plus discrete Laplace noise of scale s 2^-k, Canonne, Kamath, Steinke 2020), for which
eps = size (i(upper) - i(lower)) 2^k / s exactly (:mod:`rldp_verify.structured.noise`), and local hashing with
pure-ldp's xxh32 buckets. Two certificate forms of :mod:`rldp_verify_check.audit` are written by these audits:

- ``lattice-laplace`` {lower, upper, k, scale, size} with the lattice indices as data (the checker recomputes them
  and eps from the discrete Laplace ratio);
- ``seeded-grr`` with ``hash_witness``: the separating seed and its two buckets (data the checker takes as given;
  a reader re-checks them with xxhash), which certify local hashing's lower end and so its FAIL.

- ``product`` of two ``seeded-grr`` parts: TreeHist (a word report times a secret uniform mixture over prefixes of a
  fragment report), upper end rho_word rho_fragment, lower end the exact ratio at the witness's buckets.

The verdicts are the audits'; an engine error that lowers the lattice eps, writes a seed that does not separate or
forgets a factor of TreeHist's upper end is rejected by the independent checker (mutants ``certificate.lattice-*``,
``certificate.hash-witness-*``, ``certificate.treehist-*`` of mutation/catalogue.py). Local hashing needs xxhash (installed with the adapters); without it that part is skipped
and the evidence says so.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper
from ._pass_fail import outcome, pass_and_fail_below

PAPER = paper("rldp").seed


def _lattice():
    """(name, structure, eps) with eps = size (i(upper) - i(lower)) 2^k / scale worked by hand."""
    from rldp_verify.structured.composite import DiscreteLaplaceShift
    from rldp_verify.structured.noise import K_MIN_F64, LatticeLaplace, VectorLaplace

    return [("integers 0..3, scale 1", DiscreteLaplaceShift(4, 1.0, lo=0), Fraction(3)),
            ("floats [0.2, 1.7], k = 0, scale 1/2 (indices 0, 2)", LatticeLaplace(3, 0.5, lower=0.2, upper=1.7, k=0),
             Fraction(4)),
            ("floats [0, 1], k = -1074, scale 1/2", LatticeLaplace(3, 0.5, lower=0.0, upper=1.0, k=K_MIN_F64),
             Fraction(2)),
            ("vectors of 4 integers in 0..3, scale 1", VectorLaplace(4, 1.0, lower=0, upper=3, size=4, k=0),
             Fraction(12))]


def _hashing():
    """Local hashing on d = 1000 values, g = 4 buckets, a = 1/2, b = 1/6 with pure-ldp's bucket
    xxh32(str(x), seed) % g (None without xxhash)."""
    try:
        import xxhash
    except ImportError:
        return None
    from rldp_verify.structured.channels import PublicMixture

    def bucket(x, seed):
        return xxhash.xxh32(str(x).encode("utf-8"), seed=seed & 0xFFFFFFFF).intdigest() % 4

    def separating(x, xp):
        return next((s for s in range(64) if bucket(x, s) != bucket(xp, s)), None)
    return PublicMixture(1000, 4, Fraction(1, 2), Fraction(1, 6), separating, hash_fn=bucket)


@claim(
    id="rldp.audit.lattice-noise-and-hash-witness",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for OpenDP's lattice Laplace noise (integers, floats on the 2^k lattice, vectors) "
           "and for local hashing (a public seed, then randomized response on g = 4 buckets)",
    statement="Lattice Laplace noise on integers 0..3 (scale 1), floats in [0.2, 1.7] (k = 0, scale 1/2), floats in "
              "[0, 1] (k = -1074, scale 1/2) and vectors of 4 integers in 0..3 (scale 1) is eps-LDP at eps = 3, 4, 2, "
              "12 and not at eps (1 - 10^-9); local hashing with g = 4, a = 1/2, b = 1/6 and xxh32 buckets is "
              "log 3-LDP and not eps-LDP at e^eps = 3 (1 - 10^-9).",
    hypotheses=("the float bounds and scales are the binary rationals of the doubles given",
                "local hashing: checked when xxhash is installed"),
    method=(Method.EXACT,),
    reading="the structured eps-LDP audits: PASS at eps (e^eps for local hashing) and FAIL just below, each with its "
            "certificate (lattice-laplace, seeded-grr with the separating seed's buckets); VERIFIED when every "
            "verdict agrees with the statement",
)
def check_lattice_and_hash_witness(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built

    cases = [(n, st, str(e)) for n, st, e in _lattice()]
    lh = _hashing()
    if lh is not None:
        cases.append(("local hashing g = 4", lh, "log(3)"))
    rows, docs, wrong = pass_and_fail_below(cases)
    ev = dict(audits=rows, local_hashing="audited" if lh is not None else "skipped: xxhash is not installed",
              **built(lambda: [structured_certificate(r, m, e, name=f"noise {n}") for r, m, e, n in docs]))
    return outcome(rows, wrong, ev)


def _treehist():
    """TreeHist on d = 8 inputs: a word report (x itself) times a uniform mixture over R = 3 prefixes (x >> 2,
    2 + (x >> 1), 6 + x) of a fragment report, both local hashing with g = 4, a = 1/2, b = 1/6 (rho = 3 each), on
    xxh32 buckets (a polynomial hash without xxhash: then only the PASS carries a certificate)."""
    from rldp_verify.structured.channels import PublicMixture
    from rldp_verify.structured.treehist import PrefixMixture

    try:
        import xxhash

        def bucket(x, seed):
            return xxhash.xxh32(str(x).encode("utf-8"), seed=seed & 0xFFFFFFFF).intdigest() % 4
    except ImportError:
        def bucket(x, seed):
            return (x * (2 * seed + 1) + seed // 3) % 4

    def lh():
        return PublicMixture(14, 4, Fraction(1, 2), Fraction(1, 6),
                             lambda x, xp: next((s for s in range(64) if bucket(x, s) != bucket(xp, s)), None),
                             hash_fn=bucket)
    return PrefixMixture(8, lh(), lh(), lambda x: x, lambda x: (x >> 2, 2 + (x >> 1), 6 + x), frag_seeds=range(256))


@claim(
    id="rldp.audit.treehist-product",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for TreeHist (pure-ldp's TreeHistClient: a word report times a secret uniform "
           "mixture over prefixes of a fragment report, both local hashing)",
    statement="TreeHist on 8 inputs with 3 prefixes, word and fragment local hashing with g = 4, a = 1/2, b = 1/6, is "
              "log 9-LDP (rho <= rho_word rho_fragment = 3 x 3) and not eps-LDP at e^eps = 9 (1 - 10^-9).",
    hypotheses=("the secret prefix index is uniform and independent of the two released seeds",
                "the FAIL's witness rests on xxh32 buckets (checked when xxhash is installed)"),
    method=(Method.EXACT,),
    reading="the structured eps-LDP audit (a certified interval): PASS at e^eps = 9, FAIL just below; the PASS carries "
            "the product certificate (word x fragment upper ends), the FAIL its exact witness when the buckets are "
            "xxh32's; VERIFIED when both verdicts agree with the statement",
)
def check_treehist_product(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.core.errors import InputError
    from rldp_verify.structured.audit import Adapted, audit_structured

    model = Adapted(_treehist(), "TreeHist d = 8, R = 3", "exact")
    at, below = "log(9)", f"log({9 * (1 - Fraction(1, 10**9))})"
    res, res_below = audit_structured(model, at), audit_structured(model, below)
    rows = [{"eps": e, "verdict": str(r.verdict), "ratio": [str(r.ratio_lower), str(r.ratio_upper)]}
            for e, r in ((at, res), (below, res_below))]

    def certs():
        out = [structured_certificate(res, model, at, name="treehist PASS")]
        with contextlib.suppress(InputError):                # no xxhash: the FAIL's witness has no form
            out.append(structured_certificate(res_below, model, below, name="treehist FAIL"))
        return out
    ev = dict(audits=rows, **built(certs))
    if str(res.verdict) != "PASS" or str(res_below.verdict) != "FAIL":
        return Outcome.refuted("TreeHist's verdicts differ from the statement", counterexample=rows, **ev, kind="false")
    return Outcome.verified("TreeHist: PASS at e^eps = 9 = rho_word rho_fragment, FAIL just below", **ev)
