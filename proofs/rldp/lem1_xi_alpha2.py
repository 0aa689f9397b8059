"""Lemma 1 (Sec. 4.3) of 000_aca93ed29ea857ee.txt: closed forms of xi-(rho), xi+(rho) for alpha = 2.

    xi-+(rho) = (e^{B_s} + 2 rho - 1 -+ sqrt((e^{B_s} - 1)(e^{B_s} - (2 rho - 1)^2))) / (2 e^{B_s} rho)
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision
from rldp_verify.rldp.xi_interval import binary_renyi, t_interval, t_interval_alpha2

from ._sec34 import PAPER, nstr

READING = "The square roots were dropped by the text conversion; the discriminant is under a square root."


def lemma1_roots():
    rho, E, xi = sp.symbols("rho E xi", positive=True)   # E = e^{B_s} >= 1
    root = sp.sqrt((E - 1) * (E - (2 * rho - 1) ** 2))
    xm = (E + 2 * rho - 1 - root) / (2 * E * rho)
    xp = (E + 2 * rho - 1 + root) / (2 * E * rho)
    return rho, E, xi, xm, xp


@claim(
    id="rldp.lemma1.roots-symbolic",
    paper=PAPER,
    source="Sec. 4.3, Lemma 1; App. A.3, proof of Lemma A7",
    statement="For alpha = 2, phi_{B_s}(rho, xi) = 0 is equivalent to the quadratic e^{B_s} rho xi^2 + (1 - 2 rho - "
              "e^{B_s}) xi + rho = 0, whose roots are the printed xi-(rho) <= 1 <= xi+(rho).",
    hypotheses=("alpha = 2", "0 < rho < 1", "B_s >= 0"),
    method=Method.SYMBOLIC,
    reading=READING,
)
def check_symbolic(ctx):
    rho, E, xi, xm, xp = lemma1_roots()
    # e^{phi + B_s} = sum P^^2/P over the binary pair (rho, 1 - rho) vs (rho xi, 1 - rho xi)
    power = rho**2 / (rho * xi) + (1 - rho) ** 2 / (1 - rho * xi)
    quad = sp.expand(sp.cancel((power - E) * xi * (1 - rho * xi)))
    expected = E * rho * xi**2 + (1 - 2 * rho - E) * xi + rho
    eq_ok = sp.simplify(quad - expected) == 0
    solved = sp.solve(sp.Eq(E * rho * xi**2 + (1 - 2 * rho - E) * xi + rho, 0), xi)
    roots_ok = all(sp.simplify(sp.expand(E * rho * r**2 + (1 - 2 * rho - E) * r + rho)) == 0 for r in (xm, xp))
    # the solver's roots coincide with the printed ones (compare the discriminants and the sums/products)
    disc_ok = sp.simplify(sp.expand((E + 2 * rho - 1) ** 2 - 4 * E * rho**2 - (E - 1) * (E - (2 * rho - 1) ** 2))) == 0
    # xi- <= 1 <= xi+: the quadratic at xi = 1 equals 1 - rho - E + rho E ... = (E - 1)(rho - 1) <= 0
    at_one = sp.factor(E * rho + (1 - 2 * rho - E) + rho)
    order_ok = sp.simplify(at_one - (E - 1) * (rho - 1)) == 0
    ok = eq_ok and roots_ok and disc_ok and order_ok and len(solved) == 2
    ev = {"quadratic": str(expected), "solve_roots": [str(r) for r in solved], "value_at_xi_1": str(at_one)}
    if ok:
        from rldp_verify.certificates.claims import built
        from rldp_verify.certificates.identity import identity_certificates

        quadratic = E * rho * xi**2 + (1 - 2 * rho - E) * xi + rho
        ev.update(built(identity_certificates, "rldp.lemma1.roots-symbolic", {
            "phi = 0 as the quadratic": ((power - E) * xi * (1 - rho * xi), expected),
            **{f"{n} solves the quadratic": (quadratic.subs(xi, r), 0) for n, r in (("xi-", xm), ("xi+", xp))},
            "discriminant": ((E + 2 * rho - 1) ** 2 - 4 * E * rho**2, (E - 1) * (E - (2 * rho - 1) ** 2)),
            "the quadratic at xi = 1": (quadratic.subs(xi, 1), (E - 1) * (rho - 1))}))
        return Outcome.verified("sympy: phi = 0 <=> e^B rho xi^2 + (1-2rho-e^B) xi + rho = 0; the printed roots solve "
                                "it, the discriminants agree, and the quadratic at xi = 1 is (e^B-1)(rho-1) <= 0 so "
                                "xi- <= 1 <= xi+", **ev)
    return Outcome.inconclusive("symbolic steps not all confirmed", eq=eq_ok, roots=roots_ok, disc=disc_ok,
                                order=order_ok, **ev)


def _roots_certificate(roots) -> dict:
    """Issue 23: per (rho, B_s, sign) with the closed-form root t = rho xi-+ in (0, 1), |rho^2/t + (1-rho)^2/(1-t) -
    e^{B_s}| <= 1e-30 (phi = 0 as e^{D_2} = e^{B_s}), the closed form written out and evaluated by the checker in arb."""
    from rldp_verify.certificates import instances_rldp as inst
    from rldp_verify.certificates.claims import built

    n = min(len(roots), inst.CAP)
    return {"certificate_covers": inst.cover_note(
        len(roots), n, "closed-form roots t = rho xi-+ of Lemma 1 in (0, 1): |rho^2/t + (1-rho)^2/(1-t) - e^B_s| <= "
        "1e-30 (within 1e-30, not the equality phi = 0), t written out from rho and B_s",
        "; not the agreement with the engine's root finding"),
        **built(lambda: inst.within_certificate(
            "rldp.lemma1.roots-numeric: e^D_2(Bern(rho)||Bern(t)) - e^B_s at Lemma 1's closed-form roots",
            [inst.alpha2_residual_expr(rho, inst.alpha2_root_expr(rho, ["exp", B], sign), ["exp", B])
             for rho, B, sign in roots], Fraction(1, 10**30)))}


@claim(
    id="rldp.lemma1.roots-numeric",
    paper=PAPER,
    source="Sec. 4.3, Lemma 1",
    statement="For alpha = 2 the closed forms of Lemma 1 agree with xi-+(rho) defined by eqs. (27)-(28) "
              "(computed by bracketed root finding), over rho in (0, 1) and B_s in [0, 10].",
    hypotheses=("alpha = 2",),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading=READING,
)
def check_numeric(ctx):
    rng = ctx.rng("lemma1.numeric")
    worst = mpmath.mpf(0)
    worst_res = mpmath.mpf(0)
    n, roots = 0, []   # (rho, B, sign) of the roots in (0, 1), for the certificates (issue 23)
    with working_precision(ctx.dps):
        for _k in range(60):
            rho = Fraction(rng.randint(1, 999), 1000)
            B = Fraction(rng.randint(0, 10**4), 10 ** rng.choice((3, 4, 5)))
            a = t_interval(rho, 2, B, dps=ctx.dps)
            b = t_interval_alpha2(rho, B, dps=ctx.dps)
            worst = max(worst, abs(a[0] - b[0]), abs(a[1] - b[1]))
            for sign, t in zip((-1, 1), b, strict=True):
                if 0 < t < 1 and B > 0:
                    worst_res = max(worst_res, abs(binary_renyi(rho, t, 2) - to_mpf(B)))
                    roots.append((rho, B, sign))
            n += 1
    if worst < mpmath.mpf(10) ** (-(ctx.dps - 10)) and worst_res < mpmath.mpf(10) ** (-(ctx.dps - 10)):
        return Outcome.verified(f"{n} (rho, B_s) pairs: closed form vs root finding differ by <= {nstr(worst, 3)}, "
                                f"phi residual <= {nstr(worst_res, 3)}", max_difference=nstr(worst, 3),
                                max_residual=nstr(worst_res, 3), **_roots_certificate(roots))
    return Outcome.refuted("closed form disagrees with the definition", counterexample={"max_difference": nstr(worst, 5)},
                           max_residual=nstr(worst_res, 3), kind="false")
