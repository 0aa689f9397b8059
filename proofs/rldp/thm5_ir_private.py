"""Theorem 5 (Sec. 7, eqs. (69)-(76)) and the remarks after it."""

from __future__ import annotations

from fractions import Fraction

import sympy as sp

from proofs.rldp._mech_common import PAPER, points_in_ball, rand_instance
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import (
    check_column_stochastic,
    check_single_distribution,
    exp_delta2,
    independent_reporting,
    ir_distance,
    privacy_level,
)
from rldp_verify.rldp.mechanisms.ir import distance_from


def _cond(P, a1, a2):
    out = []
    for s in range(a1):
        m = sum(P[s * a2:(s + 1) * a2])
        out.append(None if m == 0 else [x / m for x in P[s * a2:(s + 1) * a2]])
    return out


@claim(
    id="rldp.thm5.ir-private",
    paper=PAPER,
    source="Sec. 7, Theorem 5 and its proof, eqs. (69)-(76)",
    statement="With d_s >= rad_s(F), d = min{2, max_s 2 d_s + max_{s,s'} ||P-hat_{U|s} - P-hat_{U|s'}||_1} and "
              "delta2 = log(1 + 2(e^eps2 - 1)/d), IR with R1 eps1-LDP and R2 delta2-LDP is (eps1 + eps2, F)-RLDP.",
    hypotheses=("F a Rényi ball", "R1 = GRR^{eps1}, R2 = GRR^{delta2}", "d from certified rad bounds"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Checked on IR mechanisms of random instances and splits (including eps2 = 0, eps2 = eps and the "
            "eq. (82) optimum): components eps1-/delta2-LDP exactly; Definition 1 exactly at certified points of F; "
            "the proof's step ||P_{U|s} - P_{U|s'}||_1 <= d at those points.",
)
def check_private(ctx):
    rng = ctx.rng("thm5")
    pts, mechs = 0, 0
    for k in range(6):
        ball, eps = rand_instance(rng, k)
        r = privacy_level(eps).exp_eps
        d = ir_distance(ball, dps=ctx.dps)
        a1, a2 = len(ball.phat), len(ball.phat[0])
        splits = ["0", f"log({r})", None] if k < 2 else [f"log({1 + (r - 1) * Fraction(rng.randint(1, 9), 10)})"]
        P_list = points_in_ball(ball, rng, 8)
        for eps2 in splits:
            m = independent_reporting(ball, eps, eps2=eps2, dps=ctx.dps, d=d)
            mechs += 1
            if not check_column_stochastic(m):
                return Outcome.refuted("IR matrix not column-stochastic", counterexample={"instance": k}, kind="false")
            for P in P_list:
                pts += 1
                res = check_single_distribution(m, P, eps)
                if res.holds is not True:
                    return Outcome.refuted("IR violates Definition 1 at a point of F",
                                           counterexample={"P": [str(x) for x in P], "eps": eps, "eps2": eps2,
                                                           **res.to_json()}, kind="false")
                conds = [c for c in _cond(P, a1, a2) if c is not None]
                spread = max(sum(abs(x - y) for x, y in zip(c1, c2)) for c1 in conds for c2 in conds)
                if spread > d:
                    return Outcome.refuted("proof step (69)-(71) fails: conditional spread exceeds d",
                                           counterexample={"P": [str(x) for x in P], "spread": str(spread), "d": str(d)}, kind="false")
    return Outcome.verified(f"{mechs} IR mechanisms, {pts} (mechanism, P) pairs: Definition 1 holds exactly; "
                            "conditional spread <= d", mechanisms=mechs, points=pts)


@claim(
    id="rldp.thm5.delta2-algebra",
    paper=PAPER,
    source="Sec. 7, Theorem 5 (delta2), proof eqs. (72)-(74), and the remarks after Theorem 5",
    statement="eps2 = log(1 + d(e^delta2 - 1)/2) inverts delta2 = log(1 + 2(e^eps2 - 1)/d); delta2 >= eps2 "
              "(as d <= 2); if U = S (P-hat diagonal) then d = 2 and delta2 = eps2.",
    hypotheses=("0 < d <= 2", "eps2 >= 0"),
    method=(Method.SYMBOLIC, Method.EXACT),
)
def check_algebra(ctx):
    E, d = sp.symbols("E d", positive=True)
    e_delta = 1 + 2 * (E - 1) / d
    inverse = sp.simplify(1 + d * (e_delta - 1) / 2 - E) == 0
    # delta2 >= eps2  <=>  e_delta - E = (E - 1)(2 - d)/d >= 0
    diff = sp.factor(sp.simplify(e_delta - E))
    mono = sp.simplify(diff - (E - 1) * (2 - d) / d) == 0
    # S = U: diagonal P-hat -> point-mass conditionals at distance 2 -> d = 2
    ok_diag = True
    for a in range(2, 6):
        table = [[Fraction(int(i == j), a) for j in range(a)] for i in range(a)]
        dd = distance_from([Fraction(0)] * a, table)
        if dd != 2 or exp_delta2(Fraction(3), dd) != 3:
            ok_diag = False
    if inverse and mono and ok_diag:
        return Outcome.verified("inverse identity and e^delta2 - e^eps2 = (e^eps2 - 1)(2 - d)/d symbolic; "
                                "diagonal P-hat gives d = 2, delta2 = eps2 (a = 2..5)", factored=str(diff))
    return Outcome.refuted("algebra of delta2 fails", counterexample={"inverse": inverse, "mono": mono,
                                                                    "diag": ok_diag}, kind="false")
