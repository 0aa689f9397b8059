"""Exact audits: eps-LDP, F = P_X (Proposition 3), F = {P} (a single distribution, eq. (62)).

Paper: [lopuhaa-2024], Definition 2 (LDP), Proposition 3 ((eps, P_X)-RLDP iff
Q[y|s,u] <= e^eps Q[y|s',u'] for all y, s != s', u, u'), Sec. 8.3 eq. (62) (realised eps*), with the
conventions of [goseling-2021] eq. (32): 0/0 = 1, x/0 = inf for x > 0.

All ratios are computed exactly (Fractions), so lo = hi. Each result carries a witness:

- LDP: the pair of inputs (x, x');
- P_X: the two-point distribution of the proof of Proposition 3, P = 1/2 on (s,u) and (s',u')
  (the sup over P_X is attained there; conditionals are point masses);
- {P}: P itself (pairs with P_s = 0 have no conditional and are skipped).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import extended_ratio

INF = math.inf


_ratio = extended_ratio   # 0/0 = 1, x/0 = inf (003 eq. (32)); the one definition is in core.numbers


def audit_ldp(Q, a1: int, a2: int):
    """max over y, x, x' of Q[y|x]/Q[y|x'] (exact) with the maximising (y, x, x')."""
    best, arg = Fraction(0), None
    for y, row in enumerate(Q):
        i = max(range(len(row)), key=row.__getitem__)
        j = min(range(len(row)), key=row.__getitem__)
        r = _ratio(row[i], row[j])
        if arg is None or r > best:
            best, arg = r, (y, i, j)
    if arg is None:
        raise InputError("the mechanism matrix has no rows")
    y, i, j = arg
    return best, {"y": y, "s": i // a2, "s_prime": j // a2, "u": i % a2, "u_prime": j % a2}


def audit_full_simplex(Q, a1: int, a2: int):
    """sup over P in P_X (Proposition 3): max over y, s != s', u, u' of Q[y|s,u]/Q[y|s',u']."""
    if a1 < 2:
        return Fraction(1), None, None
    best, arg = None, None
    for y, row in enumerate(Q):
        blocks = [row[s * a2:(s + 1) * a2] for s in range(a1)]
        mx = [max(range(a2), key=b.__getitem__) for b in blocks]
        mn = [min(range(a2), key=b.__getitem__) for b in blocks]
        for s in range(a1):
            for t in range(a1):
                if s == t:
                    continue
                r = _ratio(blocks[s][mx[s]], blocks[t][mn[t]])
                if best is None or r > best:
                    best, arg = r, (y, s, t, mx[s], mn[t])
    if arg is None:
        raise InputError("the mechanism matrix has no rows")
    y, s, t, u, v = arg
    P = [[Fraction(0)] * a2 for _ in range(a1)]
    P[s][u] += Fraction(1, 2)
    P[t][v] += Fraction(1, 2)
    return best, {"y": y, "s": s, "s_prime": t, "u": u, "u_prime": v}, tuple(tuple(r) for r in P)


def audit_single(Q, P, a1: int, a2: int):
    """max over y, s != s' of P(Y=y|S=s)/P(Y=y|S=s') for one exact P (eq. (62); 0/0 = 1, x/0 = inf)."""
    from rldp_verify.rldp.mechanisms.guarantees import realized_ratio

    return realized_ratio(Q, P, a1, a2)
