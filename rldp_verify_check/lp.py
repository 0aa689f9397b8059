"""``lp-optimum``: the optimum of a linear program, proved by a primal and a dual solution.

Statement: ``sense`` ("max" or "min"), ``c`` (n numbers), ``A``/``b`` (rows A x <= b), ``E``/``f``
(rows E x = f), optional ``lower``/``upper`` (n entries, null for none) and ``value``.
Data: ``x`` (n numbers), ``y`` (one multiplier per row of A, then per row of E), optional ``d``
(one per variable: the multipliers of the bounds).

For "max" (a "min" is checked as the "max" of -c with value -value) the checks are, in exact rationals:

1. x is feasible: A x <= b, E x = f, lower <= x <= upper;
2. y_A >= 0 and c = A^T y_A + E^T y_E + d, with d_j > 0 only where upper_j exists, d_j < 0 only where
   lower_j exists;
3. c.x = value = b.y_A + f.y_E + sum_{d_j > 0} d_j upper_j + sum_{d_j < 0} d_j lower_j.

Weak duality: for every feasible x', c.x' = y_A.(A x') + y_E.(E x') + d.x' <= the dual value of 3;
so no feasible point exceeds ``value``, and x attains it: ``value`` is the optimum.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify_check import CertificateError, combine, outside, polyhedron, q, qvec


def _bounds(v, n):
    if v is not None and len(v) != n:
        raise CertificateError(f"a bound vector has {len(v)} entries, expected {n}")
    return [None if v is None or v[j] is None else q(v[j]) for j in range(n)]


def _feasible(A, b, E, f, lo, up, x) -> None:
    """Check 1: A x <= b, E x = f, lower <= x <= upper."""
    if bad := outside(A, b, E, f, x):
        raise CertificateError(f"x violates {bad}")
    if (j := next((j for j in range(len(x)) if lo[j] is not None and x[j] < lo[j] or up[j] is not None and
                   x[j] > up[j]), None)) is not None:
        raise CertificateError(f"x violates the bounds of variable {j}")


def check(st: dict, data: dict) -> str:
    """Check an ``lp-optimum`` certificate; returns what was proved or raises CertificateError."""
    sense = st.get("sense", "max")
    if sense not in ("max", "min"):
        raise CertificateError(f"sense {sense!r} is neither max nor min")
    sign = 1 if sense == "max" else -1
    c = [sign * v for v in qvec(st["c"])]
    n = len(c)
    A, b, E, f = polyhedron(st, n)
    lo, up = _bounds(st.get("lower"), n), _bounds(st.get("upper"), n)
    value, x, y = sign * q(st["value"]), qvec(data["x"]), qvec(data["y"])
    d = qvec(data["d"]) if data.get("d") is not None else [Fraction(0)] * n
    if len(x) != n or len(d) != n or len(y) != len(A) + len(E):
        raise CertificateError("x, y or d has the wrong length")
    _feasible(A, b, E, f, lo, up, x)
    if any(v < 0 for v in y[:len(A)]):                                                  # check 2
        raise CertificateError("a multiplier of an inequality is negative")
    stat, dual = combine(y, A + E, b + f, n)
    if js := [j for j in range(n) if stat[j] + d[j] != c[j]]:
        raise CertificateError(f"the dual is not stationary: (A^T y + d)_j != c_j at j = {js[0]}")
    for j, dj in enumerate(d):                                                          # check 3
        if dj:
            if (bound := up[j] if dj > 0 else lo[j]) is None:
                raise CertificateError(f"bound multiplier d_{j} = {dj} has no bound on its side")
            dual += dj * bound
    if (primal := sum((cj * xj for cj, xj in zip(c, x, strict=True)), Fraction(0))) != value:
        raise CertificateError(f"c.x = {sign * primal} is not the stated value {sign * value}")
    if dual != value:
        raise CertificateError(f"the dual bound {sign * dual} is not the stated value {sign * value}")
    return f"{sense} = {sign * value} ({n} variables, {len(A)} inequalities, {len(E)} equalities)"
