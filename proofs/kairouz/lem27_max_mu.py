"""Lemma 27: the maximum of mu (eq. (113))."""

from fractions import Fraction
from itertools import combinations

import mpmath
import sympy as sp

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import to_mpf, working_precision

from ._common import PAPER, fs, mass_of, mu_z, rand_dist, z_star


@claim(
    id="kairouz.lemma27.max-mu",
    paper=PAPER,
    source="Sec. 9.2, Lemma 27, eq. (116); proof Sec. 9.4, eq. (121)-(126), Claims 4 and 5",
    statement="For all P and eps <= 1: max_j mu_j <= mu(P(T), eps) + mu(P(T^c), eps). Along the way: mu'(z, eps) = "
              "e^eps eps - (e^eps - 1) - (e^eps - 1) log(z(e^eps-1)+1) (121), whose root is z*(eps) of (122), z* <= 1/2; "
              "Claim 5: some A has 1/2 - P(x*) <= P(A) <= 1/2; in case 3 (P(x*) <= 1/2) the smallest-P maximiser T of P(A)P(A^c) has 1/4 <= P(T) <= 1/2.",
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION, Method.EXACT),
)
def check_27(ctx):
    z, e = sp.symbols("z e", positive=True)
    t = sp.exp(e)
    mu = z * t * e - (z * (t - 1) + 1) * sp.log(z * (t - 1) + 1)
    d121 = sp.simplify(sp.diff(mu, z) - (t * e - (t - 1) - (t - 1) * sp.log(z * (t - 1) + 1))) == 0
    zs = (sp.exp(t * e / (t - 1) - 1) - 1) / (t - 1)
    dz = sp.diff(mu, z).subs(z, zs)
    root122 = sp.simplify(sp.expand_log(dz, force=True)) == 0 or all(
        abs(sp.N(dz.subs(e, sp.Rational(v, 7)), 60)) < sp.Float("1e-50") for v in (1, 3, 7, 20, 70))
    rng = ctx.rng("l27")
    bad, n = [], 0
    with working_precision(ctx.dps):
        zmax = max(z_star(mpmath.mpf(i) / 100) for i in range(1, 1001))  # eps in (0, 10]
        for _ in range(120):
            k = rng.randint(2, 7)
            P = rand_dist(rng, k, rng.choice((10, 24, 97)))
            sets = [frozenset(A) for r in range(k + 1) for A in combinations(range(k), r)]
            pp = {A: mass_of(P, A) * (1 - mass_of(P, A)) for A in sets}
            mx = max(pp.values())
            T = min((A for A in sets if pp[A] == mx), key=lambda A: mass_of(P, A))
            n += 1
            if max(P) <= Fraction(1, 2) and not (Fraction(1, 4) <= mass_of(P, T) <= Fraction(1, 2)):  # case 3 only
                bad.append({"P": fs(P), "issue": "P(T) outside [1/4, 1/2]"})
            pstar = max(P)
            if not any(Fraction(1, 2) - pstar <= mass_of(P, A) <= Fraction(1, 2) for A in sets):
                bad.append({"P": fs(P), "issue": "Claim 5"})
            for e_ in (mpmath.mpf("0.01"), mpmath.mpf("0.3"), mpmath.mpf(1)):
                lhs = max(mu_z(to_mpf(mass_of(P, A)), e_) for A in sets)
                rhs = mu_z(to_mpf(mass_of(P, T)), e_) + mu_z(to_mpf(1 - mass_of(P, T)), e_)
                if lhs > rhs * (1 + mpmath.mpf(10) ** (-(ctx.dps - 10))):
                    bad.append({"P": fs(P), "eps": str(e_), "max_mu": mpmath.nstr(lhs, 12), "rhs": mpmath.nstr(rhs, 12)})
        # case 3 key inequality on a fine grid of eps in (0, 1]
        worst = mpmath.mpf(0)
        for i in range(1, 1001):
            e_ = mpmath.mpf(i) / 1000
            r = mu_z(z_star(e_), e_) / (min(mu_z(mpmath.mpf(1) / 2, e_), mu_z(mpmath.mpf(1) / 4, e_)) + mu_z(mpmath.mpf(3) / 4, e_))
            worst = max(worst, r)
    if not (d121 and root122) or bad or zmax > mpmath.mpf(1) / 2 or worst > 1:
        return Outcome.refuted("Lemma 27 chain fails", counterexample=bad[:1] or {"d121": d121, "root122": root122,
                                                                               "zmax": str(zmax), "case3": str(worst)}, kind="false")
    from rldp_verify.certificates.claims import built

    certs = {**built(eq122_certificate),
             "certificate_covers": "(122): (121) as printed vanishes at z*(eps) of (122), for every eps > 0; not (121) "
                                   "as mu's derivative in z (differentiation is not in the certificate language), "
                                   "z* <= 1/2 and the case-3 ratio (grids at high precision), Claim 5 and the max-mu "
                                   "comparison on random P"}
    return Outcome.verified(f"(121) symbolic, (122) root of (121) (symbolic or to 50 digits at 5 eps); z*(eps) <= 1/2 on a grid of eps in (0, 10] (max "
                            f"{mpmath.nstr(zmax, 12)}); Claim 5 and 1/4 <= P(T) <= 1/2 exact on {n} random P; "
                            "max_j mu_j <= mu(P(T)) + mu(P(T^c)) at eps = 0.01, 0.3, 1 on the same P; case-3 ratio "
                            f"<= {mpmath.nstr(worst, 8)} on a 1000-point eps grid in (0, 1] (grid evidence, not a proof "
                            "for every eps)", **certs)


def eq122_certificate(variant: str | None = None) -> dict:
    """The ``symbolic-identity`` certificate that (121) as printed, mu'(z, eps) = e^eps eps - (e^eps - 1) - (e^eps - 1)
    log(z(e^eps - 1) + 1), vanishes at (122)'s z*(eps) = (e^{e^eps eps/(e^eps - 1) - 1} - 1)/(e^eps - 1), with the exp
    atoms T = e^eps and G = e^{T eps/(T - 1) - 1} (no log atom: it holds wherever eps != 0).  ``variant`` (a wrong
    one, for the tests): "sign" ((121)'s last minus read plus) or "factor2" (z* doubled)."""
    from rldp_verify.certificates.identity import Tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    e = Tree.var("eps")
    A = Atoms()
    T = A.exp("T", e)
    A.exp("G", T * e / (T - 1) - 1)
    t = A.exp_of(e, {"T": 1})                                    # e^eps as printed
    z_star = 1 / (t - 1) * (A.exp_of(t * e / (t - 1) - 1, {"G": 1}) - 1)
    if variant == "factor2":
        z_star = 2 * z_star
    log_term = (t - 1) * A.log_of(z_star * (t - 1) + 1, {"G": 1})
    d121 = t * e - (t - 1) + log_term if variant == "sign" else t * e - (t - 1) - log_term
    return log_identity_certificate(
        "kairouz.lemma27.max-mu: (121) at (122)", d121, 0, A,
        words="(121) as printed at z = z*(eps) of (122) as printed; atoms T = exp(eps), G = exp(T eps/(T - 1) - 1)")
