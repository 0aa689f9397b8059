"""Claim 4 (in the proof of Lemma 27): a single heavy atom."""

from fractions import Fraction
from itertools import combinations

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision

from ._common import PAPER, fs, mass_of, mu_z, rand_dist, z_star


@claim(
    id="kairouz.claim4.single-heavy-atom",
    paper=PAPER,
    source="Sec. 9.4, Claim 4",
    statement="If P(x*) >= 1 - z*(eps) then T = {x*}: {T, T^c} = argmax_A P(A)P(A^c) and max_A mu(P(A), eps) = "
              "max(mu(P(T), eps), mu(P(T^c), eps)).",
    method=(Method.HIGH_PRECISION, Method.EXACT),
)
def check_c4(ctx):
    rng = ctx.rng("c4")
    n, bad, cases = 0, [], []
    with working_precision(ctx.dps):
        for _ in range(200):
            k = rng.randint(2, 6)
            rng_e = Fraction(rng.randint(1, 100), 100)
            e_ = mpmath.mpf(rng_e.numerator) / rng_e.denominator
            P = list(rand_dist(rng, k, 200))
            P.sort(reverse=True)
            if to_mpf(P[0]) < 1 - z_star(e_):
                continue
            n += 1
            cases.append((tuple(P), Fraction(rng_e)))
            sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
            pp = {A: mass_of(P, A) * (1 - mass_of(P, A)) for A in sets}
            mx = max(pp.values())
            arg = {A for A in sets if pp[A] == mx}
            T = frozenset({0})
            Tc = frozenset(range(1, k))
            m_all = max(mu_z(to_mpf(mass_of(P, A)), e_) for A in sets)
            m_T = max(mu_z(to_mpf(mass_of(P, T)), e_), mu_z(to_mpf(mass_of(P, Tc)), e_))
            if arg != {T, Tc} or abs(m_all - m_T) > mpmath.mpf(10) ** (-(ctx.dps - 10)):
                bad.append({"P": fs(P), "eps": str(e_)})
    if bad:
        return Outcome.refuted("Claim 4 fails", counterexample=bad[0], kind="false")
    if n == 0:
        return Outcome.inconclusive("no instance met the hypothesis")
    return Outcome.verified(f"{n} random (P, eps) with P(x*) >= 1 - z*(eps): both parts hold",
                            **built(lambda: [_certificate(P, e) for P, e in cases]))


def mu_z_expr(z: Fraction, eps: Fraction) -> list:
    """mu(z, eps) = z e^eps eps - (z (e^eps - 1) + 1) log(z (e^eps - 1) + 1) (eq. (113)), t = e^eps bound by let."""
    w = ["+", ["*", z, ["-", "$t", 1]], 1]
    return ["let", [["t", ["exp", eps]]], ["-", ["*", z, "$t", eps], ["*", w, ["log", w]]]]


def _certificate(P, eps) -> dict:
    """Per instance: min( P(x*) - 1 + z*(eps), max(mu(P(T)), mu(P(T^c))) - max_A mu(P(A)) ) > 0, with
    z*(eps) = (e^(e^eps eps/(e^eps - 1) - 1) - 1)/(e^eps - 1), T = {x*}, and A over the sets whose mass differs from
    P(T) and P(T^c) (a set with the same mass has the same mu): the hypothesis holds and T, T^c attain
    max_A mu(P(A), eps), the second part of Claim 4 (the first, argmax_A P(A)P(A^c) = {T, T^c}, is exact rational
    arithmetic)."""
    k = len(P)
    z_star = ["let", [["t", ["exp", eps]]],
              ["/", ["-", ["exp", ["-", ["/", ["*", "$t", eps], ["-", "$t", 1]], 1]], 1], ["-", "$t", 1]]]
    pT, pTc = P[0], 1 - P[0]
    others = sorted({mass_of(P, A) for r in range(k + 1) for A in combinations(range(k), r)} - {pT, pTc})
    parts = [["+", P[0] - 1, z_star]]
    if others:
        parts.append(["-", ["max", mu_z_expr(pT, eps), mu_z_expr(pTc, eps)], ["max", *[mu_z_expr(z, eps) for z in others]]])
    return value_certificate(f"Claim 4: P={fs(P)}, eps={eps}: P(x*) >= 1 - z*(eps) and T = {{x*}} maximises mu(P(A), eps)",
                             ["min", *parts], lower=0, strict=True)
