"""Utility: the mutual information I_P(X;Y) of a mechanism, eqs. (44)-(45), and its normalisation.

Paper: 000_aca93ed29ea857ee.txt, Sec. 5 eqs. (44)-(45) and Sec. 8 (NMI = I_P(X;Y) / H(X)).

    mu(v) = sum_x v_x P_x log( v_x / sum_x' v_x' P_x' )        (eq. (45); terms with v_x P_x = 0 are 0)
    I_P(X;Y) = sum_y mu(Q_y)                                   (eq. (44), Q_y the y-th row of Q)

Natural logarithms (nats): the paper's Examples 3-5 are reproduced in nats (see proofs/rldp).

Which way results may err: ``*_value`` functions return mpmath numbers at the working precision
(relative error ~10^-(dps-3)); ``*_bounds`` functions return rationals (lo, hi) with
lo <= true value <= hi, certified with arb (exact inputs only).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import flint
import mpmath

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper


def flat_distribution(p) -> list:
    """P as a flat vector over X in S-major order (accepts a table or a flat vector)."""
    rows = list(p)
    if rows and isinstance(rows[0], (list, tuple)):
        return [v for r in rows for v in r]
    return rows


def _check(v, p):
    if len(v) != len(p):
        raise InputError(f"a row of length {len(v)} does not match a distribution over {len(p)} inputs")


def mu_value(v: Sequence, p: Sequence, *, dps: int | None = None):
    """mu(v) of eq. (45) (mpf, nats)."""
    _check(v, p)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            vv = [to_mpf(x) for x in v]
            pp = [to_mpf(x) for x in p]
            q = mpmath.fsum(a * b for a, b in zip(vv, pp))
            if q == 0:
                return mpmath.mpf(0)
            tot = mpmath.fsum(a * b * mpmath.log(a / q) for a, b in zip(vv, pp) if a * b != 0)
        return +tot


def mutual_information_value(matrix, p, *, dps: int | None = None):
    """I_P(X;Y) = sum_y mu(Q_y) (eq. (44)), in nats, at the working precision."""
    p = flat_distribution(p)
    with working_precision(dps) as d:
        with mpmath.workdps(d + 10):
            tot = mpmath.fsum(mu_value(r, p, dps=d + 10) for r in matrix)
        return +tot


def entropy_value(p, *, dps: int | None = None):
    """H(X) in nats."""
    p = flat_distribution(p)
    with working_precision(dps):
        return -mpmath.fsum(to_mpf(x) * mpmath.log(to_mpf(x)) for x in p if x != 0)


def nmi_value(matrix, p, *, dps: int | None = None):
    """Normalised mutual information I_P(X;Y)/H(X) of Sec. 8 (0 when H(X) = 0)."""
    with working_precision(dps) as d:
        h = entropy_value(p, dps=d)
        if h == 0:
            return mpmath.mpf(0)
        return mutual_information_value(matrix, p, dps=d) / h


def mu_arb(v: Sequence[Fraction], p: Sequence[Fraction]) -> flint.arb:
    """An arb enclosure of mu(v) at the current arb precision (exact rational inputs)."""
    _check(v, p)
    q = sum(Fraction(a) * Fraction(b) for a, b in zip(v, p))
    if q == 0:
        return flint.arb(0)
    tot = flint.arb(0)
    qa = arb_exact(q)
    for a, b in zip(v, p):
        if a * b != 0:
            tot += arb_exact(Fraction(a) * Fraction(b)) * (arb_exact(Fraction(a)) / qa).log()
    return tot


def mu_bounds(v, p, *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    with arb_precision(dps):
        x = mu_arb(v, p)
        return arb_lower(x), arb_upper(x)


def mutual_information_bounds(matrix, p, *, dps: int = DEFAULT_DPS) -> tuple[Fraction, Fraction]:
    """Rationals lo <= I_P(X;Y) <= hi, certified in arb (exact matrix and P required)."""
    p = [Fraction(x) for x in flat_distribution(p)]
    if not all(isinstance(x, Fraction) for r in matrix for x in r):
        raise InputError("certified utility bounds need an exact (rational) matrix")
    with arb_precision(dps):
        tot = flint.arb(0)
        for r in matrix:
            tot += mu_arb(r, p)
        return arb_lower(tot), arb_upper(tot)


def utility_record(matrix, p, *, dps: int = DEFAULT_DPS, digits: int = 12) -> dict:
    """The ``utility`` entry of a mechanism: I_P(X;Y) and the NMI at ``digits`` digits (nats)."""
    with working_precision(dps):
        i = mutual_information_value(matrix, p, dps=dps)
        n = nmi_value(matrix, p, dps=dps)
        return {"I": mpmath.nstr(i, digits), "NMI": mpmath.nstr(n, digits), "unit": "nats",
                "distribution": "P-hat"}
