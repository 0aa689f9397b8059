"""Certificates of SRR's status in the LP of Theorem 4's proof (RLDP paper, App. A.6, (A115)-(A116);
:func:`rldp_verify.rldp.srr_threshold.srr_optimality`), as ``rigorous-value`` documents.

The LP: maximise sum_v mu(v) theta_v over theta >= 0 with sum_v theta_v v = 1_X, v over Lemma A8's generators
V1 ∪ V2 (listed in the certificate's expression), mu(v) = sum_x P_x v_x log(v_x / P.v). SRR is the basis of the
vectors v_y of Definition 4 (theta_y = 1/Z > 0, non-degenerate). Its dual alpha solves v_y . alpha = mu(v_y) for
every y; the engine gives alpha = (A_B^T)^-1 mu_B with the exact rational inverse, and the certificate writes that
combination out. Two documents per e^eps:

1. the basic residuals max_y |v_y . alpha - mu(v_y)| <= DELTA (zero exactly when the inverse is right; a wrong
   inverse is rejected);
2. optimal: max over the other generators of the reduced cost r_v = mu(v) - v . alpha is <= 0 (weak duality: SRR is
   within 2 |X| DELTA-ish of the optimum, and exactly optimal given 1.'s identity); not optimal: r_v > 0 for one v
   (entering v strictly improves the non-degenerate basis).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.staircase import mu_expr
from rldp_verify.certificates.value import value_certificate
from rldp_verify.core.linalg import exact_inverse
from rldp_verify.core.numbers import exact

__all__ = ["srr_status_certificates", "DELTA"]

DELTA = Fraction(1, 10 ** 30)


def _normalise(v):
    tot = sum(v)
    return tuple(x / tot for x in v)


def srr_status_certificates(name: str, p, a1: int, a2: int, t, optimal: bool, *, dual_sign: bool = False
                            ) -> list[dict]:
    """[residuals, status] (module docstring) for SRR at e^eps = t over Lemma A8's generators (reading "blocks");
    with ``dual_sign`` also min_i alpha_i >= 0 (the sign (A116) prints for the dual)."""
    from rldp_verify.rldp.srr_threshold import lemma_a8_generators, srr_vectors

    p, t = [exact(x) for x in p], exact(t)
    basis = [tuple(v) for v in srr_vectors(a1, a2, t)]
    bset = {_normalise(v) for v in basis}
    others, seen = [], set()
    for g in lemma_a8_generators(a1, a2, t):
        ng = _normalise(g)
        if ng not in bset and ng not in seen:
            seen.add(ng)
            others.append(tuple(g))
    inv = exact_inverse([list(v) for v in basis])
    a = len(basis)
    binds = [[f"m{j}", mu_expr(v, p)] for j, v in enumerate(basis)]
    binds += [[f"a{i}", ["+", 0, *[["*", inv[i][j], f"$m{j}"] for j in range(a) if inv[i][j] != 0]]] for i in range(a)]

    def dot(v):
        return ["+", *[["*", x, f"$a{i}"] for i, x in enumerate(v)]]

    res = [["-", dot(v), f"$m{j}"] for j, v in enumerate(basis)]
    docs = [value_certificate(f"{name}: alpha = (A_B^T)^-1 mu_B solves SRR's basic equations, max_y |v_y . alpha - "
                              f"mu(v_y)| <= {DELTA}", ["let", binds, ["max", *res, *[["-", r] for r in res]]],
                              upper=DELTA, prec=256)]
    costs = [(v, ["-", mu_expr(v, p), dot(v)]) for v in others]
    if dual_sign:
        docs.append(value_certificate(f"{name}: the dual alpha of SRR's basis is >= 0",
                                      ["let", binds, ["min", *[f"$a{i}" for i in range(a)]]], lower=0))
    if optimal:
        docs.append(value_certificate(f"{name}: every reduced cost mu(v) - v . alpha over the {len(others)} other "
                                      "generators of V1 ∪ V2 is <= 0 (SRR optimal)",
                                      ["let", binds, ["max", *[c for _, c in costs]]], upper=0))
        return docs
    from rldp_verify.certificates import recheck

    for v, c in costs:
        doc = value_certificate(f"{name}: the reduced cost of generator {[str(x) for x in v]} is > 0 (SRR not "
                                "optimal)", ["let", binds, c], lower=0, strict=True)
        if recheck(doc).ok:
            return docs + [doc]
    raise ValueError("no generator with a certainly positive reduced cost")
