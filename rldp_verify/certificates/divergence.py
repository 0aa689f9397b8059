"""Expressions of the checker's language (:mod:`rldp_verify_check.value`) for divergences and mutual information
whose arguments are themselves expressions (e.g. channel entries in e^eps = ``["exp", eps]``).

Each builder writes the definition out, term by term, so that the checker evaluates the quantity itself in arb;
the exact zero pattern of the arguments (which terms vanish, which are infinite) is decided here on the exact
numbers the caller passes alongside, never on floats.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import exact

__all__ = ["renyi_expr", "binary_renyi_expr", "mi_expr", "phi_expr"]


def renyi_expr(p, q, alpha, q_expr=None) -> list:
    """D_alpha(p||q) in nats for exact distributions ``p``, ``q`` (``q_expr``: expressions of q's entries,
    default the numbers themselves), alpha > 0 rational:
    ``1/(alpha-1) log(sum_{p_x > 0, q_x > 0} p_x^alpha q_x^(1-alpha))`` (alpha != 1; a cell with p_x > 0 = q_x is
    infinite for alpha > 1 and contributes nothing for alpha < 1), ``sum_{p_x > 0} p_x log(p_x / q_x)`` (alpha = 1).
    An infinite divergence is refused (InputError)."""
    a = exact(alpha)
    p, q = [exact(v) for v in p], [exact(v) for v in q]
    qe = list(q) if q_expr is None else list(q_expr)
    if a <= 0:
        raise InputError(f"order alpha = {a} is not positive")
    terms = []
    for px, qx, ex in zip(p, q, qe, strict=True):
        if px == 0:
            continue
        if qx == 0:
            if a >= 1:
                raise InputError("D_alpha(p||q) is infinite (p > 0 = q with alpha >= 1)")
            continue
        terms.append(["*", px, ["log", ["/", px, ex]]] if a == 1 else
                     ["*", ["pow", px, a], ["pow", ex, 1 - a]])
    if a == 1:
        return ["+", 0, *terms]
    if not terms:
        raise InputError("D_alpha(p||q) is infinite (disjoint supports)")
    return ["*", Fraction(1) / (a - 1), ["log", ["+", *terms]]]


def binary_renyi_expr(rho, t, alpha) -> list:
    """D_alpha(Bern(rho) || Bern(t)) (exact rho, t in [0, 1])."""
    rho, t = exact(rho), exact(t)
    return renyi_expr([rho, 1 - rho], [t, 1 - t], alpha)


def phi_expr(d, p, alpha) -> list:
    """Phi(d) of the Rényi-ball projection bound (RLDP paper, Theorem 1 / App. A.1; see proofs/rldp/_certified.py):
    ``alpha/(alpha-1) log(p e^{(alpha-1) d/alpha} + 1 - p)`` (alpha != 1), ``p d`` (alpha = 1), ``d`` when p = 1;
    ``d`` an expression, p in (0, 1] and alpha > 0 exact."""
    p, a = exact(p), exact(alpha)
    if p == 1:
        return d
    if a == 1:
        return ["*", p, d]
    return ["*", a / (a - 1), ["log", ["+", ["*", p, ["exp", ["*", (a - 1) / a, d]]], 1 - p]]]


def mi_expr(Q, p, Q_expr=None) -> list:
    """I(X;Y) in nats for the channel ``Q[y][x]`` (exact numbers, giving the zero pattern) and input distribution
    ``p`` (exact), the entries written as ``Q_expr[y][x]`` (default: the numbers):
    ``sum_{y} sum_{x : p_x Q[y][x] > 0} p_x Q[y][x] log(Q[y][x] / q_y)``, ``q_y = sum_x p_x Q[y][x]``."""
    p = [exact(v) for v in p]
    Qe = Q if Q_expr is None else Q_expr
    terms = []
    for row, erow in zip(Q, Qe, strict=True):
        support = [(px, e) for px, v, e in zip(p, row, erow, strict=True) if px * exact(v) != 0]
        if not support:
            continue
        qy = ["+", *[["*", px, e] for px, e in support]]
        terms += [["*", px, e, ["log", ["/", e, qy]]] for px, e in support]
    return ["+", 0, *terms]
