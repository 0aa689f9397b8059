"""Second routes for values that claims compare with printed numbers (issue 24): a different formula, method or
library than the engine's, so that a claim can fail when the engine is wrong, not only when the paper is. A claim
computes both and calls :func:`agree`; disagreement is an ERROR (proofs._consistency), never a verdict."""

from __future__ import annotations

from fractions import Fraction

import mpmath

from ._consistency import expect


def _mp(x):
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def mi_by_entropies(Q, p, dps: int = 40):
    """I_P(X;Y) = H(Y) - H(Y|X) in nats (mpmath at ``dps`` digits), for ``Q[y][x]`` = Q(y|x) and the flat P(x): the
    entropy form, not the engine's sum_x,y P(x) Q(y|x) log(Q(y|x)/Q(y)) (RLDP paper eq. (44))."""
    with mpmath.workdps(dps):
        P = [_mp(v) for v in p]
        Qm = [[_mp(v) for v in row] for row in Q]

        def h(ws):
            return -mpmath.fsum(w * mpmath.log(w) for w in ws if w > 0)
        qy = [mpmath.fsum(row[x] * P[x] for x in range(len(P))) for row in Qm]
        h_y_given_x = mpmath.fsum(P[x] * h([row[x] for row in Qm]) for x in range(len(P)))
        return +(h(qy) - h_y_given_x)


def agree(label: str, engine, second, tol) -> None:
    """ERROR (proofs._consistency.InconsistentCheck) unless |engine - second| <= tol."""
    with mpmath.workdps(60):
        gap = abs(_mp(engine) - _mp(second))
        expect(gap <= _mp(tol), f"{label}: the engine's value {mpmath.nstr(_mp(engine), 20)} and the second route's "
                                f"{mpmath.nstr(_mp(second), 20)} differ by {mpmath.nstr(gap, 3)} > {tol} (routes disagree)")
