"""Certificates (issue 23) for the claims of Kairouz, Oh & Viswanath: expressions of the checker's language
(:mod:`rldp_verify_check.value`) for the paper's quantities, and the weak-duality certificate of an upper
bound on the optimum of the staircase LP (11).

Expressions are built from exact rationals only; the checker evaluates them itself in arb.

- :func:`kl_expr`, :func:`g_expr` -- D_kl(P0||P1) and G(P0, P1) = sum_x (1 - P0(x)) log(P1(x)/P0(x)) (Sec. 3);
- :func:`rr_kl_expr` -- D_kl(M0||M1) of randomized response (21) at e^eps = exp(eps), eq. (92);
- :func:`mu_expr` -- mu(S_j) of a column for KL (f(x) = x log x), symmetrised KL ((x - 1) log x), mutual
  information (eq. (96)) and chi^2 / TV (exact);
- :func:`utility_expr` -- U(Q) = sum_y mu(Q_y) (eq. (8));
- :func:`staircase_bound_certificate` -- OPT of LP (11) <= a bound, by a rational dual alpha with
  S_j^T alpha >= mu(S_j) for every pattern column j (weak duality: OPT <= 1^T alpha).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.value import value_certificate
from rldp_verify.topics.extremal.staircase import pattern_matrix

F = Fraction
ETA = Fraction(1, 10 ** 30)   # default slack added to a rational dual


def _dot(P, col) -> Fraction:
    return sum((F(p) * F(c) for p, c in zip(P, col, strict=True)), F(0))


def kl_expr(P0, P1) -> list:
    """D_kl(P0||P1) = sum_x P0(x) log(P0(x)/P1(x)) (cells with P0(x) = 0 contribute 0)."""
    return ["+", 0, *[["*", F(a), ["log", F(a) / F(b)]] for a, b in zip(P0, P1, strict=True) if a != 0]]


def g_expr(P0, P1) -> list:
    """G(P0, P1) = sum_x (1 - P0(x)) log(P1(x)/P0(x)) (Sec. 3, Corollary 10)."""
    return ["+", 0, *[["*", 1 - F(a), ["log", F(b) / F(a)]] for a, b in zip(P0, P1, strict=True)]]


def rr_kl_expr(P0, P1, eps) -> list:
    """D_kl(M0||M1) of randomized response at t = e^eps (eq. (92)):
    sum_x (P0(x)(t-1)+1) log((P0(x)(t-1)+1)/(P1(x)(t-1)+1)) / (t + k - 1)."""
    k = len(P0)
    terms = []
    for a, b in zip(P0, P1, strict=True):
        num = ["+", ["*", F(a), ["-", "$t", 1]], 1]
        den = ["+", ["*", F(b), ["-", "$t", 1]], 1]
        terms.append(["*", num, ["log", ["/", num, den]]])
    return ["let", [["t", ["exp", F(eps)]]], ["/", ["+", 0, *terms], ["+", "$t", k - 1]]]


def mu_expr(name: str, col, *, P0=None, P1=None, P=None):
    """mu(S_j) for the column ``col`` (exact numbers) as an expression (or an exact rational for chi2 / tv)."""
    col = [F(c) for c in col]
    if name == "mi":   # eq. (96): sum_i P_i c_i log(c_i / P.c)
        pc = _dot(P, col)
        return ["+", 0, *[["*", F(p) * c, ["log", c / pc]] for p, c in zip(P, col, strict=True) if p * c != 0]]
    a, b = _dot(P0, col), _dot(P1, col)
    if name == "kl":
        return 0 if a == 0 else ["*", a, ["log", a / b]]
    if name == "symkl":
        return ["*", a - b, ["log", a / b]]
    if name == "chi2":
        return (a - b) ** 2 / b
    if name == "tv":
        return abs(a - b) / 2
    raise ValueError(f"unknown utility {name!r}")


def utility_expr(name: str, Q, **dists) -> list:
    """U(Q) = sum_y mu(Q_y) (eq. (8)) for a mechanism given by rows Q[x][y]; zero columns contribute 0."""
    k = len(Q)
    cols = [[F(Q[i][y]) for i in range(k)] for y in range(len(Q[0]))]
    return ["+", 0, *[mu_expr(name, c, **dists) for c in cols if any(c)]]


def _rational_dual(alpha, eta: Fraction, digits: int = 40) -> list[Fraction]:
    """A rational alpha' >= alpha + eta/k entrywise (arb balls rounded up, then up to ``digits`` decimals):
    S_j >= 1 entrywise, so S_j^T alpha' >= S_j^T alpha + eta for every column (the reduced costs move up)."""
    import math

    from rldp_verify.core.rigorous import as_arb, upper

    k, scale = len(alpha), 10 ** digits
    return [F(math.ceil((upper(as_arb(a)) + eta / k) * scale), scale) for a in alpha]


def staircase_bound_certificate(name: str, k: int, t, mu: str, bound, alpha, *, eta=ETA,
                                **dists) -> dict:
    """The ``rigorous-value`` certificate of OPT(LP (11)) <= ``bound`` (an expression) for the utility ``mu``
    ("kl", "symkl", "mi", ...) at t = e^eps: with the rational dual alpha' (from the engine's ``alpha``, see
    :func:`_rational_dual`), min( min_j [S_j^T alpha' - mu(S_j)], bound - 1^T alpha' ) >= 0, over all 2^k pattern
    columns S_j of S^(k) (eq. (10)). By weak duality OPT = max {mu^T theta : S theta = 1, theta >= 0} <=
    1^T alpha' <= bound. The checker evaluates every mu(S_j) and the bound itself."""
    t = F(t)
    a = _rational_dual(alpha, F(eta))
    rcs = [["-", sum((ai * c for ai, c in zip(a, col, strict=True)), F(0)), mu_expr(mu, col, **dists)]
           for col in pattern_matrix(k, t)]
    return value_certificate(name, ["min", *rcs, ["-", bound, sum(a, F(0))]], lower=0)



def feasibility_certificate(name: str, x, A=(), b=(), E=(), f=()) -> dict:
    """The ``lp-optimum`` certificate of max 0 over {x >= 0 : A x <= b, E x = f} at the exact point ``x`` (all
    multipliers 0): the checker verifies that x is feasible, i.e. that the system has a non-negative solution."""
    from rldp_verify.certificates import envelope, qs
    from rldp_verify.certificates.lp import _rows

    n = len(x)
    st = {"sense": "max", "c": [0] * n, "A": _rows(A), "b": [qs(v) for v in b], "E": _rows(E),
          "f": [qs(v) for v in f], "value": 0, "lower": [0] * n}
    return envelope("lp-optimum", name, st, {"x": [qs(v) for v in x], "y": [0] * (len(A) + len(E)), "d": [0] * n})
