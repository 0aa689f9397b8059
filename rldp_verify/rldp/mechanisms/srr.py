"""Secret randomised response, Definition 4 (Sec. 6).

    SRR^eps[(s',u')|(s,u)] = e^eps / C     if (s',u') = (s,u)

                           = e^-eps / C    if s' = s and u' != u
                           = 1 / C         if s' != s,

    C = e^eps + e^-eps (a2 - 1) + a - a2.

Reading: the garbled text prints the second case's numerator as "e eps"; Example 4 (eps = log 2:
entries 0.444, 0.111, 0.222 = 2/4.5, 0.5/4.5, 1/4.5) and the sentence "ratios in
{e^-2eps, ..., e^2eps}, the extremes only when s = s'" fix it as e^-eps.
Exact when e^eps is rational; otherwise built with r <= e^eps (then (log r, P_X)-RLDP).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS
from rldp_verify.rldp.mechanisms._common import alphabets, build
from rldp_verify.rldp.mechanisms.rounding import privacy_level


def srr_matrix(a1: int, a2: int, exp_eps) -> list[list[Fraction]]:
    """The SRR matrix of Definition 4 ([lopuhaa-2024], Sec. 6) for |S| = a1, |U| = a2 at the exact
    e^eps, rows y, columns x in S-major order (exact Fractions)."""
    for name, v in (("a1", a1), ("a2", a2)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InputError(f"SRR size {name} must be a positive integer, got {v!r}")
    e = Fraction(exp_eps)
    if e < 1:
        raise InputError(f"SRR needs e^eps >= 1, got {exp_eps}")
    return _srr_rows(a1, a2, e)


def _srr_rows(a1: int, a2: int, e) -> list:
    """Definition 4 in the arithmetic of ``e`` (the one statement of SRR; Fraction or arb ball)."""
    a = a1 * a2
    C = e + (a2 - 1) / e + (a - a2)
    rows = []
    for s2 in range(a1):
        for u2 in range(a2):
            rows.append([((e if u == u2 else 1 / e) / C) if s == s2 else 1 / C for s in range(a1) for u in range(a2)])
    return rows


def srr_matrix_arb(a1: int, a2: int, e) -> list:
    """The SRR matrix of Definition 4 with an arb ball ``e`` for e^eps, at the current arb precision. Rigorous."""
    return _srr_rows(a1, a2, e)


def srr(phat=None, eps=None, *, sensitive=None, public=None, dps: int = DEFAULT_DPS, digits: int = 12):
    """SRR^eps on X = S x U (outputs labelled by X); utility under ``phat`` when given."""
    if eps is None:
        raise InputError("SRR needs eps")
    level = privacy_level(eps, digits=digits, dps=dps)
    table, S, U = alphabets(phat, sensitive, public, "SRR")
    Y = [f"({s},{u})" for s in S for u in U]
    return build(srr_matrix(len(S), len(U), level.exp_eps), S, U, Y, name="SRR", level=level,
                 guarantee="(eps, P_X)-RLDP (Lemma 2), hence (eps, F)-RLDP for every F",
                 parameters={"a1": len(S), "a2": len(U)}, phat=table, dps=dps)
