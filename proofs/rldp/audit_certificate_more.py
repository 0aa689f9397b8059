"""Audits whose certificates take issue 23's forms for OpenDP's Gaussian noise, noisy max and noisy top k.

000_aca93ed29ea857ee.txt, Definition 2 (eps-LDP), for the structures of OpenDP's adapter (README, the protocol
table), built here from their fields so that the claim needs no library:

- discrete Gaussian noise on integers 0..4 (scale 1) and on floats in [0, 1/10] at the lattice 2^3 (both bounds on
  one lattice point): the first is not eps-LDP for any eps (the log ratio at y is linear in y), the second has one
  output law; the certificate ``lattice-gaussian`` (an output y with log ratio > eps for the FAIL);
- noisy max with exponential noise of scale 4 on the scores (1, 0) and (0, 1): permute-and-flip gives
  Pr[0 | (1, 0)] = 1 - e^(-1/4)/2 and Pr[0 | (0, 1)] = e^(-1/4)/2, so rho = 2 e^(1/4) - 1 (log: 0.4498...);
  with Gumbel noise (softmax) rho = e^(1/4); noisy top 2 with Gumbel noise of scale 4 on (2, 1, 0) and (0, 1, 2):
  Plackett-Luce gives rho = e^(3/4) at the output (0, 1); the certificate ``noisy-max`` (the laws recomputed in arb).

- local hashing (g = 8, a/b = 7, xxh32 buckets, the 16 seeds the whole public range) under {P}, P on 2 x 4 cells:
  FAIL at eps = 1/2, certified at the witness seed and bucket with the buckets of both secrets' cells (``seeded-grr``
  with ``p_witness``; skipped without xxhash).

The verdicts are the audits'; an engine error that bounds Gaussian noise's ratio like Laplace's, reads noisy max's
exponential noise as Gumbel noise, or hashes the cell after the one it audits under {P} is rejected by the
independent checker (mutants ``certificate.gaussian-ratio-bounded``, ``certificate.noisy-max-exponential-as-softmax``
and ``certificate.hash-p-cell-off-by-one`` of mutation/catalogue.py).
"""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper

PAPER = paper("rldp").seed


def _cases():
    """(name, structure, eps at which it is private (PASS) or None, eps at which it is not (FAIL))."""
    from rldp_verify.structured.noise import NoisyArgmax, NoisyTopK, UnboundedLoss

    gauss = {"lower": 0, "upper": 4, "k": 0, "scale": 1.0, "size": 1}
    flat = {"lower": 0.0, "upper": 0.1, "k": 3, "scale": 1.0, "size": 1}
    return [("Gaussian integers 0..4", UnboundedLoss("discrete Gaussian", "4", "0", "y -> inf",
                                                     params={"lattice-gaussian": gauss}), None, "10"),
            ("Gaussian floats [0, 0.1] at 2^3", UnboundedLoss("discrete Gaussian", "0.1", "0.0", "any", constant=True,
                                                              params={"lattice-gaussian": flat}), "0", None),
            ("noisy max exponential", NoisyArgmax([[1, 0], [0, 1]], 4.0), "0.4499", "0.4497"),
            ("noisy max Gumbel", NoisyArgmax([[1, 0], [0, 1]], 4.0, "gumbel"), "0.2501", "0.2499"),
            ("noisy top 2 Gumbel", NoisyTopK([[2, 1, 0], [0, 1, 2]], 4.0, "gumbel", k=2), "0.7501", "0.7499")]


def hashing_case():
    """Local hashing over xxh32 (g = 8, a/b = 7, seeds 0..15 the whole range) and P on 2 x 4 cells; None without
    xxhash."""
    from fractions import Fraction

    from rldp_verify.structured.channels import PublicMixture

    try:
        import xxhash
    except ImportError:
        return None
    g, e = 8, Fraction(7)

    def h(x, s):
        return xxhash.xxh32(str(x).encode("utf-8"), seed=s & 0xFFFFFFFF).intdigest() % g
    st = PublicMixture(8, g, e / (e + g - 1), 1 / (e + g - 1),
                       lambda x, xp: next((s for s in range(16) if h(x, s) != h(xp, s)), None), seeds=range(16),
                       hash_fn=h, complete=True)
    P = [[Fraction(v, 20) for v in r] for r in ([2, 4, 1, 3], [4, 2, 2, 2])]
    return st, P


@claim(
    id="rldp.audit.opendp-gaussian-noisy-max",
    paper=PAPER,
    source="Definitions 2 (eps-LDP) and 3 ((eps, P)-RLDP, local hashing) for OpenDP's discrete Gaussian noise (integers and the float lattice), noisy max "
           "(exponential and Gumbel noise) and noisy top k (Gumbel noise)",
    statement="Local hashing (g = 8, a/b = 7) is not (1/2, P)-RLDP for the P of the check; discrete Gaussian noise on 0..4 is not eps-LDP at eps = 10 (nor any eps); on [0, 0.1] at the lattice "
              "2^3 it is 0-LDP; noisy max on the scores (1, 0), (0, 1) at scale 4 is eps-LDP exactly from "
              "eps = log(2 e^(1/4) - 1) (exponential noise) and 1/4 (Gumbel noise), noisy top 2 on (2, 1, 0), "
              "(0, 1, 2) at scale 4 from 3/4 (Gumbel noise): PASS just above, FAIL just below.",
    hypotheses=("OpenDP's exact samplers (discrete Gaussian, exponential and Gumbel noise)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="the structured eps-LDP audits with their certificates (lattice-gaussian, noisy-max); VERIFIED when "
            "every verdict is the stated one",
)
def check_more_forms(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, at, below in _cases():
        model = Adapted(st, name, "exact")
        for eps, want in ((at, "PASS"), (below, "FAIL")):
            if eps is None:
                continue
            res = audit_structured(model, eps)
            rows.append({"mechanism": name, "eps": eps, "verdict": str(res.verdict), "expected": want,
                         "ratio": [str(res.ratio_lower), str(res.ratio_upper)]})
            if str(res.verdict) != want:
                wrong.append(rows[-1])
            docs.append((res, model, eps, f"more {name} {eps}"))
    if (case := hashing_case()) is not None:
        model = Adapted(case[0], "local hashing under P", "exact")
        res = audit_structured(model, "0.5", distribution=case[1], sizes=(2, 4))
        rows.append({"mechanism": "local hashing under P", "eps": "0.5", "verdict": str(res.verdict),
                     "expected": "FAIL", "ratio": [str(res.ratio_lower), str(res.ratio_upper)]})
        if str(res.verdict) != "FAIL":
            wrong.append(rows[-1])
        docs.append((res, model, "0.5", "more local hashing under P 0.5"))
    ev = dict(audits=rows, **built(lambda: [structured_certificate(r, m, e, name=n) for r, m, e, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} audits do not have the stated verdicts",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified(f"{len(rows)} audits: the stated verdicts, certified", **ev)
