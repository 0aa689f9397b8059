"""Corollary 15: the mutual information for small eps."""

from fractions import Fraction

import mpmath
import sympy as sp

from rldp_verify.certificates.rest import cor15_binary_mi, cor15_binary_mi_certificates
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.extremal.staircase import solve_staircase_lp
from rldp_verify.topics.extremal.utilities import (
    binary_set_mi,
    mu_mi,
)

from ._common import PAPER, TIE_P, generic_dist, mass_of


@claim(
    id="kairouz.cor15.mi-small-eps",
    paper=PAPER,
    source="Sec. 4.5, Corollary 15, eq. (31) and the display after it; Sec. 1.4 ('I(X;Y) <= 0.5 eps^2 max_A P(A)P(A^c) + O(eps^3)')",
    statement="For any delta > 0 there is eps* with I(X;Y) <= (1+delta) (1/2) P(T) P(T^c) eps^2 for eps <= eps* and every "
              "eps-LDP Q; the binary mechanism achieves (1/2) P(T) P(T^c) eps^2 + O(eps^3).",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
)
def check_c15(ctx):
    # in a = e^eps - 1 = eps + O(eps^2): no a^1 term and equal a^2 / eps^2 coefficients suffice
    a, z = sp.symbols("a z", positive=True)
    t = 1 + a
    lt = sp.log(1 + a)
    I_bin = cor15_binary_mi(t, z, lt, sp.log(1 + a * z), sp.log(1 + a * (1 - z)))   # the certificate's formula too
    ser = sp.expand(sp.series(I_bin, a, 0, 3).removeO())
    ser_ok = sp.simplify(ser.coeff(a, 1)) == 0 and sp.simplify(ser.coeff(a, 0)) == 0 and \
        sp.simplify(ser.coeff(a, 2) - z * (1 - z) / 2) == 0
    rng = ctx.rng("c15")
    rows, lps = [], []
    dev = {}
    with arb_precision(ctx.dps):
        for n, P in enumerate((generic_dist(rng, 3), generic_dist(rng, 4), TIE_P)):
            k = len(P)
            T = binary_set_mi(P)
            c = mass_of(P, T) * (1 - mass_of(P, T)) / 2
            for eps in ("1/10", "1/100", "1/1000"):
                tt = Fraction(mpmath.nstr(mpmath.exp(mpmath.mpf(Fraction(eps).numerator) / Fraction(eps).denominator), 30))
                sol = solve_staircase_lp(k, tt, mu_mi(P))
                opt = sol.value
                e_arb = arb_exact(tt).log()
                r = opt / (arb_exact(c) * e_arb * e_arb)
                rows.append({"instance": n, "eps~": eps, "OPT/(P(T)P(T^c)eps^2/2)": r.str(10)})
                lps.append((P, c, tt, sol, r))
                dev[(n, eps)] = abs(float(r.mid()) - 1)
    d = {eps: max(dev[(n, eps)] for n in range(3)) for eps in ("1/10", "1/100", "1/1000")}
    if ser_ok and d["1/1000"] < d["1/100"] < d["1/10"] and d["1/1000"] < 0.01:
        from rldp_verify.certificates.claims import built

        return Outcome.verified("binary MI = P(T)P(T^c) eps^2/2 + O(eps^3) (symbolic); certified LP optimum / "
                                "(P(T)P(T^c) eps^2/2) -> 1 as eps -> 0 (|ratio - 1| = "
                                + ", ".join(f"{v:.2e} at eps={k_}" for k_, v in d.items()) + "), incl. a tied P",
                                instances=rows,
                                certificate_covers="the binary mechanism's I = P(T)P(T^c) eps^2/2 + O(eps^3) for every "
                                "P(T) = z (issue 23): in a = e^eps - 1, I = a^2 z(1-z)/2 + a^3 R(a, z) + sum_k A_k(a, z) "
                                "m(b_k a) as a symbolic identity with the log atoms log(1 + a), log(1 + a z), "
                                "log(1 + a(1 - z)) (R, A_k rational over powers of 2 + a), and m(u) = log(1 + u) - u + "
                                "u^2/2 with c_0 = c_1 = c_2 = 0 exactly (series); the 9 ratios OPT / (P(T)P(T^c) "
                                "eps^2/2) the trend reads, each in an interval of width about 2e-12 (a rational dual "
                                "above, the engine's exactly feasible theta below, eps = log t in arb); not certified: "
                                "the bound for every eps-LDP Q, a limit for every delta that those finite ratios only "
                                "suggest",
                                **built(lambda: [*cor15_binary_mi_certificates(),
                                                 *(d for x in lps for d in _ratio_certificates(*x))]))
    return Outcome.refuted("small-eps bound not approached", counterexample=rows, kind="false")


def _ratio_certificates(P, c, t, sol, r) -> list[dict]:
    """lo <= OPT_mi / (c log(t)^2) <= hi at t = e^eps (c = P(T)P(T^c)/2), [lo, hi] the arb ratio ``r`` rounded outward
    to 12 decimals: OPT <= hi c log(t)^2 by weak duality (a rational dual), OPT >= lo c log(t)^2 by the engine's theta,
    feasible exactly, whose utility the checker evaluates."""
    import math

    from rldp_verify.certificates.value import value_certificate
    from rldp_verify.topics.extremal.staircase import pattern_matrix

    from ._certified import ETA, feasibility_certificate, mu_expr, staircase_bound_certificate

    k, scale = len(P), 10 ** 12
    lo = Fraction(math.floor(Fraction(r.lower().str(30, radius=False)) * scale), scale)
    hi = Fraction(math.ceil(Fraction(r.upper().str(30, radius=False)) * scale), scale) + Fraction(1, scale)
    bound = ["*", c, ["log", t], ["log", t]]
    cols = pattern_matrix(k, t)
    used = [j for j, th in enumerate(sol.theta) if th != 0]
    name = f"Cor. 15: OPT_mi / (P(T)P(T^c) eps^2/2), P = {[str(p) for p in P]}, t = e^eps = {t}"
    value = ["+", 0, *[["*", sol.theta[j], mu_expr("mi", cols[j], P=P)] for j in used]]
    return [staircase_bound_certificate(f"{name} <= {hi}", k, t, "mi", ["*", hi, bound], sol.alpha,
                                        eta=sol.gap + ETA, P=P),
            feasibility_certificate(f"{name}: the primal theta is feasible (S theta = 1, theta >= 0)",
                                    [sol.theta[j] for j in used], E=[[cols[j][i] for j in used] for i in range(k)],
                                    f=[1] * k),
            value_certificate(f"{name} >= {lo}: the feasible theta's utility >= {lo} P(T)P(T^c) eps^2/2",
                              ["-", value, ["*", lo, bound]], lower=0)]
