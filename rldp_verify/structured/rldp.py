"""(eps, P)-RLDP of a structured channel for one exact distribution P on S x U, without enumerating outputs
(issue 26 item 1; eq. (62) of the RLDP paper as :func:`rldp_verify.rldp.mechanisms.guarantees.realized_ratio`
computes it on a dense matrix).

The input domain X = S x U is indexed S-major (x = s |U| + u), as in :meth:`Mechanism.from_matrix`, and
P(Y = y | S = s) = sum_u P(u | s) Q(y | (s, u)) over the secrets s with P_s > 0; the ratio is the maximum over y and
s != s' of P(y|s) / P(y|s') (0/0 = 1, x/0 = inf), and 1 when fewer than two secrets have positive mass.

- :class:`~rldp_verify.structured.channels.Symmetric` (GRR with (a, b) on k = |S||U| values): for y = (s0, u0),
  P(y|s) = b + (a - b) P(u0|s0) when s = s0 and b otherwise, so the ratios are R(c) = (b + (a - b) c) / b and 1/R(c)
  with c = P(u0|s0); R is monotone in c, so rho = max(R(c*), 1/R(c*)) with c* = max_{s, u} P(u|s).
- :class:`~rldp_verify.structured.channels.UnaryProduct` (one bit per x): P(y|s) = Z(y) sum_u P(u|s) h(y_(s,u)) with
  Z the all-cold law and h(b) = Pr[b|hot] / Pr[b|cold]; the bits of s and s' are disjoint, so the ratio is at most
  h_max / h_min and attains it (every bit of s at argmax h, of s' at argmin h): rho = h_max / h_min, the eps-LDP
  ratio, for any P giving two secrets positive mass.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import INF, Symmetric, UnaryProduct, ratio

__all__ = ["p_ratio"]


def _conditionals(P, sizes) -> list:
    """The rows P(u | s) of the secrets with P_s > 0 (exact)."""
    try:
        a1, a2 = (int(v) for v in sizes)
    except (TypeError, ValueError):
        raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
    rows = [list(r) for r in P]
    if len(rows) != a1 or any(len(r) != a2 for r in rows):
        raise InputError(f"P must be an |S| x |U| = {a1} x {a2} table")
    out = []
    for r in rows:
        if any(not isinstance(v, (int, Fraction)) or v < 0 for v in r):
            raise InputError(f"P has an entry that is not an exact probability >= 0 in the row {r}")
        m = sum(r)
        if m > 0:
            out.append([Fraction(v) / m for v in r])
    if sum(sum(Fraction(v) for v in r) for r in rows) != 1:
        raise InputError("P must sum to 1 exactly")
    return out


def _one(v):
    return Fraction(1) if v is None else v


def p_ratio(structure, P, sizes):
    """e^{eps*} of eq. (62) for ``structure`` on X = S x U (``sizes`` = (|S|, |U|)) and the exact distribution P
    (an |S| x |U| table of ints / Fractions summing to 1). Exact: a Fraction or inf."""
    cond = _conditionals(P, sizes)
    k = int(sizes[0]) * int(sizes[1])
    if isinstance(structure, Symmetric):
        if structure.k != k:
            raise InputError(f"GRR on {structure.k} values is not a channel on |S| |U| = {k} inputs")
        if len(cond) < 2:
            return Fraction(1)
        c = max(max(r) for r in cond)
        a, b = structure.a, structure.b
        R = ratio(b + (a - b) * c, b)
        inv = None if R is None else (INF if R == 0 else (Fraction(0) if R == INF else 1 / R))
        return max(_one(R), _one(inv), key=lambda v: float("inf") if v == INF else v)
    if isinstance(structure, UnaryProduct):
        if structure.d != k:
            raise InputError(f"unary encoding on {structure.d} values is not a channel on |S| |U| = {k} inputs")
        if len(cond) < 2:
            return Fraction(1)
        bit = structure.bit
        if bit.prob(0, 0) == 0 or bit.prob(1, 0) == 0:
            raise InputError("(eps, P)-RLDP of a unary encoding needs 0 < q < 1 here (a cold bit that is never, or "
                             "always, 1)")
        h = [bit.prob(v, 1) / bit.prob(v, 0) for v in (0, 1)]
        return _one(ratio(max(h), min(h)))
    raise InputError(f"(eps, P)-RLDP without enumerating outputs is implemented for GRR and unary encodings, not for "
                     f"{type(structure).__name__}; use the dense channel (channel(obj, sizes=...)) at small sizes")
