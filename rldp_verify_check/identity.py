"""``symbolic-identity``: lhs == rhs as rational functions of named variables, proved by exact evaluation.

Statement: ``lhs``, ``rhs`` (expressions), ``variables`` (names), optional ``substitution`` (words: how the
paper's identity, e.g. one in exp(eps), becomes this rational one, e.g. "t = e^eps"; not checked).  Data:
``points``: {name: [exact numbers]}, the grid.  Expressions: a number (int or exact string), ``"$name"`` (a
variable), or ``["+", a, ...]``, ``["*", a, ...]``, ``["-", a]`` / ``["-", a, b]``, ``["/", a, b]``,
``["pow", a, k]`` (k an integer).

The argument (the grid case of the combinatorial Nullstellensatz).  Each expression e is, formally and
without cancellation, N_e / D_e with polynomials N_e, D_e: a variable x is x / 1, a / b is (N_a D_b) / (D_a N_b),
a + b is (N_a D_b + N_b D_a) / (D_a D_b), and so on.  The checker computes itself, per variable x, bounds
dN_e(x), dD_e(x) on the degrees in x of N_e and D_e (:func:`degrees`).  If e evaluates in exact rationals at a
point p without a division by zero, then D_e(p) != 0 and e(p) = N_e(p) / D_e(p) (by induction: a divisor b
with b(p) != 0 and D_b(p) != 0 has N_b(p) != 0).  A polynomial N with deg_x N <= d_x for every x that vanishes
on a grid S_1 x ... x S_n with |S_x| >= d_x + 1 distinct points is the zero polynomial (induction on n: a
one-variable polynomial of degree d with d + 1 roots is 0).  So with e = lhs - rhs: if e is 0 at every grid
point, with |S_x| >= dN_e(x) + 1, then N_e = 0, D_e != 0 (it is non-zero at a grid point), and lhs = rhs
wherever both are defined.  The certificate's points are data: the checker requires them distinct, at least
dN_e(x) + 1 per variable, and rejects a division by zero at any grid point.
"""

from __future__ import annotations

import flint

from rldp_verify_check import CertificateError, q

MAX_POINTS = 10**5


def _k(e) -> int:
    """The integer exponent of a "pow" node."""
    k = q(e)
    if k.denominator != 1:
        raise CertificateError(f"non-integer power {e!r}")
    return int(k)


def degrees(e, names) -> tuple[dict, dict]:
    """Per variable, bounds on the degrees of N_e and D_e (the formal numerator and denominator of ``e``)."""
    zero = dict.fromkeys(names, 0)
    if isinstance(e, str) and e.startswith("$"):
        if e[1:] not in zero:
            raise CertificateError(f"variable {e} not among the stated variables")
        return {**zero, e[1:]: 1}, zero
    if not isinstance(e, list):
        q(e)
        return zero, zero
    op, args = (e[0], e[1:]) if e else (None, [])
    if op == "pow" and len(args) == 2:
        (n, d), k = degrees(args[0], names), _k(args[1])
        n, d = (n, d) if k >= 0 else (d, n)
        return {x: abs(k) * n[x] for x in names}, {x: abs(k) * d[x] for x in names}
    subs = [degrees(a, names) for a in args]
    if not subs or op not in ("+", "*", "-", "/") or (op == "/" and len(subs) != 2) or (op == "-" and len(subs) > 2):
        raise CertificateError(f"malformed expression node {str(e)[:80]}")
    if op == "/":
        (na, da), (nb, db) = subs
        return {x: na[x] + db[x] for x in names}, {x: da[x] + nb[x] for x in names}
    n, d = subs[0]
    for nb, db in subs[1:]:
        n = {x: n[x] + nb[x] if op == "*" else max(n[x] + db[x], nb[x] + d[x]) for x in names}
        d = {x: d[x] + db[x] for x in names}
    return n, d


def evaluate(e, env: dict) -> flint.fmpq:
    """The exact value of ``e`` at the point ``env`` ({"$name": fmpq}); ZeroDivisionError on a zero divisor."""
    if isinstance(e, str) and e.startswith("$"):
        return env[e]
    if not isinstance(e, list):
        c = q(e)
        return flint.fmpq(c.numerator, c.denominator)
    op, xs = e[0], [evaluate(a, env) for a in e[1:]] if e[0] != "pow" else [evaluate(e[1], env)]
    if op == "pow":
        k = _k(e[2])
        if k < 0 and xs[0] == 0:
            raise ZeroDivisionError("negative power of 0")
        return xs[0] ** k
    out = xs[0]
    for x in xs[1:]:
        out = out + x if op == "+" else out * x if op == "*" else out - x if op == "-" else out / x
    return -out if op == "-" and len(xs) == 1 else out


def check(st: dict, data: dict) -> str:
    """Check a ``symbolic-identity`` certificate; returns what was proved or raises CertificateError."""
    names = list(st["variables"])
    if len(set(names)) != len(names) or not all(isinstance(x, str) for x in names):
        raise CertificateError(f"variables must be distinct names: {names!r}")
    e = ["-", st["lhs"], st["rhs"]]
    dn, _ = degrees(e, names)
    grid = []
    for x in names:
        pts = [q(v) for v in data["points"][x]]
        if len(set(pts)) != len(pts) or len(pts) < dn[x] + 1:
            raise CertificateError(f"variable {x}: {len(set(pts))} distinct points, the numerator's degree bound "
                                   f"{dn[x]} needs {dn[x] + 1}")
        grid.append([flint.fmpq(v.numerator, v.denominator) for v in pts])
    points: list[list] = [[]]
    for g in grid:
        points = [p + [c] for p in points for c in g]
        if len(points) > MAX_POINTS:
            raise CertificateError(f"a grid of more than {MAX_POINTS} points")
    size = len(points)
    for p in points:
        at = {"$" + x: c for x, c in zip(names, p, strict=True)}
        try:
            v = evaluate(e, at)
        except ZeroDivisionError:
            raise CertificateError(f"a denominator vanishes at the grid point {at}") from None
        if v != 0:
            raise CertificateError(f"lhs - rhs = {v} != 0 at {at}")
    degs = ", ".join(f"{x}: {dn[x]}" for x in names)
    return f"lhs == rhs as rational functions (numerator degree <= {{{degs}}}, 0 on a grid of {size} points)"
