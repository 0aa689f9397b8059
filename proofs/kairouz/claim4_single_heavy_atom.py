"""Claim 4 (in the proof of Lemma 27): a single heavy atom."""

from itertools import combinations

import mpmath

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
    n, bad = 0, []
    with working_precision(ctx.dps):
        for _ in range(200):
            k = rng.randint(2, 6)
            e_ = mpmath.mpf(rng.randint(1, 100)) / 100
            P = list(rand_dist(rng, k, 200))
            P.sort(reverse=True)
            if to_mpf(P[0]) < 1 - z_star(e_):
                continue
            n += 1
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
    return Outcome.verified(f"{n} random (P, eps) with P(x*) >= 1 - z*(eps): both parts hold")
