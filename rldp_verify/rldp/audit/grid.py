"""A witness for alpha <= 1/2, where the primal of :mod:`~rldp_verify.rldp.audit.pair` has no KKT system to
solve (Psi's sup over z = e^-d lies at z = 0 or 1): a grid search over the two maximiser curves.

Paper: [lopuhaa-2024], Definition 1; the joint projection and the curves of :mod:`rldp_verify.rldp.audit.dual`
and :class:`~rldp_verify.rldp.audit.blocks.Block` (each curve point maximises <v, R> over its ball for every alpha).

Which way results may err: only downwards (the grid point is a member of F below the sup; the witness is
verified in arb like every other witness).
"""

from __future__ import annotations

import mpmath

from rldp_verify.core.numbers import to_mpf
from rldp_verify.rldp.audit.blocks import Block
from rldp_verify.rldp.audit.pair import PairProblem, PairResult
from rldp_verify.rldp.projection import phi_mp


def grid_witness(problem: PairProblem, res: PairResult, dps: int, n: int = 81, rounds: int = 8) -> None:
    """alpha <= 1/2, where the primal has no KKT system to solve: the best point (x1, x2) of a grid over the two
    maximiser curves (:class:`Block`) whose levels fit the budget, m1 phi(d1) + m2 phi(d2) <= phi(B)
    (1 - 10^-12), refined ``rounds`` times around the best point; lifted and verified like any witness (the
    slack lets it be rounded without the pull towards P^). Updates ``res.lo`` when it beats it."""
    blk1 = Block.make(problem.w1, problem.q1, problem.alpha)
    blk2 = Block.make(problem.w2, [-x for x in problem.q2], problem.alpha)
    B = problem.B
    cap = phi_mp(mpmath.mpf(B.numerator) / B.denominator, problem.beta) * (1 - mpmath.mpf(10) ** -12)
    m1, m2 = to_mpf(problem.m1), to_mpf(problem.m2)
    win = [(mpmath.mpf(-80), mpmath.mpf(20))] * 2  # the x-window of each curve
    best = None
    for _ in range(rounds):
        problem.deadline.check()
        xs = [[a + (b - a) * i / (n - 1) for i in range(n)] for a, b in win]
        pts1 = [(x, blk1.point_x(x)) for x in xs[0]]
        pts2 = [(x, blk2.point_x(x)) for x in xs[1]]
        c1 = [m1 * phi_mp(p[1], problem.beta) for _, p in pts1]
        c2 = [m2 * phi_mp(p[1], problem.beta) for _, p in pts2]
        for (x1, p1), b1 in zip(pts1, c1, strict=True):
            for (x2, p2), b2 in zip(pts2, c2, strict=True):
                if b1 + b2 <= cap and p2[2] < 0:
                    r = p1[2] / -p2[2]
                    if best is None or r > best[0]:
                        best = (r, x1, x2, p1, p2)
        if best is None:
            return
        win = [(x - 6 * (b - a) / (n - 1), x + 6 * (b - a) / (n - 1)) for x, (a, b) in zip(best[1:3], win, strict=True)]
    assert best is not None  # the loop returns when no grid point fits the budget
    _, _, _, (R1, d1, _, _), (R2, d2, _, _) = best
    rho, W = problem.witness(problem.lift(R1, R2, d1, d2), dps, pulls=(None, dps - 15, dps // 2, 8))
    if rho is not None and (res.lo is None or rho > res.lo):
        res.lo, res.witness = rho, W
