"""A witness for alpha <= 1/2, where the primal of :mod:`~rldp_verify.rldp.audit.pair` has no KKT system to
solve (Psi's sup over z = e^-d lies at z = 0 or 1): a grid search over the two maximiser curves.

Paper: [lopuhaa-2024], Definition 1; the joint projection and the curves of :mod:`rldp_verify.rldp.audit.dual`
and :class:`~rldp_verify.rldp.audit.blocks.Block` (each curve point maximises <v, R> over its ball for every alpha).

Which way results may err: only downwards (the grid point is a member of F below the sup; the witness is
verified in arb like every other witness).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from rldp_verify.core.numbers import to_mpf
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.audit.blocks import Block
from rldp_verify.rldp.audit.dual import phi_arb
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


def _level_e(y: Fraction, beta: Fraction, dps: int) -> Fraction:
    """A rational lower bound of e^-d for the level d = phi^-1(y) (0 when 1 + beta y <= 0: no bound on d)."""
    base = 1 + beta * y
    if base <= 0:
        return Fraction(0)
    if beta == 0:
        with arb_precision(dps):
            return max(Fraction(0), arb_lower((-arb_exact(y)).exp()))
    with arb_precision(dps):
        return max(Fraction(0), arb_lower((arb_exact(base).log() * arb_exact(-1 / beta)).exp()))


def split_upper(problem: PairProblem, dps: int, evals: int = 48) -> Fraction | float:
    """The bound of :func:`split_entry` (without its pair entry)."""
    return split_entry(problem, dps, evals)[0]


def split_entry(problem: PairProblem, dps: int, evals: int = 48) -> tuple[Fraction | float, dict | None]:
    """A certified upper bound of the pair's ratio by splitting the budget, and its pair entry (``"mode":
    "split"`` of :mod:`rldp_verify_check.audit`; None when the bound is inf): every (R1, R2) of the joint
    projection spends c1 = P^_{s1} phi(d1) in some [t_k, t_k+1] of [0, Phi] (Phi >= phi(B) rational), so its
    ratio is at most N(t_k+1) / D(Phi - t_k), N the sup of <q1, R1> at level phi^-1(t/P^_{s1}) and D the inf of
    <q2, R2> at level phi^-1((Phi - t)/P^_{s2}) (each bounded by weak duality in arb). The interval with the
    largest bound is halved, ``evals`` times; the maximum over the intervals is returned (sound at every
    stage) with the cuts t_k and per part the weak-duality mu of N and r times that of D (r the bound). Tight
    as the intervals shrink, for every alpha (the dual of one budget needs alpha > 1/2)."""
    from rldp_verify.rldp.audit.bounds import support_upper

    beta = problem.beta
    with arb_precision(dps):
        phi_b = phi_arb(problem.B, beta)
    if phi_b is None:
        return math.inf, None
    cap = arb_upper(phi_b)
    q1, neg2 = list(problem.q1), [-x for x in problem.q2]
    memo: dict = {}

    def num(t):
        if ("n", t) not in memo:
            memo[("n", t)] = support_upper(q1, problem.w1, _level_e(t / problem.m1, beta, dps), beta, dps)
        return memo[("n", t)]

    def den(t):
        if ("d", t) not in memo:
            memo[("d", t)] = support_upper(neg2, problem.w2, _level_e((cap - t) / problem.m2, beta, dps), beta, dps)
        return memo[("d", t)]

    def bound(a, b):
        d = -den(a)[0]
        return num(b)[0] / d if d > 0 else math.inf

    cuts = [cap * k / 8 for k in range(9)]
    parts = {(a, b): bound(a, b) for a, b in zip(cuts, cuts[1:], strict=False)}
    for _ in range(evals):
        if problem.deadline.expired():
            break
        (a, b), worst = max(parts.items(), key=lambda kv: kv[1])
        if worst == math.inf and b - a < cap / 2**20:
            break
        mid = (a + b) / 2
        del parts[(a, b)]
        parts[(a, mid)], parts[(mid, b)] = bound(a, mid), bound(mid, b)
    r = max(parts.values())
    if r == math.inf:
        return r, None
    keys = sorted(parts)
    return r, {"mode": "split", "r": r, "cuts": [a for a, _ in keys], "mu1": [num(b)[1] for _, b in keys],
               "mu2": [r * den(a)[1] for a, _ in keys]}
