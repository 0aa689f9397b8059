"""NR: the non-robust optimum of Sec. 8 ([3]); PolyOpt's construction with F = {P-hat}.

Paper: [lopuhaa-2024], Sec. 8. With F = {P-hat}, F_{U|s} = {P-hat_{U|s}}, so taking
L_{u|s} = P-hat_{u|s} (sum_u L_{u|s} = 1) makes D_s = F_{U|s} and Definition 3's inequality for
(s1, s2) reads  P-hat_{U|s1}^T v_{s1} - e^eps P-hat_{U|s2}^T v_{s2} <= 0  — exactly Definition 1 for
the single distribution P-hat. The cone is therefore the exact feasible set of (eps, {P-hat})-RLDP
and Theorem 3 gives the optimum over all (eps, {P-hat})-RLDP mechanisms. The pairs s1 = s2 are
vacuous; a sensitive value with P-hat_s = 0 has no conditional and imposes no constraint.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.numbers import DEFAULT_DPS
from rldp_verify.rldp.mechanisms._common import phat_table
from rldp_verify.rldp.mechanisms.polyopt import polyopt_from_bounds
from rldp_verify.rldp.mechanisms.rounding import DEFAULT_DIGITS


def nonrobust_lower(table):
    """L_{u|s} = P-hat_{u|s} (rows with P-hat_s = 0 are zero and inactive)."""
    out, active = [], []
    for s, r in enumerate(table):
        m = sum(r)
        if m == 0:
            out.append(tuple(Fraction(0) for _ in r))
        else:
            out.append(tuple(Fraction(v) / m for v in r))
            active.append(s)
    return tuple(out), active


def nonrobust(phat, eps, *, sensitive=None, public=None, dps: int = DEFAULT_DPS, digits: int = DEFAULT_DIGITS):
    """NR for P-hat (a table or a RenyiBall, whose centre is used) and eps."""
    table = phat_table(phat)
    L, active = nonrobust_lower(table)
    mech, _ = polyopt_from_bounds(
        table, L, eps, include_same_s=False, active=active, name="NR", sensitive=sensitive, public=public,
        guarantee="(eps, {P-hat})-RLDP only (no robustness); optimal among such mechanisms "
                  "(Theorem 3 with F = {P-hat})",
        dps=dps, digits=digits)
    return mech
