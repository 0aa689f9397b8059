"""Audits whose certificates take issue 23's forms for multi-freq-ldpy's HE, RS+FD and ordered SS clients.

000_aca93ed29ea857ee.txt, Definition 2 (eps-LDP), for three structured channels of the adapters (README, the
protocol table), built here from their structures so that the claim needs no library:

- histogram encoding with ideal continuous Laplace noise (``HE_Client``: e_x + Laplace(0, b)^d), eps = 2/b; the
  certificate ``laplace-histogram`` {d, b};
- random sampling plus fake data (``RSpFD_UE_zero_Client``: a secret uniform attribute through UE, zero-vector UE
  fake data on the others), whose ratio is a ratio of sums over the attributes (:mod:`rldp_verify.structured.rsfd`);
  the certificate ``rsfd`` (the printed upper end proved by sum_j max (u_j - R v_j) <= 0, the lower end at a
  choice); the structured ratio is compared with the exact dense channel's, enumerated;
- subset selection returning an ordered array with the true value first (``SS_Client``, m >= 2): not eps-LDP for
  any eps (an output with x' first and x later has probability 0 under x); the certificate ``ordered-subsets``;
- (eps, P)-RLDP (eq. (62)) of RS+FD with GRR on the secret attribute and UE with random fake data
  (``RSpFD_UE_rnd_Client``'s fake law) on the public one, for one exact P on S x U = 2 x 3: the structured ratio
  (:func:`rldp_verify.structured.rsfd.rsfd_p_audit`) compared with eq. (62) on the dense channel; the certificate
  ``rsfd`` under the set ``distribution`` (the checker recomputes the marginals and the maximisers from P).

The verdicts are the audits'; an engine error that drops the factor 2 of HE's eps, lets only one attribute of RS+FD
differ, reads the ordered array as a set, or picks UE-r's ones by P(.|s) alone under {P} is rejected by the
independent checker (mutants ``certificate.he-eps-factor-two-dropped``, ``certificate.rsfd-one-attribute-differs``,
``certificate.ordered-ss-read-as-set``, ``certificate.rsfd-p-ones-by-s-alone`` of mutation/catalogue.py).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim

from ..papers import paper

PAPER = paper("rldp").seed


def _dense_ratio(st):
    """max over outputs and inputs x != x' of Q(y|x)/Q(y|x') on the exact dense channel (inf when 0 under x')."""
    best = Fraction(1)
    for row in st.dense()[0]:
        for a, b in itertools.permutations(row, 2):
            if b == 0 and a > 0:
                return float("inf")
            best = max(best, a / b) if b > 0 else best
    return best


def _dense_p_ratio(st, P):
    """eq. (62) on the exact dense channel (columns: tuples, lexicographic, x = s |U| + u): max over y, s != s' of
    P(y|s) / P(y|s') (every entry is positive here)."""
    a2 = len(P[0])
    py = [[sum(row[s * a2 + u] * P[s][u] for u in range(a2)) / sum(P[s]) for s in range(len(P))]
          for row in st.dense()[0]]
    return max(r[s] / r[t] for r in py for s, t in itertools.permutations(range(len(P)), 2))


P_RSFD = [[Fraction(1, 16), Fraction(1, 4), Fraction(1, 4)], [Fraction(1, 16), Fraction(1, 8), Fraction(1, 4)]]


def _cases():
    """(name, structure, eps at which it is private or None, the dense channel's ratio or None, the audit's set:
    {} (eps-LDP), {"distribution": P} or {"ball": F})."""
    from rldp_verify.rldp.uncertainty import RenyiBall
    from rldp_verify.structured.channels import (
        BitChannel,
        FakeDataUnary,
        LaplaceHistogram,
        SubsetSelection,
        Symmetric,
        UnaryProduct,
    )
    from rldp_verify.structured.composite import FakeData

    rsfd = FakeDataUnary([UnaryProduct(3, BitChannel(Fraction(1, 2), Fraction(1, 3))),
                          UnaryProduct(2, BitChannel(Fraction(3, 4), Fraction(1, 5)))])
    ss = SubsetSelection(5, 3, Fraction(2, 3), ordered=True)
    rnd = FakeData([(Symmetric(2, Fraction(3, 4), Fraction(1, 4)), "uniform"),
                    (UnaryProduct(3, BitChannel(Fraction(1, 2), Fraction(1, 5))), "random")])
    one_secret = [[Fraction(1, 4), Fraction(3, 4)], [Fraction(0), Fraction(0)]]
    return [("HE d = 16, b = 8", LaplaceHistogram(16, 8.0), Fraction(1, 4), None, {}),
            ("RS+FD UE-zero, k = 3, 2", rsfd, None, _dense_ratio(rsfd), {}),
            ("ordered SS k = 5, m = 3", ss, None, _dense_ratio(ss), {}),
            ("UE-r RS+FD under P, k = 2, 3", rnd, None, _dense_p_ratio(rnd, P_RSFD),
             {"distribution": P_RSFD, "sizes": (2, 3)}),
            ("HE d = 4, b = 2 on a Renyi ball (alpha 2, B 1/10) around a P^ with one secret", LaplaceHistogram(4, 2.0),
             Fraction(1), None, {"ball": RenyiBall.from_radius(one_secret, Fraction(2), Fraction(1, 10))})]


@claim(
    id="rldp.audit.mfl-he-rsfd-ordered-ss",
    paper=PAPER,
    source="Definition 2 (eps-LDP) for multi-freq-ldpy's histogram encoding (ideal Laplace noise), RS+FD with UE and "
           "zero-vector fake data, and subset selection returning an ordered array",
    statement="HE with b = 8 is 1/4-LDP and not eps-LDP at eps = 1/4 (1 - 10^-9); RS+FD with UE (p, q) = (1/2, 1/3) "
              "on 3 values and (3/4, 1/5) on 2 has the worst ratio of its exact dense channel (84/17), so it is "
              "log(84/17)-LDP and not below; ordered subset selection (k = 5, m = 3, p = 2/3) is not eps-LDP at "
              "eps = 10; RS+FD with GRR (3/4, 1/4) on 2 values (S) and UE (1/2, 1/5) with random fake data on 3 "
              "(U) under P = [[1/16, 1/4, 1/4], [1/16, 1/8, 1/4]] has the (eps, P) ratio of eq. (62) on its dense "
              "channel (93/49), so it is (log(93/49), P)-RLDP and not below; HE with b = 2 on a Rényi ball (alpha = 2, "
              "B = 1/10) around a P^ that gives one secret positive mass is (1, F)-RLDP and not below (F holds a P "
              "giving two secrets mass, where the ratio is e^(2/b)).",
    hypotheses=("HE: the ideal continuous mechanism (the float sampler is not modelled)",
                "RS+FD: the sampled attribute is uniform and secret"),
    method=(Method.EXACT,),
    reading="the structured eps-LDP and (eps, P) audits (PASS at the stated eps, FAIL just below; ordered SS: FAIL "
            "at eps = 10) with their certificates (laplace-histogram for eps-LDP and on a Rényi ball, rsfd, "
            "ordered-subsets, rsfd under {P}); "
            "VERIFIED when every verdict agrees with the statement and RS+FD's ratios equal the dense channel's",
)
def check_mfl_forms(ctx):
    from rldp_verify.certificates.audit import structured_certificate
    from rldp_verify.certificates.claims import built
    from rldp_verify.structured.audit import Adapted, audit_structured

    rows, docs, wrong = [], [], []
    for name, st, eps, dense, kw in _cases():
        model = Adapted(st, name, "exact")
        if eps is None and dense != float("inf"):
            eps = Fraction(dense)                             # RS+FD: private at log(dense ratio) exactly
            at, below = f"log({eps})", f"log({eps * (1 - Fraction(1, 10**9))})"
        elif eps is None:
            at, below = None, "10"
        else:
            at, below = str(eps), str(eps * (1 - Fraction(1, 10**9)))
        res_at = audit_structured(model, at, **kw) if at else None
        res_below = audit_structured(model, below, **kw)
        rows.append({"mechanism": name, "eps": at, "verdict": None if res_at is None else str(res_at.verdict),
                     "below": below, "verdict_below": str(res_below.verdict), "dense_ratio": str(dense)})
        if res_at is not None and str(res_at.verdict) != "PASS" or str(res_below.verdict) != "FAIL" \
                or name.startswith("RS+FD") and dense != Fraction(84, 17) \
                or "distribution" in kw and dense != Fraction(93, 49):
            wrong.append(rows[-1])
        docs += [(r, model, e, f"{name} {e}") for r, e in ((res_at, at), (res_below, below)) if r is not None]
    ev = dict(audits=rows, **built(lambda: [structured_certificate(r, m, e, name=f"mfl {n}") for r, m, e, n in docs]))
    if wrong:
        return Outcome.refuted(f"{len(wrong)} of {len(rows)} mechanisms do not have the stated verdicts",
                               counterexample=wrong, **ev, kind="false")
    return Outcome.verified(f"{len(rows)} mechanisms: the stated verdicts, certified", **ev)
