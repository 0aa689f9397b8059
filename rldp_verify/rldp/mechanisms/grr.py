"""Generalised randomised response, eq. (56) (Sec. 6; [19], [5]).

    GRR^eps[y|x] = e^eps / (e^eps + a - 1)  if x = y,   1 / (e^eps + a - 1)  otherwise     (eq. (56))

on an alphabet of size a (X -> X). Exact when e^eps is rational; otherwise built with the rational
r <= e^eps of :func:`~rldp_verify.rldp.mechanisms.rounding.privacy_level` (then it is log(r)-LDP, hence
eps-LDP). ``exp_eps = math.inf`` gives the identity (GRR^infinity, used by independent reporting).

Eq. (56) is written once, in :func:`_grr_rows` (any field: Fraction, float, mpf, arb); its precision routes
are :func:`grr_matrix` (exact), :func:`grr_matrix_float` (numpy), :func:`grr_matrix_mp` (mpmath) and
:func:`grr_matrix_arb` (arb balls), plus :func:`grr_matrix_arb_ratio` (arb, e^eps = num / den multiplied
through by den: one division per entry, the tighter enclosure when num and den are balls).
"""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import mpmath
import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS
from rldp_verify.rldp.mechanisms._common import alphabets, build
from rldp_verify.rldp.mechanisms.rounding import privacy_level


def _grr_rows(size: int, e, one):
    """Eq. (56) in the arithmetic of ``e`` (the one statement of GRR): e / (e + size - 1) on the diagonal,
    ``one`` / (e + size - 1) off it (``one`` is 1 in that arithmetic)."""
    den = e + size - 1
    return [[e / den if i == j else one / den for j in range(size)] for i in range(size)]


def _is_inf(e) -> bool:
    return isinstance(e, (float, mpmath.mpf)) and e == math.inf


def grr_matrix(size: int, exp_eps) -> list[list[Fraction]]:
    """The size x size GRR matrix with ratio ``exp_eps`` (a rational >= 1, or math.inf). Exact."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InputError(f"GRR alphabet size must be a positive integer, got {size!r}")
    if exp_eps == math.inf:
        return [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
    e = Fraction(exp_eps)
    if e < 1:
        raise InputError(f"GRR needs e^eps >= 1, got {exp_eps}")
    return _grr_rows(size, e, 1)


def grr_matrix_float(size: int, e: float) -> np.ndarray:
    """Eq. (56) in double precision (numpy array; ``e = inf`` gives the identity). Round to nearest per
    entry (two roundings: the denominator and the quotient), either direction; no validation."""
    if math.isinf(e):
        return np.eye(size)
    return np.array(_grr_rows(size, e, 1.0), dtype=float)


def grr_matrix_mp(size: int, e) -> list[list[mpmath.mpf]]:
    """Eq. (56) in mpmath at the working precision (``e`` an mpf; ``e = inf`` gives the identity)."""
    if _is_inf(e):
        return [[mpmath.mpf(int(i == j)) for j in range(size)] for i in range(size)]
    return _grr_rows(size, e, 1)


def grr_matrix_arb(size: int, e) -> list[list[flint.arb]]:
    """Eq. (56) with arb balls at the current arb precision (``e`` a ball; ``e = math.inf`` gives the
    identity). Rigorous: every entry's ball contains the true value for every e^eps in ``e``."""
    if _is_inf(e):
        return [[flint.arb(int(i == j)) for j in range(size)] for i in range(size)]
    return _grr_rows(size, e, flint.arb(1))


def grr_matrix_arb_ratio(size: int, num, den) -> list[list[flint.arb]]:
    """Eq. (56) at e^eps = num / den with arb balls, multiplied through by den: num / (num + (size - 1) den)
    on the diagonal, den / (num + (size - 1) den) off it (one division per entry: a tighter enclosure than
    :func:`grr_matrix_arb` of num / den when den is a wide ball). Rigorous."""
    tot = num + (size - 1) * den
    return [[(num if i == j else den) / tot for j in range(size)] for i in range(size)]


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
