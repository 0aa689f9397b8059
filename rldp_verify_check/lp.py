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

from rldp_verify_check import CertificateError, dot, q, qrows, qvec


def _bounds(v, n):
    if v is None:
        return [None] * n
    if len(v) != n:
        raise CertificateError(f"a bound vector has {len(v)} entries, expected {n}")
    return [None if x is None else q(x) for x in v]


def check(st: dict, data: dict) -> str:
    """Check an ``lp-optimum`` certificate; returns what was proved or raises CertificateError."""
    sense = st.get("sense", "max")
    if sense not in ("max", "min"):
        raise CertificateError(f"sense {sense!r} is neither max nor min")
    sign = 1 if sense == "max" else -1
    c = [sign * v for v in qvec(st["c"])]
    n = len(c)
    A, b = qrows(st.get("A", []), n), qvec(st.get("b", []))
    E, f = qrows(st.get("E", []), n), qvec(st.get("f", []))
    lo, up = _bounds(st.get("lower"), n), _bounds(st.get("upper"), n)
    value = sign * q(st["value"])
    x, y = qvec(data["x"]), qvec(data["y"])
    d = qvec(data["d"]) if data.get("d") is not None else [Fraction(0)] * n
    _check_shapes(A, b, E, f, x, y, d, n)
    _check_feasible(A, b, E, f, lo, up, x)
    yA, yE = y[: len(A)], y[len(A):]
    _check_stationary(A, E, yA, yE, d, c)
    dual = _dual_value(b, f, yA, yE, d, lo, up)
    primal = sum((cj * xj for cj, xj in zip(c, x, strict=True)), Fraction(0))
    if primal != value:
        raise CertificateError(f"c.x = {sign * primal} is not the stated value {sign * value}")
    if dual != value:
        raise CertificateError(f"the dual bound {sign * dual} is not the stated value {sign * value}")
    return f"{sense} = {sign * value} ({n} variables, {len(A)} inequalities, {len(E)} equalities)"


def _check_shapes(A, b, E, f, x, y, d, n):
    """The rows of A and b (E and f) match; x and d have n entries, y one per row of A and of E."""
    if len(A) != len(b) or len(E) != len(f):
        raise CertificateError("A and b (or E and f) have different numbers of rows")
    if len(x) != n or len(d) != n or len(y) != len(A) + len(E):
        raise CertificateError("x, y or d has the wrong length")


def _check_feasible(A, b, E, f, lo, up, x):
    """Check 1: A x <= b, E x = f, lower <= x <= upper."""
    for i, (r, bi) in enumerate(zip(A, b, strict=True)):
        if dot(r, x) > bi:
            raise CertificateError(f"x violates inequality {i}")
    for i, (r, fi) in enumerate(zip(E, f, strict=True)):
        if dot(r, x) != fi:
            raise CertificateError(f"x violates equality {i}")
    for j in range(len(x)):
        if (lo[j] is not None and x[j] < lo[j]) or (up[j] is not None and x[j] > up[j]):
            raise CertificateError(f"x violates the bounds of variable {j}")


def _check_stationary(A, E, yA, yE, d, c):
    """Check 2: y_A >= 0 and c = A^T y_A + E^T y_E + d."""
    if any(v < 0 for v in yA):
        raise CertificateError("a multiplier of an inequality is negative")
    stat = list(d)
    for rows, ys in ((A, yA), (E, yE)):
        for r, yi in zip(rows, ys, strict=True):
            for j, a in r.items():
                stat[j] += a * yi
    bad = [j for j in range(len(c)) if stat[j] != c[j]]
    if bad:
        raise CertificateError(f"the dual is not stationary: (A^T y + d)_j != c_j at j = {bad[0]}")


def _dual_value(b, f, yA, yE, d, lo, up) -> Fraction:
    """The dual value of check 3, b.y_A + f.y_E + the bound terms; each d_j != 0 needs a bound on its side (check 2)."""
    dual = (sum((bi * v for bi, v in zip(b, yA, strict=True)), Fraction(0))
            + sum((fi * v for fi, v in zip(f, yE, strict=True)), Fraction(0)))
    for j, dj in enumerate(d):
        if dj:
            bound = up[j] if dj > 0 else lo[j]
            if bound is None:
                raise CertificateError(f"bound multiplier d_{j} = {dj} has no bound on its side")
            dual += dj * bound
    return dual
