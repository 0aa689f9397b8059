"""Lemma 26: the LP bound on the mutual information."""

from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.extremal.staircase import pattern_matrix, solve_staircase_lp
from rldp_verify.topics.extremal.utilities import (
    mu_mi,
)

from ._certified import mu_expr, staircase_bound_certificate
from ._common import PAPER, fs, generic_dist, rand_dist


@claim(
    id="kairouz.lemma26.mi-lp-bound",
    paper=PAPER,
    source="Sec. 9.2, Lemma 26, eq. (114); proof Sec. 9.3, eq. (118)-(120)",
    statement="For all P and eps, OPT <= (max_j mu_j) k/(e^eps + k - 1); alpha_i = 1/(e^eps + k - 1) is feasible for "
              "S~^T alpha >= 1 (S~ = S^(k) without its all-ones column).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_26(ctx):
    rng = ctx.rng("l26")
    rows, bad, certs = [], [], []
    with arb_precision(ctx.dps):
        for k in (2, 3, 4, 5, 6):
            P = generic_dist(rng, k) if k <= 5 else rand_dist(rng, k, 997)
            for tt in (Fraction(11, 10), Fraction(3), Fraction(50)):
                cols = pattern_matrix(k, tt)
                alpha_ok = all(sum(c) / (tt + k - 1) >= 1 for c in cols[1:])
                mus = [mu_mi(P)(c) for c in cols]
                mx = mus[0]
                for m in mus[1:]:
                    mx = m if float(m.mid()) > float(mx.mid()) else mx
                sol = solve_staircase_lp(k, tt, mus)
                opt = sol.value
                certs.append((P, tt, sol))
                bound = mx * arb_exact(Fraction(k) / (tt + k - 1))
                rows.append({"k": k, "t": str(tt), "OPT": opt.str(10), "bound": bound.str(10), "alpha_feasible": alpha_ok})
                if not (opt <= bound and alpha_ok):
                    bad.append(rows[-1])
    if bad:
        return Outcome.refuted("Lemma 26 violated", counterexample=bad[0], kind="false")
    return Outcome.verified(f"{len(rows)} certified LPs: OPT <= max_j mu_j k/(e^eps+k-1); alpha feasibility exact", instances=rows,
                            **built(lambda: [_certificate(*x) for x in certs]))


def _certificate(P, t, sol) -> dict:
    """OPT <= (max_j mu_j) k/(t + k - 1) (Lemma 26, eq. (114)), by weak duality for LP (11) with the mutual-information
    utility; the max over all 2^k pattern columns is evaluated by the checker."""
    k = len(P)
    mx = ["max", *[mu_expr("mi", c, P=P) for c in pattern_matrix(k, t)]]
    return staircase_bound_certificate(f"Lemma 26: OPT_mi <= max_j mu_j k/(t+k-1), P={fs(P)} t={t}", k, t, "mi",
                                       ["*", Fraction(k) / (t + k - 1), mx], sol.alpha,
                                       eta=sol.gap + Fraction(1, 10 ** 30), P=P)
