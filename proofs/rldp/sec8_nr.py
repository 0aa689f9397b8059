"""Sec. 8: NR, the non-robust optimum ([3]) — the optimal (eps, {P-hat})-RLDP mechanism."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import (
    check_gamma,
    check_single_distribution,
    exact_level,
    nonrobust,
)
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust_lower

from ._mech_common import PAPER, rand_table


@claim(
    id="rldp.sec8.nr-optimal",
    paper=PAPER,
    source="Sec. 8, second paragraph (NR)",
    statement="NR, obtained like PolyOpt with F = {P-hat}, is the optimal mechanism satisfying (eps, {P-hat})-RLDP.",
    hypotheses=("P-hat with possibly zero rows",),
    method=(Method.EXACT, Method.PROPERTY),
    reading="With L_{u|s} = P-hat_{u|s}, Definition 3's cone equals the (eps, {P-hat})-RLDP feasible set exactly "
            "(checked on random matrices, both members and non-members); Theorem 3 then gives the optimum, "
            "certified by the LP bracket.",
)
def check_nr(ctx):
    rng = ctx.rng("nr")
    seen, n = set(), 0
    for k in range(150):
        a1, a2 = [(2, 2), (2, 3), (3, 2)][k % 3]
        table = rand_table(rng, a1, a2, zeros=True)
        if k % 10 == 0:
            table = tuple(tuple(Fraction(0) for _ in r) if i == 0 else r for i, r in enumerate(table))
            tot = sum(map(sum, table))
            table = tuple(tuple(v / tot for v in r) for r in table)
        r = Fraction(rng.randint(11, 30), 10)
        lvl = exact_level(r)
        b = rng.randint(1, 3)
        cols = []
        for _ in range(a1 * a2):
            w = [Fraction(rng.randint(1, 6)) for _ in range(b)]
            cols.append([x / sum(w) for x in w])
        Q = [[cols[x][y] for x in range(a1 * a2)] for y in range(b)]
        L, active = nonrobust_lower(table)
        c = check_gamma(Q, L, lvl, include_same_s=False, a1=a1, a2=a2, active=active).holds
        d = check_single_distribution(Q, [v for row in table for v in row], lvl, a1, a2).holds
        n += 1
        seen.add(c)
        if c != d:
            return Outcome.refuted("NR cone differs from the (eps, {P-hat})-RLDP set",
                                   counterexample={"table": [[str(v) for v in row] for row in table], "r": str(r),
                                                   "Q": [[str(v) for v in row] for row in Q], "cone": c, "def1": d}, kind="false")
    if seen != {True, False}:
        return Outcome.inconclusive(f"the random matrices gave only the verdicts {sorted(seen)}")
    # certified optimum on a few instances
    gaps = []
    for k in range(3):
        table = rand_table(rng, 2, 2 + k % 2)
        m = nonrobust(table, "log(2)")
        lo, up = (Fraction(x) for x in m.parameters["optimum_bracket"])
        if check_single_distribution(m, [v for row in table for v in row], exact_level(2)).holds is not True:
            return Outcome.refuted("NR mechanism not (eps, {P-hat})-RLDP", counterexample={"table": str(table)}, kind="false")
        gaps.append(float(up - lo))
    return Outcome.verified(f"cone = feasible set on {n} random (P-hat, Q) pairs (both verdicts occur); NR certified "
                            f"optimal to within {max(gaps):.1e}", pairs=n)


@claim(
    id="rldp.sec8.realized-eps",
    paper=PAPER,
    source="Sec. 8.3 (realised privacy parameter eps*), instantiated on Example 1",
    statement="When P* is in F, PolyOpt's realised eps* (under P*) is at most eps, whereas NR, designed for P-hat "
              "only, may exceed eps.",
    hypotheses=("Example 1: P* in F (D_2(P-hat||P*) = 0.0281 < B)", "eps = log 2"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="The paper's statement is about 100 synthetic data sets; we check the implication of Theorem 2 on "
            "Example 1 and report NR's eps* there.",
)
def check_realized(ctx):
    import mpmath

    from rldp_verify.rldp.mechanisms import polyopt, realized_eps

    from ._mech_common import PSTAR_FLAT, example_ball, s

    ball = example_ball()
    if ball.contains(PSTAR_FLAT) is not True:
        return Outcome.inconclusive("P* not certified to lie in F")
    po = polyopt(ball, "log(2)", dps=ctx.dps)
    rel = polyopt(ball, "log(2)", relaxed=True, dps=ctx.dps)
    nr = nonrobust(ball.phat, "log(2)")
    with mpmath.workdps(30):
        e = {n: realized_eps(m, PSTAR_FLAT) for n, m in (("PolyOpt", po), ("relaxed", rel), ("NR", nr))}
        ok = e["PolyOpt"] <= mpmath.log(2) and e["relaxed"] <= mpmath.log(2)
        ev = {k: s(v, 6) for k, v in e.items()}
        ev["eps"] = s(mpmath.log(2), 6)
    if ok:
        from rldp_verify.certificates.audit import audit_certificate
        from rldp_verify.certificates.claims import built
        from rldp_verify.rldp.audit import audit

        pstar = [PSTAR_FLAT[:2], PSTAR_FLAT[2:]]   # issue 23: eps* <= log 2 at P* as audits at the distribution P*
        certs = built(lambda: [audit_certificate(audit(m, "log(2)", distribution=pstar, dps=ctx.dps), m, "log(2)",
                                                 name=f"{n} at P*", distribution=pstar)
                               for n, m in (("PolyOpt", po), ("relaxed PolyOpt", rel))])
        return Outcome.verified(f"eps*: PolyOpt {ev['PolyOpt']}, relaxed {ev['relaxed']} <= log 2 = {ev['eps']}; "
                                f"NR {ev['NR']}", **ev, **certs)
    return Outcome.refuted("a robust mechanism leaks more than eps under P* in F", counterexample=ev, **ev, kind="false")
