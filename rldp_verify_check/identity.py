"""``symbolic-identity``: lhs == rhs as rational functions of named variables, proved by exact evaluation.

Statement: ``lhs``, ``rhs`` (expressions), ``variables`` (names), optional ``substitution`` (words: how the
paper's identity, e.g. one in exp(eps), becomes this rational one, e.g. "t = e^eps"; not checked).  Data:
``points``: {name: [exact numbers]}, the grid.  Expressions: a number (int or exact string), ``"$name"`` (a
variable), or ``["+", a, ...]``, ``["*", a, ...]``, ``["-", a]`` / ``["-", a, b]``, ``["/", a, b]``,
``["pow", a, k]`` (k an integer).

The argument (a grid Nullstellensatz).  Each expression e is, formally and without cancellation, N_e / D_e with
polynomials N_e, D_e: a variable x is x / 1, a / b is (N_a D_b) / (D_a N_b), a + b is (N_a D_b + N_b D_a) / (D_a D_b),
and so on.  The checker computes itself bounds d_x on the degree in each variable x and D on the total degree of
N_e and D_e (:func:`degrees`; the total degree is the key "").  If e evaluates in exact rationals at a point p
without a division by zero, then D_e(p) != 0 and e(p) = N_e(p) / D_e(p) (by induction: a divisor b with b(p) != 0
and D_b(p) != 0 has N_b(p) != 0).  Let c_{x,0}, c_{x,1}, ... be distinct points per variable and L a lower set of
exponents (alpha in L, beta <= alpha imply beta in L).  A polynomial N whose monomials x^alpha all have alpha in L
and that vanishes at every point (c_{1,alpha_1}, ..., c_{n,alpha_n}), alpha in L, is zero: divide by x_n - c_{n,0},
N = (x_n - c_{n,0}) Q + R; R's monomials lie in L with alpha_n = 0 and R vanishes at those points, so R = 0 (induction
on n); Q's monomials lie in the lower set {alpha : alpha + e_n in L}, and Q vanishes at its points with x_n's
points shifted to c_{n,1}, c_{n,2}, ... (there x_n - c_{n,0} != 0), so Q = 0 (induction on |L|).  The checker
takes L = {alpha : alpha_x <= d_x, sum alpha <= D}, which holds N_e's monomials, so with e = lhs - rhs: if e is 0
at every point of L, then N_e = 0, D_e != 0 (it is non-zero there), and lhs = rhs wherever both are defined.  The
certificate's points are data: the checker requires them distinct and at least d_x + 1 per variable (it uses the
first d_x + 1, in order) and rejects a division by zero at any point of L.

Log and exp atoms (optional ``atoms`` {a: ["log", b_a] or ["exp", y_a]}, in order: a definition uses the variables
and earlier atoms only).  Atom a has a base beta_a and a log lambda_a: (b_a, $a) if a log atom, ($a, y_a) if an exp
atom.  Nodes ``["log", x, {a: n_a}]``, ``["exp", x, {a: n_a}]`` (integers n_a) stand for log x, exp x; the checker
proves x == prod beta_a^n_a (log) or x == sum n_a lambda_a (exp) as rational identities (the grid above), replaces the
node by sum n_a lambda_a or prod beta_a^n_a, and proves lhs == rhs with the atoms as variables.  Where every b_a > 0,
the atoms take in order the values $a = log b_a, $a = exp(y_a); as log(prod beta^n) = sum n log(beta), exp(sum n
lambda) = prod exp(lambda)^n and log beta_a = lambda_a, each replaced node has its node's value, and an identity in
independent variables holds at these values.  Only there is it proved."""

from __future__ import annotations

import flint

from rldp_verify_check import CertificateError, q
from rldp_verify_check.value import evaluate

MAX_POINTS = 10**5


def degrees(e, names) -> tuple[dict, dict]:
    """Per variable, and for the total degree (key ""), bounds on the degrees of N_e and D_e (the formal numerator
    and denominator of ``e``)."""
    zero = dict.fromkeys([*names, ""], 0)
    if isinstance(e, str) and e.startswith("$"):
        if not e[1:] or e[1:] not in zero:
            raise CertificateError(f"variable {e} not among the stated variables")
        return {**zero, e[1:]: 1, "": 1}, zero
    if not isinstance(e, list):
        q(e)
        return zero, zero
    op, args = (e[0], e[1:]) if e else (None, [])
    if op == "pow" and len(args) == 2:
        if (k := q(args[1])).denominator != 1:
            raise CertificateError(f"non-integer power {args[1]!r}")
        n, d = degrees(args[0], names)
        n, d = (n, d) if k >= 0 else (d, n)
        return {x: int(abs(k)) * n[x] for x in zero}, {x: int(abs(k)) * d[x] for x in zero}
    subs = [degrees(a, names) for a in args]
    if not subs or op not in ("+", "*", "-", "/") or (op == "/" and len(subs) != 2) or (op == "-" and len(subs) > 2):
        raise CertificateError(f"malformed expression node {str(e)[:80]}")
    return _combine(op, subs)


def _combine(op: str, subs: list) -> tuple[dict, dict]:
    """The degree bounds of N and D for a "/", "*", "+" or "-" node from its arguments' (N_a, D_a) bounds."""
    if op == "/":
        (na, da), (nb, db) = subs
        return {x: na[x] + db[x] for x in na}, {x: da[x] + nb[x] for x in na}
    n, d = subs[0]
    for nb, db in subs[1:]:
        n = {x: n[x] + nb[x] if op == "*" else max(n[x] + db[x], nb[x] + d[x]) for x in n}
        d = {x: d[x] + db[x] for x in d}
    return n, d


def replace_atoms(st: dict) -> tuple:
    """(lhs, rhs, the atoms' names, the node identities [(x, its value)]), log and exp nodes replaced (docstring)."""
    beta, lam, known, checks = {}, {}, list(st["variables"]), []  # type: dict, dict, list, list

    def sub(e):
        if not (isinstance(e, list) and e and e[0] in ("log", "exp")):
            return [e[0], *map(sub, e[1:])] if isinstance(e, list) and e else e
        ns = e[2]
        if not isinstance(ns, dict) or any(a not in lam or type(n) is not int for a, n in ns.items()):
            raise CertificateError(f"{e[0]} node {str(e)[:80]}: integers n_a of atoms declared before it needed")
        prod = ["*", 1, *(["pow", beta[a], n] for a, n in ns.items())]
        total = ["+", 0, *(["*", n, lam[a]] for a, n in ns.items())]
        checks.append((sub(e[1]), prod if e[0] == "log" else total))
        return total if e[0] == "log" else prod
    for a, (kind, d) in dict(st.get("atoms", {})).items():
        if kind not in ("log", "exp") or degrees(d := sub(d), known) is None:   # a later atom in d: not among known
            raise CertificateError(f"atom {a!r}: {kind!r} is not log or exp")
        beta[a], lam[a] = (d, "$" + a) if kind == "log" else ("$" + a, d)
        known.append(a)
    return sub(st["lhs"]), sub(st["rhs"]), list(beta), checks


def check(st: dict, data: dict) -> str:
    """Check a ``symbolic-identity`` certificate; returns what was proved or raises CertificateError."""
    lhs, rhs, atoms, checks = replace_atoms(st)
    names = [*st["variables"], *atoms]
    if len(set(names)) != len(names) or not all(isinstance(x, str) and x for x in names):
        raise CertificateError(f"variables and atoms must be distinct names: {names!r}")
    for k, (x, y) in enumerate(checks):
        _zero(["-", x, y], names, data, f"log/exp node {k}: its argument - its value")
    out = _zero(["-", lhs, rhs], names, data)
    logs = ", ".join(a for a, (kind, _) in dict(st.get("atoms", {})).items() if kind == "log")
    where = f" wherever the bases of {logs} are > 0" if logs else ""
    return out + (f"; {len(checks)} log/exp nodes{where}" if checks else "")


def _zero(e, names: list, data: dict, what: str = "lhs - rhs") -> str:
    """e == 0 as a rational function of ``names`` on the certificate's grid (module docstring)."""
    dn, _ = degrees(e, names)
    grid = []
    for x in names:
        pts = [q(v) for v in data["points"][x]]
        if len(set(pts)) != len(pts) or len(pts) < dn[x] + 1:
            raise CertificateError(f"variable {x}: {len(set(pts))} distinct points, the numerator's degree bound "
                                   f"{dn[x]} needs {dn[x] + 1}")
        grid.append([flint.fmpq(v.numerator, v.denominator) for v in pts])
    points: list[tuple] = [([], 0)]    # (the point, sum of its exponents alpha) for alpha in the lower set L
    for x, g in zip(names, grid, strict=True):
        points = [(p + [g[k]], a + k) for p, a in points for k in range(dn[x] + 1) if a + k <= dn[""]]
        if len(points) > MAX_POINTS:
            raise CertificateError(f"more than {MAX_POINTS} points")
    size = len(points)
    for p, _ in points:
        at = {"$" + x: c for x, c in zip(names, p, strict=True)}
        try:
            v = evaluate(e, at, exact=True)
        except (ZeroDivisionError, CertificateError):   # a zero divisor, or 0 to a negative power
            raise CertificateError(f"a denominator vanishes at the grid point {at}") from None
        if v != 0:
            raise CertificateError(f"{what} = {v} != 0 at {at}")
    degs = ", ".join(f"{x}: {dn[x]}" for x in names)
    return (f"lhs == rhs as rational functions (numerator degree <= {{{degs}}}, total <= {dn['']}; 0 at {size} "
            "points)")
