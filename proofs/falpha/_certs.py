"""Certificate builders for the f_alpha claims (issue 23): the paper's quantities as expressions of the checker's
language (:mod:`rldp_verify_check.value`), written from their definitions, which the checker evaluates in arb.

- :func:`renyi_expr`: D_alpha(P||Q) = 1/(alpha-1) log sum_x P(x)^alpha Q(x)^(1-alpha) (Sec. II-A, eq. (2));
- :func:`level_expr`: eps* = max_{w != w'} D_alpha(M_w || M_w') over the distinct rows (eqs. (47)-(48));
- :func:`phi_expr`: phi of eq. (53) with eta_TV = 1, log(R_alpha(Gamma_max, Gamma_min) g_alpha^{-1}(eps_f) + 1)/(alpha-1),
  with eps_f = D_{f_alpha}(RR_0 || RR_1) (eq. (3)), R_alpha of eq. (23), the Gammas of eqs. (20)-(21) and the printed
  inverse of eq. (41) on the branch that a separate certificate proves.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from rldp_verify.certificates.value import value_certificate


def _q(x) -> Fraction:
    return Fraction(x)


def renyi_expr(p, q, alpha) -> list:
    """D_alpha(P||Q) for exact P, Q and exact alpha > 0, alpha != 1: the engine's one expression builder
    (:func:`rldp_verify.certificates.divergence.renyi_expr`; an infinite divergence is refused with an InputError,
    a ValueError)."""
    from rldp_verify.certificates.divergence import renyi_expr as engine_renyi_expr

    return engine_renyi_expr(p, q, alpha)


def level_expr(rows, alpha) -> list:
    """eps* = max over ordered pairs of distinct rows of D_alpha (alpha > 1, rows with equal supports), the powers
    bound once by "let": ``$a<i>_<y>`` = M_i(y)^alpha, ``$b<i>_<y>`` = M_i(y)^(1-alpha)."""
    a = _q(alpha)
    rows = [list(map(_q, r)) for r in rows]
    binds = []
    for i, r in enumerate(rows):
        for y, v in enumerate(r):
            if v != 0:
                binds += [[f"a{i}_{y}", ["pow", v, a]], [f"b{i}_{y}", ["pow", v, 1 - a]]]
    pairs = []
    for i, j in permutations(range(len(rows)), 2):
        terms = []
        for y in range(len(rows[i])):
            if rows[i][y] == 0:
                continue
            if rows[j][y] == 0:
                raise ValueError("eps* is infinite (rows not mutually absolutely continuous)")
            terms.append(["*", f"$a{i}_{y}", f"$b{j}_{y}"])
        pairs.append(["/", ["log", ["+", *terms]], a - 1])
    return ["let", binds, ["max", *pairs]]


def f_alpha_expr(p, q, alpha) -> list:
    """D_{f_alpha}(P||Q) = sum_x Q(x) ((P(x)/Q(x))^alpha - 1) for alpha > 1 (eq. (3)), Q > 0 wherever P > 0."""
    a = _q(alpha)
    terms = []
    for x, y in zip(map(_q, p), map(_q, q), strict=True):
        if y == 0:
            if x != 0:
                raise ValueError("D_f_alpha is infinite")
            continue
        terms.append(["*", y, ["-", ["pow", ["/", x, y], a], 1]])
    return ["+", 0, *terms]


def gamma_exprs(rows) -> tuple[list, list]:
    """(Gamma_min, Gamma_max) of eqs. (20)-(21) over the rows (all positive where any is): the min and max of
    M_i(y)/M_j(y) over ordered pairs (with P = Q included: 1)."""
    rows = [list(map(_q, r)) for r in rows]
    ratios = sorted({r[y] / s[y] for r, s in permutations(rows, 2) for y in range(len(r)) if s[y] != 0} | {Fraction(1)})
    # the distinct ratios as quotients the checker divides itself
    quot = {}
    for r, s in permutations(rows, 2):
        for y in range(len(r)):
            if s[y] == 0:
                if r[y] != 0:
                    raise ValueError("Gamma_max is infinite")
                continue
            quot.setdefault(r[y] / s[y], ["/", r[y], s[y]])
    exprs = [quot.get(v, 1) for v in ratios]
    return ["min", *exprs], ["max", *exprs]


def r_alpha_expr(u, v, alpha) -> list:
    """R_alpha(u, v) = (u^alpha - 1)/(u - 1) - (1 - v^alpha)/(1 - v) of eq. (23), for u > 1 > v (expressions)."""
    a = _q(alpha)
    return ["-", ["/", ["-", ["pow", u, a], 1], ["-", u, 1]], ["/", ["-", 1, ["pow", v, a]], ["-", 1, v]]]


def switch_h_expr(alpha) -> list:
    """The printed switch point of eq. (41): h_1 = 2 - 2/alpha (alpha < 2), h_2 = (1 + 4 alpha^-2)^(alpha-1) - 1."""
    a = _q(alpha)
    if a < 2:
        return ["-", 2, ["/", 2, a]]
    return ["-", ["pow", ["+", 1, ["/", 4, ["*", a, a]]], a - 1], 1]


def g_inverse_expr(s, alpha, branch: str) -> list:
    """Eq. (41)'s printed g_alpha^{-1}(s) on the given branch: "low" (s < h): sqrt(log(1+s)/(2(alpha-1))) for
    alpha < 2, sqrt((s+1)^{1/(alpha-1)} - 1)/2 for alpha >= 2; "high" (s >= h): max(1 - (s+1)^{1/(1-alpha)}, 1/alpha)."""
    a = _q(alpha)
    if branch == "high":
        return ["max", ["-", 1, ["pow", ["+", s, 1], 1 / (1 - a)]], 1 / a]
    if a < 2:
        return ["sqrt", ["/", ["log", ["+", 1, s]], 2 * (a - 1)]]
    return ["/", ["sqrt", ["-", ["pow", ["+", s, 1], 1 / (a - 1)], 1]], 2]


def branch_cert(name: str, s, alpha, branch: str) -> dict:
    """The ``rigorous-value`` certificate that s - h < 0 (branch "low") or s - h >= 0 ("high"), h the printed
    switch point of eq. (41): which formula of eq. (41) applies."""
    e = ["-", s, switch_h_expr(alpha)]
    if branch == "low":
        return value_certificate(name, e, upper=0, strict=True)
    return value_certificate(name, e, lower=0)


def phi_expr(rr_rows, out_rows, alpha, branch: str) -> list:
    """phi of eq. (53) with eta_TV = 1: log(R_alpha(Gamma_max, Gamma_min) g^{-1}(eps_f) + 1)/(alpha - 1), eps_f =
    D_f_alpha(RR_0 || RR_1), the Gammas over the output rows ``out_rows``."""
    a = _q(alpha)
    gmin, gmax = gamma_exprs(out_rows)
    eps_f = f_alpha_expr(rr_rows[0], rr_rows[1], a)
    inner = ["+", ["*", r_alpha_expr(gmax, gmin, a), g_inverse_expr(eps_f, a, branch)], 1]
    return ["/", ["log", inner], a - 1]


def equality_certificate(name: str, lhs, rhs, why: str) -> dict:
    """The ``symbolic-identity`` certificate, with no variables, of the exact rational equality lhs == rhs
    (expressions of + - * / and integer powers of exact numbers): the checker evaluates lhs - rhs in exact
    rationals and requires 0."""
    from rldp_verify.certificates import envelope
    from rldp_verify.certificates.value import expr

    return envelope("symbolic-identity", name, {"lhs": expr(lhs), "rhs": expr(rhs), "variables": [],
                                                "substitution": why}, {"points": {}})


def power_sum_expr(P, Q, W, alpha: int) -> list:
    """sum_y P_Y(y)^alpha Q_Y(y)^(1-alpha) for integer alpha >= 2, with P_Y = W o P and Q_Y = W o Q written as
    sums the checker evaluates (W = None: the inputs themselves). Cells with Q_Y(y) = 0 are left out (they need
    P_Y(y) = 0, checked here: P << Q)."""
    n = len(P)
    if W is None:
        W = [[Fraction(int(x == y)) for y in range(n)] for x in range(n)]
    terms = []
    for y in range(len(W[0])):
        qy = sum(Fraction(W[x][y]) * Fraction(Q[x]) for x in range(n))
        py = sum(Fraction(W[x][y]) * Fraction(P[x]) for x in range(n))
        if qy == 0:
            if py != 0:
                raise ValueError("P_Y is not << Q_Y")
            continue
        pe = ["+", 0, *[["*", W[x][y], P[x]] for x in range(n) if W[x][y] and P[x]]]
        qe = ["+", *[["*", W[x][y], Q[x]] for x in range(n) if W[x][y] and Q[x]]]
        terms.append(["*", ["pow", pe, alpha], ["pow", qe, 1 - alpha]])
    return ["+", *terms]


def witness_certs(W, i: int, j: int, alphas) -> list[dict]:
    """Appendix B's witness at gamma = 0 (P = delta_i, Q = (delta_i + delta_j)/2, rows i, j of W disjoint): per
    integer alpha, the exact equality of the output and input power sums sum P^alpha Q^(1-alpha) (the input one is
    2^(alpha-1) != 1), so D_alpha(P_Y||Q_Y) / D_alpha(P_X||Q_X) = 1."""
    n = len(W)
    P = [Fraction(int(k == i)) for k in range(n)]
    Q = [Fraction(int(k == i) + int(k == j), 2) for k in range(n)]
    tag = f"W = {[[str(x) for x in r] for r in W]}, rows {i}, {j}"
    return [equality_certificate(f"sum P_Y^a Q_Y^(1-a) = sum P_X^a Q_X^(1-a), alpha = {a}, {tag}",
                                 power_sum_expr(P, Q, W, a), power_sum_expr(P, Q, None, a),
                                 "no variables: an exact rational equality (integer alpha)") for a in alphas]
