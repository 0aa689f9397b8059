"""Audits whose certificates take issue 23's second-pass forms: OpenDP's threshold releases, Hadamard response's FAIL
and a unary encoding on a Rényi ball of radius inf.

000_aca93ed29ea857ee.txt, Definitions 2 (eps-LDP) and 3 ((eps, F)-RLDP), for structures built here from their fields
(no library needed):

- OpenDP's make_laplace_threshold and make_gaussian_threshold (scale 1, threshold 2) on maps: x = {key: v} releases
  the key with positive probability, x' = {} never: rho = inf, FAIL at every eps (here eps = 10); the certificate
  ``threshold-release``;
- Hadamard response (8 outputs, hi = 3/16 on the 4 outputs y with popcount(y & (x + 1)) even, lo = 1/16 elsewhere):
  rho = 3; PASS at e^eps = 3 (the ``product`` form, upper end) and FAIL at e^eps = 3 (1 - 10^-9), certified by
  ``two-level`` with the witness output y = 2 in A(0) minus A(1), the supports as Hadamard rows 1 and 2 of order 8;
- a unary encoding (d = 4, p = 1/2, q = 1/4: rho = (p (1 - q)) / (q (1 - p)) = 3) on the Rényi ball of order 2 and
  radius inf around the uniform P^ on 4 x 1 cells, which is the whole simplex, and GRR on k = 4 values (a = 1/2,
  b = 1/6: rho = 3) on that ball around the uniform P^ on 2 x 2 cells: PASS at e^eps = 3, FAIL just below; the
  certificates ``unary`` / ``subsets`` under the set ``simplex`` with a witness giving two secrets positive mass (GRR:
  and the output attaining its ratio).

The verdicts are the audits'; an engine error that bounds a threshold release's ratio, takes Hadamard response's
witness output in the other input's support, or writes the simplex witness with one secret only is rejected by the
independent checker (mutants ``certificate.threshold-ratio-bounded``, ``certificate.hr-witness-output-swapped`` and
``certificate.simplex-witness-one-secret`` of mutation/catalogue.py).
"""

from __future__ import annotations

from fractions import Fraction as F

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper

PAPER = paper("rldp").seed


def _cases():
    """(name, structure, (ball, sizes) or None, [(eps, expected verdict)])."""
    from rldp_verify.rldp.uncertainty import RenyiBall
    from rldp_verify.structured.channels import BitChannel, Symmetric, UnaryProduct
    from rldp_verify.structured.composite import TwoLevel
    from rldp_verify.structured.noise import UnboundedLoss

    def thr(noise):
        return UnboundedLoss("threshold release of a map's keys", "{key: v}", "{}", "an output holding the key",
                             params={"threshold-release": {"noise": noise, "scale": 1.0, "threshold": 2.0}})
    hr = TwoLevel(4, 8, F(3, 16), F(1, 16), lambda x: {y for y in range(8) if bin(y & (x + 1)).count("1") % 2 == 0})
    ball = (RenyiBall.from_radius([[F(1, 4)]] * 4, 2, float("inf")), (4, 1))
    ball22 = (RenyiBall.from_radius([[F(1, 4)] * 2] * 2, 2, float("inf")), (2, 2))
    below = f"log({3 * (1 - F(1, 10**9))})"
    return [("Laplace threshold", thr("laplace"), None, [("10", "FAIL")]),
            ("Gaussian threshold", thr("gaussian"), None, [("10", "FAIL")]),
            ("Hadamard response 8 outputs", hr, None, [("log(3)", "PASS"), (below, "FAIL")]),
            ("unary encoding d = 4 on the simplex", UnaryProduct(4, BitChannel(F(1, 2), F(1, 4))), ball,
             [("log(3)", "PASS"), (below, "FAIL")]),
            ("GRR k = 4 on the simplex over 2 x 2 cells", Symmetric(4, F(1, 2), F(1, 6)), ball22,
             [("log(3)", "PASS"), (below, "FAIL")])]


@claim(
    id="rldp.audit.threshold-hadamard-simplex",
    paper=PAPER,
    source="Definitions 2 (eps-LDP) and 3 ((eps, F)-RLDP) for OpenDP's threshold releases, Hadamard response and a "
           "unary encoding on a Rényi ball of radius inf (the simplex)",
    statement="OpenDP's Laplace and Gaussian threshold releases are not eps-LDP for any eps (here 10); Hadamard "
              "response on 8 outputs (levels 3/16, 1/16) and the unary encoding p = 1/2, q = 1/4 on d = 4 inputs "
              "over the simplex have ratio 3: PASS at e^eps = 3, FAIL at 3 (1 - 10^-9).",
    hypotheses=("OpenDP's exact noise (positive mass at every lattice point); the supports of Hadamard response are "
                "rows of the Sylvester-Hadamard matrix",),
    method=(Method.EXACT,),
    reading="the structured audits with their certificates (threshold-release, two-level with hadamard_witness, "
            "unary and subsets on the simplex); VERIFIED when every verdict is the stated one",
)
def check_more2_forms(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, ball, runs in _cases():
        model = Adapted(st, name, "exact")
        for eps, want in runs:
            res = audit_structured(model, eps, **({} if ball is None else {"ball": ball[0], "sizes": ball[1]}))
            rows.append({"mechanism": name, "eps": eps, "verdict": str(res.verdict), "expected": want,
                         "ratio": [str(res.ratio_lower), str(res.ratio_upper)]})
            if str(res.verdict) != want:
                wrong.append(rows[-1])
            docs.append((res, model, eps, f"more2 {name} {want}"))
    ev = dict(audits=rows, **built(lambda: [structured_certificate(r, m, e, name=n) for r, m, e, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} audits do not have the stated verdicts",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified(f"{len(rows)} audits: the stated verdicts, certified", **ev)
