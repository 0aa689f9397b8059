"""Generalised randomised response, eq. (56) (Sec. 6; [19], [5]).

    GRR^eps[y|x] = e^eps / (e^eps + a - 1)  if x = y,   1 / (e^eps + a - 1)  otherwise     (eq. (56))

on an alphabet of size a (X -> X). Exact when e^eps is rational; otherwise built with the rational
r <= e^eps of :func:`~rldp_verify.rldp.mechanisms.rounding.privacy_level` (then it is log(r)-LDP, hence
eps-LDP). ``exp_eps = math.inf`` gives the identity (GRR^infinity, used by independent reporting).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS
from rldp_verify.rldp.mechanisms._common import alphabets, build
from rldp_verify.rldp.mechanisms.rounding import privacy_level


def grr_matrix(size: int, exp_eps) -> list[list[Fraction]]:
    """The size x size GRR matrix with ratio ``exp_eps`` (a rational >= 1, or math.inf)."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InputError(f"GRR alphabet size must be a positive integer, got {size!r}")
    if exp_eps == math.inf:
        return [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
    e = Fraction(exp_eps)
    if e < 1:
        raise InputError(f"GRR needs e^eps >= 1, got {exp_eps}")
    den = e + size - 1
    return [[e / den if i == j else 1 / den for j in range(size)] for i in range(size)]


def grr(phat=None, eps=None, *, sensitive=None, public=None, dps: int = DEFAULT_DPS, digits: int = 12):
    """GRR^eps on X = S x U (outputs labelled by X). ``phat`` (optional when ``sensitive`` and
    ``public`` are given) is used for the labels' sizes and the utility."""
    if eps is None:
        raise InputError("GRR needs eps")
    level = privacy_level(eps, digits=digits, dps=dps)
    table, S, U = alphabets(phat, sensitive, public, "GRR")
    a = len(S) * len(U)
    Y = [f"({s},{u})" for s in S for u in U]
    return build(grr_matrix(a, level.exp_eps), S, U, Y, name="GRR", level=level,
                 guarantee=f"eps-LDP (Definition 2) with e^eps >= {level.exp_eps}, hence (eps, P_X)-RLDP "
                           "and (eps, F)-RLDP for every F",
                 parameters={"a": a}, phat=table, dps=dps)
