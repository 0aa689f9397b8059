"""Eq. (3): the radius B of the chi-square confidence set F_B of eq. (2), as the engine computes it
(rldp_verify.topics.chisquare.ball.chi2_radius, scipy's quantile), checked against the certified
chi-square quantile of rldp_verify.core.stats (mpmath root finding, arb-certified bracket)."""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.stats import chi2_cdf, chi2_quantile_bracket
from rldp_verify.topics.chisquare.ball import chi2_radius

from ._common import PAPER
from .sec5_experiment import ALPHA, N_S, N_U, N_VALUES

REL = Fraction(1, 10 ** 12)   # the engine's B is a float (scipy, ~1e-15 relative); allowed slack


@claim(
    id="isit.eq3.radius",
    paper=PAPER,
    source="Sec. II, eqs. (2)-(3); Sec. V (|S| = 3, |U| = 5, alpha = 0.05)",
    statement="B = F^{-1}_{|S x U| - 1}(1 - alpha) / n, so that n chi^2(P-hat || P) <= n B has chi-square "
              "probability 1 - alpha: the radius of the (1 - alpha)-confidence set F_B used in every experiment.",
    hypotheses=("alpha in {0.05 (Sec. V), 0.01, 0.2}", "|S x U| in {15 (Sec. V), 4, 30}", "n in Sec. V's sizes"),
    method=(Method.HIGH_PRECISION,),
    reading="F_d is the chi-square CDF with d degrees of freedom (the text after (3)); the quantile is taken at "
            "1 - alpha, as the confidence level (1 - alpha) of the sentence before (2) requires.",
)
def check_radius(ctx):
    rows, bad, even = [], [], []   # even: (cells, alpha, n, n B) with an even number of degrees of freedom
    for cells in (N_S * N_U, 4, 30):
        for alpha in (ALPHA, 0.01, 0.2):
            a = Fraction(str(alpha))
            lo, hi = chi2_quantile_bracket(1 - a, cells - 1, dps=30)
            for n in N_VALUES:
                B = chi2_radius(n, cells, alpha)
                nB = Fraction(B) * n
                inside = lo * (1 - REL) <= nB <= hi * (1 + REL)
                if (cells - 1) % 2 == 0:
                    even.append((cells, a, n, nB))
                rows.append({"cells": cells, "alpha": str(a), "n": n, "B": repr(B),
                             "F^-1(1-alpha) in": [f"{float(lo):.15g}", f"{float(hi):.15g}"],
                             "F(nB)": f"{float(chi2_cdf(nB, cells - 1, dps=30)):.12f}", "ok": inside})
                if not inside:
                    bad.append(rows[-1])
    if bad:
        return Outcome.refuted(f"{len(bad)} of {len(rows)} radii: n B is not the (1 - alpha)-quantile of "
                               f"chi^2_(|S x U| - 1) (F(nB) = {bad[0]['F(nB)']} at alpha = {bad[0]['alpha']})",
                               counterexample=bad[0], instances=bad[:6], kind="false")
    paper = [r for r in rows if r["cells"] == N_S * N_U and r["alpha"] == str(Fraction(str(ALPHA)))]
    return Outcome.verified(f"{len(rows)} radii: n B lies in the arb-certified bracket of F^-1(1 - alpha) (relative "
                            "slack 1e-12 for the float); Sec. V's setting (15 cells, alpha = 0.05): B = "
                            + ", ".join(f"{float(r['B']):.6g} (n = {r['n']})" for r in paper),
                            instances=rows, **built(lambda: [_certificate(*x) for x in even]))


def chi2_cdf_even_expr(x: Fraction, d: int) -> list:
    """F_d(x) for an even number d of degrees of freedom: 1 - e^(-x/2) sum_{i < d/2} (x/2)^i / i! (exact x)."""
    h = x / 2
    return ["-", 1, ["*", ["exp", -h], ["+", *[h ** i / math.factorial(i) for i in range(d // 2)]]]]


def _certificate(cells: int, alpha: Fraction, n: int, nB: Fraction) -> dict:
    """F_d(n B (1 - REL)) <= 1 - alpha <= F_d(n B (1 + REL)), d = cells - 1 even: n B (the engine's float B times n)
    lies within the relative slack REL of the (1 - alpha)-quantile (F_d is increasing). The checker evaluates F_d
    in arb from its closed form; odd d (erf, pi) is outside its expression language, so those rows have none."""
    d = cells - 1
    e = ["min", ["-", 1 - alpha, chi2_cdf_even_expr(nB * (1 - REL), d)],
         ["-", chi2_cdf_even_expr(nB * (1 + REL), d), 1 - alpha]]
    return value_certificate(f"eq. (3): n B within 1e-12 of the chi^2_{d} quantile at 1 - alpha = {1 - alpha}, "
                             f"n = {n} (rows with odd d have no certificate)", e, lower=0)
